"""The rules of a row's fields, each written once: text, whole numbers, choices, ids, dates.

Each rule adds `file line N, field: problem` to a row's `RowErrors` and returns the value, or None.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ari_cli.inputs.languages import TRUTH_WORDS, fold
from ari_cli.inputs.looks import breaks_line, unseen
from ari_cli.inputs.ranges import PERIOD_EXAMPLE
from ari_cli.inputs.weekdays import FLAG_NAMES, WeekdayFlags
from ari_cli.records.dates import (
    FIRST_YEAR,
    LAST_YEAR,
    LayoutTally,
    parse_date,
    parse_days,
    period_ends,
)
from ari_cli.wire.operations import CLEAR


@dataclass(frozen=True, slots=True)
class RowView:
    """What the results table shows of an input row, valid or not."""

    source: str
    line: int
    propertyid: str = ""
    roomid: str = ""
    rateid: str = ""
    dates: str = ""
    value: str = ""


@dataclass(frozen=True, slots=True)
class DateOptions:
    """How dates are read: today's date and an optional strptime layout."""

    today: dt.date
    date_format: str | None = None


_NOWHERE: Mapping[str, str] = {}


class RowErrors:
    """Every problem of one row (or of a policy in a --policies file), each starting with where it is."""

    def __init__(self, where: str, places: Mapping[str, str] = _NOWHERE) -> None:
        self.where = where  # `file line 5`, or a place in a --policies file
        self.places = places  # a field whose place is more than the row's (a grid's cell: `file[sheet]:C7`)
        self.messages: list[str] = []

    def add(self, name: str, problem: str) -> None:
        self.messages.append(f"{self.places.get(name, self.where)}, {name}: {problem}")


def text(value: Any) -> str:
    """A value as the user wrote it: stripped text; spreadsheets' 3.0 as 3; nothing as ""."""
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value).strip()


def whole(value: Any) -> int | None:
    """Spreadsheets write 3 as `3.0`; accept that, refuse fractions and words."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    written = text(value)
    if written.endswith(".0"):
        written = written[:-2]
    if written.lstrip("-").isdigit() and written.isascii():
        try:
            return int(written)
        except ValueError:  # more digits than Python converts (4300): no number of ours is that long
            return None
    return None


def number(errs: RowErrors, fields: Mapping[str, Any], name: str, low: int, high: int, also: str = "") -> int | None:
    """A whole number from `low` to `high`."""
    raw = fields.get(name)
    written = text(raw)
    if not written:
        errs.add(name, f"is empty; give a whole number {low}-{high}{also}")
        return None
    found = whole(raw)
    if found is None:
        # A workbook's percent-formatted cell is read as it shows (`100%`), never as the 1 it holds.
        percent = ""
        if written.endswith("%"):
            percent = "; a percentage is no count (a cell formatted 0% shows 1 as 100%): write the number"
        errs.add(name, f"{written!r} is not a whole number {low}-{high}{also}{percent}")
    elif found < low:
        errs.add(name, f"{found} is below the minimum {low}")
    elif found > high:
        errs.add(name, f"{found} is above the maximum {high}")
    else:
        return found
    return None


def choice(errs: RowErrors, fields: Mapping[str, Any], name: str, allowed: dict[int, str]) -> int | None:
    """One of the numbers of `allowed` (number -> meaning)."""
    raw = fields.get(name)
    found = whole(raw)
    if found in allowed:
        return found
    options = ", ".join(f"{k} ({v})" for k, v in allowed.items())
    shown = text(raw)
    errs.add(name, f"{shown!r} is not allowed; use {options}" if shown else f"is empty; use {options}")
    return None


def level_value(errs: RowErrors, fields: Mapping[str, Any], name: str, low: int, high: int) -> str | None:
    """A threshold or time: a whole number in range as the wire writes it, or `n/a` to clear."""
    if text(fields.get(name)).lower() == CLEAR:
        return CLEAR
    found = number(errs, fields, name, low, high, also=f" or {CLEAR} to clear")
    return None if found is None else str(found)


def required_text(errs: RowErrors, fields: Mapping[str, Any], name: str) -> str:
    """An id that must not be empty, nor hold a character nobody sees (which would make it another id); "" when
    it is not usable."""
    written = text(fields.get(name))
    if not written:
        errs.add(name, "is empty")
        return ""  # spaces of any kind alone: empty is all there is to say
    raw = fields.get(name)
    # A tab or line break around the id is stripped as a space is; inside it, or any character that is not what it
    # looks, makes another id than the one on screen.
    inside = raw.strip(" \t\n\r") if isinstance(raw, str) else ""
    hidden = unseen(inside)
    if hidden is not None:
        also = ""
        if breaks_line(inside):
            also = " (in a CSV, a quote left open on this line takes the next lines into this cell: close it)"
        errs.add(name, f"holds {hidden}: type the id again without it{also}")
        return ""  # no key: the row is invalid, as an empty id makes it
    return written


def one_date(
    errs: RowErrors, fields: Mapping[str, Any], name: str, dates: DateOptions, tally: LayoutTally | None = None
) -> dt.date | None:
    """A date field: a workbook's date cell, ISO text, today+N, or the --date-format layout; in 2000-2099.

    A number (a workbook cell that is not a date cell, a JSON number) is never taken for a date: Excel's
    serials would give 1900 dates. `tally` hears of each text, to word a file's one layout once.
    """
    raw = fields.get(name)
    day: dt.date | None = None
    if isinstance(raw, dt.date):
        try:
            day = parse_date(raw, dates.today)  # a date-time cell: its day at midnight, refused at any other time
        except ValueError as problem:
            errs.add(name, str(problem))
            return None
        if tally is not None:
            tally.add("", day)
    elif isinstance(raw, int | float) and not isinstance(raw, bool) and not dates.date_format:
        errs.add(name, f"{text(raw)} is not a date: the cell holds a number; make it a date cell, or write YYYY-MM-DD")
        return None
    else:
        written = text(raw)
        if not written:
            errs.add(name, "is empty; give a date YYYY-MM-DD, today or today+N")
            return None
        try:
            day = parse_date(written, dates.today, dates.date_format)
        except ValueError as problem:
            errs.add(name, str(problem))
        if tally is not None:
            tally.add(written, day)
        if day is None:
            return None
    if not FIRST_YEAR <= day.year <= LAST_YEAR:
        errs.add(name, f"{day.isoformat()} is not in the years {FIRST_YEAR}-{LAST_YEAR}; check the year")
        return None
    return day


def date_range(
    errs: RowErrors, fields: Mapping[str, Any], dates: DateOptions, tally: LayoutTally | None = None
) -> tuple[dt.date | None, dt.date | None, frozenset[int] | None]:
    """A row's dates: `date` alone, `period` (a range in one cell), or `start` and `end` in order; and its
    weekday filter."""
    if fields.get("date") is not None:
        start = end = one_date(errs, fields, "date", dates, tally)
    elif fields.get("period") is not None:
        start, end = period(errs, fields, dates, tally)
    else:
        start = one_date(errs, fields, "start", dates, tally)
        end = one_date(errs, fields, "end", dates, tally)
    if start and end and end < start:
        where = "period" if "period" in fields else "end"
        errs.add(where, f"{end.isoformat()} is before the start {start.isoformat()}")
    return start, end, weekday_filter(errs, fields)


def period(
    errs: RowErrors, fields: Mapping[str, Any], dates: DateOptions, tally: LayoutTally | None = None
) -> tuple[dt.date | None, dt.date | None]:
    """A `period` cell's first and last day: a range in one cell (`2026-12-01..2026-12-31`,
    `01.12.2026 - 31.12.2026`), each end read by the one date rule, or one date for both."""
    raw = fields.get("period")
    if isinstance(raw, dt.date):
        start = end = one_date(errs, fields, "period", dates, tally)
        return start, end
    written = text(raw)
    if not written:
        errs.add("period", f"is empty; give a range such as {PERIOD_EXAMPLE}, or one date")
        return None, None
    try:
        first, last = period_ends(written, dates.today, dates.date_format)
    except ValueError as problem:
        errs.add("period", str(problem))
        return None, None
    start = one_date(errs, {"period": first}, "period", dates, tally)
    end = start if last == first else one_date(errs, {"period": last}, "period", dates, tally)
    return start, end


def weekday_filter(errs: RowErrors, fields: Mapping[str, Any]) -> frozenset[int] | None:
    """The weekdays a row keeps to (`Mon-Fri`, `Sat,Sun`, `1111100`, or seven flag columns), or None for every day."""
    raw = fields.get("days")
    if isinstance(raw, WeekdayFlags):
        return _flagged_days(errs, raw)
    days_text = text(raw)
    if not days_text:
        return None
    try:
        return parse_days(days_text)
    except ValueError as problem:
        errs.add("days", str(problem))
        return None


# A flag column's cell: a day is on or off (an empty cell is off); anything else is a mistake, never a guess.
_ON = frozenset({"y", "yes", "x", "1", "true", "\u2713", "\u2714", "\u2611", "\u2705"})
# Emoji pickers write a check mark with a variation selector after it (U+2714 U+FE0F, which draws it in colour).
_SELECTORS = "\ufe0e\ufe0f"
_OFF = frozenset({"n", "no", "", "0", "false"})


def _flagged_days(errs: RowErrors, flags: WeekdayFlags) -> frozenset[int] | None:
    """The days whose flag is on; an error for a cell that is neither on nor off, or a row with no day on."""
    days: set[int] = set()
    wrong = False
    for number, (name, cell) in enumerate(zip(FLAG_NAMES, flags, strict=True)):
        written = text(cell).lower().rstrip(_SELECTORS)
        # The yes and no words of every language a file may be written in (`oui`, `ja`, `nein`), as `refundable`
        # takes them: a French export's flags say oui and non.
        said = TRUTH_WORDS.get(fold(written))
        if cell is True or written in _ON or said is True:
            days.add(number)
        elif cell is not False and written not in _OFF and said is not False:
            errs.add(name, f"{text(cell)!r} is not a weekday flag; write Y (or yes, x, 1, true, \u2713) for a day "
                           "the row sets, and N (or no, 0, false, or nothing) for one it does not (ja/nein, oui/non, "
                           "s\u00ed/no, s\u00ec/no, ja/nee and sim/n\u00e3o are read too)")  # fmt: skip
            wrong = True
    if wrong:
        return None
    if not days:
        errs.add("days", "no weekday flag is on (Mon ... Sun are all N or empty): the row would set no day")
        return None
    return frozenset(days)


def days_text(cell: Any) -> str:
    """A row's weekday filter as the table shows it: as written, or, for flag columns, the days they keep."""
    if isinstance(cell, WeekdayFlags):
        errs = RowErrors("")
        days = _flagged_days(errs, cell)
        if days is None:
            return str(cell)
        return "" if len(days) == 7 else ",".join(FLAG_NAMES[day] for day in sorted(days))
    return text(cell)


def shown_dates(start: dt.date, end: dt.date, days_text: str) -> str:
    """A row's dates as the table shows them: one date or `start..end`, and its weekday filter."""
    shown = start.isoformat() if start == end else f"{start.isoformat()}..{end.isoformat()}"
    return f"{shown} ({days_text})" if days_text else shown


def view(
    source: str, line: int, fields: Mapping[str, Any], value: str, start: dt.date | None, end: dt.date | None
) -> RowView:
    """A row as the table shows it: resolved dates where they parsed, the text otherwise."""
    written = days_text(fields.get("days"))
    if start and end:
        dates = shown_dates(start, end, written)
    else:
        if fields.get("date") is not None:
            dates = text(fields.get("date"))
        elif fields.get("period") is not None:
            dates = text(fields.get("period"))
        else:
            dates = f"{text(fields.get('start'))}..{text(fields.get('end'))}"
        if written:
            dates += f" ({written})"
    ids = (text(fields.get("propertyid")), text(fields.get("roomid")), text(fields.get("rateid")))
    return RowView(source, line, *ids, dates, value)
