"""Attributing answers back to input rows; the run summary and the exit code. Pure.

A row is ok only when every record carrying it is ok; a merged record's answer belongs to every
row in it; tracking ids are listed per row.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from ari_cli.exits import ExitCode
from ari_cli.plan import Plan, Record
from ari_cli.protocol import Operation
from ari_cli.records import RowView
from ari_cli.send import Exchange, Outcome, Problem


class Status(StrEnum):
    OK = "ok"
    FAILED = "failed"
    INVALID = "invalid"
    SKIPPED = "skipped"


NOT_SENT = Problem(None, "not sent: the run stopped before this row's request went out", None)


@dataclass
class RowResult:
    """The result of one input row."""

    index: int
    view: RowView
    status: Status
    trackingids: list[str] = field(default_factory=list)
    errors: list[Problem] = field(default_factory=list)
    note: str = ""


@dataclass
class Run:
    """Everything a run produced, for rendering and the exit code."""

    operation: Operation
    dry_run: bool
    rows: list[RowResult]
    records: list[Record]
    exchanges: list[Exchange]
    warnings: list[str] = field(default_factory=list)
    interrupted: bool = False

    def summary(self) -> dict[str, int]:
        counts = {status: 0 for status in Status}
        for row in self.rows:
            counts[row.status] += 1
        return {
            "rows": len(self.rows),
            "records": len(self.records),
            "requests": len(self.exchanges),
            **{status.value: counts[status] for status in Status},
        }

    def exit_code(self) -> ExitCode:
        if self.interrupted:
            return ExitCode.INTERRUPTED
        return exit_code(self.rows, sent=not self.dry_run and bool(self.exchanges))


def exit_code(rows: Sequence[RowResult], sent: bool) -> ExitCode:
    """0 when every row is ok or skipped; 3 when invalid rows stopped the run; 1 otherwise."""
    statuses = {row.status for row in rows}
    if Status.INVALID in statuses and not sent:
        return ExitCode.INVALID_INPUT
    if statuses & {Status.FAILED, Status.INVALID}:
        return ExitCode.FAILED
    return ExitCode.OK


def _record_outcomes(exchanges: Sequence[Exchange]) -> dict[int, Outcome]:
    outcomes: dict[int, Outcome] = {}
    for exchange in exchanges:
        if exchange.final and exchange.outcome is not None:
            for record in exchange.records:
                outcomes[record] = exchange.outcome
    return outcomes


def attribute(
    views: Sequence[RowView],
    invalid: dict[int, list[str]],
    plan: Plan,
    exchanges: Sequence[Exchange],
    dry_run: bool,
) -> list[RowResult]:
    """One result per input row, in input order."""
    records_of: dict[int, list[int]] = {}
    for index, record in enumerate(plan.records):
        for ref in record.refs:
            records_of.setdefault(ref, []).append(index)
    outcomes = _record_outcomes(exchanges)
    results: list[RowResult] = []
    for index, view in enumerate(views):
        messages = invalid.get(index) or plan.invalid.get(index)
        if messages:
            problems = [Problem(None, m, None) for m in messages]
            results.append(RowResult(index, view, Status.INVALID, errors=problems))
            continue
        if index in plan.skipped:
            results.append(RowResult(index, view, Status.SKIPPED, note=plan.skipped[index]))
            continue
        if dry_run:
            results.append(RowResult(index, view, Status.OK))
            continue
        row = RowResult(index, view, Status.OK)
        for number in records_of.get(index, []):
            outcome = outcomes.get(number)
            if outcome is None:
                row.status = Status.FAILED
                _add_unique(row.errors, NOT_SENT)
            elif outcome.success:
                if outcome.trackingid and outcome.trackingid not in row.trackingids:
                    row.trackingids.append(outcome.trackingid)
            else:
                # A failure's tracking id is what support quotes to the service, so it is kept too.
                if outcome.trackingid and outcome.trackingid not in row.trackingids:
                    row.trackingids.append(outcome.trackingid)
                row.status = Status.FAILED
                for problem in outcome.errors:
                    _add_unique(row.errors, problem)
        results.append(row)
    return results


def _add_unique(problems: list[Problem], problem: Problem) -> None:
    if problem not in problems:
        problems.append(problem)
