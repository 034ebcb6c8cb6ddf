"""What a workbook's cell holds, written once for every reader: which number formats show dates, the day an
Excel serial number is, and any reader's cell turned into what CSV would hold (3.0 as 3, TRUE as `true`,
a date-time at midnight as its day).

A date is told by the cell's style, never guessed from its number: a number cell in a date column stays a
number, which the date rule refuses (read as a serial, a typed 5 would be 5 January 1900).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

# Built-in number formats (ECMA-376 18.8.30): 14-22, 45 and 47 show dates and times, 46 an elapsed time, 9 and
# 10 a percentage.
_BUILTIN_DATES = frozenset(map(str, (*range(14, 23), 45, 47)))
_BUILTIN_DURATIONS = frozenset({"46"})
_BUILTIN_PERCENTS = frozenset({"9", "10"})


def cell_value(value: Any) -> Any:
    """A cell as the records expect it: dates as dates, 3.0 as 3, TRUE as `true`, empty as ``."""
    if type(value) is str:  # most cells: ids, and every empty cell
        return value.strip()
    if value is None:
        return ""
    if isinstance(value, bool):  # before int: a bool is an int, and str(True) is "True"
        return "true" if value else "false"
    if isinstance(value, dt.datetime):
        # Midnight is the day itself; another time of day is kept, for the date rule to refuse (which day it means
        # would be a guess), as it refuses `2026-12-01 14:00` in a CSV.
        return value.date() if value.time() == dt.time() else value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str):
        return value.strip()
    if isinstance(value, dt.date | int | float):
        return value
    return str(value)  # times and durations: shown as text, refused by the checks that follow


def days_value(cell: Any) -> Any:
    """A `days` cell: a weekday mask typed into a number cell loses its leading zeros (0000011 becomes
    11), which are put back."""
    value = cell_value(cell)
    if isinstance(value, int) and value > 0 and set(str(value)) <= {"0", "1"} and len(str(value)) <= 7:
        return str(value).zfill(7)
    return value


def format_kind(code: str) -> str | None:
    """What a custom number format shows: "date" when its first section has a date or time token (d, m, y,
    h, s) outside quotes, brackets and escapes; "duration" when it starts an elapsed time (`[h]:mm`);
    "percent" when it shows the number times 100 (a `%` outside quotes: `0%`); None for a number."""
    i = 0
    while i < len(code):
        char = code[i]
        if char in "\\_*":  # the next character is shown as it is (escaped, a space as wide as it, a fill)
            i += 2
        elif char == '"':
            close = code.find('"', i + 1)
            i = len(code) if close < 0 else close + 1
        elif char == "[":
            close = code.find("]", i + 1)
            inner = code[i + 1 : close].lower() if close > 0 else ""
            if inner and len(set(inner)) == 1 and inner[0] in "hms":
                return "duration"
            i = len(code) if close < 0 else close + 1  # a colour, a condition, a currency or a locale
        elif char == ";":
            return None  # the first section, for positive numbers, decides
        elif char.lower() in "dmyhs":
            return "date"
        elif char == "%":
            return "percent"
        else:
            i += 1
    return None


def builtin_kind(number_format: str) -> str | None:
    if number_format in _BUILTIN_DATES:
        return "date"
    if number_format in _BUILTIN_PERCENTS:
        return "percent"
    return "duration" if number_format in _BUILTIN_DURATIONS else None


_EPOCH_1900 = dt.date(1899, 12, 30)
_EPOCH_1904 = dt.date(1904, 1, 1)


def percent_shown(value: Any) -> Any:
    """A number in a percent-formatted cell as the sheet shows it (1 as `100%`, 0.5 as `50%`): what a person
    reads, and what CSV would hold. Another value (text typed into the cell) is as it is."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return f"{value * 100:g}%"
    return value


def date_cell(serial: float, date1904: bool) -> Any:
    """A number shown as a date or time, as python-calamine gives one: under 1, a time of day; else the day
    (Excel's 1900 system counts a 29 February 1900 that never was: its day 1 is 1 January 1900). A negative
    serial or one past the year 9999 is left a number."""
    if serial < 0:
        return serial
    if serial < 1:
        seconds = min(round(serial * 86400), 86399)
        return dt.time(seconds // 3600, seconds // 60 % 60, seconds % 60)
    days = int(serial)
    seconds = min(round((serial - days) * 86400), 86399)  # a date-time's time of day, as python-calamine keeps it
    epoch, shift = (_EPOCH_1904, 0) if date1904 else (_EPOCH_1900, int(days < 60))
    try:
        day = epoch + dt.timedelta(days=days + shift)
    except OverflowError:
        return serial
    return dt.datetime.combine(day, dt.time()) + dt.timedelta(seconds=seconds) if seconds else day


def duration(serial: float) -> Any:
    try:
        return dt.timedelta(days=serial)
    except OverflowError:
        return serial
