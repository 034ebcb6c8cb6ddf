"""CSV files as spreadsheets write them: sniffed delimiter, BOM, CRLF, quotes, padding spaces.

The header is read eagerly (so every file's header problems can be reported together); the rows
stream from a fresh stream afterwards, in chunks of whole lines. A chunk whose lines are plainly
as wide as the header is split in one go into a `Block` of cells; anything else (blank or ragged
lines, quotes, lone carriage returns) goes through the csv module row by row, with the same result.
"""

from __future__ import annotations

import codecs
import csv
import io
import itertools
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ari_cli.exits import InputError
from ari_cli.inputs.columns import Resolver, resolve_header
from ari_cli.inputs.model import Prepared, SourceRow
from ari_cli.inputs.textio import Source, csv_problem, decode_problem, nul_problem, pick_encoding
from ari_cli.wire.operations import Operation

SAMPLE_BYTES = 64 * 1024
# Rows are read in chunks of about this many characters: a few thousand rows of a nightly export.
# Below the csv module's field size limit (128 Ki by default), so that only a chunk with a very long
# line needs its values measured.
CHUNK_CHARS = 64 * 1024
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


def _sample(source: Source, encoding: str | None) -> tuple[str, str]:
    with source.open() as stream:
        head = stream.read(SAMPLE_BYTES + 1)
    complete = len(head) <= SAMPLE_BYTES
    head = head[:SAMPLE_BYTES]
    chosen = pick_encoding(head, encoding)
    try:
        text = codecs.getincrementaldecoder(chosen)().decode(head, final=complete)
    except UnicodeDecodeError:
        raise decode_problem(source.name, head, chosen) from None
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


def prepare_csv(source: Source, operation: Operation, encoding: str | None, header_row: int | None = None) -> Prepared:
    """Read a CSV file's header (on row `header_row`, or the first that holds anything); set up its rows to stream."""
    chosen, sample = _sample(source, encoding)
    delimiter = sniff_delimiter(sample)
    found = _header(source.name, sample, delimiter, header_row)
    if found is None:
        return Prepared(rows=[])
    names, header_end = found
    resolver = Resolver(operation, source.name, "column")
    columns = resolve_header(names, resolver)
    warning = resolver.warning()
    warnings = [warning] if warning else []
    if resolver.problems:
        return Prepared(rows=[], warnings=warnings, problems=resolver.problems)
    kept = [(i, name) for i, name in enumerate(columns) if name is not None]
    layout = _Layout(
        encoding=chosen,
        delimiter=delimiter,
        header_end=header_end,
        width=len(columns),
        indices=tuple(i for i, _ in kept),
        names=tuple(name for _, name in kept),
    )
    return Prepared(rows=CsvRows(source, layout), warnings=warnings)


def _too_wide(source: str, line: int, count: int, layout: _Layout) -> InputError:
    return InputError(
        f"{source} line {line}: {count} values but the header has {layout.width} columns",
        hint=f"quote values that hold the delimiter ({_DELIMITER_NAMES[layout.delimiter]}), "
        "or name the extra column in the header",
    )


def _source_row(source: str, line: int, cells: list[str], layout: _Layout) -> SourceRow | None:
    """One record as a row under canonical names; None for a row a spreadsheet shows as empty."""
    if not any(cells):
        return None
    count, width = len(cells), layout.width
    if count != width:
        if count < width:
            cells = cells + [""] * (width - count)
        elif any(map(str.strip, cells[width:])):
            raise _too_wide(source, line, count, layout)
    fields = {name: cells[i].strip() for name, i in zip(layout.names, layout.indices)}  # noqa: B905
    if not any(fields.values()) and not "".join(cells).strip():
        return None  # `,,,,` or only spaces: an empty spreadsheet row
    return SourceRow(source, line, fields)


@dataclass(frozen=True, slots=True)
class Block:
    """Consecutive records of one CSV file, each one physical line exactly as wide as the header.

    The cells are kept as one flat list (row after row, as read, not stripped), so that a column is
    one slice: the fast path checks whole columns at once instead of building a dict per row. A row
    takes `stride` places: its cells, then possibly a marker where its line ended.
    """

    source: str
    first_line: int
    cells: list[str]
    layout: _Layout
    stride: int

    def __len__(self) -> int:
        return (len(self.cells) + self.stride - self.layout.width) // self.stride

    def has(self, name: str) -> bool:
        return name in self.layout.names

    def column(self, name: str) -> list[str]:
        """The cells of one canonical column, one per row."""
        position = self.layout.indices[self.layout.names.index(name)]
        return self.cells[position :: self.stride]

    def rows(self) -> Iterator[SourceRow]:
        """The block's rows as the row-by-row reader gives them."""
        width, stride = self.layout.width, self.stride
        for offset in range(len(self)):
            cells = self.cells[offset * stride : offset * stride + width]
            row = _source_row(self.source, self.first_line + offset, cells, self.layout)
            if row is not None:
                yield row


Piece = Block | SourceRow


class CsvRows(Iterator[SourceRow]):
    """A CSV file's rows, streamed: one by one, or as `pieces` (blocks of plain lines, and single rows)."""

    def __init__(self, source: Source, layout: _Layout) -> None:
        self.source = source
        self.layout = layout
        self._rows: Iterator[SourceRow] | None = None

    def __next__(self) -> SourceRow:
        if self._rows is None:
            self._rows = self._each()
        return next(self._rows)

    def _each(self) -> Iterator[SourceRow]:
        for piece in self.pieces():
            if isinstance(piece, Block):
                yield from piece.rows()
            else:
                yield piece

    def pieces(self, start: tuple[int, int] | None = None, stop: int | None = None) -> Pieces:
        """The rows in file order, plain lines grouped in blocks; read either these or the rows, not both.

        From the header's end, or from `start`: (byte offset of a record's first line, lines before
        it). Up to byte `stop` (the end of a line) unless a record spans it: see `Pieces.lines`.
        """
        return Pieces(self.source, self.layout, start, stop)

    def cut(self, min_bytes: int) -> int | None:
        """Where two readers may share the file: the start of the first line past its middle. None
        for a file under `min_bytes`, standard input or a pipe, or an encoding whose bytes of one
        character may include a line feed's (UTF-16): the second reader starts after a line feed byte."""
        if self.source.path is None or _line_codec(self.layout.encoding) is None:
            return None
        with self.source.open() as stream:
            if not stream.seekable():
                return None
            size = stream.seek(0, io.SEEK_END)
            if size < min_bytes or size // 2 < SAMPLE_BYTES:
                return None  # the header, read from the sample, lies before any cut
            stream.seek(size // 2)
            stream.readline()
            at = stream.tell()
        return at if at < size else None

    def plain_blocks(self, at: int) -> Iterator[tuple[Block, int]]:
        """The file's blocks from byte `at`, a record's first line, each with the offset after it, up
        to the first chunk that is not one block (quotes, blank or ragged lines, bytes that do not
        decode); their lines numbered from 1 at `at`. For a second reader of the file."""
        codec = _line_codec(self.layout.encoding)
        assert codec is not None, "cut() tells where a second reader may start"
        name, lines = self.source.name, 0
        with self.source.open() as stream:
            stream.seek(at)
            while data := stream.read(CHUNK_CHARS):
                if not data.endswith(b"\n"):
                    data += stream.readline()
                try:
                    chunk = data.decode(codec)
                except UnicodeDecodeError:
                    return
                block = _block(name, chunk, lines, self.layout) if _may_be_block(chunk) else None
                if block is None:
                    return
                at += len(data)
                lines += len(block)
                yield block, at


def _may_be_block(chunk: str) -> bool:
    """Whether a chunk may be split as one block: without quotes, and not longer than the csv
    module's limit on a value (a longer chunk may hold such a value, which the csv module words)."""
    return '"' not in chunk and len(chunk) <= csv.field_size_limit()


def _line_codec(encoding: str) -> str | None:
    """The codec that decodes the text from any line start on: for UTF-8 and single-byte encodings,
    where a line feed byte is always a line feed. None for others."""
    name = codecs.lookup(encoding).name
    if name in ("utf-8", "utf-8-sig"):
        return "utf-8"  # a BOM only starts the file
    if name in ("ascii", "latin-1", "iso8859-1") or name.startswith(("iso8859-", "cp125")):
        return name
    return None


class _Upto(io.RawIOBase):
    """A binary stream that ends `left` bytes on, until told to go on (`left` None)."""

    def __init__(self, stream: io.BufferedIOBase, left: int | None) -> None:
        super().__init__()
        self.stream = stream
        self.left = left

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        if self.left is None:
            return self.stream.readinto(buffer)
        read = self.stream.readinto(memoryview(buffer)[: self.left])
        self.left -= read
        return read


def _row_by_row(source: str, reader: Any, before: int, layout: _Layout) -> Iterator[SourceRow]:
    """Rows of a csv.reader whose first line is line `before + 1` of the file."""
    previous = reader.line_num
    try:
        for cells in reader:
            start = before + previous + 1
            previous = reader.line_num
            row = _source_row(source, start, cells, layout)
            if row is not None:
                yield row
    except csv.Error as problem:
        raise csv_problem(source, before + previous + 1, before + reader.line_num, problem) from None


_END = "\x00"  # marks a line's end among the cells; a chunk that holds one goes row by row


def _lines(chunk: str) -> tuple[str, str] | None:
    """The chunk without its last line end, and the line end; None when a line ends another way too
    (a lone carriage return ends a record, and so does a lone line feed among CRLF lines)."""
    newline = "\n"
    if "\r" in chunk:
        newline = "\r\n"
        if not chunk.count("\r") == chunk.count("\n") == chunk.count(newline):
            return None
    return (chunk[: -len(newline)] if chunk.endswith(newline) else chunk), newline


def _block(source: str, chunk: str, before: int, layout: _Layout) -> Block | None:
    """A chunk of lines without quotes as one block, or None when a line is not exactly as wide as the
    header (or a line ends another way: `_lines` sorts those out)."""
    if _END in chunk:
        return None
    delimiter, width = layout.delimiter, layout.width
    newline = "\r\n" if "\r" in chunk else "\n"
    body = chunk[: -len(newline)] if chunk.endswith(newline) else chunk
    # One split for all the lines: each line's cells, then an end marker (a cached one-character
    # string, so no allocation). Without quotes every line is one record; the lines are all exactly
    # as wide as the header when every marker falls where a row of that width ends.
    text = body.replace(newline, f"{delimiter}{_END}{delimiter}")
    if newline == "\r\n" and ("\r" in text or "\n" in text):
        return None  # a lone carriage return or line feed among CRLF lines
    cells = text.split(delimiter)
    ends = text.count(_END)
    if len(cells) != (ends + 1) * (width + 1) - 1 or cells[width :: width + 1].count(_END) != ends:
        return None
    return Block(source, before + 1, cells, layout, width + 1)


def _regular(source: str, first_line: int, records: list[list[str]], layout: _Layout) -> Iterator[Piece]:
    """Records one line each: the runs as wide as the header as blocks, the others row by row."""
    width, start = layout.width, None

    def block(stop: int | None) -> Block:
        assert start is not None
        cells = list(itertools.chain.from_iterable(records[start:stop]))
        return Block(source, first_line + start, cells, layout, width)

    for offset, cells in enumerate(records):
        if len(cells) == width:
            start = offset if start is None else start
            continue
        if start is not None:
            yield block(offset)
            start = None
        row = _source_row(source, first_line + offset, cells, layout)
        if row is not None:
            yield row
    if start is not None:
        yield block(None)


def _quoted_block(source: str, chunk: str, before: int, layout: _Layout) -> tuple[list[list[str]], int] | None:
    """A chunk with quotes parsed whole: its records, when each is one line; None when one spans lines
    (or the csv module refuses one, which reading row by row words)."""
    reader = csv.reader(io.StringIO(chunk, newline=""), **_reader_options(layout.delimiter))
    try:
        records = list(reader)
    except csv.Error:
        return None
    # A quoted value still open at the chunk's end would hold a line break: its record goes on below.
    if len(records) != reader.line_num or any("\n" in cell or "\r" in cell for cell in records[-1]):
        return None
    return records, reader.line_num


class Pieces(Iterator[Piece]):
    """A CSV file's pieces, read from a start to a stop (see `CsvRows.pieces`); `lines` tells how many
    lines were read when they are done, None when a record spanned the stop and they went on to the end."""

    def __init__(self, source: Source, layout: _Layout, start: tuple[int, int] | None, stop: int | None) -> None:
        self.lines: int | None = 0
        self._pieces = self._read(source, layout, start, stop)

    def __next__(self) -> Piece:
        return next(self._pieces)

    def _read(
        self, source: Source, layout: _Layout, start: tuple[int, int] | None, stop: int | None
    ) -> Iterator[Piece]:
        name = source.name
        with source.open() as raw:
            assert isinstance(raw, io.BufferedIOBase), "a file or standard input's bytes"
            if start is not None:
                raw.seek(start[0])
            upto = _Upto(raw, None if stop is None else stop - raw.tell())
            # From a line start on, a UTF-8 BOM codec would take a line's leading U+FEFF for a BOM.
            encoding = layout.encoding if start is None else _line_codec(layout.encoding) or layout.encoding
            with io.TextIOWrapper(io.BufferedReader(upto), encoding=encoding, newline="") as text:
                try:
                    yield from self._chunks(name, text, upto, layout, start[1] if start else None)
                except UnicodeDecodeError:
                    raise decode_problem(name, source.read(), layout.encoding) from None

    def _chunks(
        self, name: str, text: io.TextIOWrapper, upto: _Upto, layout: _Layout, before: int | None
    ) -> Iterator[Piece]:
        options = _reader_options(layout.delimiter)
        if before is None:
            reader = csv.reader(text, **options)
            try:
                for _ in reader:
                    if reader.line_num >= layout.header_end:
                        break
            except csv.Error as problem:
                raise csv_problem(name, reader.line_num, reader.line_num, problem) from None
            before = reader.line_num  # the physical lines read so far
        while chunk := text.read(CHUNK_CHARS):
            if not chunk.endswith("\n"):
                chunk += text.readline()
            plain = _may_be_block(chunk)
            if plain and (block := _block(name, chunk, before, layout)) is not None:
                yield block
                before += len(block)
                continue
            ended = _lines(chunk) if plain else None
            if ended is not None:
                body, newline = ended
                # Blank or ragged lines: without quotes a line's cells are still just its split.
                records = [line.split(layout.delimiter) for line in body.split(newline)]
                yield from _regular(name, before + 1, records, layout)
                before += len(records)
                continue
            if '"' not in chunk:
                lines = csv.reader(io.StringIO(chunk, newline=""), **options)
                yield from _row_by_row(name, lines, before, layout)
                before += lines.line_num
                continue
            parsed = _quoted_block(name, chunk, before, layout)
            if parsed is None:
                # A record spans lines: the rest of the file is read as the csv module reads it.
                upto.left = self.lines = None
                rest = csv.reader(itertools.chain(io.StringIO(chunk, newline=""), text), **options)
                yield from _row_by_row(name, rest, before, layout)
                return
            records, count = parsed
            yield from _regular(name, before + 1, records, layout)
            before += count
        self.lines = before
