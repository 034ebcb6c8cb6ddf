"""Column names: the canonical fields, their aliases, which operation uses which, and `--column` mappings.

`columns.py` resolves a file's header against these.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Iterable

from ari_cli.operations import DESCRIPTORS, of
from ari_cli.operations.descriptor import WEEKDAY_FLAGS as WEEKDAY_FLAGS
from ari_cli.operations.policy import DEPOSIT_FIELDS as DEPOSIT_FIELDS
from ari_cli.operations.policy import LEVEL_FIELDS as LEVEL_FIELDS
from ari_cli.operations.policy import NAMED_POLICY as NAMED_POLICY
from ari_cli.operations.policy import VALUE_FIELDS
from ari_cli.wire.operations import Operation

OPTIONAL: frozenset[str] = frozenset({"days", *WEEKDAY_FLAGS}).union(
    *(d.optional for d in DESCRIPTORS.values()), *(d.needed_by for d in DESCRIPTORS.values())
)
"""The columns that may be missing: the weekday filter, and those each operation names (optional, or needed by
some rows only, which their check asks for)."""
POLICY_VALUES: frozenset[str] = frozenset(VALUE_FIELDS)
RANGE_FIELDS = ("start", "end")
ONE_CELL_DATES = ("date", "period")
"""The columns that give a row's start and end in one cell: a date (both the same day) or a period (a range)."""

# Display spelling of each accepted name; the key is what it normalizes to.
ALIASES: dict[str, tuple[str, ...]] = {
    "propertyid": ("property", "hotel", "hotelid"),
    "roomid": ("room", "roomtype"),
    "rateid": ("rate", "rateplan"),
    # Range columns by the names exports give them; an end is the last day set (inclusive), as `Last Night`
    # and `Valid Until` are: `Departure` and `Check-out` (the day after) are not taken for it.
    "start": (
        "startdateymd",
        "startdate",
        "from",
        "date from",
        "from date",
        "valid from",
        "begin",
        "begin date",
        "first night",
        "first date",
    ),
    "end": ("enddateymd", "enddate", "to", "date to", "to date", "valid to", "valid until", "last night", "last date"),
    # A range in one cell (`2026-12-01..2026-12-31`): both bounds, read by records/dates.py's `period_ends`.
    "period": ("dates", "date range", "stay dates", "stay period", "validity period"),
    # Each operation's own columns, as its descriptor spells them.
    **{name: spelt for d in DESCRIPTORS.values() for name, spelt in d.aliases.items()},
    "days": ("weekday", "weekdays", "dow", "day of week", "days of week"),
    "mon": ("monday", "mo"),
    "tue": ("tuesday", "tu", "tues"),
    "wed": ("wednesday", "we"),
    "thu": ("thursday", "th", "thur", "thurs"),
    "fri": ("friday", "fr"),
    "sat": ("saturday", "sa"),
    "sun": ("sunday", "su"),
}

# The shared columns by the words of the other languages of `languages.py`, as the README's table lists them
# (an operation's own columns have theirs in its descriptor). Kept apart from ALIASES, which the hint lists.
ABROAD: dict[str, tuple[str, ...]] = {
    "propertyid": ("Objekt", "Betrieb", "établissement", "propiedad", "establecimiento", "albergo",
                   "struttura", "accommodatie", "propriedade", "estabelecimento"),
    "roomid": ("Zimmer", "Zimmertyp", "Zimmerkategorie", "chambre", "type de chambre", "habitación",
               "tipo de habitación", "camera", "tipo camera", "kamer", "kamertype", "quarto", "tipo de quarto"),
    "rateid": ("Tarif", "Ratencode", "plan tarifaire", "tarifa", "plan tarifario", "tariffa", "piano tariffario",
               "tarief", "plano tarifário"),
    "start": ("von", "ab", "Beginn", "Startdatum", "gültig ab", "du", "début", "date de début", "desde",
              "inicio", "fecha de inicio", "fecha desde", "dal", "inizio", "data inizio", "data di inizio", "van",
              "vanaf", "begindatum", "startdatum", "de", "início", "data de início", "data inicial"),
    "end": ("bis", "Ende", "Enddatum", "gültig bis", "au", "fin", "date de fin", "jusqu'au", "hasta",
            "fecha de fin", "fecha hasta", "al", "fino al", "data fine", "data di fine", "tot", "tot en met", "t/m",
            "einde", "einddatum", "até", "fim", "data de fim", "data final"),
    "date": ("Datum", "fecha"),  # not `data` (Italian, Portuguese): an English `Data` column is no date
    "period": ("Zeitraum", "période", "periodo", "período", "fechas", "periode"),
    "days": ("Tage", "Wochentage", "Wochentag", "jours", "jours de la semaine", "días", "días de la semana",
             "giorni", "giorni della settimana", "dagen", "weekdagen", "dias", "dias da semana"),
}  # fmt: skip

_STRIP = re.compile(r"[\s_\-\ufeff]+")


def normalize(name: str) -> str:
    """The form names are compared in: lower case, without spaces, `_`, `-` (or a stray BOM), nor accents
    (`Début` is debut, as people type it without them)."""
    plain = unicodedata.normalize("NFKD", _STRIP.sub("", name).lower())
    return "".join(c for c in plain if not unicodedata.combining(c))


def _build_lookup() -> tuple[dict[str, str], dict[str, str]]:
    canonical: dict[str, str] = {}
    display: dict[str, str] = {}
    for descriptor in DESCRIPTORS.values():
        for name in descriptor.columns:
            canonical[name] = name
            display[name] = name
    for name, aliases in [*ALIASES.items(), *ABROAD.items(), *_OWN_ABROAD]:
        for alias in aliases:
            canonical[normalize(alias)] = name
            display[normalize(alias)] = alias
    return canonical, display


_OWN_ABROAD = [item for d in DESCRIPTORS.values() for item in d.abroad.items()]
CANONICAL, DISPLAY = _build_lookup()
"""Normalized name or alias -> canonical field name, for every operation."""

# One wrong letter in a 4-letter name (`dayz`, 0.75) still matches: a column the operation uses must never be
# dropped as unknown. Known names (`rate` is rateid's alias) are never taken for misspellings.
_CUTOFF = 0.75


def suggest(name: str) -> str | None:
    """The known name or alias (as users write it) that `name` looks like a misspelling of."""
    key = normalize(name)
    if not key or key in CANONICAL:
        return None
    close = difflib.get_close_matches(key, CANONICAL, n=1, cutoff=_CUTOFF)
    return DISPLAY[close[0]] if close else None


def expected_columns(operation: Operation) -> str:
    """The expected columns of an operation, as the error messages list them."""
    columns = of(operation).columns
    shown: list[str] = []
    for name in columns:
        if name in (*ONE_CELL_DATES, NAMED_POLICY, *WEEKDAY_FLAGS):
            continue
        if name == "end":
            shown.append("end (or date for start and end)")
        elif name in of(operation).needed_by:
            shown.append(f"{name} (for {of(operation).needed_by[name]})")
        elif name in OPTIONAL:
            shown.append(f"{name} (optional)")
        else:
            shown.append(name)
    named = ""
    if NAMED_POLICY in columns:
        named = f"; or, for refundable and the level and deposit columns, {NAMED_POLICY} (a name from --policies)"
    return f"expected columns for {operation.value}: {', '.join(shown)}{named}"


def alias_hint() -> str:
    """A hint listing the accepted spellings of names."""
    listed = "; ".join(
        f"{name}: {', '.join(aliases)}" for name, aliases in ALIASES.items() if name not in WEEKDAY_FLAGS
    )
    return (
        f"names ignore case, spaces, _ and -; also accepted: {listed}; "
        "and for the days, seven flag columns Mon ... Sun (or Monday ... Sunday, Mo ... Su) of Y or N"
    )


def column_mapping(operation: Operation, given: Iterable[str]) -> dict[str, str]:
    """--column FIELD=HEADER values as field -> header; FIELD is a field of the operation (or an alias).

    Raises ValueError with a message for the user.
    """
    mapping: dict[str, str] = {}
    for item in given:
        name, equals, header = item.partition("=")
        header = header.strip().strip('"').strip()
        if not equals or not name.strip() or not header:
            raise ValueError(f'"{item}" is not FIELD=HEADER, e.g. --column threshold="Min Rooms Unsold"')
        canonical = CANONICAL.get(normalize(name))
        columns = of(operation).columns
        if canonical not in columns:
            fields = ", ".join(c for c in columns if c not in WEEKDAY_FLAGS)
            raise ValueError(f'"{name.strip()}" is not a field of {operation.value}; the fields are {fields}')
        if canonical in mapping and mapping[canonical] != header:
            raise ValueError(f'{canonical} is mapped twice: to "{mapping[canonical]}" and to "{header}"')
        mapping[canonical] = header
    return mapping
