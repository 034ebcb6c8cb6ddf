"""Planning: from settings to the records to send. Pure: no I/O, no clock, today is given.

Past ranges are skipped, ranges starting in the past are clipped, weekday filters become runs,
equal values that touch or overlap merge, and different values that overlap are either an error
naming both rows or, with last-wins, painted over in input order.

Each key is planned on its own: its segments (a setting's dates, or each run of its weekdays) in
date order. A segment that overlaps none before it is a piece as it is; only segments that overlap
are compared with each other.
"""

from __future__ import annotations

import datetime as dt
from array import array
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import islice
from operator import gt, le, lt
from typing import NamedTuple

from ari_cli.exits import InputError
from ari_cli.planning.overlaps import Piece, Segment, clusters, conflicts, merged, paint
from ari_cli.records.dates import weekday_spans
from ari_cli.records.rules import RowView
from ari_cli.records.table import Settings, Value

_WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
LAST_WINS_NOTE = "every date of this row is set by a later row (--overlaps last-wins)"


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
    export's are, and a range of a thousand rows is one small object), else a tuple; one row is a tuple
    (a range holds two more ints: a file of a distinct room per row has a record per row)."""
    if len(rows) > 1 and rows[-1] - rows[0] == len(rows) - 1:
        return range(rows[0], rows[-1] + 1)
    return tuple(rows)


@dataclass
class Plan:
    """The records to send, and what happened to rows that send nothing."""

    records: list[Record] = field(default_factory=list)
    skipped: dict[int, str] = field(default_factory=dict)
    invalid: dict[int, list[str]] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # harmless things worth a line (a repeated row): --quiet hides them
    row_notes: dict[int, str] = field(default_factory=dict)  # what a row that sends something should say (clipped)


MAX_REPEAT_NOTES = 20  # a file of a thousand copies of one row needs a few lines, not a thousand

MAX_WEEKDAY_RECORDS = 1_000_000
"""The most records a run's weekday filters may ask for: one per run of days, so a row kept to Sat-Sun for two
years asks for 105, and a row of Mon,Wed,Fri to 2099 for over 11,000. A run holds its records while it
sends (about 230 bytes each, journal included: 1,000,000 records peak near 280 MB); a few rows of a small
file would otherwise ask for gigabytes. Rows without a filter are a record at most each, bounded by the file."""


def skipped_note(end: dt.date, today: dt.date) -> str:
    """Why a row whose range ends before today sends nothing."""
    return f"ends {end.isoformat()}, before today {today.isoformat()}"


def _where(views: Sequence[RowView], refs: Sequence[int]) -> str:
    first = views[refs[0]]
    lines = ", ".join(str(views[i].line) for i in refs)
    return f"{first.source} line{'s' if len(refs) > 1 else ''} {lines}"


def _shown(value: Value) -> str:
    describe = getattr(value, "describe", None)
    return describe() if callable(describe) else str(value)


class _KeySegments(NamedTuple):
    """A key's segments in date order, in columns: segment i is setting `settings[i]` from day
    `firsts[i]` to day `lasts[i]`; and what is known of them."""

    first: int  # the key's first setting that sends anything: keys are planned in that order
    firsts: list[int]
    settings: list[int]
    lasts: list[int]
    apart: bool  # no two segments share a date
    in_order: bool  # the settings came in date order: each piece's rows are in input order too

    def segments(self) -> list[Segment]:
        return list(zip(self.firsts, self.settings, self.lasts, strict=True))


class _Days(dict[int, dt.date]):
    """Day ordinal -> date, each made once: a big run's records share a few hundred dates."""

    def __missing__(self, ordinal: int) -> dt.date:
        day = self[ordinal] = dt.date.fromordinal(ordinal)
        return day


def plan(settings: Settings, views: Sequence[RowView], options: PlanOptions) -> Plan:
    """Turn checked settings into the records to send, deterministically; `views` name rows in messages."""
    planner = _Planner(settings, views, options)
    return planner.plan()


class _Planner:
    def __init__(self, settings: Settings, views: Sequence[RowView], options: PlanOptions) -> None:
        self.settings, self.views, self.options = settings, views, options
        self.result = Plan()
        self.days = _Days()
        self.values = [kind.value for kind in settings.kind_list]
        self.plain = [kind.days is None for kind in settings.kind_list]
        self.warnings: list[tuple[int, str]] = []  # (setting, warning): shown in input order
        self.weekday_records = 0  # asked for by weekday filters so far: see MAX_WEEKDAY_RECORDS

    def plan(self) -> Plan:
        records = self.result.records
        # Per key, in columns: its first setting that sends anything, and where its records start.
        firsts, starts = array("q"), array("q")
        repeats: list[tuple[int, int]] = []
        for key, kinds, settings in self.settings.by_key():
            segments = self._segments(kinds, settings)
            if not segments.apart:  # rows repeated exactly share their dates, so they are never apart
                repeats.extend(self._repeats(settings))
            if segments.settings:
                firsts.append(segments.first)
                starts.append(len(records))
                records.extend(self._plan_key(key, segments))
        # Keys in the order of their first setting that sends anything: requests follow that order. Keys come in
        # the order of their first setting, so only a key whose first rows are past or skipped is out of place.
        if any(map(gt, firsts, islice(firsts, 1, None))):
            stops = [*starts[1:], len(records)]
            order = sorted(range(len(firsts)), key=firsts.__getitem__)
            records[:] = [record for i in order for record in records[starts[i] : stops[i]]]
        self.result.warnings = [warning for _, warning in sorted(self.warnings, key=lambda pair: pair[0])]
        # Only the notes shown are written out: 160,000 rows repeating 700 took 25 s to name them all.
        self.result.notes = [self._repeat_note(*pair) for pair in repeats[:MAX_REPEAT_NOTES]]
        if len(repeats) > MAX_REPEAT_NOTES:
            self.result.notes.append(f"and {len(repeats) - MAX_REPEAT_NOTES} more rows repeated exactly")
        if self.settings.refs is not None and self.result.skipped:
            self._partly_skipped()
        if self.options.last_wins:  # only the later rows of last-wins paint rows over
            self._painted_over()
        return self.result

    def _partly_skipped(self) -> None:
        """A row of several settings (a grid's row) that a record carries is sent, though some of its dates
        end before today: its note says so, and it is not skipped."""
        plan = self.result
        carried = {row for record in plan.records for row in record.refs}
        for row in [row for row in plan.skipped if row in carried]:
            plan.row_notes.setdefault(row, f"some of its dates are not sent: {plan.skipped.pop(row)}")

    def _segments(self, key_kinds: list[int], settings: list[int]) -> _KeySegments:
        """A key's segments in date order.

        A setting that ends or starts in the past, or keeps to some weekdays, has its runs worked out
        (with its warning or note); the others are a segment as they are.
        """
        s, today, runs = self.settings, self.options.today.toordinal(), self._runs
        starts, ends, kinds, plain = s.starts, s.ends, s.kinds, self.plain
        every_day = all(plain[kind] for kind in key_kinds)
        firsts = _gathered(starts, settings) if every_day else []
        if every_day and min(firsts) >= today:
            # Every setting is a segment as it is (a nightly export's rows, already in date order): ordered
            # in steps over whole lists. A stable sort keeps equal starts in input order.
            in_order = all(map(le, firsts, islice(firsts, 1, None)))
            if in_order:
                ordered, lasts = settings, _gathered(ends, settings)
            else:
                ordered = sorted(settings, key=starts.__getitem__)
                firsts, lasts = list(map(starts.__getitem__, ordered)), list(map(ends.__getitem__, ordered))
            first = settings[0]
        else:
            segments: list[Segment] = []
            first = -1
            for setting in settings:
                start, end = starts[setting], ends[setting]
                if start < today or not plain[kinds[setting]]:
                    found = runs(setting, start, end, s.kind_list[kinds[setting]].days)
                    segments.extend((a, setting, b) for a, b in found)
                    if not found:
                        continue
                else:
                    segments.append((start, setting, end))
                if first < 0:
                    first = setting
            segments.sort()
            firsts, ordered, lasts = (
                [seg[0] for seg in segments],
                [seg[1] for seg in segments],
                [seg[2] for seg in segments],
            )
            in_order = False
        # In start order, segments share no date when each starts after the one before ends.
        apart = all(map(gt, islice(firsts, 1, None), lasts))
        return _KeySegments(first, firsts, ordered, lasts, apart, in_order)

    def _repeats(self, settings: list[int]) -> list[tuple[int, int]]:
        """(setting, the earlier one it repeats exactly: same dates and kind) of each repeat: sent once."""
        s = self.settings
        first: dict[tuple[int, int, int], int] = {}
        pairs: list[tuple[int, int]] = []
        for setting in settings:
            seen = first.setdefault((s.starts[setting], s.ends[setting], s.kinds[setting]), setting)
            if seen != setting:
                pairs.append((setting, seen))
        return pairs

    def _repeat_note(self, setting: int, seen: int) -> str:
        rows, views = self.settings.rows, self.views
        return f"{_where(views, rows(setting))}: repeats {_where(views, rows(seen))} exactly; sent once"

    def _runs(self, setting: int, start: int, end: int, days: frozenset[int] | None) -> list[tuple[int, int]]:
        """The runs of a setting that ends in the past, starts in the past, or keeps to some weekdays."""
        today, rows, plan = self.options.today, self.settings.rows(setting), self.result
        if end < today.toordinal():
            for row in rows:
                plan.skipped[row] = skipped_note(self.days[end], today)
            return []
        if start < today.toordinal():
            warning = f"{_where(self.views, rows)}: starts {self.days[start].isoformat()}, before today; "
            self.warnings.append((setting, warning + f"sending from {today.isoformat()}"))
            clipped = f"clipped: starts {self.days[start].isoformat()}, sent from today {today.isoformat()}"
            for row in rows:
                plan.row_notes[row] = clipped
            start = today.toordinal()
        if days is None:
            return [(start, end)]
        runs = weekday_spans(start, end, days)
        self.weekday_records += len(runs)
        if self.weekday_records > MAX_WEEKDAY_RECORDS:
            raise InputError(
                f"{_where(self.views, rows)}: with this row's weekday filter, the input asks for more than "
                f"{MAX_WEEKDAY_RECORDS:,} records (one per run of days); nothing was sent",
                hint="split the file by property or by dates and give each part on its own",
            )
        if not runs:
            names = ",".join(_WEEKDAYS[d] for d in sorted(days))
            why = f"no date from {self.days[start].isoformat()} to {self.days[end].isoformat()} is a {names}"
            for row in rows:
                plan.skipped[row] = why
        return runs

    def value(self, segment: Segment) -> Value:
        return self.settings.kind_list[self.settings.kinds[segment[1]]].value

    def _plan_key(self, key: tuple[str, ...], planned: _KeySegments) -> list[Record]:
        """A key's records from its segments in date order."""
        if not planned.apart:
            pieces = self._overlapping(planned.segments())
            if self.options.merge:
                pieces = merged(pieces)
        else:
            pieces = self._side_by_side(planned)
        days, rows_of, records = self.days, self.settings.rows, []
        # The records of one row (a weekday filter's runs: a hundred a row over two years) share its refs.
        alone: dict[int, Sequence[int]] = {}
        for start, end, value, carried in pieces:
            if self.settings.refs is not None:
                rows = sorted({row for s in carried for row in rows_of(s)})
            elif (planned.apart and planned.in_order) or all(map(lt, carried, islice(carried, 1, None))):
                rows = carried  # each row once, in order
            else:
                rows = sorted(set(carried))
            if len(rows) == 1:
                refs = alone.get(rows[0])
                if refs is None:
                    refs = alone[rows[0]] = row_refs(rows)
            else:
                refs = row_refs(rows)
            records.append(Record(key, days[start], days[end], value, refs))
        return records

    def _side_by_side(self, planned: _KeySegments) -> list[Piece]:
        """Pieces of a key none of whose segments share a date (a sorted export's rows): each segment is
        a piece, merged with the one before when they touch with one value."""
        kinds, values, merge = self.settings.kinds, self.values, self.options.merge
        pieces: list[Piece] = []
        first = end = -1
        value: Value = None
        carried: list[int] = []
        for start, setting, last in zip(planned.firsts, planned.settings, planned.lasts, strict=True):
            now = values[kinds[setting]]
            if merge and start == end + 1 and now == value:
                carried.append(setting)
            else:
                if carried:
                    pieces.append((first, end, value, carried))
                first, value, carried = start, now, [setting]
            end = last
        if carried:
            pieces.append((first, end, value, carried))
        return pieces

    def _overlapping(self, segments: list[Segment]) -> list[Piece]:
        """Pieces of a key some of whose segments overlap: different values are an error, or painted over."""
        groups = clusters(segments)
        if not self.options.last_wins:
            found = conflicts(groups, self.value)
            for mine, theirs in found:
                self._conflict(mine, theirs)
            bad = {mine[1] for mine, _ in found}
            if bad:
                groups = clusters([seg for seg in segments if seg[1] not in bad])
        pieces: list[Piece] = []
        for cluster in groups:
            one = len(cluster) == 1 or len({self.value(seg) for seg in cluster}) == 1
            if one and self.options.merge:
                # One value over dates that overlap: one piece (a cluster's dates have no gap), in linear time.
                settings = sorted(seg[1] for seg in cluster)
                pieces.append((cluster[0][0], max(seg[2] for seg in cluster), self.value(cluster[0]), settings))
            elif one:
                pieces.extend(
                    (start, end, self.value((start, setting, end)), [setting]) for start, setting, end in cluster
                )
            else:
                pieces.extend(paint(cluster, self.value))
        return pieces

    def _conflict(self, mine: Segment, theirs: Segment) -> None:
        views, rows = self.views, self.settings.rows
        shared = f"{self.days[max(mine[0], theirs[0])].isoformat()}..{self.days[min(mine[2], theirs[2])].isoformat()}"
        for ref in rows(mine[1]):
            view = views[ref]
            self.result.invalid.setdefault(ref, []).append(
                f"{view.source} line {view.line}: {_shown(self.value(mine))} overlaps "
                f"{_where(views, rows(theirs[1]))} ({_shown(self.value(theirs))}) on {shared}; "
                "fix one of them, or give --overlaps last-wins to let the later row win"
            )

    def _painted_over(self) -> None:
        """Rows no record carries, and that are neither skipped nor invalid, were painted over."""
        plan, settings = self.result, self.settings
        carried = {row for record in plan.records for row in record.refs}
        for setting, kind_id in enumerate(settings.kinds):
            if kind_id >= 0:  # an invalid row's setting carries nothing
                for row in settings.rows(setting):
                    if row not in carried and row not in plan.skipped and row not in plan.invalid:
                        plan.skipped[row] = LAST_WINS_NOTE


def _gathered(column: Sequence[int], settings: list[int]) -> list[int]:
    """The column's values of `settings`, which are in input order: a slice when they are consecutive
    rows (a sorted export's keys are)."""
    if settings[-1] - settings[0] == len(settings) - 1:
        return list(column[settings[0] : settings[-1] + 1])
    return list(map(column.__getitem__, settings))
