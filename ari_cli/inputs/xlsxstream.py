""".xlsx and .xlsm workbooks read straight from their XML, a sheet's rows as the file gives them.

A sheet is parsed a block at a time (expat, from the standard library) and each row is handed on as it
ends, so a sheet of a million rows takes no more memory than a few. The cells come as python-calamine
gives them for the other formats (text, a float, a bool, a date), so that `cells.cell_value` turns both
into what CSV would hold. What neither reader tells (hidden rows and columns, error cells, formulas with no
saved value, merged cells) is found by `sheetgrid`'s pass over the sheet before it is streamed.
"""

from __future__ import annotations

import csv
import datetime as dt
from collections.abc import Iterator
from typing import IO, Any
from xml.parsers import expat

from ari_cli.exits import InputError
from ari_cli.inputs.cells import date_cell, duration
from ari_cli.inputs.ooxml import BLOCK, DAMAGED, RESAVE_HINT, Package, prefixed, xml_parser
from ari_cli.inputs.sheetgrid import Marks, cell_column, row_number, survey

Row = tuple[int, list[Any]]  # a sheet's row number and its cells, placed by their column from A


class XlsxBook(Package):
    """An .xlsx or .xlsm workbook whose sheets are read as a stream."""

    def __init__(self, source: Any) -> None:
        super().__init__(source)
        self.marks = Marks()
        """What the reader does not tell of the sheet last read, from `sheetgrid`'s pass over it before it is
        streamed (merged cells are written after the rows)."""

    def rows(self, sheet: str, where: str) -> Iterator[Row]:
        """The rows of `sheet` that hold cells, in the file's order, as they are parsed; `where` names the
        sheet in messages. The sheet's part is opened now: the rows outlive `close()`."""
        strings = self.strings()
        dates, durations, _ = self.styles()
        self.marks = survey(self, sheet, where)[2]  # no bound on its grid: the stream holds a row at a time
        return _sheet_rows(self.sheet_part(sheet, where), where, strings, dates, durations, self.date1904)


def _sheet_rows(
    stream: IO[bytes],
    where: str,
    strings: list[str],
    dates: frozenset[str],
    durations: frozenset[str],
    date1904: bool,
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
    c = v = t = row = rph = inline = ""  # the names of the elements read, set when the worksheet starts

    def place() -> None:
        """The cell just read, as a value, in its column."""
        nonlocal pending
        pending = False
        if text is None:
            found: Any = ""
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
        if column == len(cells):
            cells.append(found)
        elif column > len(cells):
            cells.extend([""] * (column - len(cells)))
            cells.append(found)
        else:
            cells[column] = found

    def start(name: str, attrs: dict[str, str]) -> None:
        nonlocal cells, number, column, kind, style, text, taking, phonetic, pending
        if name == c:
            if pending:
                place()
            column = cell_column(attrs.get("r"), column, where, number)
            kind, style, text, taking, phonetic, pending = attrs.get("t"), attrs.get("s"), None, False, False, True
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
            number = row_number(attrs.get("r"), number, where)
            column, taking = -1, False
        else:
            taking = False
            if name == rph:
                phonetic = True
            elif name == inline:
                # An inline string's runs are joined without what lies between them.
                parser.EndElementHandler = end_inline

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
        nonlocal c, v, t, row, rph, inline
        c, v, t, row, rph, inline = prefixed(name, "c", "v", "t", "row", "rPh", "is")
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
