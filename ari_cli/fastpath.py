"""The fast path for the common row: a threshold or maxadv row that is plainly valid.

Nightly exports hold a million such rows. This path only accepts what the precise path would
accept unchanged (plain ISO dates, canonical numbers, no weekday filter); anything else, valid
or not, goes to the precise path in `records`, which words every error.

The rules live here once, for one row (`quick`) and for whole columns of cells (`DateCells`,
`LevelCells`), which remember each distinct text they have judged.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any, TypeGuard

from ari_cli.wire.operations import CLEAR, THRESHOLD_MAX, TIME_MAX, TIME_MIN, Operation

NOT_PLAIN = -1
_RANGES = {Operation.THRESHOLD: ("threshold", 0, THRESHOLD_MAX), Operation.MAXADV: ("time", TIME_MIN, TIME_MAX)}


def value_name(operation: Operation) -> str:
    """The column of the operation's value: `threshold` or `time`."""
    return _RANGES[operation][0]


def _iso(text: Any) -> dt.date | None:
    if type(text) is not str or len(text) != 10 or text[4] != "-" or text[7] != "-":
        return None
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        return None


def plain_value(value: Any, operation: Operation) -> TypeGuard[str]:
    """`n/a`, or a whole number in the operation's range written as the wire writes it."""
    if value == CLEAR:
        return True
    _, low, high = _RANGES[operation]
    if type(value) is not str or not value.isdigit() or not value.isascii() or (value[0] == "0" and len(value) > 1):
        return False
    # Length first: int() refuses strings of thousands of digits, and none of ours is that long.
    return len(value) <= len(str(high)) and low <= int(value) <= high


def quick(fields: dict[str, Any], operation: Operation) -> tuple[tuple[str, ...], dt.date, dt.date, str, str] | None:
    """(key, start, end, value, shown dates) of a plainly valid row, or None to take the precise path."""
    propertyid, roomid = fields.get("propertyid"), fields.get("roomid")
    if type(propertyid) is not str or type(roomid) is not str or not propertyid or not roomid or fields.get("days"):
        return None
    if operation is Operation.MAXADV:
        rateid = fields.get("rateid")
        if type(rateid) is not str or not rateid:
            return None
        key: tuple[str, ...] = (propertyid, roomid, rateid)
    else:
        key = (propertyid, roomid)
    if "date" in fields:
        start = end = _iso(fields["date"])
        shown = fields["date"]
    else:
        start, end = _iso(fields.get("start")), _iso(fields.get("end"))
        shown = f"{fields.get('start')}..{fields.get('end')}" if start != end else fields.get("start")
    if start is None or end is None or end < start:
        return None
    value = fields.get(value_name(operation))
    if not plain_value(value, operation):
        return None
    return key, start, end, value, shown


class DateCells(dict[str, int]):
    """A CSV cell -> the day ordinal of the plain ISO date it holds, or NOT_PLAIN."""

    def __missing__(self, cell: str) -> int:
        day = _iso(cell.strip())  # the reader strips every value
        ordinal = NOT_PLAIN if day is None else day.toordinal()
        self[cell] = ordinal
        return ordinal


class LevelCells(dict[tuple[str, ...], int]):
    """The cells (property, room[, rate], value) of a row -> the id `kind` gives its key and value, or NOT_PLAIN."""

    def __init__(self, operation: Operation, kind: Callable[[tuple[str, ...], str], int]) -> None:
        super().__init__()
        self.kind = kind
        # An export holds a few distinct values and tens of thousands of (key, value) pairs: each
        # value is judged once.
        self._plain: dict[str, bool] = _PlainValues(operation)

    def __missing__(self, cells: tuple[str, ...]) -> int:
        key = tuple(map(str.strip, cells[:-1]))
        value = cells[-1].strip()
        found = self.kind(key, value) if all(key) and self._plain[value] else NOT_PLAIN
        self[cells] = found
        return found


class _PlainValues(dict[str, bool]):
    """A value's text -> whether `plain_value` takes it, judged once."""

    def __init__(self, operation: Operation) -> None:
        super().__init__()
        self.operation = operation

    def __missing__(self, value: str) -> bool:
        plain = self[value] = plain_value(value, self.operation)
        return plain
