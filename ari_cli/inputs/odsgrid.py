"""What python-calamine would build of an .ods workbook, and what it does not tell, found before it opens it.

The reader builds every sheet of an .ods whole when it opens the workbook: each row from column A as it reads
it (a formula's text beside each cell), then the sheet's grid from its first to its last row and column that
hold a value, repeated rows and cells written out. An empty cell repeated (`table:number-columns-repeated=
"1024"`, as LibreOffice ends each row) and empty rows repeated at the end cost it nothing; a value or a
formula does, and so do the empty cells and rows between values. One pass of expat over `content.xml` (its
DOCTYPE already refused) counts what the reader would hold, a row at a time, and refuses the workbook once a
sheet passes MAX_ODS_CELLS, naming its size. The same pass notes what the reader does not tell (`Marks`):
rows hidden or filtered out, hidden columns, error cells (which it reads as empty, or as 0), formulas with no
saved value, merged cells (whose covered cells it reads, with the value a person no longer sees).

Names are matched with their prefixes (`table:table-row`), as the reader matches them.
"""

from __future__ import annotations

import re
import zipfile
from dataclasses import dataclass, field
from typing import IO, Any
from xml.parsers import expat

from ari_cli.exits import InputError
from ari_cli.inputs.ooxml import BLOCK, DAMAGED, RESAVE_HINT, xml_parser
from ari_cli.inputs.sheetgrid import MAX_COLUMNS, UNSAVED, Marks, refuse_grid
from ari_cli.inputs.textio import Source

MAX_ODS_CELLS = 4_000_000
"""The most cells python-calamine holds for an .ods, over all its sheets, counted from column A: it holds a
sheet twice while it builds it, with each cell's formula, about 90 bytes a cell at its peak (a dry run at
the bound peaks at about 400 MB; benchmarks/README.md), where an .xlsx sheet costs it about 32. 100,000 rows
of 40 columns fit."""
_VALUES = ("office:value", "office:string-value", "office:date-value", "office:time-value", "office:boolean-value")
_HIDDEN = ("collapse", "filter")
_ERROR_TEXT = re.compile(r"#[A-Z0-9/]+[!?]?|Err:[0-9]{3}")
_TEXT = 64  # an error's text is short: more of it is not kept
_CONTENT = "content.xml"


@dataclass
class _Sheet:
    """What the pass knows of the sheet it is reading."""

    name: str
    where: str
    marks: Marks = field(default_factory=Marks)
    row: int = 1  # the number of the row being read, from 1, repeats counted
    repeats: int = 1  # how many times the row being read is repeated
    hidden: bool = False  # whether it is hidden or filtered out
    column: int = 0  # the column of the next cell, from 0
    columns: int = 0  # the columns declared so far (`table:table-column`)
    valued: bool = False  # whether the row holds a value
    top: int = 0  # the first row that holds a value (0: none yet)
    bottom: int = 0
    right: int = -1  # the last column that holds a value, from 0
    hidden_runs: list[tuple[int, int]] = field(default_factory=list)
    over: bool = False  # past the bound: only its size is still counted, to name it


_CELL, _COVERED, _ROW, _TABLE = "table:table-cell", "table:covered-table-cell", "table:table-row", "table:table"
_REPEATED, _FORMULA, _TYPE = "table:number-columns-repeated", "table:formula", "office:value-type"
_WIDE, _HIGH = "table:number-columns-spanned", "table:number-rows-spanned"


def _no_height(height: str | None) -> bool:
    """Whether an .ods row height (`0cm`, `0in`, `0.000in`) is zero."""
    number = (height or "").rstrip("abcdefghijklmnopqrstuvwxyz")
    try:
        return bool(number) and float(number) == 0
    except ValueError:
        return False


class _Survey:
    """The pass over content.xml: each sheet's marks, the cells counted so far over all sheets. The handlers
    run for every element of the workbook: a plain cell costs a few lookups, anything else a call."""

    def __init__(self, name: str, parser: Any) -> None:
        self.name = name
        self.parser = parser
        self.sheets: dict[str, Marks] = {}
        self.total = 0
        self.sheet: _Sheet | None = None
        self.cell: int | None = None  # the repeats of an error cell being read, told by its text at its end
        self.text: list[str] = []
        self.style = ""  # the automatic style being read, before the sheets
        self.flat: set[str] = set()  # the row styles of no height: a row dragged to nothing is hidden as surely

    def start(self, name: str, attrs: dict[str, str]) -> None:
        sheet = self.sheet
        if sheet is None:
            if name == "style:style":
                self.style = attrs.get("style:name", "")
            elif name == "style:table-row-properties" and _no_height(attrs.get("style:row-height")):
                self.flat.add(self.style)
            elif name == _TABLE:
                title = attrs.get("table:name", "")
                self.sheet = _Sheet(title, f"{self.name}[{title}]")
        elif name in (_CELL, _COVERED):
            repeats = 1 if _REPEATED not in attrs else _count(attrs, _REPEATED, sheet.where)
            left = sheet.column
            sheet.column = left + repeats
            if _TYPE in attrs or _FORMULA in attrs or any(key in attrs for key in _VALUES):
                sheet.valued = True
                sheet.right = max(sheet.right, left + repeats - 1)
                if name == _COVERED or _FORMULA in attrs or _WIDE in attrs or _HIGH in attrs:
                    self._odd(sheet, attrs, left, name == _COVERED)
                if attrs.get(_TYPE) == "percentage":
                    self._percent(sheet, left)
        elif name == _ROW:
            sheet.repeats = (
                1
                if "table:number-rows-repeated" not in attrs
                else _count(attrs, "table:number-rows-repeated", sheet.where)
            )
            sheet.hidden = attrs.get("table:visibility") in _HIDDEN or attrs.get("table:style-name") in self.flat
            sheet.column, sheet.valued = 0, False
        elif name == "table:table-column":
            repeats = _count(attrs, _REPEATED, sheet.where)
            if attrs.get("table:visibility") in _HIDDEN:
                sheet.marks.hidden_columns.update(range(sheet.columns, min(sheet.columns + repeats, MAX_COLUMNS)))
            sheet.columns += repeats

    def _odd(self, sheet: _Sheet, attrs: dict[str, str], left: int, covered: bool) -> None:
        """A cell the reader does not tell: an error, a formula with no saved value, under or over a merge."""
        if not sheet.top:
            sheet.top = sheet.row
        if sheet.over or self._over(sheet, sheet.row + sheet.repeats - 1):
            return  # nothing is noted for each repeat of a cell past the bound
        marks = sheet.marks
        formula = _FORMULA in attrs
        kind = attrs.get("calcext:value-type")  # LibreOffice's; without it, a formula's text may name an error
        if kind == "error" or (kind is None and formula and attrs.get(_TYPE) == "string"):
            self.cell, self.text = sheet.column - left, []  # told by its text, when the cell ends
            self.parser.CharacterDataHandler = self.text_of
        elif formula and _TYPE not in attrs:
            marks.cells.update(dict.fromkeys(_each(sheet, left), UNSAVED))
        elif covered:  # the reader gives its value, which the sheet no longer shows
            for row, column in _each(sheet, left):
                marks.cells[row, column] = marks.what(row, column) or "merged with another cell: unmerge the cells"
        if _WIDE in attrs or _HIGH in attrs:
            wide, high = _count(attrs, _WIDE, sheet.where), _count(attrs, _HIGH, sheet.where)
            marks.merged.extend((row, column, row + high - 1, column + wide - 1) for row, column in _each(sheet, left))

    def _percent(self, sheet: _Sheet, left: int) -> None:
        """A cell that holds a number shown as a percentage (the reader gives 1 for 100%), and its repeats."""
        if not sheet.top:
            sheet.top = sheet.row
        if sheet.over or self._over(sheet, sheet.row + sheet.repeats - 1):
            return  # nothing is noted for each repeat of a cell past the bound
        for column in range(left, sheet.column):
            sheet.marks.add_percent(sheet.row, column, sheet.row + sheet.repeats - 1)

    def text_of(self, data: str) -> None:
        if sum(map(len, self.text)) < _TEXT:
            self.text.append(data)

    def end(self, name: str) -> None:
        sheet = self.sheet
        if sheet is None:
            return
        if name == _ROW:
            last = sheet.row + sheet.repeats - 1
            if sheet.valued:
                sheet.top = sheet.top or sheet.row
                sheet.bottom = last
                if not sheet.over:
                    self._over(sheet, last)
            if sheet.hidden:
                sheet.hidden_runs.append((sheet.row, last))
            sheet.row = last + 1
        elif self.cell is not None and name in (_CELL, _COVERED):
            self._error_told(sheet, self.cell)
        elif name == _TABLE:
            self._done(sheet)
            self.sheet = None

    def _error_told(self, sheet: _Sheet, repeats: int) -> None:
        """The error cell just read, by its text: `#N/A`, `Err:502`; a formula's text that is no error is none."""
        self.cell = None
        self.parser.CharacterDataHandler = None
        text = "".join(self.text).strip()
        if _ERROR_TEXT.fullmatch(text):
            sheet.marks.cells.update(dict.fromkeys(_each(sheet, sheet.column - repeats), f"{text} (an error cell)"))

    def _over(self, sheet: _Sheet, bottom: int) -> bool:
        """Whether the sheet, to `bottom`, passes the bound with the sheets before it."""
        sheet.over = self.total + (max(bottom, sheet.bottom) - sheet.top + 1) * (sheet.right + 1) > MAX_ODS_CELLS
        return sheet.over

    def _done(self, sheet: _Sheet) -> None:
        marks = sheet.marks
        if sheet.top:
            rows, columns = sheet.bottom - sheet.top + 1, sheet.right + 1
            self.total += rows * columns
            if sheet.over:
                more = f"; {self.total:,} with the sheets before it" if self.total > rows * columns else ""
                bound = f"an .ods workbook is read up to {MAX_ODS_CELLS:,} cells over all its sheets, from column A"
                refuse_grid(sheet.where, rows, columns, bound, more)
            for (
                first,
                last,
            ) in sheet.hidden_runs:  # only rows that may hold values: LibreOffice hides a million empty ones
                marks.hidden_rows.update(range(max(first, sheet.top), min(last, sheet.bottom) + 1))
        self.sheets[sheet.name] = marks


def _each(sheet: _Sheet, left: int) -> list[tuple[int, int]]:
    """Each (row, column) of the cell just read, from column `left`, its repeats and its row's counted."""
    columns = range(left, sheet.column)
    return [(row, column) for row in range(sheet.row, sheet.row + sheet.repeats) for column in columns]


def _count(attrs: dict[str, str], name: str, where: str) -> int:
    written = attrs.get(name)
    if written is None:
        return 1
    try:
        count = int(written)
    except ValueError:
        count = 0
    if count < 1:
        raise InputError(f'{where}: cannot read the sheet: {name}="{written[:20]}"', hint=RESAVE_HINT)
    return count


def survey_ods(source: Source) -> dict[str, Marks]:
    """Each sheet's marks by name; the workbook refused when the cells the reader would build pass
    MAX_ODS_CELLS. A workbook without content.xml is left to the reader to say what is wrong."""
    try:
        with source.open() as stream, zipfile.ZipFile(stream) as archive:
            if _CONTENT not in archive.NameToInfo:
                return {}
            with archive.open(_CONTENT) as part:
                found = _parsed(part, source.name)
    except DAMAGED as problem:
        raise InputError(f"{source.name}: cannot read the workbook: {problem}", hint=RESAVE_HINT) from None
    return found


def _parsed(part: IO[bytes], name: str) -> dict[str, Marks]:
    """The survey of any content.xml, every element through the handlers."""
    parser = _parser()
    survey = _Survey(name, parser)
    parser.StartElementHandler, parser.EndElementHandler = survey.start, survey.end
    while block := part.read(BLOCK):
        _parse(parser, block, name)
    _parse(parser, b"", name)
    return survey.sheets


def _parser() -> Any:
    parser = xml_parser()
    parser.buffer_text = False  # a text is never held whole: only an error cell's first characters are kept
    return parser


def _parse(parser: Any, block: bytes, name: str, final: bool = False) -> None:
    try:
        parser.Parse(block, final or not block)
    except expat.ExpatError as problem:
        raise InputError(f"{name}: cannot read the workbook: content.xml: {problem}", hint=RESAVE_HINT) from None
