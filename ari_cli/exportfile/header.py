"""What an exported file says about itself, written by `export` and read back by `inputs/`: which service,
properties and window, when it was exported and the last run of the journal it reflects.

In a workbook it is the first sheet, a line per fact (a label in column A, its value in B); in a CSV file, the
same lines as comments (`# label: value`) above the column names. Its first line is `MARK`: a file that begins
so is an export, read whole (every sheet of a workbook, the comment lines skipped)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

MARK = "ari-cli export"
SHEET = "export"  # the workbook's first sheet, which holds the header
POLICIES_SHEET = "policies"  # a policy workbook's sheet of named policies, in the --policies file's own form
COMMENT = "# "


@dataclass(frozen=True, slots=True)
class Header:
    """An export's header: `run` is the journal's last run whose acknowledgements it reflects (None: no run)."""

    operation: str
    base_url: str
    source_id: str
    properties: tuple[str, ...]
    start: dt.date
    end: dt.date
    exported: dt.datetime
    run: int | None
    run_at: str | None

    def lines(self) -> list[tuple[str, str]]:
        """(label, value) a line each, the MARK first: the workbook's first sheet, or a CSV's comment lines. No
        value holds a comma, a semicolon or a tab: a CSV's delimiter is told from its lines."""
        reflects = (
            f"as acknowledged to this journal; last run {self.run} at {self.run_at or 'a time pruned from it'}"
            if self.run is not None
            else "as acknowledged to this journal; no run"
        )
        return [
            (MARK, self.operation),
            ("service", f"{self.base_url} (source {self.source_id})"),
            ("properties", " ".join(self.properties)),
            ("window", f"{self.start.isoformat()} to {self.end.isoformat()}"),
            ("exported", self.exported.isoformat(timespec="seconds")),
            ("values", reflects),
            ("run", "" if self.run is None else str(self.run)),
        ]

    def comments(self) -> list[str]:
        return [f"{COMMENT}{label}: {value}" for label, value in self.lines()]


def is_mark(first: Any) -> bool:
    """Whether a first cell (or a CSV's first line) starts an export's header."""
    return isinstance(first, str) and first.strip().removeprefix("#").strip().startswith(MARK)


def comment_lines(text: str) -> int:
    """How many lines at the top of a CSV text are an export's header (0: the text is no export)."""
    lines = text.splitlines()
    if not lines or not is_mark(lines[0]):
        return 0
    count = 0
    for line in lines:
        if not line.startswith("#"):
            break
        count += 1
    return count


def csv_run(text: str) -> int | None:
    """The run a CSV export's comment lines name."""
    lines = text.splitlines()[: comment_lines(text)]
    return run_of(line.removeprefix("#").split(":", 1) for line in lines)


def run_of(lines: Iterable[Sequence[Any]]) -> int | None:
    """The run an export's header lines (label, value) name; None when they name none."""
    for cells in lines:
        if len(cells) >= 2 and str(cells[0]).strip().removeprefix("#").strip().rstrip(":") == "run":
            value = cells[1]
            if isinstance(value, float) and value.is_integer():  # a sheet's number, retyped by its user
                value = int(value)
            # A spreadsheet that saved the CSV again pads each comment line with delimiters: `# run: 2,,,`.
            text = str(value).strip().rstrip(",;\t").strip()
            return int(text) if text.isdigit() else None
    return None
