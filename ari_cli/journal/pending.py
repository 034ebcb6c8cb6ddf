"""A run's note beside the journal, for when the journal itself cannot be written (a full disk, a lock held too long).

Each recording run makes `journal.sqlite3.run<N>.pending` before its plan is written, with room
reserved for what it may have to say (allocated on the disk, so that a disk that fills later cannot
refuse it: a run that cannot reserve it sends nothing), and holds a lock on it while it runs. A run
whose journal writes all went through deletes it at the end. A run whose writes failed goes on
writing there, one line per answer in the room it reserved, and at its end its exit code and
summary. The next command to open the journal, writer or reader, folds the note in, and only then
deletes it: the run is marked "not fully recorded", never "killed", and its acknowledged requests
are acknowledged, so that `retry` sends nothing acknowledged and `revert`, `diff`, `--changed-only`,
`calendar` and the guards read them as every other acknowledgement. A reader that cannot fold it in
(the disk still full, a read-only copy) stops with exit 4 rather than read a journal that lacks
them (`settle`); while its run still runs, `history` shows the note as it is. A note whose run was
killed before anything failed says nothing new and is deleted. A note
cut short (a kill mid-line) says what it holds up to its last whole line; a note whose first line
cannot be read is left where it is, never deleted unread.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import errno
import json
import os
import sqlite3
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ari_cli.exits import ConfigError
from ari_cli.journal.acked import paint_acked, service_id
from ari_cli.journal.database import connect_writer, transaction
from ari_cli.journal.entries import RecordEntry
from ari_cli.journal.place import HOME_VARIABLE
from ari_cli.journal.portable import lock, pwrite, unlink_open, unlock
from ari_cli.journal.schema import OK, PLANNED, SCHEMA_VERSION, SENDING, SPLIT, dumps, next_ack, safe, stored

# Room for one line per answer of every request and as many halves, and the end.
LINE_ROOM, BASE_ROOM = 320, 16_384


def _reserve(fd: int, size: int) -> None:
    """`size` bytes of the disk for the file, or OSError (ENOSPC): allocated, so later writes within cannot fail."""
    if hasattr(os, "posix_fallocate"):  # (not on Windows)
        try:
            os.posix_fallocate(fd, 0, size)
            return
        except OSError as problem:
            if problem.errno not in (errno.EOPNOTSUPP, errno.EINVAL, errno.ENOSYS):
                raise
    # A file system (or system) that cannot allocate ahead: the room is written out, and a short write is a full
    # disk.
    block = b" " * 65_536
    at = 0
    while at < size:
        wrote = pwrite(fd, block[: size - at], at)
        if wrote <= 0:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        at += wrote


def note_path(journal: Path, run: int) -> Path:
    return journal.with_name(f"{journal.name}.run{run}.pending")


class Note:
    """The note of one running run: its file, locked, and where the next line goes."""

    def __init__(self, journal: Path, run: int, requests: int) -> None:
        """Make the note and reserve its room; OSError when the disk cannot give it (nothing is then left)."""
        self.path = note_path(journal, run)
        self.room = BASE_ROOM + LINE_ROOM * 2 * requests
        self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            lock(self.fd)
            head = (json.dumps({"run": run}) + "\n").encode()
            _reserve(self.fd, self.room)
            if pwrite(self.fd, head, 0) != len(head):
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
            os.fsync(self.fd)
        except OSError:
            os.close(self.fd)
            with contextlib.suppress(OSError):
                self.path.unlink()
            raise
        self.at = len(head)
        self.broken = False

    def write(self, line: Sequence[Any]) -> None:
        """One event, in the room reserved (past it only if the disk still has some)."""
        # As everything the journal keeps: no known key in it (an answer may echo one).
        data = (stored(dumps(list(line), canonical=False)) + "\n").encode()
        with contextlib.suppress(OSError):
            pwrite(self.fd, data, self.at)
            self.at += len(data)

    def broke(self, reason: str) -> None:
        if not self.broken:
            self.broken = True
            self.write(["broken", reason])

    def close(self) -> None:
        """Delete the note when the journal holds everything; else leave it for the next writer."""
        deferred = False
        if not self.broken:
            with contextlib.suppress(OSError):
                deferred = not unlink_open(self.path)
        with contextlib.suppress(OSError):
            unlock(self.fd)
            os.close(self.fd)
        if deferred:  # Windows: deleted once closed
            with contextlib.suppress(OSError):
                self.path.unlink()


@dataclass
class Said:
    """What a note holds: why the journal failed, each answer it could not take, and the run's end."""

    run: int
    reason: str | None = None
    answers: dict[int, list[Any]] = field(default_factory=dict)  # request -> [state, transient, attempts, ...]
    halves: list[list[Any]] = field(default_factory=list)  # [parent, id, first, count]
    unsent: list[tuple[int, list[Any]]] = field(default_factory=list)  # request, why
    end: list[Any] | None = None  # [ended, exit_code, summary]


def _read(path: Path) -> Said | None:
    """What a note says, up to its last whole line; None when even its first line cannot be read."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    # The reserved room reads as zeros (allocated) or spaces (written out): the note ends where it begins.
    lines = data.split(b"\0", 1)[0].decode("utf-8", "replace").rstrip(" \n").splitlines()
    try:
        said = Said(int(json.loads(lines[0])["run"]))
    except (ValueError, KeyError, IndexError, TypeError):
        return None
    for line in lines[1:]:
        try:
            _take(said, json.loads(line))
        except (ValueError, KeyError, IndexError, TypeError):
            break  # cut short here (a kill mid-line): what came before stands
    return said


def _take(said: Said, event: list[Any]) -> None:
    kind, *rest = event
    if kind == "broken":
        said.reason = str(rest[0])
    elif kind == "answer":
        if len(rest) != 8:
            raise ValueError("an answer cut short")
        said.answers[int(rest[0])] = rest[1:]
    elif kind == "split":
        said.halves.extend([int(rest[0]), *half] for half in rest[1])
    elif kind == "unsent":
        said.unsent.append((int(rest[0]), rest[1] if len(rest) > 1 else []))  # a note before issue 40 has no why
    elif kind == "end":
        if len(rest) != 3:
            raise ValueError("an end cut short")
        said.end = rest


def _notes(journal: Path) -> Iterator[tuple[Path, Said]]:
    for path in sorted(journal.parent.glob(f"{journal.name}.run*.pending")):
        said = _read(path)
        if said is not None:
            yield path, said


def marks(journal: Path) -> dict[int, Said]:
    """What the notes of runs whose journal writes failed say, by run (for readers: nothing is changed)."""
    return {said.run: said for _, said in _notes(journal) if said.reason is not None}


def _ended(journal: Path) -> list[tuple[Path, Said]]:
    """The notes of runs that ended (nobody holds their lock) whose journal writes failed: what the journal lacks."""
    found = []
    for path, said in _notes(journal):
        if said.reason is None:
            continue  # killed before anything failed: it says nothing the journal lacks
        try:
            fd = os.open(path, os.O_RDONLY)
        except OSError:
            continue
        try:
            lock(fd, shared=True)
        except OSError:
            continue  # its run is still running: `history` shows the note as it is
        else:
            unlock(fd)
        finally:
            os.close(fd)
        found.append((path, said))
    return found


def settle(journal: Path) -> None:
    """Before a reader reads: the notes of runs that ended folded in, so that what they acknowledged is read as
    acknowledged by every reader; exit 4 when the journal cannot take them (a full disk, a read-only copy)."""
    if not _ended(journal):
        return
    why = None
    try:
        db = connect_writer(journal)
        try:
            if db.execute("PRAGMA user_version").fetchone()[0] != SCHEMA_VERSION:
                return  # not a journal this version writes: the reader says what it is
            fold(db, journal)
        finally:
            db.close()
    # (A note whose lines do not fit the run's requests, edited by hand, is kept: a reason, never a traceback.)
    except (sqlite3.Error, OSError, ValueError, TypeError) as problem:
        why = problem.strerror if isinstance(problem, OSError) and problem.strerror else str(problem)
    left = _ended(journal)
    if not left:
        return
    if why is None:  # the journal took the transaction, the note would not open to be folded (a read-only folder)
        try:
            os.close(os.open(left[0][0], os.O_RDWR))
        except OSError as problem:
            why = problem.strerror
    runs = ", ".join(f"run {said.run}'s note {path}" for path, said in left)
    raise ConfigError(
        f"the journal {journal} cannot fold in {runs}, which holds what the service acknowledged"
        f" ({why or 'it cannot be written'}): read without it, the journal would show those values as never sent",
        f"free space on its disk (or make {journal.parent} writable), or copy the folder to a writable place"
        f" and set {HOME_VARIABLE} to it; the next command folds the note in",
    )


def fold(db: sqlite3.Connection, journal: Path) -> None:
    """Fold in the notes of runs that ended (nobody holds their lock), then delete them."""
    for path in sorted(journal.parent.glob(f"{journal.name}.run*.pending")):
        try:
            fd = os.open(path, os.O_RDWR)
        except OSError:
            continue
        deferred = False
        try:
            try:
                lock(fd)
            except OSError:
                continue  # its run is still running
            said = _read(path)
            if said is None:
                unlock(fd)
                continue  # unreadable: kept for support, never deleted unread
            if said.reason is not None:
                fold_note(db, said)  # a failure here keeps the note for a later writer
            deferred = not unlink_open(path)
            unlock(fd)
        finally:
            os.close(fd)
        if deferred:  # Windows: deleted once closed
            path.unlink()


def fold_note(db: sqlite3.Connection, said: Said) -> None:
    """What a run could not write in the journal, written now: the run marked not fully recorded, its
    halves, and its answers (acknowledged ones numbered and painted as at the time)."""
    with transaction(db):
        found = db.execute("SELECT operation, base_url, source_id FROM runs WHERE id = ?", (said.run,)).fetchone()
        if found is None:
            return
        db.execute("UPDATE runs SET unrecorded = ? WHERE id = ?", (said.reason, said.run))
        if said.end is not None:
            ended, code, summary = said.end
            db.execute("UPDATE runs SET ended = ?, exit_code = ?, summary = ? WHERE id = ? AND ended IS NULL",
                       (ended, code, dumps(summary), said.run))  # fmt: skip
        for parent, half, first, count in said.halves:
            db.execute(
                "INSERT OR IGNORE INTO requests (run, id, parent, propertyid, url, form, first, count, state)"
                " SELECT run, ?, id, propertyid, url, form, ?, ?, ? FROM requests WHERE run = ? AND id = ?",
                (half, first, count, PLANNED, said.run, parent),
            )
            db.execute("UPDATE requests SET state = ? WHERE run = ? AND id = ?", (SPLIT, said.run, parent))
        service = service_id(db, *found)
        for request, (state, transient, attempts, http, trackingid, errors, answered) in said.answers.items():
            row = db.execute("SELECT first, count, state FROM requests WHERE run = ? AND id = ?", (said.run, request))
            place = row.fetchone()
            if place is None or place[2] in (OK, SPLIT):
                continue
            ack = None
            if state == OK:
                ack = next_ack(db)
                carried = db.execute(
                    "SELECT idx, propertyid, roomid, rateid, start, end, value, lines FROM records"
                    " WHERE run = ? AND idx >= ? AND idx < ?", (said.run, place[0], place[0] + place[1]),
                ).fetchall()  # fmt: skip
                entries = [RecordEntry(i, p, r, t, dt.date.fromisoformat(a), dt.date.fromisoformat(b), v, lines)
                           for i, p, r, t, a, b, v, lines in carried]  # fmt: skip
                paint_acked(db, service, [(entry, said.run) for entry in entries])
            db.execute(
                "UPDATE requests SET state = ?, transient = ?, attempts = ?, http_status = ?, trackingid = ?,"
                " errors = ?, answered = ?, ack = ? WHERE run = ? AND id = ?",
                (state, int(transient), attempts, http, trackingid, safe(dumps(errors)), answered, ack, said.run,
                 request),
            )  # fmt: skip
        db.executemany("UPDATE requests SET state = ?, errors = ? WHERE run = ? AND id = ? AND state IN (?, ?)",
                       [(PLANNED, safe(dumps(why)), said.run, r, PLANNED, SENDING)
                        for r, why in said.unsent])  # fmt: skip
