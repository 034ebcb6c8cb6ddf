"""`ari-cli retry RUN`: send again what a journaled run did not get acknowledged."""

from typing import TYPE_CHECKING, Annotated

import typer

from ari_cli.cli.completion import complete_run
from ari_cli.cli.groups import takes
from ari_cli.cli.helptext import HelpCommand
from ari_cli.cli.options import DryRun, connection_options, output_options, send_tuning

if TYPE_CHECKING:
    from ari_cli.app.options import ConnectionOptions, OutputOptions, SendTuning

RETRY_HELP = """Send again what a journaled run did not get acknowledged, and nothing else.

That is: requests never sent, sent without an answer (the run was killed or interrupted), failed for a passing reason (timeouts, connection errors, HTTP 500/502/503/504, code 408), or refused for the property, endpoint or account (446, 442, 454, 415, 440, 471, a gateway's 401 or 403), which the service may have put right. Acknowledged requests are not sent twice, and rows refused for their own data (a wrong room id, a bad date), which a second try would meet again, are counted by cause, not re-sent.

Exits 0 when every row of the run is ok, skipped, or superseded by a later acknowledgement of the same dates; 1 while rows stay refused for their own data: fix them and push the file again.

Dates whose value a later run got acknowledged are left out (sending this run's older value would overwrite the newer one) and said on standard error; --force sends them anyway.

RUN is a run number from `ari-cli history`, or `last` (the newest run). A run that was retried already is followed to its latest retry, so a retry of a retry works and `retry` can simply be run again. The requests go where the run sent them (its base URL and source id), or where --base-url, --source-id and --path-segment say (checked as push checks them; plain http:// only to loopback); the key comes from the configuration, as for push. The retry is a run of its own in the journal, which records where it sent.

\f
[bold]Examples[/bold]:

  ari-cli history
  ari-cli retry 42
  ari-cli retry 42 --dry-run
  ari-cli retry 42 --output json --report retry.csv
  ari-cli retry 42 --base-url https://push.example.com --source-id cpbA1
"""


@takes(output=output_options, sending=send_tuning, connection=connection_options)
def retry(
    ctx: typer.Context,
    run: Annotated[str, typer.Argument(metavar="RUN", show_default=False, help="Run number, as `ari-cli history` lists it, or last.", autocompletion=complete_run)],
    *,
    dry_run: DryRun = False,
    output: "OutputOptions",
    sending: "SendTuning",
    connection: "ConnectionOptions",
    force: Annotated[bool, typer.Option("--force", help="Also send dates whose value a later run got acknowledged (overwriting it).")] = False,
) -> None:  # fmt: skip
    from ari_cli.cli.doing.retry import retry_command  # the work, loaded when the command runs

    code = retry_command(
        run=run,
        command=ctx.command_path,
        dry_run=dry_run,
        output=output,
        sending=sending,
        connection=connection,
        force=force,
    )
    raise typer.Exit(int(code))


# The command alone, as the root loads it when asked for it (cli/__init__.py).
app = typer.Typer(add_completion=False)
app.command("retry", help=RETRY_HELP, cls=HelpCommand, no_args_is_help=True)(retry)
