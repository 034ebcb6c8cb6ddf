"""Planning a RowTable: each plain row compared with the previous row of its key. Pure.

Exports are usually sorted by key, then date: a key's rows then come one after another, each
starting after the last one ends, and records are the runs of rows that touch with one value.
Runs are found a whole column at a time; only each run, not each row, costs a step in Python.
A key whose rows overlap or come out of order, or that has a row from the precise path (a weekday
filter, a relative date), is planned by `plan.plan_keys`, the general planner, as is everything
when no row is plain. The plan is the one `plan.plan_settings` makes from the same rows.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from itertools import chain, compress, pairwise, repeat
from operator import add, and_, eq, gt, ne, not_, or_, sub

from ari_cli.inputs import ReadResult
from ari_cli.operations import Operation
from ari_cli.plan import Plan, PlanOptions, Record, clipped_warning, plan_keys, plan_settings, row_refs, skipped_note
from ari_cli.records import DateOptions, Parsed, Policy, Setting, parse_rows
from ari_cli.table import PRECISE, RowTable
from ari_cli.tableread import read_table

Key = tuple[str, ...]


@dataclass(slots=True)
class _KeyRuns:
    """A key planned here: its closed records, the one still growing, and what to undo if it cannot be."""

    first: int  # the key's first planned row: keys keep the order they first appear in
    kind: int
    start: int
    end: int
    refs: list[range]
    records: list[tuple[int, int, int, list[range]]] = field(default_factory=list)
    runs: list[tuple[int, int]] = field(default_factory=list)  # every run of the key, all rows
    warnings: list[tuple[int, str]] = field(default_factory=list)


def _bounds(table: RowTable, merge: bool) -> list[int]:
    """Where runs start: a row starts one unless it has the previous row's kind and starts the day after it ends."""
    count = len(table)
    if not merge or count < 2:
        return list(range(count + 1))
    kinds, starts, ends = table.kinds, table.starts, table.ends
    other_kind = map(ne, kinds[1:], kinds[:-1])
    not_next_day = map(ne, map(sub, starts[1:], ends[:-1]), repeat(1))
    return [0, *compress(range(1, count), map(or_, other_kind, not_next_day)), count]


def _past(table: RowTable, first: int, stop: int, options: PlanOptions, plan: Plan) -> int:
    """Skip the rows of a run that end before today; returns the first row left, which may start before today."""
    today = options.today.toordinal()
    row = first
    while row < stop and table.ends[row] < today:
        plan.skipped[row] = skipped_note(dt.date.fromordinal(table.ends[row]), options.today)
        row += 1
    return row


class _Days(dict[int, dt.date]):
    """Day ordinal -> date, each made once: a big run's records share a few hundred dates."""

    def __missing__(self, ordinal: int) -> dt.date:
        day = self[ordinal] = dt.date.fromordinal(ordinal)
        return day


def _at(values: list[int], indexes: Iterable[int]) -> list[int]:
    return list(map(values.__getitem__, indexes))


def _sorted_runs(table: RowTable, bounds: list[int], options: PlanOptions) -> list[Record] | None:
    """The records, when each run is one: a file sorted by key and date, nothing before today, every
    row plain or invalid. None otherwise. A whole column of runs at a time."""
    if table.settings:
        return None  # a weekday filter or a relative date: the general planner plans that key
    firsts, stops = bounds[:-1], bounds[1:]
    kinds = _at(table.kinds, firsts)
    if PRECISE in kinds:  # invalid rows, each a run of its own: they plan nothing
        kept = [kind != PRECISE for kind in kinds]
        firsts, stops, kinds = list(compress(firsts, kept)), list(compress(stops, kept)), list(compress(kinds, kept))
    if not kinds:
        return []
    starts, ends = _at(table.starts, firsts), _at(table.ends, map(sub, stops, repeat(1)))
    if min(starts) < options.today.toordinal():
        return None
    keys = list(map(table.keys.__getitem__, kinds))
    same = list(map(eq, keys[1:], keys[:-1]))
    follows = map(gt, starts[1:], ends[:-1])
    joins = map(and_, map(eq, kinds[1:], kinds[:-1]), map(eq, starts[1:], map(add, ends[:-1], repeat(1))))
    # Next to a run of its key, a run must start after it ends, and (merging) not touch it with its value.
    if not all(map(or_, map(not_, same), map(and_, follows, map(not_, joins) if options.merge else repeat(True)))):
        return None
    heads = [keys[0], *compress(keys[1:], map(not_, same))]
    if len(set(heads)) != len(heads):
        return None  # a key comes back after others
    days = _Days()
    values = map(table.values.__getitem__, kinds)
    refs = map(range, firsts, stops)
    return list(map(Record, keys, map(days.__getitem__, starts), map(days.__getitem__, ends), values, refs))


def plan_table(table: RowTable, options: PlanOptions) -> Plan:
    """The records to send for the table's rows, and what happened to the rows that send nothing."""
    plan = Plan()
    bounds = _bounds(table, options.merge)
    records = _sorted_runs(table, bounds, options)
    if records is not None:
        plan.records = records
        return plan
    today = options.today.toordinal()
    general: set[Key] = {setting.key for setting in table.settings}
    moved: list[tuple[int, int]] = []  # runs of plain rows whose key is planned by the general planner
    planned: dict[Key, _KeyRuns] = {}
    kinds, starts, ends, keys = table.kinds, table.starts, table.ends, table.keys
    for first, stop in pairwise(bounds):
        kind = kinds[first]
        if kind == PRECISE:
            continue
        key = keys[kind]
        if key in general:
            moved.append((first, stop))
            continue
        state = planned.get(key)
        row = first
        start = starts[first]
        warning = None
        if start < today:
            row = _past(table, first, stop, options, plan)
            if row == stop:
                if state is not None:
                    state.runs.append((first, stop))
                continue
            if starts[row] < today:
                where = clipped_warning(table, (row,), dt.date.fromordinal(starts[row]), options.today)
                warning = (row, where)
            start = max(starts[row], today)
        end = ends[stop - 1]
        if state is None:
            state = planned[key] = _KeyRuns(row, kind, start, end, [range(row, stop)])
        elif start <= state.end:
            # Overlapping, or out of date order: the general planner sorts that out.
            general.add(key)
            del planned[key]
            moved += state.runs
            moved.append((first, stop))
            continue
        elif kind == state.kind and start == state.end + 1 and options.merge:
            state.end = end
            state.refs.append(range(row, stop))
        else:
            state.records.append((state.kind, state.start, state.end, state.refs))
            state.kind, state.start, state.end, state.refs = kind, start, end, [range(row, stop)]
        state.runs.append((first, stop))
        if warning is not None:
            state.warnings.append(warning)
    return _assemble(table, options, plan, planned, moved)


def _settings(table: RowTable, moved: list[tuple[int, int]]) -> Iterator[Setting]:
    for first, stop in moved:
        for row in range(first, stop):
            kind = table.kinds[row]
            start, end = dt.date.fromordinal(table.starts[row]), dt.date.fromordinal(table.ends[row])
            yield Setting((row,), table.keys[kind], start, end, None, table.values[kind])


def _assemble(
    table: RowTable, options: PlanOptions, plan: Plan, planned: dict[Key, _KeyRuns], moved: list[tuple[int, int]]
) -> Plan:
    """Both planners' records, keys in order of first appearance; warnings in row order."""
    settings = sorted(chain(table.settings, _settings(table, moved)), key=lambda s: s.refs[0])
    keyed = plan_keys(settings, table, options, plan)
    order: list[tuple[int, Key]] = [(keyed.first[key], key) for key in keyed.records]
    order += [(state.first, key) for key, state in planned.items()]
    order.sort(key=lambda item: item[0])
    for _, key in order:
        state = planned.get(key)
        if state is None:
            plan.records += keyed.records[key]
            continue
        state.records.append((state.kind, state.start, state.end, state.refs))
        for kind, start, end, refs in state.records:
            rows = row_refs(refs[0] if len(refs) == 1 else tuple(chain.from_iterable(refs)))
            first, last = dt.date.fromordinal(start), dt.date.fromordinal(end)
            plan.records.append(Record(key, first, last, table.values[kind], rows))
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
