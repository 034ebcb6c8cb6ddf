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
        # The first reader folds the note in: the run is not fully recorded, never killed, and its rows are what
        # the service answered.
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


def _first_push(tmp_path: Path, env: dict[str, str]) -> None:
    first = tmp_path / "first.csv"
    first.write_text("propertyid,roomid,date,threshold\nHTL002,DBL,2027-01-02,1\n")
    assert invoke(["threshold", "push", str(first), *TODAY], env=env).exit_code == 0


def test_a_megabyte_disk_filled_by_600_acknowledgements_loses_none_of_them(tmp_path: Path, journal_home: Path) -> None:
    """The red team's case: 600 one-record requests, the journal on a 1 MB file system that fills mid-run."""
    with Sandbox(today=PINNED_TODAY) as sb:
        env = sandbox_env(sb)
        _first_push(tmp_path, env)
        daily_file(tmp_path / "daily.csv", days=150)
        command = [sys.executable, "-m", "ari_cli", "threshold", "push", str(tmp_path / "daily.csv"), *TODAY,
                   "--no-merge", "--batch-size", "1", "--concurrency", "4", "--output", "json"]  # fmt: skip
        used = sum(f.stat().st_size for f in journal_home.iterdir()) // 1024
        pushed = small_disk(journal_home, 1024 - used, command, env={**env, "ARI_HOME": str(journal_home)})
        assert pushed.returncode == 0, pushed.stderr
        assert json.loads(pushed.stdout)["summary"]["ok"] == 600
        assert len(sb.received) == 601
        # The journal did fill (else this test proves nothing), and the note took what it could not.
        assert pushed.stderr.count("could not be written") == 1, pushed.stderr
        note = journal_home / "journal.sqlite3.run2.pending"
        assert note.exists()

        listed = invoke(["history"]).stdout
        assert "not fully recorded" in line_of(listed, "daily.csv") and "killed" not in listed, listed
        shown = json.loads(invoke(["history", "show", "2", "-o", "json"]).stdout)
        assert shown["run"]["exit_code"] == 0 and {r["status"] for r in shown["rows"]} == {"ok"}

        retried = invoke(["retry", "2"], env=env)
        assert retried.exit_code == 0, retried.output
        assert "nothing left to send" in retried.stderr
        assert len(sb.received) == 601
        assert not note.exists()  # folded in, then removed
        runs = json.loads(invoke(["history", "-o", "json"]).stdout)["runs"]
        assert (runs[0]["id"], runs[0]["finished"], runs[0]["requests"]) == (2, True, {"ok": 600})


def test_a_disk_without_room_for_the_runs_note_sends_nothing_and_says_what_to_do(
    tmp_path: Path, journal_home: Path
) -> None:
    with Sandbox(today=PINNED_TODAY) as sb:
        env = sandbox_env(sb)
        _first_push(tmp_path, env)
        daily_file(tmp_path / "daily.csv", days=150)  # 600 requests: a note of about 400 KB
        command = [sys.executable, "-m", "ari_cli", "threshold", "push", str(tmp_path / "daily.csv"), *TODAY,
                   "--no-merge", "--batch-size", "1"]  # fmt: skip
        pushed = small_disk(journal_home, 200, command, env={**env, "ARI_HOME": str(journal_home)})
        assert pushed.returncode == 4, pushed.stderr
        assert "error: the journal cannot be written: nothing was sent" in pushed.stderr
        assert "free space, or push unrecorded with --no-journal" in pushed.stderr
        assert "Traceback" not in pushed.stderr and pushed.stdout == ""
        assert len(sb.received) == 1
        assert not list(journal_home.glob("*.pending"))
        runs = json.loads(invoke(["history", "-o", "json"]).stdout)["runs"]
        assert [r["id"] for r in runs] == [1]  # the stopped run left nothing that looks killed


def test_a_note_cut_short_is_read_up_to_its_last_whole_line(tmp_path: Path, journal_home: Path) -> None:
    with Sandbox(today=PINNED_TODAY, latency=20) as sb:
        env = sandbox_env(sb)
        _first_push(tmp_path, env)
        daily_file(tmp_path / "daily.csv")
        command = [sys.executable, "-m", "ari_cli", "threshold", "push", str(tmp_path / "daily.csv"), *TODAY,
                   "--no-merge", "--batch-size", "1", "--concurrency", "2"]  # fmt: skip
        pushed = small_disk(journal_home, 180, command, env={**env, "ARI_HOME": str(journal_home)})
        assert pushed.returncode == 0, pushed.stderr
        assert len(sb.received) == 41
        note = journal_home / "journal.sqlite3.run2.pending"
        text = note.read_bytes().split(b"\0", 1)[0].rstrip(b" \n")
        assert text.count(b'["answer"') >= 2, text
        # Killed in the middle of writing its last answer: that line is cut, and nothing follows it.
        cut = text[: text.rindex(b'["answer"') + 20]
        note.write_bytes(cut)

        listed = invoke(["history"]).stdout
        assert "not fully recorded" in line_of(listed, "daily.csv"), listed
        shown = json.loads(invoke(["history", "show", "2", "-o", "json"]).stdout)
        statuses = [r["status"] for r in shown["rows"]]
        assert statuses.count("ok") == 39, statuses  # every whole answer stands; the cut one is not known

        retried = invoke(["retry", "2"], env=env)
        assert retried.exit_code == 0, retried.output
        assert len(sb.received) == 42  # only the request whose answer was cut goes again
        assert not note.exists()
