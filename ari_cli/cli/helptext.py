"""How --help is shown: Typer wraps the prose to the terminal; the examples are shown whole, never wrapped.

A command's help holds its examples (and example files) after a `\\f` line: Typer shows what comes before it and,
as Click does, nothing after it. The classes here show that part after the options: headings wrapped, and each
indented line whole, so that it can be copied from a terminal of any width (a terminal too narrow folds a long
line on screen, not in the text).

They also show the help of a command called bare (`no_args_is_help`) themselves. Beside an option, help shows what
to write: its `metavar=` (every option that takes a value gives one, cli/values.py for choices and numbers), and
nothing beside a flag or an argument, whose name says it (`unlabelled`). Every command and group is registered
with one of them (`cls=`).
"""

from __future__ import annotations

import inspect
import textwrap
from typing import Any

import typer
from rich.console import Console
from rich.text import Text
from typer.core import TyperArgument, TyperCommand, TyperGroup

from ari_cli.cli.common import common_params
from ari_cli.cli.exitcodes import exit_codes_line

# A bare call that shows help is still not a command that ran: exit 2, as Typer (and Click) have it.
BARE_CALL_EXIT = 2

EXAMPLES_MARK = "\f"


def examples_of(help_text: str | None) -> list[str]:
    """The lines after the examples mark of a command's help, without the blank ones at either end."""
    _, _, examples = inspect.cleandoc(help_text or "").partition(EXAMPLES_MARK)
    return examples.strip("\n").splitlines()


def _show_examples(help_text: str | None, path: str) -> None:
    # Rich's own defaults, as Typer's help console has them: the width of the terminal (or COLUMNS, or 80),
    # colour at a terminal unless NO_COLOR.
    out = Console(highlight=False, emoji=False)
    # Wrapped as Typer wraps the prose, one space in.
    out.print(textwrap.fill(exit_codes_line(path), width=out.width - 1, initial_indent=" ", subsequent_indent=" "))
    lines = examples_of(help_text)
    if not lines:
        return
    out.print()
    for line in lines:
        # One space in, as Typer indents the prose. An example line (indented) is left whole whatever the
        # width (`soft_wrap`); a heading wraps as prose does.
        out.print(Text.from_markup(f" {line}") if line.strip() else "", soft_wrap=line.startswith("  "))


def _no_label(ctx: Any) -> None:
    return None


def unlabelled(params: list[Any]) -> list[Any]:
    """The parameters, shown in help without a Python type beside them (`<bool>`, `<list[Path]>`)."""
    for param in params:
        if isinstance(param, TyperArgument):
            # Typer labels an argument with its type whatever its metavar, and offers no way to say otherwise:
            # this argument's label alone (an attribute of the object, not of Typer's class) is left out. Its
            # name (FILE) and its help say what to give.
            param.display_type_rich = _no_label  # type: ignore[method-assign]  # this object only
        elif param.is_flag and param.metavar is None:
            param.metavar = ""  # a flag takes no value: nothing to write after it
    return params


def _bare_call_help(command: Any, ctx: Any, args: list[str]) -> None:
    """Show the help of a command called without arguments, when it was registered to (`no_args_is_help`)."""
    # Typer raises an error that carries the help instead, telling it from a usage error by a class it does
    # not export; showing the help here leaves one kind of error with exit code 2: the usage error.
    if not args and command.no_args_is_help and not ctx.resilient_parsing:
        typer.echo(ctx.get_help(), nl=False)
        ctx.exit(BARE_CALL_EXIT)


class _HelpShown:
    """What our commands and groups show as help: examples whole, help when called bare."""

    help: str | None
    no_args_is_help: bool

    def format_help(self, ctx: Any, formatter: Any) -> None:
        super().format_help(ctx, formatter)  # type: ignore[misc]
        # The command's path after the program's name: `ari-cli threshold push` -> `threshold push`.
        _show_examples(self.help, " ".join(ctx.command_path.split()[1:]))

    def get_params(self, ctx: Any) -> list[Any]:
        own: list[Any] = unlabelled(super().get_params(ctx))  # type: ignore[misc]
        if any(param.name == "color" for param in own):
            return own  # the root declares them itself
        # After the command's own options, before --help (which Click puts last).
        return [*own[:-1], *common_params(), *own[-1:]]

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        _bare_call_help(self, ctx, args)
        return super().parse_args(ctx, args)  # type: ignore[misc, no-any-return]


class HelpCommand(_HelpShown, TyperCommand):
    """A command whose help is shown as `_HelpShown` says."""


class HelpGroup(_HelpShown, TyperGroup):
    """A group whose help is shown as `_HelpShown` says."""
