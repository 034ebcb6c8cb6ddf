"""The fast path for the common row: a threshold or maxadv row that is plainly valid.

Nightly exports hold a million such rows. This path only accepts what the precise path would
accept unchanged (plain ISO dates, canonical numbers, no weekday filter); anything else, valid
or not, goes to the precise path in `records`, which words every error.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from ari_cli.operations import Operation

CLEAR = "n/a"
_RANGES = {Operation.THRESHOLD: ("threshold", 0, 999), Operation.MAXADV: ("time", 1, 999)}


def _iso(text: Any) -> dt.date | None:
    if type(text) is not str or len(text) != 10 or text[4] != "-" or text[7] != "-":
        return None
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        return None


def quick(fields: dict[str, Any], operation: Operation) -> tuple[tuple[str, ...], dt.date, dt.date, str, str] | None:
    """(key, start, end, value, shown dates) of a plainly valid row, or None to take the precise path."""
    name, low, high = _RANGES[operation]
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
    value = fields.get(name)
    if value == CLEAR:
        return key, start, end, CLEAR, shown
    if type(value) is not str or not value.isdigit() or not value.isascii() or (value[0] == "0" and len(value) > 1):
        return None
    if not low <= int(value) <= high:
        return None
    return key, start, end, value, shown
