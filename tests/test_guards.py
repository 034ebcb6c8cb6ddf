"""Guards for unattended pushes: each trips just past its limit and passes on it, against one sandbox."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from ari_cli.config.tuning import parse_limit
from ari_cli.sandbox import Sandbox
from tests.conftest import PINNED_TODAY
from tests.helpers import invoke, sandbox_env

TODAY = ["--today", PINNED_TODAY]
SCHEMA = json.loads((Path(__file__).parent / "output.schema.json").read_text())
HEAD = "propertyid,roomid,start,end,threshold\n"
# A: 13 known dates. B: 6 changed (3 -> 7, a step of 4), 3 cleared, 5 new; covers 9 of A's 13 dates.
A = HEAD + "HTL001,DBL,2027-01-01,2027-01-10,3\nHTL002,DBL,2027-01-01,2027-01-03,4\n"
B = HEAD + "HTL001,DBL,2027-01-05,2027-01-15,7\nHTL002,DBL,2027-01-01,2027-01-03,n/a\n"


@pytest.fixture
def pushed(sb: Sandbox, tmp_path: Path) -> Path:
    """A pushed; B's file written, to be pushed under guards."""
    (tmp_path / "a.csv").write_text(A)
    first = invoke(["threshold", "push", str(tmp_path / "a.csv"), *TODAY], env=sandbox_env(sb))
    assert first.exit_code == 0, first.output
    path = tmp_path / "b.csv"
    path.write_text(B)
    return path


def _push(sb: Sandbox, path: Path, *args: str) -> Any:
    return invoke(["threshold", "push", str(path), *TODAY, *args], env=sandbox_env(sb))


@pytest.mark.parametrize(
    ("flag", "passes", "trips", "said"),
    [
        ("--max-changed", "9", "8", "--max-changed: the push would change 9 dates, over the limit of 8"),
        ("--max-changed", "70%", "69%", "--max-changed: the push would change 9 of 13 known dates (69.2%), over the"
                                        " limit of 69%"),
        ("--max-cleared", "3", "2", "--max-cleared: the push would clear 3 dates, over the limit of 2"),
        ("--max-cleared", "24%", "23%", "--max-cleared: the push would clear 3 of 13 known dates (23.1%)"),
        ("--min-coverage", "69%", "70%", "--min-coverage: the files cover 9 of the 13 keys and dates that run 1"
                                         " covered (69.2%), under the limit of 70%"),
        ("--max-step", "4", "3", "--max-step: a value would move by 4, over the limit of 3"),
    ],
)  # fmt: skip
def test_each_guard_passes_on_its_limit_and_trips_past_it(
    sb: Sandbox, pushed: Path, flag: str, passes: str, trips: str, said: str
) -> None:
    before = len(sb.received)
    tripped = _push(sb, pushed, flag, trips)
    assert tripped.exit_code == 5, tripped.output
    assert tripped.stdout == ""
    assert "error: a guard tripped, nothing was sent:" in tripped.stderr
    assert said in tripped.stderr
    assert "hint: if the change is meant, raise the limit" in tripped.stderr
    assert "--override-guards" in tripped.stderr
    assert len(sb.received) == before
    dry = _push(sb, pushed, flag, trips, "--dry-run")
    assert dry.exit_code == 5
    passed = _push(sb, pushed, flag, passes)
    assert passed.exit_code == 0, passed.output
    assert len(sb.received) == before + 2


def test_a_tripped_guard_names_its_first_ranges(sb: Sandbox, pushed: Path) -> None:
    result = _push(sb, pushed, "--max-changed", "1")
    assert "  HTL001 DBL 2027-01-05..2027-01-10: 3 -> 7\n" in result.stderr
    assert "  HTL002 DBL 2027-01-01..2027-01-03: 4 -> n/a\n" in result.stderr


def test_under_output_json_without_a_terminal_the_document_says_which_guard(sb: Sandbox, pushed: Path) -> None:
    result = _push(sb, pushed, "--max-step", "3", "--output", "json")
    assert result.exit_code == 5
    document = json.loads(result.stdout)
    assert document["error"]["kind"] == "guard"
    assert document["error"]["guard"] == {"name": "--max-step", "figure": "4", "limit": "3"}
    assert document["rows"] == [] and document["requests"] == []
    jsonschema.validate(document, SCHEMA)


def test_yes_never_passes_a_guard_and_override_guards_does(sb: Sandbox, pushed: Path) -> None:
    refused = _push(sb, pushed, "--max-cleared", "0", "--confirm", "--yes")
    assert refused.exit_code == 5
    overridden = _push(sb, pushed, "--max-cleared", "0", "--override-guards")
    assert overridden.exit_code == 0, overridden.output
    assert "note: --override-guards: pushing although --max-cleared tripped" in overridden.stderr
    assert "2027-01-02" not in sb.state()["threshold"].get("HTL002", {}).get("DBL", {})


def test_max_step_leaves_n_a_to_max_cleared(sb: Sandbox, pushed: Path, tmp_path: Path) -> None:
    cleared = tmp_path / "cleared.csv"
    cleared.write_text(HEAD + "HTL001,DBL,2027-01-01,2027-01-10,n/a\n")
    assert _push(sb, cleared, "--max-step", "0").exit_code == 0


def test_a_percentage_with_nothing_known_passes_with_a_note(sb: Sandbox, tmp_path: Path) -> None:
    path = tmp_path / "a.csv"
    path.write_text(A)
    result = _push(sb, path, "--max-changed", "1%", "--min-coverage", "100%")
    assert result.exit_code == 0, result.output
    assert "note: --max-changed 1%: the journal knows no dates of these keys from today on; the guard passes" in (
        result.stderr
    )
    assert "note: --min-coverage 100%: no earlier push of files to this service to compare with" in result.stderr


def test_min_coverage_compares_with_the_last_push_of_files_not_a_changed_only_one(
    sb: Sandbox, pushed: Path, tmp_path: Path
) -> None:
    small = tmp_path / "small.csv"
    small.write_text(HEAD + "HTL001,DBL,2027-01-01,2027-01-02,5\n")
    assert _push(sb, small, "--changed-only").exit_code == 0  # run 2: not what coverage compares with
    result = _push(sb, pushed, "--min-coverage", "70%")
    assert "that run 1 covered" in result.stderr
    assert result.exit_code == 5


def test_a_profile_sets_a_guard_and_a_flag_wins_over_it(sb: Sandbox, pushed: Path, tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[profiles.cron]\nmax_changed = 8\nmax_step = "4"\n')
    config.chmod(0o600)
    args = ["--config", str(config), "--profile", "cron"]
    assert _push(sb, pushed, *args).exit_code == 5
    assert _push(sb, pushed, *args, "--max-changed", "9").exit_code == 0


def test_a_bad_limit_is_a_usage_error_or_a_config_error(sb: Sandbox, pushed: Path, tmp_path: Path) -> None:
    flag = _push(sb, pushed, "--max-step", "5%")
    assert flag.exit_code == 2
    assert "error: --max-step '5%': give a whole number (20)" in flag.stderr
    config = tmp_path / "config.toml"
    config.write_text('[profiles.cron]\nmin_coverage = "lots"\n')
    config.chmod(0o600)
    profile = _push(sb, pushed, "--config", str(config), "--profile", "cron")
    assert profile.exit_code == 4
    assert "min_coverage must be a percentage (90%)" in profile.stderr


def test_max_step_is_not_for_policies(sb: Sandbox) -> None:
    samples = Path(__file__).parent.parent / "samples"
    result = invoke(["policy", "push", str(samples / "policy.csv"), *TODAY, "--max-step", "3"], env=sandbox_env(sb))
    assert result.exit_code == 2
    assert "--max-step is for threshold and maxadv" in result.stderr


def test_diff_says_which_guards_a_push_would_trip(sb: Sandbox, pushed: Path) -> None:
    result = invoke(["threshold", "diff", str(pushed), *TODAY, "--max-step", "3", "--max-changed", "9"],
                    env=sandbox_env(sb))  # fmt: skip
    assert result.exit_code == 0
    assert "guard: a push would trip --max-step: a value would move by 4, over the limit of 3" in result.stderr
    assert "--max-changed" not in result.stderr


def test_revert_is_not_guarded(sb: Sandbox, pushed: Path, tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text("[profiles.cron]\nmax_changed = 0\n")
    config.chmod(0o600)
    assert _push(sb, pushed, "--override-guards", "--max-changed", "0").exit_code == 0
    result = invoke(["revert", "2", "--yes", *TODAY, "--config", str(config), "--profile", "cron"], env=sandbox_env(sb))
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize(
    ("name", "given", "expected"),
    [("max_changed", "10", "10"), ("max_changed", "2.5%", "2.5%"), ("min_coverage", "90", "90%"),
     ("max_step", 20, "20")],
)  # fmt: skip
def test_limits_read_as_given(name: str, given: object, expected: str) -> None:
    assert str(parse_limit(name, given)) == expected


@pytest.mark.parametrize(("name", "given"), [("max_changed", "-1"), ("max_changed", "101%"), ("max_step", "1.5"),
                                             ("min_coverage", "x"), ("max_cleared", True)])  # fmt: skip
def test_limits_that_cannot_be_read(name: str, given: object) -> None:
    with pytest.raises(ValueError):
        parse_limit(name, given)


def test_a_send_command_is_guarded_by_the_profile(sb: Sandbox, pushed: Path, tmp_path: Path) -> None:
    # Issue 40: a send is judged as a push is (it was not before); tests/test_send_guards.py has the rest.
    config = tmp_path / "config.toml"
    config.write_text("[profiles.cron]\nmax_changed = 0\n")
    config.chmod(0o600)
    args = ["threshold", "send", "--property", "HTL001", "--room", "DBL", "--start", "2027-01-02", "--end",
            "2027-01-02", "--threshold", "9", *TODAY, "--config", str(config), "--profile", "cron"]  # fmt: skip
    result = invoke(args, env=sandbox_env(sb))
    assert result.exit_code == 5, result.output
    assert "--max-changed: the push would change 1 date, over the limit of 0" in result.stderr
    assert sb.state()["threshold"]["HTL001"]["DBL"]["2027-01-02"] == "3"
    assert invoke([*args, "--override-guards"], env=sandbox_env(sb)).exit_code == 0
    assert sb.state()["threshold"]["HTL001"]["DBL"]["2027-01-02"] == "9"
