"""Legacy Excel (.xls) and Excel binary (.xlsb) workbooks, read through the console script.

Nothing in the project writes these formats: the files are in tests/data (its README says where each
comes from). A dry run is enough: what matters is which rows are read and what is said about them.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ARI = Path(sys.executable).parent / "ari-cli"
DATA = Path(__file__).parent / "data"
TODAY = "2030-01-01"  # the rows of threshold.xls are in July and August 2030

pytestmark = pytest.mark.skipif(not ARI.exists(), reason="needs the ari-cli console script")


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """ari-cli ARGS in `cwd`, with no configuration but its own folder there."""
    env = {"PATH": "/usr/bin:/bin", "ARI_HOME": str(cwd / "home"), "NO_COLOR": "1", "COLUMNS": "200"}
    return subprocess.run([str(ARI), *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=60)


def copied(name: str, tmp_path: Path) -> str:
    """The data file copied into the test's folder; its name as a user would give it."""
    target = tmp_path / Path(name).name
    shutil.copyfile(DATA / name, target)
    return target.name


def test_an_xls_workbook_gives_its_rows_with_date_cells_numbers_and_notes(tmp_path: Path) -> None:
    name = copied("threshold.xls", tmp_path)
    # Its sheets Rates and Typed both have the columns: one of them is read only when named (issue 42).
    both = run("threshold", "push", name, "--dry-run", "--today", TODAY, cwd=tmp_path)
    assert both.returncode == 3
    assert both.stderr.startswith(f'error: {name}: 2 visible sheets have the columns of threshold: "Rates", "Typed"')
    result = run(
        "threshold", "push", name, "--sheet", "Rates", "--dry-run", "--output", "json", "--today", TODAY, cwd=tmp_path
    )
    assert result.returncode == 0, result.stderr
    document = json.loads(result.stdout)
    source = f"{name}[Rates]"
    assert [(row["source"], row["line"], row["status"]) for row in document["rows"]] == [
        (source, 2, "planned"),
        (source, 3, "planned"),
        (source, 5, "planned"),
        (source, 7, "planned"),
    ]
    assert [(request["propertyid"], request["lines"], request["body"]["data"]) for request in document["requests"]] == [
        (
            "HTL001",
            [2, 3, 5],
            [
                # 3 and 3.0 are one value over two days; n/a clears
                {"startdateymd": "2030-07-01", "enddateymd": "2030-07-02", "roomid": "DBL", "threshold": "3"},
                {"startdateymd": "2030-07-01", "enddateymd": "2030-07-01", "roomid": "TWN", "threshold": "n/a"},
            ],
        ),
        (
            "HTL002",
            [7],
            [{"startdateymd": "2030-08-15", "enddateymd": "2030-08-15", "roomid": "KNG", "threshold": "0"}],
        ),
    ]
    assert result.stderr.splitlines() == [
        f"warning: {source} line 1: ignored column Notes (not used by threshold)",
        f"note: {source}: an .{name.rpartition('.')[2]} workbook does not tell hidden or filtered-out rows, error "
        "cells, formulas without a saved value or merged cells from empty ones: check that the sheet shows every "
        "row it should",
        f"note: {source} line 6: skipped, as the columns this command reads are empty there",
    ]


def test_a_number_in_an_xls_date_column_is_not_a_date(tmp_path: Path) -> None:
    # 46391 would be 2027-01-04 as an Excel date serial: a number cell is never taken for a date.
    name = copied("threshold.xls", tmp_path)
    result = run("threshold", "push", name, "--sheet", "Typed", "--dry-run", "--today", TODAY, cwd=tmp_path)
    assert result.returncode == 3
    assert (
        f"error: {name}[Typed] line 2, date: 46391 is not a date: the cell holds a number; "
        "make it a date cell, or write YYYY-MM-DD"
    ) in result.stderr.splitlines()
    assert "nothing was sent" in result.stderr
    assert "1 row: 0 planned, 0 failed, 1 invalid, 0 skipped" in result.stdout


@pytest.mark.parametrize("name", ["python-calamine/base.xls", "python-calamine/base.xlsb"])
def test_a_workbook_without_our_columns_is_named_with_what_its_row_holds(name: str, tmp_path: Path) -> None:
    # The row under a blank one holds a text, 1.0, 1.1, TRUE, FALSE, a date cell and a date-and-time
    # cell: read as the number 1, true, false, the date, and (issue 42: a time of day is no longer dropped) the
    # date-time as it is.
    given = copied(name, tmp_path)
    result = run("threshold", "push", given, "--dry-run", "--today", TODAY, cwd=tmp_path)
    assert result.returncode == 3
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert (
        lines[0]
        == f"error: {given}[Sheet1] line 2: missing columns propertyid, roomid, start and end (or date), threshold"
    )
    assert lines[1].startswith(
        f'{given}[Sheet1]: line 2 holds "String, 1, 1.1, true, false, 2010-10-10, 2010-10-10T10:10'
    )
    assert lines[1].endswith("if the column names are on a later line, give --header-row N")


@pytest.mark.parametrize("name", ["python-calamine/base.xls", "python-calamine/base.xlsb"])
def test_a_header_row_on_a_blank_row_of_a_legacy_workbook(name: str, tmp_path: Path) -> None:
    given = copied(name, tmp_path)
    result = run("threshold", "push", given, "--header-row", "1", "--dry-run", "--today", TODAY, cwd=tmp_path)
    assert result.returncode == 3
    assert result.stdout == ""
    assert (
        f"error: {given}[Sheet1] line 1: --header-row 1 is an empty row; the last row with values is 2"
        in result.stderr.splitlines()
    )
