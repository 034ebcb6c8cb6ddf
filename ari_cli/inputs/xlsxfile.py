"""Workbooks (.xlsx, .xlsm, .xls, .xlsb, .ods): one sheet, a header row, and cells turned into what CSV would hold.

python-calamine (Rust) reads them, ten times faster than a pure-Python reader, and is imported only
here, when a workbook is read, so start-up stays fast. A date cell arrives as a date whatever its
display format; a number cell as a number, which a date column refuses.
"""

from __future__ import annotations

import datetime as dt
import io
import zipfile
from collections.abc import Iterator, Sequence
from operator import call
from typing import TYPE_CHECKING, Any

from ari_cli.exits import InputError
from ari_cli.inputs.columns import Resolver, header_follow_up, resolve_header
from ari_cli.inputs.model import ListedPart, Part, Prepared, ReadMeter, ReadOptions, skipped_rows
from ari_cli.inputs.textio import Source
from ari_cli.wire.operations import Operation

if TYPE_CHECKING:
    from python_calamine import CalamineWorkbook

_RESAVE_HINT = "open it in the spreadsheet program and save it again (Excel Workbook .xlsx), or save the sheet as CSV"


def sheet_source(name: str, sheet: str) -> str:
    """How rows of one sheet name their source: `rates.xlsx[Sheet1]`, as Excel's references do."""
    return f"{name}[{sheet}]"


def cell_value(value: Any) -> Any:
    """A cell as the records expect it: dates as dates, 3.0 as 3, TRUE as `true`, empty as ``."""
    if type(value) is str:  # most cells: ids, and every empty cell
        return value.strip()
    if value is None:
        return ""
    if isinstance(value, bool):  # before int: a bool is an int, and str(True) is "True"
        return "true" if value else "false"
    if isinstance(value, dt.datetime):
        return value.date()  # the time of day means nothing for a stay date
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str):
        return value.strip()
    if isinstance(value, dt.date | int | float):
        return value
    return str(value)  # times and durations: shown as text, refused by the checks that follow


def _days_value(cell: Any) -> Any:
    """A `days` cell: a weekday mask typed into a number cell loses its leading zeros (0000011 becomes
    11), which are put back."""
    value = cell_value(cell)
    if isinstance(value, int) and value > 0 and set(str(value)) <= {"0", "1"} and len(str(value)) <= 7:
        return str(value).zfill(7)
    return value


MAX_RATIO = 100
"""Sheet XML packs about 10 to 1; a workbook that unpacks to over 100 times its size is a zip bomb."""
MAX_UNPACKED = 2 * 1024**3
_SMALL = 16 * 1024**2  # below this, any ratio is harmless (an empty sheet packs very well)


def _check_proportion(source: Source) -> None:
    """Refuse, before anything is unpacked, a workbook whose parts unpack out of proportion."""
    try:
        with source.open() as stream, zipfile.ZipFile(stream) as archive:
            parts = archive.infolist()
    except (zipfile.BadZipFile, OSError, ValueError):
        return  # opening it says what is wrong
    unpacked = sum(part.file_size for part in parts)
    packed = max(1, sum(part.compress_size for part in parts))
    if unpacked > MAX_UNPACKED or (unpacked > _SMALL and unpacked > MAX_RATIO * packed):
        raise InputError(
            f"{source.name}: the workbook unpacks to {unpacked // 2**20} MiB from {packed // 2**10} KiB; "
            f"refused (a workbook may unpack to {MAX_RATIO} times its size, and at most {MAX_UNPACKED // 2**30} GiB)",
            hint="open it in the spreadsheet program and save the sheet as CSV",
        )


def _open(source: Source) -> CalamineWorkbook:
    from python_calamine import CalamineWorkbook

    _check_proportion(source)
    try:
        if source.data is not None:
            return CalamineWorkbook.from_filelike(io.BytesIO(source.data))
        assert source.path is not None, "a source is a path or its bytes"
        return CalamineWorkbook.from_path(source.path)
    except Exception as problem:  # the reader fails in many ways on a damaged or foreign file
        raise InputError(f"{source.name}: cannot read the workbook: {problem}", hint=_RESAVE_HINT) from None


def _pick_sheet(workbook: CalamineWorkbook, name: str, wanted: str | None) -> str:
    sheets = list(workbook.sheet_names)
    if not sheets:
        raise InputError(f"{name}: the workbook has no worksheet")
    if wanted is None:
        return sheets[0]
    if wanted in sheets:
        return wanted
    folded = [sheet for sheet in sheets if sheet.casefold() == wanted.strip().casefold()]
    if len(folded) == 1:
        return folded[0]
    listed = ", ".join(f'"{sheet}"' for sheet in sheets)
    raise InputError(f'{name}: no sheet named "{wanted}"; the workbook has {listed}', hint="give --sheet NAME")


Row = tuple[int, list[Any]]  # a sheet's row number and its cells as the reader gives them


def _blank(cells: list[Any]) -> bool:
    return all(cell_value(cell) == "" for cell in cells)


def _header(name: str, rows: Iterator[Row], header_row: int | None) -> Row | None:
    """The header, taken from `rows` (which go on after it): the given row, else the first row that holds
    anything; None when no row holds anything."""
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
    # Only to say where the values are: the rest of the sheet is looked through for its last row with any.
    last = max((number for number, cells in rows if not _blank(cells)), default=last)
    where = f"the last row with values is {last}" if last else "the sheet is empty"
    raise InputError(
        f"{name} line {header_row}: --header-row {header_row} is an empty row; {where}",
        hint="give --header-row with the number of the row that holds the column names",
    )


class SheetPart(Part):
    """A sheet's rows after its header, each turned into what CSV would hold as it is read: the rows are
    never all held in Python, and the reader's copy of the sheet is let go once they are spent."""

    def __init__(self, name: str, kept: list[tuple[int, str]], rows: Iterator[Row], meter: ReadMeter | None) -> None:
        super().__init__(name, {column: i for i, (_, column) in enumerate(kept)})
        self.kept = kept
        self._rows = rows
        self.meter = meter

    def rows(self) -> Iterator[tuple[int, Sequence[Any]]]:
        """Each row but empty ones, with its number, its cells in the order of `columns`."""
        rows, self._rows = self._rows, iter(())  # read once
        meter, width = self.meter, 1 + max(i for i, _ in self.kept)
        # Cells right of the header's last name have no column; like unnamed columns they are left out.
        picked = [i for i, _ in self.kept]
        # A number in a date column stays a number, refused by the date rule: read as an Excel serial,
        # a typed 5 would become 1900-01-05.
        convert = [_days_value if column == "days" else cell_value for _, column in self.kept]
        skipped: list[int] = []  # rows where only columns this command does not read hold something
        for number, cells in rows:
            if meter is not None and not number & 1023:
                meter.rows = number
            if len(cells) < width:  # the reader gives rows as wide as the sheet; this is in case it did not
                cells = [*cells, *[""] * (width - len(cells))]
            values = tuple(map(call, convert, map(cells.__getitem__, picked)))
            if values.count("") == len(values):
                if not _blank(cells):
                    skipped.append(number)  # a comment in Notes, say
                continue
            yield number, values
        if skipped:
            self.notes.append(skipped_rows(self.source, skipped))


def prepare_xlsx(source: Source, operation: Operation, options: ReadOptions) -> Prepared:
    """Read one sheet of a workbook: its header now, its rows (empty ones skipped) as they are checked."""
    workbook = _open(source)
    try:
        title = _pick_sheet(workbook, source.name, options.sheet)
        name = sheet_source(source.name, title)
        others = [other for other in workbook.sheet_names if other != title]
        if options.meter is not None:
            options.meter.start(name)
        try:
            # The reader unpacks the whole sheet into its own memory; its rows come to Python one at a time.
            rows: Iterator[Row] = enumerate(workbook.get_sheet_by_name(title).iter_rows(), start=1)
        except Exception as problem:  # a damaged sheet part surfaces only while reading it
            raise InputError(f"{name}: cannot read the sheet: {problem}", hint=_RESAVE_HINT) from None
    finally:
        workbook.close()
    notes = []
    if others and options.sheet is None:
        listed = ", ".join(f'"{other}"' for other in others)
        notes.append(f'{source.name}: read the sheet "{title}"; the workbook also has {listed} (give --sheet NAME)')
    header = _header(name, rows, options.header_row)
    if header is None:
        # A part without rows: the sheet is named as empty.
        return Prepared(part=ListedPart(name, []), notes=notes)
    header_line, header_cells = header
    names = [c.isoformat() if isinstance(c, dt.date) else str(c) for c in map(cell_value, header_cells)]
    resolver = Resolver(operation, f"{name} line {header_line}", "column", dict(options.columns))
    columns = resolve_header(names, resolver)
    warning = resolver.warning()
    unused = [warning] if warning else []
    if resolver.problems:
        problems = [*resolver.problems, *header_follow_up(name, header_line, names, resolver)]
        return Prepared(part=None, warnings=unused, problems=problems)
    kept = [(i, column) for i, column in enumerate(columns) if column is not None]
    return Prepared(part=SheetPart(name, kept, rows, options.meter), warnings=unused, notes=notes)
