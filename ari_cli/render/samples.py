"""Showing `samples DIR`: the files written, a path a line on stdout (a note on stderr), or one JSON document."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path

from ari_cli.render.printable import echo_err


def show_written(directory: Path, written: Sequence[Path], form: str) -> None:
    """The sample files written into `directory`."""
    if form == "json":
        document = {"directory": str(directory), "files": [str(path) for path in written]}
        sys.stdout.write(json.dumps(document, ensure_ascii=False, indent=2) + "\n")
        return
    echo_err(f"wrote {len(written)} sample files into {directory}")
    print("\n".join(map(str, written)))
