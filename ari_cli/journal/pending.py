"""A run's note beside the journal, for when the journal itself cannot be written (a full disk, a lock held too long).

Each recording run makes `journal.sqlite3.run<N>.pending` as soon as its plan is written, with room
reserved for what it may have to say (written out, so a disk that fills later cannot refuse it), and
holds a lock on it while it runs. A run whose journal writes all went through deletes it at the end.
A run whose writes failed goes on writing there, one line per answer in the room it reserved, and at
its end its exit code and summary. The next writer to open the journal (push, retry, prune) folds
the note in: the run is marked "not fully recorded", never "killed", and its acknowledged requests
are acknowledged, so that `retry` sends nothing acknowledged. Until then readers show the note as
it is; a note whose run was killed before anything failed says nothing new and is deleted.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import fcntl
import json
import os
import sqlite3
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ari_cli.config.secrets import scrub
from ari_cli.journal.acked import paint_acked, service_id
from ari_cli.journal.database import transaction
from ari_cli.journal.store import OK, PLANNED, SENDING, SPLIT, RecordEntry, dumps, next_ack, safe

# Room for one line per answer of every request and as many halves, and the end.
LINE_ROOM, BASE_ROOM = 320, 16_384


def note_path(journal: Path, run: int) -> Path:
    return journal.with_name(f"{journal.name}.run{run}.pending")


class Note:
    """The note of one running run: its file, locked, and where the next line goes."""

    def __init__(self, journal: Path, run: int, requests: int) -> None:
        self.path = note_path(journal, run)
        self.room = BASE_ROOM + LINE_ROOM * 2 * requests
        self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_TRUNC, 0o600)
        fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        head = (json.dumps({"run": run}) + "\n").encode()
        os.pwrite(self.fd, head + b" " * (self.room - len(head)), 0)
        os.fsync(self.fd)
        self.at = len(head)
        self.broken = False

    def write(self, line: Sequence[Any]) -> None:
        """One event, in the room reserved (past it only if the disk still has some)."""
        # As everything the journal keeps: no known key in it (an answer may echo one).
        data = (scrub(json.dumps(list(line), ensure_ascii=False)) + "\n").encode()
        with contextlib.suppress(OSError):
            os.pwrite(self.fd, data, self.at)
            self.at += len(data)

    def broke(self, reason: str) -> None:
        if not self.broken:
            self.broken = True
            self.write(["broken", reason])

    def close(self) -> None:
        """Delete the note when the journal holds everything; else leave it for the next writer."""
        if not self.broken:
            with contextlib.suppress(OSError):
                self.path.unlink()
        with contextlib.suppress(OSError):
            os.close(self.fd)


@dataclass
class Said:
    """What a note holds: why the journal failed, each answer it could not take, and the run's end."""

    run: int
    reason: str | None = None
    answers: dict[int, list[Any]] = field(default_factory=dict)  # request -> [state, transient, attempts, ...]
    halves: list[list[Any]] = field(default_factory=list)  # [parent, id, first, count]
    unsent: list[int] = field(default_factory=list)
    end: list[Any] | None = None  # [ended, exit_code, summary]


def _read(path: Path) -> Said | None:
    try:
        lines = path.read_bytes().decode("utf-8", "replace").rstrip(" \n").splitlines()
        said = Said(int(json.loads(lines[0])["run"]))
        for line in lines[1:]:
            kind, *rest = json.loads(line)
            if kind == "broken":
                said.reason = rest[0]
            elif kind == "answer":
                said.answers[rest[0]] = rest[1:]
            elif kind == "split":
                said.halves.extend([rest[0], *half] for half in rest[1])
            elif kind == "unsent":
                said.unsent.append(rest[0])
            elif kind == "end":
                said.end = rest
    except (OSError, ValueError, KeyError, IndexError, TypeError):
        return None  # cut short by a kill: nothing it says can be trusted
    return said


def _notes(journal: Path) -> Iterator[tuple[Path, Said]]:
    for path in sorted(journal.parent.glob(f"{journal.name}.run*.pending")):
        said = _read(path)
        if said is not None:
            yield path, said


def marks(journal: Path) -> dict[int, Said]:
    """What the notes of runs whose journal writes failed say, by run (for readers: nothing is changed)."""
    return {said.run: said for _, said in _notes(journal) if said.reason is not None}


def fold(db: sqlite3.Connection, journal: Path) -> None:
    """Fold in the notes of runs that ended (nobody holds their lock), then delete them."""
    for path in sorted(journal.parent.glob(f"{journal.name}.run*.pending")):
        try:
            fd = os.open(path, os.O_RDWR)
        except OSError:
            continue
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                continue  # its run is still running
            said = _read(path)
            if said is not None and said.reason is not None:
                fold_note(db, said)
            path.unlink()
        finally:
            os.close(fd)


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
        db.executemany("UPDATE requests SET state = ? WHERE run = ? AND id = ? AND state = ?",
                       [(PLANNED, said.run, r, SENDING) for r in said.unsent])  # fmt: skip
