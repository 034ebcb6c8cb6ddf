"""What a use case tells while it works: the one door from `app/` to the person watching.

A use case returns its result; what it says on the way (warnings, notes, a progress bar, the sign of life
while reading, the `--verbose` trace, a question) goes through a `Listener` it is given. The command line
gives one that writes to standard error (`render/terminal.py`); `ari_cli.push()` one that is silent
unless `output=` asks. This module imports nothing heavy: every use case names it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from ari_cli.inputs.model import ReadMeter
    from ari_cli.planning.diff import DiffView
    from ari_cli.send.exchange import Trace


class Listener(Protocol):
    """Who hears a use case's progress and notices (render/terminal.py's `Terminal` is the CLI's)."""

    def notices(self, messages: Sequence[str], label: str = "warning") -> None:
        """Warnings (or notes, errors) about the settings or the data, one per line."""

    def say(self, line: str) -> None:
        """A plain line for the person: where a run goes, what was left out, what to do next."""

    def reading(self, meter: ReadMeter, enabled: bool) -> AbstractContextManager[None]:
        """The sign of life while files are read, drawn from what `meter` holds."""

    def progress(self, total: int, enabled: bool) -> AbstractContextManager[Callable[[int], None]]:
        """A progress bar of `total` records; the function it gives advances it."""

    def trace(self, trace: Trace) -> None:
        """One HTTP try (`--verbose`)."""

    def preview(self, view: DiffView, limit: int, title: str | None = None) -> None:
        """What a push (`--confirm`) or a revert would change, before the question; `title` is a line above it."""

    def ask(self, question: str) -> bool:
        """A yes-or-no question; no answer (end of input) is no."""


class Questions(Protocol):
    """Who answers `config init`'s questions: a person at a terminal (cli/prompts.py)."""

    def ask(self, question: str, default: str | None) -> str:
        """The answer typed (the default when it is left empty, if there is one)."""

    def ask_secret(self, question: str) -> str:
        """An answer typed without echo (a key), or read as piped."""

    def wrong(self, message: str) -> None:
        """Why the last answer was refused; the question is asked again."""
