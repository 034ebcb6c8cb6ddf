"""The run journal: what each run planned and sent and what the service answered, written as the run goes.

Schema 2 keeps what was planned and sent, never a row per input row: a run's records (key, dates,
value, and the lines they came from as a short text, see `lines.py`), its requests (which records
they carried, as a range of record numbers, and the answer), notes for rows that sent nothing
(skipped, invalid), and, per service and key, the spans of dates the service acknowledged last
(`acked`), painted over as each acknowledgement is committed. Per-row results are derived when
shown (`rows.py`), and bodies are rebuilt from records as `batch.py` lays them out; a body that
is not (a policy's, a replayed one) is kept as sent.

A request's answer is written with its acknowledgement number and the spans it sets, in the same
transaction; a run's recorder commits its answers in small groups (`Journal.together`). A run killed
at any instant leaves a journal that says what was acknowledged: an answer of the group not yet
committed is lost with its group, and its request is "not finished" (never acknowledged), which
`retry` sends again. The marks of requests going out ride along with the next commit: a run killed
with `kill -9` may show a request sent without an answer as not sent; both are "not finished" and
`retry` re-sends both alike. The key is never stored: bodies carry `sharepost`
masked, and every text is scrubbed of known keys.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import os
import sqlite3
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any

from ari_cli.config.secrets import masked_body
from ari_cli.journal.acked import fold_spellings, paint_acked, service_id
from ari_cli.journal.database import connect_reader, connect_writer, opened, ours, transaction

# What a run hands the store (`entries.py`), named here too: callers speak to the store.
from ari_cli.journal.entries import Answer, Answered, NoteEntry, PlanEntry, RecordEntry, RequestEntry, RunStart, who
from ari_cli.journal.pending import fold, settle
from ari_cli.journal.retire import retire_older

# The tables and the states a request is stored in (`schema.py`), named here too.
from ari_cli.journal.schema import (
    FAILED,
    OK,
    PLANNED,
    SCHEMA,
    SCHEMA_VERSION,
    SENDING,
    SPLIT,
    STATES,
    SUPERSEDED,
    dumps,
    safe,
    take_acks,
)

__all__ = [
    "FAILED",
    "OK",
    "PLANNED",
    "SENDING",
    "SPLIT",
    "STATES",
    "SUPERSEDED",
    "Answer",
    "Answered",
    "Journal",
    "NoteEntry",
    "PlanEntry",
    "RecordEntry",
    "RequestEntry",
    "RunStart",
]


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


def iso(day: dt.date) -> str:
    return day.isoformat()


# The fields of a note of several rows, which are not kept: a million-row run has tens of thousands of such notes.
_NO_VIEW = (None,) * 5


class Journal:
    """One SQLite connection, written from one thread; every method commits what it wrote, unless
    called within `together()`, which commits them all at once.

    `sending` only notes its mark; the next write commits it with its own.
    """

    def __init__(self, path: Path, db: sqlite3.Connection | None = None) -> None:
        self.path = path
        self.db = db if db is not None else open_database(path)
        self.going_out: list[tuple[str, str, int, int]] = []
        self.services: dict[int, int] = {}  # run -> its service's id in `acked`
        self.grouped = False  # within `together()`: one transaction is open

    @contextmanager
    def together(self) -> Iterator[None]:
        """The writes within, committed in one transaction, or none of them (a failure rolls all back)."""
        with self._write():
            self.grouped = True
            try:
                yield
            finally:
                self.grouped = False

    def close(self) -> None:
        # A run that ended normally has committed everything in `finish`; this is for one that did not.
        with suppress(sqlite3.Error), self._write():
            pass
        self.db.close()

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        if self.grouped:
            self._marks()
            yield self.db
            return
        with transaction(self.db):
            self._marks()
            yield self.db

    def _marks(self) -> None:
        if self.going_out:
            self.db.executemany(
                "UPDATE requests SET state = ?, sent = coalesce(sent, ?) WHERE run = ? AND id = ?", self.going_out
            )
            self.going_out.clear()

    def start_run(self, start: RunStart) -> int:
        with self._write() as db:
            cursor = db.execute(
                "INSERT INTO runs (command, operation, profile, base_url, source_id, options, retry_of, started,"
                " sandbox, sharepost, user, host) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (safe(start.command), start.operation, safe(start.profile), safe(start.base_url), start.source_id,
                 safe(dumps(start.options)), start.retry_of, now(), int(start.sandbox), start.sharepost, *who()),
            )  # fmt: skip
            run = cursor.lastrowid
            assert run is not None
            db.executemany(
                "INSERT INTO files (run, position, path, sha256, size) VALUES (?, ?, ?, ?, ?)",
                [(run, n, safe(path), *file_digest(path)) for n, path in enumerate(start.files)],
            )
            self.services[run] = service_id(db, start.operation, start.base_url, start.source_id)
        return run

    def plan(self, run: int, entry: PlanEntry) -> None:
        """Everything the run means to send, before the first request goes out."""
        with self._write() as db:
            db.execute("UPDATE runs SET sources = ?, rows = ? WHERE id = ?", (safe(dumps(list(entry.sources))),
                                                                             entry.rows, run))  # fmt: skip
            db.executemany(
                "INSERT INTO records (run, idx, propertyid, roomid, rateid, start, end, value, lines)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                ((run, r.idx, r.propertyid, r.roomid, r.rateid, iso(r.start), iso(r.end), safe(r.value), r.lines)
                 for r in entry.records),
            )  # fmt: skip
            self._add_requests(db, run, entry.requests)
            db.executemany(
                "INSERT INTO notes (run, position, status, note, errors, lines, propertyid, roomid, rateid, dates,"
                " value) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                ((run, n, e.status, safe(e.note), safe(dumps(list(e.errors))) if e.errors else None, e.lines,
                  *(map(safe, e.view) if e.view else _NO_VIEW))
                 for n, e in enumerate(entry.notes)),
            )  # fmt: skip

    def _add_requests(self, db: sqlite3.Connection, run: int, requests: Iterable[RequestEntry]) -> None:
        db.executemany(
            "INSERT INTO requests (run, id, parent, propertyid, url, body, form, first, count, state)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            ((run, r.id, r.parent, r.propertyid, r.url,
              None if r.body is None else safe(dumps(masked_body(r.body), canonical=False)), r.form, r.first, r.count,
              r.state)
             for r in requests),
        )  # fmt: skip

    def forget(self, run: int) -> None:
        """A run that sent nothing and whose plan could not be written: gone, as if never started."""
        with self._write() as db:
            for table in ("notes", "requests", "records", "files"):
                db.execute(f"DELETE FROM {table} WHERE run = ?", (run,))
            db.execute("DELETE FROM runs WHERE id = ?", (run,))

    def add_requests(self, run: int, requests: Sequence[RequestEntry]) -> None:
        """Requests of records written with the plan (a retry's superseded ones)."""
        with self._write() as db:
            self._add_requests(db, run, requests)

    def sending(self, run: int, request: int) -> None:
        """A try is about to go out: until its answer is recorded, nobody knows whether it arrived."""
        self.going_out.append((SENDING, now(), run, request))

    def answers(self, run: int, answers: Sequence[Answered]) -> None:
        """Answers of `run` in the order they came (after their tries); `halves` replace a request that was split.
        The acknowledged ones take the next acknowledgement numbers in that order and paint their records' dates
        (`acknowledged`) as what the service now holds, a later one over an earlier one, in the same transaction.

        A statement per kind of write, not per answer: the recorder hands a group of answers at once, and a
        statement per answer (an acknowledgement number, the spans near each record, the request's row) was
        a third of a fast push's time."""
        with self._write() as db:
            numbers = iter(take_acks(db, sum(a.answer.state == OK and not a.halves for a in answers)))
            painted: list[RecordEntry] = []
            rows: list[tuple[object, ...]] = []
            halves: list[RequestEntry] = []
            written = now()  # when the group is written, as each answer was stamped when its own write ran
            for item in answers:
                answer, ack = item.answer, None
                if answer.state == OK and not item.halves:
                    ack = next(numbers)
                    painted.extend(item.acknowledged)
                rows.append(
                    (SPLIT if item.halves else answer.state, int(answer.transient), answer.attempts,
                     answer.http_status, answer.trackingid, safe(dumps(answer.errors)), safe(answer.response),
                     answer.seconds, written, ack, run, item.request)
                )  # fmt: skip
                halves.extend(item.halves)
            if painted:
                self._paint(db, run, painted)
            self._add_requests(db, run, halves)  # first: a half's answer may be among these
            db.executemany(
                "UPDATE requests SET state = ?, transient = ?, attempts = ?, http_status = ?, trackingid = ?,"
                " errors = ?, response = ?, seconds = ?, answered = ?, ack = ? WHERE run = ? AND id = ?",
                rows,
            )

    def _paint(self, db: sqlite3.Connection, run: int, records: Sequence[RecordEntry]) -> None:
        service = self.services.get(run)
        if service is None:
            operation, base, source = db.execute(
                "SELECT operation, base_url, source_id FROM runs WHERE id = ?", (run,)
            ).fetchone()
            service = self.services[run] = service_id(db, operation, base, source)
        paint_acked(db, service, [(r, run) for r in records])

    def unsent(self, run: int, request: int, why: list[dict[str, Any]]) -> None:
        """A request the run never sent stays planned, with why it was not (`why`: its problems); its tries so far
        are kept."""
        with self._write() as db:
            db.execute(
                "UPDATE requests SET state = ?, errors = ? WHERE run = ? AND id = ? AND state IN (?, ?)",
                (PLANNED, safe(dumps(why)), run, request, PLANNED, SENDING),
            )

    def completes(self, retry: int, runs: Sequence[int]) -> None:
        """`retry` got acknowledged all that `runs` (a run and the retries before it) left to send."""
        with self._write() as db:
            db.executemany("UPDATE runs SET finished_by = ? WHERE id = ?", [(retry, run) for run in runs])

    def finish(self, run: int, summary: dict[str, int], exit_code: int) -> None:
        with self._write() as db:
            db.execute(
                "UPDATE runs SET ended = ?, summary = ?, exit_code = ? WHERE id = ?",
                (now(), dumps(summary), exit_code, run),
            )


def _create(db: sqlite3.Connection, path: Path) -> None:
    """The schema, made once: in one write transaction, so that two first runs at once make it once.

    A journal of schema 1 (a row per input row) is retired first: see `retire.py`.
    """
    if db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION:
        _add_who(db)
        return
    with transaction(db):
        version = db.execute("PRAGMA user_version").fetchone()[0]
        _known_version(version, path)
        if version == 0:
            ours(db)
        if version < SCHEMA_VERSION:
            for statement in SCHEMA.split(";"):
                if statement.strip():
                    db.execute(statement)
            db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")


def has_who(db: sqlite3.Connection) -> bool:
    """Whether the runs table records who ran each run (journals made before it was recorded do not)."""
    return any(column[1] == "user" for column in db.execute("PRAGMA table_info(runs)"))


def _add_who(db: sqlite3.Connection) -> None:
    """Who ran each run (user, host) is recorded from now on: the two columns are added to a journal made
    before, in place and without a new schema version, as older versions of ari-cli read and write past
    them; that journal's older runs leave them empty (unknown)."""
    if has_who(db):
        return
    with transaction(db):
        if not has_who(db):  # another writer may have added them while this one waited for the lock
            db.execute("ALTER TABLE runs ADD COLUMN user TEXT")
            db.execute("ALTER TABLE runs ADD COLUMN host TEXT")


def _known_version(version: int, path: Path) -> None:
    if version > SCHEMA_VERSION:
        raise sqlite3.DatabaseError(f"{path} was written by a newer ari-cli (schema {version})")
    if 0 < version < SCHEMA_VERSION:
        raise OldJournal(path, version)


class OldJournal(sqlite3.DatabaseError):
    """A journal of an older schema, which a writer retires (`retire.py`) and a reader cannot read."""

    def __init__(self, path: Path, version: int) -> None:
        super().__init__(
            f"it was written by an older ari-cli (schema {version}); the next push, retry or prune keeps it as "
            f"{path.name}.v{version} beside it and starts a new one with what the service acknowledged"
        )
        self.version = version


def open_database(path: Path) -> sqlite3.Connection:
    """Open the journal to write, creating it and its schema when needed (retiring an older one first)."""
    retire_older(path)
    db = connect_writer(path)
    try:
        _create(db, path)
        # One service's spellings in an older journal made one, before anything is written under them.
        fold_spellings(db)
    except BaseException:
        db.close()
        raise
    # The notes of runs whose journal writes failed: folded in now, or at a later open if this one cannot.
    with suppress(sqlite3.Error, OSError):
        fold(db, path)
    return db


def _readable(db: sqlite3.Connection, path: Path) -> None:
    version = db.execute("PRAGMA user_version").fetchone()[0]
    _known_version(version, path)
    if version == 0:
        ours(db)


def _connect_reading(path: Path) -> sqlite3.Connection:
    settle(path)
    return connect_reader(path)


@contextmanager
def reading(env: Mapping[str, str]) -> Iterator[sqlite3.Connection | None]:
    """The journal to read (runs' notes folded in first: `pending.settle`), None when there is none; failures exit 4."""
    with opened(env, _connect_reading, _readable) as db:
        yield db if db is None or _has_schema(db) else None


@contextmanager
def writing(env: Mapping[str, str]) -> Iterator[sqlite3.Connection | None]:
    """The journal to change (prune), None when there is none yet; failures are exit 4."""
    with opened(env, open_database, lambda db, path: None) as db:
        yield db


def _has_schema(db: sqlite3.Connection) -> bool:
    """A file made by a run that stopped before its schema was written holds no run yet."""
    return bool(db.execute("SELECT count(*) FROM sqlite_master WHERE name = 'runs'").fetchone()[0])
