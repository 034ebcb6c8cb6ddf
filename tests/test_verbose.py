"""`--verbose`: every HTTP try on stderr (method, URL, headers, body, status, answer, time), key masked."""

from __future__ import annotations

import datetime as dt
import json
import re
import socket
from pathlib import Path
from typing import Any

from tests.helpers import invoke, sandbox_env

TODAY = dt.date.today()


def day(offset: int) -> str:
    return (TODAY + dt.timedelta(days=offset)).isoformat()


def rooms(tmp_path: Path, *rows: str) -> Path:
    path = tmp_path / "rooms.csv"
    path.write_text("propertyid,roomid,start,end,threshold\n" + "\n".join(rows) + "\n", encoding="utf-8")
    return path


def test_the_trace_shows_the_exchange_with_the_key_masked(tmp_path: Path, sandbox: Any) -> None:
    path = rooms(tmp_path, f"HTL001,DBL,{day(1)},{day(3)},3")
    result = invoke(["threshold", "push", str(path), "--verbose", "--output", "json"], env=sandbox_env(sandbox))
    assert result.exit_code == 0, result.stderr
    json.loads(result.stdout)  # stdout is still one document
    err = result.stderr
    (received,) = sandbox.received
    lines = err.splitlines()
    assert f"> POST {sandbox.base_url}/v2/push_ari/cpbA1/sellthresholdupdate" in lines
    assert "> content-type: application/json" in lines and "> accept: application/json" in lines
    sent = json.loads(next(line[2:] for line in lines if line.startswith('> {"sharepost"')))
    assert sent == {**received.json, "sharepost": "sand…0001"}
    assert re.search(r"^< HTTP 200 in \d+ ms$", err, re.M)
    assert "< content-type: application/json" in lines
    assert f"< {received.response.decode()}" in lines
    assert sandbox.api_key not in result.stdout + err


def test_each_try_is_traced_a_retry_included(tmp_path: Path, sandbox: Any) -> None:
    sandbox.queue_error(503)
    path = rooms(tmp_path, f"HTL001,DBL,{day(1)},{day(3)},3")
    result = invoke(["threshold", "push", str(path), "-v"], env=sandbox_env(sandbox))
    assert result.exit_code == 0, result.stderr
    statuses = re.findall(r"^< HTTP (\d+) in", result.stderr, re.M)
    assert statuses == ["503", "200"]
    assert '"message":"service unavailable"' in result.stderr
    assert sandbox.api_key not in result.stdout + result.stderr


def test_no_answer_is_traced(tmp_path: Path) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    key = "a-secret-key-12345"
    env = {"ARI_BASE_URL": f"http://127.0.0.1:{port}", "ARI_API_KEY": key, "ARI_SOURCE_ID": "cpbA1"}
    path = rooms(tmp_path, f"HTL001,DBL,{day(1)},{day(3)},3")
    result = invoke(["threshold", "push", str(path), "--verbose", "--retries", "1"], env=env)
    assert result.exit_code == 1
    assert len(re.findall(r"^< no answer after \d+ ms: cannot reach", result.stderr, re.M)) == 2
    assert '"sharepost":"a-se…2345"' in result.stderr
    assert key not in result.stdout + result.stderr


def test_send_and_replay_trace_too(tmp_path: Path, sandbox: Any) -> None:
    args = ["threshold", "send", "--property", "HTL001", "--room", "DBL", "--date", day(1), "--threshold", "1", "-v"]
    sent = invoke(args, env=sandbox_env(sandbox))
    assert sent.exit_code == 0, sent.stderr
    assert "< HTTP 200 in" in sent.stderr
    body = tmp_path / "call.json"
    body.write_text(json.dumps({"propertyid": "HTL001", "action": "sellthresholdupdate"}), encoding="utf-8")
    replayed = invoke(["replay", str(body), "--verbose"], env=sandbox_env(sandbox))
    assert replayed.exit_code == 1
    assert '> {"sharepost": "sand…0001", "sourceid": "cpbA1", "propertyid": "HTL001"' in replayed.stderr
    assert "< HTTP 402 in" in replayed.stderr
    assert sandbox.api_key not in sent.stdout + sent.stderr + replayed.stdout + replayed.stderr


def test_without_verbose_there_is_no_trace(tmp_path: Path, sandbox: Any) -> None:
    path = rooms(tmp_path, f"HTL001,DBL,{day(1)},{day(3)},3")
    result = invoke(["threshold", "push", str(path)], env=sandbox_env(sandbox))
    assert result.exit_code == 0
    assert "> POST" not in result.stderr and "< HTTP" not in result.stderr
