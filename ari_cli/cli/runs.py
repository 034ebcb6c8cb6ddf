"""The push, send and retry commands from their request to the exit code: call the use case, show its result.

The steps `ari_cli.push()` shares with them are `ari_cli/pushing.py`'s; this module adds the command's error
document (cli/boundary.py writes it under `--output json`).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from ari_cli.cli.boundary import Maker, error_documents
from ari_cli.cli.world import process_world
from ari_cli.exits import ExitCode
from ari_cli.pushing import pushed_or_stopped, show_pushed, shown
from ari_cli.render.push.outcome import show_empty, show_run
from ari_cli.render.push.report import error_document
from ari_cli.render.terminal import Terminal

if TYPE_CHECKING:
    from ari_cli.app.options import PushRequest, RetryRequest


def stopped_document(request: PushRequest) -> Maker:
    """A push's document of an error: its run, with no rows."""
    return lambda kind, message, hint: error_document(request.operation, request.dry_run, kind, message, hint)


def push_and_show(request: PushRequest) -> ExitCode:
    """Run one push (or send) command end to end; the contract's exit code."""
    error_documents(stopped_document(request), request.output.format)
    terminal = Terminal()
    pushed = pushed_or_stopped(request, terminal, process_world(), terminal.err, to_stdout=False)
    return show_pushed(pushed, request, terminal.err)


def retry_and_show(request: RetryRequest) -> ExitCode:
    """Re-send what a run left and show it as a push; a run with nothing left shows an empty run."""
    from ari_cli.app.retry import retry

    terminal = Terminal()
    retried = retry(request, terminal, process_world())
    if retried.run is None:
        show_empty(retried.operation, request.dry_run, shown(request.output), terminal.err, retried.refused)
        # Nothing sent, but rows refused for their own data are not done: cron hears so.
        return ExitCode.OK if retried.refused is None else ExitCode.FAILED
    how = shown(request.output, connected=retried.connected)
    if retried.service is not None:
        how = replace(how, base_url=retried.service[0], source_id=retried.service[1])
    return show_run(retried.run, how, False, retried.number, terminal.err)
