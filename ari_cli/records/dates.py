"""Dates as users write them (ISO, `today+N`, a --date-format layout, a month's name in any language of
`inputs/languages.py`, a date-time at midnight), ranges in one cell, and weekday filters.

Every date text goes through `parse_date`, the one date rule: a range's two ends are cut apart as text
(`period_ends`) and each end read by it. Digits-only dates other than ISO are never guessed (`--date-format`);
a named month cannot be misread, so `6 déc. 2026` is read without one.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping

from ari_cli.inputs.daywords import readings, shown_days, told_apart
from ari_cli.inputs.languages import DAY_NAMES, MONTH_OF, fold
from ari_cli.inputs.ranges import cut_range

_ISO = re.compile(r"\d{4}-\d{2}-\d{2}")
_RELATIVE = re.compile(r"today(?:\s*([+-])\s*(\d+))?", re.IGNORECASE)
_MASK = re.compile(r"[01]{7}")
_FEIRA = re.compile(r"-?feira\b", re.IGNORECASE)  # Portuguese `segunda-feira` is `segunda`
# A time of day after a date: `2026-12-01 00:00:00`, `2026-12-01T00:00`, `...T00:00:00.000Z`, `... +01:00`.
_TIME = re.compile(
    r"(?:T|\s+)(\d{1,2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?\s*(?:Z|UTC|GMT|[+-]\d{2}(?::?\d{2})?)?$", re.IGNORECASE
)
# The words and numbers of a date written with a month's name; what lies between them is only punctuation.
_TOKEN = re.compile(r"\d+|[^\W\d_]+")
_BETWEEN = re.compile(r"[\s.,/'-]*")
_FILLERS = frozenset({"de", "del", "of", "the"})  # `6 de diciembre de 2026`, `the 6th of December 2026`
_ORDINALS = frozenset({"st", "nd", "rd", "th", "er", "e", "o", "a"})  # `1st`, `1er`, `1e`, `1º` (folded)
_DAYS_HELP = "use names like Mon-Fri, Sat,Sun or mo,tu, or a 7-character mask like 1111100 (Monday first)"
ALL_DAYS: frozenset[int] = frozenset(range(7))


FIRST_YEAR, LAST_YEAR = 2000, 2099
"""The years a stay date may fall in: anything else is a typo or a misread cell (Excel's 1900 serials)."""

# The layouts exports write dates in, as --date-format takes them; a text's hint names those that read it.
_SEPARATED = ("%d{0}%m{0}%Y", "%m{0}%d{0}%Y", "%Y{0}%m{0}%d", "%d{0}%m{0}%y", "%m{0}%d{0}%y")
_LAYOUTS = (*(layout.format(separator) for separator in "/.-" for layout in _SEPARATED), "%Y%m%d", "%d%m%Y")
_ORDER = {"%d": "day first", "%m": "month first"}


def layouts(text: str) -> tuple[str, ...]:
    """The layouts of _LAYOUTS that read `text` as a date in FIRST_YEAR..LAST_YEAR; none is ever picked for the user."""
    found: list[str] = []
    for layout in _LAYOUTS:
        try:
            day = dt.datetime.strptime(text, layout).date()
        except ValueError:
            continue
        if FIRST_YEAR <= day.year <= LAST_YEAR:
            found.append(layout)
    return tuple(found)


def layout_hint(found: tuple[str, ...]) -> str:
    """`--date-format %Y%m%d`, or both orders when day and month could be either."""
    if len(found) == 1:
        return f"--date-format {found[0]}"
    shown = [f"{layout} ({_ORDER[layout[:2]]})" if layout[:2] in _ORDER else layout for layout in found[:2]]
    return "--date-format " + " or ".join(shown)


class LayoutTally:
    """The dates of one file: whether any was read, and the layouts that would read every one that was not.

    When no date of a file could be read and one layout reads them all, one line says so, rather than
    a line per cell.
    """

    def __init__(self) -> None:
        self.read = False
        self.example = ""
        self.common: tuple[str, ...] | None = None
        self._seen: set[str] = set()

    def add(self, text: str, day: dt.date | None) -> None:
        if day is not None:
            self.read = True
        elif self.common != () and text not in self._seen:
            self._seen.add(text)
            found = layouts(text)
            self.common = found if self.common is None else tuple(x for x in self.common if x in found)
            self.example = self.example or text

    def uniform(self, source: str) -> str | None:
        """The one message for `source` when all its dates share one layout that is not ISO."""
        if self.read or not self.common:
            return None
        return f'{source}: every date is written like "{self.example}", not YYYY-MM-DD; give {layout_hint(self.common)}'


def _not_iso(value: str) -> str:
    if value.lower().startswith("today"):
        return f'"{value}": today+N needs a number of days, e.g. today+7 (or today-N, or today alone)'
    found = layouts(value)
    if not found:
        return f'"{value}" is not a date; give YYYY-MM-DD, today or today+N'
    return f'"{value}" is not a date of the form YYYY-MM-DD; for other layouts give --date-format, e.g. ' + layout_hint(
        found
    )


def whole_day(moment: dt.datetime, shown: str) -> dt.date:
    """The day of a date-time at midnight; any other time of day is refused: a setting holds for whole days,
    and which day a time means (the night before? after?) would be a guess."""
    if moment.time() == dt.time():
        return moment.date()
    raise ValueError(_time_of_day(shown, moment.date(), f"{moment:%H:%M}"))


def _time_of_day(shown: str, day: dt.date, clock: str) -> str:
    return f'"{shown}" holds a time of day ({clock}): a setting holds for whole days; give the date alone ({day})'


def parse_date(text: str | dt.date, today: dt.date, date_format: str | None = None) -> dt.date:
    """A date from `YYYY-MM-DD`, `today`, `today+N`, `today-N`, the `date_format` layout, or a day, a month's
    name and a four-digit year (`6 déc. 2026`, `December 6, 2026`); any of them with a time of midnight.

    Raises ValueError with a message for the user; digits-only layouts other than ISO are never guessed.
    """
    if isinstance(text, dt.datetime):
        return whole_day(text.replace(tzinfo=None), f"{text:%Y-%m-%d %H:%M}")
    if isinstance(text, dt.date):
        return text
    value = text.strip()
    if not value:
        raise ValueError("the date is empty; give YYYY-MM-DD, today or today+N")
    relative = _RELATIVE.fullmatch(value)
    if relative:
        sign, count = relative.groups()
        try:
            return today + dt.timedelta(days=int(count or 0) * (-1 if sign == "-" else 1))
        except OverflowError:
            raise ValueError(f'"{value}" is outside the calendar') from None
    if date_format:
        # The user's layout goes first: `%Y-%d-%m` must not be read as ISO behind their back.
        try:
            moment = dt.datetime.strptime(value, date_format)
        except ValueError:
            moment = None
        if moment is not None:
            return whole_day(moment, value)
    if _ISO.fullmatch(value):
        try:
            return dt.date.fromisoformat(value)
        except ValueError as problem:
            raise ValueError(f'"{value}" is not a valid date: {problem}') from None
    # The hot path (ISO text, a layout) is above: what follows runs once per distinct text that is neither.
    timed = _TIME.search(value)
    if timed is not None and timed.start() > 0:
        day = parse_date(value[: timed.start()], today, date_format)  # the date part's own message if it is none
        hours, minutes, seconds, fraction = timed.groups()
        if any(int(part or 0) for part in (hours, minutes, seconds, fraction)):
            raise ValueError(_time_of_day(value, day, f"{int(hours):02}:{minutes}"))
        return day
    named = _named_month(value)
    if named is not None:
        return named
    if date_format:
        raise ValueError(f'"{value}" does not match the date format {date_format} (nor YYYY-MM-DD)')
    raise ValueError(_not_iso(value))


def _named_month(value: str) -> dt.date | None:
    """The date of a text that names its month (`1 Dec 2026`, `December 6, 2026`, `6. Dezember 2026`,
    `6 de diciembre de 2026`, `Tuesday, 1 December 2026`); None when it names no month or holds a word that is
    not a date's. Raises ValueError when it names a month yet lacks the day or the four-digit year: never filled
    in from today."""
    if not any(c.isalpha() for c in value):
        return None
    months: list[int] = []
    numbers: list[str] = []
    weekdays: list[str] = []
    at = 0
    for token in _TOKEN.finditer(value):
        gap = value[at : token.start()]
        if not _BETWEEN.fullmatch(gap):
            return None
        word = fold(token.group())
        at = token.end()
        if token.group().isdigit():
            numbers.append(token.group())
        elif word in MONTH_OF:
            months.append(MONTH_OF[word])
        elif word in _FILLERS or (word in _ORDINALS and numbers and not gap):
            continue
        elif readings([word]):
            weekdays.append(token.group())
        else:
            return None
    if not _BETWEEN.fullmatch(value[at:]) or not months:
        return None
    example = "write the day, the month and the year, e.g. 6 Dec 2026"
    if len(months) > 1:
        raise ValueError(f'"{value}" names more than one month; {example}')
    years = [n for n in numbers if len(n) == 4]
    days = [n for n in numbers if len(n) <= 2]
    if len(years) != 1 or len(days) != 1 or len(numbers) != 2:
        if not years and len(days) == 2:
            raise ValueError(f'"{value}": give the year in four digits; {example}')
        lacking = "day" if not days else "year" if not years else "one day and one year"
        raise ValueError(f'"{value}" names a month but no {lacking}; {example}')
    try:
        day = dt.date(int(years[0]), months[0], int(days[0]))
    except ValueError as problem:
        raise ValueError(f'"{value}" is not a valid date: {problem}') from None
    for word in weekdays:
        if not any(reading == (day.weekday(),) for reading in readings([word])):
            raise ValueError(f'"{value}": {day.isoformat()} is a {DAY_NAMES[day.weekday()]}, not a "{word}"')
    return day


def period_ends(value: str, today: dt.date, date_format: str | None = None) -> tuple[str, str]:
    """A range written in one cell (`2026-12-01..2026-12-31`, `01.12.2026 - 31.12.2026`) as the texts of its
    first and last day (`inputs/ranges.py` cuts it), each for `parse_date` to read; a cell that is one date
    (`today-3` too) is both. Raises ValueError when it is not one range."""
    value = value.strip()
    try:
        parse_date(value, today, date_format)
        return value, value
    except ValueError:
        pass
    found = cut_range(value)
    return (value, value) if found is None else found  # one date: the date rule reads it, or says what it lacks


def _spans(value: str) -> list[tuple[str, str | None]]:
    """The parts of a days value: each a day, or a range's first and last day, as written."""
    # `Segunda-feira` is one word, not a range; an en dash is a range's dash as a hyphen is.
    plain = re.sub(r"\s*[-\u2013]\s*", "-", _FEIRA.sub("", value))
    spans: list[tuple[str, str | None]] = []
    for part in re.split(r"[,;/\s]+", plain):
        if not part:
            continue
        first, dash, last = part.partition("-")
        if dash and not (first and last):
            raise ValueError(f'"{part}" in "{value}" is not a range of weekdays; {_DAYS_HELP}')
        spans.append((first, last if dash else None))
    return spans


def _selected(spans: list[tuple[str, str | None]], day: Mapping[str, int]) -> frozenset[int]:
    selected: set[int] = set()
    for first, last in spans:
        start = day[first]
        stop = start if last is None else day[last]
        # A range may wrap past Sunday: Fri-Mon is Fri, Sat, Sun, Mon.
        selected.update((start + step) % 7 for step in range((stop - start) % 7 + 1))
    return frozenset(selected)


def parse_days(text: str) -> frozenset[int]:
    """Weekday numbers (Monday = 0) from `Mon-Fri`, `Sat,Sun`, `mo,tu`, `Fri-Mon`, `1111100`, or the same in
    the languages of `inputs/languages.py` (`lun-ven`, `Mo-Fr`, `L-V`): read only when every language that
    reads all its words reads the same days."""
    value = text.strip()
    if not value:
        raise ValueError(f"no weekdays given; {_DAYS_HELP}")
    if _MASK.fullmatch(value):
        days = frozenset(number for number, flag in enumerate(value) if flag == "1")
        if not days:
            raise ValueError(f'the mask "{value}" selects no day; {_DAYS_HELP}')
        return days
    if value.isdigit():
        raise ValueError(f'"{value}" is not a 7-character mask of 0 and 1; {_DAYS_HELP}')
    spans = _spans(value)
    words = list(dict.fromkeys(word for span in spans for word in span if word is not None))
    if not words:
        raise ValueError(f'"{value}" names no weekday; {_DAYS_HELP}')
    found: dict[frozenset[int], list[str]] = {}
    for reading, languages in readings(words).items():
        found.setdefault(_selected(spans, dict(zip(words, reading, strict=True))), []).extend(languages)
    if len(found) == 1:
        return next(iter(found))
    if not found:
        unknown = next((word for word in words if not any(readings([word]))), None)
        if unknown is not None:
            raise ValueError(f'"{unknown}" in "{value}" is not a weekday; {_DAYS_HELP}')
        raise ValueError(f'"{value}" mixes the weekdays of several languages: write them in one; {_DAYS_HELP}')
    shown = {shown_days(sorted(days)): languages for days, languages in found.items()}
    raise ValueError(
        f'"{value}" reads as {told_apart(shown)}: write the days in full, or as a mask like 1111100 (Monday first)'
    )


def weekday_runs(start: dt.date, end: dt.date, days: frozenset[int]) -> list[tuple[dt.date, dt.date]]:
    """The maximal runs of consecutive dates in [start, end] whose weekday is in `days`, in order."""
    found = weekday_spans(start.toordinal(), end.toordinal(), days)
    return [(dt.date.fromordinal(first), dt.date.fromordinal(last)) for first, last in found]


def weekday_spans(start: int, end: int, days: frozenset[int]) -> list[tuple[int, int]]:
    """`weekday_runs` in day ordinals: a step per run, not per date (a two-year range kept to Sat-Sun is 104
    steps), from how far each weekday's run reaches and how far the next kept weekday lies."""
    if start > end or not days:
        return []
    if days >= ALL_DAYS:
        return [(start, end)]
    reach = [0] * 7  # from a kept weekday: how many days in a row are kept
    skip = [0] * 7  # from a weekday not kept: how many days to the next kept one
    for weekday in range(7):
        if weekday in days:
            while (weekday + reach[weekday]) % 7 in days:
                reach[weekday] += 1
        else:
            while (weekday + skip[weekday]) % 7 not in days:
                skip[weekday] += 1
    runs: list[tuple[int, int]] = []
    day = start
    while True:
        day += skip[(day + 6) % 7]  # ordinal 1 (1 January of year 1) is a Monday
        if day > end:
            return runs
        last = min(day + reach[(day + 6) % 7] - 1, end)
        runs.append((day, last))
        day = last + 1
