"""The sender: a run's requests through `transport.py` (the only module that talks HTTP).

Requests go out with bounded concurrency and rate; transient failures (connection errors,
timeouts, HTTP 500/502/503/504 and code 408) are retried with capped exponential backoff and
jitter (stamina), honouring `Retry-After` up to a minute. A request of several records that fails
with a record-level error is split in halves and re-sent until each failing record stands alone.

Every request is bounded: `timeout` covers connecting, sending, waiting and reading, and an answer
over `ANSWER_LIMIT` bytes is not read further. A stopped run abandons what is in flight at once.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from contextlib import AsyncExitStack, asynccontextmanager, contextmanager
from urllib.parse import urlsplit

import stamina

from ari_cli.config.secrets import scrub
from ari_cli.exits import ExitCode
from ari_cli.send.exchange import (
    ABANDONED,
    INTERRUPTED,
    Exchange,
    Outcome,
    Route,
    SendOptions,
    Sent,
    Trace,
    Watcher,
    encode,
)
from ari_cli.send.transport import RESPONSE_KEPT, Pool, needs_tls, open_pool, post, proxy_for, say_asyncio, tls_context
from ari_cli.wire.errors import RECORD_LEVEL_CODES


@asynccontextmanager
async def _slots(options: SendOptions, url: str) -> AsyncIterator[asyncio.Queue[Pool]]:
    """One pool of one connection per request in flight, taken from a queue and given back.

    httpcore looks through every connection of a pool for each request; with one pool of N
    connections that scan, not the service, bounded a run at high concurrency. One TLS context
    is shared (and made only for https): building one per pool would cost more than the scan saved.
    """
    tls = tls_context() if needs_tls([url]) else None
    free: asyncio.Queue[Pool] = asyncio.Queue()
    async with AsyncExitStack() as stack:
        for _ in range(options.concurrency):
            free.put_nowait(await stack.enter_async_context(open_pool(url, 1, tls)))
        yield free


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
        self,
        route: Route,
        options: SendOptions,
        clients: asyncio.Queue[Pool],
        watch: Watcher | None = None,
    ) -> None:
        self.route = route
        self.options = options
        self.clients = clients  # also the bound on requests in flight: one each
        self.watch = watch or Watcher()
        self.exchanges: list[Exchange] = []
        self.pacer = _Pacer(options.rate)
        self.stopped = False
        self.flying: set[int] = set()  # ids of the exchanges whose try is on the wire
        self.last: dict[int, Outcome] = {}  # each exchange's last answered try
        self.tasks: set[asyncio.Task[None]] = set()

    @property
    def in_flight(self) -> int:
        return len(self.flying)

    def stop(self) -> None:
        """Send nothing new, retry nothing, and abandon what is in flight or waiting, at once."""
        self.stopped = True
        for task in self.tasks:
            task.cancel()

    async def run(self, first: Sequence[Exchange]) -> list[Exchange]:
        self.exchanges.extend(first)
        async with asyncio.TaskGroup() as group:
            self._track(group.create_task(self._dispatch(first, group)))
        # What never went out: not started, or stopped before its task ran at all (so before its handler).
        for exchange in self.exchanges:
            if exchange.outcome is None and exchange.final:
                exchange.outcome = self._abandoned(exchange)
                self.watch.answered(exchange, ())
                self.watch.final(exchange)
        return sorted(self.exchanges, key=lambda e: e.id)

    async def _dispatch(self, first: Sequence[Exchange], group: asyncio.TaskGroup) -> None:
        """Start each request's task when a connection is free for it; a stop ends this at once.

        A task per request made up front held every request's coroutines at once, which the garbage
        collector went through again and again (a tenth of a 20,000-request run).
        """
        try:
            for exchange in first:
                self._start(exchange, group, await self.clients.get())
        except asyncio.CancelledError:
            if not self.stopped:
                raise

    def _start(self, exchange: Exchange, group: asyncio.TaskGroup, client: Pool | None = None) -> None:
        """Deliver `exchange` in a task; its first try on `client` when given (else it waits for one)."""
        if not self.stopped:
            self._track(group.create_task(self._deliver(exchange, group, client)))

    def _track(self, task: asyncio.Task[None]) -> None:
        """A task that a stop cancels."""
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def _abandoned(self, exchange: Exchange) -> Outcome:
        """What a try cut short by a stop comes to: its request may or may not have arrived."""
        if exchange.id in self.flying:
            self.flying.discard(exchange.id)
            return Outcome(None, False, errors=(ABANDONED,), transient=True)
        if exchange.id in self.last:
            return self.last[exchange.id]  # it was waiting to be tried again after this
        return Outcome(None, False, errors=(INTERRUPTED,), sent=False)

    async def _deliver(self, exchange: Exchange, group: asyncio.TaskGroup, client: Pool | None) -> None:
        try:
            outcome = await self._with_retries(exchange, client)
        except asyncio.CancelledError:
            if not self.stopped:
                raise
            outcome = self._abandoned(exchange)
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
                self._start(child, group)
            return
        self.watch.answered(exchange, ())
        self.watch.final(exchange)

    async def _with_retries(self, exchange: Exchange, client: Pool | None) -> Outcome:
        outcome = await self._once(exchange, client)
        if not outcome.transient or self.stopped:
            return outcome
        # Only a request that failed for a passing reason enters the retry context (built per request,
        # it cost a twentieth of a run): its first attempt is the try just made, so the waits are stamina's.
        o = self.options
        tried: Outcome | None = outcome
        try:
            async for attempt in stamina.retry_context(
                on=_backoff_hook, attempts=o.retries + 1, timeout=None,
                wait_initial=o.wait_initial, wait_max=o.wait_max, wait_jitter=o.wait_jitter,
            ):  # fmt: skip
                with attempt:
                    if tried is None:
                        outcome = await self._once(exchange)
                    else:
                        outcome, tried = tried, None
                    if outcome.transient and not self.stopped:
                        raise _Transient(outcome)
                    return outcome
        except _Transient as last:
            return last.outcome
        raise AssertionError("stamina ends with a return or the last exception")  # pragma: no cover

    async def _once(self, exchange: Exchange, client: Pool | None = None) -> Outcome:
        """One try, on `client` or on the next free one (given back either way)."""
        if client is None:
            client = await self.clients.get()
        try:
            await self.pacer.wait()
            if self.stopped:
                return Outcome(None, False, errors=(INTERRUPTED,), sent=False)
            exchange.attempts += 1
            self.watch.sending(exchange)
            self.flying.add(exchange.id)
            sent = await post(client, exchange.url, encode(exchange.body), self.route.base_url, self.options.timeout)
            self.flying.discard(exchange.id)
            self.last[exchange.id] = sent.outcome
            exchange.seconds += sent.trace.seconds
            answer = scrub(sent.trace.response_body[:RESPONSE_KEPT].decode("utf-8", "replace"))
            exchange.response = answer if sent.trace.status is not None else sent.trace.error
        finally:
            self.clients.put_nowait(client)
        self.watch.trace(sent.trace)
        return sent.outcome


def send_all(
    first: Sequence[Exchange],
    route: Route,
    options: SendOptions,
    watch: Watcher | None = None,
    interruptible: bool = False,
) -> tuple[list[Exchange], bool]:
    """Send the planned exchanges until every record has its final answer; and whether the run was stopped.

    `interruptible`: SIGINT or SIGTERM stops the run at once: nothing new goes out, and requests in
    flight or waiting for a retry are abandoned (not confirmed). A second one ends the process.
    """

    # Without structlog, stamina logs each retry as a bare "stamina.retry_scheduled" line on stderr;
    # retries show in --verbose traces and in the attempts of each request instead.
    stamina.instrumentation.set_on_retry_hooks([])
    proxy_for(route.base_url)  # a proxy that cannot be used: a configuration error before anything goes out

    async def go() -> tuple[list[Exchange], bool]:
        say_asyncio()
        async with _slots(options, route.base_url) as clients:
            sender = Sender(route, options, clients, watch)
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
            # The journal is committed as the run goes: ending here loses at most the answers not yet
            # committed (the last group's), whose requests the journal keeps as not finished for `retry`.
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
    on_trace: Callable[[Trace], None] | None = None,
) -> list[Sent]:
    """POST each (url, bytes) exactly as given, once and in order: no retries, no splitting (replay)."""

    for url, _ in posts:
        proxy_for(url)  # a proxy that cannot be used: a configuration error before anything goes out

    async def go() -> list[Sent]:
        say_asyncio()
        sent: list[Sent] = []
        tls = tls_context() if needs_tls([url for url, _ in posts]) else None
        async with AsyncExitStack() as stack:
            pools: dict[str | None, Pool] = {}  # by the proxy each URL goes through (None: direct)
            for url, content in posts:
                proxy = proxy_for(url)
                if proxy not in pools:
                    pools[proxy] = await stack.enter_async_context(open_pool(url, 1, tls))
                parts = urlsplit(url)
                one = await post(pools[proxy], url, content, f"{parts.scheme}://{parts.netloc}", options.timeout)
                if on_trace is not None:
                    on_trace(one.trace)
                sent.append(one)
        return sent

    return asyncio.run(go())
