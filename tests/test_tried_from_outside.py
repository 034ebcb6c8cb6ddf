"""Issue 29 tried from the outside: workbooks and headers a tester made, which the first round got wrong.

Every test runs the console script on a file it writes and asserts the message and the exit code.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.test_sheets_as_sent import book, ods, push, sent

HEAD = ["propertyid", "roomid", "start", "end", "threshold"]


def values(threshold: int) -> list[Any]:
    return ["HTL001", "DBL", "2030-06-01", "2030-06-30", threshold]


# -- 1. a sheet whose columns are a few lines down is the one read ----------------------------------------


def test_a_first_sheet_with_its_columns_on_line_2_stops_the_run_rather_than_read_a_later_sheet(
    tmp_path: Path, sandbox: Any
) -> None:
    path = book(
        tmp_path / "june.xlsx",
        {"June": [["Sell thresholds, June 2030"], HEAD, values(2)], "May": [HEAD, values(8)]},
    )
    for quiet in ([], ["--quiet"]):
        result = push(sandbox, "threshold", str(path), "--dry-run", *quiet)
        assert result.exit_code == 3, result.stderr
        assert result.stdout == ""
        assert result.stderr.startswith(
            f"error: {path}[June] line 1: missing columns propertyid, roomid, start and end (or date), threshold\n"
            f"{path}[June]: the column names are on line 2: give --header-row 2\n"
        )
        assert "May" not in result.stderr
    followed = push(sandbox, "threshold", str(path), "--header-row", "2", "--dry-run", "--output", "json")
    assert followed.exit_code == 0, followed.stderr
    assert [r["threshold"] for r in sent(followed)] == ["2"]


def test_a_later_sheet_with_its_columns_below_a_title_is_named_in_the_hint(tmp_path: Path, sandbox: Any) -> None:
    path = book(
        tmp_path / "multi.xlsx",
        {"Readme": [["How to fill this in"], ["one row per room"]], "Data": [["June"], [], HEAD, values(2)]},
    )
    result = push(sandbox, "threshold", str(path), "--dry-run")
    assert result.exit_code == 3
    assert f"{path}[Data]: the column names are on line 3: give --header-row 3 --sheet Data\n" in result.stderr
    assert result.stdout == ""
    # --header-row looks for the columns at that line of every visible sheet, past a Readme that ends above it.
    followed = push(sandbox, "threshold", str(path), "--header-row", "3", "--dry-run", "--output", "json")
    assert followed.exit_code == 0, followed.stderr
    assert f'note: {path}: read the sheet "Data"; passed over "Readme" (line 3 is empty) (give --sheet NAME)\n' in (
        followed.stderr
    )
    assert [r["threshold"] for r in sent(followed)] == ["2"]


def test_a_header_row_on_an_empty_line_above_the_columns_names_their_line(tmp_path: Path, sandbox: Any) -> None:
    path = book(
        tmp_path / "multi.xlsx",
        {"Readme": [["How to fill this in"], ["one row per room"]], "Data": [["June"], [], HEAD, values(2)]},
    )
    result = push(sandbox, "threshold", str(path), "--header-row", "2", "--dry-run")
    assert result.exit_code == 3
    assert result.stderr == (
        f"error: {path}[Data] line 2: --header-row 2 is an empty row; the column names are on line 3\n"
        "hint: give --header-row 3 --sheet Data\n"
    )


def test_a_header_row_that_no_visible_sheet_has_still_names_the_first(tmp_path: Path, sandbox: Any) -> None:
    path = book(tmp_path / "multi.xlsx", {"Readme": [["How to fill this in"]], "Data": [HEAD, values(2)]})
    result = push(sandbox, "threshold", str(path), "--header-row", "5", "--dry-run")
    assert result.exit_code == 3
    assert result.stderr.startswith(
        f"error: {path}[Readme] line 5: --header-row 5 is an empty row; the last row with values is 1\n"
    )


@pytest.mark.parametrize(
    ("header", "said"),
    [
        (["propertyid", "roomid", "start", "end", "thresold"], 'column "thresold" is not known; did you mean'),
        (["propertyid", "roomid", "Arrival", "Departure", "threshold"], 'column "Arrival" looks like'),
        (["propertyid", "roomid", "start", "end", "threshold", "Threshold"], "both give threshold"),
    ],
)
def test_a_first_sheet_whose_header_has_problems_is_never_passed_over(
    tmp_path: Path, sandbox: Any, header: list[str], said: str
) -> None:
    path = book(tmp_path / "june.xlsx", {"June": [header, [*values(2), 2][: len(header)]], "May": [HEAD, values(8)]})
    result = push(sandbox, "threshold", str(path), "--dry-run")
    assert result.exit_code == 3
    assert result.stderr.startswith(f"error: {path}[June] line 1: "), result.stderr
    assert said in result.stderr
    assert result.stdout == ""


@pytest.mark.parametrize(("operation", "read"), [("threshold", "Thresholds"), ("maxadv", "Max advance")])
def test_a_sheet_of_another_operation_is_still_passed_over(
    tmp_path: Path, sandbox: Any, operation: str, read: str
) -> None:
    path = book(
        tmp_path / "both.xlsx",
        {
            "Max advance": [["propertyid", "roomid", "rateid", "start", "end", "time"],
                            ["HTL001", "DBL", "BAR", "2030-06-01", "2030-06-30", 30]],
            "Thresholds": [HEAD, values(2)],
        },
    )  # fmt: skip
    result = push(sandbox, operation, str(path), "--dry-run")
    assert result.exit_code == 0, result.stderr
    assert f'note: {path}: read the sheet "{read}"' in result.stderr


# -- 2. a hidden sheet that has the columns is named when no visible one has them ---------------------------


@pytest.mark.parametrize(("state", "how"), [("hidden", "hidden"), ("veryHidden", "very hidden")])
def test_a_hidden_sheet_with_the_columns_is_named_beside_a_readme(
    tmp_path: Path, sandbox: Any, state: str, how: str
) -> None:
    path = book(tmp_path / "vh.xlsx", {"Readme": [["How to fill this in"]], "Old": [HEAD, values(8)]}, {"Old": state})
    result = push(sandbox, "threshold", str(path), "--dry-run")
    assert result.exit_code == 3
    assert result.stderr.startswith(f"error: {path}[Readme] line 1: missing columns ")
    assert f'{path}: passed over "Old" ({how}), which has the columns of threshold: give --sheet Old to read it\n' in (
        result.stderr
    )
    followed = push(sandbox, "threshold", str(path), "--sheet", "Old", "--dry-run", "--output", "json")
    assert followed.exit_code == 0, followed.stderr
    assert [r["threshold"] for r in sent(followed)] == ["8"]


def test_a_hidden_sheet_with_its_columns_below_a_title_is_named_with_its_header_row(
    tmp_path: Path, sandbox: Any
) -> None:
    path = book(
        tmp_path / "vh.xlsx",
        {"Sheet1": [], "Old rates": [["May"], HEAD, values(8)]},
        {"Old rates": "hidden"},
    )
    result = push(sandbox, "threshold", str(path), "--dry-run")
    assert result.exit_code == 3
    assert result.stderr == (
        f"error: {path}[Sheet1]: the sheet is empty\n"
        f'{path}: passed over "Old rates" (hidden), which has the columns of threshold: '
        "give --sheet 'Old rates' --header-row 2 to read it\n"
    )


def test_a_hidden_sheet_of_an_ods_with_the_columns_is_named(tmp_path: Path, sandbox: Any) -> None:
    path = ods(
        tmp_path / "vh.ods",
        {"Readme": [["How to fill this in"]], "Old": [HEAD, [str(v) for v in values(8)]]},
        {"Old"},
    )
    result = push(sandbox, "threshold", str(path), "--dry-run")
    assert result.exit_code == 3
    assert result.stderr.startswith(f"error: {path}[Readme] line 1: missing columns ")
    assert f'{path}: passed over "Old" (hidden), which has the columns of threshold: give --sheet Old to read it\n' in (
        result.stderr
    )
