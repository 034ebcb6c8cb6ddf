"""What an export wrote: the use case's result (`app/export.py`), which `render/export.py` says."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ari_cli.choices import Layout
from ari_cli.exportfile.header import Header


@dataclass(frozen=True, slots=True)
class Exported:
    """An export written: where, what it holds (keys with a value in the window, dates with a value), and its
    header (service, properties, window, the run it reflects)."""

    path: Path
    header: Header
    layout: Layout
    keys: int
    values: int
    policies: Path | None = None
    """A CSV export's named policies, in the TOML file beside it (a workbook holds them in a sheet)."""
