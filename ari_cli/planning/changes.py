"""What the service already has, as the journal says, and `--changed-only`. Pure.

The journal's acknowledgements of a key become spans: sorted, apart, maximal ranges of dates with
the value the last acknowledgement (in the order the service confirmed them) set, and the run that
sent it. `against` cuts a planned range where those spans change: the one rule `--changed-only`
and `diff` share for "what the service already has". Here a record becomes the runs of its dates
that still differ, and a row none of whose dates differ is skipped with a note saying so.
"""

from __future__ import annotations

import datetime as dt
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import compress
from operator import attrgetter, gt
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:  # the journal's readers load this module: planning stays unloaded for them
    from ari_cli.planning.plan import Plan, Record

ONE_DAY = dt.timedelta(days=1)
UNCHANGED = "unchanged: the journal says the service already has these values (--changed-only)"

Key = tuple[str, ...]


class Span(NamedTuple):
    """Dates `start` to `end` (both included) hold `value`, acknowledged in journal run `run`."""

    start: dt.date
    end: dt.date
    value: str
    run: int


# Per key, its spans: what the service was last told and acknowledged.
Acknowledged = Mapping[Key, Sequence[Span]]

_start, _end = attrgetter("start"), attrgetter("end")


def _joined(spans: list[Span]) -> list[Span]:
    """Neighbours that touch with the same value and run, as one span."""
    out: list[Span] = []
    for span in spans:
        last = out[-1] if out else None
        if last and last.end + ONE_DAY == span.start and (last.value, last.run) == (span.value, span.run):
            out[-1] = last._replace(end=span.end)
        else:
            out.append(span)
    return out


def paint(spans: list[Span], new: Span) -> None:
    """Lay `new` over `spans` (sorted, apart, maximal), as the service applies a later acknowledgement."""
    if not spans or spans[-1].end < new.start:
        # After everything known: how a push's records of a key come, in date order.
        spans[-1:] = _joined([*spans[-1:], new])
        return
    first = bisect_left(spans, new.start, key=_end)  # the first span that ends on or after new's start
    stop = bisect_right(spans, new.end, key=_start)  # the first span that starts after new's end
    pieces = [new]
    if first < stop and spans[first].start < new.start:
        pieces.insert(0, spans[first]._replace(end=new.start - ONE_DAY))
    if first < stop and spans[stop - 1].end > new.end:
        pieces.append(spans[stop - 1]._replace(start=new.end + ONE_DAY))
    # The neighbours on either side join in when they touch with the same value and run.
    low, high = max(first - 1, 0), min(stop + 1, len(spans))
    spans[low:high] = _joined([*spans[low:first], *pieces, *spans[stop:high]])


def against(spans: Sequence[Span], start: dt.date, end: dt.date) -> Iterator[tuple[dt.date, dt.date, Span | None]]:
    """`start` to `end` cut where what the service has changes: each piece with its span, or None (nothing known)."""
    at = bisect_left(spans, start, key=_end)
    day = start
    while day <= end:
        if at < len(spans) and spans[at].start <= day:
            last = min(spans[at].end, end)
            yield day, last, spans[at]
            at += 1
        else:
            last = min(spans[at].start - ONE_DAY, end) if at < len(spans) else end
            yield day, last, None
        day = last + ONE_DAY


def _changed_runs(record: Record, value: str, spans: Sequence[Span]) -> list[tuple[dt.date, dt.date]]:
    """The runs of the record's dates whose value is not what `spans` say the service has."""
    at = bisect_left(spans, record.start, key=_end)
    if at < len(spans) and spans[at].start <= record.start and record.end <= spans[at].end:
        # Within one span, as most of a night's records are: no cutting needed.
        return [] if spans[at].value == value else [(record.start, record.end)]
    runs: list[tuple[dt.date, dt.date]] = []
    for start, end, span in against(spans, record.start, record.end):
        if span is not None and span.value == value:
            continue
        if runs and runs[-1][1] + ONE_DAY == start:
            runs[-1] = (runs[-1][0], end)
        else:
            runs.append((start, end))
    return runs


def keep_changed(plan: Plan, value_of: Callable[[Record], str], acknowledged: Acknowledged) -> Plan:
    """The plan with only the dates that differ from `acknowledged`; rows left with nothing to send are skipped."""
    records: list[Record] = []
    rows = max((record.refs[-1] for record in plan.records if record.refs), default=-1) + 1
    # Per row, whether a record of it still sends something, and whether one sends nothing.
    sends, quiet = bytearray(rows), bytearray(rows)
    for record in plan.records:
        spans = acknowledged.get(record.key)
        runs = _changed_runs(record, value_of(record), spans) if spans else [(record.start, record.end)]
        for start, end in runs:
            # A record that sends all its dates is kept as it is (nothing changes a record once made).
            whole = start == record.start and end == record.end
            records.append(record if whole else replace(record, start=start, end=end))
        _mark(sends if runs else quiet, record.refs)
    # Rows marked quiet and not sending (1 > 0, compared a byte at a time without a Python step per row:
    # a night's export skips most of its million rows as unchanged).
    unchanged = compress(range(rows), map(gt, quiet, sends))
    skipped = {**plan.skipped, **dict.fromkeys(unchanged, UNCHANGED)}
    return replace(plan, records=records, skipped=skipped)


CONFLICT = "conflict: the file holds the value exported before a later push changed it (--force sends it)"


class Conflict(NamedTuple):
    """Dates where a file exported at run `since` still holds its exported value (`exported`) while the service
    has had another (`now`) since, from run `run`: sending it would undo that later push."""

    key: Key
    start: dt.date
    end: dt.date
    exported: str
    now: str
    run: int
    refs: Sequence[int]


def conflicts(
    plan: Plan, value_of: Callable[[Record], str], now: Acknowledged, then: Acknowledged, since: int
) -> list[Conflict]:
    """The dates of the plan that hold the value the service had at run `since` (`then`) while it holds another
    (`now`) set by a later run. A date the file changed, or one nothing was known of then, is no conflict."""
    found: list[Conflict] = []
    for record in plan.records:
        value, spans = value_of(record), now.get(record.key, ())
        for start, end, span in against(spans, record.start, record.end):
            if span is None or span.run <= since or span.value == value:
                continue
            for first, last, old in against(then.get(record.key, ()), start, end):
                if old is not None and old.value == value:
                    found.append(Conflict(record.key, first, last, value, span.value, span.run, record.refs))
    return found


def without(plan: Plan, found: Sequence[Conflict]) -> Plan:
    """The plan without the conflicting dates; a row left with nothing to send is skipped, saying why."""
    if not found:
        return plan
    cut: dict[Key, list[tuple[dt.date, dt.date]]] = {}
    for conflict in found:
        cut.setdefault(conflict.key, []).append((conflict.start, conflict.end))
    records: list[Record] = []
    sending: set[int] = set()
    for record in plan.records:
        day, pieces = record.start, []
        for start, end in sorted(c for c in cut.get(record.key, ()) if c[1] >= record.start and c[0] <= record.end):
            if start > day:
                pieces.append((day, start - ONE_DAY))
            day = max(day, end + ONE_DAY)
        if day <= record.end:
            pieces.append((day, record.end))
        whole = pieces == [(record.start, record.end)]
        records.extend(record if whole else replace(record, start=a, end=b) for a, b in pieces)
        if pieces:
            sending.update(record.refs)
    held = {ref for conflict in found for ref in conflict.refs if ref not in sending}
    return replace(plan, records=records, skipped={**plan.skipped, **dict.fromkeys(held, CONFLICT)})


def _mark(flags: bytearray, refs: Sequence[int]) -> None:
    if isinstance(refs, range) and refs.step == 1:
        # A merged record of a sorted export carries a range of rows: marked in one step.
        flags[refs.start : refs.stop] = b"\x01" * len(refs)
    else:
        for ref in refs:
            flags[ref] = 1


@dataclass(frozen=True, slots=True)
class CalendarView:
    """What to draw: per key, the acknowledged value of each date between start and end."""

    operation: str
    propertyid: str
    base_url: str
    source_id: str
    start: dt.date
    end: dt.date
    values: Mapping[Key, Mapping[dt.date, str]]

    def days(self) -> list[dt.date]:
        count = (self.end - self.start).days + 1
        return [self.start + n * ONE_DAY for n in range(count)]

    def shown(self, key: Key) -> dict[dt.date, str]:
        return {day: v for day, v in self.values[key].items() if self.start <= day <= self.end}
