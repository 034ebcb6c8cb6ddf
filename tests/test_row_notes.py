"""Every row says why: notes for skipped and clipped rows, `planned` in a dry run, `parent` of split requests."""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
from pathlib import Path
from typing import Any

import jsonschema

from tests.helpers import invoke, sandbox_env

SCHEMA = json.loads((Path(__file__).parent / "output.schema.json").read_text())
TODAY = dt.date.today()


def day(offset: int) -> str:
    return (TODAY + dt.timedelta(days=offset)).isoformat()


def weekday_name(offset: int) -> str:
    return ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")[(TODAY + dt.timedelta(days=offset)).weekday()]


def rooms(tmp_path: Path, *rows: str) -> Path:
    path = tmp_path / "rooms.csv"
    path.write_text("propertyid,roomid,start,end,days,threshold\n" + "".join(f"{r}\n" for r in rows))
    return path


def document(stdout: str) -> dict[str, Any]:
    found: dict[str, Any] = json.loads(stdout)
    jsonschema.validate(found, SCHEMA)
    return found


def notes_file(tmp_path: Path) -> Path:
    return rooms(
        tmp_path,
        f"HTL001,DBL,{day(1)},{day(2)},,2",  # line 2: sent as it is
        f"HTL001,TWN,{day(-5)},{day(-2)},,2",  # line 3: past
        f"HTL001,SGL,{day(-2)},{day(3)},,2",  # line 4: clipped
        f"HTL001,STE,{day(1)},{day(1)},{weekday_name(2)},2",  # line 5: no matching weekday
    )


def test_json_csv_and_the_report_say_why_each_row_was_skipped_or_clipped(tmp_path: Path, sandbox: Any) -> None:
    path = notes_file(tmp_path)
    report = tmp_path / "r.csv"
    result = invoke(["threshold", "push", str(path), "-o", "json", "--report", str(report)], env=sandbox_env(sandbox))
    assert result.exit_code == 0, result.stderr
    rows = document(result.stdout)["rows"]
    assert [(r["line"], r["status"]) for r in rows] == [(2, "ok"), (3, "skipped"), (4, "ok"), (5, "skipped")]
    assert rows[0]["note"] == ""
    assert rows[1]["note"] == f"ends {day(-2)}, before today {TODAY.isoformat()}"
    assert rows[2]["note"] == f"clipped: starts {day(-2)}, sent from today {TODAY.isoformat()}"
    assert rows[3]["note"] == f"no date from {day(1)} to {day(1)} is a {weekday_name(2)}"
    assert "starts " in result.stderr and "before today" in result.stderr  # the clipping warning stays
    reported = list(csv.DictReader(io.StringIO(report.read_text())))
    assert [r["note"] for r in reported] == [r["note"] for r in rows]
    csv_out = invoke(["threshold", "push", str(path), "-o", "csv"], env=sandbox_env(sandbox))
    assert [r["note"] for r in csv.DictReader(io.StringIO(csv_out.stdout))] == [r["note"] for r in rows]


def test_painted_over_rows_say_so(tmp_path: Path, sandbox: Any) -> None:
    path = rooms(tmp_path, f"HTL001,DBL,{day(1)},{day(2)},,2", f"HTL001,DBL,{day(1)},{day(3)},,3")
    result = invoke(["threshold", "push", str(path), "-o", "json", "--overlaps", "last-wins"], env=sandbox_env(sandbox))
    assert result.exit_code == 0, result.stderr
    first, second = document(result.stdout)["rows"]
    assert first["status"] == "skipped" and "set by a later row" in first["note"]
    assert second["status"] == "ok" and second["note"] == ""


def test_a_dry_run_says_planned_in_json_csv_and_the_table(tmp_path: Path) -> None:
    path = notes_file(tmp_path)
    as_json = invoke(["threshold", "push", str(path), "--dry-run", "-o", "json"])
    assert as_json.exit_code == 0, as_json.stderr
    doc = document(as_json.stdout)
    assert [r["status"] for r in doc["rows"]] == ["planned", "skipped", "planned", "skipped"]
    assert doc["summary"]["planned"] == 2 and doc["summary"]["ok"] == 0
    as_csv = invoke(["threshold", "push", str(path), "--dry-run", "-o", "csv"])
    assert [r["status"] for r in csv.DictReader(io.StringIO(as_csv.stdout))] == ["planned", "skipped"] * 2
    table = invoke(["threshold", "push", str(path), "--dry-run"])
    assert table.exit_code == 0
    assert "4 rows: 2 planned, 0 failed, 0 invalid, 2 skipped; 2 records in 1 request planned" in table.stdout
    assert " ok " not in table.stdout


def test_rows_held_back_by_invalid_ones_say_so(tmp_path: Path, sandbox: Any) -> None:
    path = rooms(tmp_path, f"HTL001,DBL,{day(1)},{day(2)},,2", f"HTL001,TWN,{day(1)},{day(2)},,x")
    result = invoke(["threshold", "push", str(path), "-o", "json"], env=sandbox_env(sandbox))
    assert result.exit_code == 3
    held, bad = document(result.stdout)["rows"]
    assert held["status"] == "skipped" and held["note"].startswith("not sent: the input has invalid rows")
    assert bad["status"] == "invalid" and bad["errors"]
    assert sandbox.received == []


def test_a_dry_run_with_skip_invalid_exits_as_the_real_run_would(tmp_path: Path, sandbox: Any) -> None:
    path = rooms(tmp_path, f"HTL001,DBL,{day(1)},{day(2)},,2", f"HTL001,TWN,{day(1)},{day(2)},,x")
    dry = invoke(["threshold", "push", str(path), "--skip-invalid", "--dry-run", "-o", "json"])
    real = invoke(["threshold", "push", str(path), "--skip-invalid", "-o", "json"], env=sandbox_env(sandbox))
    assert dry.exit_code == real.exit_code == 1
    assert [r["status"] for r in document(dry.stdout)["rows"]] == ["planned", "invalid"]
    assert [r["status"] for r in document(real.stdout)["rows"]] == ["ok", "invalid"]
    assert f"error: {path} line 3, threshold: 'x' is not a whole number" in dry.stderr


def test_split_requests_name_their_parent(tmp_path: Path, sandbox: Any) -> None:
    path = rooms(tmp_path, f"HTL001,DBL,{day(1)},{day(2)},,2", f"HTL001,NOPE,{day(1)},{day(2)},,2")
    result = invoke(["threshold", "push", str(path), "-o", "json"], env=sandbox_env(sandbox))
    assert result.exit_code == 1
    requests = document(result.stdout)["requests"]
    assert requests[0]["parent"] is None and len(requests) == 3
    assert [r["parent"] for r in requests[1:]] == [requests[0]["id"]] * 2
    table = invoke(["threshold", "push", str(path)], env=sandbox_env(sandbox))
    assert "2 rows: 1 ok, 1 failed, 0 invalid, 0 skipped; 2 records, sent 3 of 3 requests" in table.stdout
