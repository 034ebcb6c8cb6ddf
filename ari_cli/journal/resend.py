"""`retry RUN`: what a journaled run left unacknowledged, rebuilt as a run of its own.

Only requests nothing replaced (leaves) and that were never answered, never sent, or failed for a
transient reason are sent again; acknowledged requests and refusals a second try would meet again
are left alone. A run already retried is followed to its latest retry, which holds what is left.
Records come back from the journal with the lines they came from; bodies are rebuilt from them
(a policy's body comes back as stored) and get the configured key.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from ari_cli.batch import DataForm, Envelope, build_body
from ari_cli.journal.lines import decode
from ari_cli.journal.queries import RecordInfo, RequestInfo, RunDetail, RunInfo, detail, leaves, records, run_info
from ari_cli.plan import Plan, Record
from ari_cli.records.rules import RowView, shown_dates
from ari_cli.send.exchange import Exchange
from ari_cli.wire.operations import Operation, path_segment, push_url


@dataclass
class RetryPlan:
    """A retry as the sender and the renderer see a push: rows, records and first requests."""

    source: RunDetail
    followed: tuple[int, ...]  # runs passed through to reach `source` (the one asked for first)
    views: list[RowView]
    plan: Plan
    exchanges: list[Exchange]
    refused: list[RequestInfo]
    form: DataForm
    source_id: str = ""  # where the bodies say they come from (the run's, or the one the retry is given)

    def aimed(self, base_url: str, source_id: str, template: str | None) -> RetryPlan:
        """The same requests sent to `base_url` as `source_id` (the body's `sourceid` too); each keeps the last
        path segment it had, unless a `template` (--path-segment) is given."""
        operation = Operation(self.source.run.operation)
        exchanges = []
        for exchange in self.exchanges:
            # A stored URL is {base}/v2/push_ari/{source}/{segment}: its segment is all after the source.
            segment = exchange.url.split("/v2/push_ari/", 1)[-1].partition("/")[2]
            if template is not None:
                segment = path_segment(template, operation.action, exchange.propertyid)
            body = {**exchange.body, "sourceid": source_id} if "sourceid" in exchange.body else dict(exchange.body)
            url = push_url(base_url, source_id, segment)
            exchanges.append(Exchange(exchange.id, exchange.propertyid, exchange.records, body, url, exchange.parent))
        return replace(self, exchanges=exchanges, source_id=source_id)

    def build(self, part: Sequence[int], key: str) -> dict[str, Any]:
        """The body for some of a request's records: rebuilt from them, or (a policy) the stored one."""
        run = self.source.run
        operation = Operation(run.operation)
        if operation is Operation.POLICY:
            first = next(e for e in self.exchanges if part[0] in e.records)
            return {**first.body, "sharepost": key}
        chosen = [self.plan.records[i] for i in part]
        return build_body(operation, Envelope(key, self.source_id or run.source_id), chosen, self.form)


def latest(db: sqlite3.Connection, run: int) -> tuple[RunInfo, tuple[int, ...]]:
    """The run to retry: `run`, or the last retry of its last retry, and so on."""
    info = run_info(db, run)
    passed: list[int] = []
    while True:
        row = db.execute("SELECT max(id) FROM runs WHERE retry_of = ?", (info.id,)).fetchone()
        if row[0] is None:
            return info, tuple(passed)
        passed.append(info.id)
        info = run_info(db, row[0])


def _rows(run: RunInfo, carried: Sequence[RecordInfo]) -> tuple[list[RowView], list[tuple[int, ...]]]:
    """Each record's rows as views (shown with the record's range and value), and the rows of each record."""
    found: dict[tuple[int, int], RowView] = {}
    for record in carried:
        key = (*record.key, "")[:3]
        dates = shown_dates(record.start, record.end, "")
        for source, line in decode(record.lines):
            if (source, line) not in found:
                name = run.sources[source] if source < len(run.sources) else f"source {source}"
                found[source, line] = RowView(name, line, key[0], key[1], key[2], dates, record.value)
    # Rows in file and line order, as the run read them.
    order = {where: index for index, where in enumerate(sorted(found))}
    views = [found[where] for where in sorted(found)]
    refs = [tuple(sorted(order[where] for where in decode(record.lines))) for record in carried]
    return views, refs


def plan_retry(db: sqlite3.Connection, run: int) -> RetryPlan:
    """Rows, records and requests of `run` (or its latest retry) that still need sending."""
    info, passed = latest(db, run)
    source = detail(db, info.id)
    final = leaves(source.requests)
    due = [r for r in final if r.needs_retry]
    refused = [r for r in final if not r.needs_retry and not r.acknowledged]
    carried = [
        record for request in due for record in records(db, info.id, request.first, request.first + request.count)
    ]
    views, refs = _rows(info, carried)
    plan = Plan([Record(r.key, r.start, r.end, r.value, rows) for r, rows in zip(carried, refs, strict=True)])
    exchanges = []
    at = 0
    for number, request in enumerate(due, start=1):
        exchanges.append(Exchange(number, request.propertyid, tuple(range(at, at + request.count)), dict(request.body),
                                  request.url))  # fmt: skip
        at += request.count
    form = DataForm(info.options.get("data_form", "list"))
    return RetryPlan(source, passed, views, plan, exchanges, refused, form, info.source_id)


def with_key(exchanges: Sequence[Exchange], key: str) -> list[Exchange]:
    """The stored bodies carry the masked key; the real one goes back in just before sending."""
    return [Exchange(e.id, e.propertyid, e.records, {**e.body, "sharepost": key}, e.url, e.parent) for e in exchanges]
