"""The single place where exceptions become exit codes and friendly messages."""

import os
import re
import sys
import traceback
from collections.abc import Callable
from typing import TypeVar

import typer
from typer._click.exceptions import BadParameter, MissingParameter, NoArgsIsHelpError, NoSuchOption, UsageError

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


# The parser judges numbers in a validation library's words; these say the same in ours.
_NUMBER_WORDS = (
    (re.compile(r"Input should be a valid integer.*"), "give a whole number"),
    (re.compile(r"Input should be a valid number.*"), "give a number"),
    (re.compile(r"Input should be greater than or equal to (\S+)"), r"must be at least \1"),
    (re.compile(r"Input should be greater than (\S+)"), r"must be more than \1"),
    (re.compile(r"Input should be less than or equal to (\S+)"), r"must be at most \1"),
    (re.compile(r"Input should be less than (\S+)"), r"must be less than \1"),
)


def _plain(message: str) -> str:
    for pattern, words in _NUMBER_WORDS:
        if pattern.fullmatch(message):
            return pattern.sub(words, message)
    return message


def _usage_message(error: UsageError) -> str:
    """What was wrong on the command line, in the tool's words rather than the parser's."""
    if isinstance(error, NoSuchOption):
        guesses = sorted(error.possibilities or ())
        return f"no such option: {error.option_name}" + (f" (did you mean {' or '.join(guesses)}?)" if guesses else "")
    if isinstance(error, MissingParameter) and error.param is not None:
        param = error.param
        if param.param_type_name == "argument":
            return f"missing {(param.metavar or param.name or 'argument').strip('{}')}: give at least one"
        return f"missing option {' / '.join(param.opts)}"
    if isinstance(error, BadParameter) and error.param is not None:
        param = error.param
        name = param.opts[0] if param.opts else (param.metavar or param.name or "value")
        # The parser words choices as a validation library does ("Value error, 'x' is not one of ...").
        message = error.message.removeprefix("Value error, ").rstrip(".")
        return f"{name}: {_plain(message)}"
    return error.format_message().rstrip(".")


def usage_error(error: UsageError) -> typer.Exit:
    """One `error:` line and the usage line, plain text whatever the terminal; the exit to raise."""
    _say(f"error: {_usage_message(error)}")
    ctx = error.ctx
    if ctx is not None:
        pieces = " ".join(ctx.command.collect_usage_pieces(ctx)).replace("{", "").replace("}", "")
        _say(f"usage: {ctx.command_path} {pieces}   (-h for help)")
    return typer.Exit(int(ExitCode.USAGE))


def guarded(call: Callable[[], T]) -> T:
    """Run a command; map our errors, interrupts and surprises onto exit codes."""
    with guarded_streams():
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
    except NoArgsIsHelpError:
        raise
    except UsageError as error:
        raise usage_error(error) from None
    except (typer.Exit, typer.Abort, typer.TyperException):
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
