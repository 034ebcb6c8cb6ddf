"""`retry RUN`: what a journaled run left unacknowledged, rebuilt as a run of its own.

Only requests nothing replaced (leaves) and that were never answered, never sent, or failed for a
transient reason are sent again; acknowledged requests and refusals a second try would meet again
are left alone. A run already retried is followed to its latest retry, which holds what is left.
Bodies come back from the journal as stored (key masked) and get the configured key again.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ari_cli.journal.queries import RequestInfo, RunDetail, RunInfo, detail, leaves, run_info
from ari_cli.plan import Plan, Record
from ari_cli.records.rules import RowView
from ari_cli.send.exchange import Exchange


@dataclass
class RetryPlan:
    """A retry as the sender and the renderer see a push: rows, records and first requests."""

    source: RunDetail
    followed: tuple[int, ...]  # runs passed through to reach `source` (the one asked for first)
    views: list[RowView]
    plan: Plan
    exchanges: list[Exchange]
    fragments: list[dict[str, Any] | None]
    refused: list[RequestInfo]

    def build(self, part: Sequence[int], key: str) -> dict[str, Any]:
        """The body for some of a request's records: its head, with only their part of `data`."""
        first = next(e for e in self.exchanges if part[0] in e.records)
        body = dict(first.body)
        body["sharepost"] = key
        pieces = [self.fragments[i] for i in part]
        if isinstance(body.get("data"), list) and all(p is not None for p in pieces):
            body["data"] = pieces
        return body


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


def plan_retry(db: sqlite3.Connection, run: int) -> RetryPlan:
    """Rows, records and requests of `run` (or its latest retry) that still need sending."""
    info, passed = latest(db, run)
    source = detail(db, info.id)
    final = leaves(source.requests)
    due = [r for r in final if r.needs_retry]
    refused = [r for r in final if not r.needs_retry and not r.acknowledged]
    by_idx = {row.idx: row for row in source.rows}
    record_of = {record.idx: record for record in source.records}
    wanted_records = sorted({n for request in due for n in request.records})
    new_record = {old: new for new, old in enumerate(wanted_records)}
    wanted_rows = sorted({ref for n in wanted_records for ref in record_of[n].refs})
    new_row = {old: new for new, old in enumerate(wanted_rows)}
    views = [
        RowView(r.source, r.line, r.propertyid, r.roomid, r.rateid, r.dates, r.value)
        for r in (by_idx[i] for i in wanted_rows)
    ]
    records = []
    fragments = []
    for old in wanted_records:
        stored = record_of[old]
        refs = tuple(new_row[ref] for ref in stored.refs)
        records.append(Record(stored.key, stored.start, stored.end, stored.value, refs))
        fragments.append(stored.fragment)
    exchanges = [
        Exchange(number, request.propertyid, tuple(new_record[n] for n in request.records), dict(request.body),
                 request.url)
        for number, request in enumerate(due, start=1)
    ]  # fmt: skip
    return RetryPlan(source, passed, views, Plan(records), exchanges, fragments, refused)


def with_key(exchanges: Sequence[Exchange], key: str) -> list[Exchange]:
    """The stored bodies carry the masked key; the real one goes back in just before sending."""
    return [Exchange(e.id, e.propertyid, e.records, {**e.body, "sharepost": key}, e.url, e.parent) for e in exchanges]
