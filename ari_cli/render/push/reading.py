"""A sign of life while the input is read: after a second, rows and bytes read on stderr, in place.

A thread of its own watches the reader's meter and draws; the read loop only sets the meter's numbers,
a block at a time, so reading costs the same whether anyone watches or not.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import PurePath

from rich.console import Console
from rich.filesize import decimal
from rich.text import Text

from ari_cli.inputs.model import ReadMeter
from ari_cli.render.printable import printable

QUIET_FOR = 1.0
"""Seconds of reading before anything is shown: a quick read stays silent."""
_EVERY = 0.2


def said(meter: ReadMeter) -> str:
    """`reading rates.csv: 120,000 rows, 4.1 MB of 12.0 MB`, from what the meter holds now (the file's name
    without its folder: the line must fit)."""
    source, rows, done, size = meter.source, meter.rows, meter.done, meter.size
    if not source:
        return "reading…"
    parts = [f"{rows:,} rows"] if rows else []
    if done and size:
        parts.append(f"{decimal(done)} of {decimal(size)}")
    elif done:
        parts.append(decimal(done))
    # A file name is outside text: it must not drive the terminal.
    shown = printable(PurePath(source).name or source).replace("\n", "\\n")
    return f"reading {shown}" + (f": {', '.join(parts)}" if parts else "…")


def _line(meter: ReadMeter) -> Text:
    # Text, not markup: a file name such as `[b]` is shown as written; one line, cut rather than wrapped.
    return Text(said(meter), no_wrap=True, overflow="ellipsis")


@contextmanager
def sign_of_life(meter: ReadMeter, err: Console, enabled: bool, after: float = QUIET_FOR) -> Iterator[None]:
    """While the block runs, and once it has run `after` seconds, what `meter` says on `err`, updated in
    place and cleared at the end; only when `err` is a terminal that can redraw a line."""
    if not enabled or not err.is_terminal or err.is_dumb_terminal:
        yield
        return
    finished = threading.Event()

    def watch() -> None:
        if finished.wait(after):
            return
        with err.status(_line(meter), spinner="dots") as status:
            while not finished.wait(_EVERY):
                status.update(_line(meter))

    watcher = threading.Thread(target=watch, name="ari-cli-reading", daemon=True)
    watcher.start()
    try:
        yield
    finally:
        finished.set()
        watcher.join()
