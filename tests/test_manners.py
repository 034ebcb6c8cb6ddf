"""Manners at a real service: a refusal costs what it reaches, never a request per record.

Each test runs the console script against a loopback service (the sandbox, or a small server made to answer
what the test needs) and counts what the service received. An answer about the property (446) ends the
property's other requests unsent; one about the endpoint (442, 454) every request to that URL; one about the
account (415, 440, 471, a gateway's 401 or 403, a 404 that is not the service's JSON) every request of the run.
Record-level answers split within a budget: a property's split requests are at most its planned requests.
"""

from __future__ import annotations

import datetime as dt
import json
import subprocess
import sys
import threading
import time
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from ari_cli.sandbox import Sandbox
from tests.conftest import PINNED_TODAY
from tests.helpers import invoke, sandbox_env
from tests.misbehaving import OK_BODY, answer, misbehaving
from tests.test_faults import clean_env

SCRIPT = str(Path(sys.executable).parent / "ari-cli")

HEADER = "propertyid,roomid,start,end,threshold\n"


def _days(tmp_path: Path, rows: list[tuple[str, str]], days: int, name: str = "rooms.csv") -> Path:
    """A row a day for `days` days from 2027-01-01 for each (property, room): one record each (--no-merge)."""
    dates = [dt.date(2027, 1, 1) + dt.timedelta(days=d) for d in range(days)]
    lines = [f"{p},{r},{day},{day},{n % 7}" for p, r in rows for n, day in enumerate(dates)]
    path = tmp_path / name
    path.write_text(HEADER + "\n".join(lines) + "\n", encoding="utf-8")
    return path


def _push(path: Path, env: dict[str, str], *more: str) -> tuple[int, dict[str, Any], str]:
    args = ["threshold", "push", str(path), "--today", PINNED_TODAY, "--no-merge", "--output", "json", *more]
    done = invoke(args, env={**env, "ARI_HOME": str(path.parent / "ari")})
    return done.exit_code, json.loads(done.stdout), done.stderr


def _received(sandbox: Sandbox) -> Counter[str]:
    return Counter(r.json["propertyid"] for r in sandbox.received)


@pytest.mark.parametrize("concurrency", [1, 4, 8])
def test_a_property_the_service_does_not_know_costs_at_most_concurrency_plus_one_requests(
    tmp_path: Path, sb: Sandbox, concurrency: int
) -> None:
    # 2,000 records of an unknown property are 40 requests; before, they took 3,960 (each split to single records).
    path = _days(tmp_path, [("HTL404", "DBL")] * 1 + [("HTL001", "DBL")], 200)
    more = _days(tmp_path, [("HTL404", f"R{n}") for n in range(9)], 200, "more.csv")
    code, document, _ = _push(path, sandbox_env(sb), str(more), "--concurrency", str(concurrency))
    got = _received(sb)
    assert got["HTL404"] <= concurrency + 1, got
    assert got["HTL001"] == 4  # 200 records of a property the service knows: all sent, 50 a request
    assert code == 1
    rows = document["rows"]
    unknown = [r for r in rows if r["source"].endswith("more.csv") or "HTL404" in json.dumps(r)]
    statuses = Counter(r["status"] for r in rows)
    assert statuses["ok"] == 200
    assert statuses["failed"] + statuses["not sent"] == 2_000
    assert statuses["failed"] == 50 * got["HTL404"]  # the refused requests' records, no more
    held = [r for r in rows if r["status"] == "not sent"]
    assert held and all(
        r["note"].startswith("not sent: on request ")
        and "the service refused property HTL404 (446 invalid property mapping), so its other requests were held back"
        in r["note"]
        for r in held
    ), held[0]
    assert unknown  # the rows are there, every one of them, with a result
    assert document["summary"]["requests"] < 100
    # The journal keeps why: `history show` says what the push said, not that the run was stopped.
    shown = invoke(["history", "show", "1", "--output", "json"], env={"ARI_HOME": str(tmp_path / "ari")})
    again = {(r["source"], r["line"]): r for r in json.loads(shown.stdout)["rows"]}
    assert all(again[(r["source"], r["line"])]["note"] == r["note"] for r in held)


def test_a_rejected_key_stops_every_request_of_the_run(tmp_path: Path, sb: Sandbox) -> None:
    path = _days(tmp_path, [("HTL001", "DBL"), ("HTL002", "DBL"), ("HTL003", "DBL")], 100)
    env = {**sandbox_env(sb), "ARI_API_KEY": "sandbox-key-that-is-wrong"}
    code, document, stderr = _push(path, env, "--batch-size", "5", "--concurrency", "4")  # 60 planned requests
    assert len(sb.received) <= 5, len(sb.received)
    assert code == 1
    statuses = Counter(r["status"] for r in document["rows"])
    assert statuses["failed"] == 5 * len(sb.received) and statuses["not sent"] == 300 - statuses["failed"]
    note = next(r["note"] for r in document["rows"] if r["status"] == "not sent")
    assert "the service refused the account (415 invalid authentication key), so the run sent nothing more" in note
    assert "sandbox-key-that-is-wrong" not in json.dumps(document) + stderr


@pytest.mark.parametrize(
    ("status", "body"),
    [(401, b"<html>401 Authorization Required</html>"), (403, b"Forbidden"), (404, b"<h1>Not Found</h1>"),
     (425, b'{"success": false, "errors": [{"code": 471, "message": "channel id blocked"}]}'),
     (417, b'{"success": false, "errors": [{"code": 440, "message": "invalid source id"}]}')],
)  # fmt: skip
def test_a_gateways_refusal_or_a_blocked_channel_stops_the_run(tmp_path: Path, status: int, body: bytes) -> None:
    path = _days(tmp_path, [("HTL001", "DBL"), ("HTL002", "DBL")], 60)
    with misbehaving(answer(status, body)) as (base_url, seen):
        env = {"ARI_BASE_URL": base_url, "ARI_API_KEY": "k-123456789", "ARI_SOURCE_ID": "cpbXX"}
        code, document, _ = _push(path, env, "--batch-size", "2", "--concurrency", "2", "--retries", "0")
    assert len(seen) <= 3, len(seen)  # 60 planned requests
    assert code == 1
    assert Counter(r["status"] for r in document["rows"])["not sent"] >= 114


def test_an_inactive_endpoint_stops_the_requests_to_its_url_and_no_others(tmp_path: Path) -> None:
    inactive = json.dumps({"success": False, "errors": [{"code": 442, "message": "endpoint is not active"}]}).encode()

    def by_url(h: BaseHTTPRequestHandler) -> None:
        body = inactive if h.path.endswith("/HTL002") else OK_BODY
        h.send_response(418 if body is inactive else 200)
        h.send_header("Content-Length", str(len(body)))
        h.end_headers()
        h.wfile.write(body)

    path = _days(tmp_path, [("HTL001", "DBL"), ("HTL002", "DBL")], 100)
    with misbehaving(by_url) as (base_url, seen):
        env = {"ARI_BASE_URL": base_url, "ARI_API_KEY": "k-123456789", "ARI_SOURCE_ID": "cpbXX"}
        code, document, _ = _push(path, env, "--batch-size", "5", "--concurrency", "2",
                                  "--path-segment", "{propertyid}")  # fmt: skip
    properties = Counter(json.loads(body)["propertyid"] for body in seen)
    assert properties["HTL001"] == 20  # every one of its requests: another URL
    assert properties["HTL002"] <= 3
    assert code == 1
    held = [r for r in document["rows"] if r["status"] == "not sent"]
    assert held and all("442 endpoint is not active" in r["note"] and "/HTL002" in r["note"] for r in held)


def test_records_the_service_refuses_one_by_one_cost_at_most_twice_the_planned_requests(
    tmp_path: Path, sb: Sandbox
) -> None:
    # Every record of 20 planned requests names a room the service does not know (451): before, 780 requests.
    path = _days(tmp_path, [("HTL001", "NOPE")], 1_000)
    code, document, _ = _push(path, sandbox_env(sb), "--concurrency", "4")
    assert len(sb.received) <= 40, len(sb.received)
    assert code == 1
    rows = document["rows"]
    assert all(r["status"] == "failed" for r in rows)
    assert all(r["errors"][0]["code"] == 451 for r in rows)
    # Those the budget left in a request of several are said not to be isolated.
    together = [r for r in rows if any(e["message"].startswith("not isolated:") for e in r["errors"])]
    assert together
    assert "not split further" in together[0]["errors"][-1]["message"]


def test_one_bad_room_among_several_requests_is_still_isolated(tmp_path: Path, sb: Sandbox) -> None:
    # Four requests of 5 records; one room unknown: the budget lets its request split until the room stands alone.
    path = _days(tmp_path, [("HTL001", "DBL")], 19)
    with path.open("a", encoding="utf-8") as f:
        f.write("HTL001,NOPE,2027-03-01,2027-03-01,1\n")
    code, document, _ = _push(path, sandbox_env(sb), "--batch-size", "5", "--concurrency", "1")
    assert code == 1
    statuses = {r["line"]: r["status"] for r in document["rows"]}
    assert [line for line, status in statuses.items() if status == "failed"] == [21]
    assert list(statuses.values()).count("ok") == 19
    assert len(sb.received) <= 10  # 4 planned, and 6 split requests: 5 records halved to one


class _Stamped(BaseHTTPRequestHandler):
    """Stamps each request when its request line is read, as the service's clock would count it; answers a 503
    to every seventh request and a gateway's 429 to every eleventh, else success."""

    protocol_version = "HTTP/1.1"  # connections kept open, as a service's are: each read by a thread already waiting
    lock = threading.Lock()
    arrivals: list[tuple[float, str]]
    count = 0

    def parse_request(self) -> bool:
        self.stamp = time.monotonic()  # the request line has just been read
        return super().parse_request()

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("content-length", "0")))
        with self.lock:
            self.arrivals.append((self.stamp, json.loads(body)["propertyid"]))
            type(self).count += 1
            n = type(self).count
        if n % 7 == 0:
            status, answer, extra = 503, b'{"success": false, "errors": [{"code": 503, "message": "x"}]}', {}
        elif n % 11 == 0:
            status, answer, extra = 429, b"<html>Too Many Requests</html>", {"Retry-After": "1"}
        else:
            status, answer, extra = 200, OK_BODY, {}
        self.send_response(status)
        for name, value in {"Content-Length": str(len(answer)), **extra}.items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(answer)

    def log_message(self, format: str, *args: object) -> None:
        pass


def test_the_budget_per_property_holds_by_the_services_clock(tmp_path: Path) -> None:
    arrivals: list[tuple[float, str]] = []
    handler = type("Stamped", (_Stamped,), {"arrivals": arrivals, "count": 0})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    properties = [f"P{n:03d}" for n in range(100)]
    path = _days(tmp_path, [(p, "DBL") for p in properties], 4)
    try:
        # The push runs in a process of its own, as cron runs it: the server's stamps are not kept waiting for
        # the interpreter lock by the sender, and its retries wait as stamina waits outside tests.
        env = clean_env(tmp_path, ARI_BASE_URL=f"http://127.0.0.1:{server.server_address[1]}",
                        ARI_API_KEY="k-123456789", ARI_SOURCE_ID="cpbXX", ARI_HOME=str(tmp_path / "ari"))  # fmt: skip
        args = ["threshold", "push", str(path), "--today", PINNED_TODAY, "--no-merge", "--output", "json",
                "--batch-size", "1", "--concurrency", "64", "--rate-per-property", "2/s", "--retries", "5"]  # fmt: skip
        done = subprocess.run([SCRIPT, *args], capture_output=True, text=True, env=env, timeout=300)
    finally:
        server.shutdown()
        server.server_close()
    code, document, stderr = done.returncode, json.loads(done.stdout), done.stderr
    assert code == 0, stderr
    assert document["summary"]["ok"] == 400
    assert any(r["attempts"] > 1 for r in document["requests"])  # faults were met, and retried
    for prop in properties:
        times = sorted(when for when, p in arrivals if p == prop)
        assert len(times) >= 4
        # No window of one second holds a third arrival of the property: the third is at least a second after.
        for first, third in zip(times, times[2:], strict=False):
            assert third - first >= 1.0, (prop, times)
