""".xlsx and .xlsm workbooks read straight from their XML, a sheet's rows as the file gives them.

A sheet is parsed a block at a time (expat, from the standard library) and each row is handed on as it
ends, so a sheet of a million rows takes no more memory than a few. The cells come as python-calamine
gives them for the other formats (text, a float, a bool, a date), so that `cells.cell_value` turns both
into what CSV would hold.
"""

from __future__ import annotations

import csv
import datetime as dt
from collections.abc import Iterator
from typing import IO, Any
from xml.parsers import expat

from ari_cli.exits import InputError
from ari_cli.inputs.cells import date_cell, duration
from ari_cli.inputs.ooxml import BLOCK, DAMAGED, RESAVE_HINT, Package, xml_parser

Row = tuple[int, list[Any]]  # a sheet's row number and its cells, placed by their column from A
MAX_COLUMNS = 16_384
"""Excel's last column is XFD: a cell past it is refused, so that a row is bounded."""
_DIGITS = "0123456789"
UNSAVED = "a formula with no saved value: open and save the workbook in a spreadsheet program"
"""What a formula cell without its saved value is (the reader gives it as empty)."""


class XlsxBook(Package):
    """An .xlsx or .xlsm workbook whose sheets are read as a stream."""

    def __init__(self, source: Any) -> None:
        super().__init__(source)
        self.hidden_rows: set[int] = set()
        """The rows read so far that the sheet hides (hidden, or filtered out): each is in it before it is
        handed on."""
        self.odd_cells: dict[tuple[int, int], str] = {}
        """(row, column) -> what a cell read as empty is (an error, a formula with no saved value), filled as
        `hidden_rows` is."""
        self.hidden_columns: set[int] = set()
        """The columns the sheet hides (from 0): declared before its rows, so known once its header is read."""

    def rows(self, sheet: str, where: str) -> Iterator[Row]:
        """The rows of `sheet` that hold cells, in the file's order, as they are parsed; `where` names the
        sheet in messages. The sheet's part is opened now: the rows outlive `close()`."""
        strings = self.strings()
        dates, durations = self.styles()
        self.hidden_rows, self.odd_cells, self.hidden_columns = set(), {}, set()
        return _sheet_rows(
            self.sheet_part(sheet, where),
            where,
            strings,
            dates,
            durations,
            self.date1904,
            self.hidden_rows,
            self.odd_cells,
            self.hidden_columns,
        )


class _Columns(dict[str, int]):
    """A cell reference's letters -> its column from 0 (`A` is 0, `XFD` 16,383), each worked out once."""

    def __missing__(self, letters: str) -> int:
        column = 0
        for letter in letters:
            if not "A" <= letter <= "Z":
                raise ValueError(letters)
            column = column * 26 + ord(letter) - 64
        if not 0 < column <= MAX_COLUMNS:
            raise ValueError(letters)
        self[letters] = column - 1
        return column - 1


_COLUMNS = _Columns()


def _sheet_rows(
    stream: IO[bytes],
    where: str,
    strings: list[str],
    dates: frozenset[str],
    durations: frozenset[str],
    date1904: bool,
    hidden: set[int],
    odd: dict[tuple[int, int], str],
    hidden_columns: set[int],
) -> Iterator[Row]:
    """A sheet's rows, parsed a block at a time: each block's finished rows are handed on before the next
    is read. The handlers keep their state in local variables: they run for every cell of the sheet."""
    parser = xml_parser()
    limit = csv.field_size_limit()
    done: list[Row] = []  # the rows this block finished
    cells: list[Any] = []
    number = 0  # the row's number, as the sheet numbers it
    column = -1  # the column of the cell being read
    kind: str | None = None  # its type (`t=`): None a number, "s" a shared string, ...
    style: str | None = None  # its style (`s=`)
    text: str | None = None  # its text so far; None: it has none (an empty cell)
    taking = False  # within its <v> or <t>: its text is taken
    phonetic = False  # within the phonetic guide of an inline string: its text is not the cell's
    pending = False  # a cell is read and not yet placed in `cells`
    known_dates: dict[str, Any] = {}
    formula = False  # the cell has a formula (`<f>`)
    c = v = t = row = rph = inline = f = col = ""  # the names of the elements read, set when the worksheet starts

    def place() -> None:
        """The cell just read, as a value, in its column."""
        nonlocal pending
        pending = False
        if text is None:
            found: Any = ""
            if formula:
                odd[number, column] = UNSAVED
        elif kind is None:  # most cells: a number
            try:
                found = serial = float(text)
            except ValueError:
                found = text
            else:
                if style in dates:
                    found = known_dates.get(text)
                    if found is None:
                        found = known_dates[text] = date_cell(serial, date1904)
                elif style in durations:
                    found = duration(serial)
        elif kind == "s":
            try:
                found = strings[int(text)]
            except (ValueError, IndexError):
                raise InputError(f"{where} line {number}: a cell names shared string {text.strip()}, which the "
                                 "workbook lacks", hint=RESAVE_HINT) from None  # fmt: skip
        else:
            found = _typed(kind, text)
            if kind == "e":
                odd[number, column] = f"{text.strip()} (an error cell)"
        if column == len(cells):
            cells.append(found)
        elif column > len(cells):
            cells.extend([""] * (column - len(cells)))
            cells.append(found)
        else:
            cells[column] = found

    def start(name: str, attrs: dict[str, str]) -> None:
        nonlocal cells, number, column, kind, style, text, taking, phonetic, pending, formula
        if name == c:
            if pending:
                place()
            ref = attrs.get("r")
            if ref is None:
                column += 1
            else:
                try:
                    column = _COLUMNS[ref.rstrip(_DIGITS)]
                except ValueError:
                    raise InputError(f'{where} line {number}: a cell at "{ref}", past the last column XFD',
                                     hint=RESAVE_HINT) from None  # fmt: skip
            if column >= MAX_COLUMNS:
                raise InputError(f"{where} line {number}: more than {MAX_COLUMNS} cells in a row", hint=RESAVE_HINT)
            kind, style, text, taking, phonetic, pending = attrs.get("t"), attrs.get("s"), None, False, False, True
            formula = False
        elif name == v:
            taking = True
        elif name == t:
            taking = not phonetic
        elif name == row:
            if pending:
                place()
            if cells:
                done.append((number, cells))
                cells = []
            at = attrs.get("r")
            try:
                number = number + 1 if at is None else int(at)
            except ValueError:
                raise InputError(f'{where}: a row numbered "{at}"', hint=RESAVE_HINT) from None
            if attrs.get("hidden") in ("1", "true"):
                hidden.add(number)
            column, taking = -1, False
        else:
            taking = False
            if name == rph:
                phonetic = True
            elif name == f:
                formula = True
            elif name == inline:
                # An inline string's runs are joined without what lies between them.
                parser.EndElementHandler = end_inline
            elif name == col and attrs.get("hidden") in ("1", "true") and attrs.get("min", "").isdigit():
                low = int(attrs["min"])
                high = int(attrs["max"]) if attrs.get("max", "").isdigit() else low
                hidden_columns.update(range(low - 1, min(high, MAX_COLUMNS)))

    def end_inline(name: str) -> None:
        nonlocal taking
        taking = False
        if name == inline:
            parser.EndElementHandler = None

    def data(piece: str) -> None:
        nonlocal text
        if taking:
            if text is None:
                text = piece
            else:
                text += piece  # a text cut by a block's end, or outside a cell's <v> (only spaces)
                if len(text) > limit:
                    raise InputError(f"{where} line {number}: a cell's text is longer than {limit} characters",
                                     hint=RESAVE_HINT)  # fmt: skip

    def root(name: str, attrs: dict[str, str]) -> None:
        """The worksheet: its prefix, if it gives the main namespace one, is that of every name."""
        nonlocal c, v, t, row, rph, inline, f, col
        prefix = name[: name.index(":") + 1] if ":" in name else ""
        c, v, t, row, rph, inline, f, col = (
            prefix + local for local in ("c", "v", "t", "row", "rPh", "is", "f", "col")
        )
        parser.StartElementHandler = start

    parser.StartElementHandler = root
    parser.CharacterDataHandler = data
    try:
        with stream:
            while block := stream.read(BLOCK):
                _parse_block(parser, block, where)
                yield from done
                done.clear()
            _parse_block(parser, b"", where)
    except DAMAGED as problem:  # a damaged part shows only as it is unpacked
        raise InputError(f"{where}: cannot read the sheet: {problem}", hint=RESAVE_HINT) from None
    if pending:
        place()
    yield from done
    if cells:
        yield number, cells


def _typed(kind: str, text: str) -> Any:
    """A cell of a type other than a number or a shared string."""
    if kind == "b":
        return text.strip() in ("1", "true")
    if kind == "e":
        return ""  # #N/A, #DIV/0!: nothing to send, as python-calamine reads them
    if kind == "d":  # an ISO 8601 date cell (strict Open XML)
        try:
            return dt.datetime.fromisoformat(text.strip())
        except ValueError:
            return text
    if kind == "n":
        try:
            return float(text)
        except ValueError:
            return text
    return text  # "inlineStr", "str" (a formula's text)


def _parse_block(parser: Any, block: bytes, where: str) -> None:
    try:
        parser.Parse(block, not block)
    except expat.ExpatError as problem:
        raise InputError(f"{where}: cannot read the sheet: {problem}", hint=RESAVE_HINT) from None
