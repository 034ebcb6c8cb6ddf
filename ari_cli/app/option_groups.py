"""The option groups that carry no setting: what a run shows, and how its files are read.

Light (no parsing, nothing of the use cases), as `config/options.py`'s groups that carry settings are: the
command line builds both from its parameters (`cli/options.py`) without loading `app/options.py`, which
gathers them with the commands' requests.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from ari_cli.choices import HiddenRows, InputFormat, Layout, OutputFormat, Show


class OutputOptions(NamedTuple):
    """What a run shows, where, and whether the journal records it."""

    format: OutputFormat = OutputFormat.TABLE
    report: Path | None = None
    show: Show | None = None
    curl: bool = False
    quiet: bool = False
    verbose: bool = False
    journal: bool = True


class InputOptions(NamedTuple):
    """How the files are read and what an invalid row does."""

    format: InputFormat | None = None
    encoding: str | None = None
    date_format: str | None = None
    sheets: tuple[str, ...] = ()
    """--sheet NAME, repeatable: the worksheets read; none: the one visible sheet that is the operation's."""
    all_sheets: bool = False
    """--all-sheets: every visible sheet that has the operation's columns."""
    header_row: int | None = None
    policies: Path | None = None
    skip_invalid: bool = False
    allow_empty: bool = False
    columns: tuple[str, ...] = ()
    """--column FIELD=HEADER, as given."""
    ignore_columns: tuple[str, ...] = ()
    """--ignore-column NAME: columns left out with a warning, however meaningful they look."""
    hidden_rows: HiddenRows | None = None
    """--hidden-rows: a workbook's hidden or filtered-out rows skipped or read; None: an error."""
    layout: Layout | None = None
    """--layout: rows, or a grid (dates across, rooms across); None: told from each file's header."""
    property_id: str | None = None
    """--property P: the property of a grid without a property column."""
    rate_id: str | None = None
    """--rate-id R: the rate of a grid without a rate column (maxadv, policy)."""
