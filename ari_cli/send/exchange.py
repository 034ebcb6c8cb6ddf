"""What a request is and what came of it: the sender's vocabulary, without HTTP.

Planning, results, reports and the journal speak of requests and their outcomes; only sending
needs an HTTP client. Keeping these apart from `send` lets a dry run start without loading one.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ari_cli.config.tuning import Budget


@dataclass(frozen=True, slots=True)
class SendOptions:
    """How requests go out; the wait_* values shape the backoff between tries."""

    concurrency: int = 4
    rate: float = 0.0
    timeout: float = 30.0
    retries: int = 3
    wait_initial: float = 0.5
    wait_max: float = 30.0
    wait_jitter: float = 1.0
    per_property: Budget | None = None  # at most so many request starts per property in any window


@dataclass(frozen=True, slots=True)
class Problem:
    """One error of a request: the body code and message, with the HTTP status beside them."""

    code: int | None
    message: str
    http_status: int | None
    hint: str | None = None


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one try of a request came to."""

    http_status: int | None
    success: bool
    trackingid: str | None = None
    errors: tuple[Problem, ...] = ()
    transient: bool = False
    retry_after: float | None = None
    sent: bool = True  # False: a stopped run never sent it


INTERRUPTED = Problem(None, "not sent: the run was interrupted before this request went out", None,
                      "run `ari-cli retry RUN` to send what is left (`ari-cli history` shows the run)")  # fmt: skip
ABANDONED = Problem(None, "not confirmed: the run was interrupted while this request was in flight", None,
                    "the service may or may not have applied it; `ari-cli retry RUN` sends it again")  # fmt: skip


@dataclass(slots=True)
class Exchange:
    """One request sent (or planned): its records, body, tries and final outcome.

    A planned request's body is made from its records each time it is asked for (`make`, shared by the
    run's requests), and let go once sent or shown: a run's bodies are never all held at once (a
    weekday-filtered file's 1.7 million records made 300 MB of them). A body given whole (`given`: a
    journaled or replayed one) is kept. A policy is a request of its own, so a file of 200,000 policies is
    as many exchanges: their fields are slots.
    """

    id: int
    propertyid: str
    records: Sequence[int]
    given: dict[str, Any] | None
    url: str
    parent: int | None = None
    attempts: int = 0
    outcome: Outcome | None = None
    children: tuple[int, ...] = ()
    seconds: float = 0.0
    response: str | None = None  # the last answer's body as text (or why there was none), for the journal
    make: Callable[[Sequence[int]], dict[str, Any]] | None = field(default=None, compare=False, repr=False)
    """Makes the body of some records (this request's)."""

    @property
    def body(self) -> dict[str, Any]:
        """The request's body: the one given, or made afresh from its records (the same every time)."""
        if self.given is not None:
            return self.given
        assert self.make is not None, "an exchange has a body or a way to make it"
        return self.make(self.records)

    @body.setter
    def body(self, body: dict[str, Any]) -> None:
        self.given = body

    @property
    def final(self) -> bool:
        return not self.children


@dataclass(frozen=True, slots=True)
class Trace:
    """One HTTP try as it went over the wire (for --verbose and replay); `status` None: no answer."""

    method: str
    url: str
    request_headers: tuple[tuple[str, str], ...]
    body: bytes
    seconds: float
    status: int | None = None
    response_headers: tuple[tuple[str, str], ...] = ()
    response_body: bytes = b""
    error: str | None = None


@dataclass(frozen=True, slots=True)
class Sent:
    """A body sent once as given (replay): the exchange on the wire and what it means."""

    trace: Trace
    outcome: Outcome


@dataclass(frozen=True, slots=True)
class Route:
    """How to rebuild a body for a subset of a request's records, and whom failures name."""

    build: Callable[[Sequence[int]], dict[str, Any]]
    base_url: str


class Watcher:
    """Hears what the sender does, in the event loop's thread; the base hears nothing."""

    def sending(self, exchange: Exchange) -> None:
        """A try of `exchange` is about to go out."""

    def answered(self, exchange: Exchange, halves: Sequence[Exchange]) -> None:
        """`exchange` has its outcome; `halves` replace it when it was split."""

    def final(self, exchange: Exchange) -> None:
        """`exchange` is the last word for its records."""

    def trace(self, trace: Trace) -> None:
        """One HTTP try as it went over the wire."""

    def interrupted(self, in_flight: int) -> None:
        """The run was asked to stop; `in_flight` requests are abandoned, not confirmed."""


class Tee(Watcher):
    """Several watchers heard in turn."""

    def __init__(self, *watchers: Watcher) -> None:
        self.watchers = watchers

    def sending(self, exchange: Exchange) -> None:
        for w in self.watchers:
            w.sending(exchange)

    def answered(self, exchange: Exchange, halves: Sequence[Exchange]) -> None:
        for w in self.watchers:
            w.answered(exchange, halves)

    def final(self, exchange: Exchange) -> None:
        for w in self.watchers:
            w.final(exchange)

    def trace(self, trace: Trace) -> None:
        for w in self.watchers:
            w.trace(trace)

    def interrupted(self, in_flight: int) -> None:
        for w in self.watchers:
            w.interrupted(in_flight)


def encode(body: dict[str, Any]) -> bytes:
    """The exact bytes sent for a body."""
    return json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()
