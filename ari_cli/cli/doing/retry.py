"""What `retry` does once its options are parsed (the command is declared in cli/retry.py): re-send what a run
left and show it as a push."""

from __future__ import annotations

from dataclasses import replace

from ari_cli.app.history import run_named
from ari_cli.app.options import ConnectionOptions, OutputOptions, RetryRequest, SendTuning
from ari_cli.app.retry import retry
from ari_cli.cli.world import process_world
from ari_cli.exits import ExitCode
from ari_cli.pushing import shown
from ari_cli.render.push.outcome import show_empty, show_run
from ari_cli.render.terminal import Terminal


def retry_command(
    *,
    run: str,
    command: str,
    dry_run: bool,
    output: OutputOptions,
    sending: SendTuning,
    connection: ConnectionOptions,
    force: bool,
) -> ExitCode:
    request = RetryRequest(
        run=run_named(run),
        command=command,
        dry_run=dry_run,
        output=output,
        sending=sending,
        connection=connection,
        force=force,
    )
    return retry_and_show(request)


def retry_and_show(request: RetryRequest) -> ExitCode:
    """Re-send what a run left and show it as a push; a run with nothing left shows an empty run."""
    terminal = Terminal()
    world = process_world()
    began = world.clock()
    retried = retry(request, terminal, world)
    if retried.run is None:
        show_empty(retried.operation, request.dry_run, shown(request.output), terminal.err, retried.refused)
        # Nothing sent, but rows refused for their own data are not done: cron hears so.
        return ExitCode.OK if retried.refused is None else ExitCode.FAILED
    what = f"a dry run of a retry of run {request.run}" if request.dry_run else f"a retry of run {request.run}"
    how = replace(shown(request.output, connected=retried.connected), files=retried.files, when=began, what=what)
    if retried.service is not None:
        how = replace(how, base_url=retried.service[0], source_id=retried.service[1])
    return show_run(retried.run, how, False, retried.number, terminal.err)
