"""The push and send commands from their request to the exit code: call the use case, show its result.

The steps `ari_cli.push()` shares with them are `ari_cli/pushing.py`'s; this module adds the command's error
document (cli/boundary.py writes it under `--output json`).
"""

from __future__ import annotations

from ari_cli.app.options import PushRequest as PushRequest  # the requests its commands build
from ari_cli.cli.boundary import Maker, error_documents
from ari_cli.cli.world import process_world
from ari_cli.exits import ExitCode
from ari_cli.pushing import pushed_or_stopped, show_pushed
from ari_cli.render.push.report import error_document
from ari_cli.render.terminal import Terminal


def stopped_document(request: PushRequest) -> Maker:
    """A push's document of an error: its run, with no rows."""
    return lambda kind, message, hint: error_document(request.operation, request.dry_run, kind, message, hint)


def push_and_show(request: PushRequest) -> ExitCode:
    """Run one push (or send) command end to end; the contract's exit code."""
    error_documents(stopped_document(request), request.output.format)
    terminal = Terminal()
    pushed = pushed_or_stopped(request, terminal, process_world(), terminal.err, to_stdout=False)
    return show_pushed(pushed, request, terminal.err)
