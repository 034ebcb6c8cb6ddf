"""The Sandbox: the emulated push service on a background thread, with its fixtures, state and faults."""

from __future__ import annotations

import datetime as dt
import json
import re
import threading
import time
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any
from urllib.parse import unquote, urlsplit

from ari_cli.config.settings import is_loopback as _is_loopback
from ari_cli.sandbox.faults import (
    Chaos,
    Fault,
    FaultQueue,
    drop_fault,
    error_fault,
    failure_reply,
    fault_from_json,
    hang_fault,
    html_fault,
    json_reply,
    new_tracking_id,
    parse_latency,
    raw_fault,
    row_reply,
)
from ari_cli.sandbox.fixtures import Account, Fixtures, load_fixtures
from ari_cli.sandbox.rules import Accepted, check_push
from ari_cli.sandbox.server import MAX_BODY, REQUEST_TIMEOUT, Answer, Exchange, Limits, Reply, SandboxHTTPServer
from ari_cli.sandbox.state import PushState

PUSH_PATH = re.compile(r"/v2/push_ari/([^/]+)/([^/]+)")
CONTROL_PREFIX = "/_sandbox/"
_WILDCARDS = {"0.0.0.0": "127.0.0.1", "::": "::1", "": "127.0.0.1"}


@dataclass(frozen=True, slots=True)
class Received:
    """A request sent to the push API, and what the sandbox answered (status None: no answer)."""

    method: str
    path: str
    headers: dict[str, str]
    body: bytes
    json: Any
    status: int | None
    response: bytes
    fault: str | None = None
    at: float = field(default_factory=time.monotonic)
    """When the sandbox handled it (`time.monotonic()`): what pacing tests measure, free of any watcher's delay."""

    @property
    def response_json(self) -> Any:
        """The answered body parsed as JSON, or None when it is not JSON."""
        return _parse_json(self.response)


def _parse_json(raw: bytes) -> Any:
    try:
        return json.loads(raw)
    except (ValueError, RecursionError):
        return None


class Sandbox:
    """The emulated push service; `with Sandbox() as sb:` serves on an ephemeral loopback port."""

    def __init__(
        self,
        fixtures: str | Path | Fixtures | None = None,
        latency: str | float | tuple[float, float] | None = None,
        fail_rate: float = 0.0,
        seed: int | None = None,
        today: dt.date | str | None = None,
        host: str = "127.0.0.1",
        port: int = 0,
        *,
        max_received: int | None = None,
        max_body: int = MAX_BODY,
        request_timeout: float | None = REQUEST_TIMEOUT,
        remote_faults: bool = False,
    ) -> None:
        self.fixtures = fixtures if isinstance(fixtures, Fixtures) else load_fixtures(fixtures)
        self.limits = Limits(max_body, request_timeout)
        self.host = host
        # Faults can hold connections and refuse every push: only this machine may queue them, unless asked.
        self.remote_faults = remote_faults
        self._requested_port = port
        self._today = dt.date.fromisoformat(today) if isinstance(today, str) else today
        self._chaos = Chaos(parse_latency(latency), fail_rate, seed)
        self._faults = FaultQueue()
        # Answers every push request once the queue is empty (`ari-cli sandbox --fault 503`).
        self._standing: Fault | None = None
        self._state = PushState()
        self._received: deque[Received] = deque(maxlen=max_received)
        self._received_lock = threading.Lock()
        self.stopping = threading.Event()
        self._server: SandboxHTTPServer | None = None
        self._thread: threading.Thread | None = None

    def start(self) -> Sandbox:
        """Bind and serve on a background thread; raises OSError when the address is taken."""
        if self._server is not None:
            raise RuntimeError("the sandbox is already running")
        self.stopping.clear()
        self._server = SandboxHTTPServer((self.host, self._requested_port), self, self.limits)
        self._thread = threading.Thread(
            target=self._server.serve_forever,
            kwargs={"poll_interval": 0.05},
            name=f"ari-sandbox-{self.port}",
            daemon=True,
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving; cuts idle and hung connections, so it returns promptly."""
        server, thread = self._server, self._thread
        if server is None:
            return
        self.stopping.set()
        server.shutdown()
        server.cut_connections()
        server.server_close()
        if thread is not None:
            thread.join(timeout=5)
        self._server = self._thread = None

    def __enter__(self) -> Sandbox:
        return self.start()

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, tb: TracebackType | None) -> None:
        self.stop()

    @property
    def port(self) -> int:
        """The bound port (the requested one until started)."""
        if self._server is None:
            return self._requested_port
        return int(self._server.server_address[1])

    @property
    def base_url(self) -> str:
        """`http://HOST:PORT`, with a wildcard host shown as loopback."""
        host = _WILDCARDS.get(self.host, self.host)
        if ":" in host:
            host = f"[{host}]"
        return f"http://{host}:{self.port}"

    @property
    def default_account(self) -> Account:
        """The account the sandbox advertises."""
        return self.fixtures.default_account

    @property
    def api_key(self) -> str:
        """The default account's key (a sandbox value, not a secret)."""
        return self.fixtures.default_account.key

    @property
    def source_id(self) -> str:
        """The default account's source id."""
        return self.fixtures.default_account.source_id

    @property
    def today(self) -> dt.date:
        """The date before which start dates are refused: the one given, else the local date."""
        return self._today or dt.date.today()

    @property
    def received(self) -> list[Received]:
        """The push requests received so far, oldest first."""
        with self._received_lock:
            return list(self._received)

    def state(self) -> dict[str, Any]:
        """What was accepted, as `GET /_sandbox/state` shows it."""
        return self._state.snapshot()

    def reset(self) -> None:
        """Forget accepted values, received requests and queued faults."""
        self._state.clear()
        self._faults.clear()
        self._standing = None
        with self._received_lock:
            self._received.clear()

    def queue_error(self, status: int, times: int | None = 1) -> None:
        """Answer the next `times` push requests (None: every one, once the queue is empty) with the
        error table's row for HTTP `status`."""
        if times is None:
            self._standing = error_fault(status)
        else:
            self._faults.push(error_fault(status), times)

    def queue_html(self, status: int = 502, times: int = 1) -> None:
        """Answer the next `times` push requests with an HTML error page."""
        self._faults.push(html_fault(status), times)

    def queue_drop(self, times: int = 1) -> None:
        """Close the connection of the next `times` push requests without answering."""
        self._faults.push(drop_fault(), times)

    def queue_hang(self, seconds: float | None = None, times: int = 1) -> None:
        """Never answer the next `times` push requests (until `seconds`, a 300 s cap, or stop)."""
        self._faults.push(hang_fault(seconds), times)

    def queue_raw(
        self,
        status: int,
        body: bytes | str = b"",
        headers: Mapping[str, str] | None = None,
        times: int = 1,
    ) -> None:
        """Answer the next `times` push requests with exactly this status, headers and body."""
        self._faults.push(raw_fault(status, body, headers), times)

    def queue_fault(self, fault: Mapping[str, Any]) -> None:
        """Queue a fault in the JSON form `POST /_sandbox/faults` takes, e.g. `{"kind": "drop"}`."""
        parsed, times = fault_from_json(dict(fault))
        self._faults.push(parsed, times)

    def pending_faults(self) -> list[dict[str, Any]]:
        """The faults still queued, in their JSON form; a standing fault last, with `times` null."""
        standing = [{**self._standing.describe(), "times": None}] if self._standing else []
        return self._faults.pending() + standing

    def answer(self, exchange: Exchange) -> Answer:
        """The sandbox's answer to one HTTP request (called by the server's threads)."""
        path = urlsplit(exchange.target).path
        if path.startswith(CONTROL_PREFIX):
            return self._control(exchange.method, path, exchange.body, exchange.client)
        document = _parse_json(exchange.body)
        match = PUSH_PATH.fullmatch(path)
        if exchange.method != "POST" or match is None:
            return self._record(exchange, document, row_reply(424))
        delay, random_status = self._chaos.draw()
        if delay:
            self.stopping.wait(delay)
        fault = self._faults.pop() or self._standing
        if fault is not None:
            return self._record(exchange, document, fault.answer(), fault.kind.value)
        if random_status is not None:
            return self._record(exchange, document, row_reply(random_status), "random")
        outcome = check_push(document, unquote(match[1]), self.fixtures, self.today)
        if isinstance(outcome, Accepted):
            self._state.apply(outcome.changes)
            reply = json_reply(200, {"success": True, "trackingid": new_tracking_id()})
        else:
            reply = failure_reply(outcome.row, outcome.tracked)
        return self._record(exchange, document, reply)

    def internal_error(self) -> Reply:
        """The answer when the sandbox itself failed on a request."""
        return row_reply(500)

    def too_large(self, exchange: Exchange, size: int | None, limit: int) -> Reply:
        """413 in the service's failure shape (the spec names no size limit; a real service has one)."""
        said = f"{size} bytes" if size is not None else "a chunked body"
        message = f"request body too large: {said}, the limit is {limit} bytes"
        reply = json_reply(413, {"success": False, "errors": [{"code": 413, "message": message}],
                                 "trackingid": new_tracking_id()})  # fmt: skip
        if urlsplit(exchange.target).path.startswith(CONTROL_PREFIX):
            return reply
        self._record(exchange, None, reply)
        return reply

    def _record(self, exchange: Exchange, document: Any, answer: Answer, fault: str | None = None) -> Answer:
        # Recorded before the answer is written, so a client that has its response sees the record.
        status = answer.status if isinstance(answer, Reply) else None
        response = answer.body if isinstance(answer, Reply) else b""
        received = Received(
            method=exchange.method,
            path=exchange.target,
            headers=exchange.headers,
            body=exchange.body,
            json=document,
            status=status,
            response=response,
            fault=fault,
        )
        with self._received_lock:
            self._received.append(received)
        return answer

    def _control(self, method: str, path: str, body: bytes, client: str) -> Answer:
        route = (method, path.removeprefix(CONTROL_PREFIX).rstrip("/"))
        if route == ("GET", "state"):
            return json_reply(200, self.state())
        if route == ("POST", "reset"):
            self.reset()
            return json_reply(200, {"reset": True})
        if route[1] == "faults" and not (self.remote_faults or _is_loopback(client)):
            message = "faults are queued from this machine only; start the sandbox with --allow-remote-faults"
            return json_reply(403, {"error": message})
        if route == ("GET", "faults"):
            return json_reply(200, {"pending": self.pending_faults()})
        if route == ("POST", "faults"):
            return self._queue_from_http(body)
        return row_reply(424)

    def _queue_from_http(self, body: bytes) -> Reply:
        document = _parse_json(body)
        items = document if isinstance(document, list) else [document]
        try:
            faults = [fault_from_json(item) for item in items]
        except ValueError as problem:
            return json_reply(400, {"error": str(problem)})
        for fault, times in faults:
            self._faults.push(fault, times)
        return json_reply(200, {"queued": len(faults), "pending": self.pending_faults()})
