"""What python-calamine would build of an .xlsx or .xlsm sheet, and what neither reader tells, found in one
pass over the sheet's XML before it is read.

The reader holds a sheet as a dense grid from its first to its last row and column that hold a value: a
170 KB workbook with values only in columns A and XFD over 20,000 rows is a grid of 327 million cells (over
10 GB). The pass finds the cells that hold something (a value, an inline string, a formula), and a sheet
whose grid passes MAX_CELLS is refused, naming its size, before python-calamine builds it. The same pass
notes what neither reader tells (`Marks`), which it reads as empty: hidden rows and columns, error cells,
formulas with no saved value, merged cells. A sheet streamed by `xlsxstream` gets its marks from it too.

The pass is expat's (standard library; the sheet's DOCTYPE already refused), fed a block at a time: its
memory is a block and the marks. Names are matched as the worksheet's root names them: a prefix it gives
the main namespace (`<x:worksheet>`, as some generators write) is that of every element; attributes are
read in any order. A plain cell costs a call for its `<c>` and one for its `<v>`; only a cell that may be
odd (an error, a formula) has its text and end looked at.
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass, field
from typing import IO, Any
from xml.parsers import expat

from ari_cli.exits import InputError
from ari_cli.inputs.ooxml import BLOCK, DAMAGED, RESAVE_HINT, Package, prefixed, xml_parser

MAX_CELLS = 8_000_000
"""The most cells (rows x columns, from the first to the last that hold a value) of a sheet python-calamine
reads: about 256 MB as it holds them. A sheet of 200,000 rows and 40 columns fits; a larger one is saved as
CSV, which is streamed whatever its size."""
MAX_COLUMNS = 16_384
"""Excel's last column is XFD: a cell past it is refused, so that a row is bounded."""
UNSAVED = "a formula with no saved value: open and save the workbook in a spreadsheet program"
"""What a formula cell without its saved value is (the readers give it as empty)."""
_DIGITS = "0123456789"
_TRUE = ("1", "true")
_TEXT = 64  # an error's text is short: more of it is not kept


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
    percent: dict[int, list[int]] = field(default_factory=dict)
    """Column from 0 -> the rows of its cells that hold a number formatted as a percentage (the reader gives
    1 for a cell that shows 100%), as runs: first, last, first, last... (a column formatted so is a run or a
    few, however long the sheet)."""

    def add_percent(self, row: int, column: int, last: int | None = None) -> None:
        """A cell holding a number formatted as a percentage (repeated down to row `last`); rows come in order."""
        last = row if last is None else last
        runs = self.percent.setdefault(column, [])
        if runs and runs[-1] >= row - 1:
            runs[-1] = max(runs[-1], last)
        else:
            runs.extend((row, last))

    def in_percent(self, row: int, column: int) -> bool:
        """Whether the cell holds a number formatted as a percentage."""
        runs = self.percent.get(column)
        if not runs:
            return False
        at = bisect_left(runs, row)
        return at < len(runs) and (runs[at] == row or at % 2 == 1)

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


def _nothing(size: str | None) -> bool:
    """Whether a row's height or a column's width, as the sheet writes it, is zero."""
    try:
        return size is not None and float(size) == 0
    except ValueError:
        return False


def column_name(column: int) -> str:
    """A column from 0 as a sheet names it (0 is A)."""
    letters = ""
    column += 1
    while column:
        column, rest = divmod(column - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


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


def cell_column(ref: str | None, previous: int, where: str, row: int) -> int:
    """The column (from 0) of a cell written `r=ref` after one in column `previous` (-1 at a row's start):
    the next one when it has no reference. Past XFD, or past MAX_COLUMNS cells in a row, is refused."""
    if ref is None:
        column = previous + 1
        if column >= MAX_COLUMNS:
            raise InputError(f"{where} line {row}: more than {MAX_COLUMNS} cells in a row", hint=RESAVE_HINT)
        return column
    try:
        return _COLUMNS[ref.rstrip(_DIGITS)]
    except ValueError:
        raise InputError(f'{where} line {row}: a cell at "{ref}", past the last column XFD', hint=RESAVE_HINT) from None


def row_number(at: str | None, previous: int, where: str) -> int:
    """The number of a row written `r=at` after row `previous`: the next one when it has none."""
    try:
        return previous + 1 if at is None else int(at)
    except ValueError:
        raise InputError(f'{where}: a row numbered "{at}"', hint=RESAVE_HINT) from None


def check_grid(package: Package, sheet: str, where: str) -> Marks:
    """Refuse `sheet` when the grid python-calamine would build for it passes MAX_CELLS; what it does not
    tell of its cells."""
    rows, columns, marks = survey(package, sheet, where)
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


def survey(package: Package, sheet: str, where: str) -> tuple[int, int, Marks]:
    """The rows and columns from the first to the last that hold something, and the marks, of `sheet`; a
    sheet the workbook does not list is left to the reader to say what is wrong."""
    if sheet not in package.sheets:
        return 0, 0, Marks()
    percents = package.styles()[2]
    with package.sheet_part(sheet, where) as part:
        return _surveyed(part, where, percents)


def _surveyed(part: IO[bytes], where: str, percents: frozenset[str]) -> tuple[int, int, Marks]:
    """The pass (`percents`: the cell styles that show a percentage). The handlers keep their state in local
    variables: they run for every cell of the sheet."""
    parser = xml_parser()
    marks = Marks()
    hidden_rows, cells = marks.hidden_rows, marks.cells
    number = 0  # the row being read, as the sheet numbers it
    column = -1  # the column of the cell being read, from 0
    held = True  # whether the cell being read holds something, and is counted
    top, bottom, left, right = 1 << 62, -1, MAX_COLUMNS, -1  # what the cells that hold something span
    error = formula = taking = False  # of an odd cell: an error (`t="e"`), a formula, within its <v>
    percent = False  # the cell being read is a number formatted as a percentage
    text: list[str] = []  # an odd cell's saved value, its first characters
    c = v = f = row = col = merge = ""  # the names, set when the worksheet starts
    holding: frozenset[str] = frozenset()  # the names of what a cell holds: <v>, <is>, <f>

    def start(name: str, attrs: dict[str, str]) -> None:
        nonlocal number, column, held, top, bottom, left, right, error, formula, taking, percent
        if name == c:
            column = cell_column(attrs.get("r"), column, where, number)
            held = False
            # A number's cell: no type, or `n` (a shared string or a bool shows no percentage).
            percent = bool(percents) and attrs.get("s") in percents and attrs.get("t", "n") == "n"
            if attrs.get("t") == "e":
                error, formula = True, False
                odd()
        elif name in holding:
            if not held:
                held = True
                if number < top:
                    top = number
                if number > bottom:
                    bottom = number
                if column < left:
                    left = column
                if column > right:
                    right = column
            if name == f:
                if not (error or formula):
                    odd()
                formula = True
            elif name == v:
                taking = error or formula
                if percent:
                    marks.add_percent(number, column)
        elif name == row:
            number = row_number(attrs.get("r"), number, where)
            column = -1
            if attrs.get("hidden") in _TRUE or (attrs.get("customHeight") in _TRUE and _nothing(attrs.get("ht"))):
                hidden_rows.add(number)  # a row dragged to no height is hidden as surely
        elif name == merge:
            marks.merged.append(_span(attrs.get("ref", ""), where))
        elif (
            name == col
            and (attrs.get("hidden") in _TRUE or (attrs.get("customWidth") in _TRUE and _nothing(attrs.get("width"))))
            and attrs.get("min", "").isdigit()
        ):
            low = int(attrs["min"])
            high = int(attrs["max"]) if attrs.get("max", "").isdigit() else low
            marks.hidden_columns.update(range(low - 1, min(high, MAX_COLUMNS)))

    def odd() -> None:
        """A cell that may read as empty and not be: its text and end are looked at, until it ends."""
        text.clear()
        parser.CharacterDataHandler = take
        parser.EndElementHandler = end

    def take(data: str) -> None:
        if taking and sum(map(len, text)) < _TEXT:
            text.append(data)

    def end(name: str) -> None:
        nonlocal error, formula, taking
        taking = False
        if name != c:
            return
        saved = "".join(text).strip()
        if error and saved:
            cells[number, column] = f"{saved} (an error cell)"
        elif formula and not saved:
            cells[number, column] = UNSAVED
        error = formula = False
        parser.CharacterDataHandler = parser.EndElementHandler = None

    def root(name: str, attrs: dict[str, str]) -> None:
        nonlocal c, v, f, row, col, merge, holding
        c, v, inline, f, row, col, merge = prefixed(name, "c", "v", "is", "f", "row", "col", "mergeCell")
        holding = frozenset((v, inline, f))
        parser.StartElementHandler = start

    parser.StartElementHandler = root
    try:
        while block := part.read(BLOCK):
            _parse(parser, block, where)
        _parse(parser, b"", where)
    except DAMAGED as problem:  # a damaged part shows only as it is unpacked
        raise InputError(f"{where}: cannot read the sheet: {problem}", hint=RESAVE_HINT) from None
    if bottom < 0:
        return 0, 0, marks
    return bottom - top + 1, right - left + 1, marks


def _span(ref: str, where: str) -> tuple[int, int, int, int]:
    """The first row and column (from 0) and the last of a merged range (`B7:C9`, or one cell)."""
    first, _, last = ref.partition(":")
    try:
        top, left = _corner(first)
        bottom, right = _corner(last or first)
    except ValueError:
        raise InputError(f'{where}: cannot read the sheet: a merged range "{ref[:20]}"', hint=RESAVE_HINT) from None
    return top, left, bottom, right


def _corner(ref: str) -> tuple[int, int]:
    letters = ref.rstrip(_DIGITS)
    return int(ref[len(letters) :]), _COLUMNS[letters]


def _parse(parser: Any, block: bytes, where: str) -> None:
    try:
        parser.Parse(block, not block)
    except expat.ExpatError as problem:
        raise InputError(f"{where}: cannot read the sheet: {problem}", hint=RESAVE_HINT) from None
