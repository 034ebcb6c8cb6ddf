"""Between a push run and the journal: what a run's rows, records, requests and answers become there.

Records are numbered in the order requests carry them, so that every request (and every half of
a split one) carries a range of record numbers. Rows are not written one by one: each record says
which lines it came from (`lines.py`), and rows that send nothing are noted in runs of lines.

Nothing is sent unrecorded by accident: a journal that cannot be opened, or that cannot take the run
and its plan, or a note whose room the disk cannot give, stops the run before its first request
(exit 4; `--no-journal` pushes unrecorded on purpose). Once sending has begun the journal is a
record, not a gate: when it fails, the run goes on, says so once, and keeps what the journal could
not take in its note (`pending.py`).
"""

from __future__ import annotations

import bisect
import contextlib
import queue
import sqlite3
import threading
import time
from array import array
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import replace
from itertools import chain
from pathlib import Path
from typing import Any, TypeVar

from ari_cli.exits import ConfigError
from ari_cli.journal import retire
from ari_cli.journal.database import unreadable
from ari_cli.journal.lines import encode
from ari_cli.journal.pending import Note
from ari_cli.journal.place import journal_path
from ari_cli.journal.store import (
    FAILED,
    OK,
    SUPERSEDED,
    Answer,
    Answered,
    Journal,
    NoteEntry,
    PlanEntry,
    RecordEntry,
    RequestEntry,
    RunStart,
    now,
)
from ari_cli.operations import of
from ari_cli.planning.batch import policy_value, wire_value
from ari_cli.planning.plan import Plan, Record
from ari_cli.records.table import RowTable
from ari_cli.send.exchange import Exchange, Problem, Watcher
from ari_cli.wire.operations import Operation

T = TypeVar("T")
# A write for the writer thread: the store's method, its arguments, and what the run's note says if it fails.
Job = tuple[Callable[..., object], tuple[Any, ...], Sequence[Sequence[Any]]]
# The writer commits answers in groups: one commit per answer cost the sender a fifth of its throughput.
# A run killed outright loses at most the group not yet committed: its requests stay "not finished".
# A group is what came within GROUP_SECONDS of its first job, or GROUP_JOBS jobs (a request's mark going
# out and its answer are two: about 50 answers), whichever comes first.
GROUP_JOBS = 100
GROUP_SECONDS = 0.05
# A sender faster than the disk would hold the acknowledged records of every request it is ahead by: a push of
# 1.2 million records and 250,000 rooms peaked at 576 MiB with 8 requests at a time, 328 MiB with one. Past a
# few groups behind, the sender waits for the writer to catch up.
BACKLOG_JOBS = 4 * GROUP_JOBS


class RowLines:
    """Rows of a table as the journal names them: the position of their source and their line."""

    def __init__(self, table: RowTable) -> None:
        runs = table.source_runs()
        self.sources = list(dict.fromkeys(name for _, _, name in runs))
        self.firsts = [first for first, _, _ in runs]
        self.positions = [self.sources.index(name) for _, _, name in runs]
        self.lines = table.lines

    def source(self, row: int) -> int:
        return self.positions[bisect.bisect_right(self.firsts, row) - 1]

    def text(self, rows: Sequence[int]) -> str:
        """The compact text of some rows' lines; a run of rows on consecutive lines of one source at once."""
        if not rows:
            return ""
        first, last = rows[0], rows[-1]
        whole = isinstance(rows, range) and rows.step == 1
        if whole and self.source(first) == self.source(last):
            a, b = self.lines[first], self.lines[last]
            if b - a == last - first:
                source = self.source(first)
                span = f"{a}-{b}" if b > a else str(a)
                return span if source == 0 else f"@{source}:{span}"
        return encode((self.source(r), self.lines[r]) for r in rows)


def _runs(indexes: Sequence[int]) -> Iterator[range]:
    """Consecutive indexes as ranges."""
    start = previous = None
    for index in indexes:
        if previous is not None and index == previous + 1:
            previous = index
            continue
        if start is not None and previous is not None:
            yield range(start, previous + 1)
        start = previous = index
    if start is not None and previous is not None:
        yield range(start, previous + 1)


def notes(table: RowTable, plan: Plan, where: RowLines, unsent: str | None) -> list[NoteEntry]:
    """Rows that send nothing (skipped, invalid; all valid rows when `unsent` says why nothing was sent),
    and rows with a note beside their result, in runs of rows alike.

    One pass over the rows, holding only the run being noted: a million rows skipped as unchanged are a
    few thousand runs, never a million entries.
    """
    invalid = {**plan.invalid, **table.errors}
    entries: list[NoteEntry] = []
    for index in sorted(invalid):
        view = table[index]
        written = (view.propertyid, view.roomid, view.rateid, view.dates, view.value)
        entries.append(NoteEntry("invalid", "", where.text([index]), invalid[index], written))
    skipped, row_notes = plan.skipped, plan.row_notes
    if not skipped and not row_notes and unsent is None:
        return entries
    current: tuple[str | None, str] | None = None
    first = 0

    def close(stop: int) -> None:
        if current is not None:
            rows = range(first, stop)
            one = table[first] if len(rows) == 1 else None
            fields = None if one is None else (one.propertyid, one.roomid, one.rateid, one.dates, one.value)
            entries.append(NoteEntry(current[0], current[1], where.text(rows), (), fields))

    for index in range(len(table)):
        said: tuple[str | None, str] | None = None
        if index not in invalid:
            note = skipped.get(index)
            if note is not None:
                said = ("skipped", note)
            elif unsent is not None:
                said = ("skipped", unsent)
            elif index in row_notes:
                said = (None, row_notes[index])
        if said != current:
            close(index)
            current, first = said, index
    close(len(table))
    return entries


def problem_dict(problem: Problem) -> dict[str, Any]:
    return {"code": problem.code, "message": problem.message, "http_status": problem.http_status}


def form_of(body: Mapping[str, Any]) -> str | None:
    data = body.get("data")
    return None if data is None else ("list" if isinstance(data, list) else "object")


class Recorder(Watcher):
    """Writes one run's requests to the journal as the sender reports them.

    The run and its plan are written before the first request goes out. Answers are written by a
    thread of their own, in the order they came, so that the sender does not wait for each write (an
    acknowledgement paints its records' dates, which a million-row run does a hundred thousand
    times), and committed in groups of about 50 answers or `GROUP_SECONDS`, whichever comes first; the
    sender waits only when the writer is `BACKLOG_JOBS` behind. `finish` waits until everything is written.
    """

    def __init__(self, journal: Journal, warn: Callable[[str], None], keep_bodies: bool = False) -> None:
        self.journal = journal
        self.keep_bodies = keep_bodies  # bodies records cannot rebuild (a replay's) are kept as sent
        self.warn = warn
        self.run: int | None = None
        self.broken = False
        self.operation: Operation | None = None  # the run's, once `plan` is told it
        # A plan's record -> its number in the journal: what an acknowledgement paints is made again from the
        # plan's record when it comes, so that a run of millions of records holds no entry of each meanwhile.
        self.position = array("q")
        self.records: Sequence[Record] = ()
        self.where: RowLines | None = None
        self.waiting: queue.Queue[Job | None] = queue.Queue()
        self.full = threading.Event()  # set when the writer need not wait for more jobs to write a group
        self.ending = False  # the run asked the writer to end: write what is waiting without waiting more
        self.writer: threading.Thread | None = None
        self.unsaid: list[str] = []  # the writer's warnings, said by the main thread
        self.held: list[RequestEntry] = []  # a retry's superseded requests, written when it finishes
        self.last_id = 0
        self.note: Note | None = None

    def _write(self, call: Callable[..., T], *args: Any, said: Sequence[Sequence[Any]] = ()) -> T | None:
        """`call(*args)`; when the journal cannot take it (now or since an earlier failure), the events `said`
        go to the run's note beside the journal instead (`pending.py`)."""
        if not self.broken:
            try:
                return call(*args)
            except sqlite3.Error as error:
                self._broke(error)
        if self.note is not None:
            for event in said:
                self.note.write(event)
        return None

    def _broke(self, error: sqlite3.Error) -> None:
        self.broken = True
        kept = f"; what it could not take is kept in {self.note.path}" if self.note is not None else " unrecorded"
        message = f"the journal {self.journal.path} could not be written ({error}); the run goes on{kept}"
        if self.note is not None:
            self.note.broke(str(error))
        if threading.current_thread() is self.writer:
            self.unsaid.append(message)
        else:
            self.warn(message)

    def _later(self, call: Callable[..., object], *args: Any, said: Sequence[Sequence[Any]] = ()) -> None:
        """`call(*args)` by the writer thread, after everything asked before."""
        if self.writer is None:
            self.ending = False
            self.writer = threading.Thread(target=self._writing, name="journal", daemon=True)
            self.writer.start()
        while self.waiting.qsize() >= BACKLOG_JOBS and self.writer.is_alive():
            time.sleep(GROUP_SECONDS / 10)
        self.waiting.put((call, args, said))
        if self.waiting.qsize() >= GROUP_JOBS - 1:
            self.full.set()  # the group the writer gathers is full: it need not wait for the rest of its time
        self._say()

    def _writing(self) -> None:
        ended = False
        while not ended and (first := self.waiting.get()) is not None:
            group, ended = self._group(first)
            self._write(self._together, group, said=[event for _, _, said in group for event in said])

    def _group(self, first: Job) -> tuple[list[Job], bool]:
        """The first job and those that come within `GROUP_SECONDS` of it (up to `GROUP_JOBS`); and whether
        the run asked the writer to end after them. The writer sleeps while the group gathers, woken early only
        when it is full or the run ends: woken for each job (twice a request), it took the GIL from the sender
        each time, the most of what the journal's thread cost once its statements were a few per group."""
        self.full.clear()
        if self.waiting.qsize() < GROUP_JOBS - 1 and not self.ending:
            self.full.wait(GROUP_SECONDS)
        group = [first]
        while len(group) < GROUP_JOBS:
            try:
                job = self.waiting.get_nowait()
            except queue.Empty:
                break
            if job is None:
                return group, True
            group.append(job)
        return group, False

    def _together(self, group: Sequence[Job]) -> None:
        with self.journal.together():
            for call, args in self._merged(group):
                call(*args)

    def _merged(self, group: Sequence[Job]) -> Iterator[tuple[Callable[..., object], tuple[Any, ...]]]:
        """The group's writes in their order, answers that follow one another written as one (`Journal.answers`:
        a statement per kind of write, not per answer). A mark going out is only noted (the next write takes it),
        so answers are merged across marks; any other write comes after the answers before it, and whatever
        follows a split comes after its halves are written (their marks going out, their answers)."""
        answers: list[Answered] = []
        for call, args, _ in group:
            if call == self.journal.sending:
                yield call, args
            elif call == self.journal.answers:
                answers.extend(args[1])
                if any(answered.halves for answered in args[1]):
                    yield self.journal.answers, (self.run, answers)
                    answers = []
            else:
                if answers:
                    yield self.journal.answers, (self.run, answers)
                    answers = []
                yield call, args
        if answers:
            yield self.journal.answers, (self.run, answers)

    def _say(self) -> None:
        while self.unsaid:
            self.warn(self.unsaid.pop(0))

    def drain(self) -> None:
        """Wait until everything handed to the writer thread is written."""
        if self.writer is not None:
            self.ending = True
            self.waiting.put(None)
            self.full.set()
            self.writer.join()
            self.writer = None
        self._say()

    def close(self) -> None:
        self.drain()
        self.journal.close()

    def start(self, start: RunStart) -> int | None:
        try:
            self.run = self.journal.start_run(start)
        except sqlite3.Error as error:
            raise unwritable(self.journal.path, error) from None
        return self.run

    def plan(
        self, operation: Operation, table: RowTable, plan: Plan, exchanges: Sequence[Exchange],
        unsent: str | None = None, held: Plan | None = None, superseded: Sequence[Exchange] = (),
    ) -> None:  # fmt: skip
        """What the run means to send; `unsent` says why nothing is (invalid rows), when so. A retry's
        `superseded` requests (of `held`'s records) are written too, never to be sent but by `retry --force`."""
        if self.run is None:
            return
        self.operation = operation
        where = self.where = RowLines(table)
        self.records = plan.records
        self.position = array("q", bytes(8 * len(plan.records)))
        requests, numbered = [], 0
        for exchange in exchanges:
            requests.append(self._request(exchange, numbered))
            for index in exchange.records:
                self.position[index] = numbered
                numbered += 1
        self.last_id = max((e.id for e in exchanges), default=0)
        records = self._entries(exchanges, plan, where, 0)
        if superseded:
            assert held is not None
            # Written at the end, numbered after every request the run made (halves included).
            records = chain(records, self._entries(superseded, held, where, numbered))
            for exchange in superseded:
                self.held.append(replace(self._request(exchange, numbered), state=SUPERSEDED))
                numbered += len(exchange.records)
        entry = PlanEntry(where.sources, len(table), records, requests, notes(table, plan, where, unsent))
        # The note's room first: once the plan is in, an answer the journal cannot take must have a place.
        try:
            self.note = Note(self.journal.path, self.run, len(requests) + len(self.held))
            self.journal.plan(self.run, entry)
        except (sqlite3.Error, OSError) as error:
            self._abandon()
            raise unwritable(self.journal.path, error) from None
        except BaseException:
            self._abandon()  # whatever stopped it, a run without its plan sent nothing: never shown as killed
            raise

    def _abandon(self) -> None:
        """A run stopped before it sent anything: its note and its row go (as far as the disk lets them)."""
        if self.note is not None:
            self.note.close()
            self.note = None
        if self.run is not None:
            with contextlib.suppress(sqlite3.Error):
                self.journal.forget(self.run)
            self.run = None

    def _entries(self, exchanges: Sequence[Exchange], plan: Plan, where: RowLines, first: int) -> Iterator[RecordEntry]:
        """The records of `exchanges` as the journal writes them, numbered from `first`, made as they are written."""
        number = first
        for exchange in exchanges:
            for entry in self._entry(exchange, [plan.records[i] for i in exchange.records], where, number):
                yield entry
                number += 1

    def _entry(self, exchange: Exchange, records: Sequence[Record], where: RowLines, first: int) -> list[RecordEntry]:
        """`exchange`'s `records` as journal entries numbered from `first`: key, dates, value as sent, lines."""
        operation = self.operation
        assert operation is not None, "a run's records are written after its plan"
        policy = None if of(operation).batched else policy_value(exchange.body)  # one body, one policy
        entries = []
        for number, record in enumerate(records, start=first):
            value = policy if policy is not None else wire_value(operation, record)
            rate = record.key[2] if len(record.key) > 2 else ""
            entries.append(RecordEntry(number, record.key[0], record.key[1], rate, record.start, record.end, value,
                                       where.text(record.refs)))  # fmt: skip
        return entries

    def _request(self, exchange: Exchange, first: int) -> RequestEntry:
        # A policy's body is not rebuilt from its record's value: it is kept as sent.
        assert self.operation is not None, "a run's requests are written after its plan"
        body = exchange.body if not of(self.operation).batched or self.keep_bodies else None
        return RequestEntry(exchange.id, exchange.propertyid, exchange.url, first, len(exchange.records), body,
                            form_of(exchange.body), exchange.parent)  # fmt: skip

    def sending(self, exchange: Exchange) -> None:
        if self.run is not None:
            self._later(self.journal.sending, self.run, exchange.id)

    def answered(self, exchange: Exchange, halves: Sequence[Exchange]) -> None:
        if self.run is None or exchange.outcome is None:
            return
        outcome = exchange.outcome
        if not outcome.sent:
            # Why it was not sent (a stop, or a refusal of its property, endpoint or account), for `history show`.
            why = [problem_dict(p) for p in outcome.errors]
            self._later(self.journal.unsent, self.run, exchange.id, why, said=[["unsent", exchange.id, why]])
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
        split = [self._request(h, self.position[h.records[0]]) for h in halves]
        self.last_id = max([self.last_id, *(h.id for h in halves)])
        acknowledged: list[RecordEntry] = []
        if outcome.success and self.where is not None:
            # An exchange's records are numbered in a row: its first record's number and on.
            records = [self.records[i] for i in exchange.records]
            acknowledged = self._entry(exchange, records, self.where, self.position[exchange.records[0]])
        said: list[list[Any]] = []
        if split:
            said.append(["split", exchange.id, [[h.id, h.first, h.count] for h in split]])
        else:
            said.append(["answer", exchange.id, answer.state, answer.transient, answer.attempts, answer.http_status,
                         answer.trackingid, [{**e, "message": str(e["message"])[:200]} for e in answer.errors],
                         now()])  # fmt: skip
        self._later(self.journal.answers, self.run, [Answered(exchange.id, answer, split, acknowledged)], said=said)

    def completes(self, runs: Sequence[int]) -> None:
        """This run (a retry) got acknowledged everything `runs` left."""
        if self.run is not None:
            self._write(self.journal.completes, self.run, runs)

    def finish(self, summary: dict[str, int], exit_code: int) -> None:
        self.drain()
        if self.run is not None and self.held:
            numbered = [replace(r, id=self.last_id + n) for n, r in enumerate(self.held, start=1)]
            self._write(self.journal.add_requests, self.run, numbered)
        if self.run is not None:
            self._write(self.journal.finish, self.run, summary, exit_code, said=[["end", now(), exit_code, summary]])
        if self.note is not None:
            self.note.close()


def unwritable(path: Path, error: BaseException) -> ConfigError:
    """Exit 4 before anything is sent: the journal (or the room of the run's note) cannot be had; a journal that
    is damaged or another program's says so, and how to move it aside."""
    damaged = isinstance(error, sqlite3.DatabaseError) and not isinstance(error, sqlite3.OperationalError)
    if damaged or isinstance(error, UnicodeDecodeError):
        return unreadable(path, error)
    reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
    return ConfigError(
        f"the journal cannot be written: nothing was sent ({path}: {reason})",
        "free space, or push unrecorded with --no-journal",
    )


def open_journal(env: Mapping[str, str], warn: Callable[[str], None]) -> Journal:
    """The journal to write; exit 4 when it cannot be opened (nothing has been sent)."""
    path = journal_path(env)
    try:
        journal = Journal(path)
    except (sqlite3.Error, OSError, UnicodeDecodeError) as error:
        raise unwritable(path, error) from None
    for notice in retire.notices:
        warn(notice)
    retire.notices.clear()
    return journal
