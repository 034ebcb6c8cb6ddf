"""Running the console script at a real terminal (a pseudo-terminal), answering its questions."""

from __future__ import annotations

import fcntl
import os
import pty
import select
import subprocess
import sys
import termios
import time
from collections.abc import Sequence
from pathlib import Path

BIN = Path(sys.executable).parent


def _controlling_terminal() -> None:
    # In the child, after setsid: stdin's terminal becomes the controlling one, so /dev/tty (getpass) works.
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


def converse(
    args: Sequence[str], answers: Sequence[tuple[str, str]], env: dict[str, str] | None = None, timeout: float = 30
) -> tuple[int, str]:
    """Run `ari-cli ARGS` at a terminal; on each prompt (text seen) type its answer. Exit code and all output."""
    leader, follower = pty.openpty()
    process = subprocess.Popen(
        [str(BIN / "ari-cli"), *args],
        stdin=follower, stdout=follower, stderr=follower, env={**os.environ, **(env or {})},
        start_new_session=True, preexec_fn=_controlling_terminal, close_fds=True,
    )  # fmt: skip
    os.close(follower)
    seen = ""
    pending = list(answers)
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([leader], [], [], 0.1)
            if ready:
                try:
                    chunk = os.read(leader, 4096)
                except OSError:  # the terminal closed: the program ended
                    break
                if not chunk:
                    break
                seen += chunk.decode("utf-8", "replace")
            if pending and pending[0][0] in seen.rsplit("\n", 1)[-1]:
                time.sleep(0.05)  # the prompt is written before the terminal is set to read it
                os.write(leader, pending.pop(0)[1].encode() + b"\r")
                seen += "\n"  # the next prompt is looked for after this one
            elif process.poll() is not None and not ready:
                break
        else:
            process.kill()
    finally:
        os.close(leader)
    return process.wait(timeout=60), seen.replace("\r\n", "\n")
