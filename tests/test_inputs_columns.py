"""Column names: aliases, unused-column warnings, misspellings, missing and duplicate columns."""

from __future__ import annotations

from pathlib import Path

import pytest

from ari_cli.exits import InputError
from ari_cli.inputs import ReadOptions, read_rows
from ari_cli.inputs.names import CANONICAL, WEEKDAY_FLAGS, expected_columns, normalize, suggest
from ari_cli.operations import of
from ari_cli.wire.models import Operation

ROW = "H1,R1,2027-01-01,2027-01-05,5"


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)


def write(name: str, content: str) -> str:
    Path(name).write_text(content, encoding="utf-8")
    return name


def read(*names: str, operation: Operation = Operation.THRESHOLD) -> tuple[list[dict[str, object]], list[str]]:
    result = read_rows(list(names), operation, ReadOptions())
    return [row.fields for row in result.rows], result.warnings


def error(*names: str, operation: Operation = Operation.THRESHOLD) -> InputError:
    with pytest.raises(InputError) as caught:
        read(*names, operation=operation)
    return caught.value


@pytest.mark.parametrize(
    ("written", "canonical"),
    [
        ("Property ID", "propertyid"),
        ("property_id", "propertyid"),
        ("PROPERTYID", "propertyid"),
        ("property-id", "propertyid"),
        ("Hotel", "propertyid"),
        ("hotel_id", "propertyid"),
        ("Property", "propertyid"),
        ("Room", "roomid"),
        ("Room Type", "roomid"),
        ("rate", "rateid"),
        ("Rate Plan", "rateid"),
        ("StartDateYMD", "start"),
        ("start_date", "start"),
        ("From", "start"),
        ("End Date", "end"),
        ("enddateymd", "end"),
        ("TO", "end"),
        ("Sell Threshold", "threshold"),
        ("Nights", "time"),
        ("MaxAdv", "time"),
        ("max_advance", "time"),
        ("Max Advance", "time"),
        ("Days Prior Check-in", "dayspriorcheckin"),
        ("Day of week", "days"),
        ("DOW", "days"),
        ("Weekdays", "days"),
        ("\ufeffpropertyid", "propertyid"),
    ],
)
def test_names_and_aliases(written: str, canonical: str) -> None:
    assert CANONICAL[normalize(written)] == canonical


def test_aliased_header_reads() -> None:
    write("rooms.csv", f"Hotel ID,Room Type,From,To,Sell Threshold\n{ROW}\n")
    fields, warnings = read("rooms.csv")
    assert fields == [
        {"propertyid": "H1", "roomid": "R1", "start": "2027-01-01", "end": "2027-01-05", "threshold": "5"}
    ]
    assert warnings == []


def test_unused_columns_give_one_warning_per_file() -> None:
    write(
        "rooms.csv",
        "propertyid,roomid,Notes,start,end,threshold,Owner,maxadv\nH1,R1,n,2027-01-01,2027-01-05,5,o,BAR\n",
    )
    fields, warnings = read("rooms.csv")
    assert warnings == ["rooms.csv: ignored columns Notes, Owner, maxadv (not used by threshold)"]
    assert fields[0] == {
        "propertyid": "H1",
        "roomid": "R1",
        "start": "2027-01-01",
        "end": "2027-01-05",
        "threshold": "5",
    }


def test_one_unused_column_is_named_in_the_singular() -> None:
    write("rooms.csv", f"propertyid,roomid,start,end,threshold,Notes\n{ROW},x\n")
    assert read("rooms.csv")[1] == ["rooms.csv: ignored column Notes (not used by threshold)"]


def test_an_unnamed_column_is_ignored_silently() -> None:
    write("rooms.csv", f"propertyid,roomid,start,end,threshold,\n{ROW},\n")
    assert read("rooms.csv")[1] == []


@pytest.mark.parametrize(
    ("header", "message"),
    [
        ("propertyid,roomid,start,end,treshold", 'column "treshold" is not known; did you mean "threshold"?'),
        ("propertyid,romid,start,end,threshold", 'column "romid" is not known; did you mean "roomid"?'),
        (
            "propertyd,roomid,start,end,threshold",
            'column "propertyd" is not known; did you mean "propertyid"?',
        ),
        (
            "propertyid,roomid,strat date,end,threshold",
            'column "strat date" is not known; did you mean "startdate"?',
        ),
        (
            "propertyid,roomid,start,end,sell_treshold",
            'column "sell_treshold" is not known; did you mean "sellthreshold"?',
        ),
        # One letter off a 4-letter name the operation uses: dropping it would send the value to every day.
        ("propertyid,roomid,start,end,threshold,dayz", 'column "dayz" is not known; did you mean "days"?'),
        # Beside start and end, date would conflict with them (issue 29, tried from the outside): not proposed.
        (
            "propertyid,roomid,start,end,threshold,data",
            'column "data" is not known (start and end have their columns); give --ignore-column "data" to leave it out',
        ),
        ("propertyid,roomid,data,threshold", 'column "data" is not known; did you mean "date"?'),
    ],
)
def test_misspelled_column_suggests_the_name(header: str, message: str) -> None:
    write("rooms.csv", f"{header}\n{ROW}\n")
    problem = error("rooms.csv")
    assert problem.message.splitlines()[0] == f"rooms.csv: {message}"
    assert problem.message.splitlines()[-1] == expected_columns(Operation.THRESHOLD)


@pytest.mark.parametrize("name", ["ratid", "threshhold", "Notes", "rate name", "name"])
def test_other_operations_names_and_unrelated_names_are_not_misspellings(name: str) -> None:
    # ratid looks like rateid, which threshold does not use: ignoring it is the helpful reading.
    operation = Operation.MAXADV if name == "threshhold" else Operation.THRESHOLD
    header = (
        "propertyid,roomid,rateid,start,end,time"
        if operation is Operation.MAXADV
        else "propertyid,roomid,start,end,threshold"
    )
    values = "H1,R1,BAR,2027-01-01,2027-01-05,5" if operation is Operation.MAXADV else ROW
    write("rooms.csv", f"{header},{name}\n{values},x\n")
    _, warnings = read("rooms.csv", operation=operation)
    assert warnings == [f"rooms.csv: ignored column {name} (not used by {operation.value})"]


@pytest.mark.parametrize(
    ("name", "expected"),
    [("treshold", "threshold"), ("hotl", "hotel"), ("rate", None), ("notes", None), ("", None)],
)
def test_suggest(name: str, expected: str | None) -> None:
    assert suggest(name) == expected


def test_missing_columns_are_listed_with_the_expected_columns() -> None:
    write("rooms.csv", "propertyid,roomid,start\nH1,R1,2027-01-01\n")
    problem = error("rooms.csv")
    assert problem.message == (
        "rooms.csv: missing columns end, threshold\n"
        "expected columns for threshold: propertyid, roomid, start, end (or date for start and end), "
        "days (optional), threshold"
    )
    assert problem.hint is not None and "sellthreshold" in problem.hint


def test_missing_range_and_date_is_reported_as_one_item() -> None:
    write("rooms.csv", "propertyid,roomid,threshold\nH1,R1,5\n")
    assert error("rooms.csv").message.splitlines()[0] == "rooms.csv: missing columns start and end (or date)"


def test_one_missing_column_is_named_in_the_singular() -> None:
    write("rooms.csv", "propertyid,roomid,start,end\nH1,R1,2027-01-01,2027-01-05\n")
    assert error("rooms.csv").message.splitlines()[0] == "rooms.csv: missing column threshold"


def test_date_alone_replaces_start_and_end() -> None:
    write("rooms.csv", "propertyid,roomid,date,days,threshold\nH1,R1,2027-01-01,Sat,5\n")
    assert read("rooms.csv")[0] == [
        {"propertyid": "H1", "roomid": "R1", "date": "2027-01-01", "days": "Sat", "threshold": "5"}
    ]


def test_date_together_with_start_is_an_error() -> None:
    write("rooms.csv", "propertyid,roomid,date,start,threshold\nH1,R1,2027-01-01,2027-01-01,5\n")
    assert error("rooms.csv").message.splitlines()[0] == (
        "rooms.csv: give either a date column or start and end columns, not date together with start"
    )


def test_duplicate_columns_are_an_error() -> None:
    write("rooms.csv", f"propertyid,Room,start,end,threshold,roomid\n{ROW},R2\n")
    assert error("rooms.csv").message.splitlines()[0] == 'rooms.csv: columns "Room" and "roomid" both give roomid'


def test_header_problems_of_all_files_come_in_one_error() -> None:
    write("a.csv", f"propertyid,roomid,start,end,treshold\n{ROW}\n")
    write("b.csv", "propertyid,roomid,start,end\nH1,R1,2027-01-01,2027-01-05\n")
    write("good.csv", f"propertyid,roomid,start,end,threshold\n{ROW}\n")
    problem = error("a.csv", "good.csv", "b.csv", "missing.csv")
    assert problem.message.splitlines() == [
        'a.csv: column "treshold" is not known; did you mean "threshold"?',
        "b.csv: missing column threshold",
        "cannot read missing.csv: no such file",
        expected_columns(Operation.THRESHOLD),
    ]


def test_policy_needs_every_policy_column_but_the_time_interval_and_those_of_a_required_deposit() -> None:
    skipped = ("date", "period", "days", "deposittimeinterval", "policy", *WEEKDAY_FLAGS)
    names = [n for n in of(Operation.POLICY).columns if n not in skipped]
    write("policy.csv", ",".join(names) + "\n" + ",".join("1" for _ in names) + "\n")
    fields, warnings = read("policy.csv", operation=Operation.POLICY)
    assert list(fields[0]) == names
    assert warnings == []
    # Issue 42: a deposit that is not required needs no amount, share or moment, so a file may lack their
    # columns (a required deposit's row is refused naming them, `test_policy_reading.py`).
    deposit = ("depositamount", "depositapplied", "depositintervalunits")
    kept = [n for n in names if n not in deposit]
    write("lean.csv", ",".join(kept) + "\n" + ",".join("1" for _ in kept) + "\n")
    assert list(read("lean.csv", operation=Operation.POLICY)[0][0]) == kept
    short = [n for n in names if n not in ("penaltyapplied", "depositpolicy")]
    write("short.csv", ",".join(short) + "\n" + ",".join("1" for _ in short) + "\n")
    assert error("short.csv", operation=Operation.POLICY).message.splitlines()[0] == (
        "short.csv: missing columns penaltyapplied, depositpolicy"
    )


def test_expected_columns_per_operation() -> None:
    assert expected_columns(Operation.MAXADV) == (
        "expected columns for maxadv: propertyid, roomid, rateid, start, end (or date for start and end), "
        "days (optional), time"
    )
    assert expected_columns(Operation.POLICY).endswith(
        "depositamount (for a required deposit), depositapplied (for a required deposit), "
        "depositintervalunits (for a required deposit), deposittimeinterval (optional); "
        "or, for refundable and the level and deposit columns, policy (a name from --policies)"
    )
