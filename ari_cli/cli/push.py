"""`ari-cli OPERATION push`: files through the whole pipeline, with every option group."""

from collections.abc import Callable
from typing import TYPE_CHECKING

import typer

from ari_cli.cli.groups import takes
from ari_cli.cli.options import (
    Confirm,
    DryRun,
    Files,
    Yes,
    connection_options,
    guard_options,
    input_options,
    output_options,
    plan_options,
    send_tuning,
)
from ari_cli.wire.operations import Operation

if TYPE_CHECKING:
    from ari_cli.app.options import (
        ConnectionOptions,
        GuardOptions,
        InputOptions,
        OutputOptions,
        PlanOptions,
        SendTuning,
    )


def push_command(operation: Operation) -> Callable[..., None]:
    """The push command of one operation: the options every push takes."""

    @takes(
        output=output_options,
        inputs=input_options,
        plan=plan_options,
        sending=send_tuning,
        connection=connection_options,
        guards=guard_options,
    )
    def push(
        ctx: typer.Context,
        files: Files,
        *,
        dry_run: DryRun = False,
        output: "OutputOptions",
        inputs: "InputOptions",
        plan: "PlanOptions",
        sending: "SendTuning",
        confirm: Confirm = False,
        yes: Yes = False,
        connection: "ConnectionOptions",
        guards: "GuardOptions",
    ) -> None:
        from ari_cli.cli import runs  # the work, loaded when the command runs

        request = runs.PushRequest(
            operation=operation,
            command=ctx.command_path,
            files=tuple(files),
            dry_run=dry_run,
            output=output,
            inputs=inputs,
            plan=plan,
            sending=sending,
            connection=connection,
            confirm=confirm,
            yes=yes,
            guards=guards,
        )
        raise typer.Exit(int(runs.push_and_show(request)))

    return push
