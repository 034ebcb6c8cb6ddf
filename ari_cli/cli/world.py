"""The command's process as a use case sees it (`app/world.py`): made once per command, handed to the use case."""

from __future__ import annotations

import os
import sys
from typing import Any

from ari_cli.app.world import World


def _terminal(stream: Any) -> bool:
    # A stream may be missing (None) or closed when the tool runs detached: then it is no terminal.
    try:
        return stream is not None and bool(stream.isatty())
    except (ValueError, OSError):
        return False


def process_world() -> World:
    """This process's environment, standard input, and which standard streams are terminals."""
    return World(
        environ=os.environ,
        stdin=getattr(sys.stdin, "buffer", None),
        stdin_is_terminal=_terminal(sys.stdin),
        stdout_is_terminal=_terminal(sys.stdout),
        stderr_is_terminal=_terminal(sys.stderr),
    )
