"""`ari-cli revert RUN`: a push undone against one long-lived sandbox, read back through its state."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from ari_cli.planning.undo import Choices, undo
from ari_cli.sandbox import Sandbox
from tests.conftest import PINNED_TODAY
from tests.helpers import invoke, sandbox_env
from tests.test_history import as_json

TODAY = ["--today", PINNED_TODAY]
HEAD = "propertyid,roomid,start,end,threshold\n"
A = HEAD + "HTL001,DBL,2027-01-01,2027-01-10,3\nHTL002,DBL,2027-01-01,2027-01-03,4\n"
# B changes some of A's dates, clears HTL002's, and sets dates A never set (01-11..01-15).
B = HEAD + "HTL001,DBL,2027-01-05,2027-01-15,7\nHTL002,DBL,2027-01-01,2027-01-03,n/a\n"


def _push(sb: Sandbox, tmp_path: Path, name: str, text: str, *more: str) -> Any:
    path = tmp_path / name
    path.write_text(text)
    result = invoke(["threshold", "push", str(path), *TODAY, *more], env=sandbox_env(sb))
    assert result.exit_code == 0, result.output
    return result


def _threshold(sb: Sandbox) -> Any:
    return sb.state()["threshold"]


def _revert(sb: Sandbox, *args: str) -> Any:
    return invoke(["revert", *args, *TODAY], env=sandbox_env(sb))


def test_push_a_push_b_revert_b_gives_a_and_reverting_the_revert_gives_b(sb: Sandbox, tmp_path: Path) -> None:
    _push(sb, tmp_path, "a.csv", A)
    after_a = _threshold(sb)
    _push(sb, tmp_path, "b.csv", B)
    after_b = _threshold(sb)

    undone = _revert(sb, "2", "--yes", "--clear-unknown")
    assert undone.exit_code == 0, undone.output
    assert _threshold(sb) == after_a
    assert "run 3 reverts run 2; `ari-cli revert 3` undoes it" in undone.stderr

    redone = _revert(sb, "3", "--yes")
    assert redone.exit_code == 0, redone.output
    assert _threshold(sb) == after_b

    runs = as_json(invoke(["history", "-o", "json"]))["runs"]
    assert [(r["id"], r["reverts"]) for r in runs] == [(4, 3), (3, 2), (2, None), (1, None)]
    assert "revert, reverts run 2" in invoke(["history"]).stdout
    assert "run 3 (`ari-cli revert 4` undoes it)" in invoke(["history", "show", "4"]).stdout


def test_dates_the_journal_never_saw_are_listed_and_left_alone_unless_clear_unknown(
    sb: Sandbox, tmp_path: Path
) -> None:
    _push(sb, tmp_path, "a.csv", A)
    _push(sb, tmp_path, "b.csv", B)
    result = _revert(sb, "2", "--yes")
    assert result.exit_code == 0, result.output
    assert (
        "note: left alone: 5 dates whose earlier value the journal never saw (never pushed from here, or by runs"
        " since pruned): HTL001 DBL 2027-01-11..2027-01-15 (--clear-unknown sends n/a for them)"
    ) in result.stderr
    dbl = _threshold(sb)["HTL001"]["DBL"]
    assert [dbl[f"2027-01-{d:02}"] for d in (4, 5, 10, 11, 15)] == ["3", "3", "3", "7", "7"]

    # Asked again, with --clear-unknown: those dates are cleared; the ones put back already are run 3's now.
    again = _revert(sb, "2", "--yes", "--clear-unknown")
    assert again.exit_code == 0, again.output
    assert "cleared (n/a, --clear-unknown): 5 dates whose earlier value the journal never saw" in again.stderr
    assert "left alone: 9 dates that run 3 changed again after run 2" in again.stderr
    dbl = _threshold(sb)["HTL001"]["DBL"]
    assert ("2027-01-11" in dbl, "2027-01-10" in dbl) == (False, True)


def test_dates_a_later_run_changed_are_left_alone_and_named_unless_force(sb: Sandbox, tmp_path: Path) -> None:
    _push(sb, tmp_path, "a.csv", A)
    _push(sb, tmp_path, "b.csv", B)
    _push(sb, tmp_path, "c.csv", HEAD + "HTL001,DBL,2027-01-06,2027-01-07,9\n")
    result = _revert(sb, "2", "--yes")
    assert result.exit_code == 0, result.output
    assert (
        "note: left alone: 2 dates that run 3 changed again after run 2: HTL001 DBL 2027-01-06..2027-01-07"
        " (--force puts them back anyway)"
    ) in result.stderr
    dbl = _threshold(sb)["HTL001"]["DBL"]
    assert [dbl[f"2027-01-{d:02}"] for d in (5, 6, 7, 8)] == ["3", "9", "9", "3"]

    forced = _revert(sb, "2", "--yes", "--force")
    assert forced.exit_code == 0, forced.output
    assert _threshold(sb)["HTL001"]["DBL"]["2027-01-06"] == "3"


def test_a_dry_run_shows_the_plan_as_diff_does_and_sends_nothing(sb: Sandbox, tmp_path: Path) -> None:
    _push(sb, tmp_path, "a.csv", A)
    _push(sb, tmp_path, "b.csv", B)
    before = len(sb.received)
    result = _revert(sb, "2", "--dry-run", "-o", "json")
    assert result.exit_code == 0, result.output
    document = json.loads(result.stdout)
    assert (document["reverts"], document["runs"], document["dry_run"]) == (2, [2], True)
    assert [
        (c["propertyid"], c["start"], c["end"], c["kind"], c["before"], c["after"]) for c in document["changes"]
    ] == [
        ("HTL001", "2027-01-05", "2027-01-10", "changed", "7", "3"),
        ("HTL002", "2027-01-01", "2027-01-03", "changed", "n/a", "4"),
    ]
    assert [(u["start"], u["end"], u["dates"]) for u in document["unknown"]] == [("2027-01-11", "2027-01-15", 5)]
    assert document["later"] == []
    assert len(sb.received) == before

    table = _revert(sb, "2", "--dry-run")
    assert "revert of run 2 (ari-cli threshold push)" in table.stdout
    assert "2 ranges over 9 dates: 0 new, 2 changed (9 dates)" in table.stdout
    csv = _revert(sb, "2", "--dry-run", "-o", "csv")
    assert csv.stdout.splitlines()[1].startswith("HTL001,DBL,,2027-01-05,2027-01-10,changed,7,3,")


def test_without_a_terminal_a_revert_needs_yes_and_sends_nothing(sb: Sandbox, tmp_path: Path) -> None:
    _push(sb, tmp_path, "a.csv", A)
    _push(sb, tmp_path, "b.csv", B)
    before = len(sb.received)
    result = _revert(sb, "2")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert "error: a revert asks before sending, and there is no terminal to ask at" in result.stderr
    assert "hint: give --yes" in result.stderr
    document = _revert(sb, "2", "-o", "json")
    assert document.exit_code == 2
    assert json.loads(document.stdout)["error"]["kind"] == "usage"
    assert len(sb.received) == before


def test_no_such_run_and_a_retry_given_for_its_run_are_usage_errors(sb: Sandbox, tmp_path: Path) -> None:
    missing = _revert(sb, "7", "--yes")
    assert (missing.exit_code, missing.stdout) == (2, "")
    assert "error: the journal has no runs yet" in missing.stderr
    _push(sb, tmp_path, "a.csv", A)
    unknown = _revert(sb, "7", "--dry-run")
    assert unknown.exit_code == 2
    assert "error: no run 7 in the journal" in unknown.stderr


def test_a_run_that_changed_nothing_new_has_nothing_to_put_back(sb: Sandbox, tmp_path: Path) -> None:
    _push(sb, tmp_path, "a.csv", A)
    _push(sb, tmp_path, "again.csv", A)
    before = len(sb.received)
    result = _revert(sb, "2", "--yes")
    assert result.exit_code == 0, result.output
    assert "run 2: nothing to put back" in result.stderr
    assert len(sb.received) == before


def test_the_console_script_reverts_against_a_sandbox_process(sb: Sandbox, tmp_path: Path) -> None:
    """The real `ari-cli` executable, as cron runs it: no terminal, --yes, one JSON document."""
    _push(sb, tmp_path, "a.csv", A)
    _push(sb, tmp_path, "b.csv", B)
    binary = Path(sys.executable).parent / "ari-cli"
    env = {**os.environ, **sandbox_env(sb)}
    done = subprocess.run([str(binary), "revert", "2", "--yes", "-o", "json", *TODAY], env=env, capture_output=True,
                          text=True, timeout=120, stdin=subprocess.DEVNULL)  # fmt: skip
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout)
    assert document["summary"]["ok"] == 2
    assert _threshold(sb)["HTL002"]["DBL"]["2027-01-02"] == "4"  # A's value, which B cleared


def test_undo_is_pure_and_cuts_where_what_is_known_changes() -> None:
    import datetime as dt

    from ari_cli.planning.changes import Span

    day = dt.date.fromisoformat
    key = ("H", "R")
    done = {key: [Span(day("2027-01-01"), day("2027-01-10"), "5", 2)]}
    before = {key: [Span(day("2027-01-03"), day("2027-01-04"), "1", 1)]}
    now = {
        key: [Span(day("2027-01-01"), day("2027-01-08"), "5", 2), Span(day("2027-01-09"), day("2027-01-10"), "8", 3)]
    }
    found = undo(done, before, now, {2}, Choices(today=day("2027-01-02")))
    assert [(p.start.day, p.end.day, p.value) for p in found.back] == [(3, 4, "1")]
    assert [(p.start.day, p.end.day) for p in found.unknown] == [(2, 2), (5, 8)]
    assert [(p.start.day, p.end.day, p.later) for p in found.later] == [(9, 10, 3)]
    cleared = undo(done, before, now, {2}, Choices(clear_unknown=True, force=True))
    assert [(p.start.day, p.end.day, p.value) for p in cleared.back] == [(1, 2, "n/a"), (3, 4, "1"), (5, 10, "n/a")]


def test_a_policy_push_is_reverted_to_the_policy_before(sb: Sandbox, tmp_path: Path) -> None:
    samples = Path(__file__).parent.parent / "samples"
    env = sandbox_env(sb)
    first = invoke(["policy", "push", str(samples / "policy.csv"), *TODAY], env=env)
    assert first.exit_code == 0, first.output
    before = sb.state()["policy"]["HTL001"]["DBL"]["BAR"]["2027-02-01"]
    named = ["policy", "push", str(samples / "policy-named.csv"), "--policies", str(samples / "policies.toml"), *TODAY]
    assert invoke(named, env=env).exit_code == 0
    assert sb.state()["policy"]["HTL001"]["DBL"]["BAR"]["2027-02-01"] != before
    result = _revert(sb, "2", "--yes")
    assert result.exit_code == 0, result.output
    assert sb.state()["policy"]["HTL001"]["DBL"]["BAR"]["2027-02-01"] == before
    assert "Free cancellation until 7 days before arrival" in result.stdout
    # A policy cannot be cleared: dates never seen before are only listed, with no --clear-unknown offered.
    assert "HTL001 TWN BAR 2027-01-01..2027-03-31" in result.stderr
    assert "--clear-unknown" not in result.stderr


def test_python_api_reverts_and_pushes_with_guards(sb: Sandbox, tmp_path: Path) -> None:
    import pytest

    import ari_cli

    (tmp_path / "a.csv").write_text(A)
    (tmp_path / "b.csv").write_text(B)
    where = {"base_url": sb.base_url, "source_id": sb.source_id, "api_key": sb.api_key, "today": PINNED_TODAY}
    assert ari_cli.push("threshold", tmp_path / "a.csv", **where).ok  # type: ignore[arg-type]
    after_a = _threshold(sb)
    with pytest.raises(ari_cli.GuardTripped) as tripped:
        ari_cli.push("threshold", tmp_path / "b.csv", max_changed=8, **where)  # type: ignore[arg-type]
    assert tripped.value.exit_code == 5
    assert tripped.value.guard == {"name": "--max-changed", "figure": "9", "limit": "8"}
    assert ari_cli.push("threshold", tmp_path / "b.csv", max_changed="70%", **where).ok  # type: ignore[arg-type]

    planned = ari_cli.revert(2, dry_run=True, today=PINNED_TODAY)
    assert (planned.reverts, planned.run, planned.exit_code) == (2, None, 0)
    assert [(c["start"], c["after"]) for c in planned.changes] == [("2027-01-05", "3"), ("2027-01-01", "4")]
    assert [u["start"] for u in planned.unknown] == ["2027-01-11"]
    done = ari_cli.revert(2, clear_unknown=True, api_key=sb.api_key, today=PINNED_TODAY)
    assert done.run is not None and done.run.ok and done.run.journal_run == 3
    assert _threshold(sb) == after_a


def test_values_of_pruned_runs_count_as_unknown(sb: Sandbox, tmp_path: Path, journal_home: Path) -> None:
    import sqlite3

    _push(sb, tmp_path, "a.csv", A)
    _push(sb, tmp_path, "b.csv", B)
    with sqlite3.connect(journal_home / "journal.sqlite3") as db:
        db.execute("UPDATE runs SET started = '2020-01-01T00:00:00.000+00:00' WHERE id = 1")
    pruned = invoke(["history", "prune", "--older-than", "30d", "--yes"])
    assert pruned.exit_code == 0, pruned.output
    result = _revert(sb, "2", "--dry-run", "-o", "json")
    document = json.loads(result.stdout)
    assert document["changes"] == []
    assert [(u["propertyid"], u["start"], u["end"]) for u in document["unknown"]] == [
        ("HTL001", "2027-01-05", "2027-01-15"),
        ("HTL002", "2027-01-01", "2027-01-03"),
    ]


def test_at_a_terminal_the_revert_asks_and_no_sends_nothing(sb: Sandbox, tmp_path: Path) -> None:
    from tests.terminal import converse

    _push(sb, tmp_path, "a.csv", A)
    _push(sb, tmp_path, "b.csv", B)
    before = len(sb.received)
    code, seen = converse(["revert", "2", *TODAY], [("? [y/N]", "n")], env=sandbox_env(sb))
    assert code == 1
    assert "Put back 9 date(s) in 2 request(s)" in seen
    assert "error: not confirmed: nothing was sent" in seen
    assert len(sb.received) == before
    code, seen = converse(["revert", "2", *TODAY], [("? [y/N]", "y")], env=sandbox_env(sb))
    assert code == 0, seen
    assert _threshold(sb)["HTL002"]["DBL"]["2027-01-02"] == "4"


def test_a_run_that_went_to_its_own_sandbox_cannot_be_reverted_there(tmp_path: Path) -> None:
    (tmp_path / "a.csv").write_text(A)
    assert invoke(["threshold", "push", str(tmp_path / "a.csv"), "--sandbox", *TODAY]).exit_code == 0
    (tmp_path / "b.csv").write_text(B)
    assert invoke(["threshold", "push", str(tmp_path / "b.csv"), "--sandbox", *TODAY]).exit_code == 0
    result = invoke(["revert", "2", "--yes", *TODAY], env={"ARI_API_KEY": "sandbox-key-0001"})
    assert result.exit_code == 4
    assert "error: run 2 went to a sandbox started for it" in result.stderr
    assert "hint: there is nothing there to revert" in result.stderr


def test_a_report_that_cannot_be_written_is_refused_before_anything_is_sent(sb: Sandbox, tmp_path: Path) -> None:
    _push(sb, tmp_path, "a.csv", A)
    _push(sb, tmp_path, "b.csv", B)
    before = len(sb.received)
    result = _revert(sb, "2", "--yes", "--report", str(tmp_path / "missing" / "r.csv"))
    assert result.exit_code == 2
    assert "does not exist" in result.stderr
    assert len(sb.received) == before
    written = _revert(sb, "2", "--yes", "--report", str(tmp_path / "r.csv"))
    assert written.exit_code == 0
    assert "revert of run 2" in (tmp_path / "r.csv").read_text()


def test_quiet_with_yes_shows_neither_the_preview_nor_the_answer(sb: Sandbox, tmp_path: Path) -> None:
    """--yes alone still shows what will change and the question answered; --quiet too leaves both out (and the
    closing note), but not the dates left alone, which the user asked for and does not get."""
    _push(sb, tmp_path, "a.csv", A)
    _push(sb, tmp_path, "b.csv", B)
    result = _revert(sb, "2", "--yes", "--quiet")
    assert result.exit_code == 0, result.output
    assert "revert of run 2" not in result.stderr
    assert "yes (--yes)" not in result.stderr
    assert "reverts run 2" not in result.stderr
    assert "left alone: 5 dates whose earlier value the journal never saw" in result.stderr
    assert "HTL001" in result.stdout  # the run's table, as a push's
    assert _threshold(sb)["HTL001"]["DBL"]["2027-01-05"] == "3"


def test_a_revert_that_stops_gives_its_own_json_document(sb: Sandbox, tmp_path: Path) -> None:
    """Under --output json a revert that stops before its plan still prints one document, the revert's shape."""
    _push(sb, tmp_path, "a.csv", A)
    result = _revert(sb, "9", "--yes", "-o", "json")
    assert result.exit_code == 2
    document = json.loads(result.stdout)
    assert document["reverts"] == 9 and document["changes"] == []
    assert document["error"]["message"] == "no run 9 in the journal"
    table = _revert(sb, "9", "--yes")
    assert table.exit_code == 2 and table.stdout == ""
