"""`ari-cli OPERATION export`: what the service acknowledged to this journal, as a file push reads back."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from openpyxl import load_workbook
from typer.testing import Result

from ari_cli.sandbox import Sandbox
from tests.conftest import PINNED_TODAY
from tests.helpers import invoke, sandbox_env

TODAY = ["--today", PINNED_TODAY]
WINDOW = ["--from", "2027-01-01", "--to", "2027-01-06"]
HEADERS = {
    "threshold": "propertyid,roomid,start,end,threshold",
    "maxadv": "propertyid,roomid,rateid,start,end,time",
    "policy": "propertyid,roomid,rateid,start,end,policy",
}
POLICIES = Path(__file__).resolve().parent.parent / "samples" / "policies.toml"


def push(sb: Sandbox, folder: Path, operation: str, *rows: str, extra: tuple[str, ...] = ()) -> Result:
    path = folder / f"in-{operation}.csv"
    path.write_text("\n".join([HEADERS[operation], *rows]) + "\n")
    more = ("--policies", str(POLICIES)) if operation == "policy" else ()
    return invoke([operation, "push", str(path), *TODAY, *more, *extra], env=sandbox_env(sb))


def export(sb: Sandbox, operation: str, path: Path, *args: str) -> Result:
    return invoke([operation, "export", str(path), *args], env=sandbox_env(sb))


@pytest.fixture
def thresholds(sb: Sandbox, tmp_path: Path) -> Sandbox:
    """HTL001 DBL 2 on the 1st-4th then 3 on the 3rd-4th, TWN cleared on the 2nd; HTL002 KNG 5 on the 5th-6th."""
    rows = ("HTL001,DBL,2027-01-01,2027-01-04,2", "HTL001,TWN,2027-01-02,2027-01-02,n/a", "HTL002,KNG,2027-01-05,2027-01-06,5")  # fmt: skip
    assert push(sb, tmp_path, "threshold", *rows).exit_code == 0
    assert push(sb, tmp_path, "threshold", "HTL001,DBL,2027-01-03,2027-01-04,3").exit_code == 0
    return sb


def csv_rows(path: Path) -> tuple[list[str], list[list[str]]]:
    lines = path.read_text(encoding="utf-8").splitlines()
    comments = [line for line in lines if line.startswith("#")]
    return comments, list(csv.reader(line for line in lines if not line.startswith("#")))


def test_a_csv_grid_holds_each_date_acknowledged_n_a_where_cleared_and_blank_where_nothing_is_known(
    thresholds: Sandbox, tmp_path: Path
) -> None:
    out = tmp_path / "export.csv"
    result = export(thresholds, "threshold", out, *WINDOW)
    assert result.exit_code == 0, result.stderr
    assert result.stdout == ""
    assert (
        f"wrote {out}: sell thresholds of HTL001 HTL002, 2027-01-01 to 2027-01-06, 3 keys with 7 known dates"
        in result.stderr
    )
    assert "(as acknowledged to this journal; last run 2 at " in result.stderr
    comments, rows = csv_rows(out)
    assert comments[0] == "# ari-cli export: threshold"
    assert f"# service: {thresholds.base_url} (source {thresholds.source_id})" in comments
    assert "# properties: HTL001 HTL002" in comments and "# window: 2027-01-01 to 2027-01-06" in comments
    assert any(c.startswith("# values: as acknowledged to this journal; last run 2 at 20") for c in comments)
    assert "# run: 2" in comments
    assert rows == [
        ["propertyid", "roomid", "2027-01-01", "2027-01-02", "2027-01-03", "2027-01-04", "2027-01-05", "2027-01-06"],
        ["HTL001", "DBL", "2", "2", "3", "3", "", ""],
        ["HTL001", "TWN", "", "n/a", "", "", "", ""],
        ["HTL002", "KNG", "", "", "", "", "5", "5"],
    ]


def test_rows_layout_gives_a_row_per_run_of_equal_values(thresholds: Sandbox, tmp_path: Path) -> None:
    out = tmp_path / "export.csv"
    result = export(thresholds, "threshold", out, *WINDOW, "--layout", "rows", "--property", "HTL001")
    assert result.exit_code == 0, result.stderr
    comments, rows = csv_rows(out)
    assert "# properties: HTL001" in comments
    assert rows == [
        ["propertyid", "roomid", "start", "end", "threshold"],
        ["HTL001", "DBL", "2027-01-01", "2027-01-02", "2"],
        ["HTL001", "DBL", "2027-01-03", "2027-01-04", "3"],
        ["HTL001", "TWN", "2027-01-02", "2027-01-02", "n/a"],
    ]


def test_a_workbook_has_the_header_sheet_first_then_a_sheet_per_property(thresholds: Sandbox, tmp_path: Path) -> None:
    out = tmp_path / "export.xlsx"
    result = export(thresholds, "threshold", out, *WINDOW)
    assert result.exit_code == 0, result.stderr
    book = load_workbook(out)
    assert book.sheetnames == ["export", "HTL001", "HTL002"]
    header = {row[0]: row[1] for row in book["export"].iter_rows(values_only=True)}
    assert header["ari-cli export"] == "threshold" and header["run"] == "2"
    assert header["window"] == "2027-01-01 to 2027-01-06"
    rows = [list(row) for row in book["HTL001"].iter_rows(values_only=True)]
    assert rows[1] == ["HTL001", "DBL", 2, 2, 3, 3, None, None]
    assert rows[2] == ["HTL001", "TWN", None, "n/a", None, None, None, None]


def test_to_defaults_to_the_last_acknowledged_date(thresholds: Sandbox, tmp_path: Path) -> None:
    out = tmp_path / "export.csv"
    assert export(thresholds, "threshold", out, "--from", "2027-01-03").exit_code == 0
    assert csv_rows(out)[1][0][-1] == "2027-01-06"


def test_an_empty_window_is_an_error_naming_what_the_journal_knows(thresholds: Sandbox, tmp_path: Path) -> None:
    out = tmp_path / "export.csv"
    result = export(thresholds, "threshold", out, "--from", "2027-03-01", "--to", "2027-03-31")
    assert result.exit_code == 1
    assert result.stdout == ""
    assert "the journal holds no threshold value from 2027-03-01 to 2027-03-31" in result.stderr
    assert "the journal knows HTL001 HTL002 from 2027-01-01 to 2027-01-06" in result.stderr
    assert "Traceback" not in result.stderr and not out.exists()


def test_an_unknown_property_is_an_error_naming_the_known_ones(thresholds: Sandbox, tmp_path: Path) -> None:
    result = export(thresholds, "threshold", tmp_path / "x.csv", "--property", "HTL999", *WINDOW)
    assert result.exit_code == 1
    assert "acknowledged for HTL999" in result.stderr and "the journal knows HTL001 HTL002" in result.stderr


def test_an_export_is_a_csv_or_xlsx_file(thresholds: Sandbox, tmp_path: Path) -> None:
    result = export(thresholds, "threshold", tmp_path / "x.json", *WINDOW)
    assert result.exit_code == 2
    assert "an export is a .csv or .xlsx file" in result.stderr


def test_without_a_journal_the_export_says_so(sb: Sandbox, tmp_path: Path) -> None:
    result = export(sb, "threshold", tmp_path / "x.csv", *WINDOW)
    assert result.exit_code == 1
    assert "the journal holds no threshold value: it has no runs yet" in result.stderr


@pytest.mark.parametrize("suffix", [".csv", ".xlsx"])
def test_an_export_pushed_back_unedited_with_changed_only_sends_nothing(
    thresholds: Sandbox, tmp_path: Path, suffix: str
) -> None:
    out = tmp_path / f"export{suffix}"
    assert export(thresholds, "threshold", out, *WINDOW).exit_code == 0
    before = len(thresholds.received)
    result = invoke(["threshold", "push", str(out), *TODAY, "--changed-only"], env=sandbox_env(thresholds))
    assert result.exit_code == 0, result.stderr
    assert len(thresholds.received) == before
