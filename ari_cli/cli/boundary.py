"""The single place where exceptions become exit codes and friendly messages, and, under `--output json`,
the one JSON document every ending owes standard output (`{"error": {"kind", "message", "hint"}}`, or the
command's own shape of a stopped run, which it names with `error_documents`)."""

import json
import os
import sys
import traceback
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import typer
from rich.console import Console
from rich.markup import escape

from ari_cli.cli.signals import owned
from ari_cli.cli.usage import is_usage_error, usage_line, usage_message
from ari_cli.config.secrets import scrub
from ari_cli.exits import AriError, ExitCode, Interrupted, UsageProblem
from ari_cli.render.printable import printable
from ari_cli.render.streams import discard, guarded_streams, stdout_failure

T = TypeVar("T")

TRACEBACK_ENV = "ARI_TRACEBACK"

# What a document of an error holds: (kind, message, hint) -> the document.
Maker = Callable[[str, str, str | None], dict[str, Any]]


class _Ending:
    """This invocation's words (to see `--output json` before any option is parsed) and the command's shape of
    its error document, when it has one of its own."""

    args: Sequence[str] = ()
    maker: Maker | None = None


_ending = _Ending()


def started(args: Sequence[str]) -> None:
    """A new invocation of the root command, with its words."""
    _ending.args, _ending.maker = tuple(args), None


def error_documents(maker: Maker, form: str) -> None:
    """The running command's document of an error (a push's: its run with no rows), if its output (`form`) is
    JSON: the command hands it over with its format, as it hands over its result."""
    if _is_json(form):
        _ending.maker = maker


def _is_json(form: str | None) -> bool:
    """Whether an `--output` asks for JSON, and so for a document of every ending: said once, here."""
    return form == "json"


def plain_document(kind: str, message: str, hint: str | None) -> dict[str, Any]:
    return {"error": {"kind": kind, "message": scrub(message), "hint": None if hint is None else scrub(hint)}}


def _asks_json(args: Sequence[str]) -> bool:
    """`--output json` (or `-o json`, `--output=json`, `-ojson`) is the last `--output` given before `--`."""
    value: str | None = None
    words = iter(args)
    for word in words:
        if word == "--":
            break
        if word in ("--output", "-o"):
            value = next(words, None)
        elif word.startswith("--output="):
            value = word.removeprefix("--output=")
        elif word.startswith("-o") and not word.startswith("--"):
            value = word[2:]
    return _is_json(value)


def _document(kind: str, message: str, hint: str | None, details: dict[str, Any] | None = None) -> None:
    """Under `--output json`, the error's one document on stdout (`details` beside its kind, message and hint); a
    stdout that cannot take it is left be."""
    if not _asks_json(_ending.args) and _ending.maker is None:
        return
    document = (_ending.maker or plain_document)(kind, message, hint)
    document["error"].update(details or {})
    try:
        indent = 2 if sys.stdout.isatty() else None
        sys.stdout.write(json.dumps(document, ensure_ascii=False, indent=indent) + "\n")
        sys.stdout.flush()
    except (OSError, ValueError):
        discard(sys.stdout)


def _say(message: str) -> None:

    # Messages quote input values and service answers: no control character of theirs reaches the terminal.
    Console(stderr=True, highlight=False, soft_wrap=True, emoji=False).print(escape(printable(scrub(message))))


def _leaf(error: Exception) -> Exception:
    """The one exception inside task-group wrappers, which would otherwise hide what went wrong."""
    while isinstance(error, ExceptionGroup) and len(error.exceptions) == 1:
        error = error.exceptions[0]
    return error


def usage_error(error: typer.TyperException) -> typer.Exit:
    """One `error:` line and the usage line, plain text whatever the terminal, and the document under `--output
    json` (unless `--output` itself was the mistake: then no one knows what was asked); the exit to raise."""
    message = usage_message(error)
    _say(f"error: {message}")
    usage = usage_line(error)
    if usage is not None:
        _say(f"{usage}   (-h for help)")
    param = getattr(error, "param", None)
    if "--output" not in (getattr(param, "opts", None) or ()):
        _document("usage", message, usage)
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
        _document(problem.kind, problem.message, problem.hint, problem.details())
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
        _document("interrupted", "interrupted before anything was sent", None)
        raise typer.Exit(int(ExitCode.INTERRUPTED)) from None
    except Exception as surprise:
        leaf = _leaf(surprise)
        if isinstance(leaf, AriError):
            _say(f"error: {leaf.message}")
            if leaf.hint:
                _say(f"hint: {leaf.hint}")
            _document(leaf.kind, leaf.message, leaf.hint, leaf.details())
            raise typer.Exit(int(leaf.exit_code)) from None
        if os.environ.get(TRACEBACK_ENV):
            _say("".join(traceback.format_exception(surprise)))
        message = f"internal error: {type(leaf).__name__}: {leaf}"
        hint = f"this is a bug in ari-cli; set {TRACEBACK_ENV}=1 to see the traceback and report it"
        _say(f"error: {message}")
        _say(f"hint: {hint}")
        _document("internal", message, hint)
        raise typer.Exit(int(ExitCode.FAILED)) from None
