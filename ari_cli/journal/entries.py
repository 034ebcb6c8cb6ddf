"""What a run hands the journal's store: the run as it starts, its records, requests and notes, an answer."""

from __future__ import annotations

import datetime as dt
import getpass
import socket
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any, NamedTuple


@dataclass(frozen=True, slots=True)
class RunStart:
    """What is known of a run before it sends."""

    command: str
    operation: str
    profile: str | None
    base_url: str
    source_id: str
    options: dict[str, Any]
    files: Sequence[str] = ()
    retry_of: int | None = None
    sandbox: bool = False
    sharepost: str | None = None  # the key as bodies show it: masked

    def retrying(self, run: int) -> RunStart:
        return replace(self, files=(), retry_of=run)


class RecordEntry(NamedTuple):
    """A planned record: its key, dates, value as the service is told it, and the lines it came from.

    A tuple, not a frozen dataclass: a night's run makes a hundred thousand of them before it sends."""

    idx: int
    propertyid: str
    roomid: str
    rateid: str
    start: dt.date
    end: dt.date
    value: str
    lines: str


@dataclass(frozen=True, slots=True)
class RequestEntry:
    """A request: records first .. first + count - 1; `body` only when records cannot rebuild it."""

    id: int
    propertyid: str
    url: str
    first: int
    count: int
    body: dict[str, Any] | None = None
    form: str | None = None
    parent: int | None = None
    state: str = "planned"  # or superseded: a retry's, left out for a later acknowledged value, never sent


@dataclass(frozen=True, slots=True)
class NoteEntry:
    """Rows that send nothing (`status`: skipped, invalid, not sent) or that have something to say (None)."""

    status: str | None
    note: str
    lines: str
    errors: Sequence[str] = ()
    view: tuple[str, str, str, str, str] | None = None  # an invalid row as written: ids, dates, value


@dataclass(frozen=True, slots=True)
class PlanEntry:
    """Everything a run means to send, before the first request goes out."""

    sources: Sequence[str]
    rows: int
    records: Iterable[RecordEntry]
    requests: Iterable[RequestEntry]
    notes: Iterable[NoteEntry]


@dataclass(frozen=True, slots=True)
class Answer:
    """What one try of a request came to, as the journal keeps it."""

    state: str
    transient: bool
    attempts: int
    http_status: int | None
    trackingid: str | None
    errors: list[dict[str, Any]]
    response: str | None
    seconds: float


@dataclass(frozen=True, slots=True)
class Answered:
    """A request's answer as the recorder hands it to the store: `halves` replace the request when it was split;
    `acknowledged` are its records as the service now holds them, when it was acknowledged."""

    request: int
    answer: Answer
    halves: Sequence[RequestEntry] = ()
    acknowledged: Sequence[RecordEntry] = ()


def who() -> tuple[str, str]:
    """The user and host running this process: what the journal records of who ran a run."""
    try:
        user = getpass.getuser()
    except (KeyError, OSError):  # no name for the uid (a container's)
        user = ""
    return user or "unknown", socket.gethostname() or "unknown"
