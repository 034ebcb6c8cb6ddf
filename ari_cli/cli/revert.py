"""`ari-cli revert RUN`: put back what the service held before a run, as the journal knows it."""

from typing import TYPE_CHECKING, Annotated

import typer

from ari_cli.cli.completion import complete_run
from ari_cli.cli.groups import only, takes
from ari_cli.cli.helptext import HelpCommand
from ari_cli.cli.options import DryRun, connection_options, output_options, plan_options, send_tuning

if TYPE_CHECKING:
    from ari_cli.app.options import ConnectionOptions, OutputOptions, PlanOptions, SendTuning

REVERT_HELP = """Put back what the service held before a run: for every key and date the run (with the retries that finished it) got acknowledged, the value the service held just before it, as the journal knows it.

Earlier values are rebuilt from what earlier runs to the same base URL and source id got acknowledged. Dates whose earlier value the journal never saw (never pushed from here, or by runs since pruned) are listed and left alone; --clear-unknown sends n/a for them (threshold and maxadv: a policy cannot be cleared, so those dates are only listed). Dates a later run changed again are left alone and named; --force puts them back anyway.

The revert goes where the run went (its base URL and source id), with the key of the configuration, as `retry` does. It shows the change as `diff` does and asks at a terminal; without one, --yes sends without asking. It is a run of its own in the journal, which `history` shows as reverting RUN; reverting it restores RUN's values. Guards (--max-changed and the like) do not apply to a revert.

--dry-run shows the plan (with --output json: the diff document, with "reverts", "unknown" and "later"); otherwise the run's results are shown as a push's are.

\f
[bold]Examples[/bold]:

  ari-cli history
  ari-cli revert 42 --dry-run
  ari-cli revert 42
  ari-cli revert 42 --yes --output json          # from a script
  ari-cli revert 42 --clear-unknown --force
"""


@takes(
    plan=only(plan_options, "today"),
    output=only(output_options, "output", "report", "show", "quiet", "verbose", "no_journal"),
    sending=send_tuning,
    connection=only(connection_options, "profile", "config", "api_key_file", "path_segment"),
)
def revert(
    ctx: typer.Context,
    run: Annotated[str, typer.Argument(metavar="RUN", show_default=False, help="Run number, as `ari-cli history` lists it, or last.", autocompletion=complete_run)],
    *,
    dry_run: DryRun = False,
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Send without asking (for scripts): the change is still shown.")] = False,
    clear_unknown: Annotated[bool, typer.Option("--clear-unknown", help="Send n/a for dates whose earlier value the journal never saw (threshold and maxadv).")] = False,
    force: Annotated[bool, typer.Option("--force", help="Also put back dates a later run changed again (overwriting its values).")] = False,
    plan: "PlanOptions",
    output: "OutputOptions",
    sending: "SendTuning",
    connection: "ConnectionOptions",
) -> None:  # fmt: skip
    from ari_cli.cli.doing.revert import revert as do

    do(
        ctx=ctx,
        run=run,
        dry_run=dry_run,
        yes=yes,
        clear_unknown=clear_unknown,
        force=force,
        plan=plan,
        output=output,
        sending=sending,
        connection=connection,
    )


app = typer.Typer(add_completion=False)
app.command("revert", help=REVERT_HELP, cls=HelpCommand, no_args_is_help=True)(revert)
