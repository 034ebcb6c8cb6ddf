"""The one module that reaches past Typer's public API, each reach with the reason no public route exists.

Typer 0.29 vendors Click as the private `typer._click` and exposes only `TyperException` (with `exit_code`),
`BadParameter`, `Exit` and `Abort` of its exceptions. Two things the contract asks for need more:

- usage errors in the tool's words (issue 18, point 6): which option was unknown and what it resembles, which
  argument or option is missing, the usage line. Only the vendored exceptions carry these; Typer itself tells a
  help request (`no_args_is_help`) from a usage error by class name.
- help without Python types (`<bool>`, `<list[Path]>`): `metavar=` hides an option's type, but an argument's
  type and those of the options Typer adds itself (`--help`, the completion options) are shown by
  `display_type_rich`, which no setting reaches.
- `--show-completion SHELL` (the contract): Typer's `--show-completion` is a flag for the shell it detects, and
  the function that makes a named shell's script has no public name (`typer.completion` imports it without
  exporting it). The root finds the shell named (`cli/__init__.py`) and shows that script through this module.

tests/test_typer_internals.py fails, naming the reach, when a Typer release changes any of them.
"""

from __future__ import annotations

import re
from typing import Any

import typer
from typer._click.exceptions import MissingParameter, NoArgsIsHelpError, NoSuchOption, UsageError
from typer._completion_shared import get_completion_script
from typer.core import TyperArgument, TyperOption


def is_help_request(error: BaseException) -> bool:
    """A command that shows its help when called bare (`no_args_is_help`): Typer prints it; not an error."""
    return isinstance(error, NoArgsIsHelpError)


def is_usage_error(error: BaseException) -> bool:
    """A mistake on the command line found by the parser, which the contract answers with exit 2."""
    return isinstance(error, UsageError) and not is_help_request(error)


# The parser judges numbers in a validation library's words; these say the same in ours. Compiled by `re` when
# first used: only a usage error needs them, and every start loads this module.
_NUMBER_WORDS = (
    (r"Input should be a valid integer.*", "give a whole number"),
    (r"Input should be a valid number.*", "give a number"),
    (r"Input should be greater than or equal to (\S+)", r"must be at least \1"),
    (r"Input should be greater than (\S+)", r"must be more than \1"),
    (r"Input should be less than or equal to (\S+)", r"must be at most \1"),
    (r"Input should be less than (\S+)", r"must be less than \1"),
)


def _plain(message: str) -> str:
    for pattern, words in _NUMBER_WORDS:
        if re.fullmatch(pattern, message):
            return re.sub(pattern, words, message)
    return message


def usage_message(error: typer.TyperException) -> str:
    """What was wrong on the command line, in the tool's words rather than the parser's."""
    if isinstance(error, NoSuchOption):
        guesses = sorted(error.possibilities or ())
        return f"no such option: {error.option_name}" + (f" (did you mean {' or '.join(guesses)}?)" if guesses else "")
    if isinstance(error, MissingParameter) and error.param is not None:
        param = error.param
        if param.param_type_name == "argument":
            return f"missing {(param.metavar or param.name or 'argument').strip('{}')}: give at least one"
        return f"missing option {' / '.join(param.opts)}"
    if isinstance(error, typer.BadParameter) and error.param is not None:
        param = error.param
        name = param.opts[0] if param.opts else (param.metavar or param.name or "value")
        # The parser words choices as a validation library does ("Value error, 'x' is not one of ...").
        message = error.message.removeprefix("Value error, ").rstrip(".")
        return f"{name}: {_plain(message)}"
    return error.format_message().rstrip(".")


def usage_line(error: typer.TyperException) -> str | None:
    """The usage line of the command the mistake was made in (`ari-cli threshold push [OPTIONS] FILE...`)."""
    ctx = getattr(error, "ctx", None)
    if ctx is None:
        return None
    pieces = " ".join(ctx.command.collect_usage_pieces(ctx)).replace("{", "").replace("}", "")
    return f"{ctx.command_path} {pieces}"


def _shown_type(param: Any, ctx: Any) -> str | None:
    """What --help shows beside an option: its metavar or its choices, never a Python type (`<bool>`, `<int>`)."""
    if param.param_type_name == "argument" or getattr(param, "is_flag", False):
        return None  # an argument's name is shown already; a flag takes no value
    if param.metavar is not None:
        return str(param.metavar)
    if param.type_descriptor.is_choice:
        shown = param.display_type(ctx)
        return str(shown).strip("<>") if shown else None
    return str(param.name).upper()


def hide_python_types_in_help() -> None:
    """Make --help show metavars and choices where Typer shows Python types."""
    # Typer builds its parameter classes itself: the way to change how they are shown is their method.
    setattr(TyperOption, "display_type_rich", _shown_type)  # noqa: B010
    setattr(TyperArgument, "display_type_rich", _shown_type)  # noqa: B010


SHELLS = ("bash", "zsh", "fish", "powershell", "pwsh")


def completion_script(prog_name: str, shell: str) -> str:
    """SHELL's completion script, as Typer's `--show-completion` and `--install-completion` make it."""
    complete_var = "_{}_COMPLETE".format(prog_name.replace("-", "_").upper())
    return get_completion_script(prog_name=prog_name, complete_var=complete_var, shell=shell)
