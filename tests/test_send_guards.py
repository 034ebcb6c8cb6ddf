"""Guards where settings are pushed (issue 40, point 8): `send` is judged by --max-step, --max-changed and
--max-cleared as `push` is (and --override-guards passes), never by --min-coverage; `retry`, `revert` and `replay`
send what was judged already, or an undo, or a partner's exact bodies, and are not judged again."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ari_cli.sandbox import Sandbox
from tests.conftest import PINNED_TODAY
from tests.helpers import invoke, sandbox_env

TODAY = ["--today", PINNED_TODAY]
# Known to the journal: 3 on the 1st to the 10th (run 1).
KNOWN = "propertyid,roomid,start,end,threshold\nHTL001,DBL,2027-01-01,2027-01-10,3\n"


def _profile(tmp_path: Path, text: str) -> list[str]:
    config = tmp_path / "config.toml"
    config.write_text(f"[profiles.cron]\n{text}\n")
    config.chmod(0o600)
    return ["--config", str(config), "--profile", "cron"]


@pytest.fixture
def known(sb: Sandbox, tmp_path: Path) -> Path:
    path = tmp_path / "known.csv"
    path.write_text(KNOWN)
    first = invoke(["threshold", "push", str(path), *TODAY], env=sandbox_env(sb))
    assert first.exit_code == 0, first.output
    return path


def _send(sb: Sandbox, value: str, *args: str) -> Any:
    command = ["threshold", "send", "--property", "HTL001", "--room", "DBL", "--date", "2027-01-02",
               "--threshold", value, *TODAY, *args]  # fmt: skip
    return invoke(command, env=sandbox_env(sb))


def _day(sb: Sandbox) -> str:
    value: str = sb.state()["threshold"]["HTL001"]["DBL"]["2027-01-02"]
    return value


def test_a_send_that_steps_past_the_profiles_max_step_sends_nothing(sb: Sandbox, known: Path, tmp_path: Path) -> None:
    profile = _profile(tmp_path, "max_step = 5")
    received = len(sb.received)

    tripped = _send(sb, "13", *profile)

    assert tripped.exit_code == 5, tripped.output
    assert tripped.stdout == ""
    assert "a guard tripped, nothing was sent:" in tripped.stderr
    assert "--max-step: a value would move by 10, over the limit of 5" in tripped.stderr
    assert "--override-guards" in tripped.stderr
    assert len(sb.received) == received and _day(sb) == "3"
    # Under --output json, the document says which guard.
    document = json.loads(_send(sb, "13", *profile, "--output", "json").stdout)
    assert document["error"]["guard"] == {"name": "--max-step", "figure": "10", "limit": "5"}
    assert len(sb.received) == received

    # A step within the limit goes; --override-guards sends past it, and says so.
    assert _send(sb, "8", *profile).exit_code == 0 and _day(sb) == "8"
    overridden = _send(sb, "18", *profile, "--override-guards")
    assert overridden.exit_code == 0, overridden.output
    assert "--override-guards: pushing although --max-step tripped" in overridden.stderr
    assert _day(sb) == "18" and len(sb.received) == received + 2


def test_sends_flags_win_over_the_profile(sb: Sandbox, known: Path, tmp_path: Path) -> None:
    profile = _profile(tmp_path, "max_step = 5")
    assert _send(sb, "13", *profile, "--max-step", "10").exit_code == 0
    assert _day(sb) == "13"
    changed = _send(sb, "14", "--max-changed", "0")
    assert changed.exit_code == 5
    assert "--max-changed: the push would change 1 date, over the limit of 0" in changed.stderr
    cleared = _send(sb, "n/a", "--max-cleared", "0")
    assert cleared.exit_code == 5
    assert "--max-cleared: the push would clear 1 date, over the limit of 0" in cleared.stderr
    assert _day(sb) == "13"


def test_min_coverage_does_not_apply_to_send(sb: Sandbox, known: Path, tmp_path: Path) -> None:
    # One date of the ten run 1 covered: a push of this setting's file would trip --min-coverage.
    profile = _profile(tmp_path, 'min_coverage = "90%"')
    one = tmp_path / "one.csv"
    one.write_text("propertyid,roomid,start,end,threshold\nHTL001,DBL,2027-01-02,2027-01-02,4\n")
    pushed = invoke(["threshold", "push", str(one), *TODAY, *profile], env=sandbox_env(sb))
    assert pushed.exit_code == 5 and "--min-coverage" in pushed.stderr

    sent = _send(sb, "4", *profile)

    assert sent.exit_code == 0, sent.output
    assert "--min-coverage" not in sent.stderr
    assert _day(sb) == "4"
    # Nor is it a flag of send.
    flag = _send(sb, "5", "--min-coverage", "90%")
    assert flag.exit_code == 2 and "No such option: --min-coverage" in flag.stderr


def test_retry_and_replay_are_not_judged_again(sb: Sandbox, known: Path, tmp_path: Path) -> None:
    profile = _profile(tmp_path, "max_changed = 0\nmax_step = 1")
    env = sandbox_env(sb)
    bigger = tmp_path / "bigger.csv"
    bigger.write_text("propertyid,roomid,start,end,threshold\nHTL001,DBL,2027-01-01,2027-01-10,9\n")
    sb.queue_error(503, times=4)
    # Passed once, by hand; the service was down.
    failed = invoke(["threshold", "push", str(bigger), *TODAY, "--retries", "1", "--override-guards", *profile],
                    env=env)  # fmt: skip
    assert failed.exit_code == 1, failed.output

    retried = invoke(["retry", "2", *profile], env=env)

    assert retried.exit_code == 0, retried.output
    assert "guard" not in retried.stderr and _day(sb) == "9"

    calls = tmp_path / "calls.jsonl"
    body = {
        "propertyid": "HTL001",
        "action": "sellthresholdupdate",
        "data": [{"startdateymd": "2027-01-02", "enddateymd": "2027-01-02", "roomid": "DBL", "threshold": "40"}],
    }
    calls.write_text(json.dumps(body) + "\n")  # fmt: skip
    replayed = invoke(["replay", str(calls), *profile], env=env)
    assert replayed.exit_code == 0, replayed.output
    assert "guard" not in replayed.stderr and _day(sb) == "40"
