"""What the service holds for one key: spans of dates, each with the value last acknowledged for it. Pure.

An acknowledged record paints its dates over whatever was there: the spans it covers go, and those
it covers in part keep the dates it leaves. The spans of a key never overlap, so "the value of a
date" has one answer, and the last acknowledgement wins.
"""

from __future__ import annotations

import bisect
import datetime as dt
from collections.abc import Iterator, Mapping, Sequence
from typing import NamedTuple

ONE_DAY = dt.timedelta(days=1)


class Span(NamedTuple):
    """Dates start..end of a key hold `value`, set by record `record` of run `run`, acknowledged `ack`-th."""

    start: dt.date
    end: dt.date
    value: str
    run: int
    record: int = -1
    ack: int = 0


def paint(spans: Sequence[Span], over: Sequence[Span]) -> list[Span]:
    """`spans` (sorted, apart) with each of `over` painted on in turn: sorted and apart again."""
    result = sorted(spans)
    for new in over:
        kept: list[Span] = []
        for span in result:
            if span.end < new.start or span.start > new.end:
                kept.append(span)
                continue
            if span.start < new.start:
                kept.append(span._replace(end=new.start - ONE_DAY))
            if span.end > new.end:
                kept.append(span._replace(start=new.end + ONE_DAY))
        kept.append(new)
        result = sorted(kept)
    return result


class SpanDates(Mapping[dt.date, str]):
    """A key's spans seen as date -> value, without a dictionary entry per date (a year of 2,740 rooms
    would be a million)."""

    def __init__(self, spans: Sequence[Span]) -> None:
        self.spans = sorted(spans)
        self.starts = [s.start for s in self.spans]

    def span(self, day: dt.date) -> Span | None:
        """The span holding `day`, if any."""
        at = bisect.bisect_right(self.starts, day) - 1
        if at >= 0 and self.spans[at].end >= day:
            return self.spans[at]
        return None

    def get(self, day: dt.date, default: str | None = None) -> str | None:  # type: ignore[override]
        # Asked once per planned date by --changed-only: straight to the span, without a KeyError per miss.
        at = bisect.bisect_right(self.starts, day) - 1
        if at >= 0 and self.spans[at].end >= day:
            return self.spans[at].value
        return default

    def __getitem__(self, day: dt.date) -> str:
        found = self.span(day) if isinstance(day, dt.date) else None
        if found is None:
            raise KeyError(day)
        return found.value

    def __iter__(self) -> Iterator[dt.date]:
        for span in self.spans:
            day = span.start
            while day <= span.end:
                yield day
                day += ONE_DAY

    def __len__(self) -> int:
        return sum((s.end - s.start).days + 1 for s in self.spans)
