"""Issue 29 tried from the outside: workbooks and headers a tester made, which the first round got wrong.

Every test runs the console script on a file it writes and asserts the message and the exit code.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import invoke, sandbox_env
from tests.test_sheets_as_sent import book, ods, push, sent

HEAD = ["propertyid", "roomid", "start", "end", "threshold"]


def values(threshold: int) -> list[Any]:
    return ["HTL001", "DBL", "2030-06-01", "2030-06-30", threshold]


# -- 1. a sheet whose columns are a few lines down is the one read ----------------------------------------


def test_a_first_sheet_with_its_columns_on_line_2_stops_the_run_rather_than_read_a_later_sheet(
    tmp_path: Path, sandbox: Any
) -> None:
    path = book(
        tmp_path / "june.xlsx",
        {"June": [["Sell thresholds, June 2030"], HEAD, values(2)], "May": [HEAD, values(8)]},
    )
    for quiet in ([], ["--quiet"]):
        result = push(sandbox, "threshold", str(path), "--dry-run", *quiet)
        assert result.exit_code == 3, result.stderr
        assert result.stdout == ""
        assert result.stderr.startswith(
            f"error: {path}[June] line 1: missing columns propertyid, roomid, start and end (or date), threshold\n"
            f"{path}[June]: the column names are on line 2: give --header-row 2\n"
        )
        assert "May" not in result.stderr
    followed = push(sandbox, "threshold", str(path), "--header-row", "2", "--dry-run", "--output", "json")
    assert followed.exit_code == 0, followed.stderr
    assert [r["threshold"] for r in sent(followed)] == ["2"]


def test_a_later_sheet_with_its_columns_below_a_title_is_named_in_the_hint(tmp_path: Path, sandbox: Any) -> None:
    path = book(
        tmp_path / "multi.xlsx",
        {"Readme": [["How to fill this in"], ["one row per room"]], "Data": [["June"], [], HEAD, values(2)]},
    )
    result = push(sandbox, "threshold", str(path), "--dry-run")
    assert result.exit_code == 3
    assert f"{path}[Data]: the column names are on line 3: give --header-row 3 --sheet Data\n" in result.stderr
    assert result.stdout == ""
    # --header-row looks for the columns at that line of every visible sheet, past a Readme that ends above it.
    followed = push(sandbox, "threshold", str(path), "--header-row", "3", "--dry-run", "--output", "json")
    assert followed.exit_code == 0, followed.stderr
    assert f'note: {path}: read the sheet "Data"; passed over "Readme" (line 3 is empty) (give --sheet NAME)\n' in (
        followed.stderr
    )
    assert [r["threshold"] for r in sent(followed)] == ["2"]


def test_a_header_row_on_an_empty_line_above_the_columns_names_their_line(tmp_path: Path, sandbox: Any) -> None:
    path = book(
        tmp_path / "multi.xlsx",
        {"Readme": [["How to fill this in"], ["one row per room"]], "Data": [["June"], [], HEAD, values(2)]},
    )
    result = push(sandbox, "threshold", str(path), "--header-row", "2", "--dry-run")
    assert result.exit_code == 3
    assert result.stderr == (
        f"error: {path}[Data] line 2: --header-row 2 is an empty row; the column names are on line 3\n"
        "hint: give --header-row 3 --sheet Data\n"
    )


def test_a_header_row_that_no_visible_sheet_has_still_names_the_first(tmp_path: Path, sandbox: Any) -> None:
    path = book(tmp_path / "multi.xlsx", {"Readme": [["How to fill this in"]], "Data": [HEAD, values(2)]})
    result = push(sandbox, "threshold", str(path), "--header-row", "5", "--dry-run")
    assert result.exit_code == 3
    assert result.stderr.startswith(
        f"error: {path}[Readme] line 5: --header-row 5 is an empty row; the last row with values is 1\n"
    )


@pytest.mark.parametrize(
    ("header", "said"),
    [
        (["propertyid", "roomid", "start", "end", "thresold"], 'column "thresold" is not known; did you mean'),
        (["propertyid", "roomid", "Arrival", "Departure", "threshold"], 'column "Arrival" looks like'),
        (["propertyid", "roomid", "start", "end", "threshold", "Threshold"], "both give threshold"),
    ],
)
def test_a_first_sheet_whose_header_has_problems_is_never_passed_over(
    tmp_path: Path, sandbox: Any, header: list[str], said: str
) -> None:
    path = book(tmp_path / "june.xlsx", {"June": [header, [*values(2), 2][: len(header)]], "May": [HEAD, values(8)]})
    result = push(sandbox, "threshold", str(path), "--dry-run")
    assert result.exit_code == 3
    assert result.stderr.startswith(f"error: {path}[June] line 1: "), result.stderr
    assert said in result.stderr
    assert result.stdout == ""


@pytest.mark.parametrize(("operation", "read"), [("threshold", "Thresholds"), ("maxadv", "Max advance")])
def test_a_sheet_of_another_operation_is_still_passed_over(
    tmp_path: Path, sandbox: Any, operation: str, read: str
) -> None:
    path = book(
        tmp_path / "both.xlsx",
        {
            "Max advance": [["propertyid", "roomid", "rateid", "start", "end", "time"],
                            ["HTL001", "DBL", "BAR", "2030-06-01", "2030-06-30", 30]],
            "Thresholds": [HEAD, values(2)],
        },
    )  # fmt: skip
    result = push(sandbox, operation, str(path), "--dry-run")
    assert result.exit_code == 0, result.stderr
    assert f'note: {path}: read the sheet "{read}"' in result.stderr


# -- 2. a hidden sheet that has the columns is named when no visible one has them ---------------------------


@pytest.mark.parametrize(("state", "how"), [("hidden", "hidden"), ("veryHidden", "very hidden")])
def test_a_hidden_sheet_with_the_columns_is_named_beside_a_readme(
    tmp_path: Path, sandbox: Any, state: str, how: str
) -> None:
    path = book(tmp_path / "vh.xlsx", {"Readme": [["How to fill this in"]], "Old": [HEAD, values(8)]}, {"Old": state})
    result = push(sandbox, "threshold", str(path), "--dry-run")
    assert result.exit_code == 3
    assert result.stderr.startswith(f"error: {path}[Readme] line 1: missing columns ")
    assert f'{path}: passed over "Old" ({how}), which has the columns of threshold: give --sheet Old to read it\n' in (
        result.stderr
    )
    followed = push(sandbox, "threshold", str(path), "--sheet", "Old", "--dry-run", "--output", "json")
    assert followed.exit_code == 0, followed.stderr
    assert [r["threshold"] for r in sent(followed)] == ["8"]


def test_a_hidden_sheet_with_its_columns_below_a_title_is_named_with_its_header_row(
    tmp_path: Path, sandbox: Any
) -> None:
    path = book(
        tmp_path / "vh.xlsx",
        {"Sheet1": [], "Old rates": [["May"], HEAD, values(8)]},
        {"Old rates": "hidden"},
    )
    result = push(sandbox, "threshold", str(path), "--dry-run")
    assert result.exit_code == 3
    assert result.stderr == (
        f"error: {path}[Sheet1]: the sheet is empty\n"
        f'{path}: passed over "Old rates" (hidden), which has the columns of threshold: '
        "give --sheet 'Old rates' --header-row 2 to read it\n"
    )


def test_a_hidden_sheet_of_an_ods_with_the_columns_is_named(tmp_path: Path, sandbox: Any) -> None:
    path = ods(
        tmp_path / "vh.ods",
        {"Readme": [["How to fill this in"]], "Old": [HEAD, [str(v) for v in values(8)]]},
        {"Old"},
    )
    result = push(sandbox, "threshold", str(path), "--dry-run")
    assert result.exit_code == 3
    assert result.stderr.startswith(f"error: {path}[Readme] line 1: missing columns ")
    assert f'{path}: passed over "Old" (hidden), which has the columns of threshold: give --sheet Old to read it\n' in (
        result.stderr
    )


# -- 3. hints that name the bound a range column reads as -------------------------------------------------


def csv_push(sandbox: Any, tmp_path: Path, header: str, *args: str) -> Any:
    path = tmp_path / "export.csv"
    cells = ",".join(["HTL001", "DBL", "2030-06-01", "2030-06-14", "2"][: header.count(",") + 1])
    path.write_text(f"{header}\n{cells}\n", encoding="utf-8")
    return push(sandbox, "threshold", str(path), *args)


@pytest.mark.parametrize(
    ("name", "mapped"),
    [
        ("Arrival", '--column start="Arrival"'),
        ("Check-in", '--column start="Check-in"'),
        ("Stay From", '--column start="Stay From"'),
        ("Start Day", '--column start="Start Day"'),
        ("Until", '--column end="Until"'),
        ("Stop Date", '--column end="Stop Date"'),
        ("Valid Through", '--column end="Valid Through"'),
        ("Night", '--column start="Night" or --column end="Night"'),
    ],
)
def test_a_range_bound_hint_maps_it_to_the_bound_it_reads_as(
    tmp_path: Path, sandbox: Any, name: str, mapped: str
) -> None:
    result = csv_push(sandbox, tmp_path, f"propertyid,roomid,{name},threshold")
    assert result.exit_code == 3
    assert (
        f'column "{name}" looks like the first or last day of a range, by a name not taken for either: name the '
        f"first day start and the last day set end (or map it: {mapped}); "
        f'give --ignore-column "{name}" to leave it out\n'
    ) in result.stderr
    assert result.stdout == ""


def test_a_departure_is_named_the_day_after_the_last_night(tmp_path: Path, sandbox: Any) -> None:
    result = csv_push(sandbox, tmp_path, "propertyid,roomid,Arrival,Departure,threshold")
    assert result.exit_code == 3
    assert '(or map it: --column start="Arrival")' in result.stderr
    assert (
        'column "Departure" looks like the first or last day of a range, by a name not taken for either: name the '
        "first day start and the last day set end (a departure is the day after the last night set; if it holds "
        'the last night, map it: --column end="Departure")'
    ) in result.stderr


@pytest.mark.parametrize(
    ("header", "mapped"),
    [("propertyid,roomid,Night,end,threshold", "start"), ("propertyid,roomid,start,Night,threshold", "end")],
)
def test_a_bound_that_reads_as_either_beside_one_range_column_is_the_other(
    tmp_path: Path, sandbox: Any, header: str, mapped: str
) -> None:
    result = csv_push(sandbox, tmp_path, header)
    assert result.exit_code == 3
    assert f'(or map it: --column {mapped}="Night");' in result.stderr


@pytest.mark.parametrize(
    ("header", "said"),
    [
        ("propertyid,roomid,Dte,Date To,threshold", ['column "Dte" is not known; did you mean "start"?']),
        ("propertyid,roomid,Date From,Dte,threshold", ['column "Dte" is not known; did you mean "end"?']),
        (
            "propertyid,roomid,Date1,Date2,threshold",
            ['column "Date1" is not known; did you mean "start"?', 'column "Date2" is not known; did you mean "end"?'],
        ),
        (
            "propertyid,roomid,start,end,Dte,threshold",
            [
                'column "Dte" is not known (start and end have their columns); give --ignore-column "Dte" to leave it out'
            ],
        ),
        ("propertyid,roomid,Dte,threshold", ['column "Dte" is not known; did you mean "date"?']),
    ],
)
def test_date_is_proposed_only_for_a_column_that_pairs_with_no_other(
    tmp_path: Path, sandbox: Any, header: str, said: list[str]
) -> None:
    result = csv_push(sandbox, tmp_path, header)
    assert result.exit_code == 3
    for line in said:
        assert f"{tmp_path / 'export.csv'}: {line}\n" in result.stderr
    if "date" not in said[0]:
        assert 'did you mean "date"' not in result.stderr
    assert "missing column" not in result.stderr  # a column proposed for a bound is not said again as missing


def test_following_the_proposed_bound_sets_the_whole_range(tmp_path: Path, sandbox: Any) -> None:
    result = csv_push(
        sandbox, tmp_path, "propertyid,roomid,Dte,Date To,threshold", "--column", "start=Dte", "--dry-run",
        "--output", "json",
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    assert [(r["startdateymd"], r["enddateymd"]) for r in sent(result)] == [("2030-06-01", "2030-06-14")]


def test_json_keys_get_the_same_proposal(tmp_path: Path, sandbox: Any) -> None:
    path = tmp_path / "rows.json"
    path.write_text(
        '[{"propertyid": "HTL001", "roomid": "DBL", "Dte": "2030-06-01", "Date To": "2030-06-14", "threshold": 2}]'
    )
    result = push(sandbox, "threshold", str(path))
    assert result.exit_code == 3
    assert f'error: {path}: key "Dte" is not known; did you mean "start"?\n' in result.stderr


# -- 4. config set of a list and of a guard's limit ----------------------------------------------------------


@pytest.fixture
def profile(tmp_path: Path) -> Path:
    """A fresh ARI_HOME (conftest's) and a profile made by `config init`, as a user would."""
    path = tmp_path / "config.toml"
    made = invoke(["config", "init", "--config", str(path), "--base-url", "https://push.example.com",
                   "--source-id", "cpbA1", "--api-key-env", "MY_ARI_KEY"])  # fmt: skip
    assert made.exit_code == 0, made.stderr
    return path


@pytest.mark.parametrize(
    ("given", "saved", "shown"),
    [
        ("Departure", ["Departure"], '["Departure"]'),
        ('["Departure", "Check-in"]', ["Departure", "Check-in"], '["Departure", "Check-in"]'),
        ('"Notes, 2027"', ["Notes, 2027"], '["Notes, 2027"]'),
        ("[]", [], "[]"),
    ],
)
def test_config_set_ignore_columns_saves_the_list(profile: Path, given: str, saved: list[str], shown: str) -> None:
    result = invoke(["config", "set", "ignore_columns", given, "--config", str(profile)])
    assert result.exit_code == 0, result.stderr
    assert result.stdout == f"Set ignore_columns = {shown} in profile 'default' of {profile}.\n"
    assert result.stderr == ""
    assert tomllib.loads(profile.read_text())["profiles"]["default"]["ignore_columns"] == saved
    got = invoke(["config", "get", "ignore_columns", "--config", str(profile)])
    assert (got.exit_code, got.stdout) == (0, f"{shown}\n")


def test_the_saved_ignore_columns_leave_the_column_out_of_a_push(profile: Path, tmp_path: Path, sandbox: Any) -> None:
    assert invoke(["config", "set", "ignore_columns", "Departure", "--config", str(profile)]).exit_code == 0
    path = tmp_path / "export.csv"
    path.write_text("propertyid,roomid,start,end,threshold,Departure\nHTL001,DBL,2030-06-01,2030-06-14,2,x\n")
    env = {**sandbox_env(sandbox), "ARI_CONFIG": str(profile)}
    result = invoke(["threshold", "push", str(path), "--dry-run", "--today", "2030-01-01"], env=env)
    assert result.exit_code == 0, result.stderr
    assert f"warning: {path}: ignored column Departure (not used by threshold)\n" in result.stderr


@pytest.mark.parametrize("given", ["Departure,Notes", "[1, 2]", '["Departure"', '[""]', "{a = 1}"])
def test_config_set_ignore_columns_refuses_what_is_not_a_list_of_names(profile: Path, given: str) -> None:
    before = profile.read_text()
    result = invoke(["config", "set", "ignore_columns", given, "--config", str(profile)])
    assert result.exit_code == 2
    assert result.stderr == (
        "error: ignore_columns must be a list of column names: one name (ari-cli config set ignore_columns "
        """Departure), or a TOML list in quotes (ari-cli config set ignore_columns '["Departure", "Notes"]')\n"""
    )
    assert result.stdout == "" and profile.read_text() == before


@pytest.mark.parametrize(
    ("key", "given", "said"),
    [("max_changed", "10", "10"), ("max_cleared", "5%", "5%"), ("min_coverage", "90", "90%"), ("max_step", "20", "20")],
)
def test_config_set_a_guard_limit(profile: Path, key: str, given: str, said: str) -> None:
    result = invoke(["config", "set", key, given, "--config", str(profile)])
    assert result.exit_code == 0, result.stderr
    assert result.stdout == f"Set {key} = {said} in profile 'default' of {profile}.\n"
    got = invoke(["config", "get", key, "--config", str(profile)])
    assert (got.exit_code, got.stdout) == (0, f"{said}\n")


def test_config_set_a_guard_limit_refuses_a_bad_one(profile: Path) -> None:
    result = invoke(["config", "set", "max_step", "5%", "--config", str(profile)])
    assert result.exit_code == 2
    assert result.stderr == "error: max_step must be a whole number (20)\n"


# -- 5. a header name holding a character that does not show -------------------------------------------------


@pytest.mark.parametrize(
    ("written", "named", "meant"),
    [
        ("room\u200bid", "U+200B (zero width space)", "roomid"),
        ("thres\u2060hold", "U+2060 (word joiner)", "threshold"),
        ("\u200eProperty", "U+200E (left-to-right mark)", "Property"),
        ("tresh\u200bold", "U+200B (zero width space)", "treshold"),
    ],
)
def test_a_header_name_with_an_invisible_character_names_it(
    tmp_path: Path, sandbox: Any, written: str, named: str, meant: str
) -> None:
    names = ["propertyid", "roomid", "start", "end", "threshold"]
    at = {"roomid": 1, "threshold": 4, "Property": 0, "treshold": 4}[meant]
    names[at] = written
    path = tmp_path / "export.csv"
    path.write_text(",".join(names) + "\nHTL001,DBL,2030-06-01,2030-06-14,2\n", encoding="utf-8")
    result = push(sandbox, "threshold", str(path), "--dry-run")
    assert result.exit_code == 3
    assert result.stderr.startswith(
        f'error: {path}: column "{written}" holds {named}, which does not show: write the name again without it '
        f'("{meant}")\nexpected columns for threshold: '
    )
    assert "missing column" not in result.stderr and "did you mean" not in result.stderr
    assert result.stdout == ""


def test_an_invisible_character_in_a_sheet_header_or_a_json_key_is_named_too(tmp_path: Path, sandbox: Any) -> None:
    path = book(tmp_path / "rates.xlsx", {"Rates": [["propertyid", "room\u200bid", "start", "end", "threshold"],
                                                     values(2)]})  # fmt: skip
    result = push(sandbox, "threshold", str(path), "--dry-run")
    assert result.exit_code == 3
    assert f'error: {path}[Rates] line 1: column "room\u200bid" holds U+200B (zero width space)' in result.stderr
    rows = tmp_path / "rows.json"
    rows.write_text(
        '[{"propertyid": "HTL001", "room\\u200bid": "DBL", "date": "2030-06-01", "threshold": 2}]', encoding="utf-8"
    )
    result = push(sandbox, "threshold", str(rows), "--dry-run")
    assert result.exit_code == 3
    assert f'error: {rows}: key "room\u200bid" holds U+200B (zero width space), which does not show' in result.stderr


def test_a_metadata_column_with_an_invisible_character_stays_a_warning(tmp_path: Path, sandbox: Any) -> None:
    path = tmp_path / "export.csv"
    path.write_text("propertyid,roomid,start,end,threshold,No\u200btes\nHTL001,DBL,2030-06-01,2030-06-14,2,x\n")
    result = push(sandbox, "threshold", str(path), "--dry-run")
    assert result.exit_code == 0, result.stderr
    assert f"warning: {path}: ignored column No\u200btes (not used by threshold)\n" in result.stderr
