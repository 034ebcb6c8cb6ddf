"""A faulty service, seen through the CLI: random transient failures with jitter, total failure,
a service that never answers, a closed port, and answers that are not the service's JSON.

Each case checks what a user sees (exit code, the row's error) and that retries stay bounded.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import Result

from ari_cli.cli import app
from ari_cli.sandbox import Sandbox
from tests.conftest import PINNED_TODAY
from tests.helpers import invoke, sandbox_env

TRANSIENT = {500, 502, 503, 504, 408}
TABLE_MESSAGES = {
    500: "500 internal server error (HTTP 500)",
    502: "502 bad gateway (HTTP 502)",
    503: "503 service unavailable (HTTP 503)",
    504: "504 endpoint request timed out (HTTP 504)",
    408: "408 processing error (HTTP 408)",
}
# Far above what a run may take with stamina's real backoff; only there so that a hang fails the test.
SUBPROCESS_TIMEOUT = 120


def rooms(tmp_path: Path, count: int) -> Path:
    """`count` one-day rows of one room, values differing so that nothing merges."""
    lines = [f"HTL001,DBL,2027-02-{day:02d},2027-02-{day:02d},{day}" for day in range(1, count + 1)]
    path = tmp_path / "rooms.csv"
    path.write_text("propertyid,roomid,start,end,threshold\n" + "\n".join(lines) + "\n", encoding="utf-8")
    return path


def push(path: Path, sandbox: Sandbox, *extra: str) -> Result:
    return invoke(["threshold", "push", str(path), "--today", PINNED_TODAY, *extra], env=sandbox_env(sandbox))


def document(result: Result) -> dict[str, Any]:
    parsed: dict[str, Any] = json.loads(result.stdout)
    return parsed


def clean_env(tmp_path: Path, **ari: str) -> dict[str, str]:
    """The environment of a child process: no ARI_* of the caller's, no user config, history or cache."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("ARI_") and k != "NO_COLOR"}
    for name in ("HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"):
        env[name] = str(tmp_path / "home")
    return {**env, **ari}


def run_cli(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ari_cli", *args],
        capture_output=True, text=True, env=env, timeout=SUBPROCESS_TIMEOUT, stdin=subprocess.DEVNULL,
    )  # fmt: skip


def test_a_fifth_of_answers_failing_at_random_still_gets_every_row_through(tmp_path: Path) -> None:
    path = rooms(tmp_path, 24)
    with Sandbox(today=PINNED_TODAY, fail_rate=0.2, seed=3, latency="0-15") as sandbox:
        result = push(path, sandbox, "--batch-size", "1", "--retries", "8", "--output", "json")
        received = sandbox.received
    assert result.exit_code == 0, result.stdout + result.stderr
    doc = document(result)
    assert {row["status"] for row in doc["rows"]} == {"ok"}
    attempts = [request["attempts"] for request in doc["requests"]]
    assert len(attempts) == 24 and max(attempts) <= 9
    assert sum(attempts) == len(received)  # every try reached the service, and no more tries were made
    failed = [r for r in received if r.fault == "random"]
    assert failed, "the seed gives some failures"
    assert {r.status for r in failed} <= TRANSIENT
    assert len(failed) == len(received) - 24


def test_a_service_that_always_fails_fails_every_row_after_bounded_retries(tmp_path: Path) -> None:
    path = rooms(tmp_path, 6)
    with Sandbox(today=PINNED_TODAY, fail_rate=1.0, seed=5) as sandbox:
        as_json = push(path, sandbox, "--batch-size", "2", "--retries", "2", "--timeout", "2", "--output", "json")
        assert len(sandbox.received) == 3 * 3
        sandbox.reset()
        table = push(path, sandbox, "--batch-size", "2", "--retries", "2", "--timeout", "2")
    assert as_json.exit_code == 1
    doc = document(as_json)
    assert [request["attempts"] for request in doc["requests"]] == [3, 3, 3]
    assert doc["summary"]["failed"] == 6 and doc["summary"]["ok"] == 0
    for row in doc["rows"]:
        (error,) = row["errors"]
        assert error["http_status"] in TRANSIENT and error["code"] == error["http_status"]
    assert table.exit_code == 1
    assert "6 rows: 0 ok, 6 failed, 0 invalid, 0 skipped" in table.stdout
    assert any(message in table.stdout for message in TABLE_MESSAGES.values())


def test_total_failure_ends_by_itself_with_real_backoff(tmp_path: Path) -> None:
    """As a real process, without stamina's test mode: the backoff is bounded too."""
    path = rooms(tmp_path, 4)
    with Sandbox(today=PINNED_TODAY, fail_rate=1.0, seed=5) as sandbox:
        env = clean_env(tmp_path, **sandbox_env(sandbox))
        done = run_cli(
            ["threshold", "push", str(path), "--today", PINNED_TODAY, "--retries", "2", "--timeout", "2"], env
        )
        tries = len(sandbox.received)
    assert done.returncode == 1, done.stderr
    assert "4 rows: 0 ok, 4 failed" in done.stdout
    assert tries == 3  # one request of 4 records, tried three times
    assert "Traceback" not in done.stdout + done.stderr


def test_a_service_that_never_answers_times_out_and_the_row_fails(tmp_path: Path, sb: Sandbox) -> None:
    sb.queue_hang(times=10)
    path = rooms(tmp_path, 1)
    result = push(path, sb, "--timeout", "0.3", "--retries", "1", "--output", "json")
    assert result.exit_code == 1
    doc = document(result)
    assert doc["requests"][0]["attempts"] == 2
    assert doc["rows"][0]["errors"] == [
        {"code": None, "message": f"no answer from {sb.base_url} within 0.3 s", "http_status": None}
    ]
    assert [r.fault for r in sb.received] == ["hang", "hang"]
    sb.queue_hang(times=10)
    table = push(path, sb, "--timeout", "0.3", "--retries", "1")
    assert table.exit_code == 1
    assert f"no answer from {sb.base_url} within 0.3 s" in table.stdout
    assert "raise --timeout" in table.stdout  # the hint


def test_a_closed_port_is_cannot_reach_without_a_traceback(tmp_path: Path) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    base = f"http://127.0.0.1:{port}"
    env = clean_env(tmp_path, ARI_BASE_URL=base, ARI_API_KEY="a-secret-key-12345", ARI_SOURCE_ID="cpbA1")
    done = run_cli(["threshold", "push", str(rooms(tmp_path, 2)), "--today", PINNED_TODAY, "--retries", "1"], env)
    assert done.returncode == 1, done.stderr
    assert f"cannot reach {base}" in done.stdout
    assert "2 rows: 0 ok, 2 failed" in done.stdout
    assert "Traceback" not in done.stdout + done.stderr
    assert "a-secret-key-12345" not in done.stdout + done.stderr


@pytest.mark.parametrize(
    ("status", "body", "headers", "seen"),
    [
        (200, b"", {}, "HTTP 200 with an empty body; the push is not confirmed"),
        (200, b"OK", {"Content-Type": "text/plain"}, "HTTP 200 with a body that is not the service's JSON: 'OK'; the push is not confirmed"),
        (200, b'{"success": true, "trackingid": "t-', {}, "HTTP 200 with a body that is not the service's JSON: '{\"success\": true, \"trackingid\": \"t-'"),
        (200, b'{"success": false}', {}, "HTTP 200 with success false and no errors; the push is not confirmed"),
        (200, b'{"trackingid": "t-1"}', {}, "HTTP 200 with success null and no errors; the push is not confirmed"),
        (200, b'{"success": "true", "trackingid": "t-1"}', {}, "HTTP 200 with a body that is not the service's JSON"),
        (200, b'{"success": false, "errors": [{"code": 451, "message": "invalid room mapping"}]}', {}, "451 invalid room mapping (HTTP 200)"),
        (200, b"<html><body>Welcome to nginx!</body></html>", {"Content-Type": "text/html"}, "HTTP 200 with a body that is not the service's JSON: '<html><body>Welcome to nginx!</body></html>'"),
        (200, b"\xff\xfe\x00garbage", {}, "HTTP 200 with a body that is not the service's JSON"),
        (403, b"<html><head><title>403 Forbidden</title></head></html>", {"Content-Type": "text/html"}, "HTTP 403 (forbidden by a gateway, firewall or allow-list) with a body that is not the service's JSON: '<html><head><title>403 Forbidden</title></head></html>'"),
        (302, b"", {"Location": "https://elsewhere.example/"}, "HTTP 302 with an empty body; the push is not confirmed"),
        (200, b"[" * 100_000 + b"]" * 100_000, {}, "HTTP 200 with a body that is not the service's JSON: '[[[["),
        (200, b'{"success": false, "errors": [{"code": ' + b"9" * 5000 + b"}]}", {}, "HTTP 200 with a body that is not the service's JSON"),
    ],
    ids=["200 empty", "200 text", "200 truncated json", "200 success false", "200 no success", "200 success as text",
         "200 success false with errors", "200 html", "200 binary", "403 html", "302 redirect", "200 nested too deeply",
         "200 code too long"],
)  # fmt: skip
def test_an_answer_that_is_not_a_success_is_a_clear_row_error(
    tmp_path: Path, sb: Sandbox, status: int, body: bytes, headers: dict[str, str], seen: str
) -> None:
    sb.queue_raw(status, body, headers, times=1)
    result = push(rooms(tmp_path, 1), sb)
    assert result.exit_code == 1, result.stdout
    assert seen in result.stdout
    assert "1 row: 0 ok, 1 failed" in result.stdout
    assert len(sb.received) == 1  # not a transient failure: not retried
    assert sb.state()["threshold"] == {}


@pytest.mark.parametrize(
    ("status", "body", "seen"),
    [
        (502, b"", "HTTP 502 (bad gateway) with an empty body; the push is not confirmed"),
        (503, b"<html><body><h1>503 Service Unavailable</h1></body></html>", "HTTP 503 (service unavailable) with a body that is not the service's JSON: '<html><body><h1>503 Service Unavailable</h1></body></html>'"),
        (500, b'{"success": fal', "HTTP 500 (internal server error) with a body that is not the service's JSON: '{\"success\": fal'"),
        (504, b"upstream request timeout", "HTTP 504 (endpoint request timed out) with a body that is not the service's JSON: 'upstream request timeout'"),
    ],
    ids=["502 empty", "503 html", "500 truncated json", "504 text"],
)  # fmt: skip
def test_transient_answers_without_json_are_retried_then_a_clear_row_error(
    tmp_path: Path, sb: Sandbox, status: int, body: bytes, seen: str
) -> None:
    sb.queue_raw(status, body, times=3)
    result = push(rooms(tmp_path, 1), sb, "--retries", "2")
    assert result.exit_code == 1
    assert seen in result.stdout
    assert len(sb.received) == 3
    sb.reset()
    sb.queue_raw(status, body, times=2)
    assert push(rooms(tmp_path, 1), sb, "--retries", "2").exit_code == 0  # the third try succeeds


def test_a_dropped_connection_every_time_is_a_clear_row_error(tmp_path: Path, sb: Sandbox) -> None:
    sb.queue_drop(times=3)
    result = push(rooms(tmp_path, 1), sb, "--retries", "2")
    assert result.exit_code == 1
    assert f"the connection to {sb.base_url} broke before an answer" in result.stdout
    assert len(sb.received) == 3


ANSWERS = st.fixed_dictionaries(
    {},
    optional={
        "success": st.sampled_from([True, False, "true", 1, None, "yes"]),
        "trackingid": st.sampled_from(["t-1", 5, None, ""]),
        "errors": st.sampled_from([None, [], [{"code": 451, "message": "invalid room mapping"}], "oops"]),
        "extra": st.integers(),
    },
)


@st.composite
def answer_bytes(draw: st.DrawFn) -> bytes:
    """A JSON answer, perhaps cut short or with a few bytes put in, or bytes of any kind."""
    if draw(st.integers(0, 4)) == 0:
        return draw(st.binary(max_size=40))
    data = json.dumps(draw(ANSWERS)).encode()
    how = draw(st.sampled_from(["whole", "whole", "cut", "insert"]))
    if how == "cut":
        return data[: draw(st.integers(0, len(data)))]
    if how == "insert":
        at = draw(st.integers(0, len(data)))
        return data[:at] + draw(st.binary(min_size=1, max_size=3)) + data[at:]
    return data


def a_real_success(status: int, body: bytes) -> bool:
    """What the contract counts as a success: HTTP 200 and a JSON object whose `success` is true itself."""
    try:
        document = json.loads(body)
    except (ValueError, RecursionError):
        return False
    if status != 200 or not isinstance(document, dict) or document.get("success") is not True:
        return False
    return isinstance(document.get("trackingid"), str | None) and not isinstance(document.get("errors"), str)


@pytest.fixture(scope="module")
def shared_sandbox() -> Iterator[Sandbox]:
    with Sandbox(today=PINNED_TODAY) as sandbox:
        yield sandbox


@pytest.fixture(scope="module")
def one_row(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return rooms(tmp_path_factory.mktemp("answers"), 1)


@pytest.fixture(scope="module")
def _command_built_once() -> Iterator[None]:
    """Typer rebuilds the Click command on each in-process call, most of its cost: build it once here."""
    import typer.main
    import typer.testing

    command = typer.main.get_command(app)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(typer.testing, "_get_command", lambda _app: command)
        yield


@pytest.mark.usefixtures("_command_built_once")
@settings(max_examples=int(os.environ.get("ARI_FUZZ_EXAMPLES", "100")), deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])  # fmt: skip
@given(status=st.sampled_from([200, 200, 200, 201, 202, 302, 400, 402, 408, 413, 429, 500, 503]), body=answer_bytes())
def test_only_a_real_success_is_taken_for_one(shared_sandbox: Sandbox, one_row: Path, status: int, body: bytes) -> None:
    shared_sandbox.reset()
    shared_sandbox.queue_raw(status, body, times=5)
    result = push(one_row, shared_sandbox, "--retries", "1", "--output", "json")
    told = result.stdout + result.stderr
    assert "internal error" not in told and "Traceback" not in told, told
    expected = a_real_success(status, body)
    assert result.exit_code == (0 if expected else 1), told
    (row,) = document(result)["rows"]
    assert row["status"] == ("ok" if expected else "failed")
    if not expected:
        assert row["errors"] and all(error["message"] for error in row["errors"])
