"""Between a push run and the journal: what a run's rows, records, requests and answers become there.

The journal is a record, not a gate: when it cannot be written, the run goes on and says so once.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, TypeVar

from ari_cli.batch import policy_value, wire_value
from ari_cli.journal.database import journal_path
from ari_cli.journal.store import (
    FAILED,
    OK,
    Answer,
    Journal,
    RecordEntry,
    RequestEntry,
    RowEntry,
    RowOutcome,
    RunStart,
)
from ari_cli.plan import Record
from ari_cli.records.rules import RowView
from ari_cli.results import RowResult
from ari_cli.send.exchange import Exchange, Problem, Watcher
from ari_cli.wire.operations import Operation

T = TypeVar("T")
_FIELD = {Operation.THRESHOLD: "threshold", Operation.MAXADV: "time"}


def fragments(operation: Operation, exchanges: Iterable[Exchange]) -> dict[int, dict[str, Any] | None]:
    """Each record's own part of its request's `data`, so that a retry can split a request again."""
    found: dict[int, dict[str, Any] | None] = {}
    for exchange in exchanges:
        data = exchange.body.get("data")
        for position, record in enumerate(exchange.records):
            if operation is Operation.POLICY or data is None:
                found[record] = None
            else:
                found[record] = data[position] if isinstance(data, list) else data
    return found


def row_entries(views: Sequence[RowView]) -> Iterable[RowEntry]:
    return (
        RowEntry(i, v.source, v.line, v.propertyid, v.roomid, v.rateid, v.dates, v.value) for i, v in enumerate(views)
    )


def record_entries(
    operation: Operation, records: Sequence[Record], exchanges: Sequence[Exchange]
) -> Iterable[RecordEntry]:
    """Each record with its value as the body carries it (a policy's body is its one record)."""
    parts = fragments(operation, exchanges)
    policies = {e.records[0]: policy_value(e.body) for e in exchanges if operation is Operation.POLICY}
    for index, record in enumerate(records):
        fragment = parts.get(index)
        if fragment is not None:
            value = str(fragment[_FIELD[operation]])
        else:
            value = policies[index] if index in policies else wire_value(operation, record)
        rate = record.key[2] if len(record.key) > 2 else ""
        yield RecordEntry(index, record.key[0], record.key[1], rate, record.start, record.end, value, fragment,
                          record.refs)  # fmt: skip


def request_entry(exchange: Exchange) -> RequestEntry:
    return RequestEntry(exchange.id, exchange.propertyid, exchange.url, exchange.body, exchange.records,
                        exchange.parent)  # fmt: skip


def problem_dict(problem: Problem) -> dict[str, Any]:
    return {"code": problem.code, "message": problem.message, "http_status": problem.http_status}


class Recorder(Watcher):
    """Writes one run's requests to the journal as the sender reports them."""

    def __init__(self, journal: Journal, warn: Callable[[str], None]) -> None:
        self.journal = journal
        self.warn = warn
        self.run: int | None = None
        self.broken = False

    def _write(self, call: Callable[..., T], *args: Any) -> T | None:
        if self.broken:
            return None
        try:
            return call(*args)
        except sqlite3.Error as error:
            self.broken = True
            self.warn(f"the journal {self.journal.path} could not be written ({error}); the run goes on unrecorded")
            return None

    def start(self, start: RunStart) -> int | None:
        self.run = self._write(self.journal.start_run, start)
        return self.run

    def plan(
        self, operation: Operation, views: Sequence[RowView], records: Sequence[Record], exchanges: Sequence[Exchange]
    ) -> None:
        if self.run is None:
            return
        requests = [request_entry(e) for e in exchanges]
        self._write(self.journal.plan, self.run, row_entries(views), record_entries(operation, records, exchanges),
                    requests)  # fmt: skip

    def sending(self, exchange: Exchange) -> None:
        if self.run is not None:
            self._write(self.journal.sending, self.run, exchange.id)

    def answered(self, exchange: Exchange, halves: Sequence[Exchange]) -> None:
        if self.run is None or exchange.outcome is None:
            return
        outcome = exchange.outcome
        if not outcome.sent:
            self._write(self.journal.unsent, self.run, exchange.id)
            return
        answer = Answer(
            state=OK if outcome.success else FAILED,
            transient=outcome.transient,
            attempts=exchange.attempts,
            http_status=outcome.http_status,
            trackingid=outcome.trackingid,
            errors=[problem_dict(p) for p in outcome.errors],
            response=exchange.response,
            seconds=exchange.seconds,
        )
        self._write(self.journal.answered, self.run, exchange.id, answer, [request_entry(h) for h in halves])

    def finish(self, outcomes: Iterable[RowOutcome], summary: dict[str, int], exit_code: int) -> None:
        if self.run is not None:
            self._write(self.journal.finish, self.run, outcomes, summary, exit_code)


def open_journal(env: Mapping[str, str], warn: Callable[[str], None]) -> Journal | None:
    """The journal, or None (said once) when it cannot be opened: a run is not stopped for its record."""
    path = journal_path(env)
    try:
        return Journal(path)
    except (sqlite3.Error, OSError) as error:
        warn(f"the journal {path} cannot be opened ({error}); this run is not recorded")
        return None


def row_outcomes(rows: Iterable[RowResult]) -> Iterable[RowOutcome]:
    for row in rows:
        yield RowOutcome(row.index, row.status.value, row.trackingids, [problem_dict(p) for p in row.errors], row.note)
