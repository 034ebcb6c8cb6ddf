"""An .xlsx sheet is surveyed by one pass over its XML (ari_cli.inputs.sheetgrid), whatever form its XML takes
and whichever reader reads it (issue 29, points 5 and 7).

Some generators prefix every element of the sheet (`<x:c r="A1">`) and write attributes in another order than
spreadsheet programs do: such a sheet gets the same refusal and the same marks (hidden rows and columns, error
cells, formulas with no saved value, merged cells) as the plain form. A workbook that unpacks past STREAMED is
streamed instead of read by python-calamine, and gets its marks, merged cells included, from the same pass.

Every test runs the console script on a workbook it writes and asserts the message and the exit code.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import openpyxl
import pytest

from ari_cli.inputs.xlsxfile import STREAMED
from tests.sheetxml import MAIN, inline, number, row, write_workbook

ARI = Path(sys.executable).parent / "ari-cli"
TODAY = "2030-01-01"
SHEET = "xl/worksheets/sheet1.xml"
HEAD = ["propertyid", "roomid", "date", "threshold"]
FORMS = ["plain", "prefixed"]
READERS = ["calamine", "streamed"]

pytestmark = pytest.mark.skipif(not ARI.exists(), reason="needs the ari-cli console script")


def push(path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {"PATH": "/usr/bin:/bin", "ARI_HOME": str(path.parent / "home"), "NO_COLOR": "1", "COLUMNS": "200"}
    argv = [str(ARI), "threshold", "push", path.name, "--dry-run", "--sandbox", "--today", TODAY, *args]
    done = subprocess.run(argv, cwd=path.parent, env=env, capture_output=True, text=True, timeout=120)
    # What the run says after the line that names the sandbox's address.
    first, _, done.stderr = done.stderr.partition("\n")
    assert first.startswith("pushing to the built-in sandbox at http://127.0.0.1:"), first
    return done


def _element(match: re.Match[str]) -> str:
    slash, name, attributes, close = match.groups()
    pairs = re.findall(r'\s+[\w:]+="[^"]*"', attributes)
    return f"<{slash}x:{name}{''.join(reversed(pairs))}{close}>"


def prefixed(xml: str) -> str:
    """A sheet as some generators write it: every element of the main namespace prefixed (`<x:row>`), and
    each element's attributes in reverse order (`r=` last)."""
    xml = re.sub(r'<(/?)([A-Za-z]\w*)((?:\s+[\w:]+="[^"]*")*)\s*(/?)>', _element, xml)
    xml = xml.replace(f'xmlns="{MAIN}"', f'xmlns:x="{MAIN}"')
    assert "<x:c " in xml and "<c " not in xml and 'xmlns="' not in xml
    return xml


def rewritten(path: Path, form: str, reader: str, change: tuple[str, str] | None = None) -> Path:
    """The workbook with its sheet in `form`, `change` made to the sheet first; past STREAMED (a picture that
    does not pack) for the streamed reader."""
    with zipfile.ZipFile(path) as original:
        parts = {info.filename: original.read(info) for info in original.infolist()}
    xml = parts[SHEET].decode()
    if change is not None:
        assert change[0] in xml
        xml = xml.replace(*change)
    parts[SHEET] = (prefixed(xml) if form == "prefixed" else xml).encode()
    if reader == "streamed":
        parts["xl/media/image1.png"] = os.urandom(STREAMED + 2**20)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as out:
        for name, data in parts.items():
            out.writestr(name, data)
    return path


@pytest.mark.parametrize("reader", READERS)
@pytest.mark.parametrize("form", FORMS)
def test_cells_that_read_as_empty_are_named_whatever_the_form_and_reader(
    tmp_path: Path, form: str, reader: str
) -> None:
    made = openpyxl.Workbook()
    sheet = made.active
    assert sheet is not None
    sheet.title = "Rates"
    sheet.append(HEAD)
    sheet.append(["HTL001", "DBL", "2030-02-01", "=1+1"])  # a formula openpyxl saves without its value
    sheet.append(["HTL001", None, "2030-02-02", 2])
    sheet.append(["HTL001", None, "2030-02-03", 2])
    sheet.merge_cells("B2:B4")
    sheet["B2"] = "DBL"
    made.save(tmp_path / "rates.xlsx")
    error = ('<c r="D3" t="n"><v>2</v></c>', '<c r="D3" t="e"><f>VLOOKUP(A3,X,2)</f><v>#N/A</v></c>')
    path = rewritten(tmp_path / "rates.xlsx", form, reader, error)
    done = push(path)
    assert done.returncode == 3, done.stderr
    assert done.stdout == ""
    where = "rates.xlsx[Rates]"
    assert done.stderr.splitlines()[:4] == [
        f"error: {where} line 2, threshold: a formula with no saved value: open and save the workbook in a "
        "spreadsheet program",
        f"{where} line 3, roomid: merged with B2, whose value only the first cell holds: unmerge the cells",
        f"{where} line 3, threshold: #N/A (an error cell)",
        f"{where} line 4, roomid: merged with B2, whose value only the first cell holds: unmerge the cells",
    ]
    assert "is empty" not in done.stderr


@pytest.mark.parametrize("reader", READERS)
@pytest.mark.parametrize("form", FORMS)
def test_hidden_rows_and_columns_are_told_whatever_the_form_and_reader(tmp_path: Path, form: str, reader: str) -> None:
    made = openpyxl.Workbook()
    sheet = made.active
    assert sheet is not None
    sheet.title = "Rates"
    sheet.append(HEAD)
    for day in (1, 2, 3):
        sheet.append(["HTL001", "DBL", f"2030-02-0{day}", day])
    sheet.row_dimensions[3].hidden = True
    sheet.column_dimensions["D"].hidden = True
    made.save(tmp_path / "rates.xlsx")
    path = rewritten(tmp_path / "rates.xlsx", form, reader)
    refused = push(path)
    assert refused.returncode == 3, refused.stderr
    assert refused.stderr.startswith(
        "error: rates.xlsx[Rates] line 3: hidden or filtered out in the workbook, so a person reading the sheet "
        "would not count them\n"
    )
    skipped = push(path, "--hidden-rows", "skip")
    assert skipped.returncode == 0, skipped.stderr
    assert "note: rates.xlsx[Rates] line 3: hidden or filtered out in the workbook; left out\n" in skipped.stderr
    assert "note: rates.xlsx[Rates]: column D (threshold) hidden in the workbook; read\n" in skipped.stderr
    assert "2 rows: 2 planned, 0 failed, 0 invalid, 0 skipped" in skipped.stdout


def test_a_prefixed_sparse_sheet_is_refused_before_it_is_built(tmp_path: Path) -> None:
    # Values only in columns A and XFD over 20,000 rows: 327 million cells the reader would allocate.
    cells = [row(i, inline(f"A{i}", "x"), inline(f"XFD{i}", "y")) for i in range(1, 20_001)]
    path = rewritten(write_workbook(tmp_path / "sparse.xlsx", {"Rates": cells}), "prefixed", "calamine")
    assert path.stat().st_size < 400_000
    done = push(path)
    assert done.returncode == 3
    assert done.stdout == ""
    assert done.stderr.startswith(
        "error: sparse.xlsx[Rates]: the sheet's values span 20,000 rows x 16,384 columns (327,680,000 cells); "
        "refused: a workbook's sheet is read up to 8,000,000 cells, as the reader builds the whole grid\n"
    )


def test_a_merged_range_that_names_no_cells_is_an_input_error(tmp_path: Path) -> None:
    cells = [row(1, *(inline(f"{c}1", n) for c, n in zip("ABCD", HEAD, strict=True)))]
    path = write_workbook(tmp_path / "rates.xlsx", {"Rates": cells})
    path = rewritten(
        path, "plain", "calamine", ("</sheetData>", '</sheetData><mergeCells><mergeCell ref="B2:C"/></mergeCells>')
    )
    done = push(path)
    assert done.returncode == 3
    assert done.stderr.startswith('error: rates.xlsx[Rates]: cannot read the sheet: a merged range "B2:C"\nhint: ')
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("reader", READERS)
def test_a_cell_past_the_last_column_is_refused_by_either_reader(tmp_path: Path, reader: str) -> None:
    cells = [
        row(1, *(inline(f"{c}1", n) for c, n in zip("ABCD", HEAD, strict=True))),
        row(
            2,
            inline("A2", "HTL001"),
            inline("B2", "DBL"),
            inline("C2", "2030-02-01"),
            number("D2", 2),
            number("XFE2", 1),
        ),
    ]
    path = rewritten(write_workbook(tmp_path / "wide.xlsx", {"Rates": cells}), "plain", reader)
    done = push(path)
    assert done.returncode == 3
    assert done.stdout == ""
    assert done.stderr == (
        'error: wide.xlsx[Rates] line 2: a cell at "XFE2", past the last column XFD\n'
        "hint: open it in the spreadsheet program and save it again (Excel Workbook .xlsx), or save the sheet as CSV\n"
    )
