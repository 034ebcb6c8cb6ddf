"""The one way output reaches a terminal, a pipe or a file: plain text unless a terminal wants colour.

Apart from `render` so that commands which only read (history, calendar) need not import the sender.
"""

from __future__ import annotations

import sys
from typing import IO

from rich.cells import cell_len
from rich.console import Console, RenderableType
from rich.table import Table
from rich.text import Text

from ari_cli.render.streams import colour_wanted


class _Console(Console):
    def on_broken_pipe(self) -> None:
        # Rich would end the process with exit 1; the boundary, or a push that still owes its report and its exit
        # code, decides what a reader going away means. Called while the error is handled: this re-raises it.
        self.quiet = True
        raise


def console(stderr: bool = False, file: IO[str] | None = None) -> Console:
    """A console that writes plain text when not on a terminal, unless colour is asked for (see `streams`)."""
    stream = file or (sys.stderr if stderr else sys.stdout)
    terminal = stream.isatty()
    colour = colour_wanted(terminal)
    return _Console(
        file=stream,
        stderr=stderr,
        highlight=False,
        emoji=False,  # a value or a file name such as `:smile:` is shown as written, not as 😄
        no_color=not colour,
        # Colour in a pipe (FORCE_COLOR, --color always) is colour only: no cursor moves, no progress bar.
        color_system=("auto" if terminal else "standard") if colour else None,
        force_terminal=terminal,
        width=None if terminal else 1000,  # files and pipes: never wrap a cell
        soft_wrap=not terminal,
    )


def _width(cell: RenderableType) -> int:
    plain = cell.plain if isinstance(cell, Text) else str(cell)
    return max(map(cell_len, plain.split("\n")))


def fitted(table: Table, out: Console) -> None:
    """`table` whole when every column fits the terminal whole, else each row as a block of `Header  value` lines.

    Rich would cut columns to `…` (a run number, a tracking id) to make a wide table fit a narrow terminal.
    """
    if out.is_terminal:
        widths = [max([cell_len(str(c.header)), *map(_width, c.cells)]) for c in table.columns]
        if sum(widths) + 3 * len(widths) > out.width:
            label = max(cell_len(str(c.header)) for c in table.columns)
            for number, row in enumerate(zip(*(c.cells for c in table.columns), strict=True)):
                if number:
                    out.print()
                for column, cell in zip(table.columns, row, strict=True):
                    if _width(cell):
                        heading = f"{column.header!s:<{label}}  "
                        out.print(
                            Text.assemble(heading, cell if isinstance(cell, Text) else str(cell)), overflow="fold"
                        )
            return
    out.print(table)
