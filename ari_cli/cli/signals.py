"""The process is the command line's: its signal handlers, its exit on a second signal, stamina's hooks.

For a command's duration, SIGINT and SIGTERM (systemd, docker stop, kill) are handled here alike.
While a run is sending, the first stops it (`stopping.Stop`): nothing new goes out and what is in
flight is abandoned, and the command ends with what it has (exit 130); before or after that, the
first one interrupts whatever is going on (KeyboardInterrupt: "interrupted; nothing was sent").
A second one ends the process at once. Nothing below `cli/` installs a handler or ends the process:
a program that embeds ari-cli keeps its own.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import TYPE_CHECKING, Any

from ari_cli.exits import ExitCode
from ari_cli.send.stopping import Stop, lent

if TYPE_CHECKING:
    import asyncio

SIGNALS = (signal.SIGINT, signal.SIGTERM)


class _CommandStop(Stop):
    """The command's stop; a run that attaches to it is the command's, in a process the command owns."""

    def attach(self, loop: asyncio.AbstractEventLoop, stop: Callable[[], None]) -> None:
        # lazy: stamina is the sender's (a dry run loads none), loaded already when a run attaches. Without
        # structlog, stamina logs each retry as a bare "stamina.retry_scheduled" line on stderr; retries show in
        # --verbose traces and in the attempts instead.
        import stamina

        stamina.instrumentation.set_on_retry_hooks([])
        super().attach(loop, stop)


@contextmanager
def owned() -> Iterator[None]:
    """SIGINT and SIGTERM handled as the command line wants, for the duration; the caller's handlers after."""
    if threading.current_thread() is not threading.main_thread():
        yield  # only the main thread may install handlers (a test's or a program's thread keeps its own)
        return
    stop = _CommandStop()

    def on_signal(number: int, frame: FrameType | None) -> None:
        if stop.requested:
            # The journal is committed as the run goes: ending here loses at most the answers not yet
            # committed (the last group's), whose requests the journal keeps as not finished for `retry`.
            sys.stderr.write(("\x1b[?25h" if sys.stderr.isatty() else "") + "\ninterrupted again: stopped at once\n")
            sys.stderr.flush()
            os._exit(int(ExitCode.INTERRUPTED))
        if stop.attached:
            stop()
            return
        raise KeyboardInterrupt

    before: dict[int, Any] = {number: signal.signal(number, on_signal) for number in SIGNALS}
    try:
        with lent(stop):
            yield
    finally:
        for number, handler in before.items():
            signal.signal(number, handler)
