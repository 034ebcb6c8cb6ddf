"""Injected faults: the queue (Python and HTTP), random failures with a seed, latency, stopping while hung."""

from __future__ import annotations

import base64
import time
from typing import Any

import httpx
import pytest

from ari_cli.sandbox import Sandbox
from tests.conftest import PINNED_TODAY as TODAY

URL = "/v2/push_ari/cpbA1/sellthresholdupdate"
BODY: dict[str, Any] = {
    "sharepost": "sandbox-key-0001",
    "sourceid": "cpbA1",
    "propertyid": "HTL001",
    "action": "sellthresholdupdate",
    "data": [{"startdateymd": "2027-03-01", "enddateymd": "2027-03-01", "roomid": "DBL", "threshold": "4"}],
}
E503 = {"success": False, "errors": [{"code": 503, "message": "service unavailable"}]}


def without_trackingid(response: httpx.Response) -> dict[str, Any]:
    body: dict[str, Any] = response.json()
    assert body.pop("trackingid")
    return body


def test_error_n_times_then_normal(client: httpx.Client, sb: Sandbox) -> None:
    sb.queue_error(503, times=2)
    for _ in range(2):
        response = client.post(URL, json=BODY)
        assert response.status_code == 503
        assert without_trackingid(response) == E503
    assert client.post(URL, json=BODY).status_code == 200
    assert [r.fault for r in sb.received] == ["error", "error", None]
    assert sb.state()["threshold"] == {"HTL001": {"DBL": {"2027-03-01": "4"}}}


def test_faults_come_before_validation_in_order(client: httpx.Client, sb: Sandbox) -> None:
    sb.queue_error(500)
    sb.queue_raw(200, b'{"success": true, "trackingid": "t-1"}')
    assert client.post(URL, content=b"garbage").status_code == 500
    assert client.post(URL, content=b"garbage").json() == {"success": True, "trackingid": "t-1"}
    assert client.post(URL, content=b"garbage").status_code == 402
    assert sb.state() == {"threshold": {}, "maxadv": {}, "policy": {}}


def test_faults_do_not_touch_other_paths(client: httpx.Client, sb: Sandbox) -> None:
    sb.queue_error(503)
    assert client.get("/_sandbox/state").status_code == 200
    assert client.post("/v2/elsewhere", json=BODY).status_code == 424
    assert client.post(URL, json=BODY).status_code == 503


def test_html_502(client: httpx.Client, sb: Sandbox) -> None:
    sb.queue_html()
    response = client.post(URL, json=BODY)
    assert response.status_code == 502
    assert response.headers["content-type"] == "text/html"
    assert "<html>" in response.text and "502 Bad Gateway" in response.text
    with pytest.raises(ValueError):
        response.json()
    assert client.post(URL, json=BODY).status_code == 200


def test_dropped_connection(client: httpx.Client, sb: Sandbox) -> None:
    sb.queue_drop()
    with pytest.raises((httpx.RemoteProtocolError, httpx.ReadError)):
        client.post(URL, json=BODY)
    assert client.post(URL, json=BODY).status_code == 200
    assert [(r.fault, r.status) for r in sb.received] == [("drop", None), (None, 200)]


def test_hang_times_out_the_client_then_serves_again(client: httpx.Client, sb: Sandbox) -> None:
    sb.queue_hang()
    started = time.monotonic()
    with pytest.raises(httpx.ReadTimeout):
        client.post(URL, json=BODY, timeout=0.3)
    assert time.monotonic() - started < 30  # a hang never answers: any bound proves the client's timeout worked
    assert client.post(URL, json=BODY).status_code == 200


def test_hang_with_seconds_ends_without_an_answer(client: httpx.Client, sb: Sandbox) -> None:
    sb.queue_hang(seconds=0.2)
    with pytest.raises((httpx.RemoteProtocolError, httpx.ReadError)):
        client.post(URL, json=BODY, timeout=5)


def test_stop_does_not_wait_for_a_hung_request() -> None:
    sandbox = Sandbox(today=TODAY).start()
    sandbox.queue_hang()
    with httpx.Client(base_url=sandbox.base_url) as http:
        with pytest.raises(httpx.ReadTimeout):
            http.post(URL, json=BODY, timeout=0.3)
        started = time.monotonic()
        sandbox.stop()
    assert time.monotonic() - started < 30  # the hang lasts forever: waiting for it would never end


def test_stop_while_a_client_waits_on_a_hang() -> None:
    import threading

    sandbox = Sandbox(today=TODAY).start()
    sandbox.queue_hang()
    outcome: list[BaseException] = []

    def waiting_client() -> None:
        try:
            httpx.post(sandbox.base_url + URL, json=BODY, timeout=30)
        except httpx.HTTPError as error:
            outcome.append(error)

    thread = threading.Thread(target=waiting_client)
    thread.start()
    while not sandbox.received:
        time.sleep(0.01)
    started = time.monotonic()
    sandbox.stop()
    thread.join(60)
    assert time.monotonic() - started < 30  # the client waits 30 s and the hang forever
    assert len(outcome) == 1 and isinstance(outcome[0], httpx.TransportError)


@pytest.mark.parametrize(
    ("status", "body", "headers"),
    [
        (503, b"", {"Retry-After": "2"}),
        (200, b'{"success": false}', {"Content-Type": "application/json"}),
        (200, b'{"success": tr', {"Content-Type": "application/json"}),
        (429, b"slow down", {"Content-Type": "text/plain", "Retry-After": "1"}),
    ],
    ids=["503 empty with Retry-After", "200 success false", "truncated json", "plain text"],
)
def test_raw(client: httpx.Client, sb: Sandbox, status: int, body: bytes, headers: dict[str, str]) -> None:
    sb.queue_raw(status, body, headers)
    response = client.post(URL, json=BODY)
    assert response.status_code == status
    assert response.content == body
    for name, value in headers.items():
        assert response.headers[name] == value
    assert response.headers["content-length"] == str(len(body))
    assert client.post(URL, json=BODY).status_code == 200


def test_fault_endpoint(client: httpx.Client, sb: Sandbox) -> None:
    faults = [
        {"kind": "error", "status": 503, "times": 2},
        {"kind": "html", "status": 502},
        {"kind": "raw", "status": 504, "headers": {"Retry-After": "1"}, "body": "late"},
        {"kind": "raw", "status": 200, "body_base64": base64.b64encode(b"\x00\x01").decode()},
        {"kind": "drop"},
    ]
    answer = client.post("/_sandbox/faults", json=faults)
    assert answer.status_code == 200
    assert answer.json()["queued"] == 5
    pending = client.get("/_sandbox/faults").json()["pending"]
    assert pending[0] == {"kind": "error", "status": 503, "times": 2}
    assert [p["kind"] for p in pending] == ["error", "html", "raw", "raw", "drop"]
    assert [client.post(URL, json=BODY).status_code for _ in range(3)] == [503, 503, 502]
    late = client.post(URL, json=BODY)
    assert (late.status_code, late.content, late.headers["retry-after"]) == (504, b"late", "1")
    assert client.post(URL, json=BODY).content == b"\x00\x01"
    with pytest.raises((httpx.RemoteProtocolError, httpx.ReadError)):
        client.post(URL, json=BODY)
    assert client.get("/_sandbox/faults").json() == {"pending": []}


def test_fault_endpoint_single_object_and_hang(client: httpx.Client, sb: Sandbox) -> None:
    assert client.post("/_sandbox/faults", json={"kind": "hang", "seconds": 30}).json()["queued"] == 1
    with pytest.raises(httpx.ReadTimeout):
        client.post(URL, json=BODY, timeout=0.3)


@pytest.mark.parametrize(
    "fault",
    [
        {"kind": "nope"},
        {"kind": "error", "status": 418.5},
        {"kind": "error", "status": 299},
        {"kind": "error", "status": 503, "times": 0},
        {"kind": "drop", "status": 500},
        {"kind": "raw", "status": 200, "body": "x", "body_base64": "eA=="},
        [{"kind": "drop"}, {"kind": "bad"}],
    ],
)
def test_fault_endpoint_refuses_bad_faults(client: httpx.Client, sb: Sandbox, fault: Any) -> None:
    response = client.post("/_sandbox/faults", json=fault)
    assert response.status_code == 400
    assert response.json()["error"]
    assert sb.pending_faults() == []


def test_python_queue_refuses_unknown_rows(sb: Sandbox) -> None:
    with pytest.raises(ValueError):
        sb.queue_error(299)
    with pytest.raises(ValueError):
        sb.queue_error(503, times=0)


def statuses(seed: int, count: int = 40) -> list[int]:
    with (
        Sandbox(today=TODAY, fail_rate=0.5, seed=seed) as sandbox,
        httpx.Client(base_url=sandbox.base_url) as http,
    ):
        return [http.post(URL, json=BODY).status_code for _ in range(count)]


def test_fail_rate_with_seed_is_reproducible() -> None:
    first = statuses(seed=7)
    assert first == statuses(seed=7)
    assert 200 in first
    assert set(first) - {200}
    assert set(first) <= {200, 500, 502, 503, 504, 408}
    assert first != statuses(seed=8)


def test_random_failures_have_the_table_bodies() -> None:
    expected = {
        500: {"success": False, "errors": [{"code": 500, "message": "internal server error"}]},
        502: {"success": False, "errors": [{"code": 502, "message": "bad gateway"}]},
        503: E503,
        504: {"success": False, "errors": [{"code": 504, "message": "endpoint request timed out"}]},
        408: {"success": False, "errors": [{"code": 408, "message": "processing error"}]},
    }
    with (
        Sandbox(today=TODAY, fail_rate=1.0, seed=1) as sandbox,
        httpx.Client(base_url=sandbox.base_url) as http,
    ):
        for _ in range(30):
            response = http.post(URL, json=BODY)
            assert without_trackingid(response) == expected[response.status_code]
        assert sandbox.state() == {"threshold": {}, "maxadv": {}, "policy": {}}
        assert {r.fault for r in sandbox.received} == {"random"}


# Latency far above what a loopback request takes on a loaded machine: the state request cannot race it.
@pytest.mark.parametrize("latency", [1500, "1500", "1500-1800", (1500.0, 1800.0)])
def test_latency(latency: Any) -> None:
    with Sandbox(today=TODAY, latency=latency) as sandbox, httpx.Client(base_url=sandbox.base_url) as http:
        http.get("/_sandbox/state")
        started = time.monotonic()
        assert http.post(URL, json=BODY).status_code == 200
        assert time.monotonic() - started >= 1.5
        started = time.monotonic()
        http.get("/_sandbox/state")
        assert time.monotonic() - started < 1.5  # not delayed (a few ms on an idle machine)


@pytest.mark.parametrize("latency", ["fast", "-5", "20-10"])
def test_bad_latency(latency: str) -> None:
    with pytest.raises(ValueError):
        Sandbox(latency=latency)


def test_python_queue_fault_takes_the_json_form(client: httpx.Client, sb: Sandbox) -> None:
    sb.queue_fault({"kind": "error", "status": 502, "times": 2})
    assert sb.pending_faults() == [{"kind": "error", "status": 502, "times": 2}]
    assert [client.post(URL, json=BODY).status_code for _ in range(3)] == [502, 502, 200]
