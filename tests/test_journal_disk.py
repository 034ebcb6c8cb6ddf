"""A disk that fills in the middle of a run: the run goes on, and the journal never lies about it."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from ari_cli.sandbox import Sandbox
from tests.confined import small_disk
from tests.conftest import PINNED_TODAY
from tests.helpers import invoke, sandbox_env
from tests.test_history import line_of
from tests.test_journal import TODAY, daily_file


def test_a_run_whose_journal_fills_is_not_fully_recorded_never_killed_and_retry_sends_nothing_acknowledged(
    tmp_path: Path, journal_home: Path
) -> None:
    with Sandbox(today=PINNED_TODAY, latency=20) as sb:
        env = sandbox_env(sb)
        first = tmp_path / "first.csv"
        first.write_text("propertyid,roomid,date,threshold\nHTL002,DBL,2027-01-02,1\n")
        assert invoke(["threshold", "push", str(first), *TODAY], env=env).exit_code == 0
        expected = daily_file(tmp_path / "daily.csv")
        command = [sys.executable, "-m", "ari_cli", "threshold", "push", str(tmp_path / "daily.csv"), *TODAY,
                   "--no-merge", "--batch-size", "1", "--concurrency", "2", "--output", "json"]  # fmt: skip
        pushed = small_disk(journal_home, 180, command, env={**env, "ARI_HOME": str(journal_home)})

        # The run went on: every request sent and acknowledged, and it said once what happened to the journal.
        assert pushed.returncode == 0, pushed.stderr
        assert json.loads(pushed.stdout)["summary"]["ok"] == 40
        assert pushed.stderr.count("could not be written") == 1, pushed.stderr
        assert "disk is full" in pushed.stderr or "database or disk is full" in pushed.stderr
        assert f"what it could not take is kept in {journal_home / 'journal.sqlite3.run2.pending'}" in pushed.stderr
        assert len(sb.received) == 41
        assert sb.state()["threshold"]["HTL001"] == expected["HTL001"]

        for file in journal_home.iterdir():
            assert sb.api_key.encode() not in file.read_bytes(), file.name
        # Read before any writer opens the journal: the run is not fully recorded, never killed, and its rows
        # are what the service answered.
        listed = invoke(["history"]).stdout
        assert "not fully recorded" in line_of(listed, "daily.csv") and "killed" not in listed
        shown = invoke(["history", "show", "2", "-o", "json"])
        assert shown.exit_code == 0, shown.output
        document = json.loads(shown.stdout)
        assert document["run"]["fully_recorded"] is False and document["run"]["exit_code"] == 0
        assert {r["status"] for r in document["rows"]} == {"ok"} and len(document["rows"]) == 40

        # retry folds the note in and sends nothing: everything was acknowledged.
        retried = invoke(["retry", "2"], env=env)
        assert retried.exit_code == 0, retried.output
        assert "nothing left to send" in retried.stderr
        assert len(sb.received) == 41
        assert not list(journal_home.glob("*.pending"))
        runs = json.loads(invoke(["history", "-o", "json"]).stdout)["runs"]
        assert (runs[0]["id"], runs[0]["finished"], runs[0]["fully_recorded"], runs[0]["requests"]) == (
            2, True, False, {"ok": 40})  # fmt: skip
        calendar = invoke(["calendar", "threshold", "--property", "HTL001", "--from", "2027-01-01", "--to",
                           "2027-01-10", "-o", "json"], env=env)  # fmt: skip
        values = {k["roomid"]: k["values"] for k in json.loads(calendar.stdout)["keys"]}
        assert values == expected["HTL001"]
