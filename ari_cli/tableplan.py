"""Planning a RowTable: each plain row compared with the previous row of its key. Pure.

Exports are usually sorted by key, then date: a key's rows then come one after another, each
starting after the last one ends, and records are the runs of rows that touch with one value.
Runs are found a whole column at a time; only each run, not each row, costs a step in Python.
Exports in another order (by date, or none) are first put in that order, the plain rows sorted by
key and first day. A key whose rows overlap, or that has a row from the precise path (a weekday
filter, a relative date), is planned by `plan.plan_keys`, the general planner, as is everything
when no row is plain. The plan is the one `plan.plan_settings` makes from the same rows.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import chain, compress, islice, pairwise, repeat
from operator import add, and_, eq, gt, le, ne, not_, or_, sub

from ari_cli.inputs import ReadResult
from ari_cli.plan import Plan, PlanOptions, Record, clipped_warning, plan_keys, plan_settings, row_refs, skipped_note
from ari_cli.records.rows import DateOptions, Parsed, Policy, Setting, parse_rows
from ari_cli.table import PRECISE, RowTable
from ari_cli.tableread import read_table
from ari_cli.wire.operations import Operation

Key = tuple[str, ...]


@dataclass(slots=True)
class _KeyRuns:
    """A key planned here: its closed records, the one still growing, and what to undo if it cannot be."""

    first: int  # the key's first planned row: keys keep the order they first appear in
    kind: int
    start: int
    end: int
    refs: list[range]  # spans of positions in the `_Order` planned
    records: list[tuple[int, int, int, list[range]]] = field(default_factory=list)
    runs: list[tuple[int, int]] = field(default_factory=list)  # every run of the key (positions), all its rows
    warnings: list[tuple[int, str]] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class _Order:
    """The plain rows in the order they are planned: per position, its kind, first and last day, and
    its row (`rows` None: every row of the table, in file order)."""

    kinds: list[int]
    starts: list[int]
    ends: list[int]
    rows: list[int] | None = None

    def row(self, position: int) -> int:
        return position if self.rows is None else self.rows[position]

    def first_row(self, first: int, stop: int) -> int:
        return first if self.rows is None else min(self.rows[first:stop])

    def refs(self, spans: Sequence[range]) -> Sequence[int]:
        """The rows at some spans of positions, in row order, as a record keeps them."""
        if self.rows is None:
            return row_refs(spans[0] if len(spans) == 1 else tuple(chain.from_iterable(spans)))
        rows = self.rows
        return row_refs(sorted(chain.from_iterable(rows[span.start : span.stop] for span in spans)))


def _file_order(table: RowTable) -> _Order:
    return _Order(table.kinds, table.starts, table.ends)


def _key_ids(table: RowTable) -> list[int]:
    """Per kind, an id of its key: ints compare and hash faster than tuples of strings."""
    ids: dict[Key, int] = {}
    return [ids.setdefault(key, len(ids)) for key in table.keys]


def _by_key_and_date(table: RowTable, key_ids: list[int]) -> _Order | None:
    """The plain rows grouped by key, keys in the order of their first rows, each key's rows by first
    day (ties in row order); None when that is the file's order. An export sorted by date, or not at
    all, then plans as fast as one sorted by key."""
    kinds, starts = table.kinds, table.starts
    every = PRECISE not in kinds
    plain: Sequence[int] = (
        range(len(kinds)) if every else list(compress(range(len(kinds)), map(ne, kinds, repeat(PRECISE))))
    )
    plain_kinds = kinds if every else _at(kinds, plain)
    firsts: dict[int, int] = {}  # key id -> its first row: the least of its kinds' first rows
    for kind, row in dict(zip(reversed(plain_kinds), reversed(plain), strict=True)).items():
        if row < firsts.get(key_ids[kind], row + 1):
            firsts[key_ids[kind]] = row
    ranks = {key: rank for rank, key in enumerate(sorted(firsts, key=firsts.__getitem__))}
    # One int per row sorts them, key rank above day ordinal: ordinals stay below 2**22 (year 9999 is 3.65M).
    kind_codes = [ranks.get(key, 0) << 22 for key in key_ids]
    codes = list(map(add, map(kind_codes.__getitem__, plain_kinds), starts if every else _at(starts, plain)))
    if every and all(map(le, codes, islice(codes, 1, None))):
        return None
    positions = sorted(range(len(plain)), key=codes.__getitem__)
    del codes
    rows = positions if every else _at(plain, positions)
    ordered_starts = _at(starts, rows)
    ordered_ends = ordered_starts if table.ends == starts else _at(table.ends, rows)
    return _Order(_at(kinds, rows), ordered_starts, ordered_ends, rows)


def _bounds(order: _Order, merge: bool) -> list[int]:
    """Where runs start: a row starts one unless it has the previous row's kind and starts the day after it ends."""
    count = len(order.kinds)
    if not merge or count < 2:
        return list(range(count + 1))
    kinds, starts, ends = order.kinds, order.starts, order.ends
    other_kind = map(ne, kinds[1:], kinds[:-1])
    not_next_day = map(ne, map(sub, starts[1:], ends[:-1]), repeat(1))
    return [0, *compress(range(1, count), map(or_, other_kind, not_next_day)), count]


def _past(order: _Order, first: int, stop: int, options: PlanOptions, plan: Plan) -> int:
    """Skip the rows of a run that end before today; returns the first position left (its row may
    start before today)."""
    today = options.today.toordinal()
    position = first
    while position < stop and order.ends[position] < today:
        plan.skipped[order.row(position)] = skipped_note(dt.date.fromordinal(order.ends[position]), options.today)
        position += 1
    return position


class _Days(dict[int, dt.date]):
    """Day ordinal -> date, each made once: a big run's records share a few hundred dates."""

    def __missing__(self, ordinal: int) -> dt.date:
        day = self[ordinal] = dt.date.fromordinal(ordinal)
        return day


def _at(values: Sequence[int], indexes: Iterable[int]) -> list[int]:
    return list(map(values.__getitem__, indexes))


def _sorted_runs(
    table: RowTable, key_ids: list[int], order: _Order, bounds: list[int], options: PlanOptions
) -> list[Record] | None:
    """The records, when each run is one: rows in order by key and date, nothing before today, every
    row plain or invalid. None otherwise. A whole column of runs at a time."""
    if table.settings:
        return None  # a weekday filter or a relative date: the general planner plans that key
    firsts, stops = bounds[:-1], bounds[1:]
    kinds = _at(order.kinds, firsts)
    if PRECISE in kinds:  # invalid rows, each a run of its own: they plan nothing
        kept = [kind != PRECISE for kind in kinds]
        firsts, stops, kinds = list(compress(firsts, kept)), list(compress(stops, kept)), list(compress(kinds, kept))
    if not kinds:
        return []
    ids = _at(key_ids, kinds)
    same = list(map(eq, ids[1:], ids[:-1]))
    heads = [ids[0], *compress(ids[1:], map(not_, same))]
    if len(set(heads)) != len(heads):
        return None  # a key comes back after others
    starts, ends = _at(order.starts, firsts), _at(order.ends, map(sub, stops, repeat(1)))
    if min(starts) < options.today.toordinal():
        return None
    follows = map(gt, starts[1:], ends[:-1])
    joins = map(and_, map(eq, kinds[1:], kinds[:-1]), map(eq, starts[1:], map(add, ends[:-1], repeat(1))))
    # Next to a run of its key, a run must start after it ends, and (merging) not touch it with its value.
    if not all(map(or_, map(not_, same), map(and_, follows, map(not_, joins) if options.merge else repeat(True)))):
        return None
    days = _Days()
    keys = map(table.keys.__getitem__, kinds)
    values = map(table.values.__getitem__, kinds)
    if order.rows is None:
        refs: Iterable[Sequence[int]] = map(range, firsts, stops)
    else:
        refs = map(row_refs, map(sorted, map(order.rows.__getitem__, map(slice, firsts, stops))))
    return list(map(Record, keys, map(days.__getitem__, starts), map(days.__getitem__, ends), values, refs))


def plan_table(table: RowTable, options: PlanOptions) -> Plan:
    """The records to send for the table's rows, and what happened to the rows that send nothing."""
    key_ids = _key_ids(table)
    order = _file_order(table)
    bounds = _bounds(order, options.merge)
    records = _sorted_runs(table, key_ids, order, bounds, options)
    if records is None and (by_key := _by_key_and_date(table, key_ids)) is not None:
        order = by_key
        bounds = _bounds(order, options.merge)
        records = _sorted_runs(table, key_ids, order, bounds, options)
    if records is not None:
        return Plan(records=records)
    return _plan_runs(table, order, bounds, options)


def _plan_runs(table: RowTable, order: _Order, bounds: list[int], options: PlanOptions) -> Plan:
    """Run by run: rows before today, and keys whose rows overlap or that have precise rows (for the
    general planner)."""
    plan = Plan()
    today = options.today.toordinal()
    general: set[Key] = {setting.key for setting in table.settings}
    moved: list[tuple[int, int]] = []  # runs of plain rows whose key is planned by the general planner
    planned: dict[Key, _KeyRuns] = {}
    kinds, starts, ends, keys = order.kinds, order.starts, order.ends, table.keys
    for first, stop in pairwise(bounds):
        kind = kinds[first]
        if kind == PRECISE:
            continue
        key = keys[kind]
        if key in general:
            moved.append((first, stop))
            continue
        state = planned.get(key)
        position = first
        start = starts[first]
        warning = None
        if start < today:
            position = _past(order, first, stop, options, plan)
            if position == stop:
                if state is not None:
                    state.runs.append((first, stop))
                continue
            if starts[position] < today:
                row = order.row(position)
                warning = (row, clipped_warning(table, (row,), dt.date.fromordinal(starts[position]), options.today))
            start = max(starts[position], today)
        end = ends[stop - 1]
        if state is None:
            state = planned[key] = _KeyRuns(order.first_row(position, stop), kind, start, end, [range(position, stop)])
        elif start <= state.end:
            # Overlapping, or out of date order: the general planner sorts that out.
            general.add(key)
            del planned[key]
            moved += state.runs
            moved.append((first, stop))
            continue
        else:
            state.first = min(state.first, order.first_row(position, stop))
            if kind == state.kind and start == state.end + 1 and options.merge:
                state.end = end
                state.refs.append(range(position, stop))
            else:
                state.records.append((state.kind, state.start, state.end, state.refs))
                state.kind, state.start, state.end, state.refs = kind, start, end, [range(position, stop)]
        state.runs.append((first, stop))
        if warning is not None:
            state.warnings.append(warning)
    return _assemble(table, order, options, plan, planned, moved)


def _settings(table: RowTable, order: _Order, moved: list[tuple[int, int]]) -> Iterator[Setting]:
    for first, stop in moved:
        for position in range(first, stop):
            kind, row = order.kinds[position], order.row(position)
            start, end = dt.date.fromordinal(order.starts[position]), dt.date.fromordinal(order.ends[position])
            yield Setting((row,), table.keys[kind], start, end, None, table.values[kind])


def _assemble(
    table: RowTable,
    order: _Order,
    options: PlanOptions,
    plan: Plan,
    planned: dict[Key, _KeyRuns],
    moved: list[tuple[int, int]],
) -> Plan:
    """Both planners' records, keys in order of first appearance; warnings in row order."""
    settings = sorted(chain(table.settings, _settings(table, order, moved)), key=lambda s: s.refs[0])
    keyed = plan_keys(settings, table, options, plan)
    firsts: list[tuple[int, Key]] = [(keyed.first[key], key) for key in keyed.records]
    firsts += [(state.first, key) for key, state in planned.items()]
    firsts.sort(key=lambda item: item[0])
    for _, key in firsts:
        state = planned.get(key)
        if state is None:
            plan.records += keyed.records[key]
            continue
        state.records.append((state.kind, state.start, state.end, state.refs))
        for kind, start, end, spans in state.records:
            first, last = dt.date.fromordinal(start), dt.date.fromordinal(end)
            plan.records.append(Record(key, first, last, table.values[kind], order.refs(spans)))
    warnings = list(zip(keyed.warned, plan.warnings, strict=True))
    warnings += [warning for state in planned.values() for warning in state.warnings]
    plan.warnings = [message for _, message in sorted(warnings, key=lambda item: item[0])]
    return plan


def validate_and_plan(
    read: ReadResult,
    operation: Operation,
    dates: DateOptions,
    options: PlanOptions,
    single_level: bool = False,
    named: Mapping[str, Policy] | None = None,
) -> tuple[Parsed, Plan]:
    """The rows read, validated and planned: threshold and maxadv rows through a RowTable."""
    if operation is Operation.POLICY:
        parsed = parse_rows(read.rows, operation, dates, single_level, named)
        return parsed, plan_settings(parsed.settings, parsed.views, options)
    table = read_table(read, operation, dates)
    return Parsed(table, table.settings, table.errors), plan_table(table, options)
