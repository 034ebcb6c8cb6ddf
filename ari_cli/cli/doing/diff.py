"""What `diff`'s commands do once their options are parsed (the commands are declared in cli/diff.py)."""

from __future__ import annotations

import typer

from ari_cli.app.diff import run_diff
from ari_cli.app.options import ConnectionOptions, DiffRequest, GuardOptions, InputOptions, PlanOptions
from ari_cli.app.push import nothing_sent_on_interrupt
from ari_cli.choices import DiffFormat, DiffShow
from ari_cli.cli.boundary import error_documents
from ari_cli.cli.options import (
    Files,
    Quiet,
)
from ari_cli.cli.world import process_world
from ari_cli.render.changes import diff as render_diff
from ari_cli.render.terminal import Terminal
from ari_cli.wire.operations import Operation


def diff(
    *,
    files: Files,
    output: DiffFormat,
    show: DiffShow,
    exit_code: bool,
    quiet: Quiet,
    inputs: InputOptions,
    plan: PlanOptions,
    connection: ConnectionOptions,
    guards: GuardOptions,
    operation: Operation,
) -> None:
    error_documents(
        lambda kind, message, hint: render_diff.error_document(operation.value, kind, message, hint), output
    )
    request = DiffRequest(
        operation=operation,
        files=tuple(files),
        output=output,
        show=show,
        exit_code=exit_code,
        quiet=quiet,
        inputs=inputs,
        plan=plan,
        connection=connection,
        guards=guards,
    )
    # Ctrl-C or SIGTERM while reading: said, exit 130, and still one JSON document with --output json.
    with nothing_sent_on_interrupt():
        world = process_world()
        diffed = run_diff(request, Terminal(), world)
    render_diff.show(diffed.view, output.value, world.clock(), [str(f) for f in files])
    raise typer.Exit(int(diffed.exit_code))
