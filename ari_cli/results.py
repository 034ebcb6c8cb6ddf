"""Attributing answers back to input rows; the run summary and the exit code. Pure.

A row is ok only when every record carrying it is ok; a merged record's answer belongs to every
row in it; tracking ids are listed per row.

A big run's rows share a handful of results: every valid row of a dry run is `ok`, and the rows
of one record share its answer. So results are kept per record, and a row's own result object is
made only when asked for; only invalid and skipped rows, and rows of several records, are kept.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from heapq import merge
from itertools import compress, groupby, pairwise
from operator import ne
from typing import overload

from ari_cli.exits import ExitCode
from ari_cli.planning.plan import Plan, Record
from ari_cli.records.rules import RowView
from ari_cli.records.table import RowTable
from ari_cli.send.exchange import Exchange, Outcome, Problem
from ari_cli.wire.operations import Operation


class Status(StrEnum):
    OK = "ok"
    PLANNED = "planned"  # a valid row of a dry run
    FAILED = "failed"
    NOT_SENT = "not sent"  # a valid row whose request never went out; its note says why
    INVALID = "invalid"
    SKIPPED = "skipped"


NOT_SENT_NOTE = "not sent: the run stopped before this row's request went out"


@dataclass
class RowResult:
    """The result of one input row."""

    index: int
    view: RowView
    status: Status
    trackingids: list[str] = field(default_factory=list)
    errors: list[Problem] = field(default_factory=list)
    note: str = ""


@dataclass(frozen=True, slots=True)
class Shared:
    """A result without its row: what the rows of one record (or all valid rows of a dry run) have."""

    status: Status
    trackingids: tuple[str, ...] = ()
    errors: tuple[Problem, ...] = ()
    note: str = ""

    @classmethod
    def of(cls, row: RowResult) -> Shared:
        return cls(row.status, tuple(row.trackingids), tuple(row.errors), row.note)


PLAIN_OK = Shared(Status.OK)
PLAIN_PLANNED = Shared(Status.PLANNED)
_NO_RECORD, _SEVERAL = -1, -2


class RowResults(Sequence[RowResult]):
    """One result per input row, in input order, made when asked for."""

    def __init__(
        self,
        table: RowTable,
        special: dict[int, RowResult],
        groups: array[int] | None = None,
        shared: Sequence[Shared] | None = None,
        unsent: str = "",
        skipped: Mapping[int, str] | None = None,
    ) -> None:
        self.table = table
        self.special = special  # invalid, or carried by several records, or with a note of its own
        self.groups = groups  # per row: the record whose answer it has; None in a dry run (all planned)
        self.shared = shared or []  # per record
        self.unsent = unsent  # when set, an ok row was not sent, for this reason, and is skipped
        # Skipped rows share one result per reason: a nightly export whose every row is unchanged
        # (--changed-only) or past skips a million rows, which must not become a million objects.
        # `skipped` is the plan's note per skipped row, read as it is; a special row's result wins.
        self.skipped = skipped or {}
        self.reasons: dict[str, Shared] = {}  # one result per note, made when first asked for
        # The runs of alike rows (where they begin, and each run's result) and how many rows have each
        # status, found once: the summary, the exit code and the document each ask, and finding the runs
        # looks at every skipped and special row.
        self.cuts = self._cuts()
        self.results = [self._shared(first) for first in self.cuts[:-1]]
        self.tally = dict.fromkeys(Status, 0)
        for first, stop, result in self.runs():
            self.tally[result.status] += stop - first

    def __len__(self) -> int:
        return len(self.table)

    def _shared(self, index: int) -> Shared:
        row = self.special.get(index)
        if row is not None:
            found = Shared.of(row)
        elif index in self.skipped:
            note = self.skipped[index]
            found = self.reasons.get(note) or self.reasons.setdefault(note, Shared(Status.SKIPPED, note=note))
        elif self.groups is None:
            found = PLAIN_PLANNED
        elif self.groups[index] == _NO_RECORD:
            found = PLAIN_OK
        else:
            found = self.shared[self.groups[index]]
        if self.unsent and found.status in (Status.OK, Status.PLANNED):
            return replace(found, status=Status.SKIPPED, note=self.unsent)
        return found

    def _row(self, index: int, shared: Shared) -> RowResult:
        view = self.table[index]
        return RowResult(index, view, shared.status, list(shared.trackingids), list(shared.errors), shared.note)

    @overload
    def __getitem__(self, index: int) -> RowResult: ...

    @overload
    def __getitem__(self, index: slice) -> list[RowResult]: ...

    def __getitem__(self, index: int | slice) -> RowResult | list[RowResult]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        index = range(len(self))[index]  # negative from the end; IndexError past either end
        return self._row(index, self._shared(index))

    def __iter__(self) -> Iterator[RowResult]:
        for first, stop, shared in self.runs():
            for index in range(first, stop):
                yield self._row(index, shared)

    def runs(self) -> Iterator[tuple[int, int, Shared]]:
        """(first row, row after the last, their result): runs of rows of one source alike but for their line."""
        for (first, stop), result in zip(pairwise(self.cuts), self.results, strict=True):
            yield first, stop, result

    def _cuts(self) -> Sequence[int]:
        """The rows where a run of alike rows starts, in order, and the row count: where `runs` cuts."""
        cuts = {0, len(self)}
        for index in self.special:
            cuts.update((index, index + 1))
        # A run of rows skipped for one reason is cut only at its ends, found in one pass as the plan notes
        # skipped rows, in row order (a row noted out of order only cuts its run into more pieces).
        end, reason = -1, None
        for index, note in self.skipped.items():
            if index != end or note != reason:
                cuts.update((end, index))
            end, reason = index + 1, note
        cuts.add(end)
        cuts.discard(-1)
        cuts.update(first for first, _, _ in self.table.source_runs())
        groups = self.groups
        if groups is None or len(groups) < 2:
            return array("q", sorted(cuts))
        # Where the record a row answers to changes: every row, when each row is a room of its own, so these are
        # kept as numbers in an array, not in the set.
        changes = array("q", compress(range(1, len(groups)), map(ne, groups[1:], groups[:-1])))
        return array("q", (cut for cut, _ in groupby(merge(sorted(cuts), changes))))

    def counts(self) -> dict[Status, int]:
        """How many rows have each status."""
        return dict(self.tally)

    def with_status(self, statuses: set[Status]) -> list[RowResult]:
        """The results whose status is one of `statuses`, in order."""
        if not any(self.tally[status] for status in statuses):
            return []  # as for most runs' invalid rows: no walk through their runs
        return [
            self._row(index, shared)
            for first, stop, shared in self.runs()
            if shared.status in statuses
            for index in range(first, stop)
        ]

    def invalid_messages(self) -> list[str]:
        """Every message of every invalid row, in row order."""
        return [problem.message for row in self.with_status({Status.INVALID}) for problem in row.errors]

    def not_sent(self, note: str) -> RowResults:
        """The results of a run that sent nothing: its ok rows are skipped, for `note`."""
        return RowResults(self.table, self.special, self.groups, self.shared, note, self.skipped)


@dataclass(frozen=True, slots=True)
class Refusal:
    """Rows of a retried run refused for their own data, alike in the answer that refused them."""

    problem: Problem  # the answer, with the error table's hint for it
    rows: int
    first: tuple[str, ...]  # the first of them, as `file:line`


@dataclass(frozen=True, slots=True)
class Refused:
    """What a retry leaves refused for its rows' own data (a second try would meet the same answer): the run it
    retried, how many rows, and their causes. While any is left, the retry exits 1."""

    run: int
    rows: int
    causes: tuple[Refusal, ...]


@dataclass
class Run:
    """Everything a run produced, for rendering and the exit code."""

    operation: Operation
    dry_run: bool
    rows: RowResults
    records: list[Record]
    exchanges: list[Exchange]
    warnings: list[str] = field(default_factory=list)
    interrupted: bool = False
    ignored_columns: list[tuple[str, str]] = field(default_factory=list)
    """(source, name) of each input column left out with a warning."""
    notes: list[str] = field(default_factory=list)
    """What the JSON document lists under `notes`: what the journal said of the service (`app/elsewhere.py`)."""
    refused: Refused | None = None
    """A retry's: rows of the run it retried that stay refused for their own data, and were not sent again."""
    held_back: int = 0
    """An exported file's conflicting ranges left unsent (no --force): the run is not done."""

    def summary(self) -> dict[str, int]:
        return summary(len(self.rows), len(self.records), len(self.exchanges), self.rows.counts())

    def exit_code(self) -> ExitCode:
        if self.interrupted:
            return ExitCode.INTERRUPTED
        # A dry run's requests are those the real run would send: with --skip-invalid it exits as that run would.
        code = exit_code(self.rows, sent=bool(self.exchanges))
        # A retry tells cron the truth: rows left refused for their data are not done, even when none was sent.
        unfinished = self.refused is not None or self.held_back
        return ExitCode.FAILED if unfinished and code is ExitCode.OK else code


def summary(rows: int, records: int, requests: int, counts: dict[Status, int] | None = None) -> dict[str, int]:
    """The summary of the JSON document: counts of rows, records, requests and rows per status."""
    counts = counts or {}
    return {
        "rows": rows,
        "records": records,
        "requests": requests,
        **{status.value: counts.get(status, 0) for status in Status},
    }


def exit_code(rows: RowResults, sent: bool) -> ExitCode:
    """0 when every row is ok, planned or skipped; 3 when invalid rows stopped the run; 1 otherwise.

    `sent`: the valid rows went (or, in a dry run, would go) out despite invalid ones (`--skip-invalid`).
    """
    statuses = {status for status, count in rows.counts().items() if count}
    if Status.INVALID in statuses and not sent:
        return ExitCode.INVALID_INPUT
    if statuses & {Status.FAILED, Status.NOT_SENT, Status.INVALID}:
        return ExitCode.FAILED
    return ExitCode.OK


def _record_outcomes(exchanges: Sequence[Exchange], count: int) -> list[Outcome | None]:
    """Each record's answer (a later request that carried it wins; None: none). A list, not a dict: a
    weekday-filtered file plans 1.7 million records, and a dict of them was 80 bytes a record."""
    outcomes: list[Outcome | None] = [None] * count
    for exchange in exchanges:
        if exchange.final and exchange.outcome is not None:
            for record in exchange.records:
                outcomes[record] = exchange.outcome
    return outcomes


def _known(outcomes: Sequence[Outcome | None], numbers: Sequence[int]) -> dict[int, Outcome]:
    """The answers to some records, as `answered` takes them."""
    return {number: outcome for number in numbers if (outcome := outcomes[number]) is not None}


def answered(row: RowResult, numbers: Sequence[int], outcomes: Mapping[int, Outcome]) -> RowResult:
    """A valid row's result from the answers to the records that carry it."""
    for number in numbers:
        outcome = outcomes.get(number)
        if outcome is None or not outcome.sent:
            # A failure of another record of the row says more than this one's never going out.
            if row.status is not Status.FAILED:
                row.status = Status.NOT_SENT
                reasons = [p.message for p in outcome.errors] if outcome is not None else []
                row.note = reasons[0] if reasons else NOT_SENT_NOTE
        elif outcome.success:
            if outcome.trackingid and outcome.trackingid not in row.trackingids:
                row.trackingids.append(outcome.trackingid)
        else:
            # A failure's tracking id is what support quotes to the service, so it is kept too.
            if outcome.trackingid and outcome.trackingid not in row.trackingids:
                row.trackingids.append(outcome.trackingid)
            row.status = Status.FAILED
            if row.note.startswith("not sent"):
                row.note = ""
            for problem in outcome.errors:
                _add_unique(row.errors, problem)
    return row


def attribute(table: RowTable, plan: Plan, exchanges: Sequence[Exchange], dry_run: bool) -> RowResults:
    """One result per input row, in input order."""
    views, invalid = table, table.errors
    special: dict[int, RowResult] = {}
    for index in sorted({*invalid, *plan.invalid}):
        messages = invalid.get(index) or plan.invalid.get(index)
        if not messages:
            continue
        problems = [Problem(None, m, None) for m in messages]
        special[index] = RowResult(index, views[index], Status.INVALID, errors=problems)
    skipped = plan.skipped  # an invalid row's result is special, and wins
    if dry_run:
        for index, note in plan.row_notes.items():
            if index not in skipped:
                special.setdefault(index, RowResult(index, views[index], Status.PLANNED, note=note))
        return RowResults(table, special, skipped=skipped)
    outcomes = _record_outcomes(exchanges, len(plan.records))
    groups = array("q", [_NO_RECORD]) * len(table)
    # A row of several records, in an array: a weekday filter's row is carried by thousands of records.
    several: dict[int, array[int]] = {}
    for number, record in enumerate(plan.records):
        for ref in record.refs:
            if groups[ref] == _NO_RECORD:
                groups[ref] = number
            elif groups[ref] == _SEVERAL:
                several[ref].append(number)
            else:
                several[ref] = array("q", [groups[ref], number])
                groups[ref] = _SEVERAL
    for index, numbers in several.items():
        if index not in special and index not in skipped:
            special[index] = answered(RowResult(index, views[index], Status.OK), numbers, _known(outcomes, numbers))
    for index, note in plan.row_notes.items():
        if index in skipped:
            continue
        if index not in special:
            alone = [groups[index]] if groups[index] >= 0 else []
            special[index] = answered(RowResult(index, views[index], Status.OK), alone, _known(outcomes, alone))
        row = special[index]
        if not row.note and row.status is not Status.INVALID:
            row.note = note
    # A record's rows have its request's answer: made once per request, not per record (a request carries
    # up to 50), a later request that carried the record winning, as in `outcomes`.
    shared = [_alone(None)] * len(plan.records)
    for exchange in exchanges:
        if exchange.final and exchange.outcome is not None:
            alike = _alone(exchange.outcome)
            for number in exchange.records:
                shared[number] = alike
    return RowResults(table, special, groups, shared, skipped=skipped)


def _alone(outcome: Outcome | None) -> Shared:
    """The result of the rows of one record whose request came to `outcome` (None: it has no answer)."""
    known = {} if outcome is None else {0: outcome}
    return Shared.of(answered(RowResult(-1, RowView("", 0), Status.OK), [0], known))


def _add_unique(problems: list[Problem], problem: Problem) -> None:
    if problem not in problems:
        problems.append(problem)
