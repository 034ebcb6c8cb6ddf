"""What `--min-coverage` compares with: the last push of files of an operation to a service that sent
something, and the keys and dates it covered from a day on.

Only a push of files counts: not `send` (one setting), `replay`, `retry`, `revert`, nor a `--changed-only`
push (which sends only what changed, so covers little by design).
"""

from __future__ import annotations

import datetime as dt
import sqlite3

from ari_cli.journal.acked import in_spellings, spellings
from ari_cli.journal.database import loads, parsed
from ari_cli.journal.queries import key_of
from ari_cli.journal.store import PLANNED, SUPERSEDED
from ari_cli.planning.changes import Key

_CANDIDATES = (
    "SELECT u.id, u.command, u.options FROM runs u WHERE u.operation = ? AND u.source_id = ? AND {service}"
    " AND u.retry_of IS NULL AND EXISTS (SELECT 1 FROM files f WHERE f.run = u.id)"
    " AND EXISTS (SELECT 1 FROM requests q WHERE q.run = u.id AND q.state NOT IN (?, ?))"
    " ORDER BY u.id DESC"
)


def _a_push(command: str, options: dict[str, object]) -> bool:
    # The command line's `ari-cli threshold push`, or the Python API's `ari_cli.push('threshold')`.
    pushed = command.endswith(" push") or command.startswith("ari_cli.push(")
    return pushed and not options.get("changed_only") and options.get("reverts") is None


def last_push(db: sqlite3.Connection, operation: str, base_url: str, source_id: str) -> int | None:
    """The number of the last push of files of `operation` to the service that sent something; None if none."""
    found = spellings(db, base_url)  # a journal not yet folded may name the service in several ways
    sql = _CANDIDATES.format(service=in_spellings("u.base_url", found))
    for run, command, options in db.execute(sql, (operation, source_id, *found, PLANNED, SUPERSEDED)):
        if _a_push(command, loads(options)):
            return int(run)
    return None


def covered(db: sqlite3.Connection, run: int, today: dt.date) -> dict[Key, list[tuple[dt.date, dt.date]]]:
    """Per key, the dates from `today` on that the run's records set (what it planned, sent or not)."""
    day = dt.date.fromisoformat
    found: dict[Key, list[tuple[dt.date, dt.date]]] = {}
    sql = "SELECT propertyid, roomid, rateid, start, end FROM records WHERE run = ? AND end >= ?"
    for propertyid, roomid, rateid, start, end in db.execute(sql, (run, today.isoformat())):
        first = max(parsed(day, start), today)
        found.setdefault(key_of(propertyid, roomid, rateid), []).append((first, parsed(day, end)))
    return found
