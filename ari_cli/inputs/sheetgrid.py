"""What python-calamine would build of an .xlsx or .xlsm sheet, and what it does not tell, found before it
reads the sheet.

The reader holds a sheet as a dense grid from its first to its last row and column that hold a value: a
170 KB workbook with values only in columns A and XFD over 20,000 rows is a grid of 327 million cells (over
10 GB). One pass over the sheet's XML finds the cell references, and a sheet whose grid passes MAX_CELLS is
refused, naming its size. The same pass notes what the reader does not tell (`Marks`): hidden rows and
columns, error cells, formulas with no saved value, merged cells, which it reads as empty.

The pass searches the unpacked bytes a block at a time (about half the time the reader takes, measured in
benchmarks/README.md); a sheet whose cells are not written as spreadsheet programs write them (`r` first, no
namespace prefix) is parsed instead, with expat (standard library; its DOCTYPE already refused), for its
size and hidden rows.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import IO, Any

from ari_cli.exits import InputError
from ari_cli.inputs.ooxml import BLOCK, DAMAGED, RESAVE_HINT, Package, xml_parser
from ari_cli.inputs.xlsxstream import MAX_COLUMNS, UNSAVED

MAX_CELLS = 8_000_000
"""The most cells (rows x columns, from the first to the last that hold a value) of a sheet python-calamine
reads: about 256 MB as it holds them. A sheet of 200,000 rows and 40 columns fits; a larger one is saved as
CSV, which is streamed whatever its size."""
_DIGITS = "0123456789"
_SCAN = 1 << 20
_CELLS = (b"<c ", b"<c>")
_REF = b'<c r="'
_VALUED = re.compile(rb'<c r="([A-Z]{1,3})([0-9]{1,7})"[^>/]*>')  # a cell not closed at once: it holds something
_ERROR_CELL = re.compile(
    rb'<c r="([A-Z]{1,3})([0-9]{1,7})"[^>]*? t="e"[^>/]*>\s*(?:<f[^>]*/>|<f[^>]*>[^<]*</f>)?\s*<v>([^<]*)</v>'
)
_UNSAVED = re.compile(
    rb'<c r="([A-Z]{1,3})([0-9]{1,7})"[^>/]*>\s*(?:<f[^>]*/>|<f[^>]*>[^<]*</f>)\s*(?:<v\s*/>|<v>\s*</v>)?\s*</c>'
)
_MERGED = re.compile(rb'<mergeCell ref="([A-Z]{1,3})([0-9]{1,7}):([A-Z]{1,3})([0-9]{1,7})"')
_COLUMN_SPAN = re.compile(rb"<col\b[^>]*>")
_ATTRIBUTE = re.compile(rb'(\w+)="([^"]*)"')
_HIDDEN_ROW = re.compile(rb'<row r="([0-9]{1,7})"[^>]*? hidden="(?:1|true)"')
_VALUED_COLUMN = re.compile(rb'<c r="([A-Z]{1,3})[0-9]{1,7}"[^>/]*>')


@dataclass
class Marks:
    """What the reader does not tell of a sheet's cells: rows it hides, cells that read as empty though they
    are not (an error, a formula with no saved value, a merged cell), columns it hides."""

    hidden_rows: set[int] = field(default_factory=set)
    cells: dict[tuple[int, int], str] = field(default_factory=dict)
    """(row, column from 0) -> what the cell is, for a message: `#N/A (an error cell)`."""
    merged: list[tuple[int, int, int, int]] = field(default_factory=list)
    """(first row, first column, last row, last column) of each merged range."""
    hidden_columns: set[int] = field(default_factory=set)
    offset: int = 0
    """The column of a row's first cell as the reader gives the rows: python-calamine leaves out the empty
    columns on the left of a sheet, and the marks name columns from A."""

    def what(self, row: int, column: int) -> str | None:
        """What an empty-reading cell really is, or None."""
        found = self.cells.get((row, column))
        if found is not None:
            return found
        for top, left, bottom, right in self.merged:
            if top <= row <= bottom and left <= column <= right and (row, column) != (top, left):
                return merged_with(top, left)
        return None


def merged_with(top: int, left: int) -> str:
    """What a cell merged into the one at row `top`, column `left` (from 0) is, for a message."""
    return f"merged with {column_name(left)}{top}, whose value only the first cell holds: unmerge the cells"


def column_name(column: int) -> str:
    """A column from 0 as a sheet names it (0 is A)."""
    letters = ""
    column += 1
    while column:
        column, rest = divmod(column - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


def check_grid(package: Package, sheet: str, where: str) -> Marks:
    """Refuse `sheet` when the grid the reader would build for it passes MAX_CELLS; what the reader does not
    tell of its cells."""
    marks = Marks()
    if sheet not in package.sheets:
        return marks  # the reader says what is wrong
    with package.sheet_part(sheet, where) as part:
        found = _searched(part, where, marks)
    if found is None:
        marks = Marks()
        with package.sheet_part(sheet, where) as part:
            found = _extent(part, where, marks.hidden_rows)
    rows, columns = found
    if rows * columns > MAX_CELLS:
        refuse_grid(where, rows, columns, f"a workbook's sheet is read up to {MAX_CELLS:,} cells")
    return marks


def refuse_grid(where: str, rows: int, columns: int, bound: str, more: str = "") -> None:
    """The one refusal of a sheet whose grid passes its bound: its size, and what `bound` allows."""
    raise InputError(
        f"{where}: the sheet's values span {rows:,} rows x {columns:,} columns ({rows * columns:,} cells{more}); "
        f"refused: {bound}, as the reader builds the whole grid",
        hint="delete the rows and columns past the data (a value far right or far down), or save the sheet "
        "as CSV, which is streamed whatever its size",
    )


def _searched(part: IO[bytes], where: str, marks: Marks) -> tuple[int, int] | None:
    """The rows and columns from the first to the last that hold a value, from the cells' references as
    spreadsheet programs write them (`<c r="B7" ...>`, rows in order); None when some cell is written
    otherwise (no prefix, `r` first), for `_extent` to parse."""
    top = bottom = -1
    letters: set[bytes] = set()
    tail = b""
    try:
        while True:
            block = part.read(_SCAN)
            text = tail + block
            cut = text.rfind(b"<") if block else len(text)
            text, tail = text[:cut], text[cut:]
            if text.count(_REF) != sum(map(text.count, _CELLS)) or (top < 0 and b":c " in text):
                return None
            if top < 0 and (first := _VALUED.search(text)) is not None:
                top = int(first[2])
            at = text.rfind(_REF)
            while at >= 0:
                last = _VALUED.match(text, at)
                if last is not None:
                    bottom = int(last[2])
                    break
                at = text.rfind(_REF, 0, at)
            letters.update(_VALUED_COLUMN.findall(text))
            _marked(text, marks)
            if not block:
                break
    except DAMAGED as problem:
        raise InputError(f"{where}: cannot read the sheet: {problem}", hint=RESAVE_HINT) from None
    if top < 0:
        return 0, 0
    columns = [_column(column.decode()) for column in letters]
    return bottom - top + 1, max(columns) - min(columns) + 1


def _marked(text: bytes, marks: Marks) -> None:
    """What a block of the sheet tells that the reader does not (each looked for only where it may be)."""
    if b' hidden="' in text:
        marks.hidden_rows.update(int(row) for row in _HIDDEN_ROW.findall(text))
    if b' t="e"' in text:
        for letters, row, error in _ERROR_CELL.findall(text):
            marks.cells[int(row), _column(letters.decode())] = f"{error.decode().strip()} (an error cell)"
    if b"<f" in text:
        for letters, row in _UNSAVED.findall(text):
            marks.cells[int(row), _column(letters.decode())] = UNSAVED
    if b"<mergeCell " in text:
        for left, top, right, bottom in _MERGED.findall(text):
            marks.merged.append((int(top), _column(left.decode()), int(bottom), _column(right.decode())))
    if b"<col " in text:
        for element in _COLUMN_SPAN.findall(text):
            attrs = dict(_ATTRIBUTE.findall(element))
            if attrs.get(b"hidden") in (b"1", b"true") and attrs.get(b"min", b"").isdigit():
                low, high = int(attrs[b"min"]), int(attrs.get(b"max", attrs[b"min"]))
                marks.hidden_columns.update(range(low - 1, min(high, MAX_COLUMNS)))


def _extent(part: IO[bytes], where: str, hidden: set[int]) -> tuple[int, int]:
    """`_searched` for any sheet, by parsing it."""
    parser = xml_parser()
    state = {"row": 0, "column": -1, "top": 0, "bottom": -1, "left": MAX_COLUMNS, "right": -1}

    def start(name: str, attrs: dict[str, str]) -> None:
        local = name.rpartition(":")[2]
        if local == "c":
            ref = attrs.get("r")
            state["column"] = state["column"] + 1 if ref is None else _column(ref.rstrip(_DIGITS))
        elif local in ("v", "is"):
            row, column = state["row"], state["column"]
            if state["bottom"] < 0:
                state["top"] = row
            state["top"], state["bottom"] = min(state["top"], row), max(state["bottom"], row)
            state["left"], state["right"] = min(state["left"], column), max(state["right"], column)
        elif local == "row":
            at = attrs.get("r")
            state["row"] = state["row"] + 1 if at is None or not at.isdigit() else int(at)
            state["column"] = -1
            if attrs.get("hidden") in ("1", "true"):
                hidden.add(state["row"])

    parser.StartElementHandler = start
    try:
        while block := part.read(BLOCK):
            _parse(parser, block, where)
        _parse(parser, b"", where)
    except DAMAGED as problem:
        raise InputError(f"{where}: cannot read the sheet: {problem}", hint=RESAVE_HINT) from None
    if state["bottom"] < 0:
        return 0, 0
    return state["bottom"] - state["top"] + 1, state["right"] - state["left"] + 1


def _column(letters: str) -> int:
    column = 0
    for letter in letters:
        column = column * 26 + ord(letter) - 64
    return column - 1


def _parse(parser: Any, block: bytes, where: str) -> None:
    from xml.parsers import expat

    try:
        parser.Parse(block, not block)
    except expat.ExpatError as problem:
        raise InputError(f"{where}: cannot read the sheet: {problem}", hint=RESAVE_HINT) from None
