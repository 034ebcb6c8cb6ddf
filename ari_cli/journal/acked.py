"""What the service holds, kept per service and key as spans of dates (`acked`), painted over as each
acknowledgement is committed. Reading it is `queries.acknowledged`."""

from __future__ import annotations

import datetime as dt
import sqlite3
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ari_cli.changes import ONE_DAY, Span, paint

if TYPE_CHECKING:
    from ari_cli.journal.store import RecordEntry


def iso(day: dt.date) -> str:
    return day.isoformat()


def service_id(db: sqlite3.Connection, operation: str, base_url: str, source_id: str) -> int:
    """The number of a service (operation, base URL, source id) in `acked`, made the first time."""
    db.execute(
        "INSERT OR IGNORE INTO services (operation, base_url, source_id) VALUES (?, ?, ?)",
        (operation, base_url, source_id),
    )
    found = db.execute(
        "SELECT id FROM services WHERE operation = ? AND base_url = ? AND source_id = ?",
        (operation, base_url, source_id),
    ).fetchone()
    return int(found[0])


_ACKED_COLUMNS = "start, end, value, run"
# The spans of a key that a record's dates may touch: the last that starts before them (it may reach into them,
# or end the day before and join), and those that start within them or the day after. (The last that starts on
# or before them missed a span ending the day before one that starts on their first day: the two stayed apart.)
_ACKED_NEAR = (
    f"SELECT {_ACKED_COLUMNS} FROM (SELECT {_ACKED_COLUMNS} FROM acked"
    " WHERE service = ? AND propertyid = ? AND roomid = ? AND rateid = ? AND start < ? ORDER BY start DESC LIMIT 1)"
    f" UNION ALL SELECT {_ACKED_COLUMNS} FROM acked"
    " WHERE service = ? AND propertyid = ? AND roomid = ? AND rateid = ? AND start >= ? AND start <= ?"
)


def paint_acked(db: sqlite3.Connection, service: int, painted: Sequence[tuple[RecordEntry, int]]) -> None:
    """Paint records (each with the run that got it acknowledged) over what the service held for their keys,
    in the order given, as `changes.paint` lays a later acknowledgement over the spans of a key."""
    by_key: dict[tuple[str, str, str], list[tuple[RecordEntry, int]]] = {}
    for record, run in painted:
        by_key.setdefault((record.propertyid, record.roomid, record.rateid), []).append((record, run))
    # The spans that go and come, written for all keys at once (keys do not share spans).
    gone: list[tuple[object, ...]] = []
    new: list[tuple[object, ...]] = []
    for key, items in by_key.items():
        low = iso(min(r.start for r, _ in items))
        high = iso(max(r.end for r, _ in items) + ONE_DAY)
        before = [
            Span(dt.date.fromisoformat(s), dt.date.fromisoformat(e), v, run)
            for s, e, v, run in db.execute(_ACKED_NEAR, (service, *key, low, service, *key, low, high))
        ]
        after = sorted(before)
        for record, run in items:
            paint(after, Span(record.start, record.end, record.value, run))
        gone.extend((service, *key, iso(s.start)) for s in set(before).difference(after))
        new.extend((service, *key, iso(s.start), iso(s.end), s.value, s.run) for s in set(after).difference(before))
    db.executemany(
        "DELETE FROM acked WHERE service = ? AND propertyid = ? AND roomid = ? AND rateid = ? AND start = ?", gone
    )
    db.executemany(
        "INSERT INTO acked (service, propertyid, roomid, rateid, start, end, value, run)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        new,
    )
