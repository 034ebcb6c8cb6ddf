"""Issue 42 point 6 and the rest of point 1: cells a person reads differently from the tool, from the outside.

A count cell formatted as a percentage (`100%`, which holds 1) is refused; a note, a total or the column names
again under the data are named as such; a column under a name the tool does not know that holds weekdays is
read as the days, or refused naming it. Each test runs the console script on a CSV, an openpyxl .xlsx or a
hand-written .ods, and asserts the message, the exit code and what the sandbox holds. 2030-02-04 is a Monday.
"""

from __future__ import annotations

import os
import zipfile
from pathlib import Path
from typing import Any

import httpx
import openpyxl
import pytest

from ari_cli.inputs.sheetgrid import Marks
from ari_cli.inputs.xlsxfile import STREAMED
from tests import odsxml
from tests.helpers import invoke, sandbox_env

TODAY = "2030-01-01"
WEEK = ["2030-02-04", "2030-02-05", "2030-02-06", "2030-02-07", "2030-02-08", "2030-02-09", "2030-02-10"]
HEADER = ["propertyid", "roomid", "start", "end", "threshold"]
NOT_SENT = "nothing was sent: fix the invalid rows above, or give --skip-invalid to send the valid ones\n"


def _push(sandbox: Any, path: Path, *args: str, operation: str = "threshold") -> Any:
    return invoke([operation, "push", str(path), "--today", TODAY, *args], env=sandbox_env(sandbox))


def _held(sandbox: Any, operation: str = "threshold") -> dict[str, Any]:
    state: dict[str, Any] = httpx.get(sandbox.base_url + "/_sandbox/state", timeout=10).json()[operation]
    return state


def _days_set(sandbox: Any) -> list[str]:
    """The dates the sandbox holds a threshold for, for HTL001's DBL."""
    return sorted(_held(sandbox).get("HTL001", {}).get("DBL", {}))


def _csv(tmp_path: Path, *lines: str) -> Path:
    path = tmp_path / "rooms.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _xlsx(tmp_path: Path, rows: list[list[Any]], formats: dict[str, str] | None = None, big: bool = False) -> Path:
    """A workbook of one sheet `Rooms`; `formats` gives cells their number format (`E3`: `0%`); `big` makes
    it unpack past STREAMED (a picture that does not pack), so that the streamed reader reads it."""
    path = tmp_path / "rooms.xlsx"
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.title = "Rooms"
    for row in rows:
        sheet.append(row)
    for ref, number_format in (formats or {}).items():
        sheet[ref].number_format = number_format
    book.save(path)
    if big:
        with zipfile.ZipFile(path, "a") as archive:
            archive.writestr("xl/media/image1.png", os.urandom(STREAMED + 2**20))
    return path


def _ods(tmp_path: Path, rows: list[str]) -> Path:
    return odsxml.write_ods(tmp_path / "rooms.ods", {"Rooms": [*rows, odsxml.END]})


def _ods_row(*cells: str | int) -> str:
    return odsxml.row(*(odsxml.text(c) if isinstance(c, str) else odsxml.number(c) for c in cells), odsxml.TAIL)


def _percentage(value: float) -> str:
    """A cell LibreOffice saves for a number formatted as a percentage."""
    return (
        f'<table:table-cell office:value-type="percentage" office:value="{value}" calcext:value-type="percentage">'
        f"<text:p>{value * 100:g}%</text:p></table:table-cell>"
    )


# -- a count formatted as a percentage ---------------------------------------------------------------------


@pytest.mark.parametrize("big", [False, True], ids=["python-calamine", "streamed"])
def test_a_threshold_cell_formatted_as_a_percentage_is_refused_as_it_shows(
    tmp_path: Path, sandbox: Any, big: bool
) -> None:
    rows = [HEADER, ["HTL001", "DBL", WEEK[0], WEEK[1], 5], ["HTL001", "SGL", WEEK[0], WEEK[1], 1]]
    path = _xlsx(tmp_path, rows, {"E3": "0%"}, big=big)
    result = _push(sandbox, path)
    assert result.exit_code == 3
    assert result.stderr == (
        f"error: {path}[Rooms] line 3, threshold: '100%' is not a whole number 0-999 or n/a to clear; a percentage "
        "is no count (a cell formatted 0% shows 1 as 100%): write the number\n" + NOT_SENT
    )
    assert sandbox.received == [] and _held(sandbox) == {}


def test_a_nights_cell_of_a_custom_percent_format_is_refused(tmp_path: Path, sandbox: Any) -> None:
    rows = [[*HEADER[:2], "rateid", *HEADER[2:4], "nights"], ["HTL001", "DBL", "BAR", WEEK[0], WEEK[1], 1.5]]
    path = _xlsx(tmp_path, rows, {"F2": "0.00%;[Red]-0.00%"})
    result = _push(sandbox, path, operation="maxadv")
    assert result.exit_code == 3
    assert result.stderr.startswith(f"error: {path}[Rooms] line 2, time: '150%' is not a whole number")
    assert sandbox.received == []


def test_a_percentage_cell_of_an_ods_is_refused(tmp_path: Path, sandbox: Any) -> None:
    cells = [odsxml.text(c) for c in ("HTL001", "DBL", WEEK[0], WEEK[1])]
    path = _ods(tmp_path, [_ods_row(*HEADER), odsxml.row(*cells, _percentage(1), odsxml.TAIL)])
    result = _push(sandbox, path)
    assert result.exit_code == 3
    assert result.stderr.startswith(f"error: {path}[Rooms] line 2, threshold: '100%' is not a whole number 0-999")
    assert sandbox.received == []


def test_a_csv_percentage_in_a_count_is_refused(tmp_path: Path, sandbox: Any) -> None:
    path = _csv(tmp_path, ",".join(HEADER), f"HTL001,DBL,{WEEK[0]},{WEEK[1]},100%")
    result = _push(sandbox, path)
    assert result.exit_code == 3
    assert result.stderr.startswith(f"error: {path} line 2, threshold: '100%' is not a whole number 0-999")
    assert "a percentage is no count" in result.stderr
    assert sandbox.received == []


def test_a_percentage_in_a_column_not_read_changes_nothing(tmp_path: Path, sandbox: Any) -> None:
    """Only a count is read as it shows: an occupancy column beside it, formatted 0%, is left out as ever."""
    rows = [[*HEADER, "Occupancy"], ["HTL001", "DBL", WEEK[0], WEEK[1], 2, 0.85]]
    path = _xlsx(tmp_path, rows, {"F2": "0%", "E2": "0"})
    result = _push(sandbox, path)
    assert result.exit_code == 0, result.stderr
    assert _held(sandbox)["HTL001"]["DBL"] == {WEEK[0]: "2", WEEK[1]: "2"}


def test_percent_cells_are_kept_as_runs_of_rows() -> None:
    marks = Marks()
    for row in (2, 3, 4, 9):
        marks.add_percent(row, 4)
    marks.add_percent(10, 4, last=1_000_000)  # an .ods cell repeated down the sheet
    assert marks.percent == {4: [2, 4, 9, 1_000_000]}
    assert [marks.in_percent(row, 4) for row in (1, 2, 3, 4, 5, 8, 9, 500_000, 1_000_001)] == [
        False, True, True, True, False, False, True, True, False,
    ]  # fmt: skip
    assert not marks.in_percent(3, 5)


# -- notes, totals and a second header under the data ------------------------------------------------------


def test_a_note_a_total_and_the_column_names_again_are_named_as_such(tmp_path: Path, sandbox: Any) -> None:
    path = _csv(
        tmp_path,
        ",".join(HEADER),
        f"HTL001,DBL,{WEEK[0]},{WEEK[1]},5",
        "Hotel,Zimmer,Von,Bis,Schwelle",
        f"HTL002,KNG,{WEEK[0]},{WEEK[1]},3",
        "Total,,,,8",
        "Note: approved by J. Smith,,,,",
    )
    result = _push(sandbox, path)
    assert result.exit_code == 3
    assert result.stderr == (
        f"error: {path} line 3 repeats the column names: a second table? Give each table a file (or a sheet) of "
        "its own, or remove the line\n"
        f"error: {path} line 5 looks like a total: remove it or end the table above it\n"
        f"error: {path} line 6 looks like a note: remove it or end the table above it\n" + NOT_SENT
    )
    assert sandbox.received == [] and _held(sandbox) == {}
    # Left out with --skip-invalid, as any invalid row: the rows of the table are sent.
    result = _push(sandbox, path, "--skip-invalid")
    assert result.exit_code == 1
    assert sorted(_held(sandbox)) == ["HTL001", "HTL002"]


@pytest.mark.parametrize(
    ("line", "what"),
    [
        (["Summe", None, None, None, 8], "a total"),
        (["Gesamt:", None, None, None, None], "a total"),
        (["Total général", None, None, None, 8], "a total"),
        (["Note: approved by J. Smith"], "a note"),
        (["Anmerkung", "Preise ab Januar"], "a note"),
        (["approved by J. Smith on 2 December"], "a note"),
    ],
)
def test_a_line_under_a_sheets_data_is_named_for_what_it_is(
    tmp_path: Path, sandbox: Any, line: list[Any], what: str
) -> None:
    path = _xlsx(tmp_path, [HEADER, ["HTL001", "DBL", WEEK[0], WEEK[1], 5], [], line])
    result = _push(sandbox, path)
    assert result.exit_code == 3
    assert result.stderr == f"error: {path}[Rooms] line 4 looks like {what}: remove it or end the table above it\n" + (
        NOT_SENT
    )
    assert sandbox.received == []


def test_a_note_under_an_ods_data_is_named(tmp_path: Path, sandbox: Any) -> None:
    path = _ods(
        tmp_path, [_ods_row(*HEADER), _ods_row("HTL001", "DBL", WEEK[0], WEEK[1], 5), _ods_row("NB: ohne Frühstück")]
    )
    result = _push(sandbox, path)
    assert result.exit_code == 3
    assert result.stderr == f"error: {path}[Rooms] line 3 looks like a note: remove it or end the table above it\n" + (
        NOT_SENT
    )
    assert sandbox.received == []


def test_a_policy_files_total_is_named(tmp_path: Path, sandbox: Any) -> None:
    header = (
        "propertyid,roomid,rateid,start,end,refundable,level,policyid,dayspriorcheckin,penaltyamount,penaltyapplied"
    )
    row = f"HTL001,DBL,BAR,{WEEK[0]},{WEEK[1]},true,1,2,7,100,3"
    path = _csv(tmp_path, header + ",depositpolicy", row + ",not required", "Totals:,,,,,,,,,300,")
    result = _push(sandbox, path, operation="policy")
    assert result.exit_code == 3
    assert result.stderr == f"error: {path} line 3 looks like a total: remove it or end the table above it\n" + NOT_SENT


@pytest.mark.parametrize(
    ("line", "messages"),
    [
        # A row of the table with a problem is worded field by field, whatever its property is called.
        (f"Total Hotel,DBL,{WEEK[0]},tomorrow-ish,5", ["line 3, end: "]),
        (f"HTL001,,{WEEK[0]},{WEEK[1]},5", ["line 3, roomid: is empty"]),
        ("Hotel Berlin,,,,5", ["line 3, roomid: is empty", "line 3, start: is empty"]),
        ("HTL001,,,,", ["line 3, roomid: is empty", "line 3, start: is empty"]),
        (f"Hotel,Room,{WEEK[0]},{WEEK[1]},n/a-ish", ["line 3, threshold: 'n/a-ish' is not a whole number"]),
    ],
)
def test_a_row_with_a_problem_is_never_called_a_note(
    tmp_path: Path, sandbox: Any, line: str, messages: list[str]
) -> None:
    path = _csv(tmp_path, ",".join(HEADER), f"HTL001,DBL,{WEEK[0]},{WEEK[1]},5", line)
    result = _push(sandbox, path)
    assert result.exit_code == 3
    assert "looks like" not in result.stderr and "column names" not in result.stderr
    for message in messages:
        assert f"error: {path} {message}" in result.stderr
    assert sandbox.received == []


# -- a column of weekdays under a name not known as days ---------------------------------------------------


def test_a_csv_column_of_weekdays_under_an_unknown_name_is_read_as_the_days(tmp_path: Path, sandbox: Any) -> None:
    path = _csv(tmp_path, ",".join([*HEADER, "Which days"]), f"HTL001,DBL,{WEEK[0]},{WEEK[6]},2,Mo-Fr")
    result = _push(sandbox, path)
    assert result.exit_code == 0, result.stderr
    assert result.stderr == (
        f'note: {path}: column "Which days" (Mo-Fr) holds weekdays: read as the days each row keeps to; give '
        '--ignore-column "Which days" to leave it out\n'
    )
    assert _days_set(sandbox) == WEEK[:5]


def test_a_sheets_column_of_weekdays_is_read_as_the_days(tmp_path: Path, sandbox: Any) -> None:
    path = _xlsx(tmp_path, [[*HEADER, "Geöffnet an"], ["HTL001", "DBL", WEEK[0], WEEK[6], 2, "Sa-So"]])
    result = _push(sandbox, path)
    assert result.exit_code == 0, result.stderr
    assert f'note: {path}[Rooms] line 1: column "Geöffnet an" (Sa-So) holds weekdays' in result.stderr
    assert _days_set(sandbox) == WEEK[5:]


def test_an_ods_column_of_weekdays_is_read_as_the_days(tmp_path: Path, sandbox: Any) -> None:
    rows = [_ods_row(*HEADER, "Jours d'ouverture"), _ods_row("HTL001", "DBL", WEEK[0], WEEK[6], 2, "lun-ven")]
    path = _ods(tmp_path, rows)
    result = _push(sandbox, path)
    assert result.exit_code == 0, result.stderr
    assert '"Jours d\'ouverture" (lun-ven) holds weekdays: read as the days' in result.stderr
    assert _days_set(sandbox) == WEEK[:5]


def test_it_is_left_out_with_ignore_column(tmp_path: Path, sandbox: Any) -> None:
    path = _csv(tmp_path, ",".join([*HEADER, "Which days"]), f"HTL001,DBL,{WEEK[0]},{WEEK[6]},2,Mo-Fr")
    result = _push(sandbox, path, "--ignore-column", "Which days")
    assert result.exit_code == 0, result.stderr
    assert result.stderr == f"warning: {path}: ignored column Which days (not used by threshold)\n"
    assert _days_set(sandbox) == WEEK


@pytest.mark.parametrize(
    ("header", "values", "message"),
    [
        (
            "Which days,days",
            "Mo-Fr,Sa",
            'column "Which days" (Mo-Fr) holds weekdays beside the days column "days", which gives the days a row '
            'keeps to: keep one of them; give --ignore-column "Which days" to leave it out',
        ),
        (
            "Which days,Closed on",
            "Mo-Fr,So",
            'columns "Which days" (Mo-Fr), "Closed on" (So) each hold weekdays: keep one as the days a row keeps '
            'to (--column days="Which days"); give --ignore-column for each to leave it out',
        ),
        (
            "Notes",
            "Mo-Fr",
            'column "Notes" (Mo-Fr) holds weekdays, under a name exports give their notes: to read them as the days '
            'a row keeps to, give --column days="Notes"; give --ignore-column "Notes" to leave it out',
        ),
    ],
)
def test_a_column_of_weekdays_that_cannot_be_the_days_is_refused_naming_it(
    tmp_path: Path, sandbox: Any, header: str, values: str, message: str
) -> None:
    path = _csv(tmp_path, ",".join([*HEADER, header]), f"HTL001,DBL,{WEEK[0]},{WEEK[6]},2,{values}")
    result = _push(sandbox, path)
    assert result.exit_code == 3
    assert result.stderr.startswith(f"error: {path}: {message}\nexpected columns for threshold: ")
    assert sandbox.received == []


def test_weekdays_that_read_two_ways_are_refused(tmp_path: Path, sandbox: Any) -> None:
    path = _csv(tmp_path, ",".join([*HEADER, "Which days"]), f"HTL001,DBL,{WEEK[0]},{WEEK[6]},2,ma")
    result = _push(sandbox, path)
    assert result.exit_code == 3
    assert result.stderr == (
        f'note: {path}: column "Which days" (ma) holds weekdays: read as the days each row keeps to; give '
        '--ignore-column "Which days" to leave it out\n'
        f'error: {path} line 2, days: "ma" reads as Tuesday (French, Spanish, Italian) or Monday (Dutch): write the '
        "days in full, or as a mask like 1111100 (Monday first)\n" + NOT_SENT
    )
    assert sandbox.received == []


@pytest.mark.parametrize(
    ("header", "value"), [("Size", "M"), ("Grade", "S"), ("Remark", "Mo-Fr only"), ("Code", "1111100")]
)
def test_a_column_of_other_words_is_left_out_as_before(tmp_path: Path, sandbox: Any, header: str, value: str) -> None:
    path = _csv(tmp_path, ",".join([*HEADER, header]), f"HTL001,DBL,{WEEK[0]},{WEEK[6]},2,{value}")
    result = _push(sandbox, path)
    assert result.exit_code == 0, result.stderr
    assert "holds weekdays" not in result.stderr
    assert _days_set(sandbox) == WEEK
