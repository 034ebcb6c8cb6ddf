"""`push --confirm`: what the push would change is shown and asked about at a terminal; scripts need --yes."""

from __future__ import annotations

import json
from pathlib import Path

from ari_cli.sandbox import Sandbox
from tests.helpers import invoke, sandbox_env
from tests.terminal import converse
from tests.test_diff import FIRST, SECOND, TODAY, expected_changes, write


def pushed_first(sb: Sandbox, tmp_path: Path) -> Path:
    result = invoke(["threshold", "push", str(write(tmp_path / "first.csv", FIRST)), *TODAY], env=sandbox_env(sb))
    assert result.exit_code == 0, result.stderr
    return write(tmp_path / "second.csv", SECOND)


def test_confirm_without_a_terminal_is_a_usage_error_and_sends_nothing(sb: Sandbox, tmp_path: Path) -> None:
    second = pushed_first(sb, tmp_path)
    received = len(sb.received)

    table = invoke(["threshold", "push", str(second), *TODAY, "--confirm"], env=sandbox_env(sb))
    document = invoke(["threshold", "push", str(second), *TODAY, "--confirm", "-o", "json"], env=sandbox_env(sb))

    assert table.exit_code == 2 and table.stdout == ""
    assert "error: --confirm asks before sending, and there is no terminal to ask at" in table.stderr
    assert "hint: give --yes too" in table.stderr
    assert document.exit_code == 2 and json.loads(document.stdout)["error"]["kind"] == "usage"
    assert len(sb.received) == received


def test_confirm_yes_shows_what_would_change_on_stderr_then_sends(sb: Sandbox, tmp_path: Path) -> None:
    second = pushed_first(sb, tmp_path)
    changing = [c for c in expected_changes(FIRST, SECOND) if c["kind"] != "same"]

    result = invoke(["threshold", "push", str(second), *TODAY, "--confirm", "--yes", "-o", "json"], env=sandbox_env(sb))

    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["summary"]["ok"] == len(SECOND)
    assert f"compared with what {sb.base_url} (source cpbA1) acknowledged" in result.stderr
    for change in changing:
        assert f"{change['start']}..{change['end']}" in result.stderr
    assert "the journal knows nothing of 5 of 32 dates (16%)" in result.stderr
    assert f"to {sb.base_url} (source cpbA1)? yes (--yes)" in result.stderr
    assert sb.state()["threshold"]["HTL001"]["DBL"]["2027-01-04"] == "1"


def test_confirm_with_a_dry_run_asks_nothing(sb: Sandbox, tmp_path: Path) -> None:
    second = pushed_first(sb, tmp_path)
    result = invoke(["threshold", "push", str(second), *TODAY, "--confirm", "--dry-run"], env=sandbox_env(sb))
    assert result.exit_code == 0, result.stderr
    assert "compared with" not in result.stderr


def test_at_a_terminal_no_sends_nothing_and_yes_sends(sb: Sandbox, same_length_folder: Path) -> None:
    second = pushed_first(sb, same_length_folder)
    received = len(sb.received)
    env = {**sandbox_env(sb), "NO_COLOR": "1", "COLUMNS": "160"}
    args = ["threshold", "push", str(second), *TODAY, "--confirm"]

    code, seen = converse(args, [("[y/N]", "n")], env=env)

    assert code == 1, seen
    for change in [c for c in expected_changes(FIRST, SECOND) if c["kind"] != "same"]:
        line = next(line for line in seen.splitlines() if f"{change['start']}..{change['end']}" in line)
        assert change["kind"] in line and change["after"] in line
    assert "the journal knows nothing of 5 of 32 dates (16%)" in " ".join(seen.split())
    assert f"Push 8 records in 2 requests to {sb.base_url} (source cpbA1)? [y/N]" in seen
    assert "error: not confirmed: nothing was sent" in seen
    assert len(sb.received) == received

    code, seen = converse(args, [("[y/N]", "y")], env=env)

    assert code == 0, seen
    assert len(sb.received) == received + 2
    assert sb.state()["threshold"]["HTL002"]["DBL"]["2027-01-01"] == "1"
