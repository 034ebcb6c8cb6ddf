"""Standard streams: whether they get colour, and how a closed pipe is kept from crashing a run.

Colour follows `--color auto|always|never`; under `auto`, NO_COLOR turns it off, FORCE_COLOR turns it on
even in a pipe, and otherwise a terminal gets it and anything else does not.

Standard streams that a closed pipe cannot turn into a crash, or into a run stopped half way:

`ari-cli ... | head` closes stdout: what is left to show is dropped and the run finishes as it would
have (report, journal, exit code). `--verbose 2>&1 | head` closes stderr too: messages are dropped,
and the sending goes on. Light on purpose: loaded at every start, before Rich.
"""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from typing import TextIO

COLOR_MODES = ("auto", "always", "never")
_color_mode = ["auto"]


def set_color(mode: str) -> None:
    """The `--color` given on the command line."""
    _color_mode[0] = mode


def colour_wanted(terminal: bool) -> bool:
    """Whether a stream gets colour: `--color`, then NO_COLOR, then FORCE_COLOR, then whether it is a terminal."""
    mode = _color_mode[0]
    if mode != "auto":
        return mode == "always"
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR", "0") not in ("", "0"):
        return True
    return terminal


def discard(stream: TextIO) -> None:
    """Send what is still to be written to `stream`, and all that follows, nowhere.

    The file descriptor itself is pointed at the null device, so that the interpreter's last flush at
    exit succeeds too (a failing one would turn the exit code into 120).
    """
    with suppress(OSError, ValueError, io.UnsupportedOperation):
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, stream.fileno())
        os.close(null)


class Forgiving(io.TextIOBase):
    """A stream whose reader may go away: the first failed write drops it and everything after it."""

    def __init__(self, stream: TextIO) -> None:
        super().__init__()
        self.stream = stream
        self.gone = False

    def write(self, text: str) -> int:
        if not self.gone:
            try:
                self.stream.write(text)
            except OSError:
                self._lost()
        return len(text)

    def flush(self) -> None:
        if not self.gone:
            try:
                self.stream.flush()
            except OSError:
                self._lost()
            except ValueError:
                pass  # the stream under it was closed already (this wrapper's own close flushes once more)

    def _lost(self) -> None:
        self.gone = True
        discard(self.stream)

    def isatty(self) -> bool:
        return not self.gone and self.stream.isatty()

    def fileno(self) -> int:
        return self.stream.fileno()

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return self.stream.encoding


class Watched(io.TextIOBase):
    """stdout, remembering the error that a write to it raised, so that it is told from any other."""

    def __init__(self, stream: TextIO) -> None:
        super().__init__()
        self.stream = stream
        self.failed: OSError | None = None

    def write(self, text: str) -> int:
        try:
            return self.stream.write(text)
        except OSError as problem:
            self.failed = problem
            raise

    def flush(self) -> None:
        try:
            self.stream.flush()
        except OSError as problem:
            self.failed = problem
            raise
        except ValueError:
            # The stream under it was closed already: this wrapper's own close, when it is collected, flushes once more.
            if not self.stream.closed:
                raise

    def isatty(self) -> bool:
        return self.stream.isatty()

    def fileno(self) -> int:
        return self.stream.fileno()

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return self.stream.encoding


def stdout_failure(problem: BaseException) -> OSError | None:
    """`problem` if it is what a write to stdout raised (a closed pipe, a full disk), else None."""
    stream = sys.stdout
    if isinstance(stream, Watched) and stream.failed is not None and stream.failed is problem:
        return stream.failed
    return None


@contextmanager
def guarded_streams() -> Iterator[None]:
    """While a command runs, a closed stderr costs its messages and nothing else, and a failed stdout is known."""
    err, out = sys.stderr, sys.stdout
    if err is not None and not isinstance(err, Forgiving):
        sys.stderr = Forgiving(err)
    if out is not None and not isinstance(out, Watched):
        sys.stdout = Watched(out)
    try:
        yield
    finally:
        sys.stderr, sys.stdout = err, out
