"""Workbooks (.xlsx, .xlsm, .xls, .xlsb, .ods): one sheet, a header row, and cells turned into what CSV would hold.

Two readers give a sheet's rows: python-calamine (Rust, imported only here, when a workbook is read, so
that start-up stays fast) for .xls, .xlsb, .ods and all but big .xlsx and .xlsm, and `xlsxstream` for
those (see STREAMED). Both give a date cell as a date whatever its display format, and a number cell as a
number, which a date column refuses; `cells.cell_value` turns either's cells into what CSV would hold.
"""

from __future__ import annotations

import datetime as dt
import io
import shlex
import zipfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from itertools import chain, islice
from operator import call
from typing import Any

from ari_cli.exits import InputError
from ari_cli.inputs.cells import cell_value, days_value, percent_shown
from ari_cli.inputs.columns import DAYS_LOOK, Resolver, resolve_header, weekday_values
from ari_cli.inputs.grids import GridHeader, GridPart, grid_header, sheet_cell_name
from ari_cli.inputs.hints import LOOK_DOWN, Rows, header_follow_up, its_own, later_header, missing_columns
from ari_cli.inputs.model import ListedPart, Part, Prepared, ReadMeter, ReadOptions, Unnamed, skipped_rows
from ari_cli.inputs.odsgrid import survey_ods
from ari_cli.inputs.ooxml import RESAVE_HINT, Package, refuse_doctypes
from ari_cli.inputs.sheetgrid import Marks, check_grid, column_name
from ari_cli.inputs.textio import Source
from ari_cli.inputs.xlsxstream import Row, XlsxBook
from ari_cli.operations import of
from ari_cli.operations.descriptor import Level
from ari_cli.wire.operations import Operation


def sheet_source(name: str, sheet: str) -> str:
    """How rows of one sheet name their source: `rates.xlsx[Sheet1]`, as Excel's references do."""
    return f"{name}[{sheet}]"


MAX_RATIO = 100
"""Sheet XML packs about 10 to 1; a workbook that unpacks to over 100 times its size is a zip bomb."""
MAX_UNPACKED = 2 * 1024**3
_SMALL = 16 * 1024**2  # below this, any ratio is harmless (an empty sheet packs very well)
STREAMED = 32 * 1024**2
"""An .xlsx or .xlsm that unpacks to more than this (about 200,000 rows of four columns) is read as a
stream (`xlsxstream`), in the memory of a few rows; a smaller one by python-calamine, which builds the
sheet in its own memory (about twice its XML) and reads it in about half the time (benchmarks/README.md)."""
MAX_BINARY = 32 * 1024**2
"""An .xls or .xlsb is read up to this size: the reader builds its sheets whole, and their cells cannot be
counted beforehand as an .xlsx's can (benchmarks/README.md, the worst shapes)."""
_XML_WORKBOOK = "xl/workbook.xml"  # the part an .xlsx or .xlsm has, and an .xlsb (workbook.bin) has not
_ODS_CONTENT = "content.xml"  # the part of an .ods that holds its sheets
_BLIND = ("xls", "xlsb")


def _inspect(source: Source) -> tuple[int, str]:
    """What the workbook's parts unpack to, and what it is: "xml" an Office Open XML workbook (.xlsx,
    .xlsm), "ods" an OpenDocument spreadsheet, "" anything else. Refused here, before anything is read: a
    workbook out of proportion, and a part that declares a DOCTYPE."""
    try:
        with source.open() as stream, zipfile.ZipFile(stream) as archive:
            parts = archive.infolist()
            unpacked = sum(part.file_size for part in parts)
            packed = max(1, sum(part.compress_size for part in parts))
            if unpacked > MAX_UNPACKED or (unpacked > _SMALL and unpacked > MAX_RATIO * packed):
                raise InputError(
                    f"{source.name}: the workbook unpacks to {unpacked // 2**20} MiB from {packed // 2**10} KiB; "
                    f"refused (a workbook may unpack to {MAX_RATIO} times its size, and at most "
                    f"{MAX_UNPACKED // 2**30} GiB)",
                    hint="open it in the spreadsheet program and save the sheet as CSV",
                )
            refuse_doctypes(archive, source.name)
    except (zipfile.BadZipFile, OSError, ValueError):
        return 0, ""  # not a zip (an .xls), or damaged: opening it says what is wrong
    names = {part.filename for part in parts}
    return unpacked, "xml" if _XML_WORKBOOK in names else "ods" if _ODS_CONTENT in names else ""


class CalamineBook:
    """A workbook as python-calamine reads it (.xls, .xlsb, .ods, and .xlsx up to STREAMED): its sheets'
    names, and a sheet's rows. It is imported only here, when such a workbook is read."""

    def __init__(self, source: Source, package: Package | None = None, ods: bool = False) -> None:
        # lazy: python_calamine only for workbooks
        from python_calamine import CalamineWorkbook, SheetVisibleEnum

        self._package = package  # an .xlsx's parts, to size a sheet's grid before the reader builds it
        self._surveyed = survey_ods(source) if ods else None
        """An .ods's sheets' marks, found before the reader opens it: it builds every sheet when it does."""
        self.marks = Marks()
        """What the reader does not tell of the sheet last read (an .xlsx's or .ods's, from our own pass)."""
        suffix = (source.path or source.name).rpartition(".")[2].lower()
        told = package is not None or ods
        self.blind = "" if told else f"an .{suffix} workbook" if suffix in _BLIND else "this workbook"
        """How to name a workbook whose hidden rows and odd cells are not told (no pass of ours reads it)."""
        if source.data is not None:
            self._book = CalamineWorkbook.from_filelike(io.BytesIO(source.data))
        else:
            assert source.path is not None, "a source is a path or its bytes"
            self._book = CalamineWorkbook.from_path(source.path)
        self.sheet_names: list[str] = list(self._book.sheet_names)
        self.hidden: dict[str, str] = {}
        """A hidden sheet's name -> how it is hidden ("hidden", "very hidden"): every format tells."""
        for sheet in self._book.sheets_metadata:
            if sheet.visible == SheetVisibleEnum.Hidden:
                self.hidden[sheet.name] = "hidden"
            elif sheet.visible == SheetVisibleEnum.VeryHidden:
                self.hidden[sheet.name] = "very hidden"

    def rows(self, sheet: str, where: str) -> Iterator[Row]:
        """The sheet's rows, numbered from 1 (the reader gives every row, empty ones too, from row 1)."""
        self.marks = Marks()
        if self._package is not None:
            self.marks = check_grid(self._package, sheet, where)
        elif self._surveyed is not None:
            self.marks = self._surveyed.get(sheet, Marks())
        try:
            # The reader unpacks the whole sheet into its own memory; its rows come to Python one at a time.
            read = self._book.get_sheet_by_name(sheet)
            self.marks.offset = read.start[1] if read.start is not None else 0
            return _numbered(read.iter_rows(), where)
        except Exception as problem:  # a damaged sheet part surfaces only while reading it
            raise InputError(f"{where}: cannot read the sheet: {problem}", hint=RESAVE_HINT) from None

    def close(self) -> None:
        self._book.close()
        if self._package is not None:
            self._package.close()


def _numbered(rows: Iterator[list[Any]], where: str) -> Iterator[Row]:
    """python-calamine's rows with their numbers; a cell it cannot make a Python value of (an elapsed time of
    10**20 days) is an input error on its row."""
    number = 0
    try:
        for number, cells in enumerate(rows, start=1):
            yield number, cells
    except Exception as problem:  # raised by the reader as it converts a row, never by the code it yields to
        raise InputError(f"{where} line {number + 1}: cannot read a cell: {problem}", hint=RESAVE_HINT) from None


Book = CalamineBook | XlsxBook


def open_book(source: Source) -> Book:
    """The workbook, with the reader that suits it: see STREAMED."""
    unpacked, kind = _inspect(source)
    xml = kind == "xml"
    if not xml:  # an .xls, .xlsb or .ods, read by a reader that builds its sheets whole
        size = source.size()
        if size is not None and size > MAX_BINARY:
            raise InputError(
                f"{source.name}: {size // 2**20} MiB; an .xls, .xlsb or .ods workbook is read up to "
                f"{MAX_BINARY // 2**20} MiB, as the reader builds its sheets whole",
                hint="save the sheet as CSV, which is streamed whatever its size, or as .xlsx",
            )
    try:
        if xml and unpacked > STREAMED:
            return XlsxBook(source)
        return CalamineBook(source, Package(source) if xml else None, ods=kind == "ods")
    except InputError:
        raise
    except Exception as problem:  # the readers fail in many ways on a damaged or foreign file
        raise InputError(f"{source.name}: cannot read the workbook: {problem}", hint=RESAVE_HINT) from None


def _blank(cells: list[Any]) -> bool:
    return all(cell_value(cell) == "" for cell in cells)


class EmptyHeaderRow(InputError):
    """--header-row N names a row of the sheet that holds nothing; `later` the line below that has the
    operation's columns, if one does (which makes the sheet the operation's)."""

    def __init__(self, message: str, hint: str, later: int | None = None) -> None:
        super().__init__(message, hint)
        self.later = later


def _header(
    name: str, rows: Iterator[Row], header_row: int | None, below: Callable[[Rows], int | None], sheet: str = ""
) -> Row | None:
    """The header, taken from `rows` (which go on after it): the given row, else the first row that holds
    anything; None when no row holds anything. `below` finds the line of the columns under an empty
    --header-row (`later_header`); `sheet` is the --sheet a hint names."""
    last = 0  # the last row that holds anything
    for number, cells in rows:
        if not _blank(cells):
            if header_row is None or number == header_row:
                return number, cells
            last = number
        elif number == header_row:
            break
    if header_row is None:
        return None
    # The column names may be a few lines below (title lines miscounted): a hint that names the line.
    looked = list(islice(rows, LOOK_DOWN))
    later = below((number, [str(cell_value(cell)) for cell in cells]) for number, cells in looked)
    if later is not None:
        named = f" --sheet {shlex.quote(sheet)}" if sheet else ""
        raise EmptyHeaderRow(
            f"{name} line {header_row}: --header-row {header_row} is an empty row; the column names are on line "
            f"{later}",
            hint=f"give --header-row {later}{named}",
            later=later,
        )
    # Only to say where the values are: the rest of the sheet is looked through for its last row with any.
    last = max((number for number, cells in chain(looked, rows) if not _blank(cells)), default=last)
    where = f"the last row with values is {last}" if last else "the sheet is empty"
    raise EmptyHeaderRow(
        f"{name} line {header_row}: --header-row {header_row} is an empty row; {where}",
        hint="give --header-row with the number of the row that holds the column names",
    )


def _lines(numbers: Sequence[int]) -> str:
    shown = ", ".join(map(str, numbers[:10])) + (f" and {len(numbers) - 10} more" if len(numbers) > 10 else "")
    return f"line {shown}" if len(numbers) == 1 else f"lines {shown}"


class SheetPart(Part):
    """A sheet's rows after its header, each turned into what CSV would hold as it is read: the rows are
    never all held in Python, and the reader's copy of the sheet is let go once they are spent."""

    plain_cells = True  # cell_value gives no bool (TRUE is "true") and a whole number as an int

    def __init__(
        self,
        name: str,
        kept: list[tuple[int, str]],
        rows: Iterator[Row],
        meter: ReadMeter | None,
        marks: Marks | None = None,
        hidden_rows: str | None = None,
        names: Sequence[str] = (),
        counts: Sequence[str] = (),
    ) -> None:
        super().__init__(name, {column: i for i, (_, column) in enumerate(kept)})
        self.counts = counts
        """The columns that hold a count (a threshold, nights): a number formatted as a percentage there is
        given as the sheet shows it (`100%`), which the count's rule refuses as it does in a CSV."""
        self.unnamed = Unnamed(names)
        self.kept = kept
        self._rows = rows
        self.meter = meter
        self.marks = marks if marks is not None else Marks()
        """What the reader does not tell: rows the sheet hides (filled as the stream reads them), an error
        unless `hidden_rows` says; cells that read as empty and are not, an error."""
        self.hidden_rows = hidden_rows

    def rows(self) -> Iterator[tuple[int, Sequence[Any]]]:
        """Each row but empty ones, with its number, its cells in the order of `columns`."""
        rows, self._rows = self._rows, iter(())  # read once
        meter, width = self.meter, 1 + max(i for i, _ in self.kept)
        if meter is not None:
            meter.start(self.source)  # the headers of a workbook's later sheets may have been read since this one's
        # Cells right of the header's last name have no column; like unnamed columns they are left out.
        picked = [i for i, _ in self.kept]
        # A number in a date column stays a number, refused by the date rule: read as an Excel serial,
        # a typed 5 would become 1900-01-05.
        convert = [days_value if column == "days" else cell_value for _, column in self.kept]
        skipped: list[int] = []  # rows where only columns this command does not read hold something
        hidden, unseen = self.marks.hidden_rows, []  # the rows the sheet hides, which a person would not count
        marks = self.marks  # a streamed sheet's fills as its rows are read
        named = [(i, column) for i, (_, column) in enumerate(self.kept)]
        odd: list[str] = []  # cells that read as empty and are not
        unnamed = self.unnamed
        # The marks are whole before the rows are read (each reader's pass runs first).
        percent = [
            (i, at)
            for i, (_, column) in enumerate(self.kept)
            if column in self.counts and (at := picked[i] + marks.offset) in marks.percent
        ]
        for number, cells in rows:
            if number in hidden and self.hidden_rows != "include":
                if not _blank(cells):
                    unseen.append(number)
                continue
            if meter is not None and not number & 1023:
                meter.rows = number
            if len(cells) < width:  # python-calamine gives rows as wide as the sheet; the stream, up to their last cell
                cells = [*cells, *[""] * (width - len(cells))]
            if unnamed.watched:
                unnamed.look(cells)
            values = tuple(map(call, convert, map(cells.__getitem__, picked)))
            for i, at in percent:  # what a person reads: 100%, not the 1 the cell holds
                if marks.in_percent(number, at):
                    values = (*values[:i], percent_shown(values[i]), *values[i + 1 :])
            if marks.cells or (marks.merged and "" in values):
                # An .ods's error cell may read as 0, and a cell under a merged one as the value it hides.
                for i, column in named:
                    at = picked[i] + marks.offset
                    what = marks.what(number, at) if values[i] == "" else marks.cells.get((number, at))
                    if what:
                        odd.append(f"{self.source} line {number}, {column}: {what}")
            if values.count("") == len(values):
                if not _blank(cells):
                    skipped.append(number)  # a comment in Notes, say
                continue
            yield number, values
        if skipped:
            self.notes.append(skipped_rows(self.source, skipped))
        if (held := unnamed.warning(self.source, lambda i: column_name(i + marks.offset))) is not None:
            self.warnings.append(held)
        if odd:
            shown = odd[:20] + ([f"and {len(odd) - 20} more such cells"] if len(odd) > 20 else [])
            raise InputError("\n".join(shown), hint="the cell reads as empty, yet it is not: fix it in the workbook")
        if unseen and self.hidden_rows == "skip":
            self.notes.append(f"{self.source} {_lines(unseen)}: hidden or filtered out in the workbook; left out")
        elif unseen:
            raise InputError(
                f"{self.source} {_lines(unseen)}: hidden or filtered out in the workbook, so a person reading the "
                "sheet would not count them",
                hint="give --hidden-rows skip to leave them out, or --hidden-rows include to read them; or show "
                "them in the workbook (clear the filter, unhide the rows)",
            )


def _grid(
    workbook: Book,
    name: str,
    resolver: Resolver,
    laid: GridHeader,
    rows: Iterator[Row],
    options: ReadOptions,
    names: Sequence[str],
) -> Look:
    """A grid's sheet: its rows as the columns it reads, turned into its pieces. It is the operation's,
    whatever problems its header has."""
    warning = resolver.warning()
    warnings = [warning] if warning else []
    if resolver.problems:
        return Look(Prepared(part=None, warnings=warnings, problems=resolver.problems), ours=True)
    marks = workbook.marks
    # A grid's cells are the operation's value: a count's, shown as a percent, is read as a person reads it.
    counts = tuple(written for _, written, _ in laid.across) if isinstance(of(laid.operation).rule, Level) else ()
    part = SheetPart(name, laid.columns(), rows, options.meter, marks, options.hidden_rows, names, counts)
    cells = sheet_cell_name(name, lambda place: column_name(place + marks.offset))
    prepared = Prepared(GridPart(part, laid, cells), warnings, notes=[laid.note], ignored=resolver.left_out(name))
    return Look(prepared, ours=True)


@dataclass
class Look:
    """One sheet with its header read: what it prepared, and where its columns are when it has problems."""

    prepared: Prepared
    later: int | None = None
    """The line below the header that has the operation's columns (title lines above them)."""
    ours: bool = False
    """Whether the sheet is the operation's: its columns fit, or its problems are the operation's (`its_own`)."""


def read_sheet(
    workbook: Book, source_name: str, title: str, operation: Operation, options: ReadOptions, sheet: str = ""
) -> Look:
    """One sheet: its header now, its rows as they are checked. `sheet` is the --sheet its hints name, for a
    sheet that would not be read without it."""
    name = sheet_source(source_name, title)
    if options.meter is not None:
        options.meter.start(name)
    rows = workbook.rows(title, name)
    notes: list[str] = []
    probe = Resolver(operation, name, "column", dict(options.columns), ignore=options.ignore_columns)
    header = _header(name, rows, options.header_row, partial(later_header, resolver=probe), sheet)
    if header is None:
        # A part without rows: the sheet is named as empty.
        return Look(Prepared(part=ListedPart(name, []), notes=notes))
    header_line, header_cells = header
    names = [c.isoformat() if isinstance(c, dt.date) else str(c) for c in map(cell_value, header_cells)]
    resolver = Resolver(
        operation, f"{name} line {header_line}", "column", dict(options.columns), ignore=options.ignore_columns
    )
    laid = grid_header(names, resolver, options.grid, lambda place: column_name(place + workbook.marks.offset))
    if laid is not None:
        return _grid(workbook, name, resolver, laid, rows, options, names)
    columns = resolve_header(names, resolver)
    looked = list(islice(rows, DAYS_LOOK))  # put back below: the rows are read once
    rows = chain(looked, rows)
    days = weekday_values(names, columns, ([str(cell_value(cell)) for cell in cells] for _, cells in looked), resolver)
    if days:
        notes.append(days)
    warning = resolver.warning()
    unused = [warning] if warning else []
    if resolver.problems:
        below = [(number, [str(cell_value(cell)) for cell in cells]) for number, cells in islice(rows, LOOK_DOWN)]
        later = later_header(below, resolver) if missing_columns(resolver.problems) else None
        problems = [*resolver.problems, *header_follow_up(name, header_line, names, resolver, later, sheet, below)]
        prepared = Prepared(part=None, warnings=unused, problems=problems)
        return Look(prepared, later, its_own(resolver, later))
    kept = [(i, column) for i, column in enumerate(columns) if column is not None]
    marks = workbook.marks
    rule = of(operation).rule
    counts = (rule.field,) if isinstance(rule, Level) else ()
    part = SheetPart(name, kept, rows, options.meter, marks, options.hidden_rows, names, counts)
    if isinstance(workbook, CalamineBook) and workbook.blind:
        notes.append(
            f"{name}: {workbook.blind} does not tell hidden or filtered-out rows, error cells, formulas without a "
            "saved value or merged cells from empty ones: check that the sheet shows every row it should"
        )
    hidden = [
        f"{column_name(i + marks.offset)} ({column})" for i, column in kept if i + marks.offset in marks.hidden_columns
    ]
    if hidden:
        notes.append(f"{name}: column{'s' if len(hidden) > 1 else ''} {', '.join(hidden)} hidden in the workbook; read")
    return Look(Prepared(part=part, warnings=unused, notes=notes, ignored=resolver.left_out(name)), ours=True)
