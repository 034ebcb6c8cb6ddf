"""`why`: what the service holds on one night for a room (and its rates), and who set it: the run, its file and
lines, its user and the time the service acknowledged it.

Read from the spans the journal paints at each acknowledgement (`acked.py`: the value and the run that set it),
then from that run's record covering the night (its lines) and the acknowledged request that carried it (the
time). A run since pruned leaves its number in the spans and nothing else: its value is known, not its file.
"""

from __future__ import annotations

import datetime as dt
import sqlite3
from dataclasses import dataclass

from ari_cli.journal.acked import in_spellings, spellings
from ari_cli.journal.database import parsed
from ari_cli.journal.lines import spans
from ari_cli.journal.queries import LARGEST_RUN, ran_by, run_info
from ari_cli.journal.store import OK

# (source name, first line, last line, step): as `render/values.runs_text` shows them.
Lines = tuple[tuple[str, int, int, int], ...]


@dataclass(frozen=True, slots=True)
class SetBy:
    """The run that got a value acknowledged, and what the journal still knows of it."""

    run: int
    command: str | None
    """None: the run was pruned from the journal since (its number stays in what the service holds)."""
    lines: Lines = ()
    user: str = "unknown"
    host: str = "unknown"
    acknowledged: str | None = None
    """When the service acknowledged it (UTC, ISO 8601); the run's start when no answer was kept."""


@dataclass(frozen=True, slots=True)
class Held:
    """A value the service holds on the night, the dates it holds it (the span around the night) and its setter."""

    rateid: str
    value: str
    start: dt.date
    end: dt.date
    set_by: SetBy


@dataclass(frozen=True, slots=True)
class LastRun:
    """The journal's latest run to a service: what it knows is as of this run."""

    id: int
    started: str


@dataclass(frozen=True, slots=True)
class Setting:
    """One operation's value on the night for the room (and a rate): what the journal knows, or nothing."""

    operation: str
    rateid: str | None
    """None for an operation set per room (a sell threshold)."""
    held: Held | None
    """None: nothing known (the journal holds no acknowledged value of that night)."""
    bookable_from: dt.date | None = None
    """For a number of days ahead (max advance booking): the first day a guest can book the night."""

    @property
    def value(self) -> str | None:
        return None if self.held is None else self.held.value


@dataclass(frozen=True, slots=True)
class Why:
    """What the service holds on one night for a room, as acknowledged to this journal."""

    propertyid: str
    roomid: str
    night: dt.date
    rateid: str | None
    """The rate asked about; None: every rate the journal knows for the room."""
    base_url: str
    source_id: str
    last_run: LastRun | None
    """The journal's latest run to this service: what it knows is as of that run (None: it has none)."""
    settings: tuple[Setting, ...]

    def of(self, operation: str, rateid: str | None = None) -> Setting:
        """The setting of `operation` (and `rateid`); KeyError when it is not listed."""
        for setting in self.settings:
            if setting.operation == operation and setting.rateid == rateid:
                return setting
        raise KeyError((operation, rateid))


def _service_ids(db: sqlite3.Connection, operation: str, base_url: str, source_id: str) -> list[int]:
    """The `services` rows of one service: one, or a few in a journal not yet folded (`acked.spellings`)."""
    named = spellings(db, base_url)
    sql = "SELECT id FROM services WHERE operation = ? AND source_id = ? AND " + in_spellings("base_url", named)
    return [id_ for (id_,) in db.execute(sql, (operation, source_id, *named))]


def held_on(
    db: sqlite3.Connection, operation: str, base_url: str, source_id: str, propertyid: str, roomid: str,
    night: dt.date,
) -> dict[str, Held]:  # fmt: skip
    """Per rate (`""` for an operation set per room), the value the service holds on `night` for the room, as far
    as this journal knows."""
    ids = _service_ids(db, operation, base_url, source_id)
    if not ids:
        return {}
    sql = (
        "SELECT rateid, start, end, value, run FROM acked WHERE service IN (" + ", ".join("?" * len(ids)) + ")"
        " AND propertyid = ? AND roomid = ? AND start <= ? AND end >= ? ORDER BY run"
    )  # fmt: skip
    day = night.isoformat()
    found: dict[str, tuple[str, str, str, int]] = {}
    # Spellings of one service not yet folded may each hold a span of the night: the latest run's wins, as
    # `acked.merged` paints them.
    for rateid, start, end, value, run in db.execute(sql, (*ids, propertyid, roomid, day, day)):
        found[rateid] = (start, end, value, run)
    return {
        rateid: Held(rateid, value, _day(start), _day(end), set_by(db, run, (propertyid, roomid, rateid), night))
        for rateid, (start, end, value, run) in sorted(found.items())
    }


def rates(db: sqlite3.Connection, operation: str, base_url: str, source_id: str, propertyid: str,
          roomid: str) -> list[str]:  # fmt: skip
    """Every rate of the room the journal knows a value of, on any date (sorted)."""
    ids = _service_ids(db, operation, base_url, source_id)
    if not ids:
        return []
    sql = (
        "SELECT DISTINCT rateid FROM acked WHERE service IN (" + ", ".join("?" * len(ids)) + ")"
        " AND propertyid = ? AND roomid = ? AND rateid != '' ORDER BY rateid"
    )  # fmt: skip
    return [rateid for (rateid,) in db.execute(sql, (*ids, propertyid, roomid))]


def known(db: sqlite3.Connection, base_url: str, source_id: str, propertyid: str | None = None) -> list[str]:
    """The properties (or, given one, its rooms) that the journal holds a value of acknowledged by the service,
    in any operation: what a `why` of nothing known names, in case of a typo."""
    named = spellings(db, base_url)
    column = "a.propertyid" if propertyid is None else "a.roomid"
    sql = (
        f"SELECT DISTINCT {column} FROM acked a JOIN services s ON s.id = a.service WHERE s.source_id = ? AND "
        + in_spellings("s.base_url", named) + ("" if propertyid is None else " AND a.propertyid = ?")
        + f" ORDER BY {column}"
    )  # fmt: skip
    args = (source_id, *named, *(() if propertyid is None else (propertyid,)))
    return [name for (name,) in db.execute(sql, args)]


def set_by(db: sqlite3.Connection, run: int, key: tuple[str, str, str], night: dt.date) -> SetBy:
    """The run `run`, the lines of its record of `key` that covers `night`, who ran it, and when the service
    acknowledged that record (the run's start when the journal kept no answer)."""
    exists = 0 < run <= LARGEST_RUN and db.execute("SELECT 1 FROM runs WHERE id = ?", (run,)).fetchone()
    if not exists:
        return SetBy(run, None)
    info = run_info(db, run)
    user, host = ran_by(db, run)
    day = night.isoformat()
    # A run's records of a key never share a date; a retry's record is its own. The request that carried it is
    # the acknowledged leaf whose records include it (a split request's halves are leaves of their own).
    row = db.execute(
        "SELECT r.lines, q.answered FROM records r LEFT JOIN requests q ON q.run = r.run AND q.state = ?"
        " AND q.first <= r.idx AND r.idx < q.first + q.count"
        " WHERE r.run = ? AND r.propertyid = ? AND r.roomid = ? AND r.rateid = ? AND r.start <= ? AND r.end >= ?"
        " ORDER BY q.answered IS NULL, q.answered DESC LIMIT 1",
        (OK, run, *key, day, day),
    ).fetchone()
    if row is None:
        return SetBy(run, info.command, (), user, host, info.started)
    lines, answered = row
    names = info.sources
    shown = tuple(
        (names[source] if source < len(names) else f"source {source}", first, last, step)
        for source, first, last, step in spans(lines)
    )
    return SetBy(run, info.command, shown, user, host, answered or info.started)


def last_run(db: sqlite3.Connection, base_url: str, source_id: str) -> LastRun | None:
    """The journal's latest run to the service (any operation, whatever its outcome); None when it has none."""
    named = spellings(db, base_url)
    sql = (
        "SELECT id, started FROM runs WHERE source_id = ? AND " + in_spellings("base_url", named)
        + " ORDER BY id DESC LIMIT 1"
    )  # fmt: skip
    row = db.execute(sql, (source_id, *named)).fetchone()
    return None if row is None else LastRun(int(row[0]), str(row[1]))


def _day(text: str) -> dt.date:
    return parsed(dt.date.fromisoformat, text)
