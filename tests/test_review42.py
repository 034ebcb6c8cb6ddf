"""Issue 42 tried from the outside on files its first tests had not seen: each test runs the console script on a
file it writes, and asserts the sandbox's state (`GET /_sandbox/state`), what the user is told and the exit code.
The sandbox's today is 2027-01-01 (`sb`); 2027-06-07 is a Monday.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import httpx
import openpyxl

from tests.helpers import invoke, sandbox_env

WEEK = ["2027-06-07", "2027-06-08", "2027-06-09", "2027-06-10", "2027-06-11", "2027-06-12", "2027-06-13"]


def _push(sandbox: Any, path: Path, *args: str) -> Any:
    return invoke(["threshold", "push", str(path), "--today", "2027-01-01", *args], env=sandbox_env(sandbox))


def _held(sandbox: Any, room: str = "DBL") -> dict[str, str]:
    """What the sandbox holds for HTL001's room, by date."""
    state = httpx.get(sandbox.base_url + "/_sandbox/state", timeout=10).json()
    held: dict[str, str] = state["threshold"].get("HTL001", {}).get(room, {})
    return held


def test_weekday_flags_written_oui_and_non_keep_to_the_days_marked_oui(tmp_path: Path, sb: Any) -> None:
    # A French export's flag columns say oui and non, as its `remboursable` does: they were refused as flags
    # although point 7 reads them wherever true and false are read.
    path = tmp_path / "seuils.csv"
    path.write_text(
        "hôtel;chambre;du;au;lundi;mardi;mercredi;jeudi;vendredi;samedi;dimanche;seuil\n"
        f"HTL001;DBL;{WEEK[0]};{WEEK[6]};oui;oui;oui;oui;oui;non;non;3\n"
        f"HTL001;TWN;{WEEK[0]};{WEEK[6]};Ja;nein;nee;não;Sí;sì;sim;4\n",
        encoding="utf-8-sig",
    )
    result = _push(sb, path)
    assert (result.exit_code, result.stderr) == (0, ""), result.stderr
    assert _held(sb) == dict.fromkeys(WEEK[:5], "3")
    assert _held(sb, "TWN") == dict.fromkeys([WEEK[0], *WEEK[4:]], "4")


def test_a_weekday_flag_neither_yes_nor_no_in_any_language_is_refused_naming_the_words_read(
    tmp_path: Path, sb: Any
) -> None:
    path = tmp_path / "schwellen.csv"
    path.write_text(
        "Hotel;Zimmer;Von;Bis;Mo;Di;Mi;Do;Fr;Sa;So;Schwelle\n"
        f"HTL001;DBL;{WEEK[0]};{WEEK[6]};ja;ja;ja;ja;ja;nein;vielleicht;3\n",
        encoding="utf-8",
    )
    result = _push(sb, path)
    assert result.exit_code == 3
    assert "invalid" in result.stdout  # the table shows the row refused
    assert result.stderr.splitlines()[0] == (
        f"error: {path} line 2, Sun: 'vielleicht' is not a weekday flag; write Y (or yes, x, 1, true, \u2713) for a "
        "day the row sets, and N (or no, 0, false, or nothing) for one it does not (ja/nein, oui/non, s\u00ed/no, "
        "s\u00ec/no, ja/nee and sim/n\u00e3o are read too)"
    )
    assert _held(sb) == {}


def test_a_grid_of_10000_dates_reads_its_last_date_column(tmp_path: Path, sb: Any) -> None:
    # A header of 110 KB: it was cut at the first 64 KiB of the file, and the run refused a column "2043-0" the
    # user never wrote.
    first = dt.date(2027, 6, 7)
    dates = [first + dt.timedelta(days=n) for n in range(10_000)]
    path = tmp_path / "years.csv"
    path.write_text(
        "property,room," + ",".join(day.isoformat() for day in dates) + "\n"
        "HTL001,DBL," + ",".join("2" for _ in dates[:-1]) + ",5\n",
        encoding="utf-8",
    )
    result = _push(sb, path)
    assert result.exit_code == 0, result.stderr
    assert result.stderr == (
        f"note: {path}: read as a grid with dates across: 10000 dates, 2027-06-07 to 2054-10-22 (told from its "
        "header; --layout rows reads it as rows)\n"
    )
    held = _held(sb)
    assert (len(held), held["2027-06-07"], held["2054-10-21"], held["2054-10-22"]) == (10_000, "2", "2", "5")


def test_a_header_line_over_the_longest_line_is_refused_naming_it(tmp_path: Path, sb: Any) -> None:
    path = tmp_path / "endless.csv"
    # Read up to four bytes a character (16 MiB) for the header's line to end: past that, it never does.
    path.write_bytes(b"property,room," + b"x," * (8 * 1024 * 1024 + 10))
    result = _push(sb, path)
    assert (result.exit_code, result.stdout) == (3, "")
    assert result.stderr == (
        f"error: {path} line 1: longer than 4194304 characters; this does not look like CSV\n"
        "hint: check that the file is a CSV export (not binary data), and that its lines end\n"
    )
    assert _held(sb) == {}


def test_a_grid_whose_header_dates_are_written_day_first_names_the_date_format(tmp_path: Path, sb: Any) -> None:
    # `01.06.2027` is how a German export heads its dates: the grid was not seen at all ("missing columns start and
    # end (or date), threshold"), with no word of --date-format.
    path = tmp_path / "Schwellen.csv"
    path.write_text(
        "\ufeffHotel;Zimmer;07.06.2027;08.06.2027;09.06.2027\nHTL001;DBL;2;2;5\n",
        encoding="utf-8",
    )
    result = _push(sb, path)
    assert (result.exit_code, result.stdout) == (3, "")
    assert result.stderr.splitlines()[0] == (
        f'error: {path}: the dates of the header are written like "07.06.2027", not YYYY-MM-DD; give --date-format '
        "%d.%m.%Y (day first) or %m.%d.%Y (month first)"
    )
    assert _held(sb) == {}
    result = _push(sb, path, "--date-format", "%d.%m.%Y")
    assert result.exit_code == 0, result.stderr
    assert _held(sb) == {WEEK[0]: "2", WEEK[1]: "2", WEEK[2]: "5"}


def test_a_workbook_grid_whose_header_dates_miss_the_date_format_given_names_each_column(
    tmp_path: Path, sb: Any
) -> None:
    workbook = openpyxl.Workbook()
    sheet = workbook.active
    assert sheet is not None
    sheet.title = "Juin"
    sheet.append(["Hôtel", "Chambre", "07.06.2027", "08.06.2027"])
    sheet.append(["HTL001", "DBL", 2, 3])
    path = tmp_path / "seuils.xlsx"
    workbook.save(path)
    result = _push(sb, path, "--date-format", "%d/%m/%Y")
    assert (result.exit_code, result.stdout) == (3, "")
    assert result.stderr.splitlines()[:2] == [
        f'error: {path}[Juin] line 1: column C "07.06.2027" is not a date ("07.06.2027" does not match the date format '
        "%d/%m/%Y (nor YYYY-MM-DD))",
        f'{path}[Juin] line 1: column D "08.06.2027" is not a date ("08.06.2027" does not match the date format %d/%m/%Y '
        "(nor YYYY-MM-DD))",
    ]
    assert _held(sb) == {}


def test_a_second_grid_under_the_first_is_named_as_the_column_names_again(tmp_path: Path, sb: Any) -> None:
    # A channel manager's export of two months, a grid each: the second header was worded cell by cell ("'2027-06-09'
    # is not a whole number"), with overlaps of the rows under it, never as a second table.
    workbook = openpyxl.Workbook()
    sheet = workbook.active
    assert sheet is not None
    sheet.append(["Property", "Room", dt.datetime(2027, 6, 7), dt.datetime(2027, 6, 8)])
    sheet.append(["HTL001", "DBL", 2, 3])
    sheet.append([])
    sheet.append(["Property", "Room", dt.datetime(2027, 6, 9), dt.datetime(2027, 6, 10)])
    sheet.append(["HTL001", "TWN", 4, 5])
    path = tmp_path / "months.xlsx"
    workbook.save(path)
    # The lines under a second grid's header would be read with the first one's dates: the run stops, even with
    # --skip-invalid (which, when the header was a refused row, sent TWN's 4 and 5 to 2027-06-07 and 06-08).
    for given in ((), ("--skip-invalid",)):
        result = _push(sb, path, *given)
        assert result.exit_code == 3
        assert result.stderr.splitlines() == [
            f"error: {path}[Sheet] line 4 repeats a grid's column names: a second grid under the first, whose lines "
            "would be read with the first one's dates or rooms; nothing was sent",
            "hint: give each grid a file (or a sheet) of its own",
        ]
        assert (_held(sb), _held(sb, "TWN")) == ({}, {})


def test_a_total_or_a_second_header_under_a_grid_with_rooms_across_is_named_so(tmp_path: Path, sb: Any) -> None:
    # The date column said "Total" (or its name again): each was "start: ... is not a date" and "end: ... is not a
    # date", the room's cells "not a whole number", and never a total or a second table.
    path = tmp_path / "rooms.csv"
    path.write_text(f"Datum;DBL;TWN\n{WEEK[0]};2;3\n{WEEK[1]};2;3\nGesamt;4;6\n", encoding="utf-8")
    result = _push(sb, path, "--property", "HTL001")
    assert result.exit_code == 3
    assert result.stderr.splitlines()[1:] == [
        f"error: {path} line 4 looks like a total: remove it or end the table above it",
        "nothing was sent: fix the invalid rows above, or give --skip-invalid to send the valid ones",
    ]
    assert _held(sb) == {}
    # Under a second grid's header the lines would be read with the first one's rooms: the run stops, with
    # --skip-invalid too.
    path.write_text(f"Datum;DBL;TWN\n{WEEK[0]};2;3\n\nDatum;TWN;DBL\n{WEEK[2]};1;5\n", encoding="utf-8")
    for given in ((), ("--skip-invalid",)):
        result = _push(sb, path, "--property", "HTL001", *given)
        assert result.exit_code == 3
        assert result.stderr.splitlines() == [
            f"error: {path} line 4 repeats a grid's column names: a second grid under the first, whose lines would "
            "be read with the first one's dates or rooms; nothing was sent",
            "hint: give each grid a file (or a sheet) of its own",
        ]
        assert _held(sb) == {}
