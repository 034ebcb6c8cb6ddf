"""CSV files as spreadsheets write them: sniffed delimiter, BOM, CRLF, quotes, padding spaces.

The header is read eagerly (so every file's header problems can be reported together); the rows
then stream from a fresh stream through the csv module, one record at a time.
"""

from __future__ import annotations

import codecs
import csv
import io
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import chain, islice
from operator import itemgetter
from typing import Any, BinaryIO

from ari_cli.exits import InputError
from ari_cli.exportfile.header import comment_lines, csv_run
from ari_cli.inputs.columns import Resolver, resolve_header, weekday_values
from ari_cli.inputs.grids import GridHeader, GridPart, csv_cell_name, grid_header
from ari_cli.inputs.hints import follow_up
from ari_cli.inputs.model import GridOptions, Part, Prepared, ReadMeter, Unnamed, skipped_rows
from ari_cli.inputs.textio import MAX_LINE, Source, csv_problem, decode_problem, nul_problem, pick_encoding
from ari_cli.wire.operations import Operation

SAMPLE_BYTES = 64 * 1024
SNIFF_LINES = 50
DELIMITERS = ",;\t"
_DELIMITER_NAMES = {",": '","', ";": '";"', "\t": "tab"}


def sniff_delimiter(sample: str) -> str:
    """`,`, `;` or tab: csv.Sniffer's pick among those, else the one the header line holds most."""
    lines = [line for line in sample.splitlines() if line.strip()][:SNIFF_LINES]
    if not lines:
        return ","
    header_counts = {d: lines[0].count(d) for d in DELIMITERS}
    by_header = max(DELIMITERS, key=lambda d: header_counts[d])
    try:
        sniffed = csv.Sniffer().sniff("\n".join(lines), delimiters=DELIMITERS).delimiter
    except csv.Error:
        sniffed = ""
    # The sniffer can be swayed by values (a `;` in every note); the header must hold the delimiter.
    if sniffed and sniffed in DELIMITERS and (header_counts[sniffed] or not header_counts[by_header]):
        return sniffed
    return by_header if header_counts[by_header] else ","


def _reader_options(delimiter: str) -> dict[str, Any]:
    # skipinitialspace lets `a, "b,c"` keep its quoted comma; values are stripped anyway.
    return {"delimiter": delimiter, "quotechar": '"', "doublequote": True, "skipinitialspace": True}


@dataclass(frozen=True, slots=True)
class _Layout:
    encoding: str
    delimiter: str
    header_end: int  # the physical line the header record ends on
    width: int
    indices: tuple[int, ...]
    names: tuple[str, ...]
    given: str | None  # the user's --encoding
    header: tuple[str, ...] = ()  # every column's name as written, to name a column by

    @classmethod
    def of(
        cls,
        encoding: str,
        delimiter: str,
        header_end: int,
        header: Sequence[str],
        kept: Sequence[tuple[int, str]],
        given: str | None,
    ) -> _Layout:
        """The layout of a file whose header is `header` and whose read columns are `kept` (place, name)."""
        return cls(
            encoding=encoding,
            delimiter=delimiter,
            header_end=header_end,
            width=len(header),
            indices=tuple(place for place, _ in kept),
            names=tuple(name for _, name in kept),
            given=given,
            header=tuple(header),
        )


def _holds_header(head: bytes, header_row: int | None) -> bool:
    """Whether the bytes hold the header's line whole (line `header_row`, else the first with a value in it)."""
    lines = head.split(b"\n")[:-1]  # the lines that end in these bytes
    if header_row is not None:
        return len(lines) >= header_row
    return any(line.strip(b" \t\r\x00,;\xef\xbb\xbf") for line in lines)


def _sample(source: Source, encoding: str | None, header_row: int | None) -> tuple[str, str]:
    # The sample holds the header's line whole, however long: a grid of 10,000 dates has a header of 110 KB, and a
    # header cut at SAMPLE_BYTES named a column the user never wrote ("2043-0") or lost the last ones. A header
    # line is bounded as every line is (MAX_LINE characters, of 4 bytes at most).
    size = SAMPLE_BYTES
    with source.open() as stream:
        head = stream.read(size + 1)
        while len(head) > size and not _holds_header(head[:size], header_row) and size < 4 * MAX_LINE:
            size = min(4 * size, 4 * MAX_LINE)
            head += stream.read(size + 1 - len(head))
    complete = len(head) <= size
    head = head[:size]
    if not complete and not _holds_header(head, header_row):
        raise _too_long(source.name, head.count(b"\n") + 1)
    chosen = pick_encoding(head, encoding)
    try:
        text = codecs.getincrementaldecoder(chosen)().decode(head, final=complete)
    except UnicodeDecodeError:
        raise decode_problem(source.name, head, chosen, given=encoding) from None
    if text.startswith("\ufeff"):
        text = text[1:]  # a BOM kept by an explicit --encoding utf-8: not part of the first name
    nul = nul_problem(source.name, text)
    if nul is not None:
        raise nul
    if not complete and "\n" in text:
        text = text[: text.rindex("\n") + 1]  # a cut last line would mislead the sniffer
    return chosen, text


def _header(name: str, sample: str, delimiter: str, header_row: int | None) -> tuple[list[str], int] | None:
    """The header's names and the line it ends on: row `header_row` (a spreadsheet's row number, so
    one record each, blank or not), else the first row that holds anything."""
    reader = csv.reader(io.StringIO(sample, newline=""), **_reader_options(delimiter))
    try:
        for number, cells in enumerate(reader, start=1):
            if header_row is not None and number < header_row:
                continue
            if any(cell.strip() for cell in cells):
                return [cell.strip() for cell in cells], reader.line_num
            if header_row is not None:
                break
    except csv.Error as problem:
        raise csv_problem(name, reader.line_num, reader.line_num, problem) from None
    if header_row is None:
        return None
    raise InputError(
        f"{name} line {header_row}: --header-row {header_row} is an empty row or past the end of the file",
        hint="give --header-row with the number of the row that holds the column names",
    )


def _records(sample: str, delimiter: str, after: int) -> Iterator[tuple[int, list[str]]]:
    """The records of the sample that begin past line `after`, numbered as --header-row counts them."""
    reader = csv.reader(io.StringIO(sample, newline=""), **_reader_options(delimiter))
    try:
        for number, cells in enumerate(reader, start=1):
            if reader.line_num > after:
                yield number, [cell.strip() for cell in cells]
    except csv.Error:
        return


def prepare_csv(
    source: Source,
    operation: Operation,
    encoding: str | None,
    header_row: int | None = None,
    mapping: Mapping[str, str] | None = None,
    meter: ReadMeter | None = None,
    ignore: tuple[str, ...] = (),
    grid: GridOptions = GridOptions(),
) -> Prepared:
    """Read a CSV file's header (on row `header_row`, or the first that holds anything); set up its rows to stream:
    as they are, or as a grid's pieces (`grids.py`)."""
    chosen, sample = _sample(source, encoding, header_row)
    # An export's header (comment lines above the column names) is skipped: the column names follow it.
    exported = comment_lines(sample)
    delimiter = sniff_delimiter("\n".join(sample.splitlines()[exported:]) if exported else sample)
    found = _header(source.name, sample, delimiter, header_row or (exported + 1 if exported else None))
    prepared = _prepared(source, operation, found, sample, chosen, delimiter, encoding, mapping, meter, ignore, grid)
    prepared.exported_run = csv_run(sample) if exported else None
    return prepared


def _prepared(
    source: Source,
    operation: Operation,
    found: tuple[list[str], int] | None,
    sample: str,
    chosen: str,
    delimiter: str,
    encoding: str | None,
    mapping: Mapping[str, str] | None,
    meter: ReadMeter | None,
    ignore: tuple[str, ...],
    grid: GridOptions,
) -> Prepared:
    if found is None:
        return Prepared(part=None)
    names, header_end = found
    resolver = Resolver(operation, source.name, "column", mapping or {}, ignore=ignore)
    laid = grid_header(names, resolver, grid, lambda place: str(place + 1))
    if laid is not None:
        return _grid(source, resolver, laid, names, chosen, delimiter, header_end, encoding, meter)
    columns = resolve_header(names, resolver)
    days = weekday_values(names, columns, (cells for _, cells in _records(sample, delimiter, header_end)), resolver)
    warning = resolver.warning()
    warnings = [warning] if warning else []
    if resolver.problems:
        below = _records(sample, delimiter, header_end)
        problems = [*resolver.problems, *follow_up(source.name, header_end, names, resolver, below)]
        return Prepared(part=None, warnings=warnings, problems=problems)
    kept = [(i, name) for i, name in enumerate(columns) if name is not None]
    layout = _Layout.of(chosen, delimiter, header_end, names, kept, encoding)
    notes = [days] if days else []
    part = CsvPart(source, layout, meter)
    return Prepared(part=part, warnings=warnings, notes=notes, ignored=resolver.left_out(source.name))


def _grid(
    source: Source,
    resolver: Resolver,
    laid: GridHeader,
    names: list[str],
    chosen: str,
    delimiter: str,
    header_end: int,
    given: str | None,
    meter: ReadMeter | None,
) -> Prepared:
    """A grid's CSV: its rows streamed as the columns it reads, turned into its pieces."""
    warning = resolver.warning()
    warnings = [warning] if warning else []
    if resolver.problems:
        return Prepared(part=None, warnings=warnings, problems=resolver.problems)
    layout = _Layout.of(chosen, delimiter, header_end, names, laid.columns(), given)
    part = GridPart(CsvPart(source, layout, meter), laid, csv_cell_name(source.name, names))
    return Prepared(part=part, warnings=warnings, notes=[laid.note], ignored=resolver.left_out(source.name))


_BLOCK = 1 << 16  # characters read at a time


def bounded_lines(
    name: str, text: io.TextIOBase, block_size: int = _BLOCK, heard: Callable[[int], None] | None = None
) -> Iterator[str]:
    """The text's lines for the csv module, which takes them a block at a time with no Python step per
    line; an InputError at a line over MAX_LINE characters, which is never held whole. `heard` is told
    the lines given so far, a block at a time."""
    return chain.from_iterable(_line_blocks(name, text, block_size, heard))


def _line_blocks(
    name: str, text: io.TextIOBase, block_size: int, heard: Callable[[int], None] | None
) -> Iterator[list[str]]:
    carry, before = "", 0  # the start of a line that goes on in the next block; lines given so far
    while block := text.read(block_size):
        # Split as the csv module's text stream would (newline=""): at \n, \r\n and a lone \r.
        lines = io.StringIO(carry + block, newline="").readlines()
        # The last line may go on in the next block (after a \r, its \n may be the next block's first).
        carry = lines.pop() if not lines[-1].endswith("\n") else ""
        if max(map(len, lines), default=0) > MAX_LINE or len(carry) > MAX_LINE:
            at = before + 1 + next(i for i, line in enumerate([*lines, carry]) if len(line) > MAX_LINE)
            raise _too_long(name, at)
        before += len(lines)
        if heard is not None:
            heard(before)
        yield lines
    if carry:
        yield [carry]


def _too_long(name: str, line: int) -> InputError:
    return InputError(
        f"{name} line {line}: longer than {MAX_LINE} characters; this does not look like CSV",
        hint="check that the file is a CSV export (not binary data), and that its lines end",
    )


def _too_wide(source: str, line: int, count: int, layout: _Layout) -> InputError:
    return InputError(
        f"{source} line {line}: {count} values but the header has {layout.width} columns",
        hint=f"quote values that hold the delimiter ({_DELIMITER_NAMES[layout.delimiter]}), "
        "or name the extra column in the header",
    )


def _open_to_the_end(source: Source, layout: _Layout, line: int) -> bool:
    """Whether the record on `line`, the last, holds a quote never closed: the csv module ends such a value at
    the end of the file without a word, the lines after the quote read into it."""
    with source.open() as raw, io.TextIOWrapper(raw, encoding=layout.encoding, newline="") as text:
        rest = islice(text, line - 1, None)  # as the csv module counts lines: at \n, \r\n and a lone \r
        try:
            for _ in csv.reader(rest, strict=True, **_reader_options(layout.delimiter)):
                return False
        except csv.Error as problem:
            return str(problem) == "unexpected end of data"
    return False


def _unclosed(name: str, line: int, last: int, values: int, layout: _Layout) -> InputError:
    column = f"column {values}" + (f" ({layout.header[values - 1]})" if 0 < values <= len(layout.header) else "")
    return InputError(
        f'{name} line {line}, {column}: a quote (") opens a value that is never closed, so lines {line} to {last} '
        "(the end of the file) were read as that one value",
        hint=f"close the quote on line {line}, or remove it",
    )


class CsvPart(Part):
    """A CSV file's rows, streamed from the line after the header; each row's cells of known columns."""

    def __init__(self, source: Source, layout: _Layout, meter: ReadMeter | None = None) -> None:
        super().__init__(source.name, dict(zip(layout.names, layout.indices, strict=True)))
        self.file = source
        self.layout = layout
        self.meter = meter

    def rows(self) -> Iterator[tuple[int, Sequence[str]]]:
        """Each record but empty ones, with the line it starts on, its cells as wide as the header."""
        name, layout, width = self.file.name, self.layout, self.layout.width
        skipped: list[int] = []  # rows where only columns this command does not read hold something
        pick = itemgetter(*layout.indices)  # the cells of the columns this command reads
        first = layout.indices[0]  # a row whose first such cell holds something is neither blank nor skipped
        with self.file.open() as raw, io.TextIOWrapper(raw, encoding=layout.encoding, newline="") as text:
            heard = None if self.meter is None else self._meter(self.meter, raw)
            reader = csv.reader(bounded_lines(name, text, heard=heard), **_reader_options(layout.delimiter))
            read = 0  # physical lines read so far: a record starts on the next one
            line, opened = 0, 0  # the last record's first line, and its values before any padding
            unnamed = Unnamed(layout.header)
            try:
                for _ in reader:
                    if reader.line_num >= layout.header_end:
                        break
                read = reader.line_num
                for cells in reader:
                    line = read + 1
                    read = reader.line_num
                    opened = len(cells)
                    if len(cells) != width:
                        if not any(cells):
                            continue  # a blank line
                        if len(cells) < width:
                            cells += [""] * (width - len(cells))
                        elif any(map(str.strip, cells[width:])):
                            raise _too_wide(name, line, len(cells), layout)
                    if unnamed.watched:
                        unnamed.look(cells)
                    # One look at one cell for nearly every row; the whole row only when that cell is empty.
                    if not cells[first].strip():
                        if not "".join(cells).strip():
                            continue  # `,,,,` or only spaces: an empty spreadsheet row
                        if not "".join(pick(cells)).strip():
                            skipped.append(line)
                            continue
                    yield line, cells
            except csv.Error as problem:
                raise csv_problem(name, read + 1, reader.line_num, problem) from None
            except UnicodeDecodeError:
                raise decode_problem(name, self.file.read(), layout.encoding, given=layout.given) from None
        if read > line > 0 and _open_to_the_end(self.file, layout, line):
            raise _unclosed(name, line, read, opened, layout)
        if skipped:
            self.notes.append(skipped_rows(name, skipped))
        if (held := unnamed.warning(name, lambda i: str(i + 1))) is not None:
            self.warnings.append(held)

    def _meter(self, meter: ReadMeter, raw: BinaryIO) -> Callable[[int], None]:
        """What tells `meter` the rows and bytes read, a block of lines at a time."""
        meter.start(self.source, self.file.size())
        header = self.layout.header_end

        def heard(lines: int) -> None:
            meter.rows, meter.done = max(0, lines - header), raw.tell()

        return heard
