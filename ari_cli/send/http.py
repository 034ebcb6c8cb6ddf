"""The sender: a run's requests through `transport.py` (the only module that talks HTTP).

Requests go out with bounded concurrency and rate, and within each property's budget (`pacing.py`, counted
when a request goes on the wire); transient failures (connection errors, timeouts, HTTP 500/502/503/504,
code 408, a gateway's 429) are retried with capped exponential backoff and jitter (stamina), honouring
`Retry-After` up to a minute; a gateway's 429 pauses its whole property that long.

A refusal goes as far as it reaches (`refusals.py`): a record-level one splits its request in halves within a
budget per property; one about the property, the endpoint or the account holds back the requests it reaches.

A sending slot is an `httpx.AsyncClient` of its own with one connection: httpcore's pool walks all its
connections on every request (encode/httpcore#1035), so one shared pool made 32 requests at a time slower
than 4. An integrator's client is shared by every slot, as given.

Every request is bounded: `timeout` covers connecting, sending, waiting and reading, and an answer
over `ANSWER_LIMIT` bytes is not read further; whatever `httpx.AsyncClient` sends, an integrator's
included. A stopped run (`stopping.Stop`, or Ctrl-C in the calling thread) abandons what is in
flight at once. Nothing here touches the process: no signal handlers, no exits, no global hooks.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable, Sequence
from contextlib import AsyncExitStack
from dataclasses import replace
from urllib.parse import urlsplit

import httpx
import stamina

from ari_cli.config.secrets import scrub
from ari_cli.send import stopping
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
from ari_cli.send.pacing import Windows
from ari_cli.send.refusals import Refusals
from ari_cli.send.transport import RESPONSE_KEPT, UNREACHED, check_environment, open_clients, post
from ari_cli.wire.errors import WHOLE, Reach, reach


def _tried(outcome: Outcome, attempts: int) -> Outcome:
    """A request's last failure, saying that it was retried where it was (not with --retries 0)."""
    if attempts < 2:
        return outcome
    said = tuple(replace(p, hint=f"{UNREACHED}; the request was retried") if p.hint == UNREACHED else p
                 for p in outcome.errors)  # fmt: skip
    return replace(outcome, errors=said)


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
    """Sends a run's requests, splits record-level failures and holds back what a refusal reaches; returns
    every exchange."""

    def __init__(
        self,
        route: Route,
        options: SendOptions,
        clients: Sequence[httpx.AsyncClient],
        watch: Watcher | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.route = route
        self.options = options
        # The sending slots: a request in flight holds one client, so their number bounds what is in flight.
        self.free: asyncio.Queue[httpx.AsyncClient] = asyncio.Queue()
        for client in clients:
            self.free.put_nowait(client)
        self.watch = watch or Watcher()
        self.exchanges: list[Exchange] = []
        self.pacer = _Pacer(options.rate)
        self.windows = Windows(options.per_property, clock)
        self.stopped = False
        self.flying: set[int] = set()  # ids of the exchanges whose try is on the wire
        self.last: dict[int, Outcome] = {}  # each exchange's last answered try
        self.tasks: set[asyncio.Task[None]] = set()
        self.refusals = Refusals()

    @property
    def in_flight(self) -> int:
        return len(self.flying)

    def stop(self) -> None:
        """Send nothing new, retry nothing, and abandon what is in flight or waiting, at once (in the loop's thread)."""
        if self.stopped:
            return
        self.stopped = True
        self.watch.interrupted(self.in_flight)
        for task in self.tasks:
            task.cancel()

    async def run(self, first: Sequence[Exchange]) -> list[Exchange]:
        self.exchanges.extend(first)
        self.refusals.plan(first)
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
        """Start each request's task when a slot is free for it; a stop ends this at once.

        A task per request made up front held every request's coroutines at once, which the garbage
        collector went through again and again.
        """
        try:
            for exchange in first:
                client = await self.free.get()
                self._start(exchange, group, client)
        except asyncio.CancelledError:
            if not self.stopped:
                raise

    def _start(self, exchange: Exchange, group: asyncio.TaskGroup, client: httpx.AsyncClient | None = None) -> None:
        """Deliver `exchange` in a task; `client`: the slot taken for its first try already."""
        if self.stopped:
            if client is not None:
                self.free.put_nowait(client)
            return
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

    async def _deliver(self, exchange: Exchange, group: asyncio.TaskGroup, client: httpx.AsyncClient | None) -> None:
        try:
            outcome = await self._with_retries(exchange, client)
        except asyncio.CancelledError:
            if not self.stopped:
                raise
            outcome = self._abandoned(exchange)
        first = outcome.errors[0] if outcome.errors and outcome.sent else None
        scope = reach(first.code, first.http_status) if first is not None and not outcome.success else None
        if scope is Reach.RECORD and len(exchange.records) > 1:
            if self.refusals.may_split(exchange):
                exchange.outcome = outcome
                self._split(exchange, group)
                return
            outcome = replace(outcome, errors=(*outcome.errors, self.refusals.not_isolated(exchange)))
        elif scope in WHOLE and first is not None:
            self.refusals.refuse(exchange, scope, first)
        exchange.outcome = outcome
        self.watch.answered(exchange, ())
        self.watch.final(exchange)

    def _split(self, exchange: Exchange, group: asyncio.TaskGroup) -> None:
        """Send `exchange`'s records again in two halves, each on its own."""
        half = len(exchange.records) // 2
        children = []
        for part in (exchange.records[:half], exchange.records[half:]):
            child = Exchange(
                len(self.exchanges) + 1, exchange.propertyid, part, None,
                exchange.url, parent=exchange.id, make=self.route.build,
            )  # fmt: skip
            self.exchanges.append(child)
            children.append(child)
        self.refusals.splitting(exchange, len(children))
        exchange.children = tuple(c.id for c in children)
        self.watch.answered(exchange, children)
        for child in children:
            self._start(child, group)

    def _again(self, exchange: Exchange, outcome: Outcome) -> bool:
        """Whether a try is worth another: it failed for a passing reason, and nothing holds its request back."""
        return outcome.transient and not self.stopped and self.refusals.held_back(exchange) is None

    async def _with_retries(self, exchange: Exchange, client: httpx.AsyncClient | None) -> Outcome:
        outcome = await self._once(exchange, client)
        if not self._again(exchange, outcome):
            return outcome
        # Only a request that failed for a passing reason enters the retry context (built per request):
        # its first attempt is the try just made, so the waits are stamina's.
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
                    if self._again(exchange, outcome):
                        raise _Transient(outcome)
                    return outcome
        except _Transient as last:
            return _tried(last.outcome, exchange.attempts)
        raise AssertionError("stamina ends with a return or the last exception")  # pragma: no cover

    async def _turn(self, exchange: Exchange, client: httpx.AsyncClient | None) -> httpx.AsyncClient | None:
        """Wait for a slot, the global rate and a place in the property's window, in that order; return the slot's
        client, with the place claimed; or None, holding nothing, when a refusal holds the request back.

        A property waiting for its window gives its slot back meanwhile, so that other properties go on.
        """
        while True:
            if client is None:
                client = await self.free.get()
            try:
                if self.refusals.held_back(exchange) is None:
                    await self.pacer.wait()
                if self.refusals.held_back(exchange) is not None:
                    self.free.put_nowait(client)
                    return None
                wait = self.windows.claim(exchange.propertyid)
            except BaseException:
                self.free.put_nowait(client)
                raise
            if wait <= 0:
                return client
            self.free.put_nowait(client)
            client = None
            await asyncio.sleep(wait)

    async def _once(self, exchange: Exchange, client: httpx.AsyncClient | None = None) -> Outcome:
        """One try, with a slot taken for it (`client`: taken already); the slot is given back either way."""
        slot = await self._turn(exchange, client)
        if slot is None:
            held = self.refusals.held_back(exchange)
            assert held is not None
            # A request tried before keeps its last answer: it may have arrived. One never sent says why not.
            return self.last.get(exchange.id) or Outcome(None, False, errors=(held,), sent=False)
        wire = _OnWire(self.windows, exchange.propertyid)
        try:
            if self.stopped:
                return Outcome(None, False, errors=(INTERRUPTED,), sent=False)
            exchange.attempts += 1
            self.watch.sending(exchange)
            self.flying.add(exchange.id)
            body, timeout = encode(exchange.body), self.options.timeout
            sent = await post(slot, exchange.url, body, self.route.base_url, timeout, wire.written)
            self.flying.discard(exchange.id)
            self.last[exchange.id] = sent.outcome
            exchange.seconds += sent.trace.seconds
            answer = scrub(sent.trace.response_body[:RESPONSE_KEPT].decode("utf-8", "replace"))
            exchange.response = answer if sent.trace.status is not None else sent.trace.error
        finally:
            wire.settle()
            self.free.put_nowait(slot)
        outcome = sent.outcome
        if _gateway_limit(outcome) and outcome.retry_after:
            # A gateway's rate limit is the property's, not this request's: the others of it wait too.
            self.windows.pause(exchange.propertyid, outcome.retry_after)
        self.watch.trace(sent.trace)
        return outcome


class _OnWire:
    """A claimed place in a property's window, counted from when its request goes on the wire (`written`, which
    the transport calls), or given back (`settle`) when it never did."""

    def __init__(self, windows: Windows, propertyid: str) -> None:
        self.windows = windows
        self.propertyid = propertyid
        self.sent = False

    def written(self) -> None:
        self.sent = True
        self.windows.written(self.propertyid)

    def settle(self) -> None:
        if not self.sent:
            self.windows.release(self.propertyid)


def _gateway_limit(outcome: Outcome) -> bool:
    """A 429 whose body was not the service's JSON (the service's own 429 carries code 452)."""
    return outcome.http_status == 429 and bool(outcome.errors) and outcome.errors[0].code is None


def send_all(
    first: Sequence[Exchange],
    route: Route,
    options: SendOptions,
    watch: Watcher | None = None,
    interruptible: bool = False,
    client: httpx.AsyncClient | None = None,
    stop: stopping.Stop | None = None,
) -> tuple[list[Exchange], bool]:
    """Send the planned exchanges until every record has its final answer; and whether the run was stopped.

    `client`: an integrator's httpx client, shared by the sending slots (kept open; the bounds apply to it all
    the same); else each slot gets a client of its own for the route's base URL. `stop` stops the run from a
    signal handler or another thread; `interruptible` without one: the `Stop` the command line lent
    (`stopping.lent`). Ctrl-C in the calling thread stops the run too, after which the exchanges are settled
    as for a stop.
    """
    if stop is None and interruptible:
        stop = stopping.current()
    if client is None:
        check_environment(route.base_url)  # before the loop: the environment's mistakes are configuration errors

    running: list[asyncio.Task[tuple[list[Exchange], bool]]] = []

    async def go() -> tuple[list[Exchange], bool]:
        task = asyncio.current_task()
        if task is not None:
            running.append(task)
        async with AsyncExitStack() as stack:
            if client is not None:
                slots = [client] * options.concurrency
            else:
                slots = [
                    await stack.enter_async_context(one) for one in open_clients(route.base_url, options.concurrency)
                ]
            sender = Sender(route, options, slots, watch)
            if stop is not None:
                stop.attach(asyncio.get_running_loop(), sender.stop)
            work = asyncio.create_task(sender.run(first))
            try:
                exchanges = await asyncio.shield(work)
            except asyncio.CancelledError:
                # Ctrl-C in the calling thread (asyncio cancels the run's task for it): stop, settle, say so.
                task = asyncio.current_task()
                if task is not None:
                    task.uncancel()
                sender.stop()
                exchanges = await work
            finally:
                if stop is not None:
                    stop.detach()
            return exchanges, sender.stopped

    with asyncio.Runner() as runner:
        try:
            return runner.run(go())
        except KeyboardInterrupt:
            if not running or running[0].done():
                raise
            # Raised in the loop by the calling program's own Ctrl-C handler: asyncio cancels the run's task
            # itself only under Python's default handler. Cancel it as asyncio would: the run stops and settles.
            running[0].cancel()
            return runner.get_loop().run_until_complete(running[0])


def send_raw(
    posts: Sequence[tuple[str, bytes]],
    options: SendOptions,
    on_trace: Callable[[Trace], None] | None = None,
) -> list[Sent]:
    """POST each (url, bytes) exactly as given, once and in order: no retries, no splitting (replay).

    The budget per property holds here too: a body's property is its `propertyid`, when it has one.
    """

    def base(url: str) -> str:
        parts = urlsplit(url)
        return f"{parts.scheme}://{parts.netloc}"

    for url, _ in posts:
        check_environment(base(url))

    async def go() -> list[Sent]:
        sent: list[Sent] = []
        windows = Windows(options.per_property)
        async with AsyncExitStack() as stack:
            clients: dict[str, httpx.AsyncClient] = {}  # by base URL: each has its own proxy rule
            for url, content in posts:
                where = base(url)
                if where not in clients:
                    [clients[where]] = [await stack.enter_async_context(one) for one in open_clients(where, 1)]
                propertyid = _property_of(content)
                while (wait := windows.claim(propertyid)) > 0:
                    await asyncio.sleep(wait)
                wire = _OnWire(windows, propertyid)
                one = await post(clients[where], url, content, where, options.timeout, wire.written)
                wire.settle()
                if on_trace is not None:
                    on_trace(one.trace)
                sent.append(one)
        return sent

    return asyncio.run(go())


def _property_of(content: bytes) -> str:
    """The `propertyid` a body names ("" when it names none, or is not JSON: those share one budget)."""
    try:
        body = json.loads(content)
    except ValueError:
        return ""
    found = body.get("propertyid") if isinstance(body, dict) else None
    return found if isinstance(found, str) else ""
