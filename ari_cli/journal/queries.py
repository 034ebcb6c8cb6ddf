"""Reading the journal: runs, one run's requests and records, who set a date, what the service holds.

No rendering here; commands and `retry` read through these functions only. A big run is never
loaded whole: its requests (a few thousand) are, its records are read when asked for, and its
rows are derived from both (`rows.py`).
"""

from __future__ import annotations

import datetime as dt
import sqlite3
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ari_cli.exits import UsageProblem
from ari_cli.journal.acked import in_spellings, merged, spellings
from ari_cli.journal.database import Unreadable, loads, loads_object, parsed
from ari_cli.journal.pending import Said, marks
from ari_cli.journal.store import FAILED, OK, PLANNED, SENDING, SPLIT, STATES, has_who
from ari_cli.planning.changes import Key as Key
from ari_cli.planning.changes import Span as Span
from ari_cli.planning.plan import Record
from ari_cli.wire.errors import Reach, reach
from ari_cli.wire.operations import Operation
from ari_cli.wire.url import canonical_or_same

# What SQLite (or a run's note: `transient` is a bool there) gives for a number, or for one not stored (or read).
_NUMBERS = frozenset((int, float, bool, type(None)))
# A request's states, each made once: a failed run's hundred thousand requests share them.
_STATES = {state: state for state in STATES}
# SQLite's integers are 64-bit: a larger run number cannot name a run.
LARGEST_RUN = 2**63 - 1


@dataclass(frozen=True, slots=True)
class RunInfo:
    id: int
    command: str
    operation: str
    profile: str | None
    base_url: str
    source_id: str
    options: dict[str, Any]
    retry_of: int | None
    started: str
    ended: str | None
    summary: dict[str, int] | None
    exit_code: int | None
    sandbox: bool = False
    sharepost: str | None = None
    sources: tuple[str, ...] = ()
    rows: int | None = None
    finished_by: int | None = None
    unrecorded: str | None = None
    files: tuple[tuple[str, str | None], ...] = ()

    @property
    def finished(self) -> bool:
        return self.ended is not None


# Not frozen: a frozen dataclass sets each field through `object.__setattr__`, four times the cost of making one,
# and a failed run's view makes some 100,000 of each. Read-only once made, all the same.
@dataclass(slots=True)
class RequestInfo:
    run: int
    id: int
    parent: int | None
    propertyid: str
    url: str
    body: dict[str, Any]
    state: str
    transient: bool
    attempts: int
    http_status: int | None
    trackingid: str | None
    errors: list[dict[str, Any]]
    response: str | None
    seconds: float
    sent: str | None
    answered: str | None
    first: int = 0
    count: int = 0
    lines: tuple[tuple[str, int, int, int], ...] = ()  # (source, first, last, step) runs of the rows it carried

    @property
    def records(self) -> range:
        return range(self.first, self.first + self.count)

    def with_lines(self, lines: tuple[tuple[str, int, int, int], ...]) -> RequestInfo:
        # As `dataclasses.replace`, which takes three times as long: a failed run's table makes 98,000.
        return RequestInfo(
            self.run, self.id, self.parent, self.propertyid, self.url, self.body, self.state, self.transient,
            self.attempts, self.http_status, self.trackingid, self.errors, self.response, self.seconds, self.sent,
            self.answered, self.first, self.count, lines,
        )  # fmt: skip

    @property
    def acknowledged(self) -> bool:
        return self.state == OK

    @property
    def needs_retry(self) -> bool:
        """Not acknowledged, and not refused for its own data: never answered, failed for a passing reason, or
        refused for the property, endpoint or account, which the service may have put right since."""
        if self.state in (PLANNED, SENDING):
            return True
        return self.state == FAILED and (self.transient or self.reach not in (Reach.RECORD, Reach.REQUEST))

    @property
    def reach(self) -> Reach:
        """What its failure is about (`wire.errors.reach`); a stored answer with a body code was the service's JSON."""
        code = self.errors[0].get("code") if self.errors else None
        code = code if isinstance(code, int) and not isinstance(code, bool) else None
        return reach(code, self.http_status)


@dataclass(slots=True)  # not frozen, as `RequestInfo`
class RecordInfo:
    idx: int
    key: Key
    start: dt.date
    end: dt.date
    value: str
    lines: str

    def record(self) -> Record:
        """As the planner makes them (the value as the body carries it; no rows)."""
        return Record(self.key, self.start, self.end, self.value, ())


@dataclass
class RunDetail:
    """A run with its requests; its records and rows are read when asked for."""

    run: RunInfo
    requests: list[RequestInfo]
    replaced: int = 0
    """Requests left out of `requests`: those replaced by their halves, which a light read counts and leaves unread
    (`run_requests.detail(whole=False)`: a failed run's 96,000 are no object each)."""

    @property
    def total(self) -> int:
        """How many requests the run made."""
        return len(self.requests) + self.replaced


def load_json(text: str | None, default: Any) -> Any:
    return default if text is None else loads(text)


def _day(text: str) -> dt.date:
    return parsed(dt.date.fromisoformat, text)


def key_of(propertyid: str, roomid: str, rateid: str) -> Key:
    return (propertyid, roomid, rateid) if rateid else (propertyid, roomid)


RUN_COLUMNS = (
    "id, command, operation, profile, base_url, source_id, options, retry_of, started, ended, summary, exit_code,"
    " sandbox, sharepost, sources, rows, finished_by, unrecorded"
)
REQUEST_COLUMNS = (
    "run, id, parent, propertyid, url, body, form, first, count, state, transient, attempts, http_status, trackingid,"
    " errors, response, seconds, sent, answered"
)
RECORD_COLUMNS = "idx, propertyid, roomid, rateid, start, end, value, lines"


def run_of(row: tuple[Any, ...]) -> RunInfo:
    (id_, command, operation, profile, base_url, source_id, options, retry_of, started, ended, summary, code, sandbox,
     sharepost, sources, rows, finished_by, unrecorded) = row  # fmt: skip
    # A damaged file can hold anything in any column: what the views compute with is checked here (exit 4).
    for stamp in (started, ended):
        if stamp is not None:
            parsed(dt.datetime.fromisoformat, stamp)
    for number in (id_, retry_of, code, rows, finished_by):
        if number is not None and not isinstance(number, int):
            raise Unreadable(f"a stored number is not a number ({number!r})")
    for text in (command, operation, base_url, source_id, started):
        if not isinstance(text, str):
            raise Unreadable(f"a stored text is not text ({text!r})")
    parsed(Operation, operation)  # another program's (or a later version's) operation is not one of ours
    loaded = load_json(summary, None)
    if loaded is not None and not (isinstance(loaded, dict) and all(isinstance(v, int) for v in loaded.values())):
        raise Unreadable("a run's stored summary is not a summary")
    files = load_json(sources, [])
    if not (isinstance(files, list) and all(isinstance(f, str) for f in files)):
        raise Unreadable("a run's stored files are not a list of paths")
    return RunInfo(
        id_, command, operation, profile, base_url, source_id, loads_object(options), retry_of, started, ended,
        loaded, code, bool(sandbox), sharepost, tuple(files), rows, finished_by, unrecorded,
    )  # fmt: skip


def request_errors(text: str | None) -> list[dict[str, Any]]:
    """A request's stored errors: a list of objects, or `Unreadable`."""
    found = load_json(text, [])
    if not (isinstance(found, list) and all(isinstance(e, dict) for e in found)):
        raise Unreadable(f"a request's stored errors are not a list of errors ({str(text)[:40]!r})")
    return found


def request_state(state: Any, numbers: tuple[Any, ...]) -> str:
    """A request's stored state, one of ours, or `Unreadable`; its stored numbers (`None` where not read) too."""
    if state not in _STATES:
        raise Unreadable(f"a request's stored state is not one of {', '.join(STATES)} ({state!r})")
    if not _NUMBERS.issuperset(map(type, numbers)):  # as `isinstance` of each, with no call per number
        raise Unreadable(f"a request's stored number is not a number ({numbers!r})")
    return _STATES[state]


# Dates and names already made, by their stored text: a big run's rows held at once share them.
Once = tuple[dict[str, dt.date], dict[tuple[str, str, str], Key], dict[str, str]]


def record_of(row: tuple[Any, ...], seen: Once | None = None) -> RecordInfo:
    """A stored record; `seen`, when given, makes each date and name once (a run's records share a few hundred)."""
    idx, propertyid, roomid, rateid, start, end, value, lines = row
    if seen is None:
        return RecordInfo(idx, key_of(propertyid, roomid, rateid), _day(start), _day(end), value, lines)
    days, keys, values = seen
    first = days.get(start) or days.setdefault(start, _day(start))
    last = days.get(end) or days.setdefault(end, _day(end))
    named = (propertyid, roomid, rateid)
    key = keys.get(named) or keys.setdefault(named, key_of(propertyid, roomid, rateid))
    return RecordInfo(idx, key, first, last, values.setdefault(value, value), lines)


def runs(db: sqlite3.Connection, limit: int | None = None, operation: str | None = None) -> list[RunInfo]:
    """Runs, newest first."""
    args: list[Any] = [operation] if operation else []
    where = "WHERE operation = ?" if operation else ""
    sql = f"SELECT {RUN_COLUMNS} FROM runs {where} ORDER BY id DESC"
    if limit is not None:
        sql += " LIMIT ?"
        args.append(limit)
    notes = run_notes(db)
    found = [_noted(run_of(r), notes) for r in db.execute(sql, args)]
    return [with_files(db, run) for run in found]


def with_files(db: sqlite3.Connection, run: RunInfo) -> RunInfo:
    files = tuple(db.execute("SELECT path, sha256 FROM files WHERE run = ? ORDER BY position", (run.id,)))
    return replace(run, files=files)


def run_info(db: sqlite3.Connection, run: int) -> RunInfo:
    row = None
    if 0 < run <= LARGEST_RUN:
        row = db.execute(f"SELECT {RUN_COLUMNS} FROM runs WHERE id = ?", (run,)).fetchone()
    if row is None:
        last = db.execute("SELECT max(id) FROM runs").fetchone()[0]
        hint = f"the last run is {last}; `ari-cli history` lists them" if last else "the journal has no runs yet"
        raise UsageProblem(f"no run {run} in the journal", hint)
    return with_files(db, _noted(run_of(row), run_notes(db)))


def run_started(db: sqlite3.Connection, run: int) -> str | None:
    """When a run ended (or started, if it never ended); None when it was pruned (its acknowledgements stay)."""
    found = db.execute("SELECT coalesce(ended, started) FROM runs WHERE id = ?", (run,)).fetchone()
    return None if found is None else str(found[0])


def run_notes(db: sqlite3.Connection) -> dict[int, Said]:
    """What the notes of runs whose journal writes failed say, by run (`pending.py`), until a writer folds them."""
    name = db.execute("PRAGMA database_list").fetchone()[2]
    return marks(Path(name)) if name else {}


def _noted(run: RunInfo, notes: Mapping[int, Said]) -> RunInfo:
    said = notes.get(run.id)
    if said is None:
        return run
    if said.end is not None and run.ended is None:
        ended, code, summary = said.end
        run = replace(run, ended=ended, exit_code=code, summary=summary)
    return replace(run, unrecorded=said.reason)


def records(db: sqlite3.Connection, run: int, first: int = 0, stop: int | None = None) -> Iterator[RecordInfo]:
    """A run's records (numbers first .. stop - 1), in number order, read as they are used."""
    sql = f"SELECT {RECORD_COLUMNS} FROM records WHERE run = ? AND idx >= ?"
    args: list[Any] = [run, first]
    if stop is not None:
        sql += " AND idx < ?"
        args.append(stop)
    seen: Once = ({}, {}, {})
    for row in db.execute(sql + " ORDER BY idx", args):
        yield record_of(row, seen)


def leaves(requests: Sequence[RequestInfo]) -> list[RequestInfo]:
    """The requests nothing replaced: the ones whose answer is the records' answer."""
    parents = {r.parent for r in requests if r.parent is not None}
    return [r for r in requests if r.id not in parents and r.state != SPLIT]


def acknowledged(
    db: sqlite3.Connection, operation: str, base_url: str, source_id: str, properties: Iterable[str] | None = None
) -> dict[Key, list[Span]]:
    """Per key, what the service holds as far as this journal knows (same service and source): sorted, apart,
    maximal spans of a value and the run that set it, the last acknowledgement winning. Read from the spans the
    journal paints at each acknowledgement (`acked.py`); no date becomes an object of its own."""
    named = spellings(db, base_url)  # one, unless a journal not yet folded holds the service under several
    sql = "SELECT id FROM services WHERE operation = ? AND source_id = ? AND " + in_spellings("base_url", named)
    ids = [id_ for (id_,) in db.execute(sql, (operation, source_id, *named))]
    wanted = None if properties is None else set(properties)
    if len(ids) > 1:  # a journal not yet folded: the spans of every spelling, as one service's
        return _merged(db, ids, wanted)
    return _spans(db, ids[0], wanted) if ids else {}


def _spans(db: sqlite3.Connection, service: int, properties: set[str] | None) -> dict[Key, list[Span]]:
    """The spans of one row of `services` (of `properties`, or all)."""
    args: list[Any] = [service]
    where = ""
    wanted: set[str] | None = None
    if properties is not None:
        wanted = set(properties)
        if not wanted:
            return {}
        where = f" AND propertyid IN ({', '.join('?' * len(wanted))})" if len(wanted) <= 500 else ""
        args.extend(wanted if where else [])
    sql = (
        "SELECT propertyid, roomid, rateid, start, end, value, run FROM acked WHERE service = ?"
        + where + " ORDER BY propertyid, roomid, rateid, start"
    )  # fmt: skip
    found: dict[Key, list[Span]] = {}
    keep = None if properties is None else set(properties)
    # A year of a hotel's spans share a few hundred dates and a few values: each made once.
    days: dict[str, dt.date] = {}
    values: dict[str, str] = {}
    spans: list[Span] = []
    at: tuple[str, str, str] | None = None
    for propertyid, roomid, rateid, start, end, value, run in db.execute(sql, args):
        if keep is None or propertyid in keep:
            if (propertyid, roomid, rateid) != at:  # the rows come a key at a time
                at = (propertyid, roomid, rateid)
                spans = found.setdefault(key_of(*at), [])
            first = days.get(start) or days.setdefault(start, _day(start))
            last = days.get(end) or days.setdefault(end, _day(end))
            spans.append(Span(first, last, values.setdefault(value, value), run))
    return found


def _merged(db: sqlite3.Connection, ids: list[int], properties: set[str] | None) -> dict[Key, list[Span]]:
    """What `acknowledged` reads for a service filed under several spellings (`ids`): each one's spans, merged."""
    found: dict[Key, list[Span]] = {}
    for id_ in ids:
        for key, spans in _spans(db, id_, properties).items():
            found.setdefault(key, []).extend(spans)
    return {key: merged(spans) for key, spans in sorted(found.items())}


def services(db: sqlite3.Connection, operation: str, propertyid: str) -> list[tuple[str, str, int]]:
    """Where the property's values were acknowledged: (base URL, source id, latest such run), latest first; the
    spellings of one service that an older journal holds apart are one (in canonical form)."""
    sql = (
        "SELECT s.base_url, s.source_id, max(a.run) FROM acked a JOIN services s ON s.id = a.service"
        " WHERE s.operation = ? AND a.propertyid = ? GROUP BY s.id ORDER BY max(a.run) DESC"
    )
    found: dict[tuple[str, str], int] = {}
    for base, source, run in db.execute(sql, (operation, propertyid)):
        found.setdefault((canonical_or_same(base), source), run)  # the latest first
    return [(base, source, run) for (base, source), run in found.items()]


def _among(properties: Iterable[str]) -> tuple[str, list[str]]:
    """The SQL that keeps `acked` rows of `properties`, and its arguments: none when there are none or more than
    SQLite binds at once (500 here), when any property counts."""
    wanted = sorted(set(properties))
    if not 0 < len(wanted) <= 500:
        return "", []
    return f" AND a.propertyid IN ({', '.join('?' * len(wanted))})", wanted


def holds_any(db: sqlite3.Connection, operation: str, base_url: str, source_id: str, properties: Iterable[str]) -> bool:
    """Whether the journal holds any value of `properties` that the service acknowledged (one row read at most)."""
    among, wanted = _among(properties)
    named = spellings(db, base_url)
    sql = (
        "SELECT 1 FROM acked a JOIN services s ON s.id = a.service WHERE s.operation = ? AND s.source_id = ? AND "
        + in_spellings("s.base_url", named) + among + " LIMIT 1"
    )  # fmt: skip
    return db.execute(sql, (operation, source_id, *named, *wanted)).fetchone() is not None


def elsewhere(
    db: sqlite3.Connection, operation: str, base_url: str, source_id: str, properties: Iterable[str]
) -> list[str]:
    """The other base URLs (canonical, latest first) under which the journal holds `operation` values of
    `properties` acknowledged for the same source id: another spelling of one machine (`localhost` for
    `127.0.0.1`), or another port, which may be the service the user meant."""
    among, wanted = _among(properties)
    sql = (
        "SELECT s.base_url, max(a.run) FROM acked a JOIN services s ON s.id = a.service"
        " WHERE s.operation = ? AND s.source_id = ?" + among + " GROUP BY s.id ORDER BY max(a.run) DESC"
    )  # fmt: skip
    this = canonical_or_same(base_url)
    found = (canonical_or_same(base) for base, _ in db.execute(sql, (operation, source_id, *wanted)))
    return list(dict.fromkeys(base for base in found if base != this))


def request_states(db: sqlite3.Connection, run_ids: Iterable[int]) -> dict[int, dict[str, int]]:
    """Per run, how many of its requests nothing replaced are in each state (a split one is counted in its halves)."""
    wanted = sorted(set(run_ids))
    if not wanted:
        return {}
    counts: dict[int, dict[str, int]] = {run: {} for run in wanted}
    # Past SQLite's limit of bound variables (`history --limit 0`), every run is counted and the rest left out.
    few = len(wanted) <= 500
    where = f" AND run IN ({', '.join('?' * len(wanted))})" if few else ""
    sql = f"SELECT run, state, count(*) FROM requests WHERE state != ?{where} GROUP BY run, state"
    for run, state, count in db.execute(sql, [SPLIT, *wanted] if few else [SPLIT]):
        if run in counts:
            counts[run][request_state(state, (count,))] = count
    for run, said in run_notes(db).items():
        # Answers a run's note holds count as they came (halves it made are counted by their parent).
        for request, (state, *_) in said.answers.items() if run in counts else ():
            found = db.execute("SELECT state FROM requests WHERE run = ? AND id = ?", (run, request)).fetchone()
            if found is not None and found[0] not in (OK, SPLIT) and found[0] != state:
                counts[run][found[0]] -= 1
                counts[run][state] = counts[run].get(state, 0) + 1
        counts[run] = {state: n for state, n in counts.get(run, {}).items() if n}
    return counts


def ran_by(db: sqlite3.Connection, run: int) -> tuple[str, str]:
    """Who ran a run (user, host); `unknown` for runs recorded before the journal kept it."""
    row = db.execute("SELECT user, host FROM runs WHERE id = ?", (run,)).fetchone() if has_who(db) else None
    return (row[0] or "unknown", row[1] or "unknown") if row else ("unknown", "unknown")
