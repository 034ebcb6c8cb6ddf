"""Workbooks as a spreadsheet program writes them: date, number, boolean and empty cells, several
sheets, titles above the header. Each is made here with openpyxl, pushed to the sandbox, and the
sandbox must then hold exactly the per-date values of the cells."""

from __future__ import annotations

import datetime as dt
import zipfile
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from ari_cli.exits import InputError
from ari_cli.inputs import ReadOptions, read_rows
from ari_cli.inputs.cells import cell_value
from ari_cli.wire.models import Operation
from tests.helpers import invoke, sandbox_env

TODAY = dt.date.today()


def day(offset: int) -> dt.date:
    return TODAY + dt.timedelta(days=offset)


def dates(start: dt.date, end: dt.date) -> list[str]:
    return [(start + dt.timedelta(days=n)).isoformat() for n in range((end - start).days + 1)]


def workbook(path: Path, sheets: dict[str, list[list[Any]]]) -> Path:
    """A workbook with these sheets in order; date cells get a date format, as Excel gives them."""
    book = openpyxl.Workbook()
    first = book.active
    assert first is not None
    book.remove(first)
    for title, rows in sheets.items():
        sheet = book.create_sheet(title)
        for row in rows:
            sheet.append(row)
        for cells in sheet.iter_rows():
            for cell in cells:
                if isinstance(cell.value, dt.date):
                    cell.number_format = "dd/mm/yyyy"
    book.save(path)
    return path


def push(operation: str, path: Path, sandbox: Any, *extra: str) -> Any:
    args = [operation, "push", str(path), "--today", TODAY.isoformat(), *extra]
    return invoke(args, env=sandbox_env(sandbox))


# -- cell values ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (None, ""),
        (True, "true"),
        (False, "false"),
        (3.0, 3),
        (3, 3),
        (2.5, 2.5),
        ("  n/a ", "n/a"),
        (dt.datetime(2027, 1, 4, 0, 0), dt.date(2027, 1, 4)),
        (dt.date(2027, 1, 4), dt.date(2027, 1, 4)),
        (dt.time(18, 0), "18:00:00"),
    ],
)
def test_cells_become_what_a_csv_would_hold(value: Any, expected: Any) -> None:
    got = cell_value(value)
    assert got == expected and type(got) is type(expected)


# -- pushing workbooks ---------------------------------------------------------------------------


def test_threshold_workbook_pushes_exactly_its_cells(tmp_path: Path, sandbox: Any) -> None:
    path = workbook(
        tmp_path / "rates.xlsx",
        {
            "Rates": [
                ["Property", "Room", "Start", "End", "Threshold", "Notes"],
                ["HTL001", "DBL", day(10), day(14), 3.0, "a float written by a spreadsheet"],
                [None, None, None, None, None, None],  # an empty row: skipped
                ["HTL001", "TWN", day(20), day(21), 0, None],
                ["HTL002", "DBL", day(5), day(5), 12, ""],
            ]
        },
    )
    result = push("threshold", path, sandbox)
    assert result.exit_code == 0, result.stdout + result.stderr
    assert "rates.xlsx[Rates]:2" in result.stdout and "rates.xlsx[Rates]:5" in result.stdout
    assert sandbox.state()["threshold"] == {
        "HTL001": {
            "DBL": dict.fromkeys(dates(day(10), day(14)), "3"),
            "TWN": dict.fromkeys(dates(day(20), day(21)), "0"),
        },
        "HTL002": {"DBL": {day(5).isoformat(): "12"}},
    }


def test_maxadv_workbook_with_number_ids_and_a_weekday_mask_typed_as_a_number(tmp_path: Path, sandbox: Any) -> None:
    monday = day(7 - TODAY.weekday() + 7)  # a Monday at least a week ahead
    path = workbook(
        tmp_path / "maxadv.xlsx",
        {
            "Sheet1": [
                ["propertyid", "roomid", "rateid", "start", "end", "days", "nights"],
                ["HTL001", "DBL", "BAR", monday, monday + dt.timedelta(days=6), 11, 90.0],  # 0000011: Sat, Sun
                ["HTL001", "DBL", "NRF", monday, monday + dt.timedelta(days=1), "", 365],
            ]
        },
    )
    result = push("maxadv", path, sandbox)
    assert result.exit_code == 0, result.stdout + result.stderr
    weekend = dates(monday + dt.timedelta(days=5), monday + dt.timedelta(days=6))
    assert sandbox.state()["maxadv"] == {
        "HTL001": {
            "DBL": {
                "BAR": dict.fromkeys(weekend, "90"),
                "NRF": dict.fromkeys(dates(monday, monday + dt.timedelta(days=1)), "365"),
            }
        }
    }


def test_policy_workbook_with_boolean_cells(tmp_path: Path, sandbox: Any) -> None:
    header = [
        "propertyid", "roomid", "rateid", "start", "end", "refundable", "level", "policyid", "dayspriorcheckin",
        "penaltytype", "penaltyamount", "penaltyapplied", "depositpolicy", "deposittype", "depositamount",
        "depositapplied", "depositintervalunits", "deposittimeinterval",
    ]  # fmt: skip
    path = workbook(
        tmp_path / "policy.xlsx",
        {
            "Policies": [
                header,
                ["HTL001", "DBL", "BAR", day(30), day(31), True, 1, 2, 7, 3, 100.0, 3, "required", 3, 30, 4, 0, None],
                ["HTL001", "DBL", "NRF", day(30), day(30), False, 1, 1, 0, 3, 100, 4, "required", 3, 100, 4, 1, 7],
            ]
        },
    )
    result = push("policy", path, sandbox)
    assert result.exit_code == 0, result.stdout + result.stderr
    flex = {
        "refundable": "true",
        "policydetails": {
            "cancellation": [{"policyid": 2, "dayspriorcheckin": 7, "penaltytype": 3, "penaltyamount": 100,
                              "penaltyapplied": 3, "level": 1}],
            "deposit": {"depositpolicy": "required", "deposittype": 3, "depositamount": 30, "depositapplied": 4,
                        "depositintervalunits": 0, "deposittimeinterval": 0},
        },
    }  # fmt: skip
    nonref = {
        "refundable": "false",
        "policydetails": {
            "cancellation": [{"policyid": 1, "dayspriorcheckin": 0, "penaltytype": 3, "penaltyamount": 100,
                              "penaltyapplied": 4, "level": 1}],
            "deposit": {"depositpolicy": "required", "deposittype": 3, "depositamount": 100, "depositapplied": 4,
                        "depositintervalunits": 1, "deposittimeinterval": 7},
        },
    }  # fmt: skip
    assert sandbox.state()["policy"] == {
        "HTL001": {"DBL": {"BAR": dict.fromkeys(dates(day(30), day(31)), flex), "NRF": {day(30).isoformat(): nonref}}}
    }


def test_sheet_option_picks_a_sheet_by_name(tmp_path: Path, sandbox: Any) -> None:
    path = workbook(
        tmp_path / "rates.xlsx",
        {
            "Readme": [["This workbook holds next month's thresholds"]],
            "June": [["propertyid", "roomid", "date", "threshold"], ["HTL001", "SGL", day(3), 4]],
        },
    )
    result = push("threshold", path, sandbox, "--sheet", "june")
    assert result.exit_code == 0, result.stdout + result.stderr
    assert sandbox.state()["threshold"] == {"HTL001": {"SGL": {day(3).isoformat(): "4"}}}


def test_unknown_sheet_lists_the_sheets(tmp_path: Path, sandbox: Any) -> None:
    path = workbook(tmp_path / "rates.xlsx", {"Readme": [["x"]], "June": [["propertyid"]]})
    result = push("threshold", path, sandbox, "--sheet", "July")
    assert result.exit_code == 3
    assert f'error: {path}: no sheet named "July"; the workbook has "Readme", "June"' in result.stderr
    assert sandbox.state()["threshold"] == {}


def test_header_row_below_titles(tmp_path: Path, sandbox: Any) -> None:
    path = workbook(
        tmp_path / "rates.xlsx",
        {
            "Rates": [
                ["Sell thresholds, summer"],
                ["prepared by revenue", None, "2026"],
                [],
                ["Hotel", "Room", "From", "To", "Sell Threshold"],
                ["HTL002", "KNG", day(8), day(9), 2],
            ]
        },
    )
    without = push("threshold", path, sandbox)
    assert without.exit_code == 3
    assert f"{path}[Rates] line 1: missing columns" in without.stderr
    assert f"{path}[Rates]: the column names are on line 4: give --header-row 4\n" in without.stderr
    result = push("threshold", path, sandbox, "--header-row", "4")
    assert result.exit_code == 0, result.stdout + result.stderr
    assert sandbox.state()["threshold"] == {"HTL002": {"KNG": dict.fromkeys(dates(day(8), day(9)), "2")}}


def test_header_row_past_the_data(tmp_path: Path, sandbox: Any) -> None:
    path = workbook(tmp_path / "rates.xlsx", {"Rates": [["propertyid", "roomid", "date", "threshold"]]})
    result = push("threshold", path, sandbox, "--header-row", "9")
    assert result.exit_code == 3
    assert f"{path}[Rates] line 9: --header-row 9 is an empty row; the last row with values is 1" in result.stderr


def test_every_message_names_the_sheet_and_the_row(tmp_path: Path, sandbox: Any) -> None:
    path = workbook(
        tmp_path / "rates.xlsx",
        {
            "Rates": [
                ["propertyid", "roomid", "start", "end", "threshold"],
                ["HTL001", "DBL", day(1), day(2), 1],
                [],
                ["HTL001", "TWN", day(1), day(2), 1000],
                ["HTL001", "STE", day(1), None, 2.5],
                ["HTL001", "SGL", "04/01/2027", day(2), True],
            ]
        },
    )
    result = push("threshold", path, sandbox)
    assert result.exit_code == 3
    where = f"{path}[Rates]"
    for message in (
        f"{where} line 4, threshold: 1000 is above the maximum 999",
        f"{where} line 5, end: is empty; give a date YYYY-MM-DD, today or today+N",
        f"{where} line 5, threshold: '2.5' is not a whole number 0-999 or n/a to clear",
        f'{where} line 6, start: "04/01/2027" is not a date of the form YYYY-MM-DD; for other layouts give '
        "--date-format",
        f"{where} line 6, threshold: 'true' is not a whole number 0-999 or n/a to clear",
    ):
        assert message in result.stderr
    assert sandbox.state()["threshold"] == {}


def test_a_misspelt_header_names_the_sheet_and_its_row(tmp_path: Path) -> None:
    path = workbook(tmp_path / "rates.xlsx", {"Rates": [[], ["propertyid", "roomid", "date", "treshold"]]})
    with pytest.raises(InputError) as caught:
        list(read_rows([str(path)], Operation.THRESHOLD, ReadOptions()).rows)
    assert caught.value.message.splitlines()[0] == (
        f'{path}[Rates] line 2: column "treshold" is not known; did you mean "threshold"?'
    )


@pytest.mark.parametrize("number", [46391, 5])
def test_a_number_in_a_date_column_is_never_taken_for_a_date(tmp_path: Path, sandbox: Any, number: int) -> None:
    # 46391 would be 2027-01-04 in Excel's 1900 date system, and 5 would be 1900-01-05: neither is guessed.
    path = workbook(tmp_path / "rates.xlsx", {"Rates": [["propertyid", "roomid", "date", "threshold"]]})
    book = openpyxl.load_workbook(path)
    book.worksheets[0].append(["HTL001", "DBL", number, 2])
    book.save(path)
    result = push("threshold", path, sandbox)
    assert result.exit_code == 3
    assert (
        f"error: {path}[Rates] line 2, date: {number} is not a date: the cell holds a number; "
        "make it a date cell, or write YYYY-MM-DD" in result.stderr
    )
    assert sandbox.received == []


def test_a_date_cell_outside_2000_to_2099_is_an_error(tmp_path: Path, sandbox: Any) -> None:
    rows: list[list[Any]] = [["propertyid", "roomid", "date", "threshold"], ["HTL001", "DBL", dt.date(1900, 1, 5), 2]]
    path = workbook(tmp_path / "rates.xlsx", {"Rates": rows})
    result = push("threshold", path, sandbox)
    assert result.exit_code == 3
    assert f"{path}[Rates] line 2, date: 1900-01-05 is not in the years 2000-2099; check the year" in result.stderr
    assert sandbox.received == []


def test_a_workbook_on_standard_input_is_recognised(tmp_path: Path, sandbox: Any) -> None:
    path = workbook(
        tmp_path / "rates.xlsx",
        {"Rates": [["propertyid", "roomid", "date", "threshold"], ["HTL003", "DBL", day(4), 5]]},
    )
    result = invoke(
        ["threshold", "push", "-", "--today", TODAY.isoformat()], env=sandbox_env(sandbox), input=path.read_bytes()
    )
    assert result.exit_code == 0, result.stdout + result.stderr
    assert "<stdin>[Rates]:2" in result.stdout
    assert sandbox.state()["threshold"] == {"HTL003": {"DBL": {day(4).isoformat(): "5"}}}


def test_a_workbook_with_no_rows_under_the_header_sends_nothing(tmp_path: Path, sandbox: Any) -> None:
    path = workbook(tmp_path / "rates.xlsx", {"Rates": [["propertyid", "roomid", "date", "threshold"]]})
    result = push("threshold", path, sandbox)
    assert result.exit_code == 3
    assert f"error: {path}[Rates] has no rows" in result.stderr
    allowed = push("threshold", path, sandbox, "--allow-empty")
    assert allowed.exit_code == 0, allowed.stdout + allowed.stderr
    assert f"note: {path}[Rates] has no rows" in allowed.stderr
    assert sandbox.state()["threshold"] == {}


# -- CSV: the same header row option, and dates that are not ISO ---------------------------------


def test_csv_header_row_below_titles(tmp_path: Path, sandbox: Any) -> None:
    path = tmp_path / "rates.csv"
    path.write_text(f"Thresholds,,,\n,,,\npropertyid,roomid,date,threshold\nHTL001,DBL,{day(6)},7\n")
    result = push("threshold", path, sandbox, "--header-row", "3")
    assert result.exit_code == 0, result.stdout + result.stderr
    assert sandbox.state()["threshold"] == {"HTL001": {"DBL": {day(6).isoformat(): "7"}}}


def test_day_month_year_csv_needs_the_date_format_option(tmp_path: Path, sandbox: Any) -> None:
    start, end = day(40), day(42)
    path = tmp_path / "rates.csv"
    path.write_text(f"propertyid,roomid,start,end,threshold\nHTL001,DBL,{start:%d/%m/%Y},{end:%d/%m/%Y},2\n")
    without = push("threshold", path, sandbox)
    assert without.exit_code == 3
    # Every date of the file has the one layout: one line says so, not one per cell.
    assert without.stderr.startswith(f'error: {path}: every date is written like "{start:%d/%m/%Y}", not YYYY-MM-DD')
    assert "--date-format %d/%m/%Y" in without.stderr and "line 2" not in without.stderr
    assert sandbox.state()["threshold"] == {}
    result = push("threshold", path, sandbox, "--date-format", "%d/%m/%Y")
    assert result.exit_code == 0, result.stdout + result.stderr
    assert sandbox.state()["threshold"] == {"HTL001": {"DBL": dict.fromkeys(dates(start, end), "2")}}


def test_a_day_month_date_that_could_be_read_either_way_is_never_guessed(tmp_path: Path, sandbox: Any) -> None:
    path = tmp_path / "rates.csv"
    path.write_text("propertyid,roomid,date,threshold\nHTL001,DBL,04/01/2099,2\n")
    assert push("threshold", path, sandbox).exit_code == 3
    result = push("threshold", path, sandbox, "--date-format", "%m/%d/%Y")
    assert result.exit_code == 0, result.stdout + result.stderr
    assert sandbox.state()["threshold"] == {"HTL001": {"DBL": {"2099-04-01": "2"}}}


# -- other spreadsheet formats -------------------------------------------------------------------


def _ods(path: Path, rows: list[list[Any]]) -> Path:
    """A minimal OpenDocument spreadsheet, as LibreOffice writes one: a sheet "June" of these rows."""

    def cell(value: Any) -> str:
        if isinstance(value, dt.date):
            kind = f'office:value-type="date" office:date-value="{value.isoformat()}"'
        elif isinstance(value, int):
            kind = f'office:value-type="float" office:value="{value}"'
        else:
            kind = 'office:value-type="string"'
        return f"<table:table-cell {kind}><text:p>{value}</text:p></table:table-cell>"

    body = "".join("<table:table-row>" + "".join(map(cell, row)) + "</table:table-row>" for row in rows)
    namespaces = (
        'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
        'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
        'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"'
    )
    content = (
        f'<?xml version="1.0" encoding="UTF-8"?><office:document-content {namespaces} office:version="1.2">'
        f'<office:body><office:spreadsheet><table:table table:name="June">{body}</table:table>'
        "</office:spreadsheet></office:body></office:document-content>"
    )
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("mimetype", "application/vnd.oasis.opendocument.spreadsheet")
        archive.writestr("content.xml", content, zipfile.ZIP_DEFLATED)
        archive.writestr(
            "META-INF/manifest.xml",
            '<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0">'
            '<manifest:file-entry manifest:full-path="/" '
            'manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/></manifest:manifest>',
        )
    return path


def test_an_opendocument_sheet_is_read_with_its_date_cells(tmp_path: Path, sandbox: Any) -> None:
    rows: list[list[Any]] = [["propertyid", "roomid", "date", "threshold"], ["HTL001", "DBL", day(4), 4]]
    path = _ods(tmp_path / "rates.ods", rows)
    result = push("threshold", path, sandbox)
    assert result.exit_code == 0, result.stdout + result.stderr
    assert sandbox.state()["threshold"] == {"HTL001": {"DBL": {day(4).isoformat(): "4"}}}


def test_an_opendocument_error_names_the_sheet_and_row(tmp_path: Path, sandbox: Any) -> None:
    rows: list[list[Any]] = [["propertyid", "roomid", "date", "threshold"], ["HTL001", "DBL", day(4), 1000]]
    path = _ods(tmp_path / "rates.ods", rows)
    result = push("threshold", path, sandbox)
    assert result.exit_code == 3
    assert f"{path}[June] line 2, threshold: 1000 is above the maximum 999" in result.stderr
