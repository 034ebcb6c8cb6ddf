"""The reader's data types: one file's part of the input, a row with its source and line, the options."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import chain
from typing import Any

FORMATS = ("csv", "json", "jsonl")
STDIN = "-"
STDIN_NAME = "<stdin>"
_NOWHERE: Mapping[str, str] = {}
ROWS_NAME = "<rows>"
"""The source of rows given from Python (`ari_cli.push(rows=...)`); a row's line is its place in the list."""


@dataclass(frozen=True, slots=True)
class SourceRow:
    """One input row: where it came from and its fields under canonical names."""

    source: str
    """The path as the user gave it, or `<stdin>`; for a workbook, `path[Sheet]`."""
    line: int
    """1-based line in the file where this row (or its JSON object) begins; a workbook's row number."""
    fields: dict[str, Any]
    """Canonical field name -> value: stripped text from CSV, scalars as parsed from JSON, cells (dates as
    dates) from a workbook."""


class Part:
    """One file (or sheet) of the input: its source, where each canonical column is in a row, its rows.

    Rows come as (line, values), read once; `columns` maps a canonical name to its position in the
    values. A value is None where the row has no such field (a JSON object without the key). CSV
    values are the cells as read, not stripped: the checks strip each distinct text once, and an
    export repeats a few hundred texts a million times.
    """

    plain_cells = False
    """Its cells never hold equal values of different types (JSON's true beside 1, 1.0 beside 1), so that a
    check may remember what it made of each cell as the cell itself."""
    segmented = False
    """Its consecutive rows of one line are the pieces of one input row (a grid's row, `grids.py`): the results
    show that row once, failed when any piece failed."""

    def __init__(self, source: str, columns: Mapping[str, int]) -> None:
        self.source = source
        self.columns = dict(columns)
        self.notes: list[str] = []
        """What reading the rows found worth a note (rows skipped); complete once rows() is spent."""
        self.warnings: list[str] = []
        """What reading the rows found worth a warning (an unnamed column holding values); likewise."""

    def rows(self) -> Iterator[tuple[int, Sequence[Any]]]:
        raise NotImplementedError

    def places(self, values: Sequence[Any]) -> Mapping[str, str]:
        """Where a row's fields are, by name, when a message should name more than its line (a grid's cell)."""
        return _NOWHERE

    def fields(self, values: Sequence[Any]) -> dict[str, Any]:
        """A row's values by canonical name."""
        return {name: values[i] for name, i in self.columns.items()}

    def source_rows(self) -> Iterator[SourceRow]:
        """The rows one by one with their fields by name (for tests, tools and policies)."""
        for line, values in self.rows():
            fields = {
                name: value.strip() if isinstance(value, str) else value for name, value in self.fields(values).items()
            }
            yield SourceRow(self.source, line, fields)


def skipped_rows(source: str, lines: Sequence[int]) -> str:
    """The note on rows skipped because the columns the command reads are all empty."""
    shown = ", ".join(map(str, lines[:10])) + (f" and {len(lines) - 10} more" if len(lines) > 10 else "")
    what = "line" if len(lines) == 1 else "lines"
    return f"{source} {what} {shown}: skipped, as the columns this command reads are empty there"


class Unnamed:
    """The columns a header leaves unnamed, watched row by row until each is seen to hold a value: a value
    there is left out, and a person who typed it would not know, so it is named in a warning. An empty
    unnamed column (a spreadsheet leaves them behind after the last real one) says nothing."""

    __slots__ = ("held", "watched")

    def __init__(self, names: Sequence[str]) -> None:
        self.watched = [i for i, name in enumerate(names) if not name.strip()]
        self.held: list[int] = []

    def look(self, cells: Sequence[Any]) -> None:
        """Hear a row's cells (a sheet's row may end at its last cell, short of the header)."""
        held = [i for i in self.watched if i < len(cells) and cells[i] is not None and str(cells[i]).strip()]
        if held:
            self.held.extend(held)
            self.watched = [i for i in self.watched if i not in held]

    def warning(self, source: str, position: Callable[[int], str]) -> str | None:
        """The warning naming each unnamed column that held a value, by `position` (7 or G); None when none did."""
        if not self.held:
            return None
        shown = [position(i) for i in sorted(self.held)]
        if len(shown) == 1:
            what = f"column {shown[0]} has no name and holds values"
        else:
            what = f"columns {', '.join(shown)} have no name and hold values"
        return f"{source}: {what}; ignored (name it in the header to have it read)"


class ListedPart(Part):
    """A part whose rows are already read (JSON, workbooks, a command's flags)."""

    def __init__(self, source: str, rows: Sequence[SourceRow]) -> None:
        names: dict[str, None] = {}
        for row in rows:
            names.update(dict.fromkeys(row.fields))
        super().__init__(source, {name: i for i, name in enumerate(names)})
        self.listed = rows

    def rows(self) -> Iterator[tuple[int, Sequence[Any]]]:
        names = list(self.columns)
        for row in self.listed:
            yield row.line, [row.fields.get(name) for name in names]

    def source_rows(self) -> Iterator[SourceRow]:
        return iter(self.listed)


class ReadMeter:
    """How far reading has got, for a sign of life at the terminal: the readers set these plain numbers every
    block of bytes or rows (never per row), and a display on another thread reads them."""

    __slots__ = ("done", "rows", "size", "source")

    def __init__(self) -> None:
        self.source = ""
        self.rows = 0
        """Rows of `source` read so far (a CSV's lines past the header)."""
        self.done = 0
        """Bytes of `source` read so far."""
        self.size: int | None = None
        """The size of `source` in bytes, when known."""

    def start(self, source: str, size: int | None = None) -> None:
        """Reading `source` begins."""
        self.source, self.rows, self.done, self.size = source, 0, 0, size


@dataclass(frozen=True, slots=True)
class GridOptions:
    """How a grid is read (`grids.py`): its layout, and the key parts a grid without their column leaves out."""

    layout: str | None = None
    """--layout rows|dates-across|rooms-across; None: told from the header."""
    property_id: str | None = None
    """--property P: the property of a grid without a property column."""
    rate_id: str | None = None
    """--rate-id R: the rate of a grid without a rate column, for an operation set per rate."""
    date_format: str | None = None
    """--date-format, which a grid's header dates are read by too."""


@dataclass(frozen=True, slots=True)
class ReadOptions:
    """How to read the files: a format for `-` (and unknown extensions), an encoding, sheets, a header row."""

    format: str | None = None
    encoding: str | None = None
    sheets: tuple[str, ...] = ()
    """The worksheets of a workbook that --sheet names (repeatable); none: the one visible sheet that is the
    operation's, unless `all_sheets`."""
    all_sheets: bool = False
    """--all-sheets: every visible sheet that has the operation's columns."""
    header_row: int | None = None
    """1-based row of the column names; None: the first row that holds anything."""
    columns: tuple[tuple[str, str], ...] = ()
    """--column FIELD=HEADER: (canonical field, header) pairs, which win over names and aliases."""
    allow_empty: bool = False
    """A file with no rows is a note rather than an error (an export that may rightly be empty)."""
    hidden_rows: str | None = None
    """A workbook's hidden or filtered-out rows: None an error, "skip" left out with a note, "include" read."""
    ignore_columns: tuple[str, ...] = ()
    """Columns left out with a warning however meaningful they look (--ignore-column, the profile's)."""
    ignore_named: tuple[str, ...] = ()
    """The --ignore-column names of this command (not the profile's, which serve many exports): a note names each
    that no column of the input has."""
    grid: GridOptions = GridOptions()
    """How a grid is read."""
    meter: ReadMeter | None = field(default=None, compare=False, repr=False)
    """Hears how far reading has got (a sign of life at the terminal)."""


@dataclass
class ReadResult:
    """The input's parts, file by file, and the warnings found while reading the headers."""

    parts: list[Part] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    empty: list[str] = field(default_factory=list)
    """The sources that have no header at all (their parts are left out)."""
    ignored: list[tuple[str, str]] = field(default_factory=list)
    """(source, name) of each column left out with a warning."""
    policies: tuple[str, str] | None = None
    """An exported workbook's named policies (`Prepared.policies`): the first file's that has them."""
    exported_run: int | None = None
    """The earliest run the exported files read reflect: a later push's dates are conflicts."""

    @property
    def rows(self) -> Iterator[SourceRow]:
        """Every row of every part, in order."""
        return chain.from_iterable(part.source_rows() for part in self.parts)


@dataclass
class Prepared:
    """One file after its header is read: its part (None when it has no header), warnings, header problems."""

    part: Part | None
    warnings: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    ignored: list[tuple[str, str]] = field(default_factory=list)
    """(source, name) of each column left out: the run's document lists them."""
    also: list[Part] = field(default_factory=list)
    """A workbook's further sheets read (--sheet repeated, --all-sheets), each a part after `part`."""
    policies: tuple[str, str] | None = None
    """An exported workbook's named policies: (where, TOML text), read unless --policies names a file."""
    exported_run: int | None = None
    """The journal's run an exported file reflects, as its header names it (None: no export)."""
