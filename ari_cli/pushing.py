"""A push from its request to what is shown, as the push and send commands and `ari_cli.push()` both do it:
call the use case (`app/push.py`), and show its run through `render/push/outcome.py`.

Imports no Typer: the Python API loads it with its first push.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from ari_cli.app.push import Pushed, push
from ari_cli.exits import AriError, ExitCode, ReportRefused
from ari_cli.render.push.outcome import Shown, show_run, show_stopped

if TYPE_CHECKING:
    from ari_cli.app.listener import Listener
    from ari_cli.app.options import OutputOptions, PushRequest
    from ari_cli.app.world import World


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


def pushed_or_stopped(request: PushRequest, listener: Listener, world: World, err: Any, to_stdout: bool) -> Pushed:
    """The use case's run; when it stops before it has one, `--report` (and, if `to_stdout`, `--output json`)
    still gets its one document (with the error), and the exception goes on to say what went wrong.

    The commands leave stdout's document to the error boundary (cli/boundary.py), which writes one for every
    ending; `ari_cli.push(output="json")` has no boundary, and writes it here."""
    began = world.clock()
    try:
        return push(request, listener, world)
    except AriError as problem:
        writable = not isinstance(problem, ReportRefused)
        details = problem.details()
        _stopped(request, (problem.kind, problem.message, problem.hint), writable, to_stdout, err, began, details)
        raise
    except KeyboardInterrupt:
        _stopped(request, ("interrupted", "interrupted before anything was sent", None), True, to_stdout, err, began)
        raise


def _stopped(
    request: PushRequest,
    problem: tuple[str, str, str | None],
    writable: bool,
    to_stdout: bool,
    err: Any,
    began: dt.datetime,
    details: dict[str, Any] | None = None,
) -> None:
    how = replace(shown(request.output), files=tuple(str(f) for f in request.files), when=began)
    show_stopped(request.operation, request.dry_run, problem, how, writable, err, details, on_stdout=to_stdout)


def shown_pushed(pushed: Pushed, request: PushRequest) -> Shown:
    """How a pushed run is shown: the output options, and where it read from and sent to (an HTML report's header)."""
    how = shown(request.output, pushed.options.skip_invalid, request.rows is not None, pushed.connection is not None)
    connection = pushed.connection
    service = (None, None) if connection is None else (connection.base_url, connection.source_id)
    return replace(how, files=tuple(pushed.options.files), base_url=service[0], source_id=service[1],
                   before=pushed.before, when=pushed.started)  # fmt: skip


def show_pushed(pushed: Pushed, request: PushRequest, err: Any) -> ExitCode:
    """Show a run as the command does; its exit code."""
    return show_run(pushed.run, shown_pushed(pushed, request), pushed.invalid, pushed.number, err)
