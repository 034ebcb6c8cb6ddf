"""The one way output reaches a terminal, a pipe or a file: plain text unless a terminal wants colour.

Apart from `render` so that commands which only read (history, calendar) need not import the sender.
"""

from __future__ import annotations

import sys
from typing import IO

from rich.console import Console

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
