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

import platformdirs

from ari_cli.config.file import APP_NAME
from ari_cli.config.secrets import masked_body, scrub
from ari_cli.exits import ConfigError

FILE_NAME = "journal.sqlite3"
HOME_VARIABLE = "ARI_HOME"
SCHEMA_VERSION = 1
BUSY_MS = 10_000

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


def default_home(env: Mapping[str, str]) -> Path:
    """`$ARI_HOME`, else the user data folder of this platform."""
    home = env.get(HOME_VARIABLE, "").strip()
    if home:
        return Path(home).expanduser()
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def journal_path(env: Mapping[str, str]) -> Path:
    return default_home(env) / FILE_NAME


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
        with self.db:
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


def open_database(path: Path) -> sqlite3.Connection:
    """Open (creating it private to the user) the journal database in WAL mode."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    fresh = not path.exists()
    if fresh:
        # Bodies hold the hotel's commercial terms: the file is the user's alone.
        os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o600))
    db = sqlite3.connect(path, timeout=BUSY_MS / 1000, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    # In WAL mode NORMAL survives a killed process (not a power cut) and costs no fsync per commit.
    db.execute("PRAGMA synchronous=NORMAL")
    db.execute(f"PRAGMA busy_timeout={BUSY_MS}")
    db.execute("PRAGMA foreign_keys=OFF")
    version = db.execute("PRAGMA user_version").fetchone()[0]
    if version > SCHEMA_VERSION:
        db.close()
        raise sqlite3.DatabaseError(f"{path} was written by a newer ari-cli (schema {version})")
    db.executescript(_SCHEMA)
    db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
    db.isolation_level = "DEFERRED"
    return db


@contextmanager
def reading(env: Mapping[str, str]) -> Iterator[sqlite3.Connection | None]:
    """The journal to read, None when there is none yet (reading creates nothing); any database failure is exit 4."""
    path = journal_path(env)
    hint = f"set {HOME_VARIABLE} to a folder of yours, or unset it to use the user data folder"
    nearest = next((p for p in path.parents if p.exists()), None)
    if nearest is not None and not nearest.is_dir():
        raise ConfigError(f"the journal cannot be read: {nearest} is a file, not a folder", hint)
    if not path.exists():
        yield None
        return
    broken = f"move {path} aside (the next push starts a new journal), or set {HOME_VARIABLE} to another folder"
    try:
        db = open_database(path)
    except (sqlite3.Error, OSError) as problem:
        raise ConfigError(f"the journal {path} cannot be read: {problem}", broken) from None
    try:
        yield db
    except sqlite3.Error as problem:
        raise ConfigError(f"the journal {path} cannot be read: {problem}", broken) from None
    finally:
        db.close()


def compact(db: sqlite3.Connection) -> str | None:
    """Give the space of deleted runs back, so that their bodies are gone from the file; why not, if it could not."""
    try:
        db.execute("VACUUM")
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    except sqlite3.OperationalError as busy:
        return str(busy)
    return None
