"""What `ari-cli history` and its `show`, `find` and `prune` do: read the journal and show it."""

from __future__ import annotations

import datetime as dt
import os
import sys

import typer

from ari_cli.app.options import FindRequest, PageFormat, ViewFormat
from ari_cli.exits import AriError, UsageProblem
from ari_cli.journal import finds as finding
from ari_cli.journal import prune as pruning
from ari_cli.journal import queries as read
from ari_cli.journal.database import compact, journal_path
from ari_cli.journal.rows import RunRows
from ari_cli.journal.store import reading, writing
from ari_cli.records.dates import parse_date
from ari_cli.render import finds, rundetail
from ari_cli.render import history as show
from ari_cli.render.printable import echo_err
from ari_cli.wire.operations import Operation


def journal_place() -> str:
    """Where the journal is, as messages name it."""
    return str(journal_path(os.environ))


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


def run_choices() -> list[tuple[str, str]]:
    """`last` and the newest runs' numbers, each with its command and start; none when the journal is unreadable."""
    try:
        with reading(os.environ) as db:
            found = [] if db is None else read.runs(db, COMPLETED_RUNS)
    except AriError:
        return []  # a completion prints nothing: the command itself will say what is wrong
    choices = [(str(run.id), f"{run.command} {run.operation}, {run.started}") for run in found]
    return ([("last", "the newest run")] if found else []) + choices


def list_runs(limit: int, operation: Operation | None, output: ViewFormat) -> None:
    """The newest runs (0: all), as a table or one JSON document; on stderr, when there are none or more."""
    with reading(os.environ) as db:
        found = [] if db is None else read.runs(db, None if limit == 0 else limit + 1, operation and operation.value)
        more = limit != 0 and len(found) > limit
        found = found[:limit] if limit else found
        states = {} if db is None else read.request_states(db, [r.id for r in found])
    if output is ViewFormat.JSON:
        runs = [show.run_dict(r, states.get(r.id, {})) for r in found]
        show.write_json({"journal": journal_place(), "runs": runs, "more": more}, sys.stdout)
    elif found:
        show.runs_table(found, states, show.console())
    if not found:
        which = f"no {operation.value} run" if operation else "no run"
        echo_err(f"{which} in the journal {journal_place()}: every push that is not a dry run is recorded there")
    elif more:
        echo_err(f"showing the {limit} newest runs; --limit N shows more (0: all)")


def show_run(run: str, body: bool, all_rows: bool | None, output: PageFormat) -> None:
    """One run in full; RUN is a number or `last`."""
    with reading(os.environ) as db:
        if db is None:
            raise UsageProblem(f"no run {run} in the journal", f"the journal {journal_place()} has no runs yet")
        if run.strip().lower() == "last":
            latest = read.runs(db, 1)
            if not latest:
                raise UsageProblem("no run in the journal yet", f"the journal is {journal_place()}")
            number = latest[0].id
        elif run.strip().isdigit():
            number = int(run.strip())
        else:
            raise UsageProblem(f"RUN {run!r}: give a run number (see `ari-cli history`) or last")
        whole = read.detail(db, number, whole=output is not PageFormat.TABLE)
        rows = RunRows(db, whole)
        if output is PageFormat.HTML:
            from ari_cli.render.pagerun import write_history_run

            write_history_run(whole, rows.rows(), read.records(db, number), read.ran_by(db, number), sys.stdout)
        elif output is PageFormat.JSON:
            rundetail.write_detail(whole, rows, lambda: read.records(db, number), sys.stdout)
        else:
            # Only the requests shown are read whole (bodies, lines): a big run's are thousands.
            shown = read.completed(db, whole.run, rundetail.shown_requests(whole.requests, all_rows))
            rundetail.run_detail(whole, shown, rows, show.console(), body, all_rows)


def find(request: FindRequest) -> None:
    """Find by tracking id, or by property and date; exit 1 when nothing is found."""
    trackingid, propertyid, date = request.trackingid, request.propertyid, request.date
    roomid, rateid, operation, output = request.roomid, request.rateid, request.operation, request.output
    narrowing = [name for name, value in (("--room", roomid), ("--rate", rateid), ("--operation", operation)) if value]
    if trackingid is not None:
        if propertyid is not None or date is not None or narrowing:
            given = ", ".join(n for n, v in (("--property", propertyid), ("--date", date)) if v) or narrowing[0]
            raise UsageProblem(f"--trackingid finds one request: {given} cannot narrow it", "give one of the searches")
        _find_trackingid(trackingid.strip(), output)
        return
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
    _find_date(propertyid, day, roomid, rateid, operation and operation.value, request.body, output)


def _find_trackingid(trackingid: str, output: ViewFormat) -> None:
    with reading(os.environ) as db:
        found = [] if db is None else finding.find_trackingid(db, trackingid)
        matches = []
        for run, request in found:
            assert db is not None
            rows = list(RunRows(db, read.RunDetail(run, [request])).rows(carried=request.records))
            matches.append((run, request, rows))
    if not matches:
        raise AriError(f"no request in the journal got the tracking id {trackingid}", _nothing_hint())
    if output is ViewFormat.JSON:
        show.write_json({"trackingid": trackingid, "matches": [finds.trackingid_dict(*m) for m in matches]},
                        sys.stdout)  # fmt: skip
        return
    out = show.console()
    for position, match in enumerate(matches):
        if position:
            out.print()
        finds.trackingid_match(*match, out)


def _find_date(
    propertyid: str, day: dt.date, roomid: str | None, rateid: str | None, operation: str | None, body: bool,
    output: ViewFormat,
) -> None:  # fmt: skip
    with reading(os.environ) as db:
        hits = [] if db is None else finding.find_date(db, propertyid, day, roomid, rateid, operation)
    if not hits:
        searched = " ".join(
            f"{label} {value}" for label, value in (("room", roomid), ("rate", rateid), ("operation", operation))
            if value
        )  # fmt: skip
        narrowed = f" ({searched})" if searched else ""
        raise AriError(f"no record in the journal covers {day} for property {propertyid}{narrowed}", _nothing_hint())
    if output is ViewFormat.JSON:
        search = {"propertyid": propertyid, "date": day.isoformat(), "roomid": roomid, "rateid": rateid,
                  "operation": operation}  # fmt: skip
        found = [finds.date_hit_dict(hit) for hit in hits]
        show.write_json({"search": search, "hits": found}, sys.stdout)
        return
    out = show.console()
    out.print(show.text(f"{day}, property {propertyid}: {len(hits)} record(s) covered it, newest first"))
    finds.date_hits(hits, out)
    if body:
        seen: set[tuple[int, int]] = set()
        for hit in hits:
            if (hit.run.id, hit.request.id) not in seen:
                seen.add((hit.run.id, hit.request.id))
                out.print()
                out.print(show.text(f"# run {hit.run.id}"))
                rundetail.exchange(hit.request, out)


def _nothing_hint() -> str:
    return f"the journal is {journal_place()}; `ari-cli history` lists the runs it holds"


def prune(older_than: str, dry_run: bool, yes: bool) -> None:
    """Delete the finished runs started before an age, then compact the file so that their bodies are gone.

    At a terminal it asks first (`--yes` does not); `--dry-run` lists the runs and deletes nothing.
    """
    try:
        age = pruning.parse_age(older_than)
        before = dt.datetime.now(dt.UTC) - age
    except (OverflowError, ValueError):
        raise UsageProblem(f"--older-than {older_than!r}: give an age like 90d, 12w or 36h") from None
    if not age:
        raise UsageProblem(
            f"--older-than {older_than}: an age of 0 would delete every run, the last one included",
            "give an age like 90d; --dry-run lists what would go",
        )
    when = before.astimezone().strftime("%Y-%m-%d %H:%M")
    with writing(os.environ) as db:
        found = [] if db is None else pruning.prunable(db, pruning.cutoff(age))
        runs = "run" if len(found) == 1 else "runs"
        said = f"{len(found)} finished {runs} started before {when} (local time)"
        if dry_run:
            if found:
                show.runs_table(found, read.request_states(db, [r.id for r in found]) if db else {}, show.console())
            typer.echo(f"would delete {said}; nothing deleted (--dry-run)")
            return
        if found and not yes and sys.stdin.isatty() and not typer.confirm(f"delete {said}?", default=False):
            typer.echo("nothing deleted")
            raise typer.Exit(1)
        deleted = 0 if db is None else pruning.prune(db, [r.id for r in found])
        busy = compact(db) if db is not None and deleted else None
        if busy is not None:
            echo_err(f"warning: the journal was not compacted ({busy}); later runs reuse the space")
        kept = [] if db is None else pruning.unfinished_before(db, pruning.cutoff(age))
    runs = "run" if deleted == 1 else "runs"
    typer.echo(f"deleted {deleted} {runs} started before {when} (local time)")
    if kept:
        numbers = ", ".join(str(n) for n in kept[:10]) + (" ..." if len(kept) > 10 else "")
        echo_err(
            f"kept {len(kept)} unfinished {'run' if len(kept) == 1 else 'runs'} ({numbers}): killed or still running;"
            " `ari-cli retry RUN` finishes a killed one"
        )
