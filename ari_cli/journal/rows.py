"""A journaled run's rows, derived when shown: from its records' lines, its requests' answers and its notes.

The journal keeps no row per input row. A row's result is what `results.answered` makes of the
answers to the records that carried it (the rule a push applies as it runs), or what its note
says (skipped, invalid). Rows come out in file and line order, made one at a time: a million-row
run is never held whole, and a run whose requests were all acknowledged lists its failed rows
without reading a record.
"""

from __future__ import annotations

import bisect
import datetime as dt
import heapq
import sqlite3
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ari_cli.journal.database import loads
from ari_cli.journal.lines import spans
from ari_cli.journal.queries import RecordInfo, RequestInfo, RunDetail, RunInfo, leaves
from ari_cli.journal.run_records import RunRecords
from ari_cli.journal.store import FAILED, OK, SENDING, SUPERSEDED
from ari_cli.records.rules import RowView, shown_dates
from ari_cli.results import RowResult, Status, answered
from ari_cli.send.exchange import INTERRUPTED, Outcome, Problem

NOT_FINISHED = "not finished"
INTERESTING = frozenset({Status.FAILED.value, Status.NOT_SENT.value, Status.INVALID.value, NOT_FINISHED})


def not_finished_note(run: int) -> str:
    return f"no answer recorded: the run ended before it (killed?); `ari-cli retry {run}` sends what is left"


@dataclass(slots=True)  # not frozen, as `queries.RequestInfo`: a failed run's view makes 98,000
class RowInfo:
    source: str
    line: int
    propertyid: str
    roomid: str
    rateid: str
    dates: str
    value: str
    status: str
    trackingids: list[str] = field(default_factory=list)
    errors: list[dict[str, Any]] = field(default_factory=list)
    note: str = ""


@dataclass(frozen=True, slots=True)
class Note:
    status: str | None
    note: str
    errors: tuple[str, ...]
    view: tuple[str, str, str, str, str] | None
    lines: str


def _outcome(request: RequestInfo, interrupted: bool, made: dict[int, tuple[Problem, ...]]) -> Outcome | None:
    """A leaf request's answer as the sender gave it; None for one never sent (or not known to be). Requests that
    share their list of errors (`run_requests.each_request`) share its problems, `made` once."""
    problems = made.get(id(request.errors))
    if problems is None:
        problems = made[id(request.errors)] = tuple(
            Problem(e.get("code"), e.get("message", ""), e.get("http_status")) for e in request.errors
        )
    if request.state == OK:
        return Outcome(request.http_status, True, request.trackingid)
    if request.state == FAILED:
        return Outcome(request.http_status, False, request.trackingid, problems, request.transient)
    if problems:  # never sent, and the run said why (a stop, a refusal of its property, endpoint or account)
        return Outcome(None, False, errors=problems, sent=False)
    if interrupted:
        return Outcome(None, False, errors=(INTERRUPTED,), sent=False)
    return None


class RecordOutcomes(Mapping[int, Outcome]):
    """Record number -> the answer of the leaf request that carried it."""

    def __init__(self, found: Sequence[RequestInfo], interrupted: bool) -> None:
        ordered = sorted(found, key=lambda r: r.first)
        self.firsts = [r.first for r in ordered]
        self.requests = ordered
        self.interrupted = interrupted
        self.made: dict[int, tuple[Problem, ...]] = {}  # keyed by the identity of lists `found` holds: all alive

    def outcome(self, at: int) -> Outcome | None:
        """The answer of `requests[at]`, made when asked for: a failed run's 98,000 are not held."""
        return _outcome(self.requests[at], self.interrupted, self.made)

    def leaf(self, record: int) -> int | None:
        at = bisect.bisect_right(self.firsts, record) - 1
        if at >= 0 and record < self.requests[at].first + self.requests[at].count:
            return at
        return None

    def __getitem__(self, record: int) -> Outcome:
        at = self.leaf(record)
        outcome = None if at is None else self.outcome(at)
        if outcome is None:
            raise KeyError(record)
        return outcome

    def __iter__(self) -> Iterator[int]:
        for at, request in enumerate(self.requests):
            if self.outcome(at) is not None:
                yield from request.records

    def __len__(self) -> int:
        return sum(r.count for at, r in enumerate(self.requests) if self.outcome(at) is not None)


# A row's status, tracking ids, errors and note.
Result = tuple[str, list[str], list[dict[str, Any]], str]
_NO_VIEW = RowView("", 0)  # `answered` makes a result of answers alone

# A run of lines with what it belongs to: (source, first line, last line, step, kind, which).
_RECORD, _NOTE = 0, 1
Segment = tuple[int, int, int, int, int, int]


class RunRows:
    """The rows of one journaled run, derived as they are asked for."""

    def __init__(self, db: sqlite3.Connection, whole: RunDetail, held: RunRecords | None = None) -> None:
        self.db = db
        self.run = whole.run
        self.held = held or RunRecords(db, whole.run.id)
        self.final = leaves(whole.requests)
        interrupted = self.run.finished and self.run.exit_code == 130
        self.outcomes = RecordOutcomes(self.final, interrupted)
        # The records of the leaf request of the last row of one record and no note, and its result (`_alone`):
        # the rows that follow share it.
        self.alone: tuple[int, int, Result | None] | None = None
        self.dates: dict[tuple[dt.date, dt.date], str] = {}
        self.told: dict[tuple[Problem, ...], list[dict[str, Any]]] = {}
        self.kinds: dict[tuple[Any, ...], Result] = {}  # by how a leaf was answered (`_alone`)
        self.names: dict[int, str] = {}
        self.notes = [
            Note(status, note, tuple(_load(errors, [])), _view(view), lines)
            for status, note, errors, lines, *view in db.execute(
                "SELECT status, note, errors, lines, propertyid, roomid, rateid, dates, value FROM notes"
                " WHERE run = ? ORDER BY position", (self.run.id,))
        ]  # fmt: skip

    @property
    def total(self) -> int:
        return self.run.rows or 0

    def rows(self, statuses: frozenset[str] | None = None, carried: range | None = None) -> Iterator[RowInfo]:
        """The rows whose status is one of `statuses` (all when None), in file and line order; only those
        of records `carried` (a request's), when given."""
        everything = statuses is None or not statuses <= INTERESTING
        unsettled = any(r.state != OK for r in self.final)
        chosen: Sequence[RecordInfo]
        if carried is not None:
            chosen = self.held.between(carried.start, carried.stop)
        elif not everything and not unsettled:
            chosen = []  # every record was acknowledged: only notes can say more
        else:
            chosen = self.held.all()
        # A segment names its record by its place in `chosen`.
        segments: list[Segment] = [
            (s, a, b, step, _RECORD, at) for at, record in enumerate(chosen) for s, a, b, step in spans(record.lines)
        ]
        if not everything and carried is None:
            segments = _near_unsettled(segments, self._unsettled_flags(chosen))
        for number, note in enumerate(self.notes if carried is None else ()):
            # A note of rows none of whose statuses is asked for is passed over (a million unchanged rows are
            # not listed to be left out); a note beside a record's result counts only where records are read.
            wanted = statuses is None or (note.status in statuses if note.status else bool(chosen))
            if wanted:
                segments.extend((s, a, b, step, _NOTE, number) for s, a, b, step in spans(note.lines))
        for source, line, last, step, parts in _sweep(segments):
            # The lines of a run share what covers them, and so their result: it is made once.
            row = self._row(source, line, parts, chosen)
            if statuses is None or row.status in statuses:
                yield row
                for following in range(line + step, last + 1, step):
                    yield RowInfo(row.source, following, row.propertyid, row.roomid, row.rateid, row.dates, row.value,
                                  row.status, row.trackingids, row.errors, row.note)  # fmt: skip

    def _row(self, source: int, line: int, parts: list[tuple[int, int]], chosen: Sequence[RecordInfo]) -> RowInfo:
        name = self.names.get(source) or self.names.setdefault(source, _source_name(self.run, source))
        if len(parts) == 1 and parts[0][0] == _RECORD:
            # A row of one record, and no note: its result is its request's, made once for the rows that follow.
            record = chosen[parts[0][1]]
            if self.alone is None or not self.alone[0] <= record.idx < self.alone[1]:
                self.alone = self._alone(record.idx)
            result = self.alone[2]
            if result is not None:
                return RowInfo(name, line, *self._view(record), *result)
        notes = [self.notes[n] for kind, n in parts if kind == _NOTE]
        # A retry's superseded records were never meant to be sent: their rows are as if they were not there.
        kept = [chosen[n] for kind, n in parts if kind == _RECORD and not self._superseded(chosen[n].idx)]
        final = next((n for n in notes if n.status is not None), None)
        if final is not None or not kept:
            said = final or (notes[0] if notes else Note("skipped", "", (), None, ""))
            fields = said.view or ("", "", "", "", "")
            told = [{"code": None, "message": m, "http_status": None} for m in said.errors]
            return RowInfo(name, line, *fields, said.status or Status.SKIPPED.value, [], told, said.note)
        return RowInfo(name, line, *self._view(kept[0]), *self._result([r.idx for r in kept], notes))

    def _alone(self, record: int) -> tuple[int, int, Result | None]:
        """The records of the leaf request that carried `record` (first, stop), and the result of a row of one of
        them alone; None when that request was superseded (the row is as if its record were not there)."""
        at = self.outcomes.leaf(record)
        if at is None:
            return record, record + 1, self._result([record], [], {})
        request = self.outcomes.requests[at]
        if request.state == SUPERSEDED:
            return request.first, request.first + request.count, None
        # Leaves answered alike (a failed property's thousands, each with a tracking id of its own) give such a row
        # the same result but for that id: it is made once (their shared errors are one list, `each_request`).
        kind = (request.state, request.http_status, request.transient, id(request.errors), bool(request.trackingid))
        made = self.kinds.get(kind)
        if made is None:
            outcome = self.outcomes.outcome(at)
            made = self.kinds[kind] = self._result([record], [], {} if outcome is None else {record: outcome})
        status, trackingids, errors, note = made
        if trackingids and request.trackingid:  # the answer's tracking id is the row's: this leaf's own
            trackingids = [request.trackingid]
        return request.first, request.first + request.count, (status, trackingids, errors, note)

    def _view(self, record: RecordInfo) -> tuple[str, str, str, str, str]:
        """What a row of the record shows of it: its key, dates and value."""
        key = (*record.key, "")[:3]
        span = (record.start, record.end)
        dates = self.dates.get(span) or self.dates.setdefault(span, shown_dates(record.start, record.end, ""))
        return key[0], key[1], key[2], dates, record.value

    def _result(self, numbers: list[int], notes: list[Note], known: Mapping[int, Outcome] | None = None) -> Result:
        """A row's status, tracking ids, errors and note, from the answers to its records (`numbers`; `known`: those
        answers, when found already)."""
        result = answered(RowResult(-1, _NO_VIEW, Status.OK), numbers, self.outcomes if known is None else known)
        status, note = result.status.value, result.note
        if result.status is Status.NOT_SENT and not self.run.finished:
            status, note = NOT_FINISHED, not_finished_note(self.run.id)
        if result.status is not Status.OK and self.run.finished_by is not None:
            note = f"sent again by retry {self.run.finished_by}, which got it acknowledged"
        if not note:
            note = next((n.note for n in notes if n.note), "")
        if status == NOT_FINISHED and any(self._out(n) for n in numbers):
            note = "sent, no answer recorded: the run ended first (killed?); " + note.split("; ", 1)[-1]
        # Rows refused alike share their errors as the requests share their problems (read-only once made).
        problems = tuple(result.errors)
        errors = self.told.get(problems)
        if errors is None:
            errors = self.told[problems] = [
                {"code": p.code, "message": p.message, "http_status": p.http_status} for p in problems
            ]
        return status, result.trackingids, errors, note

    def _unsettled_flags(self, chosen: Sequence[RecordInfo]) -> bytearray:
        """Per record of `chosen` (in number order), 1 where the leaf request that carried it was not acknowledged:
        marked a run of such leaves at a time (a failed property's thousands of leaves are one run)."""
        flags = bytearray(len(chosen))
        numbers = [record.idx for record in chosen]
        runs: list[list[int]] = []
        for request in self.outcomes.requests:  # in record order, apart
            if request.state != OK:
                if runs and runs[-1][1] == request.first:
                    runs[-1][1] += request.count
                else:
                    runs.append([request.first, request.first + request.count])
        for first, stop in runs:
            low, high = bisect.bisect_left(numbers, first), bisect.bisect_left(numbers, stop)
            flags[low:high] = b"\x01" * (high - low)
        return flags

    def _superseded(self, record: int) -> bool:
        at = self.outcomes.leaf(record)
        return at is not None and self.outcomes.requests[at].state == SUPERSEDED

    def _out(self, record: int) -> bool:
        at = self.outcomes.leaf(record)
        return at is not None and self.outcomes.requests[at].state == SENDING


def _source_name(run: RunInfo, source: int) -> str:
    return run.sources[source] if source < len(run.sources) else f"source {source}"


def _load(text: str | None, default: Any) -> Any:
    return default if text is None else loads(text)


def _view(fields: Sequence[str | None]) -> tuple[str, str, str, str, str] | None:
    if all(f is None for f in fields):
        return None
    a, b, c, d, e = (f or "" for f in fields)
    return a, b, c, d, e


def _near_unsettled(segments: list[Segment], unsettled: bytearray) -> list[Segment]:
    """Only the records' lines that share a line with an unsettled record (`unsettled[at]` of its segment): the rows
    that can be anything but ok (a killed million-row run lists its few unfinished rows without deriving the
    acknowledged ones). Sorted, as the sweep takes them: the unsettled ones' lines are merged as they come."""
    segments.sort()
    merged: dict[int, tuple[list[int], list[int]]] = {}
    for source, first, last, _, _, at in segments:
        if unsettled[at]:
            starts, ends = merged.setdefault(source, ([], []))
            if ends and first <= ends[-1] + 1:
                ends[-1] = max(ends[-1], last)
            else:
                starts.append(first)
                ends.append(last)
    kept = []
    for segment in segments:
        starts, ends = merged.get(segment[0], ([], []))
        at = bisect.bisect_right(starts, segment[2]) - 1
        if at >= 0 and ends[at] >= segment[1]:
            kept.append(segment)
    return kept


def _sweep(segments: list[Segment]) -> Iterator[tuple[int, int, int, int, list[tuple[int, int]]]]:
    """Each run of lines (source, first, last, step) that the same segments cover, in order, with what covers it:
    a segment that nothing else covers is one run (up to where the next one starts), else each line is one."""
    segments.sort()
    waiting: list[tuple[int, int, int, Segment]] = []  # (source, next line, order, segment)
    at = 0
    order = 0
    count = len(segments)
    while at < count or waiting:
        if not waiting and (at + 1 == count or segments[at + 1][:2] != segments[at][:2]):
            segment = segments[at]
            at += 1
            source, first, last, step = segment[:4]
            stop = segments[at][1] - 1 if at < count and segments[at][0] == source and segments[at][1] <= last else last
            end = first + (stop - first) // step * step
            yield source, first, end, step, [(segment[4], segment[5])]
            if end + step <= last:
                heapq.heappush(waiting, (source, end + step, order, segment))
                order += 1
            continue
        here = waiting[0][:2] if waiting and (at == count or waiting[0][:2] <= segments[at][:2]) else segments[at][:2]
        while at < count and segments[at][:2] == here:
            heapq.heappush(waiting, (here[0], here[1], order, segments[at]))
            order += 1
            at += 1
        parts: list[tuple[int, int]] = []
        while waiting and waiting[0][:2] == here:
            source, line, _, segment = heapq.heappop(waiting)
            parts.append((segment[4], segment[5]))
            following = line + segment[3]
            if following <= segment[2]:
                heapq.heappush(waiting, (source, following, order, segment))
                order += 1
        yield here[0], here[1], here[1], 1, parts
