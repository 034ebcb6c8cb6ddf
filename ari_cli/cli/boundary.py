"""The single place where exceptions become exit codes and friendly messages."""

import os
import sys
import traceback
from collections.abc import Callable
from typing import TypeVar

import typer

from ari_cli.cli.signals import owned
from ari_cli.cli.usage import is_usage_error, usage_line, usage_message
from ari_cli.config.secrets import scrub
from ari_cli.exits import AriError, ExitCode, Interrupted, UsageProblem
from ari_cli.render.printable import printable
from ari_cli.render.streams import discard, guarded_streams, stdout_failure

T = TypeVar("T")

TRACEBACK_ENV = "ARI_TRACEBACK"


def _say(message: str) -> None:
    from rich.console import Console
    from rich.markup import escape

    # Messages quote input values and service answers: no control character of theirs reaches the terminal.
    Console(stderr=True, highlight=False, soft_wrap=True, emoji=False).print(escape(printable(scrub(message))))


def _leaf(error: Exception) -> Exception:
    """The one exception inside task-group wrappers, which would otherwise hide what went wrong."""
    while isinstance(error, ExceptionGroup) and len(error.exceptions) == 1:
        error = error.exceptions[0]
    return error


def usage_error(error: typer.TyperException) -> typer.Exit:
    """One `error:` line and the usage line, plain text whatever the terminal; the exit to raise."""
    _say(f"error: {usage_message(error)}")
    usage = usage_line(error)
    if usage is not None:
        _say(f"usage: {usage}   (-h for help)")
    return typer.Exit(int(ExitCode.USAGE))


def guarded(call: Callable[[], T]) -> T:
    """Run a command; map our errors, interrupts and surprises onto exit codes."""
    with guarded_streams(), owned():
        return _guarded(call)


def _guarded(call: Callable[[], T]) -> T:
    try:
        if sys.stdout is None:
            # Started with stdout closed (`>&-`): refused before anything is read or sent.
            raise UsageProblem(
                "standard output is closed: there is nowhere to show the results",
                "send it to a file or to /dev/null (`> results.txt`)",
            )
        return call()
    except typer.TyperException as error:
        if is_usage_error(error):
            raise usage_error(error) from None
        raise
    except (typer.Exit, typer.Abort):
        raise
    except AriError as problem:
        # An interrupt is the user's own doing, not an error.
        _say(problem.message if isinstance(problem, Interrupted) else f"error: {problem.message}")
        if problem.hint:
            _say(f"hint: {problem.hint}")
        raise typer.Exit(int(problem.exit_code)) from None
    except BrokenPipeError:
        # The reader went away (`| head`): nothing more can be shown, and that is not an error of ours.
        discard(sys.stdout)
        raise typer.Exit(int(ExitCode.PIPE_CLOSED)) from None
    except OSError as problem:
        if stdout_failure(problem) is None:
            raise
        # A write to stdout failed (a full disk, a bad descriptor): said plainly, not as a bug.
        discard(sys.stdout)
        _say(f"error: cannot write to standard output: {problem.strerror or problem}")
        raise typer.Exit(int(ExitCode.FAILED)) from None
    except KeyboardInterrupt:
        _say("interrupted")
        raise typer.Exit(int(ExitCode.INTERRUPTED)) from None
    except Exception as surprise:
        leaf = _leaf(surprise)
        if isinstance(leaf, AriError):
            _say(f"error: {leaf.message}")
            if leaf.hint:
                _say(f"hint: {leaf.hint}")
            raise typer.Exit(int(leaf.exit_code)) from None
        if os.environ.get(TRACEBACK_ENV):
            _say("".join(traceback.format_exception(surprise)))
        _say(f"error: internal error: {type(leaf).__name__}: {leaf}")
        _say(f"hint: this is a bug in ari-cli; set {TRACEBACK_ENV}=1 to see the traceback and report it")
        raise typer.Exit(int(ExitCode.FAILED)) from None
