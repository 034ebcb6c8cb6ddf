"""Issue 42 point 5: dates as people write them, from the outside.

A range in one cell (a period column), a month's name in seven languages, and a date-time, which is its day at
midnight only, alike in CSV, JSON, .xlsx (openpyxl) and .ods (tests/odsxml.py). Each test runs the console script
on a file it writes and asserts what the sandbox holds, what the user is told and the exit code.
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from hypothesis import given
from hypothesis import strategies as st

from ari_cli.inputs.cells import date_cell
from ari_cli.inputs.languages import LANGUAGES, MONTH_OF
from ari_cli.records.dates import parse_date, period_ends
from ari_cli.sandbox import Sandbox
from tests.conftest import PINNED_TODAY
from tests.helpers import invoke, sandbox_env
from tests.odsxml import row, text, write_ods

DECEMBER = [f"2027-12-{day:02}" for day in range(1, 32)]


def push(sb: Sandbox, path: Path, *args: str) -> Any:
    return invoke(["threshold", "push", str(path), "--today", PINNED_TODAY, *args], env=sandbox_env(sb))


def held(sb: Sandbox) -> list[str]:
    """The dates the sandbox holds a threshold for, for HTL001's DBL."""
    state: dict[str, dict[str, dict[str, str]]] = sb.state()["threshold"]
    return sorted(state.get("HTL001", {}).get("DBL", {}))


def csv(tmp_path: Path, header: str, *cells: str, name: str = "rooms.csv") -> Path:
    """A threshold CSV: property, room, the date column `header` holding each of `cells`, and threshold 2."""
    lines = [f"property,room,{header},threshold", *(f'HTL001,DBL,"{cell}",2' for cell in cells)]
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


# A range in one cell ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("header", "cell", "args"),
    [
        ("period", "2027-12-01..2027-12-31", ()),
        ("Dates", "2027-12-01 - 2027-12-31", ()),
        ("Date Range", "2027-12-01-2027-12-31", ()),
        ("Zeitraum", "01.12.2027 - 31.12.2027", ("--date-format", "%d.%m.%Y")),
        ("Zeitraum", "1.12.\u201331.12.2027", ("--date-format", "%d.%m.%Y")),
        ("Zeitraum", "1. bis 31. Dezember 2027", ()),
        ("période", "du 1 au 31 décembre 2027", ()),
        ("periodo", "del 1 al 31 de diciembre de 2027", ()),
        ("Period", "1 Dec 2027 to 31 Dec 2027", ()),
        ("periode", "1 t/m 31 december 2027", ()),
        ("Period", "Dec 1 \u2013 Dec 31, 2027", ()),
    ],
)
def test_a_range_in_a_period_column_sets_its_first_to_its_last_day(
    tmp_path: Path, sb: Sandbox, header: str, cell: str, args: tuple[str, ...]
) -> None:
    result = push(sb, csv(tmp_path, header, cell), *args)
    assert (result.exit_code, result.stderr) == (0, ""), result.stderr
    assert held(sb) == DECEMBER
    assert "2027-12-01..2027-12-31" in result.stdout


def test_a_period_column_in_json_and_in_a_workbook_is_read_alike(tmp_path: Path, sb: Sandbox) -> None:
    rows = [{"property": "HTL001", "room": "DBL", "Zeitraum": "2027-12-01..2027-12-15", "threshold": 2}]
    (tmp_path / "rooms.json").write_text(json.dumps(rows), encoding="utf-8")
    book = openpyxl.Workbook()
    book.active.append(["property", "room", "period", "threshold"])
    book.active.append(["HTL001", "DBL", "16 Dec 2027 - 31 Dec 2027", 2])
    book.save(tmp_path / "rooms.xlsx")
    result = push(sb, tmp_path / "rooms.json", str(tmp_path / "rooms.xlsx"))
    assert (result.exit_code, result.stderr) == (0, ""), result.stderr
    assert held(sb) == DECEMBER


def test_a_period_cell_that_is_one_date_sets_that_day(tmp_path: Path, sb: Sandbox) -> None:
    result = push(sb, csv(tmp_path, "period", "2027-12-24"))
    assert (result.exit_code, result.stderr) == (0, ""), result.stderr
    assert held(sb) == ["2027-12-24"]


def test_a_range_without_its_layout_is_refused_with_the_one_hint_of_its_file(tmp_path: Path, sb: Sandbox) -> None:
    """Digits-only dates stay strict: both ends of every range are written day first, and --date-format says it."""
    path = csv(tmp_path, "Zeitraum", "01.12.2027 - 31.12.2027", "01.11.2027 - 30.11.2027")
    result = push(sb, path)
    assert result.exit_code == 3
    assert result.stderr == (
        f'error: {path}: every date is written like "01.12.2027", not YYYY-MM-DD; give --date-format %d.%m.%Y\n'
        "hint: --date-format takes strptime codes: %d day, %m month, %Y year\n"
    )
    assert held(sb) == []


@pytest.mark.parametrize(
    ("cell", "problem"),
    [
        (
            "2027-12-01..2027-12-15..2027-12-31",
            '"2027-12-01..2027-12-15..2027-12-31" holds more than one range; give one, as 2026-12-01..2026-12-31',
        ),
        ("2027-12-01 ..", '"2027-12-01 .." is not one range of two dates; give it as 2026-12-01..2026-12-31'),
        ("2027-12-31..2027-12-01", "2027-12-01 is before the start 2027-12-31"),
        (
            "2027-12-01..31 Dec",
            '"31 Dec" names a month but no year; write the day, the month and the year, e.g. 6 Dec 2026',
        ),
    ],
)
def test_a_period_that_is_not_one_range_is_refused_naming_its_line_and_column(
    tmp_path: Path, sb: Sandbox, cell: str, problem: str
) -> None:
    path = csv(tmp_path, "period", "2027-12-01..2027-12-02", cell)
    result = push(sb, path)
    assert result.exit_code == 3
    assert f"error: {path} line 3, period: {problem}\n" in result.stderr
    assert held(sb) == []


def test_a_column_that_holds_ranges_under_another_name_is_named_with_the_mapping(tmp_path: Path, sb: Sandbox) -> None:
    path = csv(tmp_path, "Stay", "01.12.2027 - 31.12.2027", "1 Jan 2028 - 6 Jan 2028")
    result = push(sb, path)
    assert result.exit_code == 3
    assert result.stderr.startswith(
        f"error: {path}: missing columns start and end (or date)\n"
        f'{path}: column "Stay" holds ranges ("01.12.2027 - 31.12.2027"): a period column reads them as start and '
        'end; name it period, or map it: --column period="Stay"\n'
    )
    mapped = push(sb, path, "--column", "period=Stay", "--date-format", "%d.%m.%Y")
    assert (mapped.exit_code, mapped.stderr) == (0, 'note: columns mapped: period = "Stay"\n'), mapped.stderr
    assert held(sb) == [*DECEMBER, *(f"2028-01-{day:02}" for day in range(1, 7))]


def test_a_period_beside_start_and_end_is_refused(tmp_path: Path, sb: Sandbox) -> None:
    path = tmp_path / "rooms.csv"
    path.write_text("property,room,period,start,end,threshold\nHTL001,DBL,2027-12-01..2027-12-31,,,2\n")
    result = push(sb, path)
    assert result.exit_code == 3
    assert result.stderr.startswith(
        f"error: {path}: a period column gives both the start and the end (a range in one cell): give either it "
        "or start, end, not both\n"
    )


def test_json_objects_that_give_their_dates_two_ways_are_refused(tmp_path: Path, sb: Sandbox) -> None:
    rows = [
        {"property": "HTL001", "room": "DBL", "period": "2027-12-01..2027-12-15", "threshold": 2},
        {"property": "HTL001", "room": "DBL", "start": "2027-12-16", "end": "2027-12-31", "threshold": 2},
    ]
    path = tmp_path / "rooms.json"
    path.write_text(json.dumps(rows, indent=1), encoding="utf-8")
    result = push(sb, path)
    assert result.exit_code == 3
    assert "gives its dates as a period and" in result.stderr and "give them one way in a file" in result.stderr
    assert held(sb) == []


# A month's name ---------------------------------------------------------------------------------------------------


def test_dates_with_a_month_name_in_seven_languages_are_read(tmp_path: Path, sb: Sandbox) -> None:
    cells = ["1 Dec 2027", "December 2, 2027", "3. Dezember 2027", "4 déc. 2027", "5 de diciembre de 2027",
             "6 dicembre 2027", "7 dec. 2027", "8 de dezembro de 2027", "9-DEC-2027", "Friday, 10 December 2027"]  # fmt: skip
    result = push(sb, csv(tmp_path, "date", *cells))
    assert (result.exit_code, result.stderr) == (0, ""), result.stderr
    assert held(sb) == DECEMBER[:10]


@pytest.mark.parametrize(
    ("cell", "problem"),
    [
        ("Dec 2027", '"Dec 2027" names a month but no day; write the day, the month and the year, e.g. 6 Dec 2026'),
        ("6 Dec", '"6 Dec" names a month but no year; write the day, the month and the year, e.g. 6 Dec 2026'),
        ("6 Dec 27", '"6 Dec 27": give the year in four digits; write the day, the month and the year, e.g. 6 Dec 2026'),
        ("31 Feb 2027", '"31 Feb 2027" is not a valid date: day is out of range for month'),
        ("Monday, 10 December 2027", '"Monday, 10 December 2027": 2027-12-10 is a Friday, not a "Monday"'),
        ("01/12/2027", '"01/12/2027" is not a date of the form YYYY-MM-DD; for other layouts give --date-format, e.g. '
         "--date-format %d/%m/%Y (day first) or %m/%d/%Y (month first)"),
    ],
)  # fmt: skip
def test_a_date_that_lacks_a_part_is_refused_never_filled_in(
    tmp_path: Path, sb: Sandbox, cell: str, problem: str
) -> None:
    path = csv(tmp_path, "date", "1 Dec 2027", cell)
    result = push(sb, path)
    assert result.exit_code == 3
    assert f"error: {path} line 3, date: {problem}\n" in result.stderr
    assert held(sb) == []


# A date-time ------------------------------------------------------------------------------------------------------

MIDNIGHTS = ["2027-12-01 00:00:00", "2027-12-02T00:00:00", "2027-12-03T00:00:00Z", "2027-12-04 00:00",
             "2027-12-05T00:00:00.000+01:00"]  # fmt: skip


def test_a_date_time_at_midnight_is_its_day_in_csv_and_json(tmp_path: Path, sb: Sandbox) -> None:
    rows = [
        {"property": "HTL001", "room": "DBL", "date": f"2027-12-{day:02}T00:00:00", "threshold": 2} for day in (6, 7)
    ]
    (tmp_path / "rooms.json").write_text(json.dumps(rows), encoding="utf-8")
    result = push(sb, csv(tmp_path, "date", *MIDNIGHTS), str(tmp_path / "rooms.json"))
    assert (result.exit_code, result.stderr) == (0, ""), result.stderr
    assert held(sb) == DECEMBER[:7]


def _xlsx(path: Path, *cells: Any) -> Path:
    book = openpyxl.Workbook()
    book.active.title = "Rooms"
    book.active.append(["property", "room", "date", "threshold"])
    for cell in cells:
        book.active.append(["HTL001", "DBL", cell, 2])
    book.save(path)
    return path


def _ods(path: Path, *moments: str) -> Path:
    """An .ods whose date column holds date-time cells (`office:date-value`), as LibreOffice saves them."""
    cells = [
        row(
            text("HTL001"),
            text("DBL"),
            f'<table:table-cell office:value-type="date" office:date-value="{moment}" calcext:value-type="date">'
            f"<text:p>{moment}</text:p></table:table-cell>",
            '<table:table-cell office:value-type="float" office:value="2"><text:p>2</text:p></table:table-cell>',
        )
        for moment in moments
    ]
    return write_ods(path, {"Rooms": [row(text("property"), text("room"), text("date"), text("threshold")), *cells]})


def test_a_date_time_cell_at_midnight_is_its_day_in_xlsx_and_ods(tmp_path: Path, sb: Sandbox) -> None:
    xlsx = _xlsx(tmp_path / "a.xlsx", dt.datetime(2027, 12, 1), dt.datetime(2027, 12, 2, 0, 0))
    ods = _ods(tmp_path / "b.ods", "2027-12-03T00:00:00", "2027-12-04")
    result = push(sb, xlsx, str(ods))
    assert (result.exit_code, result.stderr) == (0, ""), result.stderr
    assert held(sb) == DECEMBER[:4]


def test_a_time_of_day_is_refused_in_every_format_alike(tmp_path: Path, sb: Sandbox) -> None:
    """Issue 42: an .xlsx date-time at 14:00 used to be pushed as its day; now it is refused as the CSV's is."""
    path = csv(tmp_path, "date", "2027-12-01 14:00")
    rows = [{"property": "HTL001", "room": "DBL", "date": "2027-12-01T14:00:00Z", "threshold": 2}]
    (tmp_path / "rooms.json").write_text(json.dumps(rows), encoding="utf-8")
    xlsx = _xlsx(tmp_path / "a.xlsx", dt.datetime(2027, 12, 1, 14, 0))
    ods = _ods(tmp_path / "b.ods", "2027-12-01T14:00:00")
    result = push(sb, path, str(tmp_path / "rooms.json"), str(xlsx), str(ods))
    assert result.exit_code == 3
    said = "holds a time of day (14:00): a setting holds for whole days; give the date alone (2027-12-01)"
    for where, shown in [
        (f"{path} line 2", "2027-12-01 14:00"),
        (f"{tmp_path / 'rooms.json'} line 1", "2027-12-01T14:00:00Z"),
        (f"{xlsx}[Rooms] line 2", "2027-12-01 14:00"),
        (f"{tmp_path / 'b.ods'}[Rooms] line 2", "2027-12-01 14:00"),
    ]:
        assert f'error: {where}, date: "{shown}" {said}\n' in result.stderr
    assert held(sb) == []


def test_a_streamed_workbook_keeps_a_date_times_time_of_day() -> None:
    """Big .xlsx files are read by the stream, which turns serials into dates itself: 14:00 is kept (and refused
    by the date rule), midnight is the day."""
    assert date_cell(46722.0, False) == dt.date(2027, 12, 1)
    assert date_cell(46722 + 14 / 24, False) == dt.datetime(2027, 12, 1, 14, 0)


# Properties -------------------------------------------------------------------------------------------------------


@given(
    day=st.dates(dt.date(2000, 1, 1), dt.date(2099, 12, 31)),
    language=st.sampled_from(LANGUAGES),
    form=st.integers(0, 3),
    dot=st.booleans(),
    upper=st.booleans(),
    layout=st.sampled_from(["{d} {m} {y}", "{d}. {m} {y}", "{m} {d}, {y}", "{d} de {m} de {y}", "{d}-{m}-{y}"]),
)
def test_every_month_name_of_every_language_reads_back_as_its_date(
    day: dt.date, language: Any, form: int, dot: bool, upper: bool, layout: str
) -> None:
    names = language.months[day.month - 1]
    name = names[form % len(names)] + ("." if dot and form % len(names) else "")
    written = layout.format(d=day.day, m=name.upper() if upper else name, y=day.year)
    assert parse_date(written, dt.date(2027, 1, 1)) == day
    assert MONTH_OF[names[0]] == day.month


@given(first=st.dates(dt.date(2000, 1, 1), dt.date(2099, 12, 31)), days=st.integers(0, 800))
def test_every_iso_range_cuts_into_its_two_ends(first: dt.date, days: int) -> None:
    last = first + dt.timedelta(days=days)
    for join in ("..", " - ", "\u2013", " to ", " bis ", "-"):
        assert period_ends(f"{first}{join}{last}", dt.date(2027, 1, 1)) == (str(first), str(last))
