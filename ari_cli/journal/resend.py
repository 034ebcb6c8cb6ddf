"""`retry RUN`: what a journaled run left unacknowledged, rebuilt as a run of its own.

Only requests nothing replaced (leaves) and that were never answered, never sent, failed for a
transient reason or were refused for the property, endpoint or account (`wire.errors.reach`) are
sent again; acknowledged requests and refusals of the records' own data, which a second try would
meet again, are left alone, and counted (`refusals`) unless a later run got their dates acknowledged.
A run already retried is followed to its latest retry, which holds what is left; the refusals of the
runs before it stay with them (a retry carries only what it sends).
Records come back from the journal with the lines they came from; bodies are rebuilt from them
(a policy's body comes back as stored) and get the configured key.
"""

from __future__ import annotations

import datetime as dt
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ari_cli.journal.database import parsed
from ari_cli.journal.lines import decode
from ari_cli.journal.queries import (
    RecordInfo,
    RequestInfo,
    RunDetail,
    RunInfo,
    acknowledged,
    leaves,
    records,
    run_info,
)
from ari_cli.journal.run_requests import detail
from ari_cli.journal.store import SUPERSEDED
from ari_cli.operations import of
from ari_cli.planning.batch import DataForm, Envelope, build_body
from ari_cli.planning.changes import ONE_DAY, Span
from ari_cli.planning.plan import Plan, Record
from ari_cli.records.rules import RowView, shown_dates
from ari_cli.results import Refusal, Refused
from ari_cli.send.exchange import Exchange, Problem
from ari_cli.wire.errors import hint_for
from ari_cli.wire.operations import Operation, base_of, path_segment, push_url

# How many rows of each cause of refusal are named (`file:line`); the count says the rest.
REFUSED_NAMED = 5


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
    templates: dict[int, dict[str, Any]] = field(default_factory=dict)  # a policy record's stored body
    held: Plan = field(default_factory=Plan)  # records left out for later acknowledged values
    superseded: list[Exchange] = field(default_factory=list)  # their requests, journaled, not sent

    def refusals(self, db: sqlite3.Connection, base_url: str) -> Refused | None:
        """The rows refused for their own data by the run or its earlier retries, by cause, but for those whose
        every date a later run got acknowledged at `base_url` (as this plan's source id): superseded, they are done.
        None when no row is left refused."""
        run = self.source.run
        family = {*self.followed, run.id}
        first = self.followed[0] if self.followed else run.id
        properties = {request.propertyid for request in self.refused}
        held = acknowledged(db, run.operation, base_url, self.source_id or run.source_id, properties)
        infos = {number: run_info(db, number) for number in family}
        causes: dict[tuple[object, ...], tuple[Problem, dict[str, None]]] = {}
        every: set[str] = set()
        for request in self.refused:
            problem = _problem(request)
            named = causes.setdefault((problem.code, problem.message, problem.http_status), (problem, {}))[1]
            for record in records(db, request.run, request.first, request.first + request.count):
                later = [s for s in held.get(record.key, ()) if s.run > first and s.run not in family]
                if not _outside(record.start, record.end, later):
                    continue  # a later run got every date of it acknowledged
                for source, line in decode(record.lines):
                    sources = infos[request.run].sources
                    row = f"{sources[source] if source < len(sources) else f'source {source}'}:{line}"
                    named[row] = None
                    every.add(row)
        found = tuple(
            Refusal(problem, len(rows), tuple(sorted(rows, key=_row_order)[:REFUSED_NAMED]))
            for problem, rows in causes.values()
            if rows
        )
        return Refused(first, len(every), found) if found else None

    def without_later(self, db: sqlite3.Connection) -> tuple[RetryPlan, dict[int, int]]:
        """The plan without the dates whose value a later run got acknowledged (where the retry goes): sending
        this run's older values would overwrite them. Rows left with nothing are skipped, saying why; with the
        dates left out, per later run."""
        run = self.source.run
        family = {*self.followed, run.id}
        # Later: a run started after the one asked for (the first of the family), not one of its retries.
        first = self.followed[0] if self.followed else run.id
        base = base_of(self.exchanges[0].url) if self.exchanges else run.base_url
        held = acknowledged(db, run.operation, base, self.source_id, {r.key[0] for r in self.plan.records})
        left: dict[int, int] = {}
        sent, kept = _Pieces(), _Pieces()  # what goes, and what is left out (journaled as superseded)
        kept_rows: set[int] = set()
        for exchange in self.exchanges:
            going: list[int] = []
            staying: list[int] = []
            for index in exchange.records:
                record = self.plan.records[index]
                later = [s for s in held.get(record.key, ()) if s.run > first and s.run not in family
                         and s.start <= record.end and s.end >= record.start]  # fmt: skip
                for span in later:
                    start, end = max(span.start, record.start), min(span.end, record.end)
                    left[span.run] = left.get(span.run, 0) + (end - start).days + 1
                    staying.append(kept.add(replace(record, start=start, end=end), self.templates.get(index)))
                for start, end in _outside(record.start, record.end, later):
                    going.append(sent.add(replace(record, start=start, end=end), self.templates.get(index)))
                    kept_rows.update(record.refs)
            sent.request(exchange, going)
            kept.request(exchange, staying)
        if not left:
            return self, {}
        runs = ", ".join(str(n) for n in sorted(left))
        note = f"left out: run {runs} got later values acknowledged for its dates (retry --force sends them anyway)"
        skipped = {row: note for row in range(len(self.views)) if row not in kept_rows}
        trimmed = replace(self, plan=Plan(sent.records, skipped), exchanges=sent.exchanges, templates=sent.templates,
                          held=Plan(kept.records), superseded=kept.exchanges)  # fmt: skip
        masked = run.sharepost or "<API_KEY>"
        for exchange in sent.exchanges:
            exchange.body = trimmed.build(exchange.records, masked)
        aside = replace(trimmed, plan=trimmed.held, templates=kept.templates)
        for exchange in kept.exchanges:
            exchange.body = aside.build(exchange.records, masked)
        return trimmed, left

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
        if not of(operation).batched:
            # A policy's request is its one record: its stored body, on the record's dates.
            record = self.plan.records[part[0]]
            body = {**self.templates[part[0]], "startdate": record.start.isoformat(), "enddate": record.end.isoformat()}
            return {**body, "sharepost": key, "sourceid": self.source_id or run.source_id}
        chosen = [self.plan.records[i] for i in part]
        return build_body(operation, Envelope(key, self.source_id or run.source_id), chosen, self.form)


@dataclass
class _Pieces:
    """Records cut to the dates that go (or stay), and requests of them no bigger than the ones they came from."""

    records: list[Record] = field(default_factory=list)
    templates: dict[int, dict[str, Any]] = field(default_factory=dict)
    exchanges: list[Exchange] = field(default_factory=list)

    def add(self, record: Record, template: dict[str, Any] | None) -> int:
        if template is not None:
            self.templates[len(self.records)] = template
        self.records.append(record)
        return len(self.records) - 1

    def request(self, like: Exchange, numbers: list[int]) -> None:
        size = len(like.records)
        for at in range(0, len(numbers), size):
            part = tuple(numbers[at : at + size])
            self.exchanges.append(Exchange(len(self.exchanges) + 1, like.propertyid, part, {}, like.url))


def _problem(request: RequestInfo) -> Problem:
    """A refused request's first error as stored, with the error table's hint."""
    error = request.errors[0] if request.errors else {}
    code = error.get("code")
    code = code if isinstance(code, int) and not isinstance(code, bool) else None
    status = request.http_status
    message = str(error.get("message") or request.state)
    return Problem(code, message, status, hint_for(code, status))


def _row_order(row: str) -> tuple[str, int]:
    """`file:line` in file and line order."""
    name, _, line = row.rpartition(":")
    return name, int(line) if line.isdigit() else 0


def _outside(start: dt.date, end: dt.date, spans: Sequence[Span]) -> list[tuple[dt.date, dt.date]]:
    """The runs of dates start..end that none of `spans` covers."""
    pieces: list[tuple[dt.date, dt.date]] = []
    day = start
    for span in sorted(spans):
        if span.start > day:
            pieces.append((day, min(end, span.start - ONE_DAY)))
        day = max(day, span.end + ONE_DAY)
    if day <= end:
        pieces.append((day, end))
    return pieces


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


def _refused(request: RequestInfo) -> bool:
    """Refused for its records' own data: neither acknowledged, due again, nor left out for later values."""
    return not request.needs_retry and not request.acknowledged and request.state != SUPERSEDED


def plan_retry(db: sqlite3.Connection, run: int, force: bool = False) -> RetryPlan:
    """Rows, records and requests of `run` (or its latest retry) that still need sending; with `force`, also
    those a retry left out for a later acknowledged value."""
    info, passed = latest(db, run)
    source = detail(db, info.id)
    final = leaves(source.requests)
    due = [r for r in final if r.needs_retry or (force and r.state == SUPERSEDED)]
    refused = [r for r in final if _refused(r)]
    for earlier in passed:
        # A retry carries only what it sends: what the runs before it had refused stays with them.
        refused += [r for r in leaves(detail(db, earlier, whole=False).requests) if _refused(r)]
    carried = [
        record for request in due for record in records(db, info.id, request.first, request.first + request.count)
    ]
    views, refs = _rows(info, carried)
    plan = Plan([Record(r.key, r.start, r.end, r.value, rows) for r, rows in zip(carried, refs, strict=True)])
    exchanges = []
    templates: dict[int, dict[str, Any]] = {}
    at = 0
    for number, request in enumerate(due, start=1):
        exchanges.append(Exchange(number, request.propertyid, tuple(range(at, at + request.count)), dict(request.body),
                                  request.url))  # fmt: skip
        if not of(info.operation).batched:
            templates[at] = dict(request.body)
        at += request.count
    form = parsed(DataForm, info.options.get("data_form", "list"))
    return RetryPlan(source, passed, views, plan, exchanges, refused, form, info.source_id, templates)


def with_key(exchanges: Sequence[Exchange], key: str) -> list[Exchange]:
    """The stored bodies carry the masked key; the real one goes back in just before sending."""
    return [Exchange(e.id, e.propertyid, e.records, {**e.body, "sharepost": key}, e.url, e.parent) for e in exchanges]
