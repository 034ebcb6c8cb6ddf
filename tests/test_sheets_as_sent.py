"""Spreadsheets as people really send them (issue 29): hidden sheets, weekday flag columns, range columns
by their usual names, columns that look meaningful, bounds whatever the shape.

Every test runs the console script on a file it writes and asserts the message and the exit code.
"""

from __future__ import annotations

import datetime as dt
import json
import os
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from ari_cli.inputs.xlsxfile import STREAMED
from tests.helpers import invoke, sandbox_env
from tests.sheetxml import inline, number, row, write_workbook

TODAY = dt.date(2030, 1, 1)


def push(sandbox: Any, operation: str, *args: str, input: str | bytes | None = None) -> Any:
    argv = [operation, "push", *args, "--today", TODAY.isoformat()]
    return invoke(argv, env=sandbox_env(sandbox), input=input)


def book(path: Path, sheets: dict[str, list[list[Any]]], states: dict[str, str] | None = None) -> Path:
    """A workbook (openpyxl) with these sheets in order; `states` hides some ("hidden", "veryHidden")."""
    made = openpyxl.Workbook()
    first = made.active
    assert first is not None
    made.remove(first)
    for title, rows in sheets.items():
        sheet = made.create_sheet(title)
        for cells in rows:
            sheet.append(cells)
        if states and title in states:
            sheet.sheet_state = states[title]
    made.save(path)
    return path


def sent(result: Any) -> list[dict[str, Any]]:
    """The records a --dry-run --output json document would send."""
    document = json.loads(result.stdout)
    return [record for request in document["requests"] for record in request["body"]["data"]]


THRESHOLD_HEAD = ["propertyid", "roomid", "date", "threshold"]


# -- 1. hidden sheets ----------------------------------------------------------------------------


@pytest.mark.parametrize("state", ["hidden", "veryHidden"])
def test_a_hidden_first_sheet_is_passed_over_for_the_visible_one(tmp_path: Path, sandbox: Any, state: str) -> None:
    path = book(
        tmp_path / "rates.xlsx",
        {
            "Old": [THRESHOLD_HEAD, ["HTL001", "DBL", "2030-02-01", 9]],
            "Today": [THRESHOLD_HEAD, ["HTL001", "DBL", "2030-02-01", 2]],
        },
        {"Old": state},
    )
    result = push(sandbox, "threshold", str(path), "--dry-run", "--output", "json")
    assert result.exit_code == 0, result.stderr
    how = "very hidden" if state == "veryHidden" else "hidden"
    assert f'note: {path}: read the sheet "Today"; passed over "Old" ({how}) (give --sheet NAME)\n' in result.stderr
    assert [r["threshold"] for r in sent(result)] == ["2"]


def test_a_hidden_sheet_named_by_sheet_is_read_with_a_note(tmp_path: Path, sandbox: Any) -> None:
    path = book(
        tmp_path / "rates.xlsx",
        {
            "Old": [THRESHOLD_HEAD, ["HTL001", "DBL", "2030-02-01", 9]],
            "Today": [THRESHOLD_HEAD, ["HTL001", "DBL", "2030-02-01", 2]],
        },
        {"Old": "hidden"},
    )
    result = push(sandbox, "threshold", str(path), "--sheet", "Old", "--dry-run", "--output", "json")
    assert result.exit_code == 0, result.stderr
    assert f'note: {path}: read the sheet "Old", which is hidden, as --sheet names it\n' in result.stderr
    assert [r["threshold"] for r in sent(result)] == ["9"]


def test_the_first_visible_sheet_with_the_columns_is_read(tmp_path: Path, sandbox: Any) -> None:
    path = book(
        tmp_path / "rates.xlsx",
        {
            "Readme": [["how to fill this in"]],
            "Rates": [THRESHOLD_HEAD, ["HTL001", "DBL", "2030-02-01", 2]],
            "Spare": [],
        },
    )
    result = push(sandbox, "threshold", str(path), "--dry-run", "--output", "json")
    assert result.exit_code == 0, result.stderr
    assert (
        f'note: {path}: read the sheet "Rates"; passed over "Readme" (not the columns of threshold); '
        'the workbook also has "Spare" (give --sheet NAME)\n'
    ) in result.stderr


def test_a_workbook_whose_every_sheet_is_hidden_says_so(tmp_path: Path, sandbox: Any) -> None:
    path = book(tmp_path / "rates.xlsx", {"Old": [THRESHOLD_HEAD], "Shown": []}, {"Old": "hidden"})
    # openpyxl refuses to save with no visible sheet: the visible one is empty, the hidden one is not read.
    result = push(sandbox, "threshold", str(path))
    assert result.exit_code == 3
    assert f"{path}[Shown]" in result.stderr


def test_a_hidden_sheet_in_a_streamed_workbook_is_passed_over_too(tmp_path: Path, sandbox: Any) -> None:
    head = row(1, *(inline(f"{c}1", n) for c, n in zip("ABCD", THRESHOLD_HEAD, strict=True)))
    old = [head, row(2, inline("A2", "HTL001"), inline("B2", "DBL"), inline("C2", "2030-02-01"), number("D2", 9))]
    new = [head, row(2, inline("A2", "HTL001"), inline("B2", "DBL"), inline("C2", "2030-02-01"), number("D2", 2))]
    path = write_workbook(
        tmp_path / "rates.xlsx",
        {"Old": old, "Today": new},
        states={"Old": "hidden"},
        pictures={"image1.png": os.urandom(STREAMED + 2**20)},
    )
    result = push(sandbox, "threshold", str(path), "--dry-run", "--output", "json")
    assert result.exit_code == 0, result.stderr
    assert f'note: {path}: read the sheet "Today"; passed over "Old" (hidden) (give --sheet NAME)\n' in result.stderr
    assert [r["threshold"] for r in sent(result)] == ["2"]
