"""What `revert`'s commands do once their options are parsed (the commands are declared in cli/revert.py)."""

from __future__ import annotations

from dataclasses import replace

import typer

from ari_cli.app.history import run_named
from ari_cli.app.options import ConnectionOptions, OutputOptions, PlanOptions, RevertRequest, SendTuning
from ari_cli.app.revert import revert as run_revert
from ari_cli.cli.boundary import error_documents
from ari_cli.cli.options import DryRun
from ari_cli.cli.world import process_world
from ari_cli.exits import ExitCode
from ari_cli.pushing import shown
from ari_cli.render.changes import revert as render_revert
from ari_cli.render.terminal import Terminal


def revert(
    *,
    ctx: typer.Context,
    run: str,
    dry_run: DryRun,
    yes: bool,
    clear_unknown: bool,
    force: bool,
    plan: PlanOptions,
    output: OutputOptions,
    sending: SendTuning,
    connection: ConnectionOptions,
) -> None:
    request = RevertRequest(
        run=run_named(run),
        command=ctx.command_path,
        dry_run=dry_run,
        yes=yes,
        clear_unknown=clear_unknown,
        force=force,
        today=plan.today,
        output=output,
        sending=sending,
        connection=connection,
    )
    raise typer.Exit(int(_revert(request)))


def _revert(request: RevertRequest) -> ExitCode:
    """Run the revert and hand its result over to be shown; the exit code."""
    error_documents(lambda kind, message, hint: render_revert.error_document(request.run, kind, message, hint),
                    request.output.format)  # fmt: skip
    terminal = Terminal()
    world = process_world()
    began = world.clock()
    reverted = run_revert(request, terminal, world)
    how = replace(shown(request.output, connected=True), when=began, what=f"a revert of run {request.run}")
    return render_revert.show(reverted, how, request.dry_run, terminal.err)
