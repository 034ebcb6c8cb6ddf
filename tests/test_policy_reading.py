"""Policies read as a person means them: defaults for one-valued fields, a deposit not required, warnings."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

from tests.helpers import invoke, sandbox_env

TODAY = dt.date.today()
START, END = (TODAY + dt.timedelta(days=10)).isoformat(), (TODAY + dt.timedelta(days=20)).isoformat()
HEADER = "propertyid,roomid,rateid,start,end,refundable,level,policyid,dayspriorcheckin,penaltyamount,penaltyapplied,"
DEPOSIT = "depositpolicy,depositamount,depositapplied,depositintervalunits,deposittimeinterval\n"


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def row(refundable: str, level: int, days: int, deposit: str = "not required,,,,") -> str:
    return f"HTL001,DBL,BAR,{START},{END},{refundable},{level},2,{days},100,3,{deposit}\n"


def test_a_deposit_not_required_needs_no_amount_and_types_default_to_3(tmp_path: Path, sandbox: Any) -> None:
    path = write(tmp_path, "p.csv", HEADER + DEPOSIT + row("true", 1, 7))
    result = invoke(["policy", "push", path], env=sandbox_env(sandbox))
    assert result.exit_code == 0, result.stdout + result.stderr
    assert result.stderr == ""
    details = sandbox.received[0].json["policydetails"]
    assert details["cancellation"][0]["penaltytype"] == 3
    assert details["deposit"] == {
        "depositpolicy": "not required",
        "deposittype": 3,
        "depositamount": 1,
        "depositapplied": 3,
        "depositintervalunits": 0,
        "deposittimeinterval": 0,
    }


def test_a_required_deposit_still_needs_its_amount(tmp_path: Path, sandbox: Any) -> None:
    path = write(tmp_path, "p.csv", HEADER + DEPOSIT + row("true", 1, 7, "required,,3,0,"))
    result = invoke(["policy", "push", path], env=sandbox_env(sandbox))
    assert result.exit_code == 3
    assert f"error: {path} line 2, depositamount: is empty; give a whole number 1-100" in result.stderr
    assert sandbox.received == []


def test_json_policies_default_the_types_too(tmp_path: Path, sandbox: Any) -> None:
    fields = {"propertyid": "HTL001", "roomid": "DBL", "rateid": "BAR", "start": START, "end": END,
              "refundable": True, "level": 1, "policyid": 2, "dayspriorcheckin": 7, "penaltyamount": 100,
              "penaltyapplied": 3, "depositpolicy": "required", "depositamount": 30, "depositapplied": 4,
              "depositintervalunits": 0}  # fmt: skip
    path = write(tmp_path, "p.json", json.dumps([fields]))
    result = invoke(["policy", "push", path], env=sandbox_env(sandbox))
    assert result.exit_code == 0, result.stdout + result.stderr
    assert sandbox.received[0].json["policydetails"]["deposit"]["deposittype"] == 3


def test_level_2_not_nearer_arrival_than_level_1_is_a_warning(tmp_path: Path, sandbox: Any) -> None:
    path = write(tmp_path, "p.csv", HEADER + DEPOSIT + row("true", 1, 3) + row("true", 2, 10))
    result = invoke(["policy", "push", path, "--quiet"], env=sandbox_env(sandbox))
    assert result.exit_code == 0, result.stdout + result.stderr
    assert result.stderr == (
        f"warning: {path} line 2: level 2's deadline (10 days before arrival) is not nearer arrival than "
        "level 1's (3); level 2 usually applies closer to arrival\n"
    )
    assert len(sandbox.received) == 1


def test_free_cancellation_on_a_non_refundable_policy_is_a_warning(tmp_path: Path, sandbox: Any) -> None:
    deposit = "required,100,4,0,"
    path = write(tmp_path, "p.csv", HEADER + DEPOSIT + row("false", 1, 7, deposit))
    result = invoke(["policy", "push", path], env=sandbox_env(sandbox))
    assert result.exit_code == 0, result.stdout + result.stderr
    assert (
        f"warning: {path} line 2: refundable is false, yet level 1 allows free cancellation until 7 days "
        "before arrival; both are sent as written\n" in result.stderr
    )


def test_policy_describe_says_what_is_sent(tmp_path: Path) -> None:
    toml = tmp_path / "policies.toml"
    toml.write_text(
        "[policies.odd]\nrefundable = false\n"
        "levels = [{ policyid = 1, dayspriorcheckin = 7, penaltyamount = 100, penaltyapplied = 4 }]\n"
        'deposit = { policy = "required", amount = 100, applied = 4, intervalunits = 0 }\n'
    )
    result = invoke(["policy", "describe", "odd", "--policies", str(toml)])
    assert result.exit_code == 0, result.stdout + result.stderr
    assert result.stdout.strip().endswith(
        "Non-refundable, yet level 1 is sent with free cancellation until 7 days before arrival. "
        "Deposit: 100% of the stay, charged at booking."
    )
