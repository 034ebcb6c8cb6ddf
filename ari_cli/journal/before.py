"""What `revert RUN` needs from the journal: the dates RUN (with its retries) got acknowledged, and the value the
service held on each of them just before, rebuilt from the acknowledged records of earlier runs.

`acked` (what `acknowledged()` reads) holds only what the service holds now; the past is rebuilt here by
painting acknowledged records in the journal's order of acknowledgements (`changes.paint`), the way the
service applied them. Runs that were pruned left no records: what they set is unknown.
"""

from __future__ import annotations

import datetime as dt
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from ari_cli.journal.acked import in_spellings, spellings
from ari_cli.journal.database import parsed
from ari_cli.journal.queries import RunInfo, key_of, run_info
from ari_cli.journal.store import OK
from ari_cli.planning.changes import Key, Span, paint

# A request's records are its `count` records from `first`; an acknowledged one is `ok` (a split one is not).
_ACKED_RECORDS = (
    "SELECT r.propertyid, r.roomid, r.rateid, r.start, r.end, r.value, r.run, q.ack"
    " FROM requests q JOIN runs u ON u.id = q.run"
    " JOIN records r ON r.run = q.run AND r.idx >= q.first AND r.idx < q.first + q.count"
    " WHERE q.state = ? AND q.ack IS NOT NULL AND u.operation = ? AND u.source_id = ?"
)


def _service(db: sqlite3.Connection, run: RunInfo) -> tuple[str, list[str]]:
    """The condition on the run's service and its values: every spelling of its base URL (`acked.spellings`)."""
    found = spellings(db, run.base_url)
    return " AND " + in_spellings("u.base_url", found), found


def family(db: sqlite3.Connection, run: int) -> tuple[RunInfo, tuple[int, ...]]:
    """The run, and its number with those of the retries that followed it (a retry of a retry too)."""
    info = run_info(db, run)
    found = [info.id]
    at = 0
    while at < len(found):
        found.extend(n for (n,) in db.execute("SELECT id FROM runs WHERE retry_of = ? ORDER BY id", (found[at],)))
        at += 1
    return info, tuple(found)


def _rows(db: sqlite3.Connection, sql: str, args: Sequence[Any]) -> Iterator[tuple[Key, Span, int]]:
    day = dt.date.fromisoformat
    for propertyid, roomid, rateid, start, end, value, run, ack in db.execute(sql, args):
        span = Span(parsed(day, start), parsed(day, end), value, run)
        yield key_of(propertyid, roomid, rateid), span, ack


def _painted(rows: Iterable[tuple[Key, Span, int]]) -> dict[Key, list[Span]]:
    spans: dict[Key, list[Span]] = {}
    for key, span, _ in rows:
        paint(spans.setdefault(key, []), span)
    return spans


def _in(column: str, values: Sequence[Any]) -> str:
    return f" AND {column} IN ({', '.join('?' * len(values))})"


def reverted(db: sqlite3.Connection, run: RunInfo, runs: Sequence[int]) -> tuple[dict[Key, list[Span]], int | None]:
    """Per key, the dates `runs` (a run and its retries) got acknowledged, with the value each set, and the first
    acknowledgement's number (None: nothing acknowledged)."""
    service, found = _service(db, run)
    sql = _ACKED_RECORDS + service + _in("q.run", runs) + " ORDER BY q.ack, r.idx"
    rows = list(_rows(db, sql, (OK, run.operation, run.source_id, *found, *runs)))
    # A retry sent elsewhere (--base-url) set values at another service: only those at the run's own count.
    return _painted(rows), min((ack for _, _, ack in rows), default=None)


def held_before(
    db: sqlite3.Connection, run: RunInfo, runs: Sequence[int], first_ack: int, properties: Iterable[str]
) -> dict[Key, list[Span]]:
    """Per key of `properties`, what the service held just before acknowledgement `first_ack`, as far as the
    records of other runs to the same base URL and source id tell (pruned runs' values are unknown)."""
    wanted = sorted(set(properties))
    if not wanted:
        return {}
    service, found = _service(db, run)
    sql = _ACKED_RECORDS + service + " AND q.ack < ?" + " AND q.run NOT IN ({})".format(", ".join("?" * len(runs)))
    args: list[Any] = [OK, run.operation, run.source_id, *found, first_ack, *runs]
    # Within SQLite's limit of bound variables; past it every property is read and the rest left out.
    few = len(wanted) <= 500
    if few:
        sql += _in("r.propertyid", wanted)
        args.extend(wanted)
    keep = set(wanted)
    rows = (row for row in _rows(db, sql + " ORDER BY q.ack, r.idx", args) if row[0][0] in keep)
    return _painted(rows)


def held_at(
    db: sqlite3.Connection, operation: str, base_url: str, source_id: str, run: int, properties: Iterable[str]
) -> dict[Key, list[Span]]:
    """Per key of `properties`, what the service held once run `run` and those before it were acknowledged (an
    export's run: what its file was written from), rebuilt from their records; pruned runs' values are unknown."""
    wanted = sorted(set(properties))
    if not wanted:
        return {}
    found = spellings(db, base_url)
    sql = _ACKED_RECORDS + " AND " + in_spellings("u.base_url", found) + " AND q.run <= ?"
    args: list[Any] = [OK, operation, source_id, *found, run]
    few = len(wanted) <= 500  # within SQLite's limit of bound variables; past it every property is read
    if few:
        sql += _in("r.propertyid", wanted)
        args.extend(wanted)
    keep = set(wanted)
    rows = (row for row in _rows(db, sql + " ORDER BY q.ack, r.idx", args) if row[0][0] in keep)
    return _painted(rows)
