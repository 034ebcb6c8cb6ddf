"""Reading the journal: runs, one run's detail, who set a date, what the service last accepted.

No rendering here; commands and `retry` read through these functions only.
"""

from __future__ import annotations

import datetime as dt
import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ari_cli.exits import UsageProblem
from ari_cli.journal.database import loads, parsed, transaction
from ari_cli.journal.store import FAILED, OK, PLANNED, SENDING, SPLIT

ONE_DAY = dt.timedelta(days=1)
Key = tuple[str, ...]


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
    files: tuple[tuple[str, str | None], ...] = ()

    @property
    def finished(self) -> bool:
        return self.ended is not None


@dataclass(frozen=True, slots=True)
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
    records: tuple[int, ...] = ()
    lines: tuple[tuple[str, int], ...] = ()

    @property
    def acknowledged(self) -> bool:
        return self.state == OK

    @property
    def needs_retry(self) -> bool:
        """Not acknowledged, and not refused for a reason a second try would meet again."""
        return self.state in (PLANNED, SENDING) or (self.state == FAILED and self.transient)


@dataclass(frozen=True, slots=True)
class RowInfo:
    idx: int
    source: str
    line: int
    propertyid: str
    roomid: str
    rateid: str
    dates: str
    value: str
    status: str | None
    trackingids: list[str]
    errors: list[dict[str, Any]]
    note: str


@dataclass(frozen=True, slots=True)
class RecordInfo:
    idx: int
    key: Key
    start: dt.date
    end: dt.date
    value: str
    fragment: dict[str, Any] | None
    refs: tuple[int, ...]


@dataclass
class RunDetail:
    run: RunInfo
    rows: list[RowInfo] = field(default_factory=list)
    records: list[RecordInfo] = field(default_factory=list)
    requests: list[RequestInfo] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class DateHit:
    """A record of some run that covered the date asked about, and the request that carried it."""

    run: RunInfo
    request: RequestInfo
    record: RecordInfo


def _load(text: str | None, default: Any) -> Any:
    return default if text is None else loads(text)


def _day(text: str) -> dt.date:
    return parsed(dt.date.fromisoformat, text)


def _run(row: sqlite3.Row | tuple[Any, ...], files: tuple[tuple[str, str | None], ...] = ()) -> RunInfo:
    (id_, command, operation, profile, base_url, source_id, options, retry_of, started, ended, summary, code) = row
    return RunInfo(
        id_, command, operation, profile, base_url, source_id, loads(options), retry_of, started, ended,
        _load(summary, None), code, files,
    )  # fmt: skip


_RUN_COLUMNS = (
    "id, command, operation, profile, base_url, source_id, options, retry_of, started, ended, summary, exit_code"
)
_REQUEST_COLUMNS = (
    "run, id, parent, propertyid, url, body, state, transient, attempts, http_status, trackingid, errors, response,"
    " seconds, sent, answered"
)


def _request(
    row: tuple[Any, ...], records: tuple[int, ...] = (), lines: tuple[tuple[str, int], ...] = ()
) -> RequestInfo:
    (run, id_, parent, propertyid, url, body, state, transient, attempts, http_status, trackingid, errors, response,
     seconds, sent, answered) = row  # fmt: skip
    return RequestInfo(
        run, id_, parent, propertyid, url, loads(body), state, bool(transient), attempts, http_status,
        trackingid, _load(errors, []), response, seconds, sent, answered, records, lines,
    )  # fmt: skip


def _record(row: tuple[Any, ...]) -> RecordInfo:
    idx, propertyid, roomid, rateid, start, end, value, fragment, refs = row
    key = (propertyid, roomid, rateid) if rateid else (propertyid, roomid)
    return RecordInfo(
        idx, key, _day(start), _day(end), value, _load(fragment, None), tuple(loads(refs)),
    )  # fmt: skip


def runs(db: sqlite3.Connection, limit: int | None = None, operation: str | None = None) -> list[RunInfo]:
    """Runs, newest first."""
    args: list[Any] = [operation] if operation else []
    where = "WHERE operation = ?" if operation else ""
    sql = f"SELECT {_RUN_COLUMNS} FROM runs {where} ORDER BY id DESC"
    if limit is not None:
        sql += " LIMIT ?"
        args.append(limit)
    found = [_run(r) for r in db.execute(sql, args)]
    return [_with_files(db, run) for run in found]


def _with_files(db: sqlite3.Connection, run: RunInfo) -> RunInfo:
    files = tuple(db.execute("SELECT path, sha256 FROM files WHERE run = ? ORDER BY position", (run.id,)))
    return replace(run, files=files)


# SQLite's integers are 64-bit: a larger run number cannot name a run.
LARGEST_RUN = 2**63 - 1


def run_info(db: sqlite3.Connection, run: int) -> RunInfo:
    row = None
    if 0 < run <= LARGEST_RUN:
        row = db.execute(f"SELECT {_RUN_COLUMNS} FROM runs WHERE id = ?", (run,)).fetchone()
    if row is None:
        last = db.execute("SELECT max(id) FROM runs").fetchone()[0]
        hint = f"the last run is {last}; `ari-cli history` lists them" if last else "the journal has no runs yet"
        raise UsageProblem(f"no run {run} in the journal", hint)
    return _with_files(db, _run(row))


def _carried(db: sqlite3.Connection, run: int) -> dict[int, tuple[int, ...]]:
    carried: dict[int, list[int]] = {}
    for request, record in db.execute(
        "SELECT request, record FROM carried WHERE run = ? ORDER BY request, record", (run,)
    ):
        carried.setdefault(request, []).append(record)
    return {request: tuple(records) for request, records in carried.items()}


def detail(db: sqlite3.Connection, run: int) -> RunDetail:
    """One run whole: its rows, records and requests (with the records each carried)."""
    info = run_info(db, run)
    rows = [
        RowInfo(idx, source, line, p or "", r or "", rt or "", d or "", v or "", status, _load(t, []),
                _load(e, []), note or "")
        for idx, source, line, p, r, rt, d, v, status, t, e, note in db.execute(
            "SELECT idx, source, line, propertyid, roomid, rateid, dates, value, status, trackingids, errors, note"
            " FROM rows WHERE run = ? ORDER BY idx", (run,))
    ]  # fmt: skip
    records = [
        _record(r)
        for r in db.execute(
            "SELECT idx, propertyid, roomid, rateid, start, end, value, fragment, refs FROM records"
            " WHERE run = ? ORDER BY idx",
            (run,),
        )
    ]
    carried = _carried(db, run)
    by_idx = {row.idx: row for row in rows}
    requests = []
    for r in db.execute(f"SELECT {_REQUEST_COLUMNS} FROM requests WHERE run = ? ORDER BY id", (run,)):
        mine = carried.get(r[1], ())
        refs = sorted({ref for n in mine for ref in records[n].refs}) if records else []
        lines = tuple((by_idx[i].source, by_idx[i].line) for i in refs if i in by_idx)
        requests.append(_request(r, mine, lines))
    return RunDetail(info, rows, records, requests)


def leaves(requests: Sequence[RequestInfo]) -> list[RequestInfo]:
    """The requests nothing replaced: the ones whose answer is the records' answer."""
    parents = {r.parent for r in requests if r.parent is not None}
    return [r for r in requests if r.id not in parents]


def find_trackingid(db: sqlite3.Connection, trackingid: str) -> list[tuple[RunInfo, RequestInfo]]:
    """The requests (of any run) that got this tracking id."""
    found: list[tuple[RunInfo, RequestInfo]] = []
    for row in db.execute(f"SELECT {_REQUEST_COLUMNS} FROM requests WHERE trackingid = ? ORDER BY run, id",
                          (trackingid,)):  # fmt: skip
        run = run_info(db, row[0])
        whole = detail(db, run.id)
        found.extend((run, r) for r in whole.requests if r.id == row[1])
    return found


def find_date(
    db: sqlite3.Connection, propertyid: str, day: dt.date, roomid: str | None = None, rateid: str | None = None,
    operation: str | None = None,
) -> list[DateHit]:  # fmt: skip
    """Every record that covered `day` for the key, with the final request that carried it; newest first."""
    clauses = ["r.propertyid = ?", "r.start <= ?", "r.end >= ?"]
    args: list[Any] = [propertyid, day.isoformat(), day.isoformat()]
    for column, value in (("r.roomid", roomid), ("r.rateid", rateid), ("u.operation", operation)):
        if value is not None:
            clauses.append(f"{column} = ?")
            args.append(value)
    sql = (
        "SELECT r.run, r.idx, r.propertyid, r.roomid, r.rateid, r.start, r.end, r.value, r.fragment, r.refs"
        " FROM records r JOIN runs u ON u.id = r.run WHERE " + " AND ".join(clauses) + " ORDER BY r.run DESC, r.idx"
    )
    hits: list[DateHit] = []
    details: dict[int, RunDetail] = {}
    for row in db.execute(sql, args):
        run = row[0]
        whole = details.get(run) or details.setdefault(run, detail(db, run))
        record = _record(row[1:])
        final = [q for q in leaves(whole.requests) if record.idx in q.records]
        for request in final:
            hits.append(DateHit(whole.run, request, record))
    hits.sort(key=lambda h: h.request.answered or h.request.sent or h.run.started, reverse=True)
    return hits


def accepted(
    db: sqlite3.Connection, operation: str, base_url: str, source_id: str, properties: Iterable[str] | None = None
) -> dict[Key, dict[dt.date, str]]:
    """Per key and date, the value of the last acknowledged request that set it (same service and source)."""
    args: list[Any] = [OK, operation, base_url, source_id]
    where = ""
    if properties is not None:
        wanted = sorted(set(properties))
        if not wanted:
            return {}
        where = f" AND r.propertyid IN ({', '.join('?' * len(wanted))})"
        args.extend(wanted)
    sql = (
        "SELECT r.propertyid, r.roomid, r.rateid, r.start, r.end, r.value FROM records r"
        " JOIN carried c ON c.run = r.run AND c.record = r.idx"
        " JOIN requests q ON q.run = c.run AND q.id = c.request"
        " JOIN runs u ON u.id = r.run"
        " WHERE q.state = ? AND u.operation = ? AND u.base_url = ? AND u.source_id = ?" + where + " ORDER BY q.ack"
    )
    values: dict[Key, dict[dt.date, str]] = {}
    for propertyid, roomid, rateid, start, end, value in db.execute(sql, args):
        key = (propertyid, roomid, rateid) if rateid else (propertyid, roomid)
        dates = values.setdefault(key, {})
        day, last = _day(start), _day(end)
        while day <= last:
            dates[day] = value
            day += ONE_DAY
    return values


def parse_age(text: str) -> dt.timedelta:
    """`90d`, `12w`, `36h` or a bare number of days."""
    cleaned = text.strip().lower()
    units = {"d": 1.0, "w": 7.0, "h": 1 / 24}
    unit = cleaned[-1:] if cleaned[-1:] in units else "d"
    number = cleaned[:-1] if cleaned[-1:] in units else cleaned
    try:
        amount = float(number)
    except ValueError:
        raise UsageProblem(f"--older-than {text!r}: give an age like 90d, 12w or 36h") from None
    if amount < 0:
        raise UsageProblem(f"--older-than {text!r}: the age cannot be negative")
    return dt.timedelta(days=amount * units[unit])


def cutoff(older_than: dt.timedelta, now: dt.datetime | None = None) -> str:
    """The start time before which runs are old, as the journal writes times."""
    return ((now or dt.datetime.now(dt.UTC)) - older_than).isoformat(timespec="milliseconds")


def prunable(db: sqlite3.Connection, before: str) -> list[RunInfo]:
    """The runs `prune` would delete: started before `before` and finished (never one running or killed)."""
    sql = f"SELECT {_RUN_COLUMNS} FROM runs WHERE started < ? AND ended IS NOT NULL ORDER BY id"
    return [_with_files(db, _run(r)) for r in db.execute(sql, (before,))]


def unfinished_before(db: sqlite3.Connection, before: str) -> list[int]:
    """The runs started before `before` with no end: prune keeps them."""
    return [r for (r,) in db.execute("SELECT id FROM runs WHERE started < ? AND ended IS NULL ORDER BY id", (before,))]


# Each table of a run's parts, with the column after `run` in its key: rows go in steps of this many.
_PARTS = (("files", "position"), ("rows", "idx"), ("records", "idx"), ("requests", "id"), ("carried", "request"))
PRUNE_STEP = 2_000


def prune(db: sqlite3.Connection, runs: Iterable[int]) -> int:
    """Delete runs, each in small transactions, so that pushes running meanwhile wait a moment, not a minute.

    A run leaves the list at once (its `runs` line first); its parts follow step by step, and parts left
    by a prune that was stopped half-way are deleted by the next one.
    """
    deleted = 0
    for run in runs:
        with transaction(db):
            # Never one that a retry finished meanwhile into unfinished, nor one still running.
            deleted += db.execute("DELETE FROM runs WHERE id = ? AND ended IS NOT NULL", (run,)).rowcount
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
            counts[run][state] = count
    return counts


def services(db: sqlite3.Connection, operation: str, propertyid: str) -> list[tuple[str, str, int]]:
    """Where the property's values were acknowledged: (base URL, source id, latest such run), latest first."""
    sql = (
        "SELECT u.base_url, u.source_id, max(u.id) FROM runs u JOIN requests q ON q.run = u.id"
        " WHERE u.operation = ? AND q.propertyid = ? AND q.state = ? GROUP BY u.base_url, u.source_id"
        " ORDER BY max(u.id) DESC"
    )
    return [(base, source, run) for base, source, run in db.execute(sql, (operation, propertyid, OK))]
