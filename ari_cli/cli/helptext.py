"""How --help is shown: Typer wraps the prose to the terminal; the examples are shown whole, never wrapped.

A command's help holds its examples (and example files) after a `\\f` line: Typer shows what comes before it and,
as Click does, nothing after it. The classes here show that part after the options: headings wrapped, and each
indented line whole, so that it can be copied from a terminal of any width (a terminal too narrow folds a long
line on screen, not in the text).
Every command and group is registered with one of them (`cls=`).
"""

from __future__ import annotations

import inspect
from typing import Any

from typer.core import TyperCommand, TyperGroup

EXAMPLES_MARK = "\f"


def examples_of(help_text: str | None) -> list[str]:
    """The lines after the examples mark of a command's help, without the blank ones at either end."""
    _, _, examples = inspect.cleandoc(help_text or "").partition(EXAMPLES_MARK)
    return examples.strip("\n").splitlines()


def _show_examples(help_text: str | None) -> None:
    lines = examples_of(help_text)
    if not lines:
        return
    # Only --help gets here: Rich loads for it alone.
    from rich.console import Console
    from rich.text import Text

    # Rich's own defaults, as Typer's help console has them: the width of the terminal (or COLUMNS, or 80),
    # colour at a terminal unless NO_COLOR.
    out = Console(highlight=False, emoji=False)
    out.print()
    for line in lines:
        # One space in, as Typer indents the prose. An example line (indented) is left whole whatever the
        # width (`soft_wrap`); a heading wraps as prose does.
        out.print(Text.from_markup(f" {line}") if line.strip() else "", soft_wrap=line.startswith("  "))


class HelpCommand(TyperCommand):
    """A command whose --help shows its examples whole."""

    def format_help(self, ctx: Any, formatter: Any) -> None:
        super().format_help(ctx, formatter)
        _show_examples(self.help)


class HelpGroup(TyperGroup):
    """A group whose --help shows its examples whole."""

    def format_help(self, ctx: Any, formatter: Any) -> None:
        super().format_help(ctx, formatter)
        _show_examples(self.help)
