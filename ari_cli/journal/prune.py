"""`history prune`: which runs may go (finished ones only), and deleting them a few rows at a time."""

from __future__ import annotations

import datetime as dt
import re
import sqlite3
from collections.abc import Iterable

from ari_cli.exits import UsageProblem
from ari_cli.journal.database import transaction
from ari_cli.journal.queries import RUN_COLUMNS, RunInfo, run_of, with_files

# The one rule for an age: a whole number of days (bare or with d), weeks or hours, more than 0.
_AGE = re.compile(r"([0-9]+)([dwh]?)")
_HOURS = {"d": 24, "": 24, "w": 24 * 7, "h": 1}  # a bare number is days, as it always was
AGE_HINT = (
    "an age is a whole number of days, weeks or hours, more than 0: 90d, 12w or 36h (a bare number is days); "
    "--dry-run lists what would go"
)


def parse_age(text: str) -> dt.timedelta:
    """`90d` (or `90`), `12w`, `36h`; anything else (a fraction, an exponent, seconds, 0) is a usage error."""
    found = _AGE.fullmatch(text.strip().lower())
    if found is None:
        raise UsageProblem(f"--older-than {text!r} is not an age", AGE_HINT)
    if int(found[1]) == 0:
        zero = "an age of 0 would delete every run, the last one included"
        raise UsageProblem(f"--older-than {text!r}: {zero}", AGE_HINT)
    try:
        return dt.timedelta(hours=int(found[1]) * _HOURS[found[2]])
    except OverflowError:
        raise UsageProblem(f"--older-than {text!r} is longer than the calendar", AGE_HINT) from None


# A run is finished when it ended, or when a retry got acknowledged all it left (a killed run, finished so).
FINISHED = "(ended IS NOT NULL OR finished_by IS NOT NULL)"


def cutoff(older_than: dt.timedelta, now: dt.datetime | None = None) -> str:
    """The start time before which runs are old, as the journal writes times."""
    return ((now or dt.datetime.now(dt.UTC)) - older_than).isoformat(timespec="milliseconds")


def prunable(db: sqlite3.Connection, before: str) -> list[RunInfo]:
    """The runs `prune` would delete: started before `before` and finished (never one running or killed)."""
    sql = f"SELECT {RUN_COLUMNS} FROM runs WHERE started < ? AND {FINISHED} ORDER BY id"
    return [with_files(db, run_of(r)) for r in db.execute(sql, (before,))]


def unfinished_before(db: sqlite3.Connection, before: str) -> list[int]:
    """The runs started before `before` with no end: prune keeps them."""
    sql = f"SELECT id FROM runs WHERE started < ? AND NOT ({FINISHED}) ORDER BY id"
    return [r for (r,) in db.execute(sql, (before,))]


# Each table of a run's parts, with the column after `run` in its key: rows go in steps of this many.
_PARTS = (("files", "position"), ("records", "idx"), ("requests", "id"), ("notes", "position"))
PRUNE_STEP = 2_000


def prune(db: sqlite3.Connection, runs: Iterable[int]) -> int:
    """Delete runs, each in small transactions, so that pushes running meanwhile wait a moment, not a minute.

    A run leaves the list at once (its `runs` line first); its parts follow step by step, and parts left
    by a prune that was stopped half-way are deleted by the next one. What the service holds (`acked`)
    stays: deleting a run's story does not change the values it set.
    """
    deleted = 0
    for run in runs:
        with transaction(db):
            # Never one still running, nor one killed (a retry may finish it meanwhile: then it is finished).
            deleted += db.execute(f"DELETE FROM runs WHERE id = ? AND {FINISHED}", (run,)).rowcount
    orphans = {r for table, _ in _PARTS for (r,) in db.execute(
        f"SELECT DISTINCT run FROM {table} WHERE run NOT IN (SELECT id FROM runs)")}  # fmt: skip
    for run in sorted(orphans):
        for table, step in _PARTS:
            while True:
                with transaction(db):
                    gone = db.execute(
                        f"DELETE FROM {table} WHERE run = ? AND {step} IN"
                        f" (SELECT {step} FROM {table} WHERE run = ? LIMIT ?)",
                        (run, run, PRUNE_STEP),
                    ).rowcount
                if not gone:
                    break
    return deleted
