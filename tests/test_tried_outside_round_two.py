"""Issue 29 tried from the outside, round two: ids, quotes, column names, flags and flags of the command line
that a tester found accepted without a word. Every test runs the console script and asserts what the user sees."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import invoke
from tests.odsxml import END, TAIL, number, row, text, write_ods
from tests.test_sheets_as_sent import book, push

HEAD = "propertyid,roomid,start,end,threshold"


def csv(tmp_path: Path, *lines: str, name: str = "rooms.csv") -> Path:
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


# -- 1. control, line-break, space and default-ignorable characters inside ids -------------------------------


@pytest.mark.parametrize(
    ("char", "named"),
    [
        ("\t", "U+0009, a tab"),
        ("\u0007", "U+0007, a control character"),
        ("\u2028", "U+2028 (line separator), a line break"),
        ("\u0085", "U+0085 (next line), a line break"),
        ("\u034f", "U+034F (combining grapheme joiner), which does not show"),
        ("\u3164", "U+3164 (hangul filler), which does not show"),
        ("\ufe0f", "U+FE0F (variation selector-16), which does not show"),
        ("\u180b", "U+180B (mongolian free variation selector one), which does not show"),
        ("\u3000", "U+3000 (ideographic space), which looks like a plain space and is not one"),
        ("\u00a0", "U+00A0 (no-break space), which looks like a plain space and is not one"),
    ],
)
def test_an_id_holding_a_character_that_is_not_what_it_looks_is_an_input_error(
    tmp_path: Path, sandbox: Any, char: str, named: str
) -> None:
    path = csv(tmp_path, HEAD, f"HTL001,DB{char}L,2030-06-01,2030-06-05,2")
    result = push(sandbox, "threshold", str(path), "--output", "json")
    assert result.exit_code == 3
    assert result.stderr == (
        f"error: {path} line 2, roomid: holds {named}: type the id again without it\n"
        "nothing was sent: fix the invalid rows above, or give --skip-invalid to send the valid ones\n"
    )
    assert json.loads(result.stdout)["summary"]["invalid"] == 1
    assert sandbox.received == []


def test_an_unbalanced_quote_that_folds_two_rows_into_one_id_is_an_error_naming_the_quote(
    tmp_path: Path, sandbox: Any
) -> None:
    path = csv(
        tmp_path,
        HEAD,
        "HTL001,DBL,2030-06-01,2030-06-05,2",
        'HTL001,"TWN",2030-06-01,2030-06-05,3',
        'HTL001,"SGL,2030-06-01,2030-06-05,4',
        'HTL001,STE",2030-06-01,2030-06-05,5',
    )
    result = push(sandbox, "threshold", str(path), "--output", "json")
    assert result.exit_code == 3
    assert result.stderr == (
        f"error: {path} line 4, roomid: holds U+000A (line feed), a line break: type the id again without it "
        "(in a CSV, a quote left open on this line takes the next lines into this cell: close it)\n"
        "nothing was sent: fix the invalid rows above, or give --skip-invalid to send the valid ones\n"
    )
    assert json.loads(result.stdout)["summary"]["invalid"] == 1
    assert sandbox.received == []


def test_a_tab_or_line_break_around_an_id_is_stripped_as_a_space_is(tmp_path: Path, sandbox: Any) -> None:
    path = csv(tmp_path, HEAD, 'HTL001,"DBL\t",2030-06-01,2030-06-05,2', 'HTL001,"\nTWN",2030-06-01,2030-06-05,3')
    result = push(sandbox, "threshold", str(path), "--dry-run", "--output", "json")
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    rooms = [r["roomid"] for q in json.loads(result.stdout)["requests"] for r in q["body"]["data"]]
    assert rooms == ["DBL", "TWN"]


@pytest.mark.parametrize(
    ("written", "named", "meant"),
    [("thres\u0007hold", "U+0007, a control character", "threshold"),
     ("room\u034fid", "U+034F (combining grapheme joiner), which does not show", "roomid")],
)  # fmt: skip
# The terminal is never sent a control character: the name shows it escaped (`thres\x07hold`).
def test_a_column_name_holding_a_control_or_ignorable_character_names_it(
    tmp_path: Path, sandbox: Any, written: str, named: str, meant: str
) -> None:
    path = csv(tmp_path, HEAD.replace(meant, written), "HTL001,DBL,2030-06-01,2030-06-05,2")
    result = push(sandbox, "threshold", str(path), "--dry-run")
    assert result.exit_code == 3
    shown = written.replace("\u0007", "\\x07")
    assert result.stderr.startswith(
        f'error: {path}: column "{shown}" holds {named}: write the name again without it ("{meant}")\n'
    )
    assert result.stdout == ""


def test_a_column_name_wrapped_on_two_lines_or_with_a_tab_is_still_the_column(tmp_path: Path, sandbox: Any) -> None:
    path = csv(tmp_path, 'propertyid,roomid,"Start\nDate","End\tDate",threshold', "HTL001,DBL,2030-06-01,2030-06-05,2")
    result = push(sandbox, "threshold", str(path), "--dry-run", "--output", "json")
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""


# -- 2. a quote left open to the end of a CSV ------------------------------------------------------------------


def test_a_quote_open_to_the_end_of_a_csv_names_where_it_opens_and_sends_nothing(tmp_path: Path, sandbox: Any) -> None:
    path = csv(
        tmp_path,
        HEAD,
        "HTL001,DBL,2030-06-01,2030-06-05,2",
        'HTL001,"SGL,2030-06-01,2030-06-05,4',
        "HTL001,STE,2030-06-01,2030-06-05,5",
        "HTL001,TWN,2030-06-01,2030-06-05,6",
    )
    result = push(sandbox, "threshold", str(path))
    assert result.exit_code == 3
    assert result.stdout == ""
    assert result.stderr == (
        f'error: {path} line 3, column 2 (roomid): a quote (") opens a value that is never closed, so lines 3 to 5 '
        "(the end of the file) were read as that one value\n"
        "hint: close the quote on line 3, or remove it\n"
    )
    assert sandbox.received == []
    piped = push(sandbox, "threshold", "-", input=path.read_text(encoding="utf-8"))
    assert piped.exit_code == 3
    assert 'line 3, column 2 (roomid): a quote (") opens a value that is never closed' in piped.stderr
    assert sandbox.received == []


def test_a_closed_quote_holding_a_line_break_in_the_last_row_is_read(tmp_path: Path, sandbox: Any) -> None:
    path = csv(tmp_path, HEAD + ",notes", 'HTL001,DBL,2030-06-01,2030-06-05,2,"two\nlines"')
    result = push(sandbox, "threshold", str(path), "--dry-run", "--output", "json")
    assert result.exit_code == 0, result.stderr
    assert result.stderr == f"warning: {path}: ignored column notes (not used by threshold)\n"


# -- 3. a rate id or a range bound by any spelling of its family ----------------------------------------------


@pytest.mark.parametrize("name", ["Rate Plan ID", "RatePlanID", "Rate Code", "Rateplan Code", "Rate Code ID"])
def test_a_rate_id_in_a_threshold_file_is_an_error_by_any_spelling(tmp_path: Path, sandbox: Any, name: str) -> None:
    path = csv(tmp_path, f"Hotel,Room,Start,End,Threshold,{name}", "HTL001,DBL,2030-06-01,2030-06-05,2,BAR")
    result = push(sandbox, "threshold", str(path), "--dry-run")
    assert result.exit_code == 3
    assert result.stdout == ""
    assert result.stderr.startswith(
        f'error: {path}: column "{name}" is not used by threshold: thresholds are per room (propertyid, roomid), '
        f'for every rate; give --ignore-column "{name}" to leave it out\n'
    )
    ignored = push(sandbox, "threshold", str(path), "--dry-run", "--output", "json", "--ignore-column", name)
    assert ignored.exit_code == 0, ignored.stderr


@pytest.mark.parametrize(
    ("name", "mapped"),
    [("End Night", '--column end="End Night"'), ("Stay Through", '--column end="Stay Through"'),
     ("Arrival Night", '--column start="Arrival Night"'), ("Stay Until Date", '--column end="Stay Until Date"')],
)  # fmt: skip
def test_a_range_bound_with_night_or_stay_beside_it_is_an_error(
    tmp_path: Path, sandbox: Any, name: str, mapped: str
) -> None:
    path = csv(tmp_path, f"Hotel,Room,Start,End,Threshold,{name}", "HTL001,DBL,2030-06-01,2030-06-05,2,2030-06-04")
    result = push(sandbox, "threshold", str(path), "--dry-run")
    assert result.exit_code == 3
    assert result.stdout == ""
    assert result.stderr.startswith(
        f'error: {path}: column "{name}" looks like the first or last day of a range, by a name not taken for '
        f"either: name the first day start and the last day set end (or map it: {mapped}); "
        f'give --ignore-column "{name}" to leave it out\n'
    )


@pytest.mark.parametrize("name", ["Stay Type", "Nightly Rate Note", "Rates Sheet", "Rate Name"])
def test_names_that_only_hold_a_bound_or_id_word_stay_a_warning(tmp_path: Path, sandbox: Any, name: str) -> None:
    path = csv(tmp_path, f"Hotel,Room,Start,End,Threshold,{name}", "HTL001,DBL,2030-06-01,2030-06-05,2,x")
    result = push(sandbox, "threshold", str(path), "--dry-run", "--output", "json")
    assert result.exit_code == 0, result.stderr
    assert result.stderr == f"warning: {path}: ignored column {name} (not used by threshold)\n"


# -- 4. a check mark as emoji pickers write it ------------------------------------------------------------------


def test_a_check_mark_with_a_variation_selector_is_a_weekday_flag_on(tmp_path: Path, sandbox: Any) -> None:
    # 2030-02-04 is a Monday: Saturday by U+2714 U+FE0F, Sunday by U+2705, the rest off.
    head = "Property,Room,Date From,Date To,Mon,Tue,Wed,Thu,Fri,Sat,Sun,Threshold"
    path = csv(tmp_path, head, "HTL001,DBL,2030-02-04,2030-02-10,N,N,N,N,N,\u2714\ufe0f,\u2705,2")
    result = push(sandbox, "threshold", str(path), "--dry-run", "--output", "json")
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    records = [r for q in json.loads(result.stdout)["requests"] for r in q["body"]["data"]]
    assert [(r["startdateymd"], r["enddateymd"]) for r in records] == [("2030-02-09", "2030-02-10")]


# -- 5. an unnamed column that holds values --------------------------------------------------------------------


def test_an_unnamed_column_holding_values_is_named_in_a_warning(tmp_path: Path, sandbox: Any) -> None:
    path = csv(tmp_path, HEAD + ",,", "HTL001,DBL,2030-06-01,2030-06-05,3,,x", "HTL001,TWN,2030-06-01,2030-06-05,3,,")
    result = push(sandbox, "threshold", str(path), "--dry-run", "--output", "json")
    assert result.exit_code == 0, result.stderr
    assert result.stderr == (
        f"warning: {path}: column 7 has no name and holds values; ignored (name it in the header to have it read)\n"
    )
    assert len(json.loads(result.stdout)["requests"][0]["body"]["data"]) == 2


def test_an_empty_unnamed_column_says_nothing(tmp_path: Path, sandbox: Any) -> None:
    path = csv(tmp_path, HEAD + ",,", "HTL001,DBL,2030-06-01,2030-06-05,3,,", "HTL001,TWN,2030-06-01,2030-06-05,3")
    result = push(sandbox, "threshold", str(path), "--dry-run", "--output", "json")
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""


def test_an_unnamed_sheet_column_holding_values_is_named_by_its_letter(tmp_path: Path, sandbox: Any) -> None:
    path = book(
        tmp_path / "rooms.xlsx",
        {"Rooms": [[*HEAD.split(","), None, None, "Notes"],
                   ["HTL001", "DBL", "2030-06-01", "2030-06-05", 3, None, "x", "ok"],
                   ["HTL001", "TWN", "2030-06-01", "2030-06-05", 3, 9, None, None]]},
    )  # fmt: skip
    result = push(sandbox, "threshold", str(path), "--dry-run", "--output", "json")
    assert result.exit_code == 0, result.stderr
    assert result.stderr.endswith(
        f"warning: {path}[Rooms]: columns F, G have no name and hold values; ignored (name it in the header to have "
        "it read)\n"
    )


# -- 6. --ignore-column naming no column ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("named", "said"),
    [("Nope", 'note: --ignore-column "Nope": no column of the input is named so\n'),
     ("Note", 'note: --ignore-column "Note": no column of the input is named so; did you mean "Notes"?\n'),
     ("threshold", 'note: --ignore-column "threshold": threshold reads that column, so it is not left out\n'),
     ("notes", "")],
)  # fmt: skip
def test_an_ignore_column_naming_no_column_says_so(tmp_path: Path, sandbox: Any, named: str, said: str) -> None:
    path = csv(tmp_path, HEAD + ",Notes", "HTL001,DBL,2030-06-01,2030-06-05,3,x")
    result = push(sandbox, "threshold", str(path), "--dry-run", "--output", "json", "--ignore-column", named)
    assert result.exit_code == 0, result.stderr
    assert result.stderr == f"warning: {path}: ignored column Notes (not used by threshold)\n{said}"
    assert len(json.loads(result.stdout)["requests"]) == 1


# -- 7. a row of no height is hidden ----------------------------------------------------------------------------


def test_a_workbook_row_of_no_height_is_hidden(tmp_path: Path, sandbox: Any) -> None:
    rows = [["HTL001", f"R{n}", "2030-06-01", "2030-06-30", n] for n in (1, 2, 3)]
    path = book(tmp_path / "rates.xlsx", {"Rates": [HEAD.split(","), *rows]})
    with zipfile.ZipFile(path) as archive:
        parts = {name: archive.read(name) for name in archive.namelist()}
    sheet = parts["xl/worksheets/sheet1.xml"].decode()
    assert '<row r="3"' in sheet and "hidden" not in sheet
    parts["xl/worksheets/sheet1.xml"] = sheet.replace('<row r="3"', '<row r="3" ht="0" customHeight="1"').encode()
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in parts.items():
            archive.writestr(name, data)
    result = push(sandbox, "threshold", str(path))
    assert result.exit_code == 3
    assert result.stdout == ""
    assert result.stderr.startswith(
        f"error: {path}[Rates] line 3: hidden or filtered out in the workbook, so a person reading the sheet "
        "would not count them\nhint: give --hidden-rows skip"
    )
    assert sandbox.received == []
    skipped = push(sandbox, "threshold", str(path), "--hidden-rows", "skip", "--dry-run", "--output", "json")
    assert skipped.exit_code == 0, skipped.stderr
    assert [r["threshold"] for q in json.loads(skipped.stdout)["requests"] for r in q["body"]["data"]] == ["1", "3"]


def test_an_ods_row_of_no_height_is_hidden(tmp_path: Path, sandbox: Any) -> None:
    cells = [row(*(text(n) for n in HEAD.split(",")), TAIL)]
    cells += [row(text("HTL001"), text("DBL"), text("2030-06-01"), text("2030-06-05"), number(n), TAIL,
                  extra=' table:style-name="ro2"' if n == 2 else ' table:style-name="ro1"') for n in (1, 2, 3)]  # fmt: skip
    styles = (
        '<style:style style:name="ro1" style:family="table-row"><style:table-row-properties '
        'style:row-height="0.178in" style:use-optimal-row-height="true"/></style:style>'
        '<style:style style:name="ro2" style:family="table-row"><style:table-row-properties '
        'style:row-height="0in" style:use-optimal-row-height="false"/></style:style>'
    )
    path = write_ods(tmp_path / "rates.ods", {"Rates": [*cells, END]}, styles=styles)
    result = push(sandbox, "threshold", str(path))
    assert result.exit_code == 3
    assert result.stderr.startswith(f"error: {path}[Rates] line 3: hidden or filtered out in the workbook")
    assert sandbox.received == []


# -- 8. --sandbox beside the flags of another service -----------------------------------------------------------


@pytest.mark.parametrize(
    ("flags", "named"),
    [(["--base-url", "http://10.1.1.1", "--source-id", "zzz"], "--base-url and --source-id"),
     (["--api-key-file", "key.txt"], "--api-key-file"), (["--path-segment", "{action}"], "--path-segment")],
)  # fmt: skip
def test_sandbox_with_connection_flags_is_a_usage_error(tmp_path: Path, flags: list[str], named: str) -> None:
    path = csv(tmp_path, HEAD, "HTL001,DBL,2030-06-01,2030-06-05,3")
    result = invoke(["threshold", "push", str(path), "--sandbox", *flags, "--today", "2030-01-01"])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == (
        f"error: --sandbox pushes to the built-in sandbox, so {named} would be ignored\n"
        "hint: give --sandbox to try against the built-in sandbox, or the connection flags to push to a service; "
        "not both\n"
    )


def test_sandbox_alone_or_beside_the_environment_pushes_to_the_sandbox(tmp_path: Path) -> None:
    path = csv(tmp_path, HEAD, "HTL001,DBL,2030-06-01,2030-06-05,3")
    env = {"ARI_BASE_URL": "http://10.1.1.1", "ARI_SOURCE_ID": "cpbZZ", "ARI_API_KEY": "k" * 20}
    result = invoke(["threshold", "push", str(path), "--sandbox", "--today", "2030-01-01", "--output", "json"], env)
    assert result.exit_code == 0, result.stderr
    assert result.stderr.startswith("pushing to the built-in sandbox at http://127.0.0.1:")
    assert json.loads(result.stdout)["summary"]["ok"] == 1


# -- 9. the Python API's arguments of the wrong type -----------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "message"),
    [(dict(files=5), "files=5: give a path, or a list of paths"),
     (dict(columns=["threshold=x"]),
      "columns=['threshold=x']: give a mapping of field to column name, e.g. {\"end\": \"Until\"}"),
     (dict(columns={"threshold": 3}), "columns={'threshold': 3}: give a mapping of field to column name"),
     (dict(dry_run="no", sandbox=True), "dry_run='no': give True or False"),
     (dict(sandbox=1), "sandbox=1: give True or False"),
     (dict(sandbox=True, base_url="http://10.1.1.1"),
      "sandbox=True pushes to the built-in sandbox, so base_url= would be ignored: give one")],
)  # fmt: skip
def test_api_arguments_of_the_wrong_type_are_its_usage_error(
    tmp_path: Path, sandbox: Any, call: dict[str, Any], message: str
) -> None:
    import ari_cli

    path = csv(tmp_path, HEAD, "HTL001,DBL,2030-06-01,2030-06-05,3")
    arguments: dict[str, Any] = {"files": [path], "today": "2030-01-01", **call}
    with pytest.raises(ari_cli.UsageProblem) as raised:
        ari_cli.push("threshold", **arguments)
    assert raised.value.message.startswith(message)
    assert raised.value.exit_code == 2
    assert sandbox.received == []
