"""Guards for unattended pushes: limits on what a push may change, judged from `diff`'s comparison. Pure.

- `max_changed` (N or P%): changed and cleared dates (new ones are not changes), P% of the dates the journal
  knows for the keys in the files, from today on;
- `max_cleared` (N or P%): cleared dates, the same way;
- `min_coverage` (P%): the keys and dates, from today on, that the last push of files of the same operation to
  the same service covered, of which the files must cover at least P%;
- `max_step` (N, threshold and maxadv): the most a date's value may move from what the service holds (`n/a`
  before or after is left to `max_cleared`).

A percentage with nothing to take it of passes, with a note. Nothing here reads the journal or prints.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from ari_cli.config.tuning import GUARD_LIMITS, Limit
from ari_cli.planning.changes import ONE_DAY, Key, Span
from ari_cli.planning.diff import Change, Kind
from ari_cli.records.rules import shown_dates

MOST_RANGES = 5  # ranges a tripped guard names

# Setting name -> its flag, and what it takes (declared once, with the profile's settings, in config/tuning.py).
GUARDS = {name: ("--" + name.replace("_", "-"), takes) for name, takes in GUARD_LIMITS.items()}


@dataclass(frozen=True, slots=True)
class Guards:
    max_changed: Limit | None = None
    max_cleared: Limit | None = None
    min_coverage: Limit | None = None
    max_step: Limit | None = None

    def __bool__(self) -> bool:
        return any(getattr(self, name) is not None for name in GUARDS)


@dataclass(frozen=True, slots=True)
class Trip:
    """A guard that trips: its flag, the figure and the limit as said, and the first ranges that tripped it."""

    name: str
    figure: str
    limit: str
    said: str
    ranges: tuple[str, ...]

    def as_dict(self) -> dict[str, str]:
        return {"name": self.name, "figure": self.figure, "limit": self.limit}


@dataclass
class Verdict:
    trips: list[Trip] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Known:
    """What a guard may take a percentage of: dates the journal knows for the files' keys (from today on), and
    the keys and dates the last push of files covered (None: no such push)."""

    dates: int
    last_push: int | None = None
    covered: Mapping[Key, Sequence[tuple[dt.date, dt.date]]] | None = None


def known_dates(spans: Mapping[Key, Sequence[Span]], keys: Iterable[Key], today: dt.date) -> int:
    """Dates from today on that the journal knows a value of, for `keys`."""
    total = 0
    for key in set(keys):
        for span in spans.get(key, ()):
            if span.end >= today:
                total += (span.end - max(span.start, today)).days + 1
    return total


def merged(ranges: Iterable[tuple[dt.date, dt.date]]) -> list[tuple[dt.date, dt.date]]:
    out: list[tuple[dt.date, dt.date]] = []
    for start, end in sorted(ranges):
        if out and start <= out[-1][1] + ONE_DAY:
            out[-1] = (out[-1][0], max(out[-1][1], end))
        else:
            out.append((start, end))
    return out


def _days(ranges: Iterable[tuple[dt.date, dt.date]]) -> int:
    return sum((end - start).days + 1 for start, end in ranges)


def _missing(
    wanted: Sequence[tuple[dt.date, dt.date]], have: Sequence[tuple[dt.date, dt.date]]
) -> list[tuple[dt.date, dt.date]]:
    """The parts of `wanted` (merged) that `have` (merged) does not cover."""
    gaps: list[tuple[dt.date, dt.date]] = []
    for start, end in wanted:
        day = start
        for first, last in have:
            if last < day or first > end:
                continue
            if first > day:
                gaps.append((day, first - ONE_DAY))
            day = max(day, last + ONE_DAY)
        if day <= end:
            gaps.append((day, end))
    return gaps


def _where(key: Key, start: dt.date, end: dt.date) -> str:
    return f"{' '.join(key)} {shown_dates(start, end, '')}"


def _change_text(change: Change) -> str:
    before = "-" if change.before is None else change.before
    return f"{_where(change.key, change.start, change.end)}: {before} -> {change.after}"


def _percent(part: int, whole: int) -> float:
    return 100.0 * part / whole


def _over(
    name: str, limit: Limit, count: int, base: int, what: str, ranges: Sequence[Change], notes: list[str]
) -> Trip | None:
    flag = GUARDS[name][0]
    if limit.percent:
        if base == 0:
            notes.append(f"{flag} {limit}: the journal knows no dates of these keys from today on; the guard passes")
            return None
        share = _percent(count, base)
        if share <= limit.value:
            return None
        figure = f"{share:.1f}%"
        said = f"{flag}: the push would {what} {count} of {base} known dates ({figure}), over the limit of {limit}"
    else:
        if count <= limit.value:
            return None
        figure = str(count)
        said = f"{flag}: the push would {what} {count} date{'' if count == 1 else 's'}, over the limit of {limit}"
    return Trip(flag, figure, str(limit), said, tuple(_change_text(c) for c in ranges[:MOST_RANGES]))


def _step(change: Change) -> float | None:
    try:
        return abs(float(change.after) - float(change.before or ""))
    except ValueError:
        return None  # n/a on either side: --max-cleared's to judge


def judge(
    guards: Guards, changes: Sequence[Change], known: Known, planned: Mapping[Key, Sequence[tuple[dt.date, dt.date]]]
) -> Verdict:
    """Which guards the changes trip, with notes for those that pass for want of anything to compare."""
    verdict = Verdict()
    notes = verdict.notes
    if guards.max_changed is not None:
        hit = [c for c in changes if c.kind in (Kind.CHANGED, Kind.CLEARED)]
        trip = _over("max_changed", guards.max_changed, sum(c.dates for c in hit), known.dates, "change", hit, notes)
        verdict.trips.extend([trip] if trip else [])
    if guards.max_cleared is not None:
        hit = [c for c in changes if c.kind is Kind.CLEARED]
        trip = _over("max_cleared", guards.max_cleared, sum(c.dates for c in hit), known.dates, "clear", hit, notes)
        verdict.trips.extend([trip] if trip else [])
    if guards.min_coverage is not None:
        verdict.trips.extend(_coverage(guards.min_coverage, known, planned, notes))
    if guards.max_step is not None:
        steps = [(c, s) for c in changes if c.kind is Kind.CHANGED and (s := _step(c)) is not None]
        over = [c for c, s in steps if s > guards.max_step.value]
        if over:
            biggest = max(s for _, s in steps)
            said = f"--max-step: a value would move by {biggest:g}, over the limit of {guards.max_step}"
            ranges = tuple(_change_text(c) for c in over[:MOST_RANGES])
            verdict.trips.append(Trip("--max-step", f"{biggest:g}", str(guards.max_step), said, ranges))
    return verdict


def _coverage(
    limit: Limit, known: Known, planned: Mapping[Key, Sequence[tuple[dt.date, dt.date]]], notes: list[str]
) -> list[Trip]:
    if known.covered is None or known.last_push is None:
        notes.append(f"--min-coverage {limit}: no earlier push of files to this service to compare with; the guard"
                     " passes")  # fmt: skip
        return []
    before = {key: merged(ranges) for key, ranges in known.covered.items()}
    whole = sum(_days(ranges) for ranges in before.values())
    if whole == 0:
        notes.append(f"--min-coverage {limit}: run {known.last_push} covered no dates from today on; the guard passes")
        return []
    gaps = {key: _missing(ranges, merged(planned.get(key, ()))) for key, ranges in sorted(before.items())}
    missing = sum(_days(ranges) for ranges in gaps.values())
    share = _percent(whole - missing, whole)
    if share >= limit.value:
        return []
    figure = f"{share:.1f}%"
    said = (f"--min-coverage: the files cover {whole - missing} of the {whole} keys and dates that run"
            f" {known.last_push} covered ({figure}), under the limit of {limit}")  # fmt: skip
    ranges = tuple(f"{_where(key, a, b)}: not in the files" for key, found in gaps.items() for a, b in found)
    return [Trip("--min-coverage", figure, str(limit), said, ranges[:MOST_RANGES])]


def planned_ranges(records: Iterable[tuple[Key, dt.date, dt.date]]) -> dict[Key, list[tuple[dt.date, dt.date]]]:
    """Per key, the dates the plan sets."""
    found: dict[Key, list[tuple[dt.date, dt.date]]] = {}
    for key, start, end in records:
        found.setdefault(key, []).append((start, end))
    return found
