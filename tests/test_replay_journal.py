"""`replay` is journaled like a push: calendar, history find and --changed-only know what it changed."""

from __future__ import annotations

import json
from pathlib import Path

from ari_cli.sandbox import Sandbox
from tests.conftest import PINNED_TODAY
from tests.helpers import invoke, sandbox_env
from tests.test_history import line_of, table_row

TODAY = ["--today", PINNED_TODAY]


def body(room: str, start: str, end: str, value: str) -> dict[str, object]:
    return {"propertyid": "HTL001", "action": "sellthresholdupdate",
            "data": [{"startdateymd": start, "enddateymd": end, "roomid": room, "threshold": value}]}  # fmt: skip


def test_a_replayed_value_is_known_to_calendar_find_and_changed_only(sb: Sandbox, tmp_path: Path) -> None:
    env = sandbox_env(sb)
    rows = tmp_path / "rooms.csv"
    rows.write_text("propertyid,roomid,start,end,threshold\nHTL001,DBL,2027-01-01,2027-01-10,2\n")
    assert invoke(["threshold", "push", str(rows), *TODAY], env=env).exit_code == 0
    # A partner's call sets 7 on the 4th to the 6th; another, for a room the service does not map, is refused.
    calls = tmp_path / "calls.jsonl"
    calls.write_text(json.dumps(body("DBL", "2027-01-04", "2027-01-06", "7")) + "\n"
                     + json.dumps(body("XXX", "2027-01-04", "2027-01-06", "8")) + "\n")  # fmt: skip

    replayed = invoke(["replay", str(calls)], env=env)

    assert replayed.exit_code == 1, replayed.output  # one body refused
    assert sb.state()["threshold"]["HTL001"]["DBL"]["2027-01-05"] == "7"
    listed = invoke(["history"]).stdout
    assert "replay" in line_of(listed, "calls.jsonl") and "1 failed" in line_of(listed, "calls.jsonl")
    shown = invoke(["history", "show", "2", "--body"]).stdout
    assert '"sharepost": "sand…0001"' in shown and sb.api_key not in shown
    assert table_row(shown, "Rows", f"{calls}:1")[5] == "ok"
    assert table_row(shown, "Rows", f"{calls}:2")[5] == "failed"
    # What the service holds is the replayed value: the calendar, and "in force".
    calendar = invoke(["calendar", "threshold", "--property", "HTL001", "--room", "DBL", "--from", "2027-01-01",
                       "--to", "2027-01-10", "-o", "json"], env=env)  # fmt: skip
    values = json.loads(calendar.stdout)["keys"][0]["values"]
    assert values == {f"2027-01-{d:02}": "7" if 4 <= d <= 6 else "2" for d in range(1, 11)}
    assert values == {day: sb.state()["threshold"]["HTL001"]["DBL"][day] for day in values}
    found = json.loads(invoke(["history", "find", "--property", "HTL001", "--room", "DBL", "--date", "2027-01-05",
                               "-o", "json"]).stdout)  # fmt: skip
    assert [(h["run"]["id"], h["record"]["value"], h["in_force"]) for h in found["hits"]] == [(2, "7", True),
                                                                                           (1, "2", False)]  # fmt: skip
    # The next push of the file (value 2 everywhere) sends the dates the replay changed, and only those.
    received = len(sb.received)
    again = invoke(["threshold", "push", str(rows), *TODAY, "--changed-only", "-o", "json"], env=env)
    assert again.exit_code == 0, again.output
    sent = [record for r in sb.received[received:] for record in r.json["data"]]
    assert [(r["startdateymd"], r["enddateymd"], r["threshold"]) for r in sent] == [("2027-01-04", "2027-01-06", "2")]
    assert sb.state()["threshold"]["HTL001"]["DBL"]["2027-01-05"] == "2"


def test_replay_with_no_journal_or_as_a_dry_run_records_nothing(
    sb: Sandbox, tmp_path: Path, journal_home: Path
) -> None:
    calls = tmp_path / "call.json"
    calls.write_text(json.dumps(body("DBL", "2027-01-04", "2027-01-06", "7")))
    assert invoke(["replay", str(calls), "--no-journal"], env=sandbox_env(sb)).exit_code == 0
    assert invoke(["replay", str(calls), "--dry-run"], env=sandbox_env(sb)).exit_code == 0
    assert not (journal_home / "journal.sqlite3").exists()
