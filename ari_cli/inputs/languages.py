"""The words of the seven languages a file may be written in: weekdays, months, yes and no. Plain data, read by all.

One `Language` per language. Words are kept as `fold` makes them (lower case, no accents, no dot), so that
`Mié.`, `mie` and `MIÉ` are one word; the first word of a day or a month is its full name, the rest are the
usual abbreviations. `daywords.py` reads weekdays with these; `records/dates.py` reads month names
(`MONTH_OF`) and the words of a range (`RANGE_WORDS`), and the policy's true/false fields read theirs here too.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Language:
    name: str
    days: tuple[tuple[str, ...], ...]
    """Monday first: each day's full name, then its usual abbreviations."""
    letters: str
    """The one-letter names of the days, Monday first, as a calendar's heading writes them."""
    months: tuple[tuple[str, ...], ...]
    """January first: each month's full name, then its usual abbreviations."""
    yes: tuple[str, ...]
    no: tuple[str, ...]


ENGLISH = Language(
    "English",
    days=(("monday", "mon", "mo"), ("tuesday", "tue", "tues", "tu"), ("wednesday", "wed", "weds", "we"),
          ("thursday", "thu", "thur", "thurs", "th"), ("friday", "fri", "fr"), ("saturday", "sat", "sa"),
          ("sunday", "sun", "su")),
    letters="MTWTFSS",
    months=(("january", "jan"), ("february", "feb"), ("march", "mar"), ("april", "apr"), ("may",),
            ("june", "jun"), ("july", "jul"), ("august", "aug"), ("september", "sep", "sept"), ("october", "oct"),
            ("november", "nov"), ("december", "dec")),
    yes=("yes", "y", "true"),
    no=("no", "n", "false"),
)  # fmt: skip
GERMAN = Language(
    "German",
    days=(("montag", "mo", "mon"), ("dienstag", "di", "die"), ("mittwoch", "mi", "mit"),
          ("donnerstag", "do", "don"), ("freitag", "fr", "fre"), ("samstag", "sa", "sam", "sonnabend"),
          ("sonntag", "so", "son")),
    letters="MDMDFSS",
    months=(("januar", "jan", "janner", "jaenner"), ("februar", "feb", "feber"), ("marz", "mar", "maerz", "mrz"),
            ("april", "apr"), ("mai",), ("juni", "jun"), ("juli", "jul"), ("august", "aug"),
            ("september", "sep", "sept"), ("oktober", "okt"), ("november", "nov"), ("dezember", "dez")),
    yes=("ja", "j"),
    no=("nein",),
)  # fmt: skip
FRENCH = Language(
    "French",
    days=(("lundi", "lun", "lu"), ("mardi", "mar", "ma"), ("mercredi", "mer", "me"), ("jeudi", "jeu", "je"),
          ("vendredi", "ven", "ve"), ("samedi", "sam", "sa"), ("dimanche", "dim", "di")),
    letters="LMMJVSD",
    months=(("janvier", "janv", "jan"), ("fevrier", "fevr", "fev"), ("mars", "mar"), ("avril", "avr"),
            ("mai",), ("juin",), ("juillet", "juil", "juill"), ("aout",), ("septembre", "sept", "sep"),
            ("octobre", "oct"), ("novembre", "nov"), ("decembre", "dec")),
    yes=("oui", "o"),
    no=("non",),
)  # fmt: skip
SPANISH = Language(
    "Spanish",
    days=(("lunes", "lun", "lu"), ("martes", "mar", "ma"), ("miercoles", "mie", "mi"), ("jueves", "jue", "ju"),
          ("viernes", "vie", "vi"), ("sabado", "sab", "sa"), ("domingo", "dom", "do")),
    letters="LMXJVSD",
    months=(("enero", "ene"), ("febrero", "feb"), ("marzo", "mar"), ("abril", "abr"), ("mayo", "may"),
            ("junio", "jun"), ("julio", "jul"), ("agosto", "ago"), ("septiembre", "sep", "sept", "setiembre", "set"),
            ("octubre", "oct"), ("noviembre", "nov"), ("diciembre", "dic")),
    yes=("si", "s"),
    no=("no",),
)  # fmt: skip
ITALIAN = Language(
    "Italian",
    days=(("lunedi", "lun", "lu"), ("martedi", "mar", "ma"), ("mercoledi", "mer", "me"), ("giovedi", "gio", "gi"),
          ("venerdi", "ven", "ve"), ("sabato", "sab", "sa"), ("domenica", "dom", "do")),
    letters="LMMGVSD",
    months=(("gennaio", "gen"), ("febbraio", "feb"), ("marzo", "mar"), ("aprile", "apr"), ("maggio", "mag"),
            ("giugno", "giu"), ("luglio", "lug"), ("agosto", "ago"), ("settembre", "set", "sett"),
            ("ottobre", "ott"), ("novembre", "nov"), ("dicembre", "dic")),
    yes=("si", "s"),
    no=("no",),
)  # fmt: skip
DUTCH = Language(
    "Dutch",
    days=(("maandag", "ma", "maa"), ("dinsdag", "di", "din"), ("woensdag", "wo", "woe"),
          ("donderdag", "do", "don"), ("vrijdag", "vr", "vrij"), ("zaterdag", "za", "zat"), ("zondag", "zo", "zon")),
    letters="MDWDVZZ",
    months=(("januari", "jan"), ("februari", "feb"), ("maart", "mrt", "maa"), ("april", "apr"), ("mei",),
            ("juni", "jun"), ("juli", "jul"), ("augustus", "aug"), ("september", "sep", "sept"),
            ("oktober", "okt"), ("november", "nov"), ("december", "dec")),
    yes=("ja", "j"),
    no=("nee",),
)  # fmt: skip
PORTUGUESE = Language(
    "Portuguese",
    days=(("segunda", "segundafeira", "seg"), ("terca", "tercafeira", "ter"), ("quarta", "quartafeira", "qua"),
          ("quinta", "quintafeira", "qui"), ("sexta", "sextafeira", "sex"), ("sabado", "sab"),
          ("domingo", "dom")),
    letters="STQQSSD",
    months=(("janeiro", "jan"), ("fevereiro", "fev"), ("marco", "mar"), ("abril", "abr"), ("maio", "mai"),
            ("junho", "jun"), ("julho", "jul"), ("agosto", "ago"), ("setembro", "set"), ("outubro", "out"),
            ("novembro", "nov"), ("dezembro", "dez")),
    yes=("sim", "s"),
    no=("nao", "n"),
)  # fmt: skip

LANGUAGES: tuple[Language, ...] = (ENGLISH, GERMAN, FRENCH, SPANISH, ITALIAN, DUTCH, PORTUGUESE)
DAY_NAMES = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
"""How messages name a day, whatever the language it was written in."""


def fold(word: str) -> str:
    """A word as the tables keep it: lower case, without accents, a dot, spaces, `_` or `-` (`Mié.` is mie,
    `Segunda-feira` is segundafeira)."""
    plain = unicodedata.normalize("NFKD", word.strip().lower())
    return "".join(c for c in plain if not unicodedata.combining(c) and c not in " ._-\ufeff")


def _months() -> dict[str, int]:
    """Every month word (folded) of every language to its month (January = 1). A word two languages give
    different months would make a date misread: there is none, and the import says so if one is ever added."""
    found: dict[str, int] = {}
    for language in LANGUAGES:
        for month, names in enumerate(language.months, start=1):
            for name in names:
                if found.setdefault(name, month) != month:
                    raise AssertionError(f"{name!r} names month {found[name]} and month {month} ({language.name})")
    return found


MONTH_OF: dict[str, int] = _months()
"""A month's name or usual abbreviation in any language (as `fold` makes it) -> its number (January = 1)."""

RANGE_WORDS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "English": (("from",), ("to", "till", "until", "through", "thru")),
    "German": (("von", "vom", "ab"), ("bis",)),
    "French": (("du", "de"), ("au", "a", "à", "jusqu'au")),
    "Spanish": (("del", "desde", "de"), ("al", "hasta", "a")),
    "Italian": (("dal", "da"), ("al", "a", "fino al")),
    "Dutch": (("van", "vanaf"), ("tot", "tot en met", "t/m", "tm")),
    "Portuguese": (("de", "do"), ("a", "até", "ate")),
}
"""Per language, the words a range of dates in one cell opens with (`du`, optional) and joins its two dates
with (`au`): `du 1 au 31 décembre 2026`, `1. bis 31.12.2026`. As written, accents and all (they are matched in
text, not folded)."""


def _truths() -> dict[str, bool]:
    words: dict[str, bool] = {}
    for language in LANGUAGES:
        words.update(dict.fromkeys((w for w in language.yes if len(w) > 1), True))
        words.update(dict.fromkeys((w for w in language.no if len(w) > 1), False))
    return words


TRUTH_WORDS: dict[str, bool] = _truths()
"""The yes and no words of every language (folded), each to what it says; one-letter ones are left out, as
`s` is yes in Spanish and nothing in English."""
YES_NO_SHOWN = "true or false (or yes/no, ja/nein, oui/non, sí/no, sì/no, ja/nee, sim/não)"
"""How a message lists the words a true/false field accepts."""
