"""What a mistake on the command line is called: the parser's usage errors, in the tool's words.

Typer exports one class for them, `TyperException`, whose usage errors have exit code 2, and `BadParameter`
(a value or a missing parameter, with the parameter itself). What an unknown option resembles is only in the
message, which is read here; `tests/test_usage_words.py` fails when a Typer release words it differently.
"""

from __future__ import annotations

import re
from typing import Any

import typer


def is_usage_error(error: BaseException) -> bool:
    """A mistake on the command line found by the parser, which the contract answers with exit 2."""
    # A command called bare shows its help before the parser runs (cli/helptext.py): no error carries help.
    return isinstance(error, typer.TyperException) and error.exit_code == 2


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

# "No such option: --bach (Possible options: --batch)": what Typer says of an unknown option.
_NO_SUCH_OPTION = r"No such option: (?P<name>\S+)(?: \(Possible options: (?P<guesses>.*)\))?"


def _plain(message: str) -> str:
    for pattern, words in _NUMBER_WORDS:
        if re.fullmatch(pattern, message):
            return re.sub(pattern, words, message)
    return message


def _missing(param: Any) -> str:
    if param.param_type_name == "argument":
        return f"missing {(param.metavar or param.name or 'argument').strip('{}')}: give at least one"
    return f"missing option {' / '.join(param.opts)}"


def usage_message(error: typer.TyperException) -> str:
    """What was wrong on the command line, in the tool's words rather than the parser's."""
    said = error.format_message()
    unknown = re.fullmatch(_NO_SUCH_OPTION, said)
    if unknown is not None:
        guesses = unknown["guesses"]
        hint = f" (did you mean {' or '.join(guesses.split(', '))}?)" if guesses else ""
        return f"no such option: {unknown['name']}{hint}"
    if isinstance(error, typer.BadParameter) and error.param is not None:
        param = error.param
        if said.startswith("Missing "):
            return _missing(param)
        name = param.opts[0] if param.opts else (param.metavar or param.name or "value")
        # The parser words choices as a validation library does ("Value error, 'x' is not one of ...").
        message = error.message.removeprefix("Value error, ").rstrip(".")
        return f"{name}: {_plain(message)}"
    return said.rstrip(".")


def usage_line(error: typer.TyperException) -> str | None:
    """The usage line of the command the mistake was made in (`ari-cli threshold push [OPTIONS] FILE...`)."""
    ctx = getattr(error, "ctx", None)  # a usage error knows the command it was made in
    if ctx is None:
        return None
    pieces = " ".join(ctx.command.collect_usage_pieces(ctx)).replace("{", "").replace("}", "")
    return f"{ctx.command_path} {pieces}"
