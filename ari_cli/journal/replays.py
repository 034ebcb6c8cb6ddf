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
from ari_cli.operations import of
from ari_cli.operations.descriptor import Level
from ari_cli.planning.plan import Plan, Record
from ari_cli.records.rules import RowView
from ari_cli.records.table import RowTable
from ari_cli.send.exchange import Exchange, Sent
from ari_cli.wire.operations import Operation


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
    described = of(operation)
    ids = described.key_fields[1:]  # the property id is the body's, the others each record's
    if not described.batched:  # a whole body: one record, on the body's own dates
        start, end = _day(document.get("startdate")), _day(document.get("enddate"))
        key = [document.get(name) for name in ids]
        if start and end and all(isinstance(i, str) for i in key) and document.keys() & described.body_keys:
            yield (propertyid, *map(str, key)), start, end, ""  # the value is the body's (the recorder's rule)
        return
    rule = described.rule
    assert isinstance(rule, Level), f"{operation} records carry no number"
    data = document.get("data")
    for item in data if isinstance(data, list) else [data]:
        if not isinstance(item, dict):
            continue
        start, end = _day(item.get("startdateymd")), _day(item.get("enddateymd"))
        value, key = item.get(rule.field), [item.get(name) for name in ids]
        if not (start and end and all(isinstance(i, str) for i in key) and isinstance(value, str | int)):
            continue
        yield (propertyid, *map(str, key)), start, end, str(value)


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
