"""The run journal: what each run planned, sent and was told, written as the run goes.

SQLite (standard library, WAL) in the user data folder, or `$ARI_HOME`. A request is recorded
when it goes out and completed when it is answered; every answer is committed at once, so a run
killed at any instant leaves a journal that says what was and was not acknowledged. The marks of
requests going out ride along with the next commit (one commit per request, not two): a run killed
with `kill -9` may show a request sent without an answer as not sent, which `retry` re-sends alike. The key is
never stored: bodies carry `sharepost` masked, and every text is scrubbed of known keys.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
import sqlite3
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ari_cli.config.secrets import masked_body, scrub
from ari_cli.journal.database import connect_reader, connect_writer, opened, transaction

SCHEMA_VERSION = 1

# Request states: `planned` (not yet out), `sending` (a try is out, no answer recorded), `ok`,
# `failed` (final; `transient` says whether a later retry may succeed), `split` (replaced by halves).
PLANNED, SENDING, OK, FAILED, SPLIT = "planned", "sending", "ok", "failed", "split"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    command TEXT NOT NULL,
    operation TEXT NOT NULL,
    profile TEXT,
    base_url TEXT NOT NULL,
    source_id TEXT NOT NULL,
    options TEXT NOT NULL,
    retry_of INTEGER,
    started TEXT NOT NULL,
    ended TEXT,
    summary TEXT,
    exit_code INTEGER
);
CREATE TABLE IF NOT EXISTS files (
    run INTEGER NOT NULL, position INTEGER NOT NULL, path TEXT NOT NULL, sha256 TEXT, size INTEGER,
    PRIMARY KEY (run, position)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS rows (
    run INTEGER NOT NULL, idx INTEGER NOT NULL, source TEXT NOT NULL, line INTEGER NOT NULL,
    propertyid TEXT, roomid TEXT, rateid TEXT, dates TEXT, value TEXT,
    status TEXT, trackingids TEXT, errors TEXT, note TEXT,
    PRIMARY KEY (run, idx)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS records (
    run INTEGER NOT NULL, idx INTEGER NOT NULL,
    propertyid TEXT NOT NULL, roomid TEXT NOT NULL, rateid TEXT NOT NULL,
    start TEXT NOT NULL, end TEXT NOT NULL, value TEXT NOT NULL, fragment TEXT, refs TEXT NOT NULL,
    PRIMARY KEY (run, idx)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS requests (
    run INTEGER NOT NULL, id INTEGER NOT NULL, parent INTEGER, propertyid TEXT NOT NULL,
    url TEXT NOT NULL, body TEXT NOT NULL, state TEXT NOT NULL, transient INTEGER NOT NULL DEFAULT 0,
    attempts INTEGER NOT NULL DEFAULT 0, http_status INTEGER, trackingid TEXT, errors TEXT, response TEXT,
    seconds REAL NOT NULL DEFAULT 0, sent TEXT, answered TEXT, ack INTEGER,
    PRIMARY KEY (run, id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS carried (
    run INTEGER NOT NULL, request INTEGER NOT NULL, record INTEGER NOT NULL,
    PRIMARY KEY (run, request, record)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS records_by_key ON records (propertyid, roomid, rateid, start);
CREATE INDEX IF NOT EXISTS carried_by_record ON carried (run, record);
CREATE INDEX IF NOT EXISTS requests_by_trackingid ON requests (trackingid);
CREATE INDEX IF NOT EXISTS requests_by_ack ON requests (ack);
"""


def now() -> str:
    """A UTC timestamp to the millisecond, sortable as text."""
    return dt.datetime.now(dt.UTC).isoformat(timespec="milliseconds")


def file_digest(path: str) -> tuple[str | None, int | None]:
    """SHA-256 and size of an input file (none for standard input or an unreadable path)."""
    if path == "-":
        return None, None
    try:
        with open(path, "rb") as handle:
            digest = hashlib.file_digest(handle, "sha256")
        return digest.hexdigest(), os.path.getsize(path)
    except OSError:
        return None, None


def dumps(value: Any, canonical: bool = True) -> str:
    """Compact JSON; canonical (sorted keys) for values compared across runs, else in the given order."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=canonical)


def safe(text: str | None) -> str | None:
    """Text as stored: no known key in it."""
    return None if text is None else scrub(text)


@dataclass(frozen=True, slots=True)
class RunStart:
    """What is known of a run before it sends."""

    command: str
    operation: str
    profile: str | None
    base_url: str
    source_id: str
    options: dict[str, Any]
    files: Sequence[str] = ()
    retry_of: int | None = None

    def retrying(self, run: int) -> RunStart:
        return replace(self, files=(), retry_of=run)


@dataclass(frozen=True, slots=True)
class RowEntry:
    idx: int
    source: str
    line: int
    propertyid: str
    roomid: str
    rateid: str
    dates: str
    value: str


@dataclass(frozen=True, slots=True)
class RecordEntry:
    """A planned record: its key, dates, value as the service is told it, and the rows it carries."""

    idx: int
    propertyid: str
    roomid: str
    rateid: str
    start: dt.date
    end: dt.date
    value: str
    fragment: dict[str, Any] | None
    refs: Sequence[int]


@dataclass(frozen=True, slots=True)
class RequestEntry:
    id: int
    propertyid: str
    url: str
    body: dict[str, Any]
    records: tuple[int, ...]
    parent: int | None = None


@dataclass(frozen=True, slots=True)
class Answer:
    """What one try of a request came to, as the journal keeps it."""

    state: str
    transient: bool
    attempts: int
    http_status: int | None
    trackingid: str | None
    errors: list[dict[str, Any]]
    response: str | None
    seconds: float


@dataclass(frozen=True, slots=True)
class RowOutcome:
    idx: int
    status: str
    trackingids: list[str]
    errors: list[dict[str, Any]]
    note: str


class Journal:
    """One SQLite connection, written from one thread; every method commits what it wrote.

    `sending` only notes its mark; the next write commits it with its own.
    """

    def __init__(self, path: Path, db: sqlite3.Connection | None = None) -> None:
        self.path = path
        self.db = db if db is not None else open_database(path)
        self.going_out: list[tuple[str, str, int, int]] = []

    def close(self) -> None:
        # A run that ended normally has committed everything in `finish`; this is for one that did not.
        with suppress(sqlite3.Error), self._write():
            pass
        self.db.close()

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        with transaction(self.db):
            if self.going_out:
                self.db.executemany(
                    "UPDATE requests SET state = ?, sent = coalesce(sent, ?) WHERE run = ? AND id = ?", self.going_out
                )
                self.going_out.clear()
            yield self.db

    def start_run(self, start: RunStart) -> int:
        with self._write() as db:
            cursor = db.execute(
                "INSERT INTO runs (command, operation, profile, base_url, source_id, options, retry_of, started)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (start.command, start.operation, start.profile, start.base_url, start.source_id,
                 dumps(start.options), start.retry_of, now()),
            )  # fmt: skip
            run = cursor.lastrowid
            assert run is not None
            db.executemany(
                "INSERT INTO files (run, position, path, sha256, size) VALUES (?, ?, ?, ?, ?)",
                [(run, n, path, *file_digest(path)) for n, path in enumerate(start.files)],
            )
        return run

    def plan(
        self, run: int, rows: Iterable[RowEntry], records: Iterable[RecordEntry], requests: Iterable[RequestEntry]
    ) -> None:
        """Everything the run means to send, before the first request goes out."""
        with self._write() as db:
            db.executemany(
                "INSERT INTO rows (run, idx, source, line, propertyid, roomid, rateid, dates, value)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                ((run, r.idx, r.source, r.line, r.propertyid, r.roomid, r.rateid, r.dates, safe(r.value))
                 for r in rows),
            )  # fmt: skip
            db.executemany(
                "INSERT INTO records (run, idx, propertyid, roomid, rateid, start, end, value, fragment, refs)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                ((run, r.idx, r.propertyid, r.roomid, r.rateid, r.start.isoformat(), r.end.isoformat(), r.value,
                  None if r.fragment is None else dumps(r.fragment), dumps(list(r.refs)))
                 for r in records),
            )  # fmt: skip
            self._add_requests(db, run, requests)

    def _add_requests(self, db: sqlite3.Connection, run: int, requests: Iterable[RequestEntry]) -> None:
        for request in requests:
            db.execute(
                "INSERT INTO requests (run, id, parent, propertyid, url, body, state) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (run, request.id, request.parent, request.propertyid, request.url,
                 safe(dumps(masked_body(request.body), canonical=False)), PLANNED),
            )  # fmt: skip
            db.executemany(
                "INSERT INTO carried (run, request, record) VALUES (?, ?, ?)",
                [(run, request.id, record) for record in request.records],
            )

    def sending(self, run: int, request: int) -> None:
        """A try is about to go out: until its answer is recorded, nobody knows whether it arrived."""
        self.going_out.append((SENDING, now(), run, request))

    def answered(self, run: int, request: int, answer: Answer, halves: Sequence[RequestEntry] = ()) -> None:
        """A request's answer (after its tries); `halves` replace it when it was split."""
        with self._write() as db:
            ack = None
            if answer.state == OK:
                # A journal-wide order of acknowledgements: the last one for a date is what the service holds.
                ack = db.execute("SELECT coalesce(max(ack), 0) + 1 FROM requests").fetchone()[0]
            db.execute(
                "UPDATE requests SET state = ?, transient = ?, attempts = ?, http_status = ?, trackingid = ?,"
                " errors = ?, response = ?, seconds = ?, answered = ?, ack = ? WHERE run = ? AND id = ?",
                (SPLIT if halves else answer.state, int(answer.transient), answer.attempts, answer.http_status,
                 answer.trackingid, safe(dumps(answer.errors)), safe(answer.response), answer.seconds, now(), ack,
                 run, request),
            )  # fmt: skip
            self._add_requests(db, run, halves)

    def unsent(self, run: int, request: int) -> None:
        """A request that a stopped run never sent stays planned; its tries so far are kept."""
        with self._write() as db:
            db.execute(
                "UPDATE requests SET state = ? WHERE run = ? AND id = ? AND state = ?", (PLANNED, run, request, SENDING)
            )

    def finish(self, run: int, outcomes: Iterable[RowOutcome], summary: dict[str, int], exit_code: int) -> None:
        with self._write() as db:
            db.executemany(
                "UPDATE rows SET status = ?, trackingids = ?, errors = ?, note = ? WHERE run = ? AND idx = ?",
                ((o.status, dumps(o.trackingids), safe(dumps(o.errors)), safe(o.note), run, o.idx)
                 for o in outcomes),
            )  # fmt: skip
            db.execute(
                "UPDATE runs SET ended = ?, summary = ?, exit_code = ? WHERE id = ?",
                (now(), dumps(summary), exit_code, run),
            )


def _create(db: sqlite3.Connection, path: Path) -> None:
    """The schema, made once: in one write transaction, so that two first runs at once make it once."""
    if db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION:
        return
    with transaction(db):
        version = db.execute("PRAGMA user_version").fetchone()[0]
        _known_version(version, path)
        if version < SCHEMA_VERSION:
            for statement in _SCHEMA.split(";"):
                if statement.strip():
                    db.execute(statement)
            db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")


def _known_version(version: int, path: Path) -> None:
    if version > SCHEMA_VERSION:
        raise sqlite3.DatabaseError(f"{path} was written by a newer ari-cli (schema {version})")


def open_database(path: Path) -> sqlite3.Connection:
    """Open the journal to write, creating it and its schema when needed."""
    db = connect_writer(path)
    try:
        _create(db, path)
    except BaseException:
        db.close()
        raise
    return db


def _readable(db: sqlite3.Connection, path: Path) -> None:
    _known_version(db.execute("PRAGMA user_version").fetchone()[0], path)


@contextmanager
def reading(env: Mapping[str, str]) -> Iterator[sqlite3.Connection | None]:
    """The journal to read, None when there is none yet; reading creates and changes nothing. Failures are exit 4."""
    with opened(env, connect_reader, _readable) as db:
        yield db if db is None or _has_schema(db) else None


@contextmanager
def writing(env: Mapping[str, str]) -> Iterator[sqlite3.Connection | None]:
    """The journal to change (prune), None when there is none yet; failures are exit 4."""
    with opened(env, open_database, lambda db, path: None) as db:
        yield db


def _has_schema(db: sqlite3.Connection) -> bool:
    """A file made by a run that stopped before its schema was written holds no run yet."""
    return bool(db.execute("SELECT count(*) FROM sqlite_master WHERE name = 'runs'").fetchone()[0])
