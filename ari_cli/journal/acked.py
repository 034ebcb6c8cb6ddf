"""What the service holds, kept per service and key as spans of dates (`acked`), painted over as each
acknowledgement is committed. Reading it is `queries.acknowledged`.

A service is named by its base URL in canonical form (`wire/url.py`). A journal written before that may hold
one service under several spellings (`HTTP://host/.` beside `http://host`): readers take them all
(`spellings`), and the first command that writes folds them into one (`fold_spellings`)."""

from __future__ import annotations

import datetime as dt
import sqlite3
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ari_cli.journal.database import parsed, transaction
from ari_cli.planning.changes import ONE_DAY, Span, paint
from ari_cli.wire.url import canonical_or_same

if TYPE_CHECKING:
    from ari_cli.journal.entries import RecordEntry


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


def spellings(db: sqlite3.Connection, base_url: str) -> list[str]:
    """Every spelling of `base_url`'s service that the journal files acknowledgements under: the canonical one
    first, then those of runs written before spellings were folded (every run has its `services` row)."""
    canonical = canonical_or_same(base_url)
    stored = {base for (base,) in db.execute("SELECT DISTINCT base_url FROM services")}
    return [canonical, *sorted(b for b in stored if b != canonical and canonical_or_same(b) == canonical)]


def in_spellings(column: str, found: Sequence[str]) -> str:
    """The SQL condition that `column` is one of `found` (a service's spellings: one, or a few)."""
    return f"{column} IN ({', '.join('?' * len(found))})"


def merged(spans: Sequence[Span]) -> list[Span]:
    """The spans of one key filed under several spellings of a service, as one service's: painted in the order
    of the runs that set them, so that a later acknowledgement still paints over an earlier one. (A run's
    acknowledgements all come after those of runs numbered before it, unless two ran at once.)"""
    painted: list[Span] = []
    for span in sorted(spans, key=lambda s: (s.run, s.start)):
        paint(painted, span)
    return painted


def fold_spellings(db: sqlite3.Connection) -> None:
    """The spellings of one service folded into its canonical one, in one transaction: its `services` rows
    become one, their spans merged (`merged`), and its runs are named by the canonical spelling (runs keep
    their numbers, so their order). A spelling that has no canonical form (a URL this version refuses) is left
    as it is. Cheap when there is nothing to fold: the services table holds a row per spelling."""
    if all(canonical_or_same(base) == base for (base,) in db.execute("SELECT base_url FROM services")):
        return
    with transaction(db):
        groups: dict[tuple[str, str, str], list[tuple[int, str]]] = {}
        for id_, operation, base, source in db.execute("SELECT id, operation, base_url, source_id FROM services"):
            groups.setdefault((operation, canonical_or_same(base), source), []).append((id_, base))
        for (_, canonical, _), members in groups.items():
            if [base for _, base in members] != [canonical]:
                _fold(db, canonical, members)
        for base in {base for members in groups.values() for _, base in members}:
            if canonical_or_same(base) != base:
                db.execute("UPDATE runs SET base_url = ? WHERE base_url = ?", (canonical_or_same(base), base))


def _fold(db: sqlite3.Connection, canonical: str, members: list[tuple[int, str]]) -> None:
    """One service's `services` rows (of several spellings) made one, named `canonical`, holding their spans."""
    ids = [id_ for id_, _ in members]
    keep = next((id_ for id_, base in members if base == canonical), min(ids))
    marks = ", ".join("?" * len(ids))
    by_key: dict[tuple[str, str, str], list[Span]] = {}
    sql = f"SELECT propertyid, roomid, rateid, start, end, value, run FROM acked WHERE service IN ({marks})"
    for propertyid, roomid, rateid, start, end, value, run in db.execute(sql, ids):
        span = Span(parsed(dt.date.fromisoformat, start), parsed(dt.date.fromisoformat, end), value, run)
        by_key.setdefault((propertyid, roomid, rateid), []).append(span)
    db.execute(f"DELETE FROM acked WHERE service IN ({marks})", ids)
    db.executemany("DELETE FROM services WHERE id = ?", [(id_,) for id_ in ids if id_ != keep])
    db.execute("UPDATE services SET base_url = ? WHERE id = ?", (canonical, keep))
    db.executemany(
        "INSERT INTO acked (service, propertyid, roomid, rateid, start, end, value, run)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [(keep, *key, iso(s.start), iso(s.end), s.value, s.run) for key, spans in by_key.items()
         for s in merged(spans)],
    )  # fmt: skip
