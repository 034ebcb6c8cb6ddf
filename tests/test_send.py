"""Reading answers, Retry-After, and odd bodies through the sandbox: never a false success."""

from __future__ import annotations

import datetime as dt
import email.utils
import json
from pathlib import Path
from typing import Any

import pytest

from ari_cli.send.answers import interpret
from ari_cli.send.http import _backoff_hook, _Transient
from tests.helpers import invoke, sandbox_env


def test_retry_after_seconds_become_the_backoff() -> None:
    outcome = interpret(503, b'{"success": false, "errors": [{"code": 503, "message": "service unavailable"}]}', "7")
    assert outcome.transient and outcome.retry_after == 7.0
    assert _backoff_hook(_Transient(outcome)) == 7.0


def test_retry_after_http_date_becomes_the_backoff() -> None:
    when = email.utils.format_datetime(dt.datetime.now(dt.UTC) + dt.timedelta(seconds=30), usegmt=True)
    outcome = interpret(503, b"", when)
    assert outcome.retry_after is not None and 25 <= outcome.retry_after <= 31


def test_retry_after_on_a_validation_error_is_ignored() -> None:
    body = b'{"success": false, "errors": [{"code": 452, "message": "invalid rate plan mapping"}], "trackingid": "t"}'
    outcome = interpret(429, body, "5")
    assert not outcome.transient and outcome.retry_after is None
    assert outcome.errors[0].code == 452 and "not rate limiting" in (outcome.errors[0].hint or "")


def test_transient_without_retry_after_uses_exponential_backoff() -> None:
    assert _backoff_hook(_Transient(interpret(502, b"<html>bad gateway</html>"))) is True
    assert _backoff_hook(ValueError("not ours")) is False


@pytest.mark.parametrize(
    ("status", "body", "expected"),
    [
        (200, b"", "HTTP 200 with an empty body; the push is not confirmed"),
        (200, b'{"success": false}', "HTTP 200 with success false and no errors"),
        (200, b'{"trackingid": "x"}', "HTTP 200 with success null and no errors"),
        (200, b'{"success": tru', "a body that is not the service's JSON"),
        (200, b"[1, 2]", "a body that is not the service's JSON"),
        (500, b"oops", "HTTP 500 (internal server error) with a body that is not the service's JSON: 'oops'"),
    ],
)
def test_no_odd_body_is_taken_for_a_success(status: int, body: bytes, expected: str) -> None:
    outcome = interpret(status, body)
    assert not outcome.success
    assert expected in outcome.errors[0].message


def test_200_with_success_false_and_errors_keeps_the_service_error() -> None:
    body = {"success": False, "errors": [{"code": 451, "message": "invalid room mapping"}], "trackingid": "t1"}
    outcome = interpret(200, json.dumps(body).encode())
    assert not outcome.success and outcome.trackingid == "t1"
    assert (outcome.errors[0].code, outcome.errors[0].message, outcome.errors[0].http_status) == (
        451,
        "invalid room mapping",
        200,
    )


def test_raw_odd_answers_through_the_sandbox_are_row_errors(tmp_path: Path, sandbox: Any) -> None:
    day = (dt.date.today() + dt.timedelta(days=1)).isoformat()
    path = tmp_path / "r.csv"
    path.write_text(f"propertyid,roomid,start,end,threshold\nHTL001,DBL,{day},{day},2\n")
    sandbox.queue_raw(200, b"", times=1)
    result = invoke(["threshold", "push", str(path), "--output", "json"], env=sandbox_env(sandbox))
    assert result.exit_code == 1
    row = json.loads(result.stdout)["rows"][0]
    assert row["status"] == "failed" and "empty body" in row["errors"][0]["message"]


def test_an_error_without_a_message_is_worded_from_the_spec_table_or_said_so() -> None:
    known = interpret(422, b'{"success": false, "errors": [{"code": 451, " message": "invalid room mapping"}]}')
    assert known.errors[0].message == "invalid room mapping (the answer gave no message)"
    unknown = interpret(400, b'{"errors": [{"code": 9, "message": null}]}')
    assert unknown.errors[0].message == "the answer gave no message"
