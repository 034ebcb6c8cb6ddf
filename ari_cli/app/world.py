"""What a use case may know of the process that runs it, handed to it rather than read by it.

As httpie's `Environment`: the environment variables, standard input, and whether each standard stream is a
terminal, and the clock. `cli/` makes one per command from its own process (`cli/world.py`); the Python API
makes one from the integrator's process, with no terminal. So a use case runs the same from a test, a terminal
or `ari_cli.push()`, and nothing in `app/` asks the process for its variables, its input or its terminals.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import BinaryIO


def utc_now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


@dataclass(frozen=True)
class World:
    """The process as a use case sees it."""

    environ: Mapping[str, str]
    stdin: BinaryIO | None = None  # None: there is no standard input to read (`-` then reads nothing)
    stdin_is_terminal: bool = False
    stdout_is_terminal: bool = False
    stderr_is_terminal: bool = False
    # Now: what a page says it was made at, and what today is for export's --from (a test gives a fixed one).
    clock: Callable[[], dt.datetime] = utc_now
