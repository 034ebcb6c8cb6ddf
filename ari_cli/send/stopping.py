"""How a run is stopped from outside it: a signal handler, another thread, an integrator's own code.

The sender runs an event loop; whoever wants it stopped holds a `Stop` and calls it. The call only
sets a flag and hands the sender's stop to its loop (`call_soon_threadsafe`), so it is safe from a
signal handler or any thread, at any time, more than once. Only the command line installs signal
handlers (`cli/signals.py`); it lends its `Stop` to the runs started under it through `lent`, so the
use cases in between need not carry it. Nothing here touches the process.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from contextvars import ContextVar
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import asyncio


class Stop:
    """Stops the run it is attached to, now or as soon as one is attached."""

    def __init__(self) -> None:
        self.requested = False
        self._target: tuple[asyncio.AbstractEventLoop, Callable[[], None]] | None = None

    def __call__(self) -> None:
        self.requested = True
        target = self._target
        if target is not None:
            loop, stop = target
            with suppress(RuntimeError):  # the loop has closed meanwhile: its run has ended anyway
                loop.call_soon_threadsafe(stop)

    @property
    def attached(self) -> bool:
        """Whether a run is listening (a signal then stops it rather than interrupting the caller)."""
        return self._target is not None

    def attach(self, loop: asyncio.AbstractEventLoop, stop: Callable[[], None]) -> None:
        self._target = (loop, stop)
        if self.requested:
            loop.call_soon(stop)

    def detach(self) -> None:
        self._target = None


_LENT: ContextVar[Stop | None] = ContextVar("ari_cli_stop", default=None)


@contextmanager
def lent(stop: Stop) -> Iterator[Stop]:
    """Runs started in this context (this thread, its tasks) listen to `stop`."""
    token = _LENT.set(stop)
    try:
        yield stop
    finally:
        _LENT.reset(token)


def current() -> Stop | None:
    """The `Stop` lent to this context, if any (the Python API lends none)."""
    return _LENT.get()
