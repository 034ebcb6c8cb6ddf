"""Workbooks (.xlsx, .xlsm, .xls, .xlsb, .ods): one sheet, a header row, and cells turned into what CSV would hold.

python-calamine (Rust) reads them, ten times faster than a pure-Python reader, and is imported only
here, when a workbook is read, so start-up stays fast. A date cell arrives as a date whatever its
display format; a number cell as a number, which a date column refuses.
"""

from __future__ import annotations

import datetime as dt
import io
import zipfile
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ari_cli.exits import InputError
from ari_cli.inputs.columns import Resolver, header_follow_up, resolve_header
from ari_cli.inputs.model import ListedPart, Prepared, ReadMeter, ReadOptions, ReadPart, skipped_rows
from ari_cli.inputs.textio import Source
from ari_cli.wire.operations import Operation

if TYPE_CHECKING:
    from python_calamine import CalamineSheet, CalamineWorkbook

_RESAVE_HINT = "open it in the spreadsheet program and save it again (Excel Workbook .xlsx), or save the sheet as CSV"


def sheet_source(name: str, sheet: str) -> str:
    """How rows of one sheet name their source: `rates.xlsx[Sheet1]`, as Excel's references do."""
    return f"{name}[{sheet}]"


def cell_value(value: Any) -> Any:
    """A cell as the records expect it: dates as dates, 3.0 as 3, TRUE as `true`, empty as ``."""
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


def _field_value(name: str, value: Any) -> Any:
    # A number in a date column stays a number, refused by the date rule: read as an Excel serial,
    # a typed 5 would become 1900-01-05.
    if name == "days" and isinstance(value, int) and value > 0 and set(str(value)) <= {"0", "1"}:
        # A weekday mask typed into a number cell loses its leading zeros: 0000011 becomes 11.
        text = str(value)
        if len(text) <= 7:
            return text.zfill(7)
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


def _read_rows(sheet: CalamineSheet, meter: ReadMeter | None) -> list[tuple[int, tuple[Any, ...]]]:
    """The rows that hold anything, with their row numbers (rows are yielded from the sheet's first)."""
    rows: list[tuple[int, tuple[Any, ...]]] = []
    for number, values in enumerate(sheet.iter_rows(), start=1):
        cells = tuple(cell_value(v) for v in values)
        if any(c != "" for c in cells):
            rows.append((number, cells))
        if not number & 1023 and meter is not None:
            meter.rows = number
    return rows


def _header(name: str, rows: Sequence[tuple[int, tuple[Any, ...]]], header_row: int | None) -> int | None:
    """The index in `rows` of the header: the given row, else the first row that holds anything."""
    if header_row is None:
        return 0 if rows else None
    for index, (number, _) in enumerate(rows):
        if number == header_row:
            return index
        if number > header_row:
            break
    last = rows[-1][0] if rows else 0
    where = f"the last row with values is {last}" if last else "the sheet is empty"
    raise InputError(
        f"{name} line {header_row}: --header-row {header_row} is an empty row; {where}",
        hint="give --header-row with the number of the row that holds the column names",
    )


def prepare_xlsx(source: Source, operation: Operation, options: ReadOptions) -> Prepared:
    """Read one sheet of a workbook: its header, then its rows (empty rows skipped)."""
    workbook = _open(source)
    try:
        title = _pick_sheet(workbook, source.name, options.sheet)
        name = sheet_source(source.name, title)
        others = [other for other in workbook.sheet_names if other != title]
        if options.meter is not None:
            options.meter.start(name)
        try:
            rows = _read_rows(workbook.get_sheet_by_name(title), options.meter)
        except Exception as problem:  # a damaged sheet part surfaces only while reading it
            raise InputError(f"{name}: cannot read the sheet: {problem}", hint=_RESAVE_HINT) from None
    finally:
        workbook.close()
    notes = []
    if others and options.sheet is None:
        listed = ", ".join(f'"{other}"' for other in others)
        notes.append(f'{source.name}: read the sheet "{title}"; the workbook also has {listed} (give --sheet NAME)')
    index = _header(name, rows, options.header_row)
    if index is None:
        # A part without rows: the sheet is named as empty.
        return Prepared(part=ListedPart(name, []), notes=notes)
    header_line, header_cells = rows[index]
    names = [c.isoformat() if isinstance(c, dt.date) else str(c) for c in header_cells]
    resolver = Resolver(operation, f"{name} line {header_line}", "column", dict(options.columns))
    columns = resolve_header(names, resolver)
    warning = resolver.warning()
    unused = [warning] if warning else []
    if resolver.problems:
        problems = [*resolver.problems, *header_follow_up(name, header_line, names, resolver)]
        return Prepared(part=None, warnings=unused, problems=problems)
    kept = [(i, column) for i, column in enumerate(columns) if column is not None]
    out: list[tuple[int, tuple[Any, ...]]] = []
    skipped: list[int] = []
    for number, cells in rows[index + 1 :]:
        # Cells right of the header's last name have no column; like unnamed columns they are left out.
        values = tuple(_field_value(column, cells[i]) if i < len(cells) else "" for i, column in kept)
        if all(value == "" for value in values):
            skipped.append(number)  # only other columns (a comment in Notes) hold something
            continue
        out.append((number, values))
    if skipped:
        notes.append(skipped_rows(name, skipped))
    return Prepared(part=ReadPart(name, [column for _, column in kept], out), warnings=unused, notes=notes)
