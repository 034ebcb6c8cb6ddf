"""How big a grid python-calamine would build for an .xlsx or .xlsm sheet, found before it builds it.

The reader holds a sheet as a dense grid from its first to its last row and column that hold a value: a
170 KB workbook with values only in columns A and XFD over 20,000 rows is a grid of 327 million cells (over
10 GB). One pass over the sheet's XML (expat, standard library; the DOCTYPE already refused) reads only the
row and cell references, and a sheet whose grid passes MAX_CELLS is refused, naming its size.

The pass is a search for cell references in the unpacked bytes, a block at a time, in about a tenth of the
time the reader takes; a sheet whose cells are not written as spreadsheet programs write them (`r` first)
is parsed instead, with expat (standard library; its DOCTYPE already refused).
"""

from __future__ import annotations

import re
from typing import IO, Any

from ari_cli.exits import InputError
from ari_cli.inputs.ooxml import BLOCK, DAMAGED, RESAVE_HINT, Package, xml_parser
from ari_cli.inputs.xlsxstream import MAX_COLUMNS

MAX_CELLS = 8_000_000
"""The most cells (rows x columns, from the first to the last that hold a value) of a sheet python-calamine
reads: about 256 MB as it holds them. A sheet of 200,000 rows and 40 columns fits; a larger one is saved as
CSV, which is streamed whatever its size."""
_DIGITS = "0123456789"
_SCAN = 1 << 20
_CELLS = (b"<c ", b"<c>")
_REF = b'<c r="'
_VALUED = re.compile(rb'<c r="([A-Z]{1,3})([0-9]{1,7})"[^>/]*>')  # a cell not closed at once: it holds something
_HIDDEN_ROW = re.compile(rb'<row r="([0-9]{1,7})"[^>]*? hidden="(?:1|true)"')
_VALUED_COLUMN = re.compile(rb'<c r="([A-Z]{1,3})[0-9]{1,7}"[^>/]*>')


def check_grid(package: Package, sheet: str, where: str) -> set[int]:
    """Refuse `sheet` when the grid the reader would build for it passes MAX_CELLS; the rows it hides."""
    if sheet not in package.sheets:
        return set()  # the reader says what is wrong
    hidden: set[int] = set()
    with package.sheet_part(sheet, where) as part:
        found = _searched(part, where, hidden)
    if found is None:
        hidden.clear()
        with package.sheet_part(sheet, where) as part:
            found = _extent(part, where, hidden)
    rows, columns = found
    cells = rows * columns
    if cells > MAX_CELLS:
        raise InputError(
            f"{where}: the sheet's values span {rows:,} rows x {columns:,} columns ({cells:,} cells); refused: "
            f"a workbook's sheet is read up to {MAX_CELLS:,} cells, as the reader builds the whole grid",
            hint="delete the rows and columns past the data (a value far right or far down), or save the sheet "
            "as CSV, which is streamed whatever its size",
        )
    return hidden


def _searched(part: IO[bytes], where: str, hidden: set[int]) -> tuple[int, int] | None:
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
            if b' hidden="' in text:
                hidden.update(int(row) for row in _HIDDEN_ROW.findall(text))
            if not block:
                break
    except DAMAGED as problem:
        raise InputError(f"{where}: cannot read the sheet: {problem}", hint=RESAVE_HINT) from None
    if top < 0:
        return 0, 0
    columns = [_column(column.decode()) for column in letters]
    return bottom - top + 1, max(columns) - min(columns) + 1


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
