"""The command line's listener: a use case's notices, progress and questions on standard error.

It has the shape of `app/listener.py`'s `Listener` without importing it (render/ imports nothing of app/).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING

import typer
from rich.console import Console

from ari_cli.config.secrets import scrub
from ari_cli.render.changes import diff as render_diff
from ari_cli.render.printable import printable
from ari_cli.render.push import run as render
from ari_cli.render.push.reading import sign_of_life

if TYPE_CHECKING:
    from ari_cli.inputs.model import ReadMeter
    from ari_cli.planning.diff import DiffView
    from ari_cli.send.exchange import Trace


class Terminal:
    """Notices, the sign of life, the progress bar and the `--verbose` trace on `err`."""

    def __init__(self, err: Console | None = None, *, quiet: bool = False) -> None:
        self.err = render.console(stderr=True) if err is None else err
        self.quiet = quiet  # `-q`: warnings still, notes (`say`) not

    @classmethod
    def silent(cls) -> Terminal:
        """One that says nothing: `ari_cli.push()` without `output=`."""
        return cls(Console(quiet=True))

    def notices(self, messages: Sequence[str], label: str = "warning") -> None:
        render.notices(list(messages), self.err, label)

    def say(self, line: str) -> None:
        if self.quiet:
            return
        # Lines quote settings and service answers: no key, and no control character of theirs, reaches the terminal.
        self.err.print(printable(scrub(line)), markup=False)

    def reading(self, meter: ReadMeter, enabled: bool) -> AbstractContextManager[None]:
        return sign_of_life(meter, self.err, enabled=enabled)

    def progress(self, total: int, enabled: bool) -> AbstractContextManager[Callable[[int], None]]:
        return render.progress(total, self.err, enabled)

    def trace(self, trace: Trace) -> None:
        render.trace(trace, self.err)

    def preview(self, view: DiffView, limit: int, title: str | None = None) -> None:
        if title is not None:
            self.err.print(title, markup=False)
        render_diff.table(view, self.err, limit=limit)

    def ask(self, question: str) -> bool:
        try:
            return typer.confirm(question, default=False, err=True)
        except typer.Abort:  # end of input at the question
            return False
