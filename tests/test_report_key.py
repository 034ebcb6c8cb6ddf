"""The report file carries each row's key (issue 42, point 8): property, room, rate where the operation has one,
dates and value, after the result columns, in `--report x.csv|x.json` and in `--output csv|json` alike."""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import invoke, sandbox_env

TODAY = dt.date.today()
START, END = (TODAY + dt.timedelta(days=10)).isoformat(), (TODAY + dt.timedelta(days=20)).isoformat()
RESULT = ["source", "line", "status", "trackingids", "errors", "note"]
SAMPLES = Path(__file__).parent.parent / "samples"


def rooms(tmp_path: Path) -> Path:
    """An ok row, a row the service refuses, an invalid row and a row of a weekday filter (several records)."""
    path = tmp_path / "rooms.csv"
    path.write_text(
        "propertyid,roomid,start,end,days,threshold\n"
        f"HTL001,DBL,{START},{END},,2\n"
        f"HTL001,NOPE,{START},{END},,2\n"
        f"HTL001,DBL,someday,{END},,1\n"
        f"HTL001,TWN,{START},{END},Mon-Fri,3\n"
    )
    return path


# What each row of `rooms` says of itself: a valid row as the table shows it (a weekday filter in parentheses),
# an invalid one as written.
KEYS = [
    {"propertyid": "HTL001", "roomid": "DBL", "dates": f"{START}..{END}", "value": "2"},
    {"propertyid": "HTL001", "roomid": "NOPE", "dates": f"{START}..{END}", "value": "2"},
    {"propertyid": "HTL001", "roomid": "DBL", "dates": f"someday..{END}", "value": "1"},
    {"propertyid": "HTL001", "roomid": "TWN", "dates": f"{START}..{END} (Mon-Fri)", "value": "3"},
]
STATUSES = ["ok", "failed", "invalid", "ok"]


def test_a_csv_report_gives_each_rows_key_dates_and_value_after_its_result(tmp_path: Path, sandbox: Any) -> None:
    path, report = rooms(tmp_path), tmp_path / "report.csv"
    result = invoke(
        ["threshold", "push", str(path), "--skip-invalid", "--report", str(report)], env=sandbox_env(sandbox)
    )
    assert result.exit_code == 1, result.stderr
    assert 'rooms.csv line 4, start: "someday" is not a date' in result.stderr
    lines = report.read_text().splitlines()
    # The result columns keep their places: a script that reads them by position keeps working.
    assert lines[0] == ",".join([*RESULT, "propertyid", "roomid", "dates", "value"])
    rows = list(csv.DictReader(io.StringIO(report.read_text())))
    assert [row["line"] for row in rows] == ["2", "3", "4", "5"]
    assert [row["status"] for row in rows] == STATUSES
    assert [{name: row[name] for name in KEYS[0]} for row in rows] == KEYS
    assert rows[1]["errors"] == "451 invalid room mapping (HTTP 422)"
    assert all(rows[i]["trackingids"].startswith("sbx-") for i in (0, 1, 3))
    # What the report says was set is what the service holds.
    held = sandbox.state()["threshold"]["HTL001"]
    assert held["DBL"][START] == "2" and "NOPE" not in held
    weekdays = [day for day, value in held["TWN"].items() if value == "3"]
    assert weekdays and all(dt.date.fromisoformat(day).weekday() < 5 for day in weekdays)


def test_a_json_report_and_the_json_document_give_the_same_keys(tmp_path: Path, sandbox: Any) -> None:
    path, report = rooms(tmp_path), tmp_path / "report.json"
    result = invoke(
        ["threshold", "push", str(path), "--skip-invalid", "--output", "json", "--report", str(report)],
        env=sandbox_env(sandbox),
    )
    assert result.exit_code == 1, result.stderr
    written = json.loads(report.read_text())
    for document in (written, json.loads(result.stdout)):
        assert [row["status"] for row in document["rows"]] == STATUSES
        assert [list(row)[len(RESULT) :] for row in document["rows"]] == [list(KEYS[0])] * 4
        assert [{name: row[name] for name in KEYS[0]} for row in document["rows"]] == KEYS
    assert [row["trackingids"] for row in written["rows"]] == [
        row["trackingids"] for row in json.loads(result.stdout)["rows"]
    ]


@pytest.mark.parametrize("form", ["csv", "json"])
def test_an_operation_set_per_rate_gives_the_rate(tmp_path: Path, form: str) -> None:
    report = tmp_path / f"report.{form}"
    result = invoke(
        ["maxadv", "push", str(SAMPLES / "maxadv.csv"), "--sandbox", "--dry-run", "--today", "2027-01-01",
         "--report", str(report)]
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    text = report.read_text()
    rows = json.loads(text)["rows"] if form == "json" else list(csv.DictReader(io.StringIO(text)))
    sample = list(csv.DictReader(io.StringIO((SAMPLES / "maxadv.csv").read_text())))
    assert [(row["propertyid"], row["roomid"], row["rateid"]) for row in rows] == [
        (row["propertyid"], row["roomid"], row["rateid"]) for row in sample
    ]
    # A valid row's dates are resolved: `today..today+180` is the days it set.
    assert (sample[0]["start"], sample[0]["end"], rows[0]["dates"]) == ("today", "today+180", "2027-01-01..2027-06-30")
    assert [row["value"] for row in rows] == [row["time"] for row in sample]
    if form == "csv":
        assert text.splitlines()[0] == ",".join([*RESULT, "propertyid", "roomid", "rateid", "dates", "value"])


def test_a_policy_reports_its_value_in_words(tmp_path: Path, sandbox: Any) -> None:
    report = tmp_path / "report.csv"
    policies = SAMPLES / "policies.toml"
    result = invoke(
        ["policy", "push", str(SAMPLES / "policy-named.csv"), "--policies", str(policies), "--today", "2027-01-01",
         "--report", str(report)],
        env=sandbox_env(sandbox),
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    rows = list(csv.DictReader(io.StringIO(report.read_text())))
    assert (rows[1]["propertyid"], rows[1]["roomid"], rows[1]["rateid"]) == ("HTL001", "DBL", "NRF")
    assert rows[1]["dates"] == "2027-01-01..2027-03-31"
    assert rows[1]["value"] == "nonref: Non-refundable. Deposit: 100% of the stay, charged at booking."
    assert sandbox.state()["policy"]["HTL001"]["DBL"]["NRF"]["2027-01-01"]["refundable"] == "false"


def test_a_run_that_stops_before_its_rows_writes_its_operations_header(tmp_path: Path) -> None:
    path, report = tmp_path / "p.csv", tmp_path / "report.csv"
    path.write_text("propertyid,roomid,rateid,start,end,policy\nHTL001,DBL,BAR,2027-01-01,2027-01-31,flex\n")
    result = invoke(["policy", "push", str(path), "--report", str(report)])
    assert result.exit_code == 4
    assert result.stderr.startswith("error: no base URL")
    assert report.read_text() == ",".join([*RESULT, "propertyid", "roomid", "rateid", "dates", "value"]) + "\n"
