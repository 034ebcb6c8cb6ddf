"""`ari-cli replay`: hints written for the partner's call, not for push (which key, which records, which field)."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

from ari_cli.sandbox import Sandbox
from tests.helpers import invoke, sandbox_env

TODAY = dt.date.today()


def day(offset: int) -> str:
    return (TODAY + dt.timedelta(days=offset)).isoformat()


def record(room: str = "DBL", start: int = 1, end: int = 3, **fields: str) -> dict[str, str]:
    return {"startdateymd": day(start), "enddateymd": day(end), "roomid": room, "threshold": "5", **fields}


def call(tmp_path: Path, *records: dict[str, str], **envelope: str) -> Path:
    body = {**envelope, "propertyid": "HTL001", "action": "sellthresholdupdate", "data": list(records)}
    path = tmp_path / "partner.json"
    path.write_text(json.dumps(body, indent=2), encoding="utf-8")
    return path


def replay(path: Path, sandbox: Any, *extra: str, **env: str) -> Any:
    result = invoke(["replay", str(path), *extra], env={**sandbox_env(sandbox), **env})
    assert result.exit_code == 1, result.stderr
    assert "Traceback" not in result.stdout + result.stderr
    return result


def test_the_partners_own_key_is_named_as_what_was_rejected(tmp_path: Path, sandbox: Sandbox) -> None:
    path = call(tmp_path, record(), sharepost="partner-key-that-is-wrong", sourceid="cpbA1")
    out = replay(path, sandbox).stdout
    assert "meaning: HTTP 415, code 415: invalid authentication key" in out
    assert "what to check: the partner's own key from the body (sharepost) was sent and rejected" in out
    assert "write it as <API_KEY>" in out
    assert "ARI_API_KEY" not in out  # not push's hint: the configured key was not sent
    assert "retry helps: no (the same body gets the same answer until the cause is fixed)" in out
    assert "partner-key-that-is-wrong" not in out  # a partner's key is as secret as ours


def test_the_configured_key_is_named_when_replay_filled_it(tmp_path: Path, sandbox: Sandbox) -> None:
    path = call(tmp_path, record())
    out = replay(path, sandbox, ARI_API_KEY="our-own-key-but-wrong").stdout
    assert "filled from the configuration: sharepost, sourceid" in out
    assert "what to check: the configured key was sent (ARI_API_KEY, --api-key-file or the profile's key)" in out
    assert "our-own-key-but-wrong" not in out


def test_the_partners_source_id_is_named(tmp_path: Path, sandbox: Sandbox) -> None:
    path = call(tmp_path, record(), sharepost="<API_KEY>", sourceid="zzZ99")
    result = replay(path, sandbox)
    assert "code 440: invalid source id" in result.stdout
    assert 'the partner\'s own sourceid from the body, "zzZ99", is not the one assigned' in result.stdout


def test_overlapping_records_are_named_without_push_options(tmp_path: Path, sandbox: Sandbox) -> None:
    path = call(tmp_path, record("DBL", 1, 5), record("TWN", 1, 5), record("DBL", 4, 8))
    out = replay(path, sandbox).stdout
    assert "code 416: overlapping data range" in out
    assert "the partner's records overlap: data[0] and data[2] (room DBL) cover the same dates" in out
    assert "--overlaps" not in out  # replay has no such option
    assert sandbox.state()["threshold"] == {}


def test_a_missing_field_is_named_as_its_path_in_the_body(tmp_path: Path, sandbox: Sandbox) -> None:
    without = {k: v for k, v in record().items() if k != "threshold"}
    path = call(tmp_path, without, record("TWN", threshold="1000"))
    result = replay(path, sandbox, "--output", "json")
    (body,) = json.loads(result.stdout)["bodies"]
    (error,) = body["errors"]
    assert error["code"] == 402 and error["retryable"] is False
    assert error["hint"] == "the body's fields: data[0].threshold: missing; data[1].threshold: 1000 is outside 0-999"
    assert "check the row's values" not in result.stdout


def test_a_transient_answer_says_running_it_again_may_help(tmp_path: Path, sandbox: Sandbox) -> None:
    sandbox.queue_raw(503, b"", {}, times=1)
    path = call(tmp_path, record())
    out = replay(path, sandbox).stdout
    assert "retry helps: yes (replay sends each body once: run it again)" in out
    assert len(sandbox.received) == 1  # replay does not retry by itself


def test_a_gateways_rate_limit_is_not_the_tables_429(tmp_path: Path, sandbox: Sandbox) -> None:
    sandbox.queue_raw(429, b"<html><h1>429 Too Many Requests</h1></html>", {"content-type": "text/html"}, times=1)
    path = call(tmp_path, record())
    out = replay(path, sandbox).stdout
    assert "HTTP 429 is not the service's own answer: too many requests: a gateway's rate limit" in out
    assert "meaning: HTTP 429 (too many requests: a gateway's rate limit) with a body that is not" in out
    assert "what to check: a gateway in front of the service limits how often it may be called" in out
    assert "retry helps: yes" in out and "--rate" not in out  # replay has no --rate


def test_a_body_over_the_size_limit_gets_the_gateway_meaning(tmp_path: Path, sandbox: Sandbox) -> None:
    many = [record("DBL", 1, 1, note="x" * 2000) for _ in range(600)]  # over the sandbox's 1 MiB
    path = call(tmp_path, *many)
    out = replay(path, sandbox).stdout
    assert "HTTP 413" in out
    assert "HTTP 413 is not the service's own answer: request body too large" in out
    assert "the partner must send fewer records per request" in out and "retry helps: no" in out
    assert "--batch-size" not in out  # replay has no --batch-size


def test_a_start_date_in_the_past_is_named(tmp_path: Path, sandbox: Sandbox) -> None:
    path = call(tmp_path, record(), record("TWN", -3, 2))
    out = replay(path, sandbox).stdout
    assert "code 404: invalid start date" in out
    assert f'what to check: the body\'s dates: data[1].startdateymd "{day(-3)}" is before today' in out


def test_an_end_before_the_start_is_named(tmp_path: Path, sandbox: Sandbox) -> None:
    path = call(tmp_path, record("DBL", 5, 2), record("TWN", 1, 2, enddateymd="2027-13-01"))
    out = replay(path, sandbox).stdout
    assert "code 405: invalid end date" in out
    assert f'data[0].enddateymd "{day(2)}" is before the start {day(5)}' in out
    assert 'data[1].enddateymd "2027-13-01" is not a date YYYY-MM-DD' in out


def test_a_402_for_a_body_that_looks_valid_says_so(tmp_path: Path, sandbox: Sandbox) -> None:
    answer = b'{"success": false, "errors": [{"code": 402, "message": "invalid parameter"}], "trackingid": "t-1"}'
    sandbox.queue_raw(402, answer, {"content-type": "application/json"}, times=1)
    out = replay(call(tmp_path, record()), sandbox).stdout
    assert "meaning: HTTP 402, code 402: invalid parameter" in out
    assert "what to check: the service refused a field, though every field of the body looks valid" in out
    assert "check the row's values" not in out
