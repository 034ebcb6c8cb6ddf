"""`retry` goes where it says, and `history` tells the whole story of a run and its retries."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from ari_cli.sandbox import Sandbox
from tests.conftest import PINNED_TODAY
from tests.helpers import invoke, row_with, sandbox_env
from tests.test_history import as_json, line_of, table_row

TODAY = ["--today", PINNED_TODAY]
ROWS = "propertyid,roomid,start,end,threshold\nHTL001,DBL,2027-01-01,2027-01-05,3\nHTL002,DBL,2027-01-01,2027-01-03,4\n"


def _journal(home: Path) -> sqlite3.Connection:
    return sqlite3.connect(home / "journal.sqlite3")


def _killed(home: Path, run: int, request: int) -> None:
    """What a SIGKILL leaves: no end, and one request out without an answer."""
    with _journal(home) as db:
        db.execute("UPDATE runs SET ended = NULL, summary = NULL, exit_code = NULL WHERE id = ?", (run,))
        db.execute("UPDATE requests SET state = 'sending', ack = NULL, http_status = NULL, trackingid = NULL,"
                   " response = NULL WHERE run = ? AND id = ?", (run, request))  # fmt: skip


@pytest.fixture
def half_done(sb: Sandbox, tmp_path: Path, journal_home: Path) -> Path:
    """Run 1: two requests; the second (HTL002) reads as sent without an answer, the run as killed."""
    path = tmp_path / "two.csv"
    path.write_text(ROWS)
    assert invoke(["threshold", "push", str(path), *TODAY], env=sandbox_env(sb)).exit_code == 0
    _killed(journal_home, 1, 2)
    return path


# --- retry goes where it says -------------------------------------------------------------------


def test_retry_with_base_url_and_source_id_sends_there_and_records_where_it_sent(
    sb: Sandbox, half_done: Path, journal_home: Path
) -> None:
    with Sandbox(today=PINNED_TODAY) as other:
        before = len(sb.received)
        env = {"ARI_API_KEY": other.api_key}
        result = invoke(["retry", "1", "--base-url", other.base_url, "--source-id", other.source_id, "-o", "json"],
                        env=env)  # fmt: skip
        assert result.exit_code == 0, result.output
        assert f"this retry goes to {other.base_url} (source {other.source_id})" in result.stderr
        assert len(sb.received) == before  # nothing went where the run went
        assert [r.json["propertyid"] for r in other.received] == ["HTL002"]
        assert other.received[0].path == f"/v2/push_ari/{other.source_id}/sellthresholdupdate"
        assert other.state()["threshold"]["HTL002"]["DBL"]["2027-01-02"] == "4"
        runs = as_json(invoke(["history", "-o", "json"]))["runs"]
        assert (runs[0]["id"], runs[0]["base_url"], runs[0]["retry_of"]) == (2, other.base_url, 1)
        shown = as_json(invoke(["history", "show", "2", "-o", "json"]))
        assert shown["requests"][0]["url"].startswith(other.base_url + "/v2/push_ari/")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--base-url", "http://203.0.113.7"], "plain http:// is refused for 203.0.113.7"),
        (["--base-url", "ftp://example.com"], "base URL 'ftp://example.com' is not an http(s) URL"),
        (["--source-id", "nope"], "source id 'nope' (--source-id) is not of the form cpb"),
    ],
)
def test_retry_checks_a_given_url_source_and_segment_as_push_does(
    sb: Sandbox, half_done: Path, args: list[str], message: str
) -> None:
    before = len(sb.received)
    result = invoke(["retry", "1", *args], env=sandbox_env(sb))
    assert result.exit_code == 4, result.output
    assert message in result.stderr and "Traceback" not in result.output
    assert len(sb.received) == before


def test_a_stored_plain_http_url_to_another_host_is_refused_as_a_given_one(
    sb: Sandbox, half_done: Path, journal_home: Path
) -> None:
    with _journal(journal_home) as db:
        db.execute("UPDATE runs SET base_url = 'http://203.0.113.7' WHERE id = 1")
        db.execute("UPDATE requests SET url = replace(url, ?, 'http://203.0.113.7')", (sb.base_url,))
    result = invoke(["retry", "1"], env=sandbox_env(sb))
    assert result.exit_code == 4
    assert "plain http:// is refused for 203.0.113.7" in result.stderr


# --- history tells the whole story --------------------------------------------------------------


def test_a_run_finished_by_a_retry_says_so_and_its_rows_say_which_retry(
    sb: Sandbox, half_done: Path, journal_home: Path
) -> None:
    before = invoke(["history", "show", "1"]).stdout
    assert table_row(before, "Rows", f"{half_done}:2")[5] == "ok"  # acknowledged before the kill
    assert table_row(before, "Rows", f"{half_done}:3")[5] == "not finished"
    retried = invoke(["retry", "1"], env=sandbox_env(sb))
    assert retried.exit_code == 0, retried.output
    listed = invoke(["history"]).stdout
    assert "unfinished, finished by retry 2" in line_of(listed, "two.csv")
    assert row_with(listed, "retry, retry of 1")[-1] == "0"  # its exit code
    shown = invoke(["history", "show", "1"]).stdout
    assert line_of(shown, "finished by", "(a retry)").split() == ["finished", "by", "run", "2", "(a", "retry)"]
    assert "sent again by retry 2, which got it acknowledged" in table_row(shown, "Rows", f"{half_done}:3")[7]
    assert as_json(invoke(["history", "-o", "json"]))["runs"][1]["finished_by"] == 2
    # Finished by its retry, the run is no longer kept by prune as unfinished.
    with _journal(journal_home) as db:
        db.execute("UPDATE runs SET started = '2020-01-01T00:00:00.000+00:00'")
    pruned = invoke(["history", "prune", "--older-than", "30d"])
    assert pruned.exit_code == 0 and pruned.stdout.startswith("deleted 2 runs") and "kept" not in pruned.stderr


def test_find_takes_a_unique_prefix_of_a_tracking_id(sb: Sandbox, half_done: Path, journal_home: Path) -> None:
    with _journal(journal_home) as db:
        (trackingid,) = db.execute("SELECT trackingid FROM requests WHERE run = 1 AND id = 1").fetchone()
    found = invoke(["history", "find", "--trackingid", trackingid[:10]])
    assert found.exit_code == 0, found.output
    assert "run 1, request 1" in found.stdout and trackingid in line_of(found.stdout, "tracking id")
    retried = invoke(["retry", "1"], env=sandbox_env(sb))
    assert retried.exit_code == 0
    several = invoke(["history", "find", "--trackingid", "sbx-"])
    assert several.exit_code == 2
    assert "error: --trackingid sbx- starts several tracking ids: sbx-" in several.stderr
    assert "hint: give more of it" in several.stderr


def test_sandbox_runs_are_marked_and_a_retry_of_one_says_its_sandbox_is_gone(
    tmp_path: Path, journal_home: Path
) -> None:
    path = tmp_path / "two.csv"
    path.write_text(ROWS)
    pushed = invoke(["threshold", "push", str(path), *TODAY, "--sandbox"])
    assert pushed.exit_code == 0, pushed.output
    listed = invoke(["history"]).stdout
    assert "threshold push (sandbox)" in line_of(listed, "two.csv")
    assert as_json(invoke(["history", "-o", "json"]))["runs"][0]["sandbox"] is True
    assert "(to a sandbox started for the run)" in line_of(invoke(["history", "show", "1"]).stdout, "command")
    _killed(journal_home, 1, 2)
    result = invoke(["retry", "1"], env={"ARI_API_KEY": "sandbox-key-0001"})
    assert result.exit_code == 4
    assert "run 1 went to a sandbox started for it" in result.stderr and "which ended with it" in result.stderr
    assert "give --base-url and --source-id" in result.stderr
    with Sandbox(today=PINNED_TODAY) as fresh:
        elsewhere = invoke(["retry", "1", "--base-url", fresh.base_url, "--source-id", fresh.source_id],
                           env={"ARI_API_KEY": fresh.api_key})  # fmt: skip
        assert elsewhere.exit_code == 0, elsewhere.output
        assert [r.json["propertyid"] for r in fresh.received] == ["HTL002"]
