"""A journal of schema 1 (a row per input row, 157 MB a night) retired for schema 2, once, by the first writer.

Its runs are not converted: the file is copied whole beside the journal (`journal.sqlite3.v1`, which
`sqlite3` reads), and the journal itself becomes schema 2 in one transaction, keeping only what
the service acknowledged (so that `calendar`, `history find`'s "in force", `--changed-only` and
`retry`'s care for later values go on knowing it). Run numbers go on after the old ones, so that a
number always names one run. A reader never retires: it says what the next writer will do.
"""

from __future__ import annotations

import datetime as dt
import os
import sqlite3
from collections.abc import Callable
from pathlib import Path

from ari_cli.journal.acked import paint_acked, service_id
from ari_cli.journal.database import connect_writer, transaction
from ari_cli.journal.entries import RecordEntry
from ari_cli.journal.schema import SCHEMA, SCHEMA_VERSION

RETIRED_TABLES = ("runs", "files", "rows", "records", "requests", "carried")
# Said once, by the process that retired the journal (a push says it on standard error).
notices: list[str] = []


def _version(path: Path) -> int:
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return int(db.execute("PRAGMA user_version").fetchone()[0])
    finally:
        db.close()


def retire_older(path: Path) -> None:
    """Retire a schema 1 journal at `path`, if it is one; nothing otherwise."""
    if not path.exists() or path.stat().st_size == 0 or _version(path) != 1:
        return
    aside = path.with_name(f"{path.name}.v1")
    copy = path.with_name(f"{path.name}.v1.{os.getpid()}")
    db = connect_writer(path)
    try:
        # A copy first, consistent (outside the transaction: VACUUM INTO cannot run in one), then the change.
        db.execute("VACUUM INTO ?", (str(copy),))
        os.chmod(copy, 0o600)
        with transaction(db):
            if db.execute("PRAGMA user_version").fetchone()[0] != 1:
                copy.unlink()
                return  # another writer retired it meanwhile
            os.replace(copy, aside)
            last = _convert(db)
        notices.append(
            f"the journal {path} was written by an older ari-cli: its runs (1 to {last}) are kept in {aside}; "
            f"this journal goes on from run {last + 1}, with what the service acknowledged"
        )
    finally:
        copy.unlink(missing_ok=True)
        db.close()
    _compact(path)


def _convert(db: sqlite3.Connection) -> int:
    """Schema 1 to 2, in the caller's transaction: the acknowledged spans kept, the rest dropped."""
    for table in RETIRED_TABLES:
        db.execute(f"ALTER TABLE {table} RENAME TO v1_{table}")
    for statement in SCHEMA.split(";"):
        if statement.strip():
            db.execute(statement)
    last = db.execute("SELECT coalesce(max(id), 0) FROM v1_runs").fetchone()[0]
    db.execute("INSERT INTO sqlite_sequence (name, seq) VALUES ('runs', ?)", (last,))
    top = db.execute("SELECT coalesce(max(ack), 0) FROM v1_requests").fetchone()[0]
    db.execute("UPDATE counters SET value = ? WHERE name = 'ack'", (top,))
    day: Callable[[str], dt.date] = dt.date.fromisoformat
    found = db.execute(
        "SELECT u.operation, u.base_url, u.source_id, r.propertyid, r.roomid, r.rateid, r.start, r.end, r.value,"
        " r.run, r.idx FROM v1_records r JOIN v1_carried c ON c.run = r.run AND c.record = r.idx"
        " JOIN v1_requests q ON q.run = c.run AND q.id = c.request JOIN v1_runs u ON u.id = r.run"
        " WHERE q.state = 'ok' ORDER BY u.operation, u.base_url, u.source_id, r.propertyid, r.roomid, r.rateid, q.ack"
    )
    services: dict[tuple[str, str, str], int] = {}
    for operation, base, source, propertyid, roomid, rateid, start, end, value, run, idx in found:
        service = services.get((operation, base, source))
        if service is None:
            service = services[operation, base, source] = service_id(db, operation, base, source)
        record = RecordEntry(idx, propertyid, roomid, rateid, day(start), day(end), value, "")
        paint_acked(db, service, [(record, run)])
    for table in RETIRED_TABLES:
        db.execute(f"DROP TABLE v1_{table}")
    db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
    return int(last)


def _compact(path: Path) -> None:
    """Give the retired tables' space back; a busy journal keeps it for later runs."""
    db = connect_writer(path)
    try:
        db.execute("VACUUM")
    except sqlite3.OperationalError:
        pass
    finally:
        db.close()
