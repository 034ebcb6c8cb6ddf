"""`ari-cli threshold|maxadv|policy send`: one setting from flags, with push's checks, output and exit codes."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import invoke, sandbox_env

TODAY = dt.date.today()


def day(offset: int) -> str:
    return (TODAY + dt.timedelta(days=offset)).isoformat()


def dates(first: int = 1, last: int = 3) -> list[str]:
    return [day(n) for n in range(first, last + 1)]


THRESHOLD = ["threshold", "send", "--property", "HTL001", "--room", "DBL"]
MAXADV = ["maxadv", "send", "--property", "HTL001", "--room", "DBL", "--rate", "BAR"]
POLICY = [
    "policy", "send", "--property", "HTL001", "--room", "DBL", "--rate", "FLEX", "--refundable", "TRUE",
    "--level", "policyid=2,days=7,amount=50,applied=3", "--level", "policyid=2, days=1, amount=100, applied=4",
    "--deposit-policy", "not required", "--deposit-amount", "10", "--deposit-applied", "3",
    "--deposit-interval-units", "0",
]  # fmt: skip


def test_threshold_send_pushes_one_setting(sandbox: Any) -> None:
    result = invoke([*THRESHOLD, "--start", day(1), "--end", day(3), "--threshold", "3"], env=sandbox_env(sandbox))
    assert result.exit_code == 0, result.stderr
    assert sandbox.state()["threshold"]["HTL001"]["DBL"] == dict.fromkeys(dates(), "3")
    assert "<flags>:1" in result.stdout
    assert "1 row: 1 ok, 0 failed, 0 invalid, 0 skipped; 1 record, sent 1 of 1 request" in result.stdout


def test_threshold_send_with_one_date_relative_dates_and_weekdays(sandbox: Any) -> None:
    args = [*THRESHOLD, "--start", "today+1", "--end", "today+14", "--days", "Sat,Sun", "--threshold", "n/a"]
    result = invoke([*args, "--output", "json"], env=sandbox_env(sandbox))
    assert result.exit_code == 0, result.stderr
    (request,) = json.loads(result.stdout)["requests"]
    records = request["body"]["data"]
    weekdays = {dt.date.fromisoformat(r[f]).weekday() for r in records for f in ("startdateymd", "enddateymd")}
    assert weekdays <= {5, 6} and 2 <= len(records) <= 3
    assert all(r["threshold"] == "n/a" for r in records)
    single = invoke([*THRESHOLD, "--date", day(2), "--threshold", "4"], env=sandbox_env(sandbox))
    assert single.exit_code == 0, single.stderr
    assert sandbox.state()["threshold"]["HTL001"]["DBL"] == {day(2): "4"}


def test_send_builds_the_body_push_builds_from_a_file(tmp_path: Path) -> None:
    path = tmp_path / "one.csv"
    path.write_text(f"propertyid,roomid,start,end,threshold\nHTL001,DBL,{day(1)},{day(3)},3\n", encoding="utf-8")
    pushed = invoke(["threshold", "push", str(path), "--dry-run", "--output", "json"])
    sent = invoke([*THRESHOLD, "--start", day(1), "--end", day(3), "--threshold", "3", "--dry-run", "-o", "json"])
    assert pushed.exit_code == sent.exit_code == 0
    bodies = [[r["body"] for r in json.loads(x.stdout)["requests"]] for x in (sent, pushed)]
    assert bodies[0] == bodies[1] and len(bodies[0]) == 1
    assert json.loads(sent.stdout)["rows"][0]["source"] == "<flags>"


def test_an_invalid_value_exits_3_names_the_field_and_sends_nothing(sandbox: Any) -> None:
    result = invoke([*THRESHOLD, "--start", day(1), "--end", day(3), "--threshold", "1000"], env=sandbox_env(sandbox))
    assert result.exit_code == 3
    assert "<flags> line 1, threshold: 1000 is above the maximum 999" in result.stderr
    assert "--skip-invalid" not in result.stderr
    assert sandbox.received == []


def test_an_end_before_the_start_is_invalid(sandbox: Any) -> None:
    result = invoke([*THRESHOLD, "--start", day(5), "--end", day(3), "--threshold", "1"], env=sandbox_env(sandbox))
    assert result.exit_code == 3
    assert "<flags> line 1, end:" in result.stderr


def test_maxadv_send_pushes_and_reports_a_service_error_with_exit_1(sandbox: Any) -> None:
    ok = invoke([*MAXADV, "--start", day(1), "--end", day(3), "--time", "365"], env=sandbox_env(sandbox))
    assert ok.exit_code == 0, ok.stderr
    assert sandbox.state()["maxadv"]["HTL001"]["DBL"]["BAR"] == dict.fromkeys(dates(), "365")
    args = ["maxadv", "send", "--property", "HTL001", "--room", "DBL", "--rate", "NOPE"]
    failed = invoke([*args, "--date", day(1), "--nights", "30"], env=sandbox_env(sandbox))
    assert failed.exit_code == 1
    assert "452 invalid rate plan mapping (HTTP 429)" in failed.stdout


def test_policy_send_pushes_both_levels_in_one_policy(sandbox: Any) -> None:
    result = invoke([*POLICY, "--start", day(1), "--end", day(2), "--output", "json"], env=sandbox_env(sandbox))
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    assert [r["line"] for r in doc["rows"]] == [1, 2]
    (request,) = doc["requests"]
    details = request["body"]["policydetails"]
    assert [(c["level"], c["dayspriorcheckin"], c["penaltyamount"]) for c in details["cancellation"]] == [
        (1, 7, 50), (2, 1, 100),
    ]  # fmt: skip
    assert details["deposit"] == {"depositpolicy": "not required", "deposittype": 3, "depositamount": 10,
                                  "depositapplied": 3, "depositintervalunits": 0, "deposittimeinterval": 0}  # fmt: skip
    assert request["body"]["refundable"] == "true"
    assert set(sandbox.state()["policy"]["HTL001"]["DBL"]["FLEX"]) == set(dates(1, 2))


def test_policy_send_validates_like_push(sandbox: Any) -> None:
    args = [*POLICY[:-8], "--deposit-policy", "not required", "--deposit-amount", "0", "--deposit-applied", "3",
            "--deposit-interval-units", "1", "--date", day(1)]  # fmt: skip
    args[args.index("TRUE")] = "false"
    result = invoke(args, env=sandbox_env(sandbox))
    assert result.exit_code == 3
    assert "depositamount: 0 is below the minimum 1" in result.stderr
    assert "deposittimeinterval: is empty" in result.stderr
    assert sandbox.received == []


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([*THRESHOLD, "--threshold", "3"], "give --start and --end, or --date"),
        ([*THRESHOLD, "--start", day(1), "--threshold", "3"], "give --start and --end, or --date"),
        ([*THRESHOLD, "--date", day(1), "--end", day(2), "--threshold", "3"], "not both"),
        (["threshold", "send", "--room", "DBL", "--date", day(1), "--threshold", "3"], "--property"),
        (
            [*POLICY[:10], "--level", "days=7,colour=red", *POLICY[12:], "--date", day(1)],
            "'colour=red' is not KEY=VALUE",
        ),
        ([*POLICY[:10], "--level", "days", *POLICY[12:], "--date", day(1)], "is not KEY=VALUE"),
    ],
)
def test_usage_mistakes_exit_2(args: list[str], message: str, sandbox: Any) -> None:
    result = invoke(args, env=sandbox_env(sandbox))
    assert result.exit_code == 2, result.stdout
    assert message in result.stderr
    assert sandbox.received == []


def test_send_takes_the_sandbox_flag_and_today() -> None:
    today = "2031-05-01"
    args = [*THRESHOLD, "--start", "today", "--end", "today+1", "--threshold", "2", "--sandbox", "--today", today]
    result = invoke([*args, "--output", "json"])
    assert result.exit_code == 0, result.stderr
    (request,) = json.loads(result.stdout)["requests"]
    assert request["body"]["data"][0]["startdateymd"] == today


def test_send_without_configuration_exits_4() -> None:
    result = invoke([*THRESHOLD, "--date", day(1), "--threshold", "2"])
    assert result.exit_code == 4
    assert "no base URL" in result.stderr


def test_send_commands_have_help_with_examples() -> None:
    for group in ("threshold", "maxadv", "policy"):
        result = invoke([group, "send", "--help"])
        assert result.exit_code == 0
        assert f"ari-cli {group} send --property" in result.stdout
        assert "--curl" in result.stdout and "--sandbox" in result.stdout and "--base-url" in result.stdout
