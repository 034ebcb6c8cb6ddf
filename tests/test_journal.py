"""The journal as a run writes it, `retry`, and `--changed-only`, against real sandboxes."""

from __future__ import annotations

import datetime as dt
import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from ari_cli.sandbox import Sandbox
from tests.conftest import PINNED_TODAY
from tests.helpers import invoke, sandbox_env
from tests.misbehaving import misbehaving

TODAY = ["--today", PINNED_TODAY]
DAY0 = dt.date.fromisoformat(PINNED_TODAY)
ROOMS = ("DBL", "TWN", "SGL", "STE")


def daily_file(path: Path, days: int = 10, bump: dict[tuple[str, int], int] | None = None) -> dict[str, Any]:
    """One row per room and day with values that never merge; returns the per-date state it asks for."""
    lines = ["propertyid,roomid,date,threshold"]
    expected: dict[str, dict[str, str]] = {}
    for room in ROOMS:
        for i in range(days):
            value = (bump or {}).get((room, i), (i % 2) + 1 + ROOMS.index(room))
            day = (DAY0 + dt.timedelta(days=i)).isoformat()
            lines.append(f"HTL001,{room},{day},{value}")
            expected.setdefault(room, {})[day] = str(value)
    path.write_text("\n".join(lines) + "\n")
    return {"HTL001": expected}


def journal(home: Path) -> sqlite3.Connection:
    return sqlite3.connect(home / "journal.sqlite3")


def states(home: Path, run: int) -> dict[str, int]:
    with journal(home) as db:
        return dict(db.execute("SELECT state, count(*) FROM requests WHERE run = ? GROUP BY state", (run,)).fetchall())


def acknowledged_bodies(run: int) -> list[dict[str, Any]]:
    """The bodies of a run's acknowledged requests, as `history show` gives them (rebuilt from the records)."""
    shown = invoke(["history", "show", str(run), "--output", "json"])
    assert shown.exit_code == 0, shown.output
    return [r["body"] for r in json.loads(shown.stdout)["requests"] if r["state"] == "ok"]


def sent_data(sandbox: Sandbox) -> list[str]:
    """Each received request's records, as canonical text (the key differs between journal and wire)."""
    return [json.dumps(r.json["data"], sort_keys=True) for r in sandbox.received if isinstance(r.json, dict)]


def _push_process(args: list[str], sandbox: Sandbox, cwd: Path, **extra: str) -> subprocess.Popen[bytes]:
    env = {**os.environ, **sandbox_env(sandbox), "NO_COLOR": "1", **extra}
    return subprocess.Popen(
        [sys.executable, "-m", "ari_cli", *args], cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )


def _wait_for_acks(home: Path, run: int, count: int, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if (home / "journal.sqlite3").exists():
            try:
                if states(home, run).get("ok", 0) >= count:
                    return
            except sqlite3.OperationalError:
                pass  # the schema is being created
        assert process.poll() is None, process.communicate()
        time.sleep(0.05)
    raise AssertionError("the push never got its first answers")


def test_sigkill_mid_run_then_retry_sends_what_is_left_and_nothing_acknowledged_twice(
    slow: Sandbox, tmp_path: Path, journal_home: Path
) -> None:
    expected = daily_file(tmp_path / "daily.csv")
    args = ["threshold", "push", "daily.csv", *TODAY, "--no-merge", "--batch-size", "1", "--concurrency", "2"]
    process = _push_process(args, slow, tmp_path)
    _wait_for_acks(journal_home, 1, 6, process)
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=30)
    killed = states(journal_home, 1)
    assert killed.get("ok", 0) >= 6 and sum(killed.values()) == 40
    assert killed.get("planned", 0) + killed.get("sending", 0) > 0, killed
    with journal(journal_home) as db:
        assert db.execute("SELECT ended, exit_code FROM runs WHERE id = 1").fetchone() == (None, None)
    before = {json.dumps(b["data"], sort_keys=True) for b in acknowledged_bodies(1)}
    assert len(before) == killed["ok"]

    result = invoke(["retry", "1", "--output", "json"], env=sandbox_env(slow))

    assert result.exit_code == 0, result.stderr
    document = json.loads(result.stdout)
    assert document["summary"]["ok"] == 40 - killed["ok"] and document["summary"]["failed"] == 0
    assert slow.state()["threshold"] == expected
    sent = sent_data(slow)
    for data in before:
        assert sent.count(data) == 1, f"acknowledged request sent again: {data}"
    with journal(journal_home) as db:
        assert db.execute("SELECT retry_of, exit_code FROM runs WHERE id = 2").fetchone() == (1, 0)
    # Nothing is left: a second retry (of the first run, followed to its retry) sends nothing. (Counted
    # from here: the killed push may have left a request cut short, which the sandbox counts too.)
    received = len(slow.received)
    again = invoke(["retry", "1"], env=sandbox_env(slow))
    assert again.exit_code == 0
    assert "retried already (1 -> 2)" in again.stderr and "nothing left to send" in again.stderr
    assert len(slow.received) == received


def test_sigint_stops_new_requests_reports_unsent_rows_and_exits_130(
    slow: Sandbox, tmp_path: Path, journal_home: Path
) -> None:
    daily_file(tmp_path / "daily.csv")
    args = ["threshold", "push", "daily.csv", *TODAY, "--no-merge", "--batch-size", "1", "--concurrency", "2",
            "--report", "report.json"]  # fmt: skip
    process = _push_process(args, slow, tmp_path)
    _wait_for_acks(journal_home, 1, 2, process)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    stderr = err.decode()
    assert process.returncode == 130, stderr
    # Rows never sent are counted apart from failures, and the summary says how many requests went out.
    assert re.search(
        r"40 rows: \d+ ok, \d+ failed, \d+ not sent, 0 invalid, 0 skipped; 40 records, sent \d+ of 40", out.decode()
    )
    assert "Traceback" not in stderr
    assert "interrupted: sending nothing more" in stderr
    assert "`ari-cli retry 1` sends what is left" in stderr
    report = json.loads((tmp_path / "report.json").read_text())
    assert report["error"]["kind"] == "interrupted" and "retry" in report["error"]["hint"]
    unsent = [r for r in report["rows"] if r["status"] == "not sent"]
    assert unsent and all("interrupted" in r["note"] and r["errors"] == [] for r in unsent)
    # Requests in flight were abandoned at the interrupt: sent but not confirmed, so failed, and sent again by `retry`.
    abandoned = [r for r in report["rows"] if r["status"] == "failed"]
    assert all(r["errors"][0]["message"].startswith("not confirmed") for r in abandoned)
    assert report["summary"]["not sent"] == len(unsent) and report["summary"]["failed"] == len(abandoned)
    ok = [r for r in report["rows"] if r["status"] == "ok"]
    assert len(ok) + len(unsent) + len(abandoned) == 40
    assert len(ok) == states(journal_home, 1)["ok"]
    with journal(journal_home) as db:
        assert db.execute("SELECT exit_code FROM runs WHERE id = 1").fetchone() == (130,)
    finish = invoke(["retry", "1"], env=sandbox_env(slow))
    assert finish.exit_code == 0, finish.stderr
    # The retry sends what is left, each once, and nothing acknowledged again.
    left = len(unsent) + len(abandoned)
    assert f"{left} rows: {left} ok," in finish.stdout and f"sent {left} of {left} request" in finish.stdout
    # A request abandoned in flight may or may not have reached the service (which is why it is not confirmed).
    assert 40 <= len(slow.received) <= 40 + len(abandoned)


def test_an_interrupt_abandons_the_requests_in_flight_at_once(tmp_path: Path, journal_home: Path) -> None:
    daily_file(tmp_path / "daily.csv")
    # Answers that take ten minutes: the bound below is far above what stopping takes, far below the answers.
    # The server says when a request has arrived (a sandbox records it only once it answers).
    with Sandbox(today=PINNED_TODAY) as sb, misbehaving(lambda handler: time.sleep(600)) as (hung, arrived):
        args = ["threshold", "push", "daily.csv", *TODAY, "--no-merge", "--batch-size", "1", "--timeout", "300"]
        process = _push_process(args, sb, tmp_path, ARI_BASE_URL=hung)
        deadline = time.monotonic() + 60
        while not arrived and time.monotonic() < deadline:
            assert process.poll() is None, process.communicate()
            time.sleep(0.05)
        time.sleep(0.3)
        process.send_signal(signal.SIGINT)
        started = time.monotonic()
        _, err = process.communicate(timeout=120)
        took = time.monotonic() - started
        assert process.returncode == 130
        assert took < 60, took  # the answers would take 10 minutes; stopping takes well under a second
        stderr = err.decode()
        assert "request(s) in flight abandoned, not confirmed" in stderr and "Traceback" not in stderr
    # The journal says so: nothing left as "sending", the abandoned requests failed for a passing reason.
    recorded = states(journal_home, 1)
    assert recorded.get("sending", 0) == 0 and recorded.get("failed", 0) > 0


def test_transient_failures_are_retried_later(sb: Sandbox, tmp_path: Path) -> None:
    path = tmp_path / "two.csv"
    path.write_text(
        "propertyid,roomid,start,end,threshold\n"
        "HTL001,DBL,2027-01-01,2027-01-05,3\n"
        "HTL002,KNG,2027-01-01,2027-01-05,4\n"
    )
    sb.queue_error(503, times=4)  # every try (retries 1) of both requests
    first = invoke(["threshold", "push", str(path), *TODAY, "--retries", "1"], env=sandbox_env(sb))
    assert first.exit_code == 1
    assert "`ari-cli retry 1` re-sends what failed for a passing reason" in first.stderr
    assert "stamina" not in first.stderr
    sent_before = len(sb.received)

    result = invoke(["retry", "1", "--output", "json"], env=sandbox_env(sb))

    assert result.exit_code == 0, result.stderr
    document = json.loads(result.stdout)
    assert [(r["line"], r["status"]) for r in document["rows"]] == [(2, "ok"), (3, "ok")]
    assert len(sb.received) == sent_before + 2
    assert sb.state()["threshold"]["HTL001"]["DBL"]["2027-01-03"] == "3"


def test_refusals_are_listed_not_sent_again(sb: Sandbox, tmp_path: Path) -> None:
    path = tmp_path / "mixed.csv"
    path.write_text(
        "propertyid,roomid,start,end,threshold\n"
        "HTL001,DBL,2027-01-01,2027-01-05,3\n"
        "HTL003,XXX,2027-01-01,2027-01-05,5\n"
    )
    first = invoke(["threshold", "push", str(path), *TODAY], env=sandbox_env(sb))
    assert first.exit_code == 1 and "ari-cli retry" not in first.stderr
    sent_before = len(sb.received)
    result = invoke(["retry", "1"], env=sandbox_env(sb))
    # Issue 40: a retry exits 1 while rows stay refused for their own data (it exited 0 before).
    assert result.exit_code == 1
    assert "run 1: 1 row stays refused for its own data (not sent again):" in result.stderr
    assert f"451 invalid room mapping (HTTP 422): 1 row ({path}:3); the room id is not mapped" in result.stderr
    assert "run 1: nothing left to send" in result.stderr
    assert len(sb.received) == sent_before


def test_retry_dry_run_shows_what_would_be_sent_and_sends_nothing(sb: Sandbox, tmp_path: Path) -> None:
    path = tmp_path / "one.csv"
    path.write_text("propertyid,roomid,start,end,threshold\nHTL001,DBL,2027-01-01,2027-01-05,3\n")
    sb.queue_error(503, times=2)
    assert invoke(["threshold", "push", str(path), *TODAY, "--retries", "1"], env=sandbox_env(sb)).exit_code == 1
    count = len(sb.received)
    result = invoke(["retry", "1", "--dry-run", "--output", "json"], env=sandbox_env(sb))
    assert result.exit_code == 0, result.stderr
    document = json.loads(result.stdout)
    assert document["dry_run"] is True and document["summary"]["requests"] == 1
    assert document["requests"][0]["body"]["sharepost"] == "<API_KEY>"
    assert len(sb.received) == count


def test_retry_of_an_unknown_run_and_without_a_journal(sb: Sandbox, tmp_path: Path) -> None:
    none = invoke(["retry", "7"], env=sandbox_env(sb))
    assert none.exit_code == 2 and "the journal has no runs yet" in none.stderr
    path = tmp_path / "one.csv"
    path.write_text("propertyid,roomid,start,end,threshold\nHTL001,DBL,2027-01-01,2027-01-05,3\n")
    assert invoke(["threshold", "push", str(path), *TODAY], env=sandbox_env(sb)).exit_code == 0
    unknown = invoke(["retry", "7"], env=sandbox_env(sb))
    assert unknown.exit_code == 2
    assert "no run 7 in the journal" in unknown.stderr and "the last run is 1" in unknown.stderr
    nothing = invoke(["retry", "1"], env=sandbox_env(sb))
    assert nothing.exit_code == 0 and "run 1: nothing left to send" in nothing.stderr


def test_retry_needs_a_key(sb: Sandbox, tmp_path: Path) -> None:
    path = tmp_path / "one.csv"
    path.write_text("propertyid,roomid,start,end,threshold\nHTL001,DBL,2027-01-01,2027-01-05,3\n")
    sb.queue_error(503, times=2)
    invoke(["threshold", "push", str(path), *TODAY, "--retries", "1"], env=sandbox_env(sb))
    result = invoke(["retry", "1"])
    assert result.exit_code == 4 and "no API key configured" in result.stderr


def test_a_split_request_is_retried_by_halves(sb: Sandbox, tmp_path: Path) -> None:
    path = tmp_path / "four.csv"
    path.write_text(
        "propertyid,roomid,start,end,threshold\n"
        "HTL001,DBL,2027-01-01,2027-01-05,3\n"
        "HTL001,TWN,2027-01-01,2027-01-05,4\n"
        "HTL001,XXX,2027-01-01,2027-01-05,5\n"
        "HTL001,STE,2027-01-01,2027-01-05,6\n"
    )
    # The request fails for a passing reason; sent again by the retry, the bad room makes it split in halves.
    sb.queue_error(503, times=2)
    first = invoke(["threshold", "push", str(path), *TODAY, "--retries", "1", "--output", "json"],
                   env=sandbox_env(sb))  # fmt: skip
    assert first.exit_code == 1 and json.loads(first.stdout)["summary"]["requests"] == 1
    result = invoke(["retry", "1", "--output", "json"], env=sandbox_env(sb))
    assert result.exit_code == 1
    document = json.loads(result.stdout)
    assert {r["line"]: r["status"] for r in document["rows"]} == {2: "ok", 3: "ok", 4: "failed", 5: "ok"}
    assert [r["records"] for r in document["requests"]] == [4, 2, 2, 1, 1]
    assert document["rows"][2]["errors"][0]["code"] == 451
    state = sb.state()["threshold"]["HTL001"]
    assert {room: state[room]["2027-01-02"] for room in ("DBL", "TWN", "STE")} == {"DBL": "3", "TWN": "4", "STE": "6"}


def test_changed_only_sends_nothing_for_an_unchanged_file_and_only_the_changed_dates(
    sb: Sandbox, tmp_path: Path
) -> None:
    path = tmp_path / "daily.csv"
    daily_file(path, days=20)
    env = sandbox_env(sb)
    assert invoke(["threshold", "push", str(path), *TODAY, "--changed-only"], env=env).exit_code == 0
    count = len(sb.received)

    same = invoke(["threshold", "push", str(path), *TODAY, "--changed-only", "--output", "json"], env=env)

    assert same.exit_code == 0, same.stderr
    document = json.loads(same.stdout)
    assert document["summary"]["requests"] == 0 and document["summary"]["skipped"] == 80
    assert all("unchanged" in r.get("note", "unchanged") for r in document["rows"])
    assert len(sb.received) == count

    expected = daily_file(path, days=20, bump={("DBL", 3): 9, ("DBL", 4): 9, ("STE", 11): 0})
    changed = invoke(["threshold", "push", str(path), *TODAY, "--changed-only", "--output", "json"], env=env)

    assert changed.exit_code == 0, changed.stderr
    document = json.loads(changed.stdout)
    new = sb.received[count:]
    records = [record for r in new for record in r.json["data"]]
    assert sorted((r["roomid"], r["startdateymd"], r["enddateymd"], r["threshold"]) for r in records) == [
        ("DBL", "2027-01-04", "2027-01-05", "9"),
        ("STE", "2027-01-12", "2027-01-12", "0"),
    ]
    assert document["summary"]["ok"] == 3 and document["summary"]["skipped"] == 77
    assert sb.state()["threshold"] == expected


def test_changed_only_compares_per_base_url_and_source_and_ignores_failed_pushes(sb: Sandbox, tmp_path: Path) -> None:
    path = tmp_path / "one.csv"
    path.write_text("propertyid,roomid,start,end,threshold\nHTL001,DBL,2027-01-01,2027-01-05,3\n")
    env = sandbox_env(sb)
    sb.queue_error(503, times=2)
    assert invoke(["threshold", "push", str(path), *TODAY, "--retries", "1"], env=env).exit_code == 1
    # The failed push is not what the service holds: the next --changed-only run sends it.
    again = invoke(["threshold", "push", str(path), *TODAY, "--changed-only", "--output", "json"], env=env)
    assert json.loads(again.stdout)["summary"]["requests"] == 1
    with Sandbox(today=PINNED_TODAY) as other:
        elsewhere = invoke(["threshold", "push", str(path), *TODAY, "--changed-only", "--output", "json"],
                           env=sandbox_env(other))  # fmt: skip
        assert json.loads(elsewhere.stdout)["summary"]["requests"] == 1


def test_changed_only_dry_run_shows_the_difference_without_recording(sb: Sandbox, tmp_path: Path,
                                                                     journal_home: Path) -> None:  # fmt: skip
    path = tmp_path / "daily.csv"
    daily_file(path, days=5)
    env = sandbox_env(sb)
    assert invoke(["threshold", "push", str(path), *TODAY], env=env).exit_code == 0
    daily_file(path, days=5, bump={("TWN", 2): 7})
    result = invoke(["threshold", "push", str(path), *TODAY, "--changed-only", "--dry-run", "--output", "json"],
                    env=env)  # fmt: skip
    document = json.loads(result.stdout)
    assert document["summary"]["records"] == 1 and document["summary"]["requests"] == 1
    with journal(journal_home) as db:
        assert db.execute("SELECT count(*) FROM runs").fetchone() == (1,)


def test_changed_only_and_no_journal_contradict(sb: Sandbox, tmp_path: Path) -> None:
    path = tmp_path / "one.csv"
    path.write_text("propertyid,roomid,start,end,threshold\nHTL001,DBL,2027-01-01,2027-01-05,3\n")
    result = invoke(["threshold", "push", str(path), *TODAY, "--changed-only", "--no-journal"], env=sandbox_env(sb))
    assert result.exit_code == 2 and "--changed-only reads the journal" in result.stderr


def test_changed_only_for_policies_compares_whole_policies(sb: Sandbox, tmp_path: Path) -> None:
    env = sandbox_env(sb)
    sample = Path(__file__).parent.parent / "samples" / "policy.csv"
    assert invoke(["policy", "push", str(sample), *TODAY], env=env).exit_code == 0
    count = len(sb.received)
    same = invoke(["policy", "push", str(sample), *TODAY, "--changed-only", "--data-form", "list"], env=env)
    assert same.exit_code == 0 and len(sb.received) == count


def test_no_journal_records_nothing_and_dry_runs_are_not_recorded(
    sb: Sandbox, tmp_path: Path, journal_home: Path
) -> None:
    path = tmp_path / "one.csv"
    path.write_text("propertyid,roomid,start,end,threshold\nHTL001,DBL,2027-01-01,2027-01-05,3\n")
    assert invoke(["threshold", "push", str(path), *TODAY, "--no-journal"], env=sandbox_env(sb)).exit_code == 0
    assert invoke(["threshold", "push", str(path), *TODAY, "--dry-run"], env=sandbox_env(sb)).exit_code == 0
    assert not (journal_home / "journal.sqlite3").exists()


def test_an_unusable_journal_stops_the_push_before_anything_is_sent(sb: Sandbox, tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    monkeypatch.setenv("ARI_HOME", str(blocker))
    path = tmp_path / "one.csv"
    path.write_text("propertyid,roomid,start,end,threshold\nHTL001,DBL,2027-01-01,2027-01-05,3\n")
    result = invoke(["threshold", "push", str(path), *TODAY], env=sandbox_env(sb))
    assert result.exit_code == 4, result.output
    assert result.stderr.count("the journal cannot be written: nothing was sent") == 1, result.stderr
    assert "free space, or push unrecorded with --no-journal" in result.stderr
    assert "Traceback" not in result.stderr and result.stdout == ""
    assert sb.received == []
    unrecorded = invoke(["threshold", "push", str(path), *TODAY, "--no-journal"], env=sandbox_env(sb))
    assert unrecorded.exit_code == 0 and len(sb.received) == 1
    changed = invoke(["threshold", "push", str(path), *TODAY, "--changed-only"], env=sandbox_env(sb))
    assert changed.exit_code == 4 and "the journal cannot be written" in changed.stderr


def test_the_journal_records_files_rows_requests_and_never_the_key(
    sb: Sandbox, tmp_path: Path, journal_home: Path
) -> None:
    path = tmp_path / "mixed.csv"
    path.write_text(
        "propertyid,roomid,start,end,threshold\nHTL001,DBL,2027-01-01,2027-01-05,3\nHTL001,XXX,2027-01-01,2027-01-05,4\n"
    )
    result = invoke(["threshold", "push", str(path), *TODAY], env=sandbox_env(sb))
    assert result.exit_code == 1
    with journal(journal_home) as db:
        run = db.execute("SELECT command, operation, base_url, source_id, exit_code, summary FROM runs").fetchone()
        assert run[:5] == ("ari-cli threshold push", "threshold", sb.base_url, sb.source_id, 1)
        assert json.loads(run[5])["failed"] == 1
        (sha,) = db.execute("SELECT sha256 FROM files").fetchone()
        assert len(sha) == 64
        # What was planned and sent, not a row per input row: records with the lines they came from,
        # requests with the records they carried; bodies are rebuilt from them (the key masked).
        records = db.execute("SELECT idx, roomid, value, lines FROM records ORDER BY idx").fetchall()
        assert records == [(0, "DBL", "3", "2"), (1, "XXX", "4", "3")]
        requests = db.execute("SELECT id, parent, state, first, count, body FROM requests ORDER BY id").fetchall()
        assert requests == [(1, None, "split", 0, 2, None), (2, 1, "ok", 0, 1, None), (3, 1, "failed", 1, 1, None)]
        assert db.execute("SELECT sharepost FROM runs").fetchone() == ("sand…0001",)
        assert {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")} >= {
            "runs", "files", "records", "requests", "notes", "acked"}  # fmt: skip
    shown = json.loads(invoke(["history", "show", "1", "--output", "json"]).stdout)
    assert [(r["line"], r["status"]) for r in shown["rows"]] == [(2, "ok"), (3, "failed")]
    received = [r.json for r in sb.received]
    for request in shown["requests"]:
        assert request["body"]["sharepost"] == "sand…0001"
        assert {**request["body"], "sharepost": sb.api_key} in received
    for name in ("journal.sqlite3", "journal.sqlite3-wal"):
        file = journal_home / name
        if file.exists():
            assert sb.api_key.encode() not in file.read_bytes()
    assert oct((journal_home / "journal.sqlite3").stat().st_mode & 0o777) == "0o600"


@pytest.mark.parametrize("delay", [0.3, 0.9, 1.6, 2.4])
def test_killed_at_any_moment_the_journal_is_readable_and_retry_finishes_the_run(
    slow: Sandbox, tmp_path: Path, journal_home: Path, delay: float
) -> None:
    """SIGKILL at moments from reading the file to the last answers; each time the journal says what was
    acknowledged, `history` shows it, and `retry` sends what is left and nothing acknowledged twice."""
    expected = daily_file(tmp_path / "daily.csv")
    args = ["threshold", "push", "daily.csv", *TODAY, "--no-merge", "--batch-size", "1", "--concurrency", "4"]
    process = _push_process(args, slow, tmp_path)
    time.sleep(delay)
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=30)
    listed = invoke(["history", "-o", "json"])
    assert listed.exit_code == 0, listed.output
    runs = json.loads(listed.stdout)["runs"]
    if not runs:
        # Killed before the run was recorded: nothing can have been sent.
        assert slow.received == []
        return
    assert runs[0]["finished"] is False
    shown = invoke(["history", "show", "1", "-o", "json"])
    assert shown.exit_code == 0, shown.output
    document = json.loads(shown.stdout)
    acknowledged = [r for r in document["requests"] if r["state"] == "ok"]
    assert all(r["status"] in ("ok", "not finished") for r in document["rows"])
    ok_rows = sum(1 for r in document["rows"] if r["status"] == "ok")
    assert ok_rows == len(acknowledged)
    before = {json.dumps(r["body"]["data"], sort_keys=True) for r in acknowledged}

    result = invoke(["retry", "1", "--output", "json"], env=sandbox_env(slow))

    if document["requests"]:
        assert result.exit_code == 0, result.output
        assert slow.state()["threshold"] == expected
        sent = sent_data(slow)
        for data in before:
            assert sent.count(data) == 1, f"acknowledged request sent again: {data}"
