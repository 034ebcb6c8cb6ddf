"""A push (or send) run from the options to the exit code: call the use case, show its result.

The push and send commands and `ari_cli.push(output=...)` come through `push_and_show`; it imports no Typer,
so the Python API uses it as the commands do.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ari_cli.app.push import Pushed, push
from ari_cli.exits import AriError, ExitCode, ReportRefused
from ari_cli.render.outcome import Shown, show_empty, show_run, show_stopped
from ari_cli.render.terminal import Terminal

if TYPE_CHECKING:
    from ari_cli.app.listener import Listener
    from ari_cli.app.options import OutputOptions, PushRequest, RetryRequest


def shown(output: OutputOptions, skip_invalid: bool = False, send: bool = False, connected: bool = True) -> Shown:
    """How a run is shown, from the output options."""
    return Shown(
        form=output.format.value,
        report=output.report,
        show_all=None if output.show is None else output.show.value == "all",
        curl=output.curl,
        quiet=output.quiet,
        verbose=output.verbose,
        connected=connected,
        skip_invalid=skip_invalid,
        send=send,
    )


def pushed_or_stopped(request: PushRequest, listener: Listener, err: Any) -> Pushed:
    """The use case's run; when it stops before it has one, `--output json` and `--report` still get their one
    document (with the error), and the exception goes on to say what went wrong."""
    try:
        return push(request, listener)
    except AriError as problem:
        _stopped(request, problem.kind, problem.message, problem.hint, not isinstance(problem, ReportRefused), err)
        raise
    except KeyboardInterrupt:
        _stopped(request, "interrupted", "interrupted before anything was sent", None, True, err)
        raise


def _stopped(request: PushRequest, kind: str, message: str, hint: str | None, writable: bool, err: Any) -> None:
    show_stopped(request.operation, request.dry_run, (kind, message, hint), shown(request.output), writable, err)


def show_pushed(pushed: Pushed, request: PushRequest, err: Any) -> ExitCode:
    """Show a run as the command does; its exit code."""
    how = shown(request.output, pushed.options.skip_invalid, request.rows is not None, pushed.connection is not None)
    return show_run(pushed.run, how, pushed.invalid, pushed.number, err)


def push_and_show(request: PushRequest) -> ExitCode:
    """Run one push (or send) command end to end; the contract's exit code."""
    terminal = Terminal()
    pushed = pushed_or_stopped(request, terminal, terminal.err)
    return show_pushed(pushed, request, terminal.err)


def retry_and_show(request: RetryRequest) -> ExitCode:
    """Re-send what a run left and show it as a push; a run with nothing left shows an empty run."""
    from ari_cli.app.retry import retry

    terminal = Terminal()
    retried = retry(request, terminal)
    if retried.run is None:
        show_empty(retried.operation, request.dry_run, shown(request.output), terminal.err)
        return ExitCode.OK
    return show_run(
        retried.run, shown(request.output, connected=retried.connected), False, retried.number, terminal.err
    )
