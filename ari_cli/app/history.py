"""What `ari-cli history` and its `show`, `find` and `prune` do: read (or prune) the journal; what was found.

Each returns a result that render/history/runs.py, detail.py and finds.py show. A run shown in full is read as
it is written out (a big run's rows are never held whole): `opened_run` is a context whose result reads the
journal while it is open.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field

from ari_cli.app.listener import Listener
from ari_cli.app.options import FindRequest
from ari_cli.app.world import World
from ari_cli.exits import AriError, UsageProblem
from ari_cli.journal import finds as finding
from ari_cli.journal import prune as pruning
from ari_cli.journal import queries as read
from ari_cli.journal import run_requests
from ari_cli.journal.database import OpenJournal, compact
from ari_cli.journal.finds import DateHit
from ari_cli.journal.place import journal_path
from ari_cli.journal.queries import RecordInfo, RequestInfo, RunDetail, RunInfo
from ari_cli.journal.rows import RowInfo, RunRows
from ari_cli.journal.run_records import RunRecords
from ari_cli.journal.store import reading, writing
from ari_cli.records.dates import parse_date
from ari_cli.wire.operations import Operation


def journal_place(environ: Mapping[str, str]) -> str:
    """Where the journal is, as messages name it."""
    return str(journal_path(environ))


def parse_day(text: str, option: str) -> dt.date:
    """YYYY-MM-DD, today or today+N, or a usage error naming the option."""
    try:
        return parse_date(text, dt.date.today())
    except ValueError as problem:
        reason = str(problem)
        if "--date-format" in reason:
            # Push's --date-format is no option here: only the forms below are taken.
            reason = f'"{text}" is not a date of the form YYYY-MM-DD'
        raise UsageProblem(f"{option}: {reason}", "give YYYY-MM-DD, today or today+N") from None


# Enough for TAB: older runs are typed by number.
COMPLETED_RUNS = 30


def run_choices(world: World) -> list[tuple[str, str]]:
    """`last` and the newest runs' numbers, each with its command and start; none when the journal is unreadable."""
    try:
        with reading(world.environ) as db:
            found = [] if db is None else read.runs(db, COMPLETED_RUNS)
    except AriError:
        return []  # a completion prints nothing: the command itself will say what is wrong
    choices = [(str(run.id), f"{run.command} {run.operation}, {run.started}") for run in found]
    return ([("last", "the newest run")] if found else []) + choices


@dataclass(frozen=True, slots=True)
class RunList:
    """`history`: the newest runs, their requests' states, whether there are more; where the journal is."""

    runs: list[RunInfo]
    states: dict[int, dict[str, int]]
    more: bool
    limit: int
    operation: Operation | None
    journal: str


def list_runs(limit: int, operation: Operation | None, world: World) -> RunList:
    """The newest runs (0: all)."""
    with reading(world.environ) as db:
        found = [] if db is None else read.runs(db, None if limit == 0 else limit + 1, operation and operation.value)
        more = limit != 0 and len(found) > limit
        found = found[:limit] if limit else found
        states = {} if db is None else read.request_states(db, [r.id for r in found])
    return RunList(found, states, more, limit, operation, journal_place(world.environ))


@dataclass(frozen=True, slots=True)
class OpenRun:
    """One run in full, read from the journal while its context is open."""

    whole: RunDetail
    rows: RunRows
    records: Callable[[], Iterator[RecordInfo]]
    """The run's records, read as they are used."""
    completed: Callable[[Sequence[RequestInfo] | None, bool], Iterator[RequestInfo]]
    """Requests (of `whole`, in number order; None: every request) with their bodies, answers and lines, read as
    they are used."""
    ran_by: tuple[str, str]
    """Who ran it (user, host); unknown for runs recorded before the journal kept it."""


@contextmanager
def opened_run(run: int | str, world: World) -> Iterator[OpenRun]:
    """One run in full; RUN is a number or `last`. Its requests are read without bodies and answers (a failed big
    run's are a hundred thousand); `completed` reads them whole as they are written out."""
    with reading(world.environ) as db:
        if db is None:
            raise UsageProblem(
                f"no run {run} in the journal", f"the journal {journal_place(world.environ)} has no runs yet"
            )
        number = run_number(db, run, world.environ)
        detail = run_requests.detail(db, number, whole=False)
        # Its requests' bodies and lines, its rows and its records are made of its records: read once for all three.
        held = RunRecords(db, number)
        yield OpenRun(
            detail,
            RunRows(db, detail, held),
            held.every,
            lambda wanted, bodies: run_requests.completed(db, detail.run, wanted, bodies, held),
            read.ran_by(db, number),
        )


LAST = "last"


def run_named(run: int | str) -> int | str:
    """What RUN names: a run number, or `last` (the newest run), as history show, retry and revert take it."""
    if isinstance(run, int):
        return run
    if run.strip().lower() == LAST:
        return LAST
    if run.strip().isdigit():  # 0 too: "no run 0 in the journal" then says which runs there are
        return int(run.strip())
    raise UsageProblem(f"RUN {run!r}: give a run number (see `ari-cli history`) or last")


def run_number(db: OpenJournal, run: int | str, environ: Mapping[str, str]) -> int:
    """The number of the run RUN names (`run_named`), `last` looked up in the journal."""
    named = run_named(run)
    if named != LAST:
        return int(named)
    latest = read.runs(db, 1)
    if not latest:
        raise UsageProblem("no run in the journal yet", f"the journal is {journal_place(environ)}")
    return latest[0].id


@dataclass(frozen=True, slots=True)
class TrackingFound:
    """`history find --trackingid`: each run and request that got it, with the rows it carried."""

    trackingid: str
    matches: list[tuple[RunInfo, RequestInfo, list[RowInfo]]]


@dataclass(frozen=True, slots=True)
class DateFound:
    """`history find --property --date`: every record that covered the date, newest first."""

    propertyid: str
    day: dt.date
    roomid: str | None
    rateid: str | None
    operation: str | None
    hits: list[DateHit]
    body: bool


def find(request: FindRequest, world: World) -> TrackingFound | DateFound:
    """Find by tracking id, or by property and date; AriError (exit 1) when nothing is found."""
    trackingid, propertyid, date = request.trackingid, request.propertyid, request.date
    roomid, rateid, operation = request.roomid, request.rateid, request.operation
    narrowing = [name for name, value in (("--room", roomid), ("--rate", rateid), ("--operation", operation)) if value]
    if trackingid is not None:
        if propertyid is not None or date is not None or narrowing:
            given = ", ".join(n for n, v in (("--property", propertyid), ("--date", date)) if v) or narrowing[0]
            raise UsageProblem(f"--trackingid finds one request: {given} cannot narrow it", "give one of the searches")
        return _find_trackingid(trackingid.strip(), world.environ)
    if propertyid is None and date is None:
        raise UsageProblem(
            "say what to find: --trackingid ID, or --property P with --date YYYY-MM-DD",
            "ari-cli history find --property HTL001 --date 2027-01-05",
        )
    if propertyid is None:
        raise UsageProblem("--date needs --property P: the property whose date to find")
    if date is None:
        raise UsageProblem(f"--property {propertyid} needs --date YYYY-MM-DD: the date to find")
    day = parse_day(date, "--date")
    return _find_date(propertyid, day, roomid, rateid, operation and operation.value, request.body, world.environ)


def _find_trackingid(trackingid: str, environ: Mapping[str, str]) -> TrackingFound:
    with reading(environ) as db:
        found = [] if db is None else finding.find_trackingid(db, trackingid)
        matches = []
        for run, request in found:
            assert db is not None
            rows = list(RunRows(db, read.RunDetail(run, [request])).rows(carried=request.records))
            matches.append((run, request, rows))
    if not matches:
        raise AriError(f"no request in the journal got the tracking id {trackingid}", _nothing_hint(environ))
    return TrackingFound(trackingid, matches)


def _find_date(
    propertyid: str,
    day: dt.date,
    roomid: str | None,
    rateid: str | None,
    operation: str | None,
    body: bool,
    environ: Mapping[str, str],
) -> DateFound:
    with reading(environ) as db:
        hits = [] if db is None else finding.find_date(db, propertyid, day, roomid, rateid, operation)
    if not hits:
        searched = " ".join(
            f"{label} {value}" for label, value in (("room", roomid), ("rate", rateid), ("operation", operation))
            if value
        )  # fmt: skip
        narrowed = f" ({searched})" if searched else ""
        raise AriError(
            f"no record in the journal covers {day} for property {propertyid}{narrowed}", _nothing_hint(environ)
        )
    return DateFound(propertyid, day, roomid, rateid, operation, hits, body)


def _nothing_hint(environ: Mapping[str, str]) -> str:
    return f"the journal is {journal_place(environ)}; `ari-cli history` lists the runs it holds"


@dataclass(frozen=True, slots=True)
class Pruned:
    """`history prune`: what was (or would be) deleted, and what was kept."""

    said: str
    """The runs found, in words: "3 finished runs started before ... (local time)"."""
    when: str
    found: list[RunInfo]
    states: dict[int, dict[str, int]] = field(default_factory=dict)
    dry_run: bool = False
    declined: bool = False
    deleted: int = 0
    kept: list[int] = field(default_factory=list)
    not_compacted: str | None = None


def prune(older_than: str, dry_run: bool, yes: bool, listener: Listener, world: World) -> Pruned:
    """Delete the finished runs started before an age, then compact the file so that their bodies are gone.

    At a terminal it asks the listener first (`--yes` does not); `--dry-run` finds the runs and deletes nothing.
    """
    age = pruning.parse_age(older_than)
    try:
        before = dt.datetime.now(dt.UTC) - age
    except OverflowError:
        raise UsageProblem(f"--older-than {older_than!r} is longer than the calendar", pruning.AGE_HINT) from None
    when = before.astimezone().strftime("%Y-%m-%d %H:%M")
    with writing(world.environ) as db:
        found = [] if db is None else pruning.prunable(db, pruning.cutoff(age))
        runs = "run" if len(found) == 1 else "runs"
        said = f"{len(found)} finished {runs} started before {when} (local time)"
        if dry_run:
            states = read.request_states(db, [r.id for r in found]) if db and found else {}
            return Pruned(said, when, found, states, dry_run=True)
        if found and not yes and world.stdin_is_terminal and not listener.ask(f"delete {said}?"):
            return Pruned(said, when, found, declined=True)
        deleted = 0 if db is None else pruning.prune(db, [r.id for r in found])
        busy = compact(db) if db is not None and deleted else None
        kept = [] if db is None else pruning.unfinished_before(db, pruning.cutoff(age))
    return Pruned(said, when, found, deleted=deleted, kept=kept, not_compacted=busy)
