"""The sender: the only module that talks HTTP.

Requests go out with bounded concurrency and rate; transient failures (connection errors,
timeouts, HTTP 500/502/503/504 and code 408) are retried with capped exponential backoff and
jitter (stamina), honouring `Retry-After`. A request of several records that fails with a
record-level error is split in halves and re-sent until each failing record stands alone.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import email.utils
import json
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from urllib.parse import urlsplit

import httpx
import stamina
from pydantic import ValidationError

from ari_cli import __version__
from ari_cli.exits import ExitCode
from ari_cli.send.exchange import (
    INTERRUPTED,
    Exchange,
    Outcome,
    Problem,
    Route,
    SendOptions,
    Sent,
    Trace,
    Watcher,
    encode,
)
from ari_cli.wire.errors import BY_STATUS, RECORD_LEVEL_CODES, hint_for, is_retryable, lookup
from ari_cli.wire.models import REQUEST_HEADERS, PushResponse

RETRY_AFTER_CAP = 300.0
RESPONSE_KEPT = 65_536


def _retry_after(value: str | None) -> float | None:
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return min(float(value), RETRY_AFTER_CAP)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    delay = (when - dt.datetime.now(dt.UTC)).total_seconds()
    return min(max(delay, 0.0), RETRY_AFTER_CAP)


def _snippet(content: bytes) -> str:
    text = content[:120].decode("utf-8", "replace")
    return " ".join(text.split()) + ("…" if len(content) > 120 else "")


def _unworded(code: int | None, status: int) -> str:
    """What an error entry without a message means, from the spec's table where its code is there."""
    row = lookup(code, status)
    return f"{row.message} (the answer gave no message)" if row else "the answer gave no message"


def interpret(status: int, content: bytes, retry_after: str | None = None) -> Outcome:
    """Read an HTTP answer: meaning from the body code, the status beside it; never guess success."""
    wait = _retry_after(retry_after)
    try:
        data = json.loads(content) if content.strip() else None
        response = PushResponse.model_validate(data) if isinstance(data, dict) else None
    except (ValueError, RecursionError, ValidationError):  # RecursionError: an answer nested too deeply
        response = None
    if response is not None and status == 200 and response.success is True:
        return Outcome(status, True, response.trackingid)
    row = BY_STATUS.get(status)
    if response is not None and response.errors:
        errors = tuple(
            Problem(e.code, e.message or _unworded(e.code, status), status, hint_for(e.code, status))
            for e in response.errors
        )
        trackingid = response.trackingid
    else:
        trackingid = response.trackingid if response is not None else None
        if response is not None:
            said = f"success {json.dumps(response.success)} and no errors"
        elif content.strip():
            said = f"a body that is not the service's JSON: {_snippet(content)!r}"
        else:
            said = "an empty body"
        meaning = f" ({row.message})" if row else ""
        message = f"HTTP {status}{meaning} with {said}; the push is not confirmed"
        errors = (Problem(None, message, status, row.hint if row else None),)
    transient = is_retryable(errors[0].code, status)
    return Outcome(status, False, trackingid, errors, transient, wait if transient else None)


def _transport_failure(error: httpx.HTTPError, base_url: str, timeout: float) -> Outcome:
    if isinstance(error, httpx.TimeoutException):
        message = f"no answer from {base_url} within {timeout:g} s"
    elif isinstance(error, httpx.ConnectError):
        message = f"cannot reach {base_url}: {error or 'connection refused'}"
    else:
        message = f"the connection to {base_url} broke before an answer ({type(error).__name__})"
    hint = (
        "check the base URL and your network; the request was retried"
        if not isinstance(error, httpx.TimeoutException)
        else "the service is slow or down; raise --timeout, or try again later"
    )
    return Outcome(None, False, errors=(Problem(None, message, None, hint),), transient=True)


# Who is calling, for the service's logs and support: never httpx's own name.
CLIENT_HEADERS = {"user-agent": f"ari-cli/{__version__}"}


async def _post(client: httpx.AsyncClient, url: str, content: bytes, base_url: str, timeout: float) -> Sent:
    """POST bytes once; what went over the wire and what it means."""
    started = time.monotonic()
    try:
        response = await client.post(url, content=content, headers=REQUEST_HEADERS)
    except httpx.HTTPError as error:
        outcome = _transport_failure(error, base_url, timeout)
        headers = tuple({**CLIENT_HEADERS, **REQUEST_HEADERS}.items())
        trace = Trace("POST", url, headers, content, time.monotonic() - started, error=outcome.errors[0].message)
        return Sent(trace, outcome)
    trace = Trace(
        "POST", url, tuple(response.request.headers.items()), content, time.monotonic() - started,
        response.status_code, tuple(response.headers.items()), response.content,
    )  # fmt: skip
    return Sent(trace, interpret(response.status_code, response.content, response.headers.get("retry-after")))


def _client(options: SendOptions, transport: httpx.AsyncBaseTransport | None) -> httpx.AsyncClient:
    limits = httpx.Limits(max_connections=options.concurrency, max_keepalive_connections=options.concurrency)
    return httpx.AsyncClient(
        timeout=options.timeout, limits=limits, transport=transport, follow_redirects=False, headers=CLIENT_HEADERS
    )


class _Transient(Exception):
    def __init__(self, outcome: Outcome) -> None:
        self.outcome = outcome


def _backoff_hook(error: Exception) -> bool | float:
    if isinstance(error, _Transient):
        return error.outcome.retry_after if error.outcome.retry_after is not None else True
    return False


class _Pacer:
    """At most `rate` request starts per second across all tasks (0: no limit)."""

    def __init__(self, rate: float) -> None:
        self.interval = 1.0 / rate if rate > 0 else 0.0
        self.next_start = 0.0
        self.lock = asyncio.Lock()

    async def wait(self) -> None:
        if not self.interval:
            return
        async with self.lock:
            now = time.monotonic()
            start = max(now, self.next_start)
            self.next_start = start + self.interval
        if start > now:
            await asyncio.sleep(start - now)


class Sender:
    """Sends a run's requests and splits record-level failures; returns every exchange."""

    def __init__(
        self, route: Route, options: SendOptions, client: httpx.AsyncClient, watch: Watcher | None = None
    ) -> None:
        self.route = route
        self.options = options
        self.client = client
        self.watch = watch or Watcher()
        self.exchanges: list[Exchange] = []
        self.gate = asyncio.Semaphore(options.concurrency)
        self.pacer = _Pacer(options.rate)
        self.stopped = False
        self.in_flight = 0

    def stop(self) -> None:
        """Send nothing new and retry nothing; what is in flight finishes within its timeout."""
        self.stopped = True

    async def run(self, first: Sequence[Exchange]) -> list[Exchange]:
        self.exchanges.extend(first)
        async with asyncio.TaskGroup() as group:
            for exchange in first:
                group.create_task(self._deliver(exchange, group))
        return sorted(self.exchanges, key=lambda e: e.id)

    async def _deliver(self, exchange: Exchange, group: asyncio.TaskGroup) -> None:
        outcome = await self._with_retries(exchange)
        exchange.outcome = outcome
        first = outcome.errors[0] if outcome.errors else None
        if not outcome.success and len(exchange.records) > 1 and first and first.code in RECORD_LEVEL_CODES:
            half = len(exchange.records) // 2
            children = []
            for part in (exchange.records[:half], exchange.records[half:]):
                child = Exchange(
                    len(self.exchanges) + 1, exchange.propertyid, part, self.route.build(part),
                    exchange.url, parent=exchange.id,
                )  # fmt: skip
                self.exchanges.append(child)
                children.append(child)
            exchange.children = tuple(c.id for c in children)
            self.watch.answered(exchange, children)
            for child in children:
                group.create_task(self._deliver(child, group))
            return
        self.watch.answered(exchange, ())
        self.watch.final(exchange)

    async def _with_retries(self, exchange: Exchange) -> Outcome:
        o = self.options
        try:
            async for attempt in stamina.retry_context(
                on=_backoff_hook, attempts=o.retries + 1, timeout=None,
                wait_initial=o.wait_initial, wait_max=o.wait_max, wait_jitter=o.wait_jitter,
            ):  # fmt: skip
                with attempt:
                    outcome = await self._once(exchange)
                    if outcome.transient and not self.stopped:
                        raise _Transient(outcome)
                    return outcome
        except _Transient as last:
            return last.outcome
        raise AssertionError("stamina ends with a return or the last exception")  # pragma: no cover

    async def _once(self, exchange: Exchange) -> Outcome:
        async with self.gate:
            await self.pacer.wait()
            if self.stopped:
                return Outcome(None, False, errors=(INTERRUPTED,), sent=False)
            exchange.attempts += 1
            self.watch.sending(exchange)
            self.in_flight += 1
            try:
                sent = await _post(
                    self.client, exchange.url, encode(exchange.body), self.route.base_url, self.options.timeout
                )
            finally:
                self.in_flight -= 1
            exchange.seconds += sent.trace.seconds
            answer = sent.trace.response_body[:RESPONSE_KEPT].decode("utf-8", "replace")
            exchange.response = answer if sent.trace.status is not None else sent.trace.error
        self.watch.trace(sent.trace)
        return sent.outcome


def send_all(
    first: Sequence[Exchange],
    route: Route,
    options: SendOptions,
    watch: Watcher | None = None,
    transport: httpx.AsyncBaseTransport | None = None,
    interruptible: bool = False,
) -> tuple[list[Exchange], bool]:
    """Send the planned exchanges until every record has its final answer; and whether the run was stopped.

    `interruptible`: SIGINT or SIGTERM stops new requests and lets those in flight finish; a
    second one ends the process at once (the journal is already written up to that instant).
    """

    # Without structlog, stamina logs each retry as a bare "stamina.retry_scheduled" line on stderr;
    # retries show in --verbose traces and in the attempts of each request instead.
    stamina.instrumentation.set_on_retry_hooks([])

    async def go() -> tuple[list[Exchange], bool]:
        async with _client(options, transport) as client:
            sender = Sender(route, options, client, watch)
            with _stop_on_signals(sender, interruptible):
                exchanges = await sender.run(first)
            return exchanges, sender.stopped

    return asyncio.run(go())


@contextmanager
def _stop_on_signals(sender: Sender, enabled: bool) -> Iterator[None]:
    if not enabled or threading.current_thread() is not threading.main_thread():
        yield
        return
    loop = asyncio.get_running_loop()

    def on_signal() -> None:
        if sender.stopped:
            # The journal is committed step by step, so ending here loses nothing it has not said.
            sys.stderr.write(("\x1b[?25h" if sys.stderr.isatty() else "") + "\ninterrupted again: stopped at once\n")
            sys.stderr.flush()
            os._exit(int(ExitCode.INTERRUPTED))
        sender.stop()
        sender.watch.interrupted(sender.in_flight)

    signals = [s for s in (signal.SIGINT, signal.SIGTERM)]
    for number in signals:
        loop.add_signal_handler(number, on_signal)
    try:
        yield
    finally:
        for number in signals:
            loop.remove_signal_handler(number)


def send_raw(
    posts: Sequence[tuple[str, bytes]],
    options: SendOptions,
    transport: httpx.AsyncBaseTransport | None = None,
    on_trace: Callable[[Trace], None] | None = None,
) -> list[Sent]:
    """POST each (url, bytes) exactly as given, once and in order: no retries, no splitting (replay)."""

    async def go() -> list[Sent]:
        sent: list[Sent] = []
        async with _client(options, transport) as client:
            for url, content in posts:
                parts = urlsplit(url)
                one = await _post(client, url, content, f"{parts.scheme}://{parts.netloc}", options.timeout)
                if on_trace is not None:
                    on_trace(one.trace)
                sent.append(one)
        return sent

    return asyncio.run(go())
