"""`ari-cli revert RUN`: put back what the service held before a run, as the journal knows it."""

from typing import TYPE_CHECKING, Annotated, Any

import typer

from ari_cli.cli.groups import only, takes
from ari_cli.cli.helptext import HelpCommand
from ari_cli.cli.options import DryRun, connection_options, given, output_options, plan_options, send_tuning

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


def _ask(quiet: bool, yes: bool) -> Any:
    """Show the preview on standard error and ask (or say --yes answered)."""
    from ari_cli.app.diff import PREVIEW
    from ari_cli.render.changes import revert as render_revert
    from ari_cli.render.console import console

    def ask(reverted: Any, question: str) -> bool:
        err = console(stderr=True)
        if not (quiet and yes):
            render_revert.table(reverted, False, err, limit=PREVIEW)
        if yes:
            if not quiet:
                err.print(f"{question} yes (--yes)", markup=False)
            return True
        try:
            return bool(typer.confirm(question, default=False, err=True))
        except typer.Abort:  # end of input at the question
            return False

    return ask


@takes(
    plan=only(plan_options, "today"),
    output=only(output_options, "output", "report", "show", "quiet", "verbose", "no_journal"),
    sending=send_tuning,
    connection=only(connection_options, "profile", "config", "api_key_file", "path_segment"),
)
def revert(
    ctx: typer.Context,
    run: Annotated[int, typer.Argument(metavar="RUN", min=1, show_default=False, help="Run number, as `ari-cli history` lists it.")],
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
    from ari_cli.app.options import RevertRequest

    request = RevertRequest(
        run=run,
        command=ctx.command_path,
        dry_run=dry_run,
        yes=yes,
        clear_unknown=clear_unknown,
        force=force,
        today=plan.today,
        output=output,
        sending=sending,
        connection=connection,
        given=given(ctx),
    )
    raise typer.Exit(_revert(request))


def _revert(request: Any) -> int:
    """Run the revert, show it as asked, and give the exit code."""
    import sys

    from ari_cli.app.revert import revert as run_revert
    from ari_cli.cli.boundary import error_documents
    from ari_cli.cli.world import process_world
    from ari_cli.exits import UsageProblem
    from ari_cli.pushing import shown
    from ari_cli.render.changes import revert as render_revert
    from ari_cli.render.push import run as render
    from ari_cli.render.push.outcome import show_run
    from ari_cli.render.terminal import Terminal

    form = request.output.format.value
    if form == "json":
        error_documents(lambda kind, message, hint: render_revert.error_document(request.run, kind, message, hint))
    if not request.dry_run and not request.yes and not (sys.stdin.isatty() and sys.stderr.isatty()):
        # Said before the journal is read: a script learns at once that it cannot be asked.
        raise UsageProblem(
            "a revert asks before sending, and there is no terminal to ask at",
            "give --yes to be shown what would change and send without being asked; --dry-run to only see it",
        )
    terminal = Terminal()
    err = terminal.err
    reverted = run_revert(request, terminal, _ask(request.output.quiet, request.yes), process_world())
    render.notices(reverted.warnings, err)
    render.notices(render_revert.left_alone(reverted), err, label="note")
    if reverted.run is None or reverted.options is None:
        if not request.dry_run and not request.output.quiet:
            err.print(f"run {reverted.source.id}: nothing to put back", markup=False)
        show_all = request.output.show is not None and request.output.show.value == "all"
        if form == "json":
            render_revert.write_json(reverted, show_all, sys.stdout)
        elif form == "csv":
            render_revert.write_csv(reverted, show_all, sys.stdout)
        else:
            render_revert.table(reverted, show_all, render.console())
        return 0
    code = show_run(reverted.run, shown(request.output, connected=True), False, reverted.number, err)
    if reverted.number is not None and not request.output.quiet:
        err.print(f"run {reverted.number} reverts run {reverted.source.id}; `ari-cli revert {reverted.number}`"
                  " undoes it", markup=False)  # fmt: skip
    return int(code)


app = typer.Typer(add_completion=False)
app.command("revert", help=REVERT_HELP, cls=HelpCommand, no_args_is_help=True)(revert)
