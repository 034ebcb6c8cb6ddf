"""Threshold and maxadv rows: a value for a room (and rate) over dates, checked by the rules of `rules`.

A nightly export repeats a few thousand combinations of ids, value and weekday filter, and a few
hundred dates, a million times: each distinct text (or typed cell) is judged once a file and remembered (a
memo of bounded size: a file whose rows never repeat gains nothing by it). A row with any problem is checked
again field by field, so that its every problem is worded, in order.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from operator import itemgetter
from typing import Any, NamedTuple

from ari_cli.inputs import Part
from ari_cli.operations import of
from ari_cli.operations.descriptor import Level
from ari_cli.records.dates import LayoutTally
from ari_cli.records.memo import Judged
from ari_cli.records.rules import (
    DateOptions,
    RowErrors,
    date_range,
    days_text,
    level_value,
    one_date,
    period,
    required_text,
    text,
    view,
    weekday_filter,
)
from ari_cli.records.strays import line_problems
from ari_cli.records.table import Kind, RowTable
from ari_cli.wire.operations import Operation

# A remembered judgement that a text breaks a rule: no kind id or day ordinal is negative.
INVALID = -1


Picker = Callable[[Sequence[Any]], Any]


def _picker(at: dict[str, int], names: Sequence[str]) -> Picker:
    """A function giving the cells of `names` a part has, as a tuple, in one step."""
    present = [at[name] for name in names if name in at]
    if len(present) == 1:
        only = present[0]
        return lambda values: (values[only],)
    return itemgetter(*present) if present else (lambda values: ())


def _date_pickers(at: dict[str, int]) -> tuple[Picker, Picker]:
    """Functions giving a row's start and end cells: its `date`, its `period` (both), or its `start` and `end`."""
    none: Picker = lambda values: None  # noqa: E731
    if "period" in at:  # a header gives it without date, start or end (`columns.Resolver.date_conflict`)
        period = itemgetter(at["period"])
        return period, period
    date = itemgetter(at["date"]) if "date" in at else None
    start = itemgetter(at["start"]) if "start" in at else none
    end = itemgetter(at["end"]) if "end" in at else none
    if date is None:
        return start, end
    if "start" not in at and "end" not in at:
        return date, date
    # JSON objects of one file may give `date` or `start` and `end`, each its own way.
    return (
        lambda values: date(values) if date(values) is not None else start(values),
        lambda values: date(values) if date(values) is not None else end(values),
    )


class _Fields(NamedTuple):
    """A part's memos of its ids, values and weekday filters."""

    keys: Judged[tuple[str, ...] | None]
    values: Judged[tuple[str, str] | None]
    filters: Judged[tuple[frozenset[int] | None, str] | None]


class LevelChecker:
    """Checks the rows of threshold or maxadv parts into a RowTable."""

    def __init__(self, operation: Operation, dates: DateOptions, table: RowTable) -> None:
        self.operation = operation
        self.dates = dates
        self.table = table
        rule = of(operation).rule
        assert isinstance(rule, Level), f"{operation.value} rows are not checked as levels"
        self.value_name, self.low, self.high = rule.field, rule.low, rule.high
        self._ids = of(operation).key_fields
        self._names: dict[str, str] = {}  # each id once: see `_key`
        self.tally = LayoutTally()

    def add_part(self, part: Part) -> None:
        """Check each row of one part and add it to the table."""
        # Each part's cells are judged afresh (so that the tally hears of every date text of this file), in
        # memos held only while it is read: held by the checker, whose methods they call, they would be a
        # cycle, kept into planning until the collector next looks.
        self.tally = LayoutTally()
        plain = part.plain_cells
        days = Judged(self._ordinal, plain)
        # A kind is a mix of ids, value and filter that each recur on their own: each distinct text of
        # each field is judged once (a few thousand ids, a few values), not once per mix.
        fields = _Fields(
            Judged(self._judge_key, plain), Judged(self._judge_value, plain), Judged(self._judge_filter, plain)
        )
        table, source, at = self.table, part.source, part.columns
        names = [name for name in (*self._ids, self.value_name, "days") if name in at]
        cells = _picker(at, names)
        # A part's ids, value and filter, judged as the fields they are in this part.
        kinds = Judged(lambda picked: self._kind(dict(zip(names, picked, strict=True)), fields), plain)
        start_at, end_at = _date_pickers(at)
        one_date = start_at is end_at  # a `date` column: the row's start is its end
        last_days = days
        if "period" in at:  # a range in one cell: its two ends, each judged once per distinct cell
            spans = Judged(self._span, plain)
            days, last_days = Judged(lambda cell: spans[cell][0], plain), Judged(lambda cell: spans[cell][1], plain)
            one_date = False
        # The table's columns, appended to directly: a method call per row would cost a tenth of the run.
        lines, row_kinds, starts, ends = table.lines, table.kinds, table.starts, table.ends
        table.start_source(source)
        for line, values in part.rows():
            kind = kinds[cells(values)]
            start = days[start_at(values)]
            end = start if one_date else last_days[end_at(values)]
            if kind >= 0 and 0 < start <= end:
                lines.append(line)
                row_kinds.append(kind)
                starts.append(start)
                ends.append(end)
            else:
                self._invalid(source, line, part.fields(values), part.places(values))

    def _ordinal(self, raw: Any) -> int:
        """A date field's day ordinal, or INVALID."""
        day = one_date(RowErrors(""), {"date": raw}, "date", self.dates, self.tally)
        return INVALID if day is None else day.toordinal()

    def _span(self, raw: Any) -> tuple[int, int]:
        """A `period` cell's first and last day ordinals, or INVALID for both."""
        start, end = period(RowErrors(""), {"period": raw}, self.dates, self.tally)
        return (INVALID, INVALID) if start is None or end is None else (start.toordinal(), end.toordinal())

    def _kind(self, fields: dict[str, Any], judged: _Fields) -> int:
        """The kind of a row's ids, value and weekday filter, or INVALID."""
        key = judged.keys[tuple(fields.get(name) for name in self._ids)]
        value = judged.values[fields.get(self.value_name)]
        days = judged.filters[fields.get("days")]
        if key is None or value is None or days is None:
            return INVALID
        return self.table.kind(Kind(key, value[0], days[0], days[1], value[1]))

    def _judge_key(self, ids: tuple[Any, ...]) -> tuple[str, ...] | None:
        return self._key(RowErrors(""), dict(zip(self._ids, ids, strict=True)))

    def _judge_value(self, cell: Any) -> tuple[str, str] | None:
        """The value as the wire writes it, and as the user wrote it."""
        found = level_value(RowErrors(""), {self.value_name: cell}, self.value_name, self.low, self.high)
        return None if found is None else (found, text(cell))

    def _judge_filter(self, cell: Any) -> tuple[frozenset[int] | None, str] | None:
        """The weekdays kept (None: every day), and the filter as the user wrote it."""
        errs = RowErrors("")
        days = weekday_filter(errs, {"days": cell})
        return None if errs.messages else (days, days_text(cell))

    def _key(self, errs: RowErrors, fields: dict[str, Any]) -> tuple[str, ...] | None:
        # A file of a distinct room per row has a key per row: each id is one text, not one per row. The ids are
        # checked in the key's order, so that their problems are worded in that order.
        key = []
        for name in self._ids:
            found = required_text(errs, fields, name)
            key.append(self._names.setdefault(found, found))
        return tuple(key) if all(key) else None

    def _invalid(self, source: str, line: int, fields: dict[str, Any], places: Mapping[str, str]) -> None:
        """A row with a problem, checked field by field: its view and every problem, in order."""
        errs = RowErrors(f"{source} line {line}", places)
        self._key(errs, fields)
        start, end, _ = date_range(errs, fields, self.dates)
        level_value(errs, fields, self.value_name, self.low, self.high)
        shown = view(source, line, fields, text(fields.get(self.value_name)), start, end)
        self.table.add_view(shown, line_problems(errs, fields))
