"""Workbooks as people really send them (issue 29): hidden sheets, rows and cells a person would not count,
bounds whatever the shape. Columns as exports name them are in test_columns_as_sent.py.

Every test runs the console script on a file it writes and asserts the message and the exit code.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import zipfile
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


_ODS = (
    'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
    'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
    'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
    'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" office:version="1.2"'
)


def ods(path: Path, sheets: dict[str, list[list[str]]], hidden: set[str]) -> Path:
    """An OpenDocument spreadsheet as LibreOffice writes one, text cells only; `hidden` sheets not displayed."""

    def table(name: str, rows: list[list[str]]) -> str:
        styled = ' table:style-name="hide"' if name in hidden else ""
        cells = "".join(
            "<table:table-row>"
            + "".join(
                f'<table:table-cell office:value-type="string"><text:p>{v}</text:p></table:table-cell>' for v in r
            )
            + "</table:table-row>"
            for r in rows
        )
        return f'<table:table table:name="{name}"{styled}>{cells}</table:table>'

    content = (
        f'<?xml version="1.0" encoding="UTF-8"?><office:document-content {_ODS}><office:automatic-styles>'
        '<style:style style:name="hide" style:family="table"><style:table-properties table:display="false"/>'
        "</style:style></office:automatic-styles><office:body><office:spreadsheet>"
        + "".join(table(name, rows) for name, rows in sheets.items())
        + "</office:spreadsheet></office:body></office:document-content>"
    )
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("mimetype", "application/vnd.oasis.opendocument.spreadsheet", zipfile.ZIP_STORED)
        archive.writestr("content.xml", content)
        archive.writestr(
            "META-INF/manifest.xml",
            '<?xml version="1.0" encoding="UTF-8"?><manifest:manifest '
            'xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">'
            '<manifest:file-entry manifest:full-path="/" '
            'manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/>'
            '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>'
            "</manifest:manifest>",
        )
    return path


def test_a_hidden_sheet_of_an_ods_workbook_is_passed_over(tmp_path: Path, sandbox: Any) -> None:
    rows = {"Old": [THRESHOLD_HEAD, ["HTL001", "DBL", "2030-02-01", "9"]],
            "Today": [THRESHOLD_HEAD, ["HTL001", "DBL", "2030-02-01", "2"]]}  # fmt: skip
    path = ods(tmp_path / "rates.ods", rows, {"Old"})
    result = push(sandbox, "threshold", str(path), "--dry-run", "--output", "json")
    assert result.exit_code == 0, result.stderr
    assert f'note: {path}: read the sheet "Today"; passed over "Old" (hidden) (give --sheet NAME)\n' in result.stderr
    assert "does not tell" not in result.stderr  # an .ods's hidden rows and odd cells are told (test_ods_sheets.py)
    assert [r["threshold"] for r in sent(result)] == ["2"]


def test_a_workbook_whose_every_sheet_is_hidden_says_so(tmp_path: Path, sandbox: Any) -> None:
    head = row(1, *(inline(f"{c}1", n) for c, n in zip("ABCD", THRESHOLD_HEAD, strict=True)))
    path = write_workbook(tmp_path / "rates.xlsx", {"Old": [head]}, states={"Old": "veryHidden"})
    result = push(sandbox, "threshold", str(path))
    assert result.exit_code == 3
    assert result.stderr.startswith(
        f'error: {path}: every sheet is hidden: "Old" (very hidden); hidden sheets are read only when named\n'
        "hint: give --sheet NAME to read a hidden sheet\n"
    )


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


# -- 7. bounded whatever the shape ---------------------------------------------------------------


@pytest.mark.parametrize("otherwise", [False, True])
def test_a_sheet_whose_grid_passes_the_bound_is_refused_before_it_is_built(
    tmp_path: Path, sandbox: Any, otherwise: bool
) -> None:
    # Values only in columns A and XFD over 20,000 rows: 327 million cells the reader would allocate.
    cells = [row(i, inline(f"A{i}", "x"), inline(f"XFD{i}", "y")) for i in range(1, 20_001)]
    if otherwise:  # cells written otherwise than spreadsheet programs do: parsed instead of searched
        cells = [c.replace('<c r="', '<c s="0" r="') for c in cells]
    path = write_workbook(tmp_path / "sparse.xlsx", {"Rates": cells})
    assert path.stat().st_size < 400_000
    result = push(sandbox, "threshold", str(path))
    assert result.exit_code == 3
    assert result.stderr.startswith(
        f"error: {path}[Rates]: the sheet's values span 20,000 rows x 16,384 columns (327,680,000 cells); "
        "refused: a workbook's sheet is read up to 8,000,000 cells, as the reader builds the whole grid\n"
    )


def test_a_legacy_workbook_past_its_size_bound_is_refused(tmp_path: Path, sandbox: Any) -> None:
    path = tmp_path / "big.xls"
    with path.open("wb") as out:
        out.write(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1")
        out.truncate(33 * 2**20)  # sparse: no disk to speak of
    result = push(sandbox, "threshold", str(path))
    assert result.exit_code == 3
    assert f"error: {path}: 33 MiB; an .xls, .xlsb or .ods workbook is read up to 32 MiB" in result.stderr


# -- 5. rows a person would not count ------------------------------------------------------------


def hidden_book(path: Path) -> Path:
    """Rows 3 and 4 hidden (as a filter hides them), row 2 and 5 shown."""
    rows = [THRESHOLD_HEAD, *(["HTL001", "DBL", f"2030-02-0{i}", i] for i in range(1, 5))]
    made = book(path, {"Rates": rows})
    workbook_ = openpyxl.load_workbook(made)
    sheet = workbook_["Rates"]
    for line in (3, 4):
        sheet.row_dimensions[line].hidden = True
    workbook_.save(made)
    return made


def test_hidden_or_filtered_out_rows_are_an_input_error_naming_their_lines(tmp_path: Path, sandbox: Any) -> None:
    path = hidden_book(tmp_path / "rates.xlsx")
    result = push(sandbox, "threshold", str(path))
    assert result.exit_code == 3
    assert result.stderr.startswith(
        f"error: {path}[Rates] lines 3, 4: hidden or filtered out in the workbook, so a person reading the sheet "
        "would not count them\nhint: give --hidden-rows skip to leave them out, or --hidden-rows include to read them"
    )
    assert "nothing was sent" in result.stderr or result.stdout == ""


@pytest.mark.parametrize(("mode", "values"), [("skip", ["1", "4"]), ("include", ["1", "2", "3", "4"])])
def test_hidden_rows_skip_or_include(tmp_path: Path, sandbox: Any, mode: str, values: list[str]) -> None:
    path = hidden_book(tmp_path / "rates.xlsx")
    result = push(sandbox, "threshold", str(path), "--hidden-rows", mode, "--no-merge", "--dry-run", "--output", "json")
    assert result.exit_code == 0, result.stderr
    assert [r["threshold"] for r in sent(result)] == values
    if mode == "skip":
        assert f"note: {path}[Rates] lines 3, 4: hidden or filtered out in the workbook; left out\n" in result.stderr


def test_hidden_rows_in_a_streamed_workbook(tmp_path: Path, sandbox: Any) -> None:
    head = row(1, *(inline(f"{c}1", n) for c, n in zip("ABCD", THRESHOLD_HEAD, strict=True)))
    cells = [head] + [
        row(i, inline(f"A{i}", "HTL001"), inline(f"B{i}", "DBL"), inline(f"C{i}", f"2030-02-0{i}"), number(f"D{i}", i))
        for i in range(2, 5)
    ]
    cells[2] = cells[2].replace('<row r="3">', '<row r="3" hidden="1">')
    path = write_workbook(
        tmp_path / "rates.xlsx", {"Rates": cells}, pictures={"image1.png": os.urandom(STREAMED + 2**20)}
    )
    result = push(sandbox, "threshold", str(path))
    assert result.exit_code == 3
    assert f"error: {path}[Rates] line 3: hidden or filtered out in the workbook" in result.stderr


def test_a_hidden_column_in_a_streamed_workbook_is_named_in_a_note(tmp_path: Path, sandbox: Any) -> None:
    head = row(1, *(inline(f"{c}1", n) for c, n in zip("ABCD", THRESHOLD_HEAD, strict=True)))
    cells = [head, row(2, inline("A2", "HTL001"), inline("B2", "DBL"), inline("C2", "2030-02-01"), number("D2", 2))]
    path = write_workbook(
        tmp_path / "rates.xlsx",
        {"Rates": cells},
        heads={"Rates": '<cols><col min="1" max="1" width="9"/><col min="3" max="4" hidden="1"/></cols>'},
        pictures={"image1.png": os.urandom(STREAMED + 2**20)},
    )
    result = push(sandbox, "threshold", str(path), "--dry-run")
    assert result.exit_code == 0, result.stderr
    assert f"note: {path}[Rates]: columns C (date), D (threshold) hidden in the workbook; read\n" in result.stderr


def test_cells_that_read_as_empty_and_are_not_are_named(tmp_path: Path, sandbox: Any) -> None:
    made = openpyxl.Workbook()
    sheet = made.active
    assert sheet is not None
    sheet.title = "Rates"
    sheet.append(THRESHOLD_HEAD)
    sheet.append(["HTL001", "DBL", "2030-02-01", "=1+1"])  # a formula openpyxl saves without its value
    sheet.append(["HTL001", None, "2030-02-02", 2])
    sheet.append(["HTL001", None, "2030-02-03", 2])
    sheet.merge_cells("B2:B4")
    sheet["B2"] = "DBL"
    path = tmp_path / "rates.xlsx"
    made.save(path)
    # An error cell, written as a spreadsheet program writes it.
    with zipfile.ZipFile(path) as original:
        parts = {info.filename: original.read(info) for info in original.infolist()}
    sheet_xml = parts["xl/worksheets/sheet1.xml"].decode()
    parts["xl/worksheets/sheet1.xml"] = sheet_xml.replace(
        '<c r="D3" t="n"><v>2</v></c>', '<c r="D3" t="e"><f>VLOOKUP(A3,X,2)</f><v>#N/A</v></c>'
    ).encode()
    with zipfile.ZipFile(path, "w") as rewritten:
        for name, data in parts.items():
            rewritten.writestr(name, data)
    result = push(sandbox, "threshold", str(path))
    assert result.exit_code == 3
    lines = result.stderr.splitlines()
    assert (
        f"error: {path}[Rates] line 2, threshold: a formula with no saved value: open and save the workbook in a spreadsheet program"
        in lines
    )
    assert (
        f"{path}[Rates] line 3, roomid: merged with B2, whose value only the first cell holds: unmerge the cells"
        in lines
    )
    assert f"{path}[Rates] line 3, threshold: #N/A (an error cell)" in lines
    assert "is empty" not in result.stderr


def test_a_hidden_column_holding_values_is_named_in_a_note(tmp_path: Path, sandbox: Any) -> None:
    made = openpyxl.Workbook()
    sheet = made.active
    assert sheet is not None
    sheet.title = "Rates"
    sheet.append(THRESHOLD_HEAD)
    sheet.append(["HTL001", "DBL", "2030-02-01", 2])
    sheet.column_dimensions["D"].hidden = True
    path = tmp_path / "rates.xlsx"
    made.save(path)
    result = push(sandbox, "threshold", str(path), "--dry-run")
    assert result.exit_code == 0, result.stderr
    assert f"note: {path}[Rates]: column D (threshold) hidden in the workbook; read\n" in result.stderr


@pytest.mark.parametrize("merged", [False, True])
def test_marks_name_the_right_cells_when_the_values_begin_right_of_column_a(
    tmp_path: Path, sandbox: Any, merged: bool
) -> None:
    # python-calamine gives rows from the first column that holds a value (here B): the marks count from A.
    made = openpyxl.Workbook()
    sheet = made.active
    assert sheet is not None
    sheet.title = "Rates"
    sheet.append([None, *THRESHOLD_HEAD])
    sheet.append([None, "HTL001", "DBL", "2030-02-01", 2])
    sheet.append([None, "HTL001", None if merged else "DBL", "2030-02-02", 2])
    if merged:
        sheet.merge_cells("C2:C3")
    sheet.column_dimensions["E"].hidden = True
    path = tmp_path / "rates.xlsx"
    made.save(path)
    result = push(sandbox, "threshold", str(path), "--dry-run")
    if merged:
        assert result.exit_code == 3
        assert result.stderr.startswith(
            f"error: {path}[Rates] line 3, roomid: merged with C2, whose value only the first cell holds: "
            "unmerge the cells\n"
        )
    else:
        assert result.exit_code == 0, result.stderr
        assert f"note: {path}[Rates]: column E (threshold) hidden in the workbook; read\n" in result.stderr
