"""A file's header resolved: each name to its canonical field (`names.py`), and what is wrong with it.

A header is resolved once per file (or once per distinct key in JSON), so the per-row work stays a
plain lookup; difflib runs only on names that are not known at all.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import islice

from ari_cli.inputs.daywords import is_day_word, letter_readings, looks_like_days, readings, shown_days, told_apart
from ari_cli.inputs.languages import fold
from ari_cli.inputs.looks import IDS, Bound, edits, id_field, range_bound, unseen, weekday_like, without_unseen
from ari_cli.inputs.names import (
    CANONICAL,
    DISPLAY,
    NAMED_POLICY,
    ONE_CELL_DATES,
    OPTIONAL,
    POLICY_VALUES,
    RANGE_FIELDS,
    WEEKDAY_FLAGS,
    expected_columns,
    normalize,
    suggest,
)
from ari_cli.operations import of
from ari_cli.wire.operations import Operation

# Columns an export adds about itself: never a setting, so only ever a warning.
_METADATA = frozenset(
    normalize(name)
    for name in (
        "export date", "exported", "exported at", "last modified", "modified", "updated", "last updated",
        "updated at", "created", "created at", "note", "notes", "comment", "comments", "remark", "remarks",
        "description", "author", "owner", "changed by",
    )
)  # fmt: skip


def is_metadata(name: str) -> bool:
    """Whether a column is one an export adds about itself (Notes, Exported at): never a setting."""
    return normalize(name) in _METADATA


def flag_problem(names: Iterable[str], source: str, noun: str = "column") -> str | None:
    """What is wrong with a file's weekday flag columns (canonical `names` it gives): some but not all
    seven, or flags beside a `days` column; None when nothing is."""
    given = [day for day in WEEKDAY_FLAGS if day in names]
    if not given:
        return None
    shown = ", ".join(day.title() for day in given)
    if "days" in names:
        return (
            f"{source}: a days {noun} and weekday flag {noun}s ({shown}) both give the days a row keeps to; "
            f"keep one of them"
        )
    if len(given) < len(WEEKDAY_FLAGS):
        lacking = ", ".join(day.title() for day in WEEKDAY_FLAGS if day not in given)
        return (
            f"{source}: weekday flag {noun}s {shown} without {lacking}: give all seven (Y or N in each), "
            f"or one days {noun} (Mon-Fri)"
        )
    return None


_MAP_BOUND: dict[Bound, str] = {
    "start": 'or map it: --column start="{shown}"',
    "end": 'or map it: --column end="{shown}"',
    "after": "a departure is the day after the last night set; "
    'if it holds the last night, map it: --column end="{shown}"',
    "either": 'or map it: --column start="{shown}" or --column end="{shown}"',
}
"""How a range bound's hint maps a name, by the bound it reads as (`looks.range_bound`)."""


def _bound_problem(quoted: str, shown: str, bound: Bound) -> str:
    return (
        f"{quoted} looks like the first or last day of a range, by a name not taken for either: name the "
        f"first day start and the last day set end ({_MAP_BOUND[bound].format(shown=shown)}){_ignore(shown)}"
    )


def _ignore(shown: str) -> str:
    return f'; give --ignore-column "{shown}" to leave it out'


@dataclass
class Resolver:
    """Maps the names of one file onto canonical fields, remembering what it saw for the messages."""

    operation: Operation
    source: str
    noun: str = "column"
    mapping: Mapping[str, str] = field(default_factory=dict)
    """--column FIELD=HEADER: canonical field -> the header that gives it, winning over names and aliases."""
    ignored: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    seen: set[str] = field(default_factory=set)
    suggested: set[str] = field(default_factory=set)
    _cache: dict[str, str | None] = field(default_factory=dict, init=False, repr=False)
    _used: frozenset[str] = field(default=frozenset(), init=False, repr=False)
    _mapped: dict[str, str] = field(default_factory=dict, init=False, repr=False)
    mapped_seen: set[str] = field(default_factory=set)
    overridden: list[tuple[str, str]] = field(default_factory=list)  # (name, field) a --column mapping replaced
    ignore: Iterable[str] = ()
    """--ignore-column NAME: names left out with a warning, whatever they look like."""
    _ignore: frozenset[str] = field(default=frozenset(), init=False, repr=False)
    _names: tuple[str, ...] = field(default=(), init=False, repr=False)
    _dates: list[tuple[int, str]] = field(default_factory=list, init=False, repr=False)
    """(its problem's place, name) of each name taken for a misspelt `date`, settled by `_settle_dates`."""
    _either: list[tuple[int, str]] = field(default_factory=list, init=False, repr=False)
    """(its problem's place, name) of each range bound that reads as either (`Night`), settled likewise."""

    def __post_init__(self) -> None:
        self._used = frozenset(of(self.operation).columns)
        self._mapped = {normalize(header): name for name, header in self.mapping.items()}
        self._ignore = frozenset(normalize(name) for name in self.ignore)
        self._names = tuple(key for key, name in CANONICAL.items() if name in self._used and name not in WEEKDAY_FLAGS)

    @property
    def mapped_keys(self) -> frozenset[str]:
        """The names (normalized) a --column mapping gives a field."""
        return frozenset(self._mapped)

    @property
    def ignored_keys(self) -> frozenset[str]:
        """The names (normalized) --ignore-column leaves out."""
        return self._ignore

    def resolve(self, name: str) -> str | None:
        """The canonical field of `name`, or None when the operation does not use it."""
        try:
            return self._cache[name]
        except KeyError:
            pass
        shown = name.strip()
        key = normalize(name)
        result: str | None = None
        canonical = CANONICAL.get(key)
        if key in self._mapped:
            result = self._mapped[key]
            self.mapped_seen.add(result)
        elif canonical is not None and canonical in self.mapping:
            self.overridden.append((shown, canonical))  # the field comes from the header mapped to it
        elif canonical in self._used:
            result = canonical
        elif not key:
            pass  # an unnamed column: spreadsheets leave these behind after the last real one
        elif key in self._ignore or key in _METADATA:
            self._ignored(shown)
        else:
            self._unknown(shown, key, canonical)
        self._cache[name] = result
        if result is not None:
            self.seen.add(result)
        return result

    def _ignored(self, shown: str) -> None:
        if shown not in self.ignored:
            self.ignored.append(shown)

    def _unknown(self, shown: str, key: str, canonical: str | None) -> None:
        """A name the operation does not use: an error when it looks meaningful (a value would be lost
        without a word), else ignored with a warning."""
        leave = _ignore(shown)
        op = self.operation.value
        quoted = f'{self.source}: {self.noun} "{shown}"'
        hidden = unseen(shown)
        if hidden is not None and canonical is None and (meant := self._without_unseen(shown)) is not None:
            # It looks the same as a name we know on screen, and a did-you-mean of that name would read as nonsense.
            self.problems.append(f'{quoted} holds {hidden}: write the name again without it ("{meant}")')
        elif canonical in IDS or (canonical is None and id_field(key) not in (None, *self._used)):
            # Only threshold leaves an id out: its settings hold for every rate of a room.
            self.problems.append(
                f"{quoted} is not used by {op}: thresholds are per room (propertyid, roomid), for every rate{leave}"
            )
        elif canonical is None and weekday_like(key):
            self.problems.append(
                f"{quoted} looks like a weekday, yet is not one of seven flag columns Mon ... Sun; "
                f"give all seven (Y or N in each) or one days {self.noun} (Mon-Fri){leave}"
            )
        elif canonical is None and (bound := range_bound(key)) is not None:
            if bound == "either":  # `Night` beside an end column is the start: settled once every name is seen
                self._either.append((len(self.problems), shown))
            self.problems.append(_bound_problem(quoted, shown, bound))
        elif canonical is None and (guess := self._close(key)) is not None:
            meant = CANONICAL[normalize(guess)]
            if meant == "date":
                # Settled once every name is seen: beside another range column it is start or end.
                self._dates.append((len(self.problems), shown))
            else:
                self.suggested.add(meant)
            self.problems.append(f'{quoted} is not known; did you mean "{guess}"?')
        else:
            # Another operation's column, or a name that looks like nothing we know.
            self._ignored(shown)

    def _without_unseen(self, shown: str) -> str | None:
        """The name as it shows, when without its invisible characters it is (or is near) a known name."""
        seen_as = without_unseen(shown).strip()
        key = normalize(seen_as)
        if key in _METADATA or key in self._ignore:
            return None  # left out with a warning either way
        meant = CANONICAL.get(key)
        if meant is None and (guess := self._close(key)) is not None:
            meant = CANONICAL[normalize(guess)]
        if meant is None:
            return None
        if meant in self._used:
            self.suggested.add(meant)  # reported once, not again as missing
        return seen_as

    def _close(self, key: str) -> str | None:
        """The name or alias the operation uses that `key` is a misspelling of: difflib's closest, else one
        within two edits (one for names of four letters or fewer)."""
        guess = suggest(key)
        meant = None if guess is None else CANONICAL[normalize(guess)]
        # `Date To` taken for `date` would set one day of a range: date is proposed for one letter off only.
        # A weekday's two or three letters are near many a word (`true`, `sum`): weekdays are judged by
        # `_weekday_like` instead.
        if meant in self._used and meant not in WEEKDAY_FLAGS and (meant != "date" or edits(key, "date", 1) <= 1):
            return guess
        most = 1 if len(key) <= 4 else 2
        found = min(((edits(key, name, most), name) for name in self._names), default=(most + 1, ""))
        return DISPLAY[found[1]] if found[0] <= most else None

    def duplicate(self, first: str, second: str, canonical: str, where: str | None = None) -> None:
        """Record that two names give the same field."""
        place = f"{self.source} {where}" if where else self.source
        message = f'{place}: {self.noun}s "{first.strip()}" and "{second.strip()}" both give {canonical}'
        if message not in self.problems:
            self.problems.append(message)

    def date_conflict(self, names: Iterable[str], where: str | None = None) -> bool:
        """Record a problem if `names` hold `date` or `period` together with start or end, or with each other."""
        given = set(names)
        place = f"{self.source} {where}" if where else self.source
        if "period" in given and given & {"date", *RANGE_FIELDS}:
            others = ", ".join(n for n in ("date", *RANGE_FIELDS) if n in given)
            self.problems.append(
                f"{place}: a period {self.noun} gives both the start and the end (a range in one cell): "
                f"give either it or {others}, not both"
            )
            return True
        if "date" not in given or not given & set(RANGE_FIELDS):
            return False
        both = ", ".join(n for n in RANGE_FIELDS if n in given)
        self.problems.append(
            f"{place}: give either a date {self.noun} or start and end {self.noun}s, not date together with {both}"
        )
        return True

    def _settle_dates(self) -> None:
        """A name taken for a misspelt `date` beside another range column (`Dte` beside `Date To`), or beside
        another such name (`Date1`, `Date2`), is proposed as the bound that lacks: `date` would set one day
        of the range. A range bound that reads as either (`Night`) beside one range column is the other."""
        dates, self._dates = self._dates, []
        given = {name for name in RANGE_FIELDS if name in self.seen | self.suggested}
        either, self._either = self._either, []
        if len(given) == 1:
            other: Bound = "end" if "start" in given else "start"
            for at, name in either:
                self.problems[at] = _bound_problem(f'{self.source}: {self.noun} "{name}"', name, other)
        if len(dates) == 1 and not given:
            self.suggested.add("date")
            return
        lacking = [name for name in RANGE_FIELDS if name not in given]
        for number, (at, name) in enumerate(dates):
            quoted = f'{self.source}: {self.noun} "{name}"'
            if number >= len(lacking):
                self.problems[at] = f"{quoted} is not known (start and end have their {self.noun}s){_ignore(name)}"
                continue
            self.suggested.add(lacking[number])
            self.problems[at] = f'{quoted} is not known; did you mean "{lacking[number]}"?'

    def check_required(self) -> None:
        """Record the required fields that no name gave."""
        self._settle_dates()
        seen = self.seen | self.suggested  # a misspelt name is reported once, not again as missing
        missing: list[str] = []
        for name in of(self.operation).columns:
            if name in seen or name in OPTIONAL or name in ONE_CELL_DATES:
                continue
            if NAMED_POLICY in seen and name in POLICY_VALUES:
                continue
            if name in RANGE_FIELDS:
                if seen & set(ONE_CELL_DATES) or (name == "end" and "start" not in seen):
                    continue
                if name == "start" and "end" not in seen:
                    name = "start and end (or date)"
            missing.append(name)
        if missing:
            plural = "s" if len(missing) > 1 or " and " in missing[0] else ""
            self.problems.append(f"{self.source}: missing {self.noun}{plural} {', '.join(missing)}")

    def left_out(self, source: str) -> list[tuple[str, str]]:
        """(source, name) of each name left out: unused, or replaced by a --column mapping."""
        return [(source, name) for name in [*self.ignored, *(name for name, _ in self.overridden)]]

    def warning(self) -> str | None:
        """The one warning naming the names this file gave that the operation does not use (or that a
        --column mapping replaced)."""
        parts: list[str] = []
        if self.ignored:
            plural = "s" if len(self.ignored) > 1 else ""
            names = ", ".join(self.ignored)
            parts.append(f"ignored {self.noun}{plural} {names} (not used by {self.operation.value})")
        parts.extend(
            f'ignored {self.noun} {name} ({canonical} comes from "{self.mapping[canonical]}", as mapped)'
            for name, canonical in self.overridden
        )
        return f"{self.source}: {'; '.join(parts)}" if parts else None


def _flag_words(names: Sequence[str], resolver: Resolver) -> list[int]:
    """The places of the names that may be weekday flag columns: a day's name or abbreviation in some
    language (`Mo`, `Mon.`, `lundi`), that is no other column's name, nor mapped or left out by the user."""
    places = []
    skip = resolver.mapped_keys | resolver.ignored_keys
    for at, name in enumerate(names):
        key = normalize(name)
        if key in skip:
            continue
        if CANONICAL.get(key, "mon") in WEEKDAY_FLAGS and is_day_word(name):
            places.append(at)
    return places


def _letter_run(names: Sequence[str]) -> list[int]:
    """The places of seven one-letter names side by side (`M T W T F S S`), or none."""
    run: list[int] = []
    for at, name in enumerate(names):
        if len(fold(name)) == 1 and fold(name).isalpha():
            run.append(at)
            continue
        if len(run) == len(WEEKDAY_FLAGS):
            return run
        run = []
    return run if len(run) == len(WEEKDAY_FLAGS) else []


def weekday_columns(names: Sequence[str], resolver: Resolver) -> dict[int, str | None]:
    """The flag column each weekday name of a header gives, by its place; a set that reads as the days of
    no language, or of several languages differently, is a problem naming its readings (its places give
    None: said once, not again as unknown names)."""
    found: dict[int, str | None] = {}
    for places, heard in ((_flag_words(names, resolver), readings), (_letter_run(names), letter_readings)):
        if not places:
            continue
        written = [names[at].strip() for at in places]
        ways = heard(written)
        quoted = f"{resolver.source}: {resolver.noun}s " + ", ".join(written)
        if len(ways) == 1:
            reading = next(iter(ways))
            for at, day in zip(places, reading, strict=True):
                # Short of seven, only the names of the English flag columns are flags (`Mo` without the rest
                # says so); another (`Sat.`, `Mi`) is an unknown name that looks like a weekday.
                if len(places) == len(WEEKDAY_FLAGS) or CANONICAL.get(normalize(names[at])) in WEEKDAY_FLAGS:
                    found[at] = WEEKDAY_FLAGS[day]
            continue
        found.update(dict.fromkeys(places))
        if not ways:
            resolver.problems.append(
                f"{quoted} look like weekdays, yet not of one language (nor one week order): name them in one "
                f"(Mon ... Sun), or give --ignore-column for each"
            )
        else:
            shown = {shown_days(reading): languages for reading, languages in ways.items()}
            resolver.problems.append(
                f"{quoted} read as weekdays in more than one way: {told_apart(shown)}; name them in full "
                f"(Monday ... Sunday)"
            )
    return found


def resolve_header(names: Sequence[str], resolver: Resolver) -> list[str | None]:
    """The canonical field of each header cell (None: ignored), recording duplicates and gaps."""
    result: list[str | None] = []
    first: dict[str, str] = {}
    by_place = weekday_columns(names, resolver)
    for at, name in enumerate(names):
        if at not in by_place:
            canonical = resolver.resolve(name)
        elif (canonical := by_place[at]) is not None:
            resolver.seen.add(canonical)
        if canonical is not None:
            if canonical in first:
                resolver.duplicate(first[canonical], name, canonical)
            else:
                first[canonical] = name
        result.append(canonical)
    resolver.date_conflict(first)
    flags = flag_problem(first, resolver.source, resolver.noun)
    if flags is not None:
        resolver.problems.append(flags)
    missing = [name for name in resolver.mapping if name not in resolver.mapped_seen]
    if missing:
        listed = ", ".join(f'"{name.strip()}"' for name in names if name.strip())
        for name in missing:
            resolver.problems.append(
                f'{resolver.source}: --column {name}="{resolver.mapping[name]}": there is no such column; '
                f"the columns are {listed}"
            )
        resolver.suggested.update(missing)  # reported once, not again as missing
    resolver.check_required()
    return result


DAYS_LOOK = 100
"""How many rows below the header are looked through for a column of weekdays under a name not known as days."""


def weekday_values(
    names: Sequence[str], columns: list[str | None], below: Iterable[Sequence[object]], resolver: Resolver
) -> str | None:
    """A column left out by its name whose values are weekdays (`Which days` holding `Mo-Fr`, in the first
    DAYS_LOOK rows `below` the header, as text) is never left out without a word: the only such column of a
    header without a days column is read as the days (`columns` is changed, and the note saying so returned);
    beside a days column or another such column, or under a name an export gives its notes, it is a problem
    naming it. --ignore-column leaves it out as any other."""
    unread = [
        at
        for at, name in enumerate(names)
        # Left out with a warning (not --ignore-column's, nor a name with a problem of its own).
        if columns[at] is None and name.strip() in resolver.ignored and normalize(name) not in resolver.ignored_keys
    ]
    if not unread:
        return None
    values: dict[int, list[str]] = {at: [] for at in unread}
    for cells in islice(below, DAYS_LOOK):
        for at in unread:
            if at < len(cells) and (cell := str(cells[at]).strip()):
                values[at].append(cell)
    found = [at for at in unread if values[at] and all(map(looks_like_days, values[at]))]
    if not found:
        return None
    source, noun = resolver.source, resolver.noun
    shown = [f'"{names[at].strip()}" ({", ".join(dict.fromkeys(values[at][:3]))})' for at in found]
    leave = _ignore(names[found[0]].strip()) if len(found) == 1 else "; give --ignore-column for each to leave it out"
    days = [names[at].strip() for at, column in enumerate(columns) if column == "days"]
    flags = any(column in WEEKDAY_FLAGS for column in columns)
    if days or flags:
        beside = f'the days {noun} "{days[0]}"' if days else f"the weekday flag {noun}s"
        resolver.problems.append(
            f"{source}: {noun}{'s' if len(found) > 1 else ''} {', '.join(shown)} hold{'s' if len(found) == 1 else ''} "
            f"weekdays beside {beside}, which gives the days a row keeps to: keep one of them{leave}"
        )
        return None
    if len(found) > 1:
        resolver.problems.append(
            f"{source}: {noun}s {', '.join(shown)} each hold weekdays: keep one as the days a row keeps to "
            f'(--column days="{names[found[0]].strip()}"){leave}'
        )
        return None
    at = found[0]
    name = names[at].strip()
    if normalize(name) in _METADATA:  # an export's notes: read as days only when the user says so
        resolver.problems.append(
            f"{source}: {noun} {shown[0]} holds weekdays, under a name exports give their notes: to read them as "
            f'the days a row keeps to, give --column days="{name}"{leave}'
        )
        return None
    columns[at] = "days"
    resolver.seen.add("days")
    resolver.ignored.remove(name)
    return f"{source}: {noun} {shown[0]} holds weekdays: read as the days each row keeps to{_ignore(name)}"


def join_problems(problems: Iterable[str], operation: Operation) -> str:
    """One message of all header problems, closing with the expected columns."""
    return "\n".join([*problems, expected_columns(operation)])
