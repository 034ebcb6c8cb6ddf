"""A plan against what the service already has: maximal date ranges, each new, changed, cleared or same. Pure.

What the service has is the journal's spans (`changes.against` cuts a record where they change). A
range is `new` when the journal knows nothing of its dates (never pushed from this machine, or only
by pushes that failed), `same` when the service already has the planned value, `cleared` when the
plan sends the operation's clearing value (`n/a`, threshold and maxadv only: a policy cannot be
cleared) over a value, and `changed` otherwise. Touching ranges of one key with the same kind,
before and after are one range.
"""

from __future__ import annotations

import datetime as dt
from bisect import bisect_left
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from itertools import chain
from typing import TYPE_CHECKING

from ari_cli.planning.changes import ONE_DAY, Acknowledged, Key, Span, against
from ari_cli.wire.operations import CLEAR

if TYPE_CHECKING:
    from ari_cli.planning.plan import Plan, Record
    from ari_cli.records.table import RowTable


class Kind(StrEnum):
    NEW = "new"
    CHANGED = "changed"
    CLEARED = "cleared"
    SAME = "same"


CHANGES = (Kind.NEW, Kind.CHANGED, Kind.CLEARED)
"""The kinds that would change something at the service (or might: the journal knows nothing of `new`)."""


def kind_of(before: str | None, after: str) -> Kind:
    """How a planned value compares with the acknowledged one (None: nothing acknowledged)."""
    if before is None:
        return Kind.NEW
    if before == after:
        return Kind.SAME
    return Kind.CLEARED if after == CLEAR else Kind.CHANGED


@dataclass(slots=True)
class Change:
    """One maximal range of a key: its kind, the value before (None when new) and after, and its rows."""

    key: Key
    start: dt.date
    end: dt.date
    kind: Kind
    before: str | None
    after: str
    refs: list[Sequence[int]] = field(default_factory=list)
    """The rows, as the records that carry them keep them: a big plan's rows are never copied one by one."""

    @property
    def dates(self) -> int:
        return (self.end - self.start).days + 1

    def rows(self) -> list[int]:
        """The rows of the range, each once, in order."""
        if len(self.refs) == 1:
            return list(self.refs[0])  # a record's rows are in order, each once
        return sorted(set(chain.from_iterable(self.refs)))


def _pieces(records: Sequence[Record], spans: Sequence[Span], value_of: Callable[[Record], str]) -> Iterator[Change]:
    """A key's records in date order, cut where what the service has changes."""
    covered: dt.date | None = None
    for record in sorted(records, key=lambda r: (r.start, r.end)):
        # Records of a key overlap only when --no-merge keeps equal values apart: each date is compared once.
        start = record.start if covered is None else max(record.start, covered + ONE_DAY)
        if start > record.end:
            continue
        covered = record.end
        after = value_of(record)
        for first, last, kind, before in kinds(spans, start, record.end, after):
            yield Change(record.key, first, last, kind, before, after, [record.refs])


def kinds(
    spans: Sequence[Span], start: dt.date, end: dt.date, after: str
) -> Iterator[tuple[dt.date, dt.date, Kind, str | None]]:
    """`start` to `end` of a key planned as `after`, cut where what the service has changes: each piece with its
    kind and the value before (the diff's pieces, and a run's page, which marks only what would change)."""
    for first, last, span in against(spans, start, end):
        before = None if span is None else span.value
        yield first, last, kind_of(before, after), before


def diff(plan: Plan, value_of: Callable[[Record], str], acknowledged: Acknowledged) -> list[Change]:
    """Every planned date compared with `acknowledged`, as maximal ranges; keys in order, dates in order."""
    by_key: dict[Key, list[Record]] = {}
    for record in plan.records:
        by_key.setdefault(record.key, []).append(record)
    changes: list[Change] = []
    for key in sorted(by_key):
        last: Change | None = None
        for piece in _pieces(by_key[key], acknowledged.get(key, ()), value_of):
            if (
                last is not None
                and last.end + ONE_DAY == piece.start
                and (last.kind, last.before, last.after) == (piece.kind, piece.before, piece.after)
            ):
                last.end = piece.end
                if last.refs[-1] is not piece.refs[0]:
                    last.refs.extend(piece.refs)
                continue
            changes.append(piece)
            last = piece
    return changes


@dataclass(frozen=True, slots=True)
class Tally:
    ranges: int = 0
    dates: int = 0


def summary(changes: Sequence[Change]) -> dict[Kind, Tally]:
    """Ranges and dates of each kind."""
    counts = {kind: [0, 0] for kind in Kind}
    for change in changes:
        counts[change.kind][0] += 1
        counts[change.kind][1] += change.dates
    return {kind: Tally(ranges, dates) for kind, (ranges, dates) in counts.items()}


def would_change(changes: Sequence[Change]) -> bool:
    """Whether pushing the plan would change anything the journal knows of (or might: new ranges count)."""
    return any(change.kind in CHANGES for change in changes)


@dataclass(frozen=True, slots=True)
class DiffView:
    """A diff as shown: every range (the summary counts them all) and which of them to list."""

    operation: str
    base_url: str
    source_id: str
    changes: Sequence[Change]
    table: RowTable
    show_all: bool = False
    rows: int = 0
    invalid: int = 0
    skipped: int = 0
    notes: tuple[str, ...] = ()
    """What the JSON document lists under `notes`: what the journal said of the service (`app/elsewhere.py`)."""

    def listed(self) -> Iterator[Change]:
        return (c for c in self.changes if self.show_all or c.kind in CHANGES)

    def rows_of(self, change: Change) -> list[int]:
        """The rows whose dates meet the range, in order: a merged record's other rows set other dates."""
        first, last = change.start.toordinal(), change.end.toordinal()
        starts, ends = self.table.starts, self.table.ends
        rows = change.rows()
        return [i for i in rows if starts[i] <= last and ends[i] >= first] or rows

    def placed(self, change: Change) -> tuple[list[int], list[str]]:
        """The lines of the range's rows, and the files they are in (each once)."""
        rows = self.rows_of(change)
        sources = [name for first, stop, name in self.table.source_runs() if _meets(rows, first, stop)]
        return [self.table.lines[i] for i in rows], list(dict.fromkeys(sources))


def _meets(rows: list[int], first: int, stop: int) -> bool:
    """Whether sorted `rows` has one in first..stop-1."""
    at = bisect_left(rows, first)
    return at < len(rows) and rows[at] < stop
