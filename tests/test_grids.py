"""Grids (issue 42, point 4): a row per room and a column per date (dates across), or a row per date and a column
per room (rooms across), in CSV, .xlsx and .ods alike. Before, a grid was exit 3 (missing columns start, end and
the value; the dates named as unknown columns).

Every test runs the console script on a file it writes against the sandbox, and asserts what the sandbox holds,
the messages and the exit code.
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import openpyxl
import pytest

import ari_cli
from ari_cli.sandbox import Sandbox
from tests.conftest import PINNED_TODAY
from tests.helpers import invoke, sandbox_env
from tests.odsxml import TAIL, number, row, text, write_ods

DAYS = ["2027-02-01", "2027-02-02", "2027-02-03", "2027-02-04", "2027-02-05"]
DATES_ACROSS = [
    ["property", "room", *DAYS],
    ["HTL001", "DBL", "5", "5", "5", "", "7"],
    ["HTL001", "TWN", "2", "2", "3", "3", "3"],
]
"""A revenue manager's threshold grid: DBL 5 for three nights, nothing on the 4th, 7 on the 5th."""
ROOMS_ACROSS = [
    ["date", "DBL", "TWN"],
    ["2027-02-01", "5", "2"],
    ["2027-02-02", "5", ""],
    ["2027-02-03", "6", "2"],
]


def csv_file(path: Path, rows: list[list[str]]) -> Path:
    path.write_text("".join(",".join(cells) + "\n" for cells in rows), encoding="utf-8")
    return path


def xlsx_file(path: Path, rows: list[list[Any]], title: str = "Grid") -> Path:
    """The rows as a workbook's one sheet; header cells that are ISO dates written as date cells, as a
    spreadsheet program keeps them, numbers as numbers."""
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.title = title
    for cells in rows:
        sheet.append([_typed(cell) for cell in cells])
    book.save(path)
    return path


def _typed(cell: str) -> Any:
    if cell.isdigit():
        return int(cell)
    try:
        return dt.date.fromisoformat(cell)
    except ValueError:
        return cell or None


def ods_file(path: Path, rows: list[list[str]], title: str = "Grid") -> Path:
    """The rows as an .ods's one sheet, as LibreOffice writes it (text cells, numbers as numbers)."""
    cells = [row(*(number(int(c)) if c.isdigit() else text(c) for c in cells), TAIL) for cells in rows]
    return write_ods(path, {title: cells})


def push(sb: Sandbox, operation: str, *args: str) -> Any:
    return invoke([operation, "push", *args, "--today", PINNED_TODAY], env=sandbox_env(sb))


def held(sb: Sandbox, operation: str = "threshold") -> dict[str, Any]:
    state: dict[str, Any] = sb.state()[operation]
    return state


def documents(stdout: str) -> dict[str, Any]:
    found: dict[str, Any] = json.loads(stdout)
    return found


WRITERS = {"csv": csv_file, "xlsx": xlsx_file, "ods": ods_file}


@pytest.mark.parametrize("kind", ["csv", "xlsx", "ods"])
def test_dates_across_sets_each_cell_s_date_and_a_row_is_one_row_of_the_results(
    sb: Sandbox, tmp_path: Path, kind: str
) -> None:
    path = WRITERS[kind](tmp_path / f"grid.{kind}", DATES_ACROSS)
    source = str(path) if kind == "csv" else f"{path}[Grid]"

    result = push(sb, "threshold", str(path), "--output", "json")

    assert result.exit_code == 0, result.output
    assert held(sb) == {
        "HTL001": {
            "DBL": {"2027-02-01": "5", "2027-02-02": "5", "2027-02-03": "5", "2027-02-05": "7"},
            "TWN": {"2027-02-01": "2", "2027-02-02": "2", "2027-02-03": "3", "2027-02-04": "3", "2027-02-05": "3"},
        }
    }
    document = documents(result.stdout)
    rows = document["rows"]
    assert [(r["source"], r["line"], r["status"]) for r in rows] == [(source, 2, "ok"), (source, 3, "ok")]
    assert (rows[0]["roomid"], rows[0]["dates"], rows[0]["value"]) == (
        "DBL",
        "2027-02-01..2027-02-05 (4 of 5 days)",
        "5, 7",
    )
    # A run of equal cells on consecutive dates is one record: DBL 5 and 7, TWN 2 and 3; one request.
    assert document["summary"]["records"] == 4 and len(sb.received) == 1
    assert (
        f"note: {source}{'' if kind == 'csv' else ' line 1'}: read as a grid with dates across: 5 dates, "
        "2027-02-01 to 2027-02-05 (told from its header; --layout rows reads it as rows)" in result.stderr
    )


def test_a_grid_sends_no_more_requests_nor_records_than_the_same_settings_as_rows(sb: Sandbox, tmp_path: Path) -> None:
    grid = csv_file(tmp_path / "grid.csv", DATES_ACROSS)
    rows = csv_file(
        tmp_path / "rows.csv",
        [["property", "room", "date", "threshold"]]
        + [
            ["HTL001", room, day, value]
            for _, room, *values in DATES_ACROSS[1:]
            for day, value in zip(DAYS, values, strict=True)
            if value
        ],
    )
    by_rows = push(sb, "threshold", str(rows), "--output", "json", "--no-journal")
    sent_by_rows = [r.json for r in sb.received]
    sb.reset()
    by_grid = push(sb, "threshold", str(grid), "--output", "json", "--no-journal")

    assert by_rows.exit_code == by_grid.exit_code == 0
    assert documents(by_grid.stdout)["summary"]["records"] == documents(by_rows.stdout)["summary"]["records"] == 4
    assert [r.json for r in sb.received] == sent_by_rows


@pytest.mark.parametrize("kind", ["csv", "xlsx", "ods"])
def test_rooms_across_with_property_sets_each_room_s_dates(sb: Sandbox, tmp_path: Path, kind: str) -> None:
    path = WRITERS[kind](tmp_path / f"rooms.{kind}", ROOMS_ACROSS)
    source = str(path) if kind == "csv" else f"{path}[Grid]"

    result = push(sb, "threshold", str(path), "--property", "HTL001", "--output", "json")

    assert result.exit_code == 0, result.output
    assert held(sb) == {
        "HTL001": {
            "DBL": {"2027-02-01": "5", "2027-02-02": "5", "2027-02-03": "6"},
            "TWN": {"2027-02-01": "2", "2027-02-03": "2"},
        }
    }
    rows = documents(result.stdout)["rows"]
    assert [(r["line"], r["roomid"], r["dates"], r["value"], r["status"]) for r in rows] == [
        (2, "DBL, TWN", "2027-02-01", "5, 2", "ok"),
        (3, "DBL", "2027-02-02", "5", "ok"),
        (4, "DBL, TWN", "2027-02-03", "6, 2", "ok"),
    ]
    assert "read as a grid with rooms across: 2 rooms, DBL, TWN" in result.stderr
    assert source in result.stderr


def test_maxadv_rooms_across_takes_the_rate_from_rate_id(sb: Sandbox, tmp_path: Path) -> None:
    path = csv_file(tmp_path / "nights.csv", [["Hotel", "Datum", "DBL", "TWN"], ["HTL001", "2027-02-01", "30", "60"]])

    result = push(sb, "maxadv", str(path), "--rate-id", "BAR")

    assert result.exit_code == 0, result.output
    assert held(sb, "maxadv") == {
        "HTL001": {"DBL": {"BAR": {"2027-02-01": "30"}}, "TWN": {"BAR": {"2027-02-01": "60"}}}
    }


def test_maxadv_dates_across_without_a_rate_column_or_rate_id_is_refused(sb: Sandbox, tmp_path: Path) -> None:
    path = csv_file(tmp_path / "nights.csv", [["property", "room", "2027-02-01"], ["HTL001", "DBL", "30"]])

    result = push(sb, "maxadv", str(path))

    assert result.exit_code == 3
    assert f"error: {path}: missing column rateid, or --rate-id R for a grid of one" in result.stderr
    assert result.stdout == "" and sb.received == []


def test_blank_sets_nothing_and_n_a_clears(sb: Sandbox, tmp_path: Path) -> None:
    before = csv_file(
        tmp_path / "before.csv",
        [["property", "room", "start", "end", "threshold"], ["HTL001", "DBL", "2027-02-01", "2027-02-03", "9"]],
    )
    assert push(sb, "threshold", str(before)).exit_code == 0
    grid = csv_file(tmp_path / "grid.csv", [["property", "room", *DAYS[:3]], ["HTL001", "DBL", "n/a", "", "4"]])

    result = push(sb, "threshold", str(grid))

    assert result.exit_code == 0, result.output
    # The 1st cleared, the 2nd (blank) left as it was, the 3rd set.
    assert held(sb) == {"HTL001": {"DBL": {"2027-02-02": "9", "2027-02-03": "4"}}}


def test_a_failing_piece_makes_its_row_failed(sb: Sandbox, tmp_path: Path) -> None:
    """A rooms-across row of a room the property has and one it has not: the first is set, the row is failed."""
    path = csv_file(tmp_path / "rooms.csv", [["date", "DBL", "NOPE"], ["2027-02-01", "5", "6"]])

    result = push(sb, "threshold", str(path), "--property", "HTL001", "--output", "json")

    assert result.exit_code == 1, result.output
    assert held(sb) == {"HTL001": {"DBL": {"2027-02-01": "5"}}}
    (only,) = documents(result.stdout)["rows"]
    assert (only["line"], only["status"]) == (2, "failed")
    assert [e["code"] for e in only["errors"]] == [451]


@pytest.mark.parametrize(
    ("kind", "place"),
    [("csv", '{path} line 3, column "2027-02-03"'), ("xlsx", "{path}[Grid]:E3"), ("ods", "{path}[Grid]:E3")],
)
def test_a_bad_cell_is_named_and_its_row_is_invalid_whole(sb: Sandbox, tmp_path: Path, kind: str, place: str) -> None:
    rows = [DATES_ACROSS[0], DATES_ACROSS[1], ["HTL001", "TWN", "2", "2", "lots", "", ""]]
    path = WRITERS[kind](tmp_path / f"grid.{kind}", rows)

    result = push(sb, "threshold", str(path))

    assert result.exit_code == 3
    named = place.format(path=path)
    assert f"error: {named}, threshold: 'lots' is not a whole number 0-999 or n/a to clear" in result.stderr
    assert sb.received == []


def test_equal_bad_cells_side_by_side_are_named_as_one_range(sb: Sandbox, tmp_path: Path) -> None:
    path = xlsx_file(tmp_path / "grid.xlsx", [DATES_ACROSS[0], ["HTL001", "DBL", "x", "x", "1", "", ""]])

    result = push(sb, "threshold", str(path))

    assert result.exit_code == 3
    assert f"error: {path}[Grid]:C2:D2, threshold: 'x' is not a whole number" in result.stderr


@pytest.mark.parametrize(
    ("header", "message"),
    [
        (
            ["property", "room", "2027-02-01", "2027-02-03", "2027-02-02"],
            'column 5 "2027-02-02" (2027-02-02) comes after column 4 (2027-02-03): a grid\'s dates go left to right, '
            "in order",
        ),
        (
            ["property", "room", "2027-02-01", "2027-02-01"],
            'column 4 "2027-02-01" repeats the date 2027-02-01 of column 3: a grid has one column per date',
        ),
        (
            ["property", "room", "2027-02-01", "2027-02-3x"],
            'column 4 "2027-02-3x" is not a date (',
        ),
    ],
)
def test_bad_header_dates_are_exit_3_naming_the_column(
    sb: Sandbox, tmp_path: Path, header: list[str], message: str
) -> None:
    path = csv_file(tmp_path / "grid.csv", [header, ["HTL001", "DBL", *["1"] * (len(header) - 2)]])

    result = push(sb, "threshold", str(path))

    assert result.exit_code == 3
    assert f"error: {path}: {message}" in result.stderr
    assert result.stdout == "" and sb.received == []


def test_bad_header_dates_in_a_workbook_name_the_column_by_letter(sb: Sandbox, tmp_path: Path) -> None:
    path = xlsx_file(
        tmp_path / "grid.xlsx", [["property", "room", "2027-02-02", "2027-02-01"], ["HTL001", "DBL", "1", "2"]]
    )

    result = push(sb, "threshold", str(path))

    assert result.exit_code == 3
    assert f'error: {path}[Grid] line 1: column D "2027-02-01" (2027-02-01) comes after column C' in result.stderr


def test_layout_forced_rows_reads_a_grid_as_rows(sb: Sandbox, tmp_path: Path) -> None:
    path = csv_file(tmp_path / "rooms.csv", [["property", "date", "DBL", "TWN"], ["HTL001", "2027-02-01", "5", "2"]])

    result = push(sb, "threshold", str(path), "--layout", "rows")

    assert result.exit_code == 3
    assert f"{path}: missing columns roomid, threshold" in result.stderr
    assert "read as a grid" not in result.stderr and sb.received == []


def test_layout_forced_rooms_across_takes_a_room_named_near_a_column(sb: Sandbox, tmp_path: Path) -> None:
    """`STE` reads as rooms across unforced; a room `Rooom` is a near miss of room, so the header is rows unless
    --layout says it is a grid."""
    rows = [["property", "date", "Rooom"], ["HTL001", "2027-02-01", "5"]]
    path = csv_file(tmp_path / "rooms.csv", rows)
    told = push(sb, "threshold", str(path))
    assert told.exit_code == 3 and 'column "Rooom" is not known; did you mean "room"?' in told.stderr

    forced = push(sb, "threshold", str(path), "--layout", "rooms-across", "--output", "json")

    assert forced.exit_code == 1  # the sandbox knows no room Rooom: the grid was read, and sent
    assert f"note: {path}: read as a grid with rooms across: 1 room, Rooom (--layout rooms-across)" in forced.stderr
    assert [r.json["data"][0]["roomid"] for r in sb.received] == ["Rooom"]


def test_property_beside_a_property_column_is_refused(sb: Sandbox, tmp_path: Path) -> None:
    path = csv_file(tmp_path / "grid.csv", DATES_ACROSS)

    result = push(sb, "threshold", str(path), "--property", "HTL002")

    assert result.exit_code == 3
    assert f'error: {path}: --property HTL002 is given, and column "property" gives propertyid: keep one of them' in (
        result.stderr
    )
    assert sb.received == []


def test_property_for_a_file_of_rows_is_refused(sb: Sandbox, tmp_path: Path) -> None:
    path = csv_file(
        tmp_path / "rows.csv", [["property", "room", "date", "threshold"], ["HTL001", "DBL", "2027-02-01", "4"]]
    )

    told = push(sb, "threshold", str(path), "--property", "HTL001")
    forced = push(sb, "threshold", str(path), "--property", "HTL001", "--layout", "rows")

    assert told.exit_code == 3
    assert (
        f"error: {path}: --property HTL001 is for a grid (a column per date or per room), and this file is read "
        "as rows" in " ".join(told.stderr.split())
    )
    assert forced.exit_code == 2
    assert "--property cannot be given with --layout rows" in forced.stderr
    assert sb.received == []


def test_rate_id_for_threshold_is_a_usage_error(sb: Sandbox, tmp_path: Path) -> None:
    path = csv_file(tmp_path / "grid.csv", DATES_ACROSS)

    result = push(sb, "threshold", str(path), "--rate-id", "BAR")

    assert result.exit_code == 2
    assert "error: --rate-id BAR: threshold is set per room, not per rate" in result.stderr
    assert sb.received == []


def test_a_policy_grid_names_policies_of_policies(sb: Sandbox, tmp_path: Path) -> None:
    samples = Path(__file__).resolve().parent.parent / "samples"
    path = xlsx_file(
        tmp_path / "policies.xlsx",
        [["room", "rate", "2027-02-01", "2027-02-02", "2027-02-03"], ["DBL", "BAR", "flex7", "flex7", "nonref"]],
    )

    result = push(
        sb, "policy", str(path), "--property", "HTL001", "--policies", str(samples / "policies.toml"), "-o", "json"
    )

    assert result.exit_code == 0, result.output
    (only,) = documents(result.stdout)["rows"]
    assert (only["line"], only["status"], only["dates"]) == (2, "ok", "2027-02-01..2027-02-03")
    policies = held(sb, "policy")["HTL001"]["DBL"]["BAR"]
    assert sorted(policies) == ["2027-02-01", "2027-02-02", "2027-02-03"]
    assert policies["2027-02-01"] == policies["2027-02-02"] != policies["2027-02-03"]
    assert len(sb.received) == 2  # a policy is a request of its own: flex7 on two nights, nonref on one


def test_a_grid_row_with_past_dates_is_sent_from_today_with_a_note(sb: Sandbox, tmp_path: Path) -> None:
    path = csv_file(
        tmp_path / "grid.csv", [["property", "room", "2026-12-30", "2027-01-02"], ["HTL001", "DBL", "3", "4"]]
    )

    result = push(sb, "threshold", str(path), "--output", "json")

    assert result.exit_code == 0, result.output
    assert held(sb) == {"HTL001": {"DBL": {"2027-01-02": "4"}}}
    (only,) = documents(result.stdout)["rows"]
    assert only["status"] == "ok"
    assert only["note"] == f"some of its dates are not sent: ends 2026-12-30, before today {PINNED_TODAY}"


def test_the_python_api_takes_the_same_keywords(sb: Sandbox, tmp_path: Path) -> None:
    path = csv_file(tmp_path / "rooms.csv", ROOMS_ACROSS)
    run = ari_cli.push(
        "threshold",
        path,
        layout="rooms-across",
        property_id="HTL001",
        journal=False,
        base_url=sb.base_url,
        source_id=sb.source_id,
        api_key=sb.api_key,
        today=PINNED_TODAY,
    )

    assert run.exit_code == 0
    assert [row.line for row in run.rows] == [2, 3, 4]
    assert held(sb)["HTL001"]["TWN"] == {"2027-02-01": "2", "2027-02-03": "2"}


def test_dates_in_a_header_without_a_room_column_are_not_taken_for_a_grid(sb: Sandbox, tmp_path: Path) -> None:
    """A row of values read as the header (--header-row one line off) holds dates too: it is told as rows, and its
    missing columns are named, as before grids were read."""
    path = csv_file(tmp_path / "rows.csv", [["HTL001", "2027-02-01", "2027-02-02", "4"]])

    result = push(sb, "threshold", str(path))

    assert result.exit_code == 3
    assert f"error: {path}: missing columns propertyid, roomid, start and end (or date), threshold\n" in result.stderr
    assert "grid" not in result.stderr and sb.received == []


def test_a_count_cell_formatted_as_a_percent_is_read_as_it_shows(sb: Sandbox, tmp_path: Path) -> None:
    path = xlsx_file(tmp_path / "grid.xlsx", [DATES_ACROSS[0], ["HTL001", "DBL", "1", "1", "1", "", ""]])
    book = openpyxl.load_workbook(path)
    book["Grid"]["D2"].number_format = "0%"
    book.save(path)

    result = push(sb, "threshold", str(path))

    assert result.exit_code == 3
    assert f"error: {path}[Grid]:D2, threshold: '100%' is not a whole number" in result.stderr
    assert sb.received == []


def test_header_dates_are_read_by_the_date_rule_month_names_and_date_format_too(sb: Sandbox, tmp_path: Path) -> None:
    named = csv_file(
        tmp_path / "named.csv", [["property", "room", "1 Feb 2027", "2 Feb 2027"], ["HTL001", "DBL", "2", "3"]]
    )
    dotted = csv_file(tmp_path / "dotted.csv", [["property", "room", "03.02.2027"], ["HTL001", "TWN", "4"]])

    assert push(sb, "threshold", str(named)).exit_code == 0
    assert push(sb, "threshold", str(dotted), "--date-format", "%d.%m.%Y").exit_code == 0

    assert held(sb) == {"HTL001": {"DBL": {"2027-02-01": "2", "2027-02-02": "3"}, "TWN": {"2027-02-03": "4"}}}
