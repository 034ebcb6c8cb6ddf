"""What `support`'s commands do once their options are parsed (the commands are declared in cli/support.py)."""

from __future__ import annotations

from pathlib import Path

import typer

from ari_cli.app.options import ConnectionOptions, OutputOptions, PlanOptions, ReplayRequest, SendTuning
from ari_cli.app.replay_run import replay as send_replay
from ari_cli.app.support import error_table, explain_codes
from ari_cli.choices import OutputFormat
from ari_cli.cli.options import DryRun
from ari_cli.cli.world import process_world
from ari_cli.render.support import show_error_table, show_explanations, show_replay
from ari_cli.render.terminal import Terminal


def replay(
    *,
    ctx: typer.Context,
    files: list[Path],
    no_fill: bool,
    dry_run: DryRun,
    output: OutputOptions,
    plan: PlanOptions,
    sending: SendTuning,
    connection: ConnectionOptions,
) -> None:
    done = send_replay(
        ReplayRequest(
            files=tuple(files),
            fill=not no_fill,
            dry_run=dry_run,
            today=plan.today,
            output=output,
            sending=sending,
            connection=connection,
        ),
        Terminal(),
        process_world(),
    )
    show_replay(
        done.ready, done.results, done.dry_run, done.connected, output.format.value, output.curl, done.partner_keys
    )
    raise typer.Exit(int(done.exit_code))


def explain(*, codes: list[str], output: OutputFormat) -> None:
    show_explanations(explain_codes(codes), output.value)


def errors(*, output: OutputFormat) -> None:
    show_error_table(error_table(), output.value)
