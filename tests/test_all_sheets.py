"""A workbook with a sheet per hotel (issue 42, point 3): --sheet repeated, --all-sheets, and a workbook where
more than one visible sheet has the operation's columns refused without them (it pushed the first, exit 0).

Every test runs the console script on a workbook it writes (openpyxl, or tests/odsxml.py for .ods) and asserts
what the sandbox holds, the messages and the exit code.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import openpyxl
import pytest

import ari_cli
from ari_cli.sandbox import Sandbox
from tests.conftest import PINNED_TODAY
from tests.helpers import invoke, row_of, sandbox_env
from tests.odsxml import TAIL, number, row, text, write_ods

HEAD = ["propertyid", "roomid", "date", "threshold"]
HOTELS = {"Hotel A": ("HTL001", "DBL", 2), "Hotel B": ("HTL002", "KNG", 3), "Hotel C": ("HTL003", "TWN", 4)}
"""Sheet -> the property, room and threshold of its two rows (2027-02-01 and 2027-02-02)."""
DAYS = ("2027-02-01", "2027-02-02")


def sheets(readme: bool = True) -> dict[str, list[list[Any]]]:
    """A Readme first (no columns of threshold), then a sheet per hotel, as a group's revenue manager keeps them."""
    made: dict[str, list[list[Any]]] = {"Readme": [["One sheet per hotel; fill in the thresholds"]]} if readme else {}
    for title, (hotel, room, value) in HOTELS.items():
        made[title] = [HEAD, *([hotel, room, day, value] for day in DAYS)]
    return made


def write(path: Path, content: dict[str, list[list[Any]]]) -> Path:
    """The sheets as an .xlsx or .xlsm (openpyxl), or an .ods (its XML), by the path's extension."""
    if path.suffix == ".ods":
        cell = {str: text, int: number}
        return write_ods(
            path,
            {
                title: [row(*(cell[type(v)](v) for v in cells), TAIL) for cells in rows]
                for title, rows in content.items()
            },
        )
    book = openpyxl.Workbook()
    first = book.active
    assert first is not None
    book.remove(first)
    for title, rows in content.items():
        sheet = book.create_sheet(title)
        for cells in rows:
            sheet.append(cells)
    book.save(path)
    return path


def push(sb: Sandbox, *args: str) -> Any:
    return invoke(["threshold", "push", *args, "--today", PINNED_TODAY], env=sandbox_env(sb))


def held(sb: Sandbox) -> dict[str, dict[str, dict[str, str]]]:
    """The thresholds the sandbox holds, by property, room and date."""
    state: dict[str, dict[str, dict[str, str]]] = sb.state()["threshold"]
    return state


def table_row(stdout: str, line: str) -> list[str]:
    """The cells of the table's row whose Line is `line` (file[sheet]:line)."""
    return row_of(stdout, line)


def expected(*titles: str) -> dict[str, dict[str, dict[str, str]]]:
    return {HOTELS[t][0]: {HOTELS[t][1]: dict.fromkeys(DAYS, str(HOTELS[t][2]))} for t in titles}


@pytest.mark.parametrize("suffix", [".xlsx", ".xlsm", ".ods"])
def test_two_visible_sheets_with_the_columns_are_refused_naming_them_and_both_flags(
    tmp_path: Path, sb: Sandbox, suffix: str
) -> None:
    path = write(tmp_path / f"hotels{suffix}", sheets())
    result = push(sb, str(path))
    assert result.exit_code == 3
    assert result.stdout == ""
    assert result.stderr == (
        f'error: {path}: 3 visible sheets have the columns of threshold: "Hotel A", "Hotel B", "Hotel C"; '
        "reading one alone would leave the others as they are\n"
        "hint: give --all-sheets to read every one, or --sheet NAME for each sheet to read (repeatable)\n"
    )
    assert held(sb) == {}


@pytest.mark.parametrize("suffix", [".xlsx", ".xlsm", ".ods"])
def test_all_sheets_pushes_every_hotel_and_names_each_row_by_its_sheet(
    tmp_path: Path, sb: Sandbox, suffix: str
) -> None:
    path = write(tmp_path / f"hotels{suffix}", sheets())
    result = push(sb, str(path), "--all-sheets")
    assert result.exit_code == 0, result.stderr
    assert held(sb) == expected("Hotel A", "Hotel B", "Hotel C")
    assert result.stderr == (
        f'note: {path}: read the sheets "Hotel A", "Hotel B", "Hotel C"; passed over "Readme" (not the columns of '
        "threshold) (--all-sheets)\n"
    )
    for title, (hotel, room, value) in HOTELS.items():  # the table names each row file[sheet]:line
        for line, day in zip((2, 3), DAYS, strict=True):
            at = f"{path}[{title}]:{line}"
            assert table_row(result.stdout, at)[:6] == [at, hotel, room, day, str(value), "ok"]


def test_sheet_repeated_pushes_the_sheets_named_and_leaves_the_others(tmp_path: Path, sb: Sandbox) -> None:
    path = write(tmp_path / "hotels.xlsx", sheets())
    # A name in another case is the sheet's; a sheet named twice is read once.
    result = push(sb, str(path), "--sheet", "Hotel C", "--sheet", "hotel a", "--sheet", "Hotel C", "--output", "json")
    assert result.exit_code == 0, result.stderr
    assert held(sb) == expected("Hotel A", "Hotel C")
    rows = [(r["source"], r["line"], r["status"]) for r in json.loads(result.stdout)["rows"]]
    assert rows == [
        (f"{path}[Hotel C]", 2, "ok"),
        (f"{path}[Hotel C]", 3, "ok"),
        (f"{path}[Hotel A]", 2, "ok"),
        (f"{path}[Hotel A]", 3, "ok"),
    ]
    assert result.stderr == ""


def test_a_sheet_that_does_not_exist_keeps_its_message_among_others(tmp_path: Path, sb: Sandbox) -> None:
    path = write(tmp_path / "hotels.xlsx", sheets())
    result = push(sb, str(path), "--sheet", "Hotel A", "--sheet", "Hotel D")
    assert result.exit_code == 3
    assert result.stdout == ""
    assert result.stderr == (
        f'error: {path}: no sheet named "Hotel D"; the workbook has "Readme", "Hotel A", "Hotel B", "Hotel C"\n'
        "hint: give --sheet NAME\n"
    )
    assert held(sb) == {}


def test_sheet_with_all_sheets_is_a_usage_error(tmp_path: Path, sb: Sandbox) -> None:
    path = write(tmp_path / "hotels.xlsx", sheets())
    result = push(sb, str(path), "--sheet", "Hotel A", "--all-sheets")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == (
        "error: --sheet and --all-sheets cannot be given together\n"
        "hint: give --sheet NAME for each sheet, or --all-sheets\n"
    )
    assert held(sb) == {}


def test_one_sheet_with_the_columns_is_still_read_without_a_flag(tmp_path: Path, sb: Sandbox) -> None:
    content = sheets()
    content["Hotel B"] = [["room", "beds"], ["KNG", 2]]  # not the columns of threshold
    del content["Hotel C"]
    path = write(tmp_path / "hotels.xlsx", content)
    result = push(sb, str(path))
    assert result.exit_code == 0, result.stderr
    assert held(sb) == expected("Hotel A")
    assert result.stderr == (
        f'note: {path}: read the sheet "Hotel A"; passed over "Readme" (not the columns of threshold); the '
        'workbook also has "Hotel B" (give --sheet NAME)\n'
    )
    # A single sheet's rows are named as before.
    assert table_row(result.stdout, f"{path}[Hotel A]:2")[:6] == [
        f"{path}[Hotel A]:2",
        "HTL001",
        "DBL",
        DAYS[0],
        "2",
        "ok",
    ]


def test_a_row_refused_on_one_sheet_is_named_by_its_sheet_and_nothing_is_sent(tmp_path: Path, sb: Sandbox) -> None:
    content = sheets(readme=False)
    content["Hotel B"][2][3] = "lots"
    path = write(tmp_path / "hotels.xlsx", content)
    result = push(sb, str(path), "--all-sheets")
    assert result.exit_code == 3
    refused = table_row(result.stdout, f"{path}[Hotel B]:3")
    assert refused[5] == "invalid" and "lots" in refused[7], refused
    assert held(sb) == {}


def test_all_sheets_stops_at_a_sheet_of_the_operation_whose_header_has_problems(tmp_path: Path, sb: Sandbox) -> None:
    content = sheets()
    content["Hotel B"][0] = ["propertyid", "roomid", "date", "thresold"]
    path = write(tmp_path / "hotels.xlsx", content)
    result = push(sb, str(path), "--all-sheets")
    assert result.exit_code == 3
    assert result.stderr.startswith(f'error: {path}[Hotel B] line 1: column "thresold" is not known; did you mean')
    assert held(sb) == {}


def test_the_report_and_the_journal_name_each_row_by_its_sheet(tmp_path: Path, sb: Sandbox) -> None:
    path = write(tmp_path / "hotels.xlsx", sheets())
    report = tmp_path / "report.csv"
    result = push(sb, str(path), "--all-sheets", "--report", str(report))
    assert result.exit_code == 0, result.stderr
    with report.open(newline="", encoding="utf-8") as stream:
        reported = [(r["source"], r["line"], r["status"]) for r in csv.DictReader(stream)]
    assert reported == [(f"{path}[{title}]", line, "ok") for title in HOTELS for line in ("2", "3")]
    shown = invoke(["history", "show", "last", "--output", "json"], env=sandbox_env(sb))
    assert shown.exit_code == 0, shown.stderr
    journaled = [(r["source"], r["line"], r["status"]) for r in json.loads(shown.stdout)["rows"]]
    assert sorted(journaled) == sorted((f"{path}[{title}]", line, "ok") for title in HOTELS for line in (2, 3))


def test_the_python_api_takes_a_list_of_sheets_and_all_sheets(tmp_path: Path, sb: Sandbox) -> None:
    path = write(tmp_path / "hotels.xlsx", sheets())
    connect = {"base_url": sb.base_url, "source_id": sb.source_id, "api_key": sb.api_key, "today": PINNED_TODAY}
    with pytest.raises(ari_cli.InputError, match='3 visible sheets have the columns of threshold: "Hotel A"'):
        ari_cli.push("threshold", path, **connect)
    run = ari_cli.push("threshold", path, sheet=["Hotel B"], **connect)
    assert run.exit_code == 0 and held(sb) == expected("Hotel B")
    run = ari_cli.push("threshold", path, all_sheets=True, **connect)
    assert run.exit_code == 0 and held(sb) == expected("Hotel A", "Hotel B", "Hotel C")
    assert {r.source for r in run.rows} == {f"{path}[{title}]" for title in HOTELS}
    with pytest.raises(ari_cli.UsageProblem, match="--sheet and --all-sheets cannot be given together"):
        ari_cli.push("threshold", path, sheet="Hotel A", all_sheets=True, **connect)
