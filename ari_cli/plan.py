"""Planning: from settings to the records to send. Pure: no I/O, no clock, today is given.

Past ranges are skipped, ranges starting in the past are clipped, weekday filters become runs,
equal values that touch or overlap merge, and different values that overlap are either an error
naming both rows or, with last-wins, painted over in input order.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations

from ari_cli.records.dates import weekday_runs
from ari_cli.records.rows import RowView, Setting, Value

ONE_DAY = dt.timedelta(days=1)
_WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")


@dataclass(frozen=True, slots=True)
class PlanOptions:
    """The planning choices of a run."""

    today: dt.date
    merge: bool = True
    last_wins: bool = False


# Not frozen: a big run makes a hundred thousand records, and a frozen dataclass sets each field
# through object.__setattr__, which doubled the cost of making them. Nothing changes one once made.
@dataclass(slots=True)
class Record:
    """One record to send: a value for a key over [start, end], and the rows it carries."""

    key: tuple[str, ...]
    start: dt.date
    end: dt.date
    value: Value
    refs: Sequence[int]  # in row order, each row once: see `row_refs`

    @property
    def propertyid(self) -> str:
        return self.key[0]


def row_refs(rows: Sequence[int]) -> Sequence[int]:
    """Rows in order, each once, as a record keeps them: a range when they are consecutive (a sorted
    export's are, and a range of a thousand rows is one small object), else a tuple."""
    if rows and rows[-1] - rows[0] == len(rows) - 1:
        return range(rows[0], rows[-1] + 1)
    return tuple(rows)


@dataclass
class Plan:
    """The records to send, and what happened to rows that send nothing."""

    records: list[Record] = field(default_factory=list)
    skipped: dict[int, str] = field(default_factory=dict)
    invalid: dict[int, list[str]] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class _Segment:
    order: int
    start: dt.date
    end: dt.date
    value: Value
    refs: tuple[int, ...]


def _where(views: Sequence[RowView], refs: tuple[int, ...]) -> str:
    first = views[refs[0]]
    lines = ", ".join(str(views[i].line) for i in refs)
    return f"{first.source} line{'s' if len(refs) > 1 else ''} {lines}"


def _shown(value: Value) -> str:
    describe = getattr(value, "describe", None)
    return describe() if callable(describe) else str(value)


def skipped_note(end: dt.date, today: dt.date) -> str:
    """Why a row whose range ends before today sends nothing."""
    return f"ends {end.isoformat()}, before today {today.isoformat()}"


def clipped_warning(views: Sequence[RowView], refs: tuple[int, ...], start: dt.date, today: dt.date) -> str:
    """The warning for a range that starts before today and is sent from today."""
    return f"{_where(views, refs)}: starts {start.isoformat()}, before today; sending from {today.isoformat()}"


def _segments(
    settings: Sequence[Setting], views: Sequence[RowView], options: PlanOptions, plan: Plan, warned: list[int]
) -> dict[tuple[str, ...], list[_Segment]]:
    """Clip, skip and expand each setting into the date runs it really asks for."""
    today = options.today
    by_key: dict[tuple[str, ...], list[_Segment]] = {}
    for order, s in enumerate(settings):
        if s.end < today:
            for ref in s.refs:
                plan.skipped[ref] = skipped_note(s.end, today)
            continue
        start = s.start
        if start < today:
            plan.warnings.append(clipped_warning(views, s.refs, start, today))
            warned.append(s.refs[0])
            start = today
        runs = weekday_runs(start, s.end, s.days) if s.days is not None else [(start, s.end)]
        if not runs:
            names = ",".join(_WEEKDAYS[d] for d in sorted(s.days or ()))
            for ref in s.refs:
                plan.skipped[ref] = f"no date from {start.isoformat()} to {s.end.isoformat()} is a {names}"
            continue
        segments = by_key.setdefault(s.key, [])
        segments.extend(_Segment(order, a, b, s.value, s.refs) for a, b in runs)
    return by_key


def _clusters(segments: list[_Segment]) -> list[list[_Segment]]:
    """Groups of segments whose dates overlap (touching alone does not join a group)."""
    ordered = sorted(segments, key=lambda s: (s.start, s.order))
    clusters: list[list[_Segment]] = []
    reach = dt.date.min
    for seg in ordered:
        if clusters and seg.start <= reach:
            clusters[-1].append(seg)
            reach = max(reach, seg.end)
        else:
            clusters.append([seg])
            reach = seg.end
    return clusters


def _conflicts(by_key: dict[tuple[str, ...], list[_Segment]], views: Sequence[RowView], plan: Plan) -> set[int]:
    """Rows whose ranges overlap another row's with a different value; both rows are named."""
    bad: set[int] = set()
    for segments in by_key.values():
        for cluster in _clusters(segments):
            for a, b in combinations(sorted(cluster, key=lambda s: s.order), 2):
                if a.value == b.value or a.refs == b.refs or b.start > a.end or a.start > b.end:
                    continue
                shared = f"{max(a.start, b.start).isoformat()}..{min(a.end, b.end).isoformat()}"
                for mine, theirs in ((a, b), (b, a)):
                    for ref in mine.refs:
                        view = views[ref]
                        plan.invalid.setdefault(ref, []).append(
                            f"{view.source} line {view.line}: {_shown(mine.value)} overlaps "
                            f"{_where(views, theirs.refs)} ({_shown(theirs.value)}) on {shared}; "
                            "fix one of them, or give --overlaps last-wins to let the later row win"
                        )
                bad.update(a.refs + b.refs)
    return bad


@dataclass(slots=True)
class _Piece:
    start: dt.date
    end: dt.date
    value: Value
    refs: frozenset[int]


def _paint(cluster: list[_Segment]) -> list[_Piece]:
    """Later rows paint over earlier ones, date by date; equal values share the date."""
    start = cluster[0].start
    span = (max(s.end for s in cluster) - start).days + 1
    cells: list[tuple[Value, frozenset[int]] | None] = [None] * span
    for seg in sorted(cluster, key=lambda s: s.order):
        for i in range((seg.start - start).days, (seg.end - start).days + 1):
            cell = cells[i]
            if cell is not None and cell[0] == seg.value:
                cells[i] = (seg.value, cell[1] | frozenset(seg.refs))
            else:
                cells[i] = (seg.value, frozenset(seg.refs))
    pieces: list[_Piece] = []
    for i, cell in enumerate(cells):
        assert cell is not None  # a cluster's segments cover every date of its span
        day = start + dt.timedelta(days=i)
        last = pieces[-1] if pieces else None
        if last is not None and last.value == cell[0] and last.refs == cell[1]:
            last.end = day
        else:
            pieces.append(_Piece(day, day, cell[0], cell[1]))
    return pieces


def _pieces(segments: list[_Segment], merge: bool) -> list[_Piece]:
    pieces: list[_Piece] = []
    for cluster in _clusters(segments):
        if len(cluster) == 1 or (not merge and len({s.value for s in cluster}) == 1):
            pieces.extend(_Piece(s.start, s.end, s.value, frozenset(s.refs)) for s in cluster)
        else:
            pieces.extend(_paint(cluster))
    if not merge:
        return pieces
    merged: list[_Piece] = []
    for piece in pieces:
        last = merged[-1] if merged else None
        if last is not None and last.value == piece.value and piece.start <= last.end + ONE_DAY:
            last.end = max(last.end, piece.end)
            last.refs |= piece.refs
        else:
            merged.append(_Piece(piece.start, piece.end, piece.value, piece.refs))
    return merged


@dataclass
class KeyPlans:
    """Planning by key: each key's records, and the first row that planned it (keys keep that order)."""

    records: dict[tuple[str, ...], list[Record]] = field(default_factory=dict)
    first: dict[tuple[str, ...], int] = field(default_factory=dict)
    warned: list[int] = field(default_factory=list)  # the first row of each warning of the plan, in order


def plan_keys(settings: Sequence[Setting], views: Sequence[RowView], options: PlanOptions, plan: Plan) -> KeyPlans:
    """Each key's records, deterministically; skipped and invalid rows and warnings go to `plan`."""
    keyed = KeyPlans()
    by_key = _segments(settings, views, options, plan, keyed.warned)
    keyed.first = {key: segments[0].refs[0] for key, segments in by_key.items()}
    if not options.last_wins:
        bad = _conflicts(by_key, views, plan)
        if bad:
            by_key = {k: [s for s in v if not bad.intersection(s.refs)] for k, v in by_key.items()}
    carried: set[int] = set()
    for key, segments in by_key.items():
        records = keyed.records[key] = []
        for piece in _pieces(segments, options.merge):
            refs = row_refs(sorted(piece.refs))
            records.append(Record(key, piece.start, piece.end, piece.value, refs))
            carried.update(refs)
    for setting in settings:
        for ref in setting.refs:
            if ref not in carried and ref not in plan.skipped and ref not in plan.invalid:
                plan.skipped[ref] = "every date of this row is set by a later row (--overlaps last-wins)"
    return keyed


def plan_settings(settings: Sequence[Setting], views: Sequence[RowView], options: PlanOptions) -> Plan:
    """Turn validated settings into the records to send, deterministically."""
    plan = Plan()
    for records in plan_keys(settings, views, options, plan).records.values():
        plan.records.extend(records)
    return plan
