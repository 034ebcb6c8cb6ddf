"""The one way output reaches a terminal, a pipe or a file: plain text unless a terminal wants colour.

Apart from `render` so that commands which only read (history, calendar) need not import the sender.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable, Iterable, Sequence
from typing import IO, Any

from rich import box
from rich.cells import cell_len
from rich.console import Console, RenderableType
from rich.table import Column, Table
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
        width=None if terminal else piped_width(),
        soft_wrap=not terminal,  # a line of text in a pipe is one line; tables still keep to the width
    )


def piped_width() -> int:
    """The width tables keep to in a pipe or a file: COLUMNS when set, else 80, as Rich does without a terminal."""
    columns = os.environ.get("COLUMNS", "")
    return int(columns) if columns.isdigit() and int(columns) > 0 else 80


def styled_table(**options: Any) -> Table:
    """A table in the one look every table has, at a terminal or in a pipe: headers over a heavy rule, columns
    apart, no frame (no lines of blanks above and below it); the same lines in a pipe, without colour (`console`).
    Only the width decides between the table and blocks of rows (`fitted`)."""
    return Table(box=box.SIMPLE_HEAVY, pad_edge=False, show_edge=False, **options)


MIN_WRAP = 16  # the narrowest a column of wrapping text (`overflow="fold"`) gets before rows become blocks


def _width(cell: RenderableType) -> int:
    plain = cell.plain if isinstance(cell, Text) else str(cell)
    return max(map(cell_len, plain.split("\n")))


def _needed(column: Column) -> int:
    """The width a column needs: whole, or for text that may wrap (`overflow="fold"`) room to wrap in; never less
    than its `min_width`, which Rich gives it however short its cells."""
    whole = max([cell_len(str(column.header)), *map(_width, column.cells)])
    wraps = column.overflow == "fold" and not column.no_wrap
    return max(min(whole, column.min_width or MIN_WRAP) if wraps else whole, column.min_width or 0)


def _chrome(table: Table) -> int:
    """The columns `table` takes beside its cells: padding and dividers between them, and its edges."""
    _, right, _, left = table.padding
    between = (max(left, right) if table.collapse_padding else left + right) + (1 if table.box else 0)
    edges = (2 if table.box and table.show_edge else 0) + (left + right if table.pad_edge else 0)
    return between * (len(table.columns) - 1) + edges


def fits(table: Table, width: int) -> bool:
    """Whether every row of `table` fits `width` with nothing cut: each column whole, or wrapping where it may."""
    return sum(map(_needed, table.columns)) + _chrome(table) <= width


def fits_text(text: str, width: int) -> bool:
    """Whether lines already laid out (aligned columns) fit `width`: the same rule as `fits`, for text."""
    return max(map(cell_len, text.splitlines()), default=0) <= width


def blocks(headers: Sequence[str], rows: Iterable[Sequence[RenderableType]], out: Console) -> None:
    """Each row as a short block of `Header  value` lines, for a terminal too narrow for the rows as a table.

    A value wraps under itself at spaces; a word too long for the room beside the headers (a long file path, an
    id) is never cut: it gets a line of its own, as long as it is, for the terminal to wrap and a reader to copy.
    """
    label = max(map(cell_len, headers), default=0)
    room = max(1, out.width - label - 2)
    lines: list[Text] = []
    for number, row in enumerate(rows):
        if number:
            lines.append(Text())
        for header, cell in zip(headers, row, strict=True):
            value = cell if isinstance(cell, Text) else Text(str(cell))
            if not value.plain.strip():
                continue
            if max(map(cell_len, value.plain.split()), default=0) > room:
                lines.extend(_pieces(Text.assemble(header.ljust(label), "  ", value), out.width))
                continue
            lead = header.ljust(label) + "  "
            for paragraph in value.split("\n"):
                for piece in paragraph.divide(_breaks(paragraph.plain, room)):
                    piece.rstrip()
                    lines.append(Text.assemble(lead, piece))
                    lead = " " * (label + 2)
        if len(lines) >= _AT_ONCE:
            _print_lines(out, lines)
    _print_lines(out, lines)


# A `Console.print` costs about as much as laying out a line: a failed run's tables are 9,000 lines of blocks.
_AT_ONCE = 500


def _print_lines(out: Console, lines: list[Text]) -> None:
    """Lines printed in one call, as one print each would (Rich joins them with the newlines), then let go."""
    if lines:
        out.print(*lines, sep="\n", overflow="ignore", crop=False, soft_wrap=True)
        lines.clear()


def whole(out: Console, line: Text | str) -> None:
    """`line` (Text, or a string of markup) wrapped at spaces only, in a pipe too: a word longer than the width (a
    file path, an id) is printed whole on a line of its own, never cut. Rich either folds such a word or crops it.
    """
    text = line if isinstance(line, Text) else Text.from_markup(line)
    _print_lines(out, _pieces(text, out.width))


def _pieces(text: Text, width: int) -> list[Text]:
    """The lines `whole` prints `text` as."""
    pieces = []
    for paragraph in text.split("\n", allow_blank=True):
        for piece in paragraph.divide(_breaks(paragraph.plain, width)):
            piece.rstrip()
            pieces.append(piece)
    return pieces


def _breaks(plain: str, width: int) -> list[int]:
    """Where to start new lines so each is at most `width` wide, breaking only before a word."""
    breaks: list[int] = []
    start = 0
    for word in re.finditer(r"\S+", plain):
        if word.start() > start and cell_len(plain[start : word.end()]) > width:
            breaks.append(word.start())
            start = word.start()
    return breaks


def fitted(table: Table, out: Console, as_blocks: Callable[[], None] | None = None) -> None:
    """`table` when its rows fit the console's width (see `fits`), else each row as a block of `Header  value` lines
    (`as_blocks` when a view lays out its own). The one rule for every table, at a terminal or in a pipe.

    Rich would cut columns to `…` (a run number, a tracking id) to make a wide table fit a narrow terminal.
    """
    if fits(table, out.width):
        out.print(table)
    elif as_blocks is not None:
        as_blocks()
    else:
        headers = [str(column.header) for column in table.columns]
        blocks(headers, zip(*(column.cells for column in table.columns), strict=True), out)
