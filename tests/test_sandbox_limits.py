"""The sandbox guards itself: a body size limit (413), malformed JSON answered 402, stalled clients
disconnected so that no thread is held, and loopback unless told otherwise."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from ari_cli.sandbox import Sandbox
from tests.conftest import PINNED_TODAY
from tests.helpers import invoke, sandbox_env

URL = "/v2/push_ari/cpbA1/sellthresholdupdate"
E402 = {"success": False, "errors": [{"code": 402, "message": "invalid parameter"}]}
# Only so that a broken server fails the test instead of hanging it; never a measure of speed.
PATIENCE = 10.0


def test_the_defaults() -> None:
    sandbox = Sandbox()
    assert sandbox.limits.max_body == 1024 * 1024
    assert sandbox.limits.request_timeout == 10.0
    assert sandbox.host == "127.0.0.1"


@pytest.mark.parametrize("kwargs", [{"max_body": -1}, {"request_timeout": 0}, {"request_timeout": -2.5}])
def test_bad_limits_are_refused(kwargs: dict[str, float]) -> None:
    with pytest.raises(ValueError):
        Sandbox(**kwargs)  # type: ignore[arg-type]


def test_a_body_over_the_default_limit_is_answered_413_as_json(sb: Sandbox) -> None:
    with httpx.Client(base_url=sb.base_url, timeout=PATIENCE) as http:
        refused = http.post(URL, content=b" " * (1024 * 1024 + 1))
        assert refused.status_code == 413
        body = refused.json()
        assert body["success"] is False and body["trackingid"]
        assert body["errors"] == [
            {"code": 413, "message": "request body too large: 1048577 bytes, the limit is 1048576 bytes"}
        ]
        # At the limit it is read and judged: not JSON, so 402.
        assert http.post(URL, content=b" " * (1024 * 1024)).status_code == 402
    (first, second) = sb.received
    assert (first.status, first.body, first.json) == (413, b"", None)  # never kept
    assert second.status == 402


def test_a_chunked_body_over_the_limit_is_refused_too() -> None:
    def pieces() -> Iterator[bytes]:
        for _ in range(20):
            yield b"x" * 100

    with Sandbox(today=PINNED_TODAY, max_body=1000) as sandbox, httpx.Client(base_url=sandbox.base_url) as http:
        refused = http.post(URL, content=pieces(), timeout=PATIENCE)
        assert refused.status_code == 413
        assert "a chunked body, the limit is 1000 bytes" in refused.json()["errors"][0]["message"]
        assert http.post(URL, content=iter([b"[]"]), timeout=PATIENCE).status_code == 402  # still serving


def test_an_oversized_control_request_is_refused_and_not_recorded() -> None:
    with Sandbox(today=PINNED_TODAY, max_body=100) as sandbox, httpx.Client(base_url=sandbox.base_url) as http:
        response = http.post("/_sandbox/faults", json=[{"kind": "drop"}] * 20, timeout=PATIENCE)
        assert response.status_code == 413
        assert sandbox.pending_faults() == [] and sandbox.received == []


def test_a_push_over_the_limit_is_a_clear_row_error(tmp_path: Path) -> None:
    path = tmp_path / "rooms.csv"
    path.write_text("propertyid,roomid,date,threshold\nHTL001,DBL,2027-02-01,3\n", encoding="utf-8")
    with Sandbox(today=PINNED_TODAY, max_body=100) as sandbox:
        result = invoke(["threshold", "push", str(path), "--today", PINNED_TODAY], env=sandbox_env(sandbox))
        assert len(sandbox.received) == 1  # a 413 is not transient: not retried
    assert result.exit_code == 1
    assert "413 request body too large:" in result.stdout and "the limit is 100 bytes (HTTP 413)" in result.stdout


@pytest.mark.parametrize(
    "body",
    [b"", b"{", b'{"sharepost": "sandbox-key-0001", "action": "sell', b"[]", b'"text"', b"null", b"\xff\xfe\x00",
     b"[" * 100_000, b'{"a":' * 50_000, b"9" * 10_000, b"<html></html>", b"NaN"],
    ids=["empty", "brace", "truncated", "list", "string", "null", "binary", "deep list", "deep object",
         "huge number", "html", "NaN"],
)  # fmt: skip
def test_a_body_that_is_not_a_json_object_is_402(client: httpx.Client, sb: Sandbox, body: bytes) -> None:
    response = client.post(URL, content=body)
    assert response.status_code == 402
    answer = response.json()
    assert answer.pop("trackingid")
    assert answer == E402
    assert sb.state() == {"threshold": {}, "maxadv": {}, "policy": {}}


def _threads() -> int:
    return threading.active_count()


def _closed_by_server(connection: socket.socket) -> bytes | None:
    """What the server said before it ended the connection (EOF or reset), or None when PATIENCE ran out first."""
    connection.settimeout(PATIENCE)
    said = b""
    try:
        while chunk := connection.recv(65536):
            said += chunk
    except ConnectionResetError:
        pass
    except TimeoutError:
        return None
    return said


@pytest.mark.parametrize(
    "sent",
    [
        b"",
        b"POST /v2/push_ari/cpbA1/sellthresholdupdate HTTP/1.1\r\nHost: x\r\n",
        b"POST /v2/push_ari/cpbA1/sellthresholdupdate HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n",
        b"POST /v2/push_ari/cpbA1/sellthresholdupdate HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"share",
        b"POST /v2/push_ari/cpbA1/sellthresholdupdate HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n10\r\n{\"sh",
        b"POST /v2/push_ari/cpbA1/sellthresholdupdate HTTP/1.1\r\nHost: x\r\nContent-Length: 5000000\r\n\r\nxx",
    ],
    ids=["nothing", "half the headers", "headers, no body", "part of the body", "part of a chunk",
         "part of an oversized body"],
)  # fmt: skip
def test_a_stalled_client_is_disconnected_and_its_thread_freed(sent: bytes) -> None:
    with Sandbox(today=PINNED_TODAY, request_timeout=0.3) as sandbox:
        before = _threads()
        with socket.create_connection(("127.0.0.1", sandbox.port), timeout=PATIENCE) as stalled:
            stalled.sendall(sent)
            said = _closed_by_server(stalled)
            assert said is not None
            # A body shorter than its Content-Length is answered 400 once the client stops (issue 30).
            declared = b"Content-Length: 100\r\n" in sent
            assert said.startswith(b"HTTP/1.1 400 ") if declared else said == b"", said
        deadline = time.monotonic() + PATIENCE
        while _threads() > before and time.monotonic() < deadline:
            time.sleep(0.02)
        assert _threads() <= before
        assert sandbox.received == []
        with httpx.Client(base_url=sandbox.base_url, timeout=PATIENCE) as http:
            assert http.get("/_sandbox/state").status_code == 200


def test_an_idle_keep_alive_connection_is_closed_and_the_client_reconnects() -> None:
    with (
        Sandbox(today=PINNED_TODAY, request_timeout=0.3) as sandbox,
        httpx.Client(base_url=sandbox.base_url, timeout=PATIENCE) as http,
    ):
        assert http.get("/_sandbox/state").status_code == 200
        time.sleep(0.6)  # past the server's timeout: it has closed the pooled connection
        assert http.get("/_sandbox/state").status_code == 200


def test_stalled_clients_do_not_keep_others_waiting(sb: Sandbox) -> None:
    stalled = [socket.create_connection(("127.0.0.1", sb.port), timeout=PATIENCE) for _ in range(20)]
    try:
        for connection in stalled:
            connection.sendall(b"POST /v2/push_ari/cpbA1/sellthresholdupdate HTTP/1.1\r\nContent-Length: 10\r\n\r\n")
        with httpx.Client(base_url=sb.base_url, timeout=PATIENCE) as http:
            body = {"sharepost": sb.api_key, "sourceid": sb.source_id, "propertyid": "HTL001",
                    "action": "sellthresholdupdate",
                    "data": [{"startdateymd": "2027-02-01", "enddateymd": "2027-02-01", "roomid": "DBL", "threshold": "2"}]}  # fmt: skip
            answer = http.post(URL, content=json.dumps(body))
            assert answer.status_code == 200 and answer.json()["success"] is True
    finally:
        for connection in stalled:
            connection.close()


def test_the_sandbox_listens_on_loopback_by_default(sb: Sandbox) -> None:
    assert sb.base_url.startswith("http://127.0.0.1:")
    with socket.create_connection(("127.0.0.1", sb.port), timeout=PATIENCE) as connection:
        assert connection.getpeername()[0] == "127.0.0.1"
