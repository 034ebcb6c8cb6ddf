"""`ari-cli history [show|find|prune]`: what the journal recorded of past push runs."""

# Option declarations read best as one line each, as in push.py: a table of data.
# ruff: noqa: E501

from typing import Annotated

import typer

from ari_cli.choices import PageFormat, Show, ViewFormat
from ari_cli.cli.completion import complete_run
from ari_cli.cli.helptext import HelpCommand, HelpGroup
from ari_cli.cli.values import choice, whole
from ari_cli.wire.operations import Operation

WHERE = "The journal is $ARI_HOME/journal.sqlite3, or journal.sqlite3 in the user data folder when ARI_HOME is not set."

app = typer.Typer(
    add_completion=False,
    name="history",
    cls=HelpGroup,
    help=f"""List the push runs the journal recorded, newest first; show, find and prune them.

Every push, retry and replay that is not a dry run (and not --no-journal) is recorded as it goes: the \
files and their SHA-256, the options, each record with the lines it came from, each request with its \
body (key masked) and answer, and what the service then holds. Rows are derived from these when shown. \
A run that was killed shows as "unfinished (killed?)", one whose journal writes failed (a full disk) as \
"not fully recorded"; `ari-cli retry RUN` sends what it left. Readers never write: a read-only journal \
can be listed. Times are local.

{WHERE}

\f
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


Output = ViewFormat

# The operations as push names them; the table's row choice as push offers it.
Kind = Operation
Rows = Show


OutputOption = Annotated[
    Output, typer.Option("--output", "-o", **choice(Output), help="A table, or one JSON document.")
]
PageOption = Annotated[
    PageFormat,
    typer.Option("--output", "-o", **choice(PageFormat), help="A table, one JSON document, or an HTML page."),
]


@app.callback()
def history(
    ctx: typer.Context,
    limit: Annotated[int, typer.Option("--limit", "-n", **whole(0), help="Show the N newest runs; 0 shows all.")] = 20,
    operation: Annotated[Kind | None, typer.Option("--operation", **choice(Kind), help="Only the runs of this operation.", show_default=False)] = None,
    output: OutputOption = Output.TABLE,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No notes on standard error (none found, more runs).")] = False,
) -> None:  # fmt: skip
    from ari_cli.cli.doing.history import history as do

    do(ctx=ctx, limit=limit, operation=operation, output=output, quiet=quiet)


SHOW_HELP = f"""Show one run: its header, its requests and its rows.

The header says which command ran, with which profile, base URL and source id, which files (with \
the start of their SHA-256), the options, when it started and ended, the summary and the exit code. \
Each request has its parent (a request split in halves is the parent of both), its property, how many \
records and which lines it carried, its state, tries, HTTP status, tracking id and error; each row \
its result, derived from the answers of the records that carried it (over 50 rows or requests, only \
those that did not go well, unless --show all). --body adds each request body (key masked) and the \
answer.

RUN is a run number from `ari-cli history`, or `last`. {WHERE}

\f
[bold]Examples[/bold]:

  ari-cli history show 12
  ari-cli history show last --body
  ari-cli history show 12 --show failed
  ari-cli history show 12 --output json
"""


@app.command("show", help=SHOW_HELP, cls=HelpCommand, no_args_is_help=True)
def show_run(
    run: Annotated[str, typer.Argument(metavar="RUN", show_default=False, help="Run number, or last.", autocompletion=complete_run)],
    body: Annotated[bool, typer.Option("--body", help="Also show each request body (key masked) and the answer.")] = False,
    rows: Annotated[Rows | None, typer.Option("--show", **choice(Rows), help="Which rows the table lists. \\[default: failed over 50 rows (over 50 failed, by cause with the first 3 of each), else all]", show_default=False)] = None,
    output: PageOption = PageFormat.TABLE,
) -> None:  # fmt: skip
    from ari_cli.cli.doing.history import show_run as do

    do(run=run, body=body, rows=rows, output=output)


FIND_HELP = f"""Find who sent a tracking id, or which requests set a date, and what they sent.

[bold]--trackingid ID[/bold]: the run and request that got this tracking id, the body it sent (key \
masked), the service's answer, and the rows (file:line) it carried.

[bold]--property P --date D[/bold] (with --room, --rate, --operation to narrow): every record that \
covered that date, newest first: run, request, range, value, state and tracking id. "In force" marks \
the last one the service acknowledged, per key and service: the value it holds, as far as this \
journal knows (changes made by other systems are not seen). --body adds the bodies sent.

{WHERE}

\f
[bold]Examples[/bold]:

  ari-cli history find --trackingid sbx-0123abcd
  ari-cli history find --property HTL001 --date 2027-01-05
  ari-cli history find --property HTL001 --room DBL --rate BAR --date today --operation maxadv --body
"""


@app.command("find", help=FIND_HELP, cls=HelpCommand)
def find(
    trackingid: Annotated[str | None, typer.Option("--trackingid", metavar="ID", help="A tracking id the service gave.", show_default=False)] = None,
    propertyid: Annotated[str | None, typer.Option("--property", metavar="P", help="Property id (with --date).", show_default=False)] = None,
    date: Annotated[str | None, typer.Option("--date", metavar="YYYY-MM-DD", help="The date to find (also today, today+N).", show_default=False)] = None,
    roomid: Annotated[str | None, typer.Option("--room", metavar="R", help="Only this room.", show_default=False)] = None,
    rateid: Annotated[str | None, typer.Option("--rate", metavar="R", help="Only this rate (maxadv, policy).", show_default=False)] = None,
    operation: Annotated[Kind | None, typer.Option("--operation", **choice(Kind), help="Only this operation.", show_default=False)] = None,
    body: Annotated[bool, typer.Option("--body", help="With --date: also show each body sent and the answer.")] = False,
    output: OutputOption = Output.TABLE,
) -> None:  # fmt: skip
    from ari_cli.cli.doing.history import find as do

    do(
        trackingid=trackingid,
        propertyid=propertyid,
        date=date,
        roomid=roomid,
        rateid=rateid,
        operation=operation,
        body=body,
        output=output,
    )


PRUNE_HELP = f"""Delete the finished runs that started before a given age, to keep the journal small.

AGE is a whole number with a unit: d (days), w (weeks) or h (hours), e.g. 90d, 12w, 36h; 0, fractions (1.5d, 1e-9h), a number without a unit and other units are refused. A run still running or killed (unfinished) is never deleted: `ari-cli retry RUN` finishes a killed one. At a terminal it asks first; --yes does not ask, and without a terminal (cron) nothing is asked. --dry-run lists the runs that would go and deletes nothing. The file is compacted afterwards, so that the deleted bodies (commercial terms) are gone from it. Pushes running meanwhile are not disturbed: runs are deleted a few at a time. {WHERE}

\f
[bold]Examples[/bold]:

  ari-cli history prune --older-than 90d --dry-run
  ari-cli history prune --older-than 90d
  ari-cli history prune --older-than 12w --yes
  ari-cli history prune --older-than 90d --dry-run --output json
"""


@app.command("prune", help=PRUNE_HELP, cls=HelpCommand)
def prune(
    older_than: Annotated[str, typer.Option("--older-than", metavar="AGE", help="Delete finished runs started longer ago than this: a whole number of days, weeks or hours (90d or 90, 12w, 36h).", show_default=False)],
    dry_run: Annotated[bool, typer.Option("--dry-run", help="List the runs that would be deleted; delete nothing.")] = False,
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Do not ask at a terminal.")] = False,
    output: OutputOption = Output.TABLE,
) -> None:  # fmt: skip
    from ari_cli.cli.doing.history import prune as do

    do(older_than=older_than, dry_run=dry_run, yes=yes, output=output)
