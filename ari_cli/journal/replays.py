"""`replay` journaled like a push: each body a request with the records it sets, its answer, its dates.

A replayed body is a partner's exact call, not a file's rows: its records are what its `data` (or a
policy's fields) say, one row per body (the file and line it starts on), and it is kept as sent
(key masked), since records need not rebuild it. Acknowledged, its dates are what the service holds,
as a push's are: `calendar`, `history find` and `--changed-only` know of them.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ari_cli.journal.recorder import Recorder
from ari_cli.journal.store import Journal, RunStart
from ari_cli.planning.plan import Plan, Record
from ari_cli.records.rules import RowView
from ari_cli.records.table import RowTable
from ari_cli.send.exchange import Exchange, Sent
from ari_cli.wire.operations import Operation

_FIELDS = {Operation.THRESHOLD: "threshold", Operation.MAXADV: "time"}


@dataclass(frozen=True, slots=True)
class Replayed:
    """One body as replayed: where it came from and where it went."""

    source: str
    line: int
    url: str
    document: dict[str, Any]


def _day(value: Any) -> dt.date | None:
    try:
        return dt.date.fromisoformat(value) if isinstance(value, str) else None
    except ValueError:
        return None


def sets(operation: Operation, document: Mapping[str, Any]) -> Iterator[tuple[tuple[str, ...], dt.date, dt.date, str]]:
    """The (key, start, end, value) a body sets, as the service reads it; what does not read so sets nothing."""
    propertyid = document.get("propertyid")
    if not isinstance(propertyid, str):
        return
    if operation is Operation.POLICY:
        start, end = _day(document.get("startdate")), _day(document.get("enddate"))
        room, rate = document.get("roomid"), document.get("rateid")
        if start and end and isinstance(room, str) and isinstance(rate, str) and "policydetails" in document:
            yield (propertyid, room, rate), start, end, ""  # the value is the body's policy (the recorder's rule)
        return
    data = document.get("data")
    for item in data if isinstance(data, list) else [data]:
        if not isinstance(item, dict):
            continue
        start, end = _day(item.get("startdateymd")), _day(item.get("enddateymd"))
        value, room, rate = item.get(_FIELDS[operation]), item.get("roomid"), item.get("rateid")
        if not (start and end and isinstance(room, str) and isinstance(value, str | int)):
            continue
        if operation is Operation.MAXADV and not isinstance(rate, str):
            continue
        key: tuple[str, ...] = (propertyid, room, str(rate)) if operation is Operation.MAXADV else (propertyid, room)
        yield key, start, end, str(value)


class ReplayRecord:
    """One replay run in the journal: planned before the bodies go, answered after."""

    def __init__(self, journal: Journal, warn: Callable[[str], None], start: RunStart, bodies: Sequence[Replayed]):
        operation = Operation(start.operation)
        table = RowTable.of_views([RowView(b.source, b.line, str(b.document.get("propertyid", ""))) for b in bodies])
        records: list[Record] = []
        self.exchanges: list[Exchange] = []
        for number, body in enumerate(bodies):
            mine = []
            for key, first, last, value in sets(operation, body.document):
                mine.append(len(records))
                records.append(Record(key, first, last, value, (number,)))
            propertyid = str(body.document.get("propertyid", ""))
            self.exchanges.append(Exchange(number + 1, propertyid, tuple(mine), body.document, body.url))
        self.recorder = Recorder(journal, warn, keep_bodies=True)
        self.recorder.start(start)
        self.recorder.plan(operation, table, Plan(records), self.exchanges)

    def answered(self, sent: Sequence[Sent], summary: dict[str, int], exit_code: int) -> None:
        """What each body got, in order; then the run's end."""
        for exchange, each in zip(self.exchanges, sent, strict=True):
            exchange.outcome, exchange.attempts = each.outcome, 1
            exchange.seconds = each.trace.seconds
            exchange.response = each.trace.response_body.decode("utf-8", "replace") or each.trace.error
            self.recorder.sending(exchange)
            self.recorder.answered(exchange, ())
        self.recorder.finish(summary, exit_code)

    def drain(self) -> None:
        self.recorder.drain()
