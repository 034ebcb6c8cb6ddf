"""`ari-cli history [show|find|prune]`: what the journal recorded of past push runs.

Only Typer is imported here; the journal and the renderers load when a command runs.
"""

# Option declarations read best as one line each, as in push.py: a table of data.
# ruff: noqa: E501

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from contextlib import contextmanager
from enum import StrEnum
from typing import TYPE_CHECKING, Annotated

import typer

from ari_cli.cli.push import Show
from ari_cli.wire.operations import Operation

if TYPE_CHECKING:
    import sqlite3

WHERE = "The journal is $ARI_HOME/journal.sqlite3, or journal.sqlite3 in the user data folder when ARI_HOME is not set."

app = typer.Typer(
    name="history",
    help=f"""List the push runs the journal recorded, newest first; show, find and prune them.

Every push that is not a dry run (and not --no-journal) is recorded as it goes: the files and their \
SHA-256, the options, each row and request, each body sent (key masked) and each answer. A run that \
was killed shows as "unfinished (killed?)"; `ari-cli retry RUN` sends what it left. Times are local.

{WHERE}

[bold]Examples[/bold]:

  ari-cli history
  ari-cli history --limit 5 --operation threshold
  ari-cli history --output json
  ari-cli history show 12
  ari-cli history find --trackingid sbx-0123abcd
  ari-cli history find --property HTL001 --room DBL --date 2027-01-05
""",
    invoke_without_command=True,
)


class Output(StrEnum):
    TABLE = "table"
    JSON = "json"


# The operations as push names them; the table's row choice as push offers it.
Kind = Operation
Rows = Show


OutputOption = Annotated[Output, typer.Option("--output", "-o", help="A table, or one JSON document.")]


@contextmanager
def journal() -> Iterator[sqlite3.Connection | None]:
    """The journal, None when there is none yet (reading creates nothing); any database failure is exit 4."""
    import os
    import sqlite3

    from ari_cli.exits import ConfigError
    from ari_cli.journal.store import HOME_VARIABLE, journal_path, open_database

    path = journal_path(os.environ)
    hint = f"set {HOME_VARIABLE} to a folder of yours, or unset it to use the user data folder"
    nearest = next((p for p in path.parents if p.exists()), None)
    if nearest is not None and not nearest.is_dir():
        raise ConfigError(f"the journal cannot be read: {nearest} is a file, not a folder", hint)
    if not path.exists():
        yield None
        return
    broken = f"move {path} aside (the next push starts a new journal), or set {HOME_VARIABLE} to another folder"
    try:
        db = open_database(path)
    except (sqlite3.Error, OSError) as problem:
        raise ConfigError(f"the journal {path} cannot be read: {problem}", broken) from None
    try:
        yield db
    except sqlite3.Error as problem:
        raise ConfigError(f"the journal {path} cannot be read: {problem}", broken) from None
    finally:
        db.close()


def journal_place() -> str:
    import os

    from ari_cli.journal.store import journal_path

    return str(journal_path(os.environ))


def parse_day(text: str, option: str) -> dt.date:
    """YYYY-MM-DD, today or today+N, or a usage error naming the option."""
    from ari_cli.exits import UsageProblem
    from ari_cli.records.dates import parse_date

    try:
        return parse_date(text, dt.date.today())
    except ValueError as problem:
        reason = str(problem)
        if "--date-format" in reason:
            # Push's --date-format is no option here: only the forms below are taken.
            reason = f'"{text}" is not a date of the form YYYY-MM-DD'
        raise UsageProblem(f"{option}: {reason}", "give YYYY-MM-DD, today or today+N") from None


@app.callback()
def history(
    ctx: typer.Context,
    limit: Annotated[int, typer.Option("--limit", "-n", min=0, metavar="N", help="Show the N newest runs; 0 shows all.")] = 20,
    operation: Annotated[Kind | None, typer.Option("--operation", help="Only the runs of this operation.", show_default=False)] = None,
    output: OutputOption = Output.TABLE,
) -> None:  # fmt: skip
    if ctx.invoked_subcommand is not None:
        return
    import sys

    from ari_cli.cli.boundary import echo_err
    from ari_cli.journal import queries as read
    from ari_cli.render import history as show

    with journal() as db:
        found = [] if db is None else read.runs(db, None if limit == 0 else limit + 1, operation and operation.value)
        more = limit != 0 and len(found) > limit
        found = found[:limit] if limit else found
        states = {} if db is None else read.request_states(db, [r.id for r in found])
    if output is Output.JSON:
        runs = [show.run_dict(r, states.get(r.id, {})) for r in found]
        show.write_json({"journal": journal_place(), "runs": runs, "more": more}, sys.stdout)
    elif found:
        show.runs_table(found, states, show.console())
    if not found:
        which = f"no {operation.value} run" if operation else "no run"
        echo_err(f"{which} in the journal {journal_place()}: every push that is not a dry run is recorded there")
    elif more:
        echo_err(f"showing the {limit} newest runs; --limit N shows more (0: all)")


SHOW_HELP = f"""Show one run: its header, its requests and its rows.

The header says which command ran, with which profile, base URL and source id, which files (with \
the start of their SHA-256), the options, when it started and ended, the summary and the exit code. \
Each request has its parent (a request split in halves is the parent of both), its property, how many \
records and which lines it carried, its state, tries, HTTP status, tracking id and error; each row \
its result (over 50 rows, only the rows not ok or skipped, unless --show all). --body adds each \
request body (key masked) and the answer.

RUN is a run number from `ari-cli history`, or `last`. {WHERE}

[bold]Examples[/bold]:

  ari-cli history show 12
  ari-cli history show last --body
  ari-cli history show 12 --show failed
  ari-cli history show 12 --output json
"""


@app.command("show", help=SHOW_HELP, no_args_is_help=True)
def show_run(
    run: Annotated[str, typer.Argument(metavar="RUN", show_default=False, help="Run number, or last.")],
    body: Annotated[bool, typer.Option("--body", help="Also show each request body (key masked) and the answer.")] = False,
    rows: Annotated[Rows | None, typer.Option("--show", help="Which rows the table lists. \\[default: failed over 50 rows, else all]", show_default=False)] = None,
    output: OutputOption = Output.TABLE,
) -> None:  # fmt: skip
    import sys

    from ari_cli.exits import UsageProblem
    from ari_cli.journal import queries as read
    from ari_cli.render import history as show

    with journal() as db:
        if db is None:
            raise UsageProblem(f"no run {run} in the journal", f"the journal {journal_place()} has no runs yet")
        if run.strip().lower() == "last":
            latest = read.runs(db, 1)
            if not latest:
                raise UsageProblem("no run in the journal yet", f"the journal is {journal_place()}")
            number = latest[0].id
        elif run.strip().isdigit():
            number = int(run)
        else:
            raise UsageProblem(f"RUN {run!r}: give a run number (see `ari-cli history`) or last")
        whole = read.detail(db, number)
    if output is Output.JSON:
        show.write_json(show.detail_dict(whole), sys.stdout)
    else:
        show.run_detail(whole, show.console(), body, None if rows is None else rows is Rows.ALL)


FIND_HELP = f"""Find who sent a tracking id, or which requests set a date, and what they sent.

[bold]--trackingid ID[/bold]: the run and request that got this tracking id, the body it sent (key \
masked), the service's answer, and the rows (file:line) it carried.

[bold]--property P --date D[/bold] (with --room, --rate, --operation to narrow): every record that \
covered that date, newest first: run, request, range, value, state and tracking id. "In force" marks \
the last one the service acknowledged, per key and service: the value it holds, as far as this \
journal knows (changes made by other systems are not seen). --body adds the bodies sent.

Exit codes: 0 found, 1 nothing found, 2 a search not given or a bad date, 4 the journal unreadable. {WHERE}

[bold]Examples[/bold]:

  ari-cli history find --trackingid sbx-0123abcd
  ari-cli history find --property HTL001 --date 2027-01-05
  ari-cli history find --property HTL001 --room DBL --rate BAR --date today --operation maxadv --body
"""


@app.command("find", help=FIND_HELP)
def find(
    trackingid: Annotated[str | None, typer.Option("--trackingid", metavar="ID", help="A tracking id the service gave.", show_default=False)] = None,
    propertyid: Annotated[str | None, typer.Option("--property", metavar="P", help="Property id (with --date).", show_default=False)] = None,
    date: Annotated[str | None, typer.Option("--date", metavar="YYYY-MM-DD", help="The date to find (also today, today+N).", show_default=False)] = None,
    roomid: Annotated[str | None, typer.Option("--room", metavar="R", help="Only this room.", show_default=False)] = None,
    rateid: Annotated[str | None, typer.Option("--rate", metavar="R", help="Only this rate (maxadv, policy).", show_default=False)] = None,
    operation: Annotated[Kind | None, typer.Option("--operation", help="Only this operation.", show_default=False)] = None,
    body: Annotated[bool, typer.Option("--body", help="With --date: also show each body sent and the answer.")] = False,
    output: OutputOption = Output.TABLE,
) -> None:  # fmt: skip
    from ari_cli.exits import UsageProblem

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
    _find_date(propertyid, day, roomid, rateid, operation and operation.value, body, output)


def _find_trackingid(trackingid: str, output: Output) -> None:
    import sys

    from ari_cli.exits import AriError
    from ari_cli.journal import queries as read
    from ari_cli.render import history as show

    with journal() as db:
        found = [] if db is None else read.find_trackingid(db, trackingid)
        matches = []
        for run, request in found:
            assert db is not None
            wanted = set(request.lines)
            rows = [r for r in read.detail(db, run.id).rows if (r.source, r.line) in wanted]
            matches.append((run, request, rows))
    if not matches:
        raise AriError(f"no request in the journal got the tracking id {trackingid}", _nothing_hint())
    if output is Output.JSON:
        show.write_json({"trackingid": trackingid, "matches": [show.trackingid_dict(*m) for m in matches]}, sys.stdout)
        return
    out = show.console()
    for position, match in enumerate(matches):
        if position:
            out.print()
        show.trackingid_match(*match, out)


def _find_date(
    propertyid: str, day: dt.date, roomid: str | None, rateid: str | None, operation: str | None, body: bool,
    output: Output,
) -> None:  # fmt: skip
    import sys

    from ari_cli.exits import AriError
    from ari_cli.journal import queries as read
    from ari_cli.render import history as show

    with journal() as db:
        hits = [] if db is None else read.find_date(db, propertyid, day, roomid, rateid, operation)
    if not hits:
        searched = " ".join(
            f"{label} {value}" for label, value in (("room", roomid), ("rate", rateid), ("operation", operation))
            if value
        )  # fmt: skip
        narrowed = f" ({searched})" if searched else ""
        raise AriError(f"no record in the journal covers {day} for property {propertyid}{narrowed}", _nothing_hint())
    current = show.in_force(hits)
    if output is Output.JSON:
        search = {"propertyid": propertyid, "date": day.isoformat(), "roomid": roomid, "rateid": rateid,
                  "operation": operation}  # fmt: skip
        found = [show.date_hit_dict(hit, n in current) for n, hit in enumerate(hits)]
        show.write_json({"search": search, "hits": found}, sys.stdout)
        return
    out = show.console()
    out.print(show.text(f"{day}, property {propertyid}: {len(hits)} record(s) covered it, newest first"))
    show.date_hits(hits, out)
    if body:
        seen: set[tuple[int, int]] = set()
        for hit in hits:
            if (hit.run.id, hit.request.id) not in seen:
                seen.add((hit.run.id, hit.request.id))
                out.print()
                out.print(show.text(f"# run {hit.run.id}"))
                show.exchange(hit.request, out)


def _nothing_hint() -> str:
    return f"the journal is {journal_place()}; `ari-cli history` lists the runs it holds"


PRUNE_HELP = f"""Delete the runs that started before a given age, to keep the journal small.

AGE is a number with a unit: d (days), w (weeks) or h (hours), e.g. 90d, 12w, 36h. Runs still \
running are old only by their start. The file is compacted afterwards, so that the deleted bodies \
(commercial terms) are gone from it. {WHERE}

[bold]Examples[/bold]:

  ari-cli history prune --older-than 90d
  ari-cli history prune --older-than 12w
"""


@app.command("prune", help=PRUNE_HELP)
def prune(
    older_than: Annotated[str, typer.Option("--older-than", metavar="AGE", help="Delete runs started longer ago than this: 90d, 12w, 36h.", show_default=False)],
) -> None:  # fmt: skip
    import sqlite3

    from ari_cli.cli.boundary import echo_err
    from ari_cli.exits import UsageProblem
    from ari_cli.journal import queries as read

    try:
        age = read.parse_age(older_than)
        before = dt.datetime.now(dt.UTC) - age
    except (OverflowError, ValueError):
        raise UsageProblem(f"--older-than {older_than!r}: give an age like 90d, 12w or 36h") from None
    when = before.astimezone().strftime("%Y-%m-%d %H:%M")
    with journal() as db:
        deleted = 0 if db is None else read.prune(db, age)
        if db is not None and deleted:
            try:
                db.execute("VACUUM")
                db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            except sqlite3.OperationalError as busy:
                echo_err(f"warning: the journal was not compacted ({busy}); later runs reuse the space")
    runs = "run" if deleted == 1 else "runs"
    typer.echo(f"deleted {deleted} {runs} started before {when} (local time)")
