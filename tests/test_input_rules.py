"""Inputs that are not what they seem: empty exports, dates that would be guessed, rows that say nothing."""

from __future__ import annotations

import datetime as dt
import time
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import invoke, sandbox_env
from tests.test_xlsx import workbook

TODAY = dt.date.today()
HEADER = "propertyid,roomid,start,end,threshold\n"


def day(offset: int) -> str:
    return (TODAY + dt.timedelta(days=offset)).isoformat()


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def push(sandbox: Any, *args: str, input: str | bytes | None = None) -> Any:
    return invoke(["threshold", "push", *args], env=sandbox_env(sandbox), input=input)


# -- empty is an error ----------------------------------------------------------------------------


def test_empty_standard_input_exits_3_unless_allowed(sandbox: Any) -> None:
    result = push(sandbox, "-", input=b"")
    assert result.exit_code == 3 and result.stdout == ""
    assert result.stderr == (
        "error: <stdin> has no rows\n"
        "hint: check that the export wrote its rows; give --allow-empty if it may rightly be empty\n"
    )
    allowed = push(sandbox, "-", "--allow-empty", "--output", "json", input=b"")
    assert allowed.exit_code == 0 and allowed.stderr == "note: <stdin> has no rows\n"
    assert '"rows": []' in allowed.stdout and sandbox.received == []


def test_an_empty_sheet_is_named(tmp_path: Path, sandbox: Any) -> None:
    path = workbook(tmp_path / "rates.xlsx", {"June": []})
    result = push(sandbox, str(path))
    assert result.exit_code == 3
    assert result.stderr.startswith(f"error: {path}[June] has no rows\n")
    assert sandbox.received == []


def test_one_empty_file_among_others_stops_the_run(tmp_path: Path, sandbox: Any) -> None:
    full = write(tmp_path, "a.csv", f"{HEADER}HTL001,DBL,{day(3)},{day(4)},2\n")
    empty = write(tmp_path, "b.csv", HEADER)
    result = push(sandbox, full, empty)
    assert result.exit_code == 3 and f"error: {empty} has no rows" in result.stderr
    assert sandbox.received == []
    allowed = push(sandbox, full, empty, "--allow-empty")
    assert allowed.exit_code == 0 and f"note: {empty} has no rows" in allowed.stderr
    assert len(sandbox.received) == 1


# -- dates are never guessed ----------------------------------------------------------------------


def test_a_file_whose_every_date_has_one_layout_gets_one_line(tmp_path: Path, sandbox: Any) -> None:
    rows = "".join(f"HTL001,DBL,0{n}/06/2028,0{n}/06/2028,{n}\n" for n in range(1, 8))
    path = write(tmp_path, "r.csv", HEADER + rows)
    result = push(sandbox, path)
    assert result.exit_code == 3 and result.stdout == ""
    assert result.stderr == (
        f'error: {path}: every date is written like "01/06/2028", not YYYY-MM-DD; '
        "give --date-format %d/%m/%Y (day first) or %m/%d/%Y (month first)\n"
        "hint: --date-format takes strptime codes: %d day, %m month, %Y year\n"
    )
    assert sandbox.received == []
    assert push(sandbox, path, "--date-format", "%d/%m/%Y").exit_code == 0


def test_compact_dates_are_hinted_year_first(tmp_path: Path, sandbox: Any) -> None:
    path = write(tmp_path, "r.csv", f"{HEADER}HTL001,DBL,20280601,20280603,2\n")
    result = push(sandbox, path)
    assert result.exit_code == 3
    assert f'error: {path}: every date is written like "20280601", not YYYY-MM-DD; give --date-format %Y%m%d\n' in (
        result.stderr
    )


@pytest.mark.parametrize(
    ("cell", "message"),
    [
        ("today+", '"today+": today+N needs a number of days, e.g. today+7 (or today-N, or today alone)'),
        ("2100-01-01", "2100-01-01 is not in the years 2000-2099; check the year"),
        ("1999-12-31", "1999-12-31 is not in the years 2000-2099; check the year"),
    ],
)
def test_date_texts_get_a_hint_that_fits_them(tmp_path: Path, sandbox: Any, cell: str, message: str) -> None:
    path = write(tmp_path, "r.csv", f"{HEADER}HTL001,DBL,{day(3)},{day(4)},2\nHTL001,DBL,{cell},{day(4)},2\n")
    result = push(sandbox, path)
    assert result.exit_code == 3
    assert f"error: {path} line 3, start: {message}\n" in result.stderr
    assert sandbox.received == []


def test_a_json_number_as_a_date_is_an_error(tmp_path: Path, sandbox: Any) -> None:
    path = write(tmp_path, "r.json", '[{"propertyid": "HTL001", "roomid": "DBL", "date": 46391, "threshold": 2}]')
    result = push(sandbox, path)
    assert result.exit_code == 3
    assert f"error: {path} line 1, date: 46391 is not a date: the cell holds a number" in result.stderr


# -- rows and files that are not what they seem ----------------------------------------------------


def test_a_row_with_only_a_comment_is_skipped_with_a_note(tmp_path: Path, sandbox: Any) -> None:
    path = write(
        tmp_path,
        "r.csv",
        f"propertyid,roomid,start,end,threshold,Notes\nHTL001,DBL,{day(3)},{day(4)},2,\n,,,,,call Bob\n",
    )
    result = push(sandbox, path)
    assert result.exit_code == 0, result.stdout + result.stderr
    assert f"note: {path} line 3: skipped, as the columns this command reads are empty there\n" in result.stderr
    assert len(sandbox.received) == 1
    assert "note:" not in push(sandbox, path, "--quiet").stderr


def test_a_title_above_the_csv_header_gets_the_header_row_hint(tmp_path: Path, sandbox: Any) -> None:
    path = write(tmp_path, "r.csv", f"Thresholds June,,,,\n,,,,\n{HEADER}HTL001,DBL,{day(3)},{day(4)},2\n")
    result = push(sandbox, path)
    assert result.exit_code == 3
    # The line that has the columns is named (issue 29): no N to work out.
    assert f"{path}: the column names are on line 3: give --header-row 3\n" in result.stderr
    assert sandbox.received == []
    assert push(sandbox, path, "--header-row", "3").exit_code == 0


def test_another_operations_file_names_its_command(tmp_path: Path, sandbox: Any) -> None:
    path = write(tmp_path, "r.csv", f"propertyid,roomid,rateid,start,end,time\nHTL001,DBL,BAR,{day(3)},{day(4)},2\n")
    result = push(sandbox, path)
    assert result.exit_code == 3
    assert f"{path}: these are the columns of maxadv: use ari-cli maxadv push\n" in result.stderr


def test_a_workbook_named_csv_is_named_for_what_it_is(tmp_path: Path, sandbox: Any) -> None:
    book = workbook(tmp_path / "rates.xlsx", {"June": [["propertyid"]]})
    path = tmp_path / "rates.csv"
    path.write_bytes(book.read_bytes())
    result = push(sandbox, str(path))
    assert result.exit_code == 3
    assert (
        result.stderr == f"error: {path}: this is an Excel workbook (.xlsx), not CSV text\nhint: rename it to .xlsx\n"
    )


def test_the_encoding_just_tried_is_not_suggested_again(tmp_path: Path, sandbox: Any) -> None:
    path = tmp_path / "r.csv"
    path.write_bytes(f"{HEADER}HTL001,DBL,{day(3)},{day(4)},2\x81\n".encode("latin-1"))
    result = push(sandbox, str(path), "--encoding", "cp1252")
    assert result.exit_code == 3
    assert f"error: {path} line 2: cannot decode byte 81 as cp1252\n" in result.stderr
    assert "--encoding cp1252" not in result.stderr and "--encoding latin-1" in result.stderr


def test_a_workbook_of_several_sheets_names_the_one_read(tmp_path: Path, sandbox: Any) -> None:
    rows: list[list[Any]] = [["propertyid", "roomid", "date", "threshold"], ["HTL001", "DBL", day(3), 2]]
    path = workbook(tmp_path / "rates.xlsx", {"June": rows, "Readme": [["how to fill this in"]], "Notes": []})
    result = push(sandbox, str(path))
    assert result.exit_code == 0, result.stdout + result.stderr
    assert f'note: {path}: read the sheet "June"; the workbook also has "Readme", "Notes" (give --sheet NAME)\n' in (
        result.stderr
    )
    # Issue 42: a second sheet with the columns (July beside June) was left unread, exit 0; test_all_sheets.py


@pytest.mark.parametrize("segment", ["{acton}", "x/{propertyId}"])
def test_an_unknown_path_segment_placeholder_is_a_usage_error(tmp_path: Path, sandbox: Any, segment: str) -> None:
    path = write(tmp_path, "r.csv", f"{HEADER}HTL001,DBL,{day(3)},{day(4)},2\n")
    result = push(sandbox, path, "--path-segment", segment)
    assert result.exit_code == 2
    assert "unknown placeholder" in result.stderr and "use {action} and {propertyid}" in result.stderr
    assert sandbox.received == []


# -- bounded in time and memory --------------------------------------------------------------------


def test_conflicting_rows_are_each_reported_once_quickly(tmp_path: Path, sandbox: Any) -> None:
    rows = "".join(f"HTL001,DBL,{day(3)},{day(3)},{n % 999}\n" for n in range(6000))
    path = write(tmp_path, "r.csv", HEADER + rows)
    started = time.monotonic()
    result = push(sandbox, path, "--output", "json")
    # About 1 s on an idle machine; each row compared with every other would take minutes.
    assert time.monotonic() - started < 60
    assert result.exit_code == 3 and sandbox.received == []
    assert len(result.stderr.encode()) < 2_000_000
    lines = [line for line in result.stderr.splitlines() if line.startswith("error: ")]
    assert len(lines) == 6000
    assert lines[0] == (
        f"error: {path} line 2: 0 overlaps {path} line 3 (1) on {day(3)}..{day(3)}; "
        "fix one of them, or give --overlaps last-wins to let the later row win"
    )
    assert lines[1].startswith(f"error: {path} line 3: 1 overlaps {path} line 2 (0)")


def test_a_row_repeated_exactly_is_sent_once_with_a_note(tmp_path: Path, sandbox: Any) -> None:
    first, other = f"HTL001,DBL,{day(3)},{day(5)},2\n", f"HTL001,DBL,{day(8)},{day(9)},2\n"
    path = write(tmp_path, "r.csv", HEADER + first + other + first)
    result = push(sandbox, path)
    assert result.exit_code == 0, result.stdout + result.stderr
    assert f"note: {path} line 4: repeats {path} line 2 exactly; sent once\n" in result.stderr
    sent = [record for request in sandbox.received for record in request.json["data"]]
    assert [(r["startdateymd"], r["enddateymd"]) for r in sent] == [(day(3), day(5)), (day(8), day(9))]


def test_many_repeats_are_summed_up(tmp_path: Path, sandbox: Any) -> None:
    path = write(tmp_path, "r.csv", HEADER + f"HTL001,DBL,{day(3)},{day(5)},2\n" * 100)
    result = push(sandbox, path)
    assert result.exit_code == 0, result.stdout + result.stderr
    notes = [line for line in result.stderr.splitlines() if line.startswith("note: ")]
    assert len(notes) == 21 and notes[-1] == "note: and 79 more rows repeated exactly"
