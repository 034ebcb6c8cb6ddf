"""The sender keeps its bounds against loopback servers that misbehave on purpose.

Each case runs the console script in a child process and asserts what a user sees (stdout, stderr,
the exit code) and how long it took: generous bounds, far from what the misbehaviour would cost.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import ClassVar

import pytest

from ari_cli.exits import Interrupted
from ari_cli.render.push.run import csv_fields
from ari_cli.sandbox import Sandbox
from ari_cli.send.answers import RETRY_AFTER_CAP, interpret
from tests.conftest import PINNED_TODAY
from tests.misbehaving import answer, drip, flood, misbehaving, stall
from tests.test_faults import clean_env, rooms, run_cli

KEY = "bounds-key-0001"


def env_for(tmp_path: Path, base_url: str, **more: str) -> dict[str, str]:
    return clean_env(tmp_path, ARI_BASE_URL=base_url, ARI_API_KEY=KEY, ARI_SOURCE_ID="cpbA1", **more)


def push_args(path: Path, *extra: str) -> list[str]:
    return ["threshold", "push", str(path), "--today", PINNED_TODAY, *extra]


def timed(args: list[str], env: dict[str, str]) -> tuple[subprocess.CompletedProcess[str], float]:
    started = time.monotonic()
    done = run_cli(args, env)
    return done, time.monotonic() - started


def test_timeout_bounds_the_whole_request_not_each_read(tmp_path: Path) -> None:
    # 37 bytes at 5 s each: every read is quick, the whole answer takes three minutes.
    with misbehaving(drip(5)) as (base_url, seen):
        done, took = timed(
            push_args(rooms(tmp_path, 1), "--timeout", "2", "--retries", "0"), env_for(tmp_path, base_url)
        )
    assert done.returncode == 1, done.stderr
    assert f"no answer from {base_url} within 2 s" in done.stdout
    assert "1 row: 0 ok, 1 failed" in done.stdout
    assert len(seen) == 1
    assert took < 60, took  # the 2 s timeout and start-up; the whole answer would take 185 s
    assert "Traceback" not in done.stdout + done.stderr


def test_a_long_retry_after_is_capped_at_a_minute() -> None:
    outcome = interpret(503, b"", "99999")
    assert RETRY_AFTER_CAP == 60.0
    assert outcome.transient and outcome.retry_after == 60.0


def test_an_answer_over_one_mib_fails_its_rows_without_being_read_whole(tmp_path: Path) -> None:
    for chunked in (False, True):
        with misbehaving(flood(200 * 1_048_576, chunked)) as (base_url, seen):
            done, took = timed(push_args(rooms(tmp_path, 2), "--output", "json"), env_for(tmp_path, base_url))
        assert done.returncode == 1, done.stderr
        doc = json.loads(done.stdout)
        message = f"answer too large: {base_url} sent more than 1 MiB; the push is not confirmed"
        assert [r["errors"][0]["message"] for r in doc["rows"]] == [message, message]
        assert [r["status"] for r in doc["rows"]] == ["failed", "failed"]
        assert len(seen) == 1  # not retried: a second try would meet the same flood
        assert took < 30, took


class _Proxy(BaseHTTPRequestHandler):
    """A proxy that only notes what came to it and refuses it."""

    came: ClassVar[list[str]] = []

    def _note(self) -> None:
        self.came.append(f"{self.command} {self.path}")
        self.send_error(502)

    do_GET = do_POST = do_CONNECT = _note

    def log_message(self, format: str, *args: object) -> None:
        pass


def _proxy() -> tuple[ThreadingHTTPServer, str]:
    _Proxy.came = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Proxy)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}"


def test_a_loopback_or_plain_http_push_never_goes_through_a_proxy(tmp_path: Path) -> None:
    server, proxy = _proxy()
    try:
        with Sandbox(today=PINNED_TODAY) as sandbox:
            env = clean_env(
                tmp_path, ARI_BASE_URL=sandbox.base_url, ARI_API_KEY=sandbox.api_key, ARI_SOURCE_ID=sandbox.source_id,
                HTTP_PROXY=proxy, http_proxy=proxy, ALL_PROXY=proxy, HTTPS_PROXY=proxy, NO_PROXY="",
            )  # fmt: skip
            done = run_cli(push_args(rooms(tmp_path, 1)), env)
            received = len(sandbox.received)
    finally:
        server.shutdown()
        server.server_close()
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 row: 1 ok" in done.stdout
    assert received == 1 and _Proxy.came == []


@pytest.mark.parametrize("written", ["as a URL", "as HOST:PORT, as curl takes it"])
def test_https_to_another_machine_honours_the_proxy_variables(tmp_path: Path, written: str) -> None:
    server, proxy = _proxy()
    if written != "as a URL":
        proxy = proxy.removeprefix("http://")
    try:
        env = env_for(tmp_path, "https://push.example.invalid", HTTPS_PROXY=proxy, https_proxy=proxy, NO_PROXY="")
        done = run_cli(push_args(rooms(tmp_path, 1), "--retries", "0"), env)
    finally:
        server.shutdown()
        server.server_close()
    assert _Proxy.came == ["CONNECT push.example.invalid:443"]
    assert done.returncode == 1
    assert "https://push.example.invalid" in done.stdout and "1 row: 0 ok, 1 failed" in done.stdout
    assert "Traceback" not in done.stdout + done.stderr


def _start(args: list[str], env: dict[str, str], stdin: int | None = subprocess.DEVNULL) -> subprocess.Popen[str]:
    command = [sys.executable, "-m", "ari_cli", *args]
    return subprocess.Popen(command, stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)


def _wait_for(seen: list[bytes], count: int, limit: float = 30.0) -> None:
    deadline = time.monotonic() + limit
    while len(seen) < count:
        assert time.monotonic() < deadline, "the request never came"
        time.sleep(0.05)


def _stop(process: subprocess.Popen[str], number: signal.Signals) -> tuple[str, str, float]:
    """Send the signal; what the process said and how long it took to end."""
    process.send_signal(number)
    started = time.monotonic()
    out, err = process.communicate(timeout=60)
    return out, err, time.monotonic() - started


def test_ctrl_c_during_a_slow_answer_abandons_it_as_not_confirmed(tmp_path: Path) -> None:
    env = env_for(tmp_path, "", ARI_HOME=str(tmp_path / "ari"))
    with misbehaving(stall(120)) as (base_url, seen):
        env["ARI_BASE_URL"] = base_url
        process = _start(push_args(rooms(tmp_path, 1), "--timeout", "100", "--output", "json"), env)
        _wait_for(seen, 1)
        out, err, took = _stop(process, signal.SIGINT)
    assert process.returncode == 130, err
    assert took < 30, took  # stopping takes well under a second; the wait would not end
    row = json.loads(out)["rows"][0]
    assert row["status"] == "failed"
    assert row["errors"][0]["message"] == "not confirmed: the run was interrupted while this request was in flight"
    assert "interrupted: sending nothing more; 1 request(s) in flight abandoned, not confirmed" in err
    assert "interrupted: 1 row(s) not sent or not confirmed; `ari-cli retry 1` sends what is left" in err
    history = run_cli(["history", "show", "1"], env)
    assert "not confirmed: the run was interrupted" in history.stdout, history.stdout + history.stderr
    assert "Traceback" not in out + err


def test_sigterm_during_a_long_retry_after_wait_stops_at_once(tmp_path: Path) -> None:
    busy = answer(503, b'{"success": false, "errors": [{"code": 503, "message": "busy"}]}', Retry_After="99999")
    with misbehaving(busy) as (base_url, seen):
        env = env_for(tmp_path, base_url, ARI_HOME=str(tmp_path / "ari"))
        process = _start(push_args(rooms(tmp_path, 1)), env)
        _wait_for(seen, 1)
        time.sleep(2)  # the answer is in; the sender now waits (a minute, capped) to try again
        out, err, took = _stop(process, signal.SIGTERM)
    assert process.returncode == 130, err
    assert took < 30, took  # stopping takes well under a second; the wait would not end
    assert len(seen) == 1
    assert "503 busy" in out and "1 row: 0 ok, 1 failed" in out
    assert "interrupted: 1 row(s) not sent or not confirmed; `ari-cli retry 1` sends what is left" in err


def _reading_stdin(extra: list[str], env: dict[str, str], journal: Path) -> subprocess.Popen[str]:
    """A push of standard input that has read the header and waits for rows (the journal opens just before)."""
    process = _start(["threshold", "push", "-", "--today", PINNED_TODAY, *extra], env, stdin=subprocess.PIPE)
    assert process.stdin is not None
    process.stdin.write("propertyid,roomid,start,end,threshold\n")
    process.stdin.flush()
    deadline = time.monotonic() + 30
    while not journal.exists():
        assert time.monotonic() < deadline and process.poll() is None, "the push never started"
        time.sleep(0.05)
    time.sleep(1)
    return process


NOTHING_SENT = "interrupted; nothing was sent"


def test_sigterm_while_reading_the_input_says_nothing_was_sent(tmp_path: Path) -> None:
    with misbehaving(answer(200, b'{"success": true}')) as (base_url, seen):
        env = env_for(tmp_path, base_url, ARI_HOME=str(tmp_path / "ari"))
        process = _reading_stdin([], env, tmp_path / "ari" / "journal.sqlite3")
        out, err, took = _stop(process, signal.SIGTERM)
    assert process.returncode == 130, err
    assert took < 30, took  # stopping takes well under a second; the wait would not end
    assert err == f"{NOTHING_SENT}\nhint: {Interrupted.HINT}\n"
    assert out == "" and seen == []


@pytest.mark.parametrize("report", ["report.json", "report.csv"])
def test_ctrl_c_before_anything_is_sent_still_gives_one_json_document_and_the_report(
    tmp_path: Path, report: str
) -> None:
    with misbehaving(answer(200, b'{"success": true}')) as (base_url, seen):
        env = env_for(tmp_path, base_url, ARI_HOME=str(tmp_path / "ari"))
        extra = ["--output", "json", "--report", str(tmp_path / report)]
        process = _reading_stdin(extra, env, tmp_path / "ari" / "journal.sqlite3")
        out, err, _ = _stop(process, signal.SIGINT)
    assert process.returncode == 130, err
    assert seen == []
    document = json.loads(out)  # one document, nothing before or after it
    assert document["error"] == {"kind": "interrupted", "message": NOTHING_SENT, "hint": Interrupted.HINT}
    assert document["rows"] == [] and document["requests"] == [] and document["summary"]["rows"] == 0
    assert err == f"{NOTHING_SENT}\nhint: {Interrupted.HINT}\n"
    written = (tmp_path / report).read_text()
    if report.endswith(".json"):
        assert json.loads(written) == document
    else:
        assert written == ",".join(csv_fields("threshold")) + "\n"  # the rows' columns; there are no rows
