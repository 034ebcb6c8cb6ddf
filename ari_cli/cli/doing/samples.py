"""What `samples`'s commands do once their options are parsed (the commands are declared in cli/samples.py)."""

from __future__ import annotations

from pathlib import Path

from ari_cli.app.samples import write_samples
from ari_cli.render.printable import echo_err


def samples(*, directory: Path, force: bool) -> None:
    written = write_samples(directory, force)
    echo_err(f"wrote {len(written)} sample files into {directory}")
    print("\n".join(map(str, written)))
