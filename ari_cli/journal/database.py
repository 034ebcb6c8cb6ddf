"""Where the journal is and how it is opened: writers wait their turn, readers never write.

SQLite in WAL mode: readers see a consistent snapshot while one writer at a time commits. Every
write transaction starts with `BEGIN IMMEDIATE`, so that a writer takes the lock before it reads
what it is about to change (an acknowledgement's order number, the next run's id) and waits for
the lock, up to `BUSY_SECONDS`, instead of failing when another writer holds it. Readers open the
file read-only (`mode=ro`), or as an immutable file when not even SQLite's shared-memory index can
be made beside it (a read-only folder); they never create, convert or change anything.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeAlias, TypeVar
from urllib.parse import quote

from ari_cli.exits import ConfigError
from ari_cli.journal.place import HOME_VARIABLE, journal_path

# A writer waits this long for another writer's transaction (a prune step, a push's commit) to end.
BUSY_SECONDS = 60.0
T = TypeVar("T")

# An open journal, as `store.reading` gives it and its readers (`queries.py`, `coverage.py`) take it: a use case
# passes it along by this name and never names the database it is (app/ imports no sqlite3).
OpenJournal: TypeAlias = sqlite3.Connection


class Unreadable(sqlite3.DatabaseError):
    """What the journal holds cannot be read back: stored JSON or a date that does not parse."""


def loads(text: str) -> Any:
    """Stored JSON, or `Unreadable` (exit 4 at the reader's boundary, never an internal error)."""
    try:
        return json.loads(text)
    except (TypeError, ValueError) as problem:
        raise Unreadable(f"stored data is not JSON ({problem})") from None


def loads_object(text: str) -> dict[str, Any]:
    """Stored JSON that must be an object (a body, a run's options), or `Unreadable`."""
    found = loads(text)
    if not isinstance(found, dict):
        raise Unreadable(f"stored data is not a JSON object ({text[:40]!r})")
    return found


def parsed(parse: Callable[[str], T], text: str) -> T:
    """A stored value (a date, a number, one of an enum's values) parsed, or `Unreadable`."""
    try:
        return parse(text)
    except (TypeError, ValueError) as problem:
        raise Unreadable(f"a stored value cannot be read ({problem})") from None


def _text(data: bytes) -> str:
    """Stored text as str; bytes that are not UTF-8 (a damaged page) are `Unreadable`, never an internal error."""
    try:
        return data.decode()
    except UnicodeDecodeError:
        raise Unreadable("stored text is not UTF-8 (the file is damaged)") from None


# What a journal of ours holds (schema 2): a file of schema 0 holding anything else belongs to another program.
OUR_TABLES = frozenset(("runs", "files", "records", "requests", "notes", "counters", "services", "acked",
                        "sqlite_sequence", "records_by_key", "requests_by_trackingid"))  # fmt: skip


def ours(db: sqlite3.Connection) -> None:
    """A file of schema 0 that holds tables of its own is another program's database: never written into."""
    names = {name for (name,) in db.execute("SELECT name FROM sqlite_master")}
    foreign = sorted(names - OUR_TABLES)
    if foreign:
        raise sqlite3.DatabaseError(f"it is not an ari-cli journal (it holds the tables {', '.join(foreign[:3])})")


def connect_writer(path: Path) -> sqlite3.Connection:
    """A connection that writes (creating the file, private to the user): WAL, and a patient busy timeout."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    if not path.exists():
        # Bodies hold the hotel's commercial terms: the file is the user's alone.
        os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o600))
    # Autocommit: every transaction is opened by `transaction()`, never implicitly by the sqlite3 module.
    # Not bound to a thread: a run's recorder hands its answers to a writer thread (one writer at a time).
    db = sqlite3.connect(path, timeout=BUSY_SECONDS, isolation_level=None, check_same_thread=False)
    db.text_factory = _text
    try:
        db.execute(f"PRAGMA busy_timeout={int(BUSY_SECONDS * 1000)}")
        if db.execute("PRAGMA user_version").fetchone()[0] == 0:
            ours(db)  # before WAL mode is set: another program's file is left exactly as it was
        if db.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
            db.execute("PRAGMA journal_mode=WAL")
        # In WAL mode NORMAL survives a killed process (not a power cut) and costs no fsync per commit.
        db.execute("PRAGMA synchronous=NORMAL")
        # Deleted runs' pages are overwritten with zeros: their bodies leave the file even before VACUUM.
        db.execute("PRAGMA secure_delete=ON")
    except BaseException:
        db.close()
        raise
    return db


def connect_reader(path: Path) -> sqlite3.Connection:
    """A read-only connection: `mode=ro`, or `immutable=1` where the folder lets nothing be created."""
    uri = f"file:{quote(str(path.absolute()))}"
    try:
        db = sqlite3.connect(f"{uri}?mode=ro", uri=True, timeout=BUSY_SECONDS, isolation_level=None)
        db.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except sqlite3.OperationalError:
        if os.access(path.parent, os.W_OK) and os.access(path, os.W_OK):
            raise
        # A WAL database needs its shared-memory index beside it, which a read-only folder cannot take.
        # Nobody can be writing there either (a writer makes that index first), so the file is read as it is.
        db = sqlite3.connect(f"{uri}?immutable=1", uri=True, isolation_level=None)
    db.execute("PRAGMA query_only=ON")
    db.text_factory = _text
    return db


@contextmanager
def transaction(db: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """One write transaction, the lock taken first (waiting for it), committed whole or rolled back."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield db
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


def unreadable(path: Path, problem: BaseException) -> ConfigError:
    reason = problem.strerror if isinstance(problem, OSError) and problem.strerror else str(problem)
    if isinstance(problem, UnicodeDecodeError):
        reason = "file is not a database (its text is not UTF-8)"
    return ConfigError(
        f"the journal {path} cannot be read: {reason}; move it aside and a new one starts",
        f"mv {path} {path}.broken (or set {HOME_VARIABLE} to another folder)",
    )


@contextmanager
def read_through(path: Path) -> Iterator[None]:
    """Reads through a writer's connection: a damaged journal is exit 4 (`unreadable`), as it is to a reader."""
    try:
        yield
    except (sqlite3.DatabaseError, UnicodeDecodeError) as damaged:
        raise unreadable(path, damaged) from None


def _usable_home(path: Path) -> None:
    nearest = next((p for p in path.parents if p.exists()), None)
    if nearest is not None and not nearest.is_dir():
        raise ConfigError(
            f"the journal cannot be read: {nearest} is a file, not a folder",
            f"set {HOME_VARIABLE} to a folder of yours, or unset it to use the user data folder",
        )


@contextmanager
def opened(
    env: Mapping[str, str],
    connect: Callable[[Path], sqlite3.Connection],
    check: Callable[[sqlite3.Connection, Path], None],
) -> Iterator[sqlite3.Connection | None]:
    """The journal, None when there is none yet; any failure to open or read it is exit 4, saying what to do."""
    path = journal_path(env)
    _usable_home(path)
    if not path.exists():
        yield None
        return
    try:
        db = connect(path)
    # A damaged schema makes SQLite's own error message undecodable: that too is a damaged file.
    except (sqlite3.Error, OSError, UnicodeDecodeError) as problem:
        raise unreadable(path, problem) from None
    try:
        check(db, path)
        yield db
    except (sqlite3.Error, UnicodeDecodeError) as problem:
        # (An OSError here is the caller's: standard output closed or full, never the journal.)
        if isinstance(problem, sqlite3.OperationalError) and "locked" in str(problem):
            raise ConfigError(
                f"the journal {path} is busy: another ari-cli held it over {BUSY_SECONDS:.0f} s",
                "try again when the other run has ended",
            ) from None
        raise unreadable(path, problem) from None
    finally:
        db.close()


def compact(db: sqlite3.Connection) -> str | None:
    """Give the space of deleted runs back to the disk; why not, if it could not (busy: later runs reuse it)."""
    try:
        db.execute("VACUUM")
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    except sqlite3.OperationalError as busy:
        return str(busy)
    return None
