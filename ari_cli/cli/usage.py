"""What a mistake on the command line is: Typer's usage errors, said in Typer's own words.

Typer exports one class for them, `TyperException`, whose usage errors have exit code 2. Its message (`No such
option: --bach (Possible options: --batch)`, `Invalid value for '--batch': ...`) and the usage line of the
command the mistake was made in are shown as Typer words them: nothing here reads or rewrites them. What follows
`Invalid value for '--batch':` is the tool's own, from the option's parser (cli/values.py).
"""

from __future__ import annotations

import typer


def is_usage_error(error: BaseException) -> bool:
    """A mistake on the command line found by the parser, which the contract answers with exit 2."""
    # A command called bare shows its help before the parser runs (cli/helptext.py): no error carries help.
    return isinstance(error, typer.TyperException) and error.exit_code == 2


def usage_message(error: typer.TyperException) -> str:
    """What was wrong on the command line, as Typer says it."""
    return error.format_message()


def usage_line(error: typer.TyperException) -> str | None:
    """Typer's usage line of the command the mistake was made in (`Usage: ari-cli threshold push [OPTIONS]
    {FILE}...`)."""
    ctx = getattr(error, "ctx", None)  # a usage error knows the command it was made in
    return None if ctx is None else str(ctx.get_usage())
