"""The reader's data types: a row with its source and line, the read options, the result."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

FORMATS = ("csv", "json", "jsonl")
STDIN = "-"
STDIN_NAME = "<stdin>"


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


@dataclass(frozen=True, slots=True)
class ReadOptions:
    """How to read the files: a format for `-` (and unknown extensions), an encoding, a sheet, a header row."""

    format: str | None = None
    encoding: str | None = None
    sheet: str | None = None
    """The worksheet of a workbook; None: the first."""
    header_row: int | None = None
    """1-based row of the column names; None: the first row that holds anything."""


@dataclass
class ReadResult:
    """The rows (possibly lazy) and the warnings found while reading the headers."""

    rows: Iterator[SourceRow] | list[SourceRow]
    warnings: list[str] = field(default_factory=list)
    parts: list[Iterator[SourceRow] | list[SourceRow]] = field(default_factory=list)
    """The same rows file by file, so that a faster form of one (a CSV file's blocks) can be read instead."""


@dataclass
class Prepared:
    """One file after its header is read: its rows to come, warnings, and header problems."""

    rows: Iterator[SourceRow] | list[SourceRow]
    warnings: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
