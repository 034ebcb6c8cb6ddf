"""The rows of a threshold or maxadv run, kept compact: a few ints per plainly valid row.

A nightly export holds a million rows; a dict, a view and a setting per row cost seconds and a
gigabyte. Here a plainly valid row (see `fastpath`) is four numbers: its line, the id of its key
and value (its `kind`) and its first and last dates as day ordinals. A CSV file's blocks are
checked a column at a time. Every other row goes through the precise path in `records`, which
words every error, and keeps the view and setting that path makes.

The table is also the run's sequence of row views: a view is made when one is asked for.
"""

from __future__ import annotations

import datetime as dt
from bisect import bisect_right
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import repeat
from operator import add, lt
from typing import overload

from ari_cli.fastpath import NOT_PLAIN, DateCells, LevelCells, quick, value_name
from ari_cli.inputs import SourceRow
from ari_cli.inputs.csvfile import Block
from ari_cli.records.rows import DateOptions, RowView, Setting, parse_level_row
from ari_cli.wire.operations import Operation

PRECISE = NOT_PLAIN  # the kind of a row kept as the precise path's objects


def iso(ordinal: int) -> str:
    return dt.date.fromordinal(ordinal).isoformat()


class Kinds:
    """Ids of (key, value) pairs, the same for every row that sets that value for that key."""

    def __init__(self) -> None:
        self.keys: list[tuple[str, ...]] = []  # per id
        self.values: list[str] = []
        self._ids: dict[tuple[tuple[str, ...], str], int] = {}

    def __call__(self, key: tuple[str, ...], value: str) -> int:
        found = self._ids.get((key, value))
        if found is None:
            found = self._ids[(key, value)] = len(self.keys)
            self.keys.append(key)
            self.values.append(value)
        return found


def _one_run(firsts: list[int], first: int, last: int) -> int | None:
    """Of runs starting at rows `firsts`, the one that holds rows first..last; None when they cross into the next."""
    run = bisect_right(firsts, first) - 1
    return run if run + 1 == len(firsts) or last < firsts[run + 1] else None


class LineNumbers:
    """The line of each row, kept as runs of consecutive lines: a sorted export's million rows are a
    few runs, and a block of rows is added in one step, not number by number."""

    def __init__(self) -> None:
        self._firsts: list[int] = []  # per run: its first row
        self._lines: list[int] = []  # per run: the line of its first row
        self._count = 0

    def __len__(self) -> int:
        return self._count

    def last(self) -> int | None:
        return self._lines[-1] + self._count - 1 - self._firsts[-1] if self._count else None

    def add(self, first_line: int, count: int = 1) -> None:
        """`count` rows on lines first_line, first_line + 1, ..."""
        if count <= 0:
            return
        if self.last() != first_line - 1:
            self._firsts.append(self._count)
            self._lines.append(first_line)
        self._count += count

    def __getitem__(self, index: int) -> int:
        if not 0 <= index < self._count:
            raise IndexError("row index out of range")
        run = bisect_right(self._firsts, index) - 1
        return self._lines[run] + index - self._firsts[run]

    def span(self, first: int, stop: int) -> range | None:
        """The lines of rows first..stop-1 when they are consecutive, else None."""
        run = _one_run(self._firsts, first, stop - 1) if 0 <= first < stop <= self._count else None
        if run is None:
            return None
        low = self._lines[run] + first - self._firsts[run]
        return range(low, low + stop - first)

    def of(self, rows: Sequence[int]) -> list[int]:
        """The lines of some rows, in the order given."""
        if rows:
            low, high = min(rows), max(rows)
            run = _one_run(self._firsts, low, high) if low >= 0 and high < self._count else None
            # A file's rows are usually one run (row i on line i + 2): then one addition each, in C.
            if run is not None:
                return list(map(add, rows, repeat(self._lines[run] - self._firsts[run])))
        return list(map(self.__getitem__, rows))

    def between(self, first: int, stop: int) -> list[int]:
        """The lines of rows first..stop-1."""
        lines: list[int] = []
        row = max(first, 0)
        stop = min(stop, self._count)
        while row < stop:
            run = bisect_right(self._firsts, row) - 1
            end = min(stop, self._firsts[run + 1] if run + 1 < len(self._firsts) else stop)
            low = self._lines[run] + row - self._firsts[run]
            lines += range(low, low + end - row)
            row = end
        return lines


@dataclass(frozen=True, slots=True)
class PlainColumns:
    """Plain rows as columns, to move between tables: the keys and values of their kinds, and per
    row the index of its kind in those and its first and last day (no `ends`: each its first)."""

    keys: list[tuple[str, ...]]
    values: list[str]
    kinds: list[int]
    starts: list[int]
    ends: list[int] | None

    def __len__(self) -> int:
        return len(self.kinds)


class RowTable(Sequence[RowView]):
    """Every row of a run, in input order; plain rows as parallel lists, others as objects."""

    def __init__(self, operation: Operation, dates: DateOptions) -> None:
        self.operation = operation
        self.dates = dates
        self.lines = LineNumbers()
        self.kinds: list[int] = []  # per row: the id of its key and value, or PRECISE
        self.starts: list[int] = []  # per row: first and last date as ordinals (0 for a precise row)
        self.ends: list[int] = []
        self.kind = Kinds()
        self.keys, self.values = self.kind.keys, self.kind.values  # per kind
        self.views: dict[int, RowView] = {}  # the precise rows
        self.settings: list[Setting] = []  # the precise rows' settings, in row order
        self.errors: dict[int, list[str]] = {}
        self._firsts: list[int] = []  # the first row of each run of rows from one source
        self._sources: list[str] = []
        self._dates = DateCells()
        self._cells = LevelCells(operation, self.kind)

    # Building ---------------------------------------------------------------------------------

    def _source(self, name: str, line: int, row: int | None = None) -> None:
        # A source's rows come in growing line order: a file given twice starts again, as a new run,
        # so that within a run lines only grow (`line_span` counts on it).
        last = self.lines.last()
        if not self._sources or self._sources[-1] != name or (last is not None and line <= last):
            self._firsts.append(len(self.kinds) if row is None else row)
            self._sources.append(name)

    def add_row(self, row: SourceRow) -> None:
        """One row: compact when plainly valid, else through the precise path."""
        self._source(row.source, row.line)
        index = len(self.kinds)
        self.lines.add(row.line)
        hit = quick(row.fields, self.operation) if self.dates.date_format is None else None
        if hit is not None:
            key, start, end, value, _ = hit
            self.kinds.append(self.kind(key, value))
            self.starts.append(start.toordinal())
            self.ends.append(end.toordinal())
            return
        view, setting, messages = parse_level_row(index, row, self.operation, self.dates)
        self.kinds.append(PRECISE)
        self.starts.append(0)
        self.ends.append(0)
        self.views[index] = view
        if setting is not None:
            self.settings.append(setting)
        if messages:
            self.errors[index] = messages

    def add_block(self, block: Block) -> None:
        """A CSV block: a column at a time when every row is plainly valid, else row by row."""
        if not self.add_plain(block):
            for row in block.rows():
                self.add_row(row)

    def add_plain(self, block: Block) -> bool:
        """A CSV block a column at a time when every row is plainly valid; else False, adding nothing."""
        count = len(self.kinds)
        if self._plain(block):
            self._source(block.source, block.first_line, count)
            self.lines.add(block.first_line, len(self.kinds) - count)
            return True
        del self.kinds[count:], self.starts[count:], self.ends[count:]
        return False

    def plain_columns(self) -> PlainColumns:
        """The table's rows as another table's `add_plain_rows` takes them; all must be plain."""
        assert not self.views, "only plain rows are kept as columns"
        ends = None if self.ends == self.starts else self.ends
        return PlainColumns(self.keys, self.values, self.kinds, self.starts, ends)

    def add_plain_rows(self, source: str, first_line: int, columns: PlainColumns) -> None:
        """Rows of `source` on consecutive lines from `first_line`, found plain by another table."""
        count = len(self.kinds)
        ids = list(map(self.kind, columns.keys, columns.values))
        self._source(source, first_line, count)
        self.kinds += map(ids.__getitem__, columns.kinds)
        self.starts += columns.starts
        self.ends += self.starts[count:] if columns.ends is None else columns.ends
        self.lines.add(first_line, len(self.kinds) - count)

    def _plain(self, block: Block) -> bool:
        """Append the block's rows to kinds, starts and ends, and tell whether they all are plain (when
        not, the caller drops what was appended). Appending in place, and looking for a row that is not
        plain in what was appended, spares copying a million-row run's columns twice."""
        if self.dates.date_format is not None or (block.has("days") and any(map(str.strip, block.column("days")))):
            return False
        names = ["propertyid", "roomid"] + (["rateid"] if self.operation is Operation.MAXADV else [])
        names.append(value_name(self.operation))
        if not all(map(block.has, names)):
            return False
        count = len(self.kinds)
        self.kinds += map(self._cells.__getitem__, zip(*map(block.column, names), strict=True))
        if block.has("date"):
            self.starts += map(self._dates.__getitem__, block.column("date"))
            self.ends += self.starts[count:]
        elif block.has("start") and block.has("end"):
            self.starts += map(self._dates.__getitem__, block.column("start"))
            self.ends += map(self._dates.__getitem__, block.column("end"))
            if _holds(self.ends, NOT_PLAIN, count) or any(map(lt, self.ends[count:], self.starts[count:])):
                return False
        else:
            return False
        return not _holds(self.kinds, NOT_PLAIN, count) and not _holds(self.starts, NOT_PLAIN, count)

    # Reading ----------------------------------------------------------------------------------

    def __len__(self) -> int:
        return len(self.kinds)

    @overload
    def __getitem__(self, index: int) -> RowView: ...

    @overload
    def __getitem__(self, index: slice) -> list[RowView]: ...

    def __getitem__(self, index: int | slice) -> RowView | list[RowView]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        kind = self.kinds[index]  # raises IndexError past the end, as a list does
        if kind == PRECISE:
            return self.views[index]
        key = self.keys[kind]
        start, end = self.starts[index], self.ends[index]
        dates = iso(start) if start == end else f"{iso(start)}..{iso(end)}"
        rate = key[2] if len(key) > 2 else ""
        return RowView(self.source(index), self.lines[index], key[0], key[1], rate, dates, self.values[kind])

    def __iter__(self) -> Iterator[RowView]:
        return (self[i] for i in range(len(self)))

    def source(self, index: int) -> str:
        """The source of a row, without making its view."""
        return self._sources[bisect_right(self._firsts, index) - 1]

    def source_runs(self) -> list[tuple[int, int, str]]:
        """(first row, row after the last, source) of each run of rows from one source."""
        stops = [*self._firsts[1:], len(self)] if self._firsts else []
        return list(zip(self._firsts, stops, self._sources, strict=True))

    def line_span(self, first: int, stop: int) -> range | None:
        """The lines of rows first..stop-1 when they are consecutive lines of one source, else None."""
        if stop <= first or _one_run(self._firsts, first, stop - 1) is None:
            return None
        return self.lines.span(first, stop)

    def line(self, index: int) -> int:
        """The line of a row, without making its view."""
        return self.lines[index]


def _holds(values: list[int], value: int, start: int) -> bool:
    """Whether values[start:] holds `value`, without copying it."""
    try:
        values.index(value, start)
    except ValueError:
        return False
    return True
