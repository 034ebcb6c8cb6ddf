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
    """The path as the user gave it, or `<stdin>`."""
    line: int
    """1-based line in the file where this row (or its JSON object) begins."""
    fields: dict[str, Any]
    """Canonical field name -> value: stripped text from CSV, scalars as parsed from JSON."""


@dataclass(frozen=True, slots=True)
class ReadOptions:
    """How to read the files: a format for `-` (and unknown extensions), an encoding."""

    format: str | None = None
    encoding: str | None = None


@dataclass
class ReadResult:
    """The rows (possibly lazy) and the warnings found while reading the headers."""

    rows: Iterator[SourceRow] | list[SourceRow]
    warnings: list[str] = field(default_factory=list)


@dataclass
class Prepared:
    """One file after its header is read: its rows to come, warnings, and header problems."""

    rows: Iterator[SourceRow] | list[SourceRow]
    warnings: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
