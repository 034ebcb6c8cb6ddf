"""Grids: settings laid out as a row per key and a column per date (dates across), or as a row per date and a
column per room (rooms across), read into the rows the records stage reads.

The layout is told from the header, or forced by --layout. Dates across: key columns (property, room, and rate
where the operation has one) and a column per date, named by the date. Rooms across: a date column, and a
column per room, named by the room's id (a name no column of the tool has). A grid without a property column
takes --property, one without a rate column (an operation set per rate) --rate-id.

A grid's row is one input row, given to the records stage as its pieces (`GridPart.segmented`): a run of
consecutive dates whose cells are equal is one piece (start..end), so a grid asks for no more records than the
same settings written as rows. Each piece's cell is the column the operation's grid cells give (its value, or
a policy's name: the descriptor's `cell`), checked by the same rule as a row's value: a blank cell sets
nothing, `n/a` clears. A message about a cell names it (`Part.places`): `file[sheet]:C7`, or a CSV's line and
column.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from ari_cli.choices import Layout
from ari_cli.inputs.columns import Resolver, is_metadata
from ari_cli.inputs.model import GridOptions, Part, skipped_rows
from ari_cli.inputs.names import CANONICAL, normalize, suggest
from ari_cli.operations import of
from ari_cli.operations.descriptor import RATE
from ari_cli.records.dates import LayoutTally, layout_hint, layouts, parse_date
from ari_cli.wire.operations import Operation

PROPERTY, ROOM, DATE = "propertyid", "roomid", "date"
_FLAGS = {PROPERTY: "--property", RATE: "--rate-id"}
_NOT_IN_A_GRID = ("start", "end", "days")
"""Row columns that have no place in a grid: its dates are its header's (or its date column's)."""
_ANY_DAY = dt.date(2000, 1, 1)  # what `today` a header date is read with: a header of `today+1` is no date

Position = Callable[[int], str]
"""A column's place as a message names it: `4` in a CSV, `D` in a sheet."""
CellName = Callable[[int, int, int], str]
"""Where the cells of a row (line) from one place to another are, as a message names them."""


@dataclass
class GridHeader:
    """A grid's header read: its layout, where its key columns are, and its columns across."""

    layout: Layout
    operation: Operation
    keys: dict[str, int] = field(default_factory=dict)
    """Canonical key column (propertyid, roomid, rateid, date) -> its place in the header."""
    across: list[tuple[int, str, Any]] = field(default_factory=list)
    """(place, name as written, its date or room id) of each column across, left to right."""
    given: dict[str, str] = field(default_factory=dict)
    """A key field no column gives -> the flag's value (--property, --rate-id)."""
    note: str = ""

    def columns(self) -> list[tuple[int, str]]:
        """(place, name) of each column the grid reads, left to right: key columns by their canonical names,
        the columns across by their names as written (a message about a cell the reader cannot read names it)."""
        named = [(place, name) for name, place in self.keys.items()]
        return sorted([*named, *((place, written) for place, written, _ in self.across)])


def header_date(name: str, date_format: str | None) -> dt.date | None:
    """The date a header name is, read as a date cell is (ISO, or --date-format); None when it is none."""
    try:
        return _read_date(name, date_format)
    except ValueError:
        return None


def _read_date(name: str, date_format: str | None) -> dt.date:
    if name.strip().lower().startswith("today"):
        raise ValueError(f'"{name.strip()}" names no day of the calendar; name the column by its date, YYYY-MM-DD')
    return parse_date(name, _ANY_DAY, date_format)


def _in_digits(name: str) -> bool:
    """Whether a header name is a date in digits that only --date-format reads (`01.06.2027`): a grid's dates as a
    German or French export writes them, never guessed, nor taken for unknown columns (a rows file's problem)."""
    return bool(layouts(name.strip()))


def _known(name: str, resolver: Resolver) -> str | None:
    """The canonical field a name is of any operation's (or a --column mapping's), without a word said."""
    key = normalize(name)
    if key in resolver.mapped_keys:
        return resolver.resolve(name)
    return CANONICAL.get(key)


def _aside(name: str, resolver: Resolver) -> bool:
    """Whether a column is left out whatever it holds: an export's own (Notes), or --ignore-column's."""
    return is_metadata(name) or normalize(name) in resolver.ignored_keys


def told_layout(names: Sequence[str], resolver: Resolver, options: GridOptions) -> Layout:
    """The header's layout: --layout's, else dates across when a column is named by a date beside a room
    column (and none is a row's date column), rooms across when a date column stands beside columns named as
    no column of the tool is (nor near such a name), else rows."""
    if options.layout is not None:
        return Layout(options.layout)
    known = [_known(name, resolver) for name in names]
    cell = of(resolver.operation).cell
    # A room column too: a row of values taken for the header (--header-row one line off) holds dates as well.
    dated = any(header_date(name, options.date_format) or _in_digits(name) for name in names)
    if dated and ROOM in known and not {DATE, "period", "start", "end"} & set(known):
        return Layout.DATES_ACROSS
    if DATE not in known or ROOM in known or cell in known:
        return Layout.ROWS
    others = [
        name
        for name, canonical in zip(names, known, strict=True)
        if canonical is None and name.strip() and not _aside(name, resolver)
    ]
    # A near miss of a known name (`Rooom`, `Treshold`) is a rows file's typo, which its header's messages name.
    if others and not any(suggest(name) for name in others):
        return Layout.ROOMS_ACROSS
    return Layout.ROWS


def grid_header(
    names: Sequence[str], resolver: Resolver, options: GridOptions, position: Position
) -> GridHeader | None:
    """The grid a header lays out; None when it is rows (a problem, in the resolver, when --property or
    --rate-id are given for rows). Problems go to the resolver's, each naming the column."""
    layout = told_layout(names, resolver, options)
    given = {name: value for name, value in ((PROPERTY, options.property_id), (RATE, options.rate_id)) if value}
    if layout is Layout.ROWS:
        for name, value in given.items():
            resolver.problems.append(
                f"{resolver.source}: {_FLAGS[name]} {value} is for a grid (a column per date or per room), and "
                "this file is read as rows: give its column instead, or --layout dates-across|rooms-across"
            )
        return None
    header = GridHeader(layout, resolver.operation)
    if layout is Layout.DATES_ACROSS:
        _dates_across(header, names, resolver, options, position)
    else:
        _rooms_across(header, names, resolver, position)
    _key_parts(header, names, resolver, given)
    how = f"--layout {layout.value}" if options.layout else "told from its header; --layout rows reads it as rows"
    if header.across:
        if layout is Layout.DATES_ACROSS:
            first, last = header.across[0][2], header.across[-1][2]
            what = f"dates across: {len(header.across)} dates, {first.isoformat()} to {last.isoformat()}"
        else:
            rooms = [room for _, room, _ in header.across]
            shown = ", ".join(rooms[:5]) + (f" and {len(rooms) - 5} more" if len(rooms) > 5 else "")
            what = f"rooms across: {len(rooms)} room{'s' if len(rooms) > 1 else ''}, {shown}"
        header.note = f"{resolver.source}: read as a grid with {what} ({how})"
    return header


def _quoted(resolver: Resolver, position: Position, place: int, name: str) -> str:
    return f'{resolver.source}: column {position(place)} "{name.strip()}"'


def _dates_across(
    header: GridHeader, names: Sequence[str], resolver: Resolver, options: GridOptions, position: Position
) -> None:
    """Key columns, then a column per date, left to right, each date once."""
    seen: dict[dt.date, int] = {}
    undated: list[str] = []  # each date in digits --date-format does not read, and why
    formats = LayoutTally()  # their layouts: when one reads them all, one message names it
    for place, name in enumerate(names):
        if not name.strip():
            continue  # an unnamed column: the part warns when it holds values
        try:
            day: dt.date | None = _read_date(name, options.date_format)
        except ValueError as problem:
            day, why = None, str(problem)
        if day is None and _in_digits(name):
            undated.append(f"{_quoted(resolver, position, place, name)} is not a date ({why})")
            formats.add(name.strip(), None)
            continue
        if day is None:
            if header.across and _known(name, resolver) is None and not _aside(name, resolver):
                # Right of the dates, a name that is nothing else was meant for a date.
                resolver.problems.append(
                    f"{_quoted(resolver, position, place, name)} is not a date ({why}): a grid with dates across "
                    "has a column per date, named by its date"
                )
                continue
            _key_column(header, names, place, resolver, position, (PROPERTY, ROOM, RATE))
            continue
        if day in seen:
            resolver.problems.append(
                f"{_quoted(resolver, position, place, name)} repeats the date {day.isoformat()} of column "
                f"{position(seen[day])}: a grid has one column per date"
            )
        elif header.across and day < header.across[-1][2]:
            before = header.across[-1]
            resolver.problems.append(
                f"{_quoted(resolver, position, place, name)} ({day.isoformat()}) comes after column "
                f"{position(before[0])} ({before[2].isoformat()}): a grid's dates go left to right, in order"
            )
        seen.setdefault(day, place)
        header.across.append((place, name.strip(), day))
    if undated and formats.common and options.date_format is None:
        resolver.problems.append(
            f'{resolver.source}: the dates of the header are written like "{formats.example}", not YYYY-MM-DD; give '
            f"{layout_hint(formats.common)}"
        )
    elif undated:
        resolver.problems.extend(undated)
    elif not header.across:
        resolver.problems.append(f"{resolver.source}: no column is named by a date, as a grid with dates across has")


def _rooms_across(header: GridHeader, names: Sequence[str], resolver: Resolver, position: Position) -> None:
    """A date column, and a column per room named by the room's id, each room once."""
    seen: dict[str, int] = {}
    for place, name in enumerate(names):
        if not name.strip():
            continue
        if _known(name, resolver) is not None or _aside(name, resolver):
            _key_column(header, names, place, resolver, position, (PROPERTY, RATE, DATE))
            continue
        room = name.strip()
        if room in seen:
            resolver.problems.append(
                f"{_quoted(resolver, position, place, name)} repeats the room of column {position(seen[room])}: "
                "a grid has one column per room"
            )
            continue
        seen[room] = place
        header.across.append((place, room, room))
    if DATE not in header.keys:
        resolver.problems.append(
            f"{resolver.source}: missing column date: a grid with rooms across has a date column, then a column "
            "per room"
        )
    if not header.across:
        resolver.problems.append(f"{resolver.source}: no column is named by a room, as a grid with rooms across has")


def _key_column(
    header: GridHeader, names: Sequence[str], place: int, resolver: Resolver, position: Position, keys: tuple[str, ...]
) -> None:
    """A column that is not across: one of `keys`, or left out (with the resolver's warning or hint), or one
    that has no place in a grid."""
    name = names[place]
    canonical = resolver.resolve(name)
    if canonical is None:
        return
    if canonical in keys and canonical in of(resolver.operation).columns:
        if canonical in header.keys:
            resolver.duplicate(names[header.keys[canonical]], name, canonical)
        else:
            header.keys[canonical] = place
        return
    across = "a column per date" if header.layout is Layout.DATES_ACROSS else "a date column and a column per room"
    resolver.problems.append(
        f"{_quoted(resolver, position, place, name)} ({canonical}) has no place in a grid with {across}, whose "
        "cells are the values; give --layout rows to read the file as rows"
    )


def _key_parts(header: GridHeader, names: Sequence[str], resolver: Resolver, given: dict[str, str]) -> None:
    """Each key field the grid's rows need: from its column, or from its flag; not both, not neither."""
    operation = of(resolver.operation)
    needed = [name for name in operation.key_fields if name != (ROOM if header.layout is Layout.ROOMS_ACROSS else "")]
    for name in needed:
        flag = _FLAGS.get(name)
        if name in header.keys and name in given:
            written = names[header.keys[name]].strip()
            resolver.problems.append(
                f'{resolver.source}: {flag} {given[name]} is given, and column "{written}" gives {name}: keep one '
                "of them"
            )
        elif name in given:
            header.given[name] = given[name]
        elif name not in header.keys:
            also = f", or {flag} {'P' if name == PROPERTY else 'R'} for a grid of one" if flag else ""
            resolver.problems.append(f"{resolver.source}: missing column {name}{also}")


def _blank(cell: Any) -> bool:
    return cell is None or (isinstance(cell, str) and not cell.strip())


def _same(one: Any, other: Any) -> bool:
    """Whether two cells hold one value as written (so that the dates between them are one piece)."""
    if isinstance(one, str) and isinstance(other, str):
        return one.strip() == other.strip()
    return type(one) is type(other) and one == other


class GridPart(Part):
    """A grid's rows as the rows of its pieces: the key fields, start, end and the cell's field, each piece
    followed by where its cells are (`places`)."""

    segmented = True

    def __init__(self, inner: Part, header: GridHeader, cell_name: CellName) -> None:
        operation = of(header.operation)
        self.cell = operation.cell
        self.key_fields = operation.key_fields
        names = (*self.key_fields, "start", "end", self.cell)
        super().__init__(inner.source, {name: i for i, name in enumerate(names)})
        self.notes = inner.notes  # filled as the inner part's rows are spent
        self.warnings = inner.warnings
        self.plain_cells = inner.plain_cells
        self._inner = inner
        self._header = header
        self._cell_name = cell_name

    def places(self, values: Sequence[Any]) -> dict[str, str]:
        return {self.cell: values[-1]}

    def rows(self) -> Iterator[tuple[int, Sequence[Any]]]:
        header, at, cell_name = self._header, self._inner.columns, self._cell_name
        keys = [(name, at.get(name), header.given.get(name)) for name in self.key_fields]
        across = [(place, at[written], value) for place, written, value in header.across]
        pieces = _runs if header.layout is Layout.DATES_ACROSS else partial(_cells, day_at=at.get(DATE))
        empty: list[int] = []  # rows whose every cell across is blank
        for line, values in self._inner.rows():
            key = {name: values[i] if i is not None else flag for name, i, flag in keys}
            found = False
            for first, last, start, end, cell, room in pieces(values, across):
                if room is not None:
                    key[ROOM] = room
                found = True
                yield line, (*key.values(), start, end, cell, cell_name(line, first, last))
            if not found:
                empty.append(line)
        if empty:
            self.notes.append(skipped_rows(self.source, empty))


_Piece = tuple[int, int, Any, Any, Any, str | None]
"""A piece of a grid's row: its first and last place, its first and last date, its cell, its room (rooms across)."""


def _runs(values: Sequence[Any], across: list[tuple[int, int, Any]]) -> Iterator[_Piece]:
    """A dates-across row's runs of equal cells on consecutive dates."""
    run: list[Any] = []  # first place, last place, first date, last date, cell
    for place, i, day in across:
        cell = values[i]
        if run and not _blank(cell) and _same(cell, run[4]) and day == run[3] + dt.timedelta(days=1):
            run[1], run[3] = place, day
            continue
        if run:
            yield (*run, None)
        run = [] if _blank(cell) else [place, place, day, day, cell]
    if run:
        yield (*run, None)


def _cells(values: Sequence[Any], across: list[tuple[int, int, Any]], day_at: int | None) -> Iterator[_Piece]:
    """A rooms-across row's cells, a piece each: the planner merges a room's equal values on the dates that
    follow, as it does for rows."""
    day = values[day_at] if day_at is not None else None
    for place, i, room in across:
        cell = values[i]
        if not _blank(cell):
            yield place, place, day, day, cell, room


def csv_cell_name(source: str, names: Sequence[str]) -> CellName:
    """How a CSV grid's messages name cells: the line and the column's name (a date, or a room)."""

    def named(line: int, first: int, last: int) -> str:
        span = f'"{names[first].strip()}"' if first == last else f'"{names[first].strip()}".."{names[last].strip()}"'
        return f"{source} line {line}, column{'s' if first != last else ''} {span}"

    return named


def sheet_cell_name(source: str, position: Position) -> CellName:
    """How a sheet grid's messages name cells: `file[sheet]:C7`, or `file[sheet]:C7:F7` for a run."""

    def named(line: int, first: int, last: int) -> str:
        cells = f"{position(first)}{line}" + (f":{position(last)}{line}" if first != last else "")
        return f"{source}:{cells}"

    return named
