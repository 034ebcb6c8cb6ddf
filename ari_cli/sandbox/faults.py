"""Canned answers: the table's failure bodies, queued faults for tests, and random latency and failures."""

from __future__ import annotations

import base64
import binascii
import http
import json
import random
import re
import threading
import uuid
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from ari_cli.sandbox.server import Answer, Drop, Hang, Reply
from ari_cli.wire.errors import BY_STATUS, ErrorRow, failure_body

RANDOM_FAILURE_STATUSES: tuple[int, ...] = (500, 502, 503, 504, 408)
# The longest a fault may hold a connection: a control of the sandbox must not tie up its threads for days.
HANG_CAP_SECONDS = 300.0
_HTML_PAGE = (
    "<html>\r\n<head><title>{status} {phrase}</title></head>\r\n<body>\r\n"
    "<center><h1>{status} {phrase}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n"
)
_LATENCY = re.compile(r"\s*(\d+(?:\.\d+)?)\s*(?:-\s*(\d+(?:\.\d+)?)\s*)?")


def new_tracking_id() -> str:
    """A fresh, unique tracking id."""
    return f"sbx-{uuid.uuid4().hex}"


def json_reply(status: int, document: Any) -> Reply:
    """A JSON response."""
    return Reply(status, json.dumps(document, separators=(",", ":")).encode())


def failure_reply(row: ErrorRow, tracked: bool = True) -> Reply:
    """The row's HTTP status and exact body, with a fresh tracking id unless `tracked` is False."""
    return json_reply(row.http_status, failure_body(row, new_tracking_id() if tracked else None))


def row_reply(status: int) -> Reply:
    """The table's answer for an HTTP status; the Sell Threshold 404 variant has no tracking id."""
    return failure_reply(BY_STATUS[status], tracked=status != 404)


class FaultKind(StrEnum):
    """The kinds of queued faults."""

    ERROR = "error"
    HTML = "html"
    DROP = "drop"
    HANG = "hang"
    RAW = "raw"


@dataclass(frozen=True, slots=True)
class Fault:
    """One queued answer, given to the next push request instead of the service's own."""

    kind: FaultKind
    status: int | None = None
    seconds: float | None = None
    headers: tuple[tuple[str, str], ...] = ()
    body: bytes = b""

    def answer(self) -> Answer:
        """What the server does for this fault."""
        if self.kind is FaultKind.DROP:
            return Drop()
        if self.kind is FaultKind.HANG:
            return Hang(HANG_CAP_SECONDS if self.seconds is None else self.seconds)
        assert self.status is not None
        if self.kind is FaultKind.ERROR:
            return row_reply(self.status)
        if self.kind is FaultKind.HTML:
            page = _HTML_PAGE.format(status=self.status, phrase=_phrase(self.status)).encode()
            return Reply(self.status, page, (("Content-Type", "text/html"),))
        return Reply(self.status, self.body, self.headers)

    def describe(self) -> dict[str, Any]:
        """The JSON form `POST /_sandbox/faults` takes."""
        described: dict[str, Any] = {"kind": self.kind.value}
        if self.status is not None:
            described["status"] = self.status
        if self.seconds is not None:
            described["seconds"] = self.seconds
        if self.kind is FaultKind.RAW:
            described["headers"] = dict(self.headers)
            described["body_base64"] = base64.b64encode(self.body).decode()
        return described


def error_fault(status: int) -> Fault:
    """The table's row for HTTP `status`, body from errors.py."""
    if status not in BY_STATUS:
        raise ValueError(f"no row of the error table has HTTP status {status}")
    return Fault(FaultKind.ERROR, status=status)


def html_fault(status: int = 502) -> Fault:
    """An HTML error page, as a proxy in front of the service would send."""
    _check_status(status)
    return Fault(FaultKind.HTML, status=status)


def drop_fault() -> Fault:
    """A connection closed without an answer."""
    return Fault(FaultKind.DROP)


def hang_fault(seconds: float | None = None) -> Fault:
    """An answer that never comes (until `seconds`, the cap, or the sandbox stops)."""
    if seconds is not None and not 0 <= seconds <= HANG_CAP_SECONDS:
        raise ValueError(f"`seconds` must be 0 to {HANG_CAP_SECONDS:g}")
    return Fault(FaultKind.HANG, seconds=seconds)


def raw_fault(status: int, body: bytes | str = b"", headers: Mapping[str, str] | None = None) -> Fault:
    """Exactly this status, these headers and these body bytes (Content-Length added if absent)."""
    _check_status(status)
    data = body.encode() if isinstance(body, str) else bytes(body)
    return Fault(FaultKind.RAW, status=status, headers=tuple((headers or {}).items()), body=data)


def _phrase(status: int) -> str:
    try:
        return http.HTTPStatus(status).phrase
    except ValueError:
        return "Error"


def _check_status(status: int) -> None:
    if not isinstance(status, int) or isinstance(status, bool) or not 100 <= status <= 599:
        raise ValueError(f"status must be an HTTP status 100-599, not {status!r}")


def fault_from_json(document: Any) -> tuple[Fault, int]:
    """A fault and its repeat count from JSON such as `{"kind": "error", "status": 503, "times": 2}`."""
    if not isinstance(document, dict):
        raise ValueError("a fault is a JSON object with a `kind`")
    kind = document.get("kind")
    times = document.get("times", 1)
    if not isinstance(times, int) or isinstance(times, bool) or times < 1:
        raise ValueError("`times` must be a whole number of at least 1")
    allowed = {
        "error": {"status"},
        "html": {"status"},
        "drop": set(),
        "hang": {"seconds"},
        "raw": {"status", "headers", "body", "body_base64"},
    }
    if kind not in allowed:
        raise ValueError(f"`kind` must be one of {', '.join(allowed)}")
    unknown = set(document) - allowed[kind] - {"kind", "times"}
    if unknown:
        raise ValueError(f"unknown fields for kind {kind!r}: {', '.join(sorted(unknown))}")
    status = document.get("status")
    if kind == "error":
        return error_fault(_required_status(status)), times
    if kind == "html":
        return html_fault(502 if status is None else _required_status(status)), times
    if kind == "drop":
        return drop_fault(), times
    if kind == "hang":
        seconds = document.get("seconds")
        if seconds is not None and (not isinstance(seconds, int | float) or isinstance(seconds, bool)):
            raise ValueError("`seconds` must be a number")
        return hang_fault(seconds), times
    headers = _raw_headers(document.get("headers"))
    return raw_fault(_required_status(status), _raw_body(document), headers), times


def _required_status(status: Any) -> int:
    if not isinstance(status, int) or isinstance(status, bool):
        raise ValueError("`status` must be an integer HTTP status")
    return status


def _raw_headers(headers: Any) -> dict[str, str]:
    if headers is None:
        return {}
    if not isinstance(headers, dict) or not all(isinstance(v, str) for v in headers.values()):
        raise ValueError("`headers` must be an object of strings")
    return headers


def _raw_body(document: dict[str, Any]) -> bytes:
    if "body" in document and "body_base64" in document:
        raise ValueError("give `body` or `body_base64`, not both")
    if "body_base64" in document:
        try:
            return base64.b64decode(document["body_base64"], validate=True)
        except (binascii.Error, TypeError, ValueError):
            raise ValueError("`body_base64` is not valid base64") from None
    body = document.get("body", "")
    if not isinstance(body, str):
        raise ValueError("`body` must be a string (use `body_base64` for arbitrary bytes)")
    return body.encode()


@dataclass(slots=True)
class _Queued:
    fault: Fault
    times: int


class FaultQueue:
    """Faults waiting for the next push requests, first in first out, each repeated `times`."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._queue: deque[_Queued] = deque()

    def push(self, fault: Fault, times: int = 1) -> None:
        """Queue `fault` for the next `times` push requests."""
        if times < 1:
            raise ValueError("times must be at least 1")
        with self._lock:
            self._queue.append(_Queued(fault, times))

    def pop(self) -> Fault | None:
        """The fault for the request at hand, if any is queued."""
        with self._lock:
            if not self._queue:
                return None
            entry = self._queue[0]
            entry.times -= 1
            if entry.times == 0:
                self._queue.popleft()
            return entry.fault

    def pending(self) -> list[dict[str, Any]]:
        """The queued faults in their JSON form, with the repeats left."""
        with self._lock:
            return [{**entry.fault.describe(), "times": entry.times} for entry in self._queue]

    def clear(self) -> None:
        """Drop every queued fault."""
        with self._lock:
            self._queue.clear()


def parse_latency(value: str | float | tuple[float, float] | None) -> tuple[float, float] | None:
    """Latency in ms as (min, max) from `MS`, `MIN-MAX`, a number or a pair; None for none."""
    if value is None:
        return None
    if isinstance(value, tuple):
        low, high = float(value[0]), float(value[1])
    elif isinstance(value, int | float):
        low = high = float(value)
    else:
        match = _LATENCY.fullmatch(value)
        if not match:
            raise ValueError(f"latency must be MS or MIN-MAX in milliseconds, not {value!r}")
        low = float(match[1])
        high = float(match[2]) if match[2] is not None else low
    if low < 0 or high < low:
        raise ValueError("latency must be non-negative, and MIN at most MAX")
    return (low, high) if high > 0 else None


class Chaos:
    """Random latency and random transient failures, reproducible for a seed and a request order."""

    def __init__(self, latency: tuple[float, float] | None, fail_rate: float, seed: int | None) -> None:
        if not 0.0 <= fail_rate <= 1.0:
            raise ValueError("fail rate must be between 0 and 1")
        self.latency = latency
        self.fail_rate = fail_rate
        self._random = random.Random(seed)
        self._lock = threading.Lock()

    def draw(self) -> tuple[float, int | None]:
        """Seconds to wait before answering, and the HTTP status of a random failure or None."""
        if self.latency is None and self.fail_rate == 0.0:
            return 0.0, None
        with self._lock:
            delay = self._random.uniform(*self.latency) / 1000 if self.latency else 0.0
            failing = self.fail_rate > 0 and self._random.random() < self.fail_rate
            status = self._random.choice(RANDOM_FAILURE_STATUSES) if failing else None
        return delay, status
