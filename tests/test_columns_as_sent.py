"""Columns as revenue systems export them (issue 29): weekday flag columns, range columns by their usual
names, a column that looks meaningful is never left out quietly, header hints that give the line.

Every test runs the console script on a file it writes and asserts the message and the exit code.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from tests.test_sheets_as_sent import THRESHOLD_HEAD, TODAY, book, push, sent

# -- 2. weekday flag columns ---------------------------------------------------------------------


def days_of(result: Any) -> list[tuple[str, str]]:
    return [(r["startdateymd"], r["enddateymd"]) for r in sent(result)]


FLAGS_HEAD = "Property,Room,Date From,Date To,Mon,Tue,Wed,Thu,Fri,Sat,Sun,Threshold\n"


def test_weekday_flag_columns_are_a_weekday_filter(tmp_path: Path, sandbox: Any) -> None:
    # 2030-02-04 is a Monday: the week's Saturday and Sunday only, by flags written every usual way.
    path = tmp_path / "export.csv"
    path.write_text(FLAGS_HEAD + "HTL001,DBL,2030-02-04,2030-02-10,N,no,,0,false,\u2713,Yes,2\n", encoding="utf-8")
    result = push(sandbox, "threshold", str(path), "--dry-run", "--output", "json")
    assert result.exit_code == 0, result.stderr
    assert days_of(result) == [("2030-02-09", "2030-02-10")]


def test_weekday_flags_in_a_workbook_of_long_names(tmp_path: Path, sandbox: Any) -> None:
    days = ["Monday", "TUESDAY", "wednesday", "Thursday", "Friday", "Saturday", " Sunday "]
    path = book(
        tmp_path / "export.xlsx",
        {"Rates": [["propertyid", "roomid", "start", "end", *days, "threshold"],
                   ["HTL001", "DBL", "2030-02-04", "2030-02-10", "x", 1, "", "", "", "", True, 2]]},
    )  # fmt: skip
    result = push(sandbox, "threshold", str(path), "--dry-run", "--output", "json")
    assert result.exit_code == 0, result.stderr
    assert days_of(result) == [("2030-02-04", "2030-02-05"), ("2030-02-10", "2030-02-10")]


def test_a_weekday_flag_that_is_neither_on_nor_off_names_its_cell(tmp_path: Path, sandbox: Any) -> None:
    path = tmp_path / "export.csv"
    path.write_text(FLAGS_HEAD + "HTL001,DBL,2030-02-04,2030-02-10,Y,Y,maybe,Y,Y,N,N,2\n", encoding="utf-8")
    result = push(sandbox, "threshold", str(path))
    assert result.exit_code == 3
    assert f"error: {path} line 2, Wed: 'maybe' is not a weekday flag; write Y (or yes, x, 1, true, \u2713)" in (
        result.stderr
    )
    assert "nothing was sent" in result.stderr


def test_a_row_with_no_weekday_on_is_an_input_error(tmp_path: Path, sandbox: Any) -> None:
    path = tmp_path / "export.csv"
    path.write_text(FLAGS_HEAD + "HTL001,DBL,2030-02-04,2030-02-10,N,N,N,N,N,,0,2\n", encoding="utf-8")
    result = push(sandbox, "threshold", str(path))
    assert result.exit_code == 3
    assert f"error: {path} line 2, days: no weekday flag is on (Mon ... Sun are all N or empty)" in result.stderr


@pytest.mark.parametrize(
    ("head", "message"),
    [
        ("Mon,Tue,Wed,Thu,Fri", "weekday flag columns Mon, Tue, Wed, Thu, Fri without Sat, Sun: give all seven"),
        ("days,Mon,Tue,Wed,Thu,Fri,Sat,Sun", "a days column and weekday flag columns (Mon, Tue, Wed, Thu, Fri, "),
    ],
)
def test_some_weekday_flags_or_flags_beside_days_are_an_input_error(
    tmp_path: Path, sandbox: Any, head: str, message: str
) -> None:
    path = tmp_path / "export.csv"
    width = head.count(",") + 1
    path.write_text(f"propertyid,roomid,start,end,{head},threshold\nH,R,2030-02-04,2030-02-10{',Y' * width},2\n")
    result = push(sandbox, "threshold", str(path))
    assert result.exit_code == 3
    assert message in result.stderr


def test_weekday_flags_in_json_rows(tmp_path: Path, sandbox: Any) -> None:
    row_ = {"propertyid": "H", "roomid": "R", "start": "2030-02-04", "end": "2030-02-10", "threshold": 2}
    flags = dict(
        zip(["mo", "tu", "we", "th", "fr", "sa", "su"], [True, False, False, False, False, False, "Y"], strict=True)
    )
    path = tmp_path / "rows.json"
    path.write_text(json.dumps([{**row_, **flags}]))
    result = push(sandbox, "threshold", str(path), "--dry-run", "--output", "json")
    assert result.exit_code == 0, result.stderr
    assert days_of(result) == [("2030-02-04", "2030-02-04"), ("2030-02-10", "2030-02-10")]


# -- 3. range columns by their usual names -------------------------------------------------------


@pytest.mark.parametrize(
    ("first", "last"),
    [("Date From", "Date To"), ("From", "To"), ("Valid From", "Valid Until"), ("Valid From", "Valid To"),
     ("Start Date", "End Date"), ("Begin", "End"), ("First Night", "Last Night")],
)  # fmt: skip
def test_range_columns_by_their_usual_names(tmp_path: Path, sandbox: Any, first: str, last: str) -> None:
    path = tmp_path / "export.csv"
    path.write_text(f"Property,Room,{first},{last},Threshold\nHTL001,DBL,2030-02-01,2030-02-14,2\n")
    result = push(sandbox, "threshold", str(path), "--dry-run", "--output", "json")
    assert result.exit_code == 0, result.stderr
    assert days_of(result) == [("2030-02-01", "2030-02-14")]


def test_date_is_never_proposed_for_a_range_bound(tmp_path: Path, sandbox: Any) -> None:
    path = tmp_path / "export.csv"
    path.write_text("Property,Room,Date From,Date Til,Threshold\nHTL001,DBL,2030-02-01,2030-02-14,2\n")
    result = push(sandbox, "threshold", str(path))
    assert result.exit_code == 3
    assert 'did you mean "date"' not in result.stderr
    assert f'error: {path}: column "Date Til" looks like the first or last day of a range' in result.stderr


# -- 4. a column that looks meaningful is never ignored quietly -----------------------------------


@pytest.mark.parametrize(
    ("column", "looks"),
    [
        ("Departure", "looks like the first or last day of a range, by a name not taken for either"),
        ("Stop Date", "looks like the first or last day of a range"),
        ("Check-in", "looks like the first or last day of a range"),
        ("Night", "looks like the first or last day of a range"),
        ("Sat.", "looks like a weekday, yet is not one of seven flag columns Mon ... Sun"),
        ("Weds", "looks like a weekday, yet is not one of seven flag columns Mon ... Sun"),
        ("rateid", "is not used by threshold: thresholds are per room (propertyid, roomid), for every rate"),
        ("Rate Plan", "is not used by threshold: thresholds are per room"),
        ("Thresold", 'is not known; did you mean "threshold"?'),
        ("Roomz", 'is not known; did you mean "room"?'),
    ],
)
def test_a_column_that_looks_meaningful_is_an_input_error(
    tmp_path: Path, sandbox: Any, column: str, looks: str
) -> None:
    path = tmp_path / "export.csv"
    path.write_text(f"propertyid,roomid,start,end,threshold,{column}\nHTL001,DBL,2030-02-01,2030-02-14,2,x\n")
    result = push(sandbox, "threshold", str(path))
    assert result.exit_code == 3
    assert f'error: {path}: column "{column}" {looks}' in result.stderr
    assert result.stdout == ""


def test_ignore_column_leaves_a_meaningful_column_out_with_a_warning(tmp_path: Path, sandbox: Any) -> None:
    path = tmp_path / "export.csv"
    path.write_text("propertyid,roomid,start,end,threshold,Departure\nHTL001,DBL,2030-02-01,2030-02-14,2,x\n")
    result = push(sandbox, "threshold", str(path), "--ignore-column", "departure", "--dry-run", "--output", "json")
    assert result.exit_code == 0, result.stderr
    assert f"warning: {path}: ignored column Departure (not used by threshold)\n" in result.stderr
    document = json.loads(result.stdout)
    assert document["ignored_columns"] == [{"source": str(path), "column": "Departure"}]
    jsonschema.validate(document, json.loads((Path(__file__).parent / "output.schema.json").read_text()))


def test_ignore_columns_from_the_profile_and_from_python(tmp_path: Path, sandbox: Any) -> None:
    import ari_cli

    path = tmp_path / "export.csv"
    path.write_text("propertyid,roomid,start,end,threshold,Departure,rateid\nHTL001,DBL,2030-02-01,2030-02-14,2,x,B\n")
    config = tmp_path / "config.toml"
    config.write_text('[profiles.default]\nignore_columns = ["Departure"]\n')
    result = push(sandbox, "threshold", str(path), "--config", str(config), "--ignore-column", "rateid", "--dry-run")
    assert result.exit_code == 0, result.stderr
    assert f"warning: {path}: ignored columns Departure, rateid (not used by threshold)\n" in result.stderr
    run = ari_cli.push("threshold", files=[path], sandbox=True, dry_run=True, today=TODAY,
                       ignore_columns=["Departure", "rateid"])  # fmt: skip
    assert run.exit_code == 0
    with pytest.raises(ari_cli.AriError) as raised:
        ari_cli.push("threshold", files=[path], sandbox=True, dry_run=True, today=TODAY)
    assert 'column "Departure" looks like the first or last day of a range' in raised.value.message


@pytest.mark.parametrize("column", ["Export Date", "Last Modified", "Updated", "Notes", "Comment", "Colour"])
def test_metadata_and_other_columns_stay_a_warning(tmp_path: Path, sandbox: Any, column: str) -> None:
    path = tmp_path / "export.csv"
    path.write_text(f"propertyid,roomid,start,end,threshold,{column}\nHTL001,DBL,2030-02-01,2030-02-14,2,x\n")
    result = push(sandbox, "threshold", str(path), "--dry-run")
    assert result.exit_code == 0, result.stderr
    assert f"warning: {path}: ignored column {column} (not used by threshold)\n" in result.stderr


# -- 6. header hints give the number -------------------------------------------------------------


def test_a_csv_header_below_title_lines_is_named_by_its_number(tmp_path: Path, sandbox: Any) -> None:
    path = tmp_path / "export.csv"
    titles = "".join(f"Revenue report line {i}\n" for i in range(22)) + "\n"
    path.write_text(f"{titles}propertyid,roomid,date,threshold\nHTL001,DBL,2030-02-01,2\n")
    result = push(sandbox, "threshold", str(path))
    assert result.exit_code == 3
    assert f"{path}: the column names are on line 24: give --header-row 24\n" in result.stderr
    followed = push(sandbox, "threshold", str(path), "--header-row", "24", "--dry-run")
    assert followed.exit_code == 0, followed.stderr


def test_a_sheet_header_below_a_merged_group_header_is_named_by_its_number(tmp_path: Path, sandbox: Any) -> None:
    path = book(
        tmp_path / "rates.xlsx",
        {"Rates": [["Summer rates 2030"], [], ["Room", None, "Stay", None, "Levels"], THRESHOLD_HEAD,
                   ["HTL001", "DBL", "2030-02-01", 2]]},
    )  # fmt: skip
    result = push(sandbox, "threshold", str(path))
    assert result.exit_code == 3
    assert f"{path}[Rates]: the column names are on line 4: give --header-row 4\n" in result.stderr
