"""Big .xlsx and .xlsm workbooks are read as a stream of their sheet's XML (ari_cli.inputs.xlsxstream);
smaller ones by python-calamine. Both must give the same rows, notes and messages.

The workbooks are written by hand (tests/sheetxml.py) with what a spreadsheet program writes and openpyxl
cannot: inline and shared strings, sparse cells, rows without their number, gaps, date cells told only by
their style (built-in and custom formats, the 1904 date system). A picture of over STREAMED bytes, as a
pasted image adds, takes the same sheet to the streaming reader.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest

from ari_cli.exits import InputError
from ari_cli.inputs.cells import cell_value, date_cell, format_kind
from ari_cli.inputs.ooxml import MAX_SHARED_STRINGS
from ari_cli.inputs.textio import Source
from ari_cli.inputs.xlsxfile import STREAMED, CalamineBook, open_book
from ari_cli.inputs.xlsxstream import XlsxBook
from tests.helpers import table_rows
from tests.sheetxml import EPOCH_1904, date, inline, number, row, shared, write_workbook

ARI = Path(sys.executable).parent / "ari-cli"
TODAY = "2030-01-01"

pytestmark = pytest.mark.skipif(not ARI.exists(), reason="needs the ari-cli console script")

# Number formats, as a spreadsheet program writes them: style 1 a custom date, 2 the built-in 14 (m/d/yyyy),
# 3 a custom date with a locale and words, 4 a custom number whose text holds a "d" in quotes, 5 a time, 6 a
# custom date with a second section, 7 an elapsed time.
FORMATS = {164: "yyyy-mm-dd", 165: "[$-409]mmmm d, yyyy", 166: '"Day "0', 167: "dd/mm/yyyy;@", 168: "[h]:mm"}
STYLES = (0, 164, 14, 165, 166, 20, 167, 168)
STRINGS = ["roomid", "DBL", "Notes", "HTL002", "summer rate"]


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {"PATH": "/usr/bin:/bin", "ARI_HOME": str(cwd / "home"), "NO_COLOR": "1", "COLUMNS": "200"}
    return subprocess.run([str(ARI), *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=120)


def both(folder: Path, name: str, rows: list[str], **options: Any) -> tuple[Path, Path]:
    """The workbook, and the same with a picture that takes it past STREAMED, of one name in two folders."""
    sheets = {"Rates": rows, "Readme": [row(1, inline("A1", "rates for the summer"))]}
    (folder / "small").mkdir()
    (folder / "big").mkdir()
    small = write_workbook(folder / "small" / name, sheets, **options)
    big = write_workbook(
        folder / "big" / name, sheets, pictures={"image1.png": os.urandom(STREAMED + 2**20)}, **options
    )
    assert isinstance(open_book(Source(str(small), path=str(small))), CalamineBook)
    assert isinstance(open_book(Source(str(big), path=str(big))), XlsxBook)
    return small, big


def the_same(small: Path, big: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Both workbooks through the console script, each in its folder: the same output, byte for byte."""
    first = run("threshold", "push", small.name, *args, cwd=small.parent)
    second = run("threshold", "push", big.name, *args, cwd=big.parent)
    assert (second.returncode, second.stdout, second.stderr) == (first.returncode, first.stdout, first.stderr)
    return second


VARIED = [
    # The header starts in column B, under two blank rows; its texts inline and shared.
    row(3, inline("B3", "propertyid"), shared("C3", 0), inline("D3", "date"), inline("E3", "threshold"), shared("F3", 2)),
    row(4, inline("B4", " HTL001 "), shared("C4", 1), date("D4", dt.date(2030, 7, 1)), number("E4", "3.0"),
        shared("F4", 4)),
    row(None, shared("B5", 3), inline("C5", "TWN"), date("D5", dt.date(2030, 7, 2), style=2), number("E5", 3)),
    # rows 6 to 8 are not in the file
    row(9, inline("B9", "HTL001"), inline("C9", "DBL"), date("D9", dt.date(2030, 7, 2), style=3),
        '<c r="E9"><f>1+2</f><v>3</v></c>'),
    row(10, inline("F10", "a comment alone")),
    # cells without their reference follow the one before
    '<row r="11"><c r="B11" t="inlineStr"><is><t>HTL002</t></is></c><c t="inlineStr"><is><t>KNG</t></is></c>'
    f'<c s="6"><v>{(dt.date(2030, 8, 15) - dt.date(1899, 12, 30)).days}</v></c>'
    '<c t="str"><f>"n/a"</f><v>n/a</v></c></row>',
]  # fmt: skip


def test_a_varied_sheet_gives_the_same_rows_streamed(tmp_path: Path) -> None:
    small, big = both(tmp_path, "rates.xlsx", VARIED, strings=STRINGS, formats=FORMATS, cell_formats=STYLES)
    done = the_same(small, big, "--dry-run", "--output", "json", "--today", TODAY)
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout)
    source = f"{big.name}[Rates]"
    assert [(r["source"], r["line"], r["status"]) for r in document["rows"]] == [
        (source, 4, "planned"),
        (source, 5, "planned"),
        (source, 9, "planned"),
        (source, 11, "planned"),
    ]
    assert [(q["propertyid"], q["lines"], q["body"]["data"]) for q in document["requests"]] == [
        ("HTL001", [4, 9], [{"startdateymd": "2030-07-01", "enddateymd": "2030-07-02", "roomid": "DBL",
                             "threshold": "3"}]),
        ("HTL002", [5, 11], [{"startdateymd": "2030-08-15", "enddateymd": "2030-08-15", "roomid": "KNG",
                              "threshold": "n/a"},
                             {"startdateymd": "2030-07-02", "enddateymd": "2030-07-02", "roomid": "TWN",
                              "threshold": "3"}]),
    ]  # fmt: skip
    assert done.stderr.splitlines() == [
        f"warning: {source} line 3: ignored column Notes (not used by threshold)",
        f'note: {big.name}: read the sheet "Rates"; the workbook also has "Readme" (give --sheet NAME)',
        f"note: {source} line 10: skipped, as the columns this command reads are empty there",
    ]


def test_cells_that_are_not_what_the_column_needs_get_the_same_messages_streamed(tmp_path: Path) -> None:
    serial = (dt.date(2030, 7, 1) - EPOCH_1904).days  # a date cell of a workbook in the 1904 date system
    rows = [
        row(1, inline("A1", "propertyid"), inline("B1", "roomid"), inline("C1", "date"), inline("D1", "threshold")),
        row(2, inline("A2", "HTL001"), inline("B2", "DBL"), number("C2", serial, 1), number("D2", 2)),
        row(3, inline("A3", "HTL001"), inline("B3", "DBL"), number("C3", 46391), number("D3", 2)),  # a plain number
        row(4, inline("A4", "HTL001"), inline("B4", "TWN"), number("C4", serial, 1), '<c r="D4" t="b"><v>1</v></c>'),
        row(5, inline("A5", "HTL001"), inline("B5", "SGL"), number("C5", serial, 1), number("D5", "2.25")),
        row(6, inline("A6", "HTL001"), inline("B6", "STE"), number("C6", "0.75", 5), number("D6", 2)),  # a time
        row(7, inline("A7", "HTL001"), inline("B7", "FAM"), number("C7", 5, 4), number("D7", 2)),  # "Day 5"
        row(8, inline("A8", "HTL001"), inline("B8", "KNG"), number("C8", serial, 1), number("D8", "2.5")),
        row(9, inline("A9", "HTL001"), inline("B9", "QUA"), number("C9", serial, 1), number("D9", "1.5", 7)),  # [h]:mm
    ]
    small, big = both(tmp_path, "mac.xlsx", rows, formats=FORMATS, cell_formats=STYLES, date1904=True)
    done = the_same(small, big, "--dry-run", "--today", TODAY)
    assert done.returncode == 3
    where = f"error: {big.name}[Rates]"
    for message in (
        f"{where} line 3, date: 46391 is not a date: the cell holds a number; make it a date cell, or write YYYY-MM-DD",
        f"{where} line 4, threshold: 'true' is not a whole number 0-999 or n/a to clear",
        f"{where} line 5, threshold: '2.25' is not a whole number 0-999 or n/a to clear",
        f'{where} line 6, date: "18:00:00" is not a date; give YYYY-MM-DD, today or today+N',
        f"{where} line 7, date: 5 is not a date: the cell holds a number; make it a date cell, or write YYYY-MM-DD",
        f"{where} line 8, threshold: '2.5' is not a whole number 0-999 or n/a to clear",
        f"{where} line 9, threshold: '1 day, 12:00:00' is not a whole number 0-999 or n/a to clear",
    ):
        assert any(line.startswith(message) for line in done.stderr.splitlines()), (message, done.stderr)
    # Line 2 is valid: its date cell is 2030-07-01 in the 1904 system, as the spreadsheet shows it.
    assert "line 2" not in done.stderr
    assert next(row for row in table_rows(done.stdout) if row[0].endswith("[Rates]:2"))[3] == "2030-07-01"
    assert "8 rows: 0 planned, 0 failed, 7 invalid, 1 skipped" in done.stdout


def test_an_error_cell_or_a_formula_without_its_value_is_named_by_either_reader(tmp_path: Path) -> None:
    # Both read as empty cells; neither is "is empty" (issue 29): the run stops, naming each.
    rows = [
        row(1, inline("A1", "propertyid"), inline("B1", "roomid"), inline("C1", "date"), inline("D1", "threshold")),
        row(
            2,
            inline("A2", "HTL001"),
            inline("B2", "SGL"),
            inline("C2", "2030-07-01"),
            '<c r="D2" t="e"><v>#N/A</v></c>',
        ),
        row(3, inline("A3", "HTL001"), inline("B3", "DBL"), inline("C3", "2030-07-01"), '<c r="D3"><f>A1+1</f></c>'),
    ]
    small, big = both(tmp_path, "odd.xlsx", rows)
    done = the_same(small, big, "--dry-run", "--today", TODAY)
    assert done.returncode == 3
    assert done.stderr.splitlines()[:2] == [
        f"error: {big.name}[Rates] line 2, threshold: #N/A (an error cell)",
        f"{big.name}[Rates] line 3, threshold: a formula with no saved value: open and save the workbook in a "
        "spreadsheet program",
    ]


def test_an_elapsed_time_too_long_for_python_is_an_input_error_in_either_reader(tmp_path: Path) -> None:
    rows = [
        row(1, inline("A1", "propertyid"), inline("B1", "roomid"), inline("C1", "date"), inline("D1", "threshold")),
        row(2, inline("A2", "HTL001"), inline("B2", "DBL"), inline("C2", "2030-07-01"), number("D2", "1e20", 7)),
    ]
    small, big = both(tmp_path, "hours.xlsx", rows, formats=FORMATS, cell_formats=STYLES)
    read_whole = run("threshold", "push", small.name, "--dry-run", "--today", TODAY, cwd=small.parent)
    assert read_whole.returncode == 3 and read_whole.stdout == ""
    assert read_whole.stderr.startswith("error: hours.xlsx[Rates] line 2: cannot read a cell: days=")
    assert "Traceback" not in read_whole.stderr and "internal error" not in read_whole.stderr
    # The stream keeps a serial too long for an elapsed time as the number it is, which the rule refuses.
    streamed_ = run("threshold", "push", big.name, "--dry-run", "--today", TODAY, cwd=big.parent)
    assert streamed_.returncode == 3
    assert (
        "error: hours.xlsx[Rates] line 2, threshold: 100000000000000000000 is above the maximum 999"
        in streamed_.stderr.splitlines()
    )


@pytest.mark.parametrize("part", ["xl/worksheets/sheet1.xml", "xl/styles.xml", "xl/workbook.xml"])
def test_a_part_that_declares_a_doctype_is_refused_before_it_is_read(tmp_path: Path, part: str) -> None:
    rows = [row(1, inline("A1", "propertyid"), inline("B1", "roomid"), inline("C1", "date"), inline("D1", "threshold"))]
    path = write_workbook(tmp_path / "rates.xlsx", {"Rates": rows}, doctype=part)
    done = run("threshold", "push", path.name, "--dry-run", cwd=tmp_path)
    assert done.returncode == 3
    assert done.stdout == ""
    assert done.stderr == (
        f"error: {path.name}: its part {part} declares a DOCTYPE, which a workbook never has; refused\n"
        "hint: open it in the spreadsheet program and save it again (Excel Workbook .xlsx), or save the sheet as CSV\n"
    )


def test_a_damaged_sheet_that_is_streamed_names_the_sheet(tmp_path: Path) -> None:
    rows = [row(1, inline("A1", "propertyid"), inline("B1", "roomid")), "<row r='2'><c r='A2'><v>1</v></row>"]
    _, big = both(tmp_path, "rates.xlsx", rows)
    done = run("threshold", "push", big.name, "--dry-run", cwd=big.parent)
    assert done.returncode == 3 and done.stdout == ""
    assert done.stderr.startswith(f"error: {big.name}[Rates]: cannot read the sheet: mismatched tag: line 1, column ")
    assert "Traceback" not in done.stderr


def test_shared_strings_past_their_bound_are_refused(tmp_path: Path) -> None:
    # Texts that do not pack (random hex), so that the workbook is not taken for a zip bomb.
    texts = [os.urandom(64).hex() for _ in range(MAX_SHARED_STRINGS // len("<si><t></t></si>" + "0" * 128) + 64)]
    path = write_workbook(tmp_path / "notes.xlsx", {"Rates": [row(1, shared("A1", 0))]}, strings=texts)
    with zipfile.ZipFile(path) as archive:
        unpacked = archive.getinfo("xl/sharedStrings.xml").file_size
    done = run("threshold", "push", path.name, "--dry-run", cwd=tmp_path)
    assert done.returncode == 3 and done.stdout == ""
    assert done.stderr == (
        f"error: {path.name}: its shared strings (xl/sharedStrings.xml) unpack to {unpacked:,} bytes; at most 64 MiB "
        "are read, "
        "as they are held in memory\nhint: save the sheet as CSV (UTF-8), which is streamed whatever its size\n"
    )


# -- the reader itself: what only a hand-written sheet holds ---------------------------------------------


def streamed(path: Path, sheet: str = "Rates") -> list[tuple[int, list[Any]]]:
    """A sheet's rows as the streaming reader gives them, each cell as CSV would hold it."""
    book = XlsxBook(Source(str(path), path=str(path)))
    try:
        rows = book.rows(sheet, f"{path.name}[{sheet}]")
    finally:
        book.close()
    return [(line, [cell_value(cell) for cell in cells]) for line, cells in rows]


def test_shared_and_inline_rich_text_join_their_runs_without_the_phonetic_guide(tmp_path: Path) -> None:
    rich = (
        '<r><t xml:space="preserve">Sea </t></r>\n  <r><rPr><b/></rPr><t>view</t></r><rPh sb="0" eb="1"><t>シ</t></rPh>'
    )
    path = write_workbook(
        tmp_path / "rich.xlsx",
        {"Rates": [row(1, shared("A1", 0), f'<c r="B1" t="inlineStr"><is>{rich}</is></c>', shared("C1", 1))]},
        strings=["plain", "a & b"],  # written as a &amp; b
    )
    assert streamed(path) == [(1, ["plain", "Sea view", "a & b"])]


def test_a_prefixed_namespace_and_rows_without_numbers(tmp_path: Path) -> None:
    path = write_workbook(tmp_path / "x.xlsx", {"Rates": []})
    text = (
        '<?xml version="1.0"?><x:worksheet xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
        "<x:sheetData><x:row><x:c t='inlineStr'><x:is><x:t>a</x:t></x:is></x:c><x:c><x:v>1</x:v></x:c></x:row>"
        '<x:row/><x:row><x:c r="C3"><x:v>2.5</x:v></x:c></x:row></x:sheetData></x:worksheet>'
    )
    replaced(path, "xl/worksheets/sheet1.xml", text)
    assert streamed(path) == [(1, ["a", 1]), (3, ["", "", 2.5])]


def test_a_cell_past_the_last_column_is_refused(tmp_path: Path) -> None:
    path = write_workbook(tmp_path / "wide.xlsx", {"Rates": [row(1, inline("A1", "a"), number("XFE1", 1))]})
    with pytest.raises(InputError) as caught:
        streamed(path)
    assert caught.value.message == 'wide.xlsx[Rates] line 1: a cell at "XFE1", past the last column XFD'


def test_a_cell_text_over_the_csv_value_limit_is_refused(tmp_path: Path) -> None:
    long = "x" * 131_073
    inline_text = write_workbook(tmp_path / "inline.xlsx", {"Rates": [row(2, inline("A2", long))]})
    with pytest.raises(InputError) as caught:
        streamed(inline_text)
    assert caught.value.message == "inline.xlsx[Rates] line 2: a cell's text is longer than 131072 characters"
    shared_text = write_workbook(tmp_path / "shared.xlsx", {"Rates": [row(2, shared("A2", 0))]}, strings=[long])
    with pytest.raises(InputError) as caught:
        streamed(shared_text)
    assert (
        caught.value.message == f"{shared_text}: xl/sharedStrings.xml: a cell's text is longer than 131072 characters"
    )


def test_a_cell_naming_a_shared_string_the_workbook_lacks(tmp_path: Path) -> None:
    path = write_workbook(tmp_path / "s.xlsx", {"Rates": [row(4, shared("A4", 7))]}, strings=["only one"])
    with pytest.raises(InputError) as caught:
        streamed(path)
    assert caught.value.message == "s.xlsx[Rates] line 4: a cell names shared string 7, which the workbook lacks"


def replaced(path: Path, part: str, text: str) -> None:
    """The workbook with one part's text replaced."""
    with zipfile.ZipFile(path) as archive:
        parts = {name: archive.read(name) for name in archive.namelist()}
    parts[part] = text.encode()
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in parts.items():
            archive.writestr(name, data)


# -- number formats and serial days ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("code", "kind"),
    [
        ("yyyy-mm-dd", "date"),
        ("DD/MM/YY", "date"),
        ("[$-409]mmmm d, yyyy", "date"),
        ("h:mm AM/PM", "date"),
        ("dd/mm/yyyy;@", "date"),
        ("[h]:mm:ss", "duration"),
        ("[Blue][mm]:ss", "duration"),
        ('"Day "0', None),
        ('#,##0.00\\ "days"', None),
        ("0.00_m", None),  # `_m`: a space as wide as an m
        ("[Red]0.00;[Blue]-0.00", None),
        ("General", None),
        ("0;[Red]yyyy", None),  # only the first section decides
        ("#,##0 [$€-407]", None),
        ("0%", "percent"),  # a count formatted so shows 1 as 100%, which is what is read (test_cells_read)
        ("0.00%;[Red]-0.00%", "percent"),
        ('0" %"', None),  # a % in quotes is text after the number, which is shown as it is
    ],
)
def test_a_format_shows_a_date_when_it_has_a_date_token_outside_quotes_and_brackets(
    code: str, kind: str | None
) -> None:
    assert format_kind(code) == kind


@pytest.mark.parametrize(
    ("serial", "date1904", "value"),
    [
        (46391, False, dt.date(2027, 1, 4)),
        # Issue 42: a date-time keeps its time of day (the date rule refuses it), as python-calamine's does.
        (46391.75, False, dt.datetime(2027, 1, 4, 18, 0)),
        (1, False, dt.date(1900, 1, 1)),
        (59, False, dt.date(1900, 2, 28)),
        (61, False, dt.date(1900, 3, 1)),  # day 60 is the 29 February 1900 Excel counts
        (1, True, dt.date(1904, 1, 2)),
        (0.25, True, dt.time(6, 0)),  # under 1, a time of day in either system, as python-calamine reads it
        (0.5, False, dt.time(12, 0)),
        (-1, False, -1),
        (1e20, False, 1e20),
    ],
)
def test_a_serial_day_is_the_day_excel_shows(serial: float, date1904: bool, value: Any) -> None:
    assert date_cell(serial, date1904) == value


def test_read_options_reach_the_streamed_sheet(tmp_path: Path) -> None:
    """--sheet picks by name, folded, and --header-row reads under titles, as for python-calamine."""
    rows = [row(1, inline("A1", "June thresholds")), row(3, inline("A3", "propertyid"), inline("B3", "roomid"),
            inline("C3", "date"), inline("D3", "threshold")),
            row(4, inline("A4", "HTL001"), inline("B4", "DBL"), date("C4", dt.date(2030, 6, 1)), number("D4", 4))]  # fmt: skip
    small, big = both(tmp_path, "june.xlsx", rows)
    done = the_same(small, big, "--sheet", "RATES", "--header-row", "3", "--dry-run", "--today", TODAY)
    assert done.returncode == 0, done.stderr
    assert "1 row: 1 planned" in done.stdout
