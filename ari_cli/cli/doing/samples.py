"""What `samples`'s commands do once their options are parsed (the commands are declared in cli/samples.py)."""

from __future__ import annotations

from pathlib import Path

from ari_cli.app.samples import write_samples
from ari_cli.choices import ViewFormat
from ari_cli.render.samples import show_written


def samples(*, directory: Path, force: bool, output: ViewFormat) -> None:
    show_written(directory, write_samples(directory, force), output.value)
