"""Bytes to text: where input comes from, which encoding, which format, and errors a user can act on."""

from __future__ import annotations

import codecs
import csv
import io
import json
import os
import zipfile
from dataclasses import dataclass
from typing import BinaryIO

from ari_cli.exits import InputError
from ari_cli.inputs.model import FORMATS, STDIN_NAME, ReadMeter

DEFAULT_ENCODING = "utf-8-sig"
EXTENSIONS: dict[str, str] = {
    ".csv": "csv",
    ".tsv": "csv",
    ".json": "json",
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
    ".xlsx": "xlsx",
    ".xlsm": "xlsx",
    ".xls": "xlsx",
    ".xlsb": "xlsx",
    ".ods": "xlsx",
}
XLSX = "xlsx"
"""The format of every workbook (.xlsx, .xlsm, .xls, .xlsb, .ods): one reader takes them all."""
ZIP_MAGIC = b"PK\x03\x04"  # an .xlsx or .ods is a zip archive; this is how one is told apart on standard input
# Checked longest first: a UTF-32-LE BOM starts with the UTF-16-LE one.
_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)
OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"  # old Excel (.xls) and other Office binaries
_MAGIC = ((b"%PDF", "a PDF document"), (b"\x1f\x8b", "a gzip archive"), (b"\x89PNG", "a PNG image"))
_ENCODINGS = ("cp1252", "latin-1", "utf-16")
_ENCODING_USES = {"cp1252": "Excel on Windows"}
NUL_HINT = "save a spreadsheet as CSV (UTF-8); for UTF-16 text without a BOM give --encoding utf-16"


MAX_STREAM_BYTES = 128 * 1024 * 1024
"""Standard input, pipes and devices are read into memory, so up to this much (a million-row CSV is about
50 MiB); a regular file is streamed instead."""
_CHUNK = 1024 * 1024
MAX_LINE = 4 * 1024 * 1024
"""The longest CSV line read, in characters: a line with no end (binary data, an endless stream) stops here."""


def read_stream(name: str, stream: BinaryIO, meter: ReadMeter | None = None) -> bytes:
    """All of a stream that cannot be read twice, or an InputError once it passes MAX_STREAM_BYTES.

    Read as the bytes come (a slow writer's pipe), so that `meter` hears of them and of its lines."""
    if meter is not None:
        meter.start(name)
    # read1 gives what has come, at most a chunk; a plain read would wait for the whole chunk.
    read = getattr(stream, "read1", stream.read)
    # Gathered in a BytesIO, whose value is its own buffer, not a copy: the bytes are held once, not twice.
    gathered = io.BytesIO()
    got = 0
    try:
        while got <= MAX_STREAM_BYTES and (chunk := read(min(_CHUNK, MAX_STREAM_BYTES + 1 - got))):
            gathered.write(chunk)
            got += len(chunk)
            if meter is not None:
                # Its lines stand for its rows until they are parsed (a C count: no step per line).
                meter.rows, meter.done = meter.rows + chunk.count(b"\n"), got
    except OSError as problem:
        raise InputError(f"cannot read {name}: {problem.strerror or problem}") from None
    data = gathered.getvalue()
    if len(data) <= MAX_STREAM_BYTES:
        return data
    if b"\x00" in data[:65536]:
        raise InputError(f"{name} line 1: holds a NUL byte; this is not a text file", hint=NUL_HINT)
    raise InputError(
        f"{name}: more than {MAX_STREAM_BYTES // 2**20} MiB; standard input, pipes and devices are read up to that",
        hint="give the export as a regular file, which is streamed, or split it",
    )


@dataclass(frozen=True, slots=True)
class Source:
    """One input: a file path, or the bytes of standard input (read once, kept for re-reading)."""

    name: str
    path: str | None = None
    data: bytes | None = None

    def open(self) -> BinaryIO:
        """A fresh binary stream over the whole input."""
        if self.data is not None:
            return io.BytesIO(self.data)
        assert self.path is not None
        try:
            return open(self.path, "rb")  # the caller closes it
        except FileNotFoundError:
            raise InputError(f"cannot read {self.name}: no such file") from None
        except IsADirectoryError:
            raise InputError(f"cannot read {self.name}: it is a directory, not a file") from None
        except PermissionError:
            raise InputError(f"cannot read {self.name}: permission denied") from None
        except OSError as problem:
            raise InputError(f"cannot read {self.name}: {problem.strerror or problem}") from None

    def size(self) -> int | None:
        """The input's size in bytes; None when it cannot be told."""
        if self.data is not None:
            return len(self.data)
        try:
            return os.path.getsize(self.path) if self.path is not None else None
        except OSError:
            return None

    def read(self) -> bytes:
        """All of the input's bytes."""
        with self.open() as stream:
            try:
                return stream.read()
            except OSError as problem:
                raise InputError(f"cannot read {self.name}: {problem.strerror or problem}") from None


def check_encoding(encoding: str | None) -> str | None:
    """The user's encoding, verified to exist (None keeps the default)."""
    if encoding is None:
        return None
    try:
        codecs.lookup(encoding)
    except LookupError:
        raise InputError(
            f'unknown encoding "{encoding}"', hint="for example --encoding cp1252 or --encoding latin-1"
        ) from None
    return encoding


def pick_encoding(head: bytes, encoding: str | None) -> str:
    """The user's encoding, else UTF-16/32 when the text starts with their BOM, else UTF-8 (BOM or not)."""
    if encoding is not None:
        return encoding
    for bom, name in _BOMS:
        if head.startswith(bom):
            return name
    return DEFAULT_ENCODING


def encoding_hint(tried: str | None) -> str:
    """What to try next, never the encoding just tried (with every byte readable as latin-1, a file that
    fails as cp1252 is rarely text at all)."""
    tried_name = codecs.lookup(tried).name if tried else ""
    others = [e for e in _ENCODINGS if codecs.lookup(e).name != tried_name]
    shown = " or ".join(f"--encoding {e}" + (f" ({_ENCODING_USES[e]})" if e in _ENCODING_USES else "") for e in others)
    if tried:
        return f"the file is not {tried}: check that it is text (a CSV export), or try {shown}"
    return f"give the file's encoding, e.g. {shown}"


def binary_kind(source: Source) -> str | None:
    """What a file given as text really is, when its first bytes say so: a workbook, a zip, a PDF."""
    with source.open() as stream:
        head = stream.read(8)
        if head.startswith(OLE_MAGIC):
            return "an old Excel workbook (.xls) or another Office file"
        for magic, kind in _MAGIC:
            if head.startswith(magic):
                return kind
        if not head.startswith(ZIP_MAGIC):
            return None

        stream.seek(0)
        try:
            names = zipfile.ZipFile(stream).namelist()
        except (zipfile.BadZipFile, OSError, ValueError):
            return "a zip archive"
    if any(name.startswith("xl/") for name in names):
        return "an Excel workbook (.xlsx)"
    if "content.xml" in names:
        return "an OpenDocument file (.ods)"
    return "a zip archive"


def _shown(encoding: str) -> str:
    name = codecs.lookup(encoding).name
    return "UTF-8" if name in ("utf-8", "utf-8-sig") else encoding


def decode_problem(
    name: str, raw: bytes, encoding: str, error: UnicodeDecodeError | None = None, given: str | None = None
) -> InputError:
    """The error for bytes that do not decode, naming the line of the first bad byte; `given`: the
    user's --encoding, which the hint does not suggest again."""
    if error is None:  # an error raised on a chunk has offsets into that chunk: decode from the start
        try:
            raw.decode(encoding)
        except UnicodeDecodeError as found:
            error = found
    if error is None:
        return InputError(f"{name}: cannot decode the file as {_shown(encoding)}", hint=encoding_hint(given))
    # error.object may lack a BOM the codec stripped; counting in it keeps the line right either way.
    data = bytes(error.object)
    line = data[: error.start].decode(encoding, errors="replace").count("\n") + 1
    bad = data[error.start : error.end][:4].hex(" ")
    return InputError(f"{name} line {line}: cannot decode byte {bad} as {_shown(encoding)}", hint=encoding_hint(given))


def nul_problem(name: str, text: str, first_line: int = 1) -> InputError | None:
    """The error for text that holds a NUL character (binary data or UTF-16 read as UTF-8)."""
    at = text.find("\x00")
    if at < 0:
        return None
    line = first_line + text.count("\n", 0, at)
    return InputError(f"{name} line {line}: holds a NUL byte; this is not a text file", hint=NUL_HINT)


def csv_problem(name: str, start: int, stop: int, problem: csv.Error) -> InputError:
    """The error for CSV the csv module refuses, from the line its row starts on to where reading stopped."""
    if not str(problem).startswith("field larger than field limit"):
        return InputError(f"{name} line {stop}: {problem}")
    # The limit keeps a runaway value from filling memory; it is almost always a quote left open.
    where = f"line {start}" if start >= stop else f"line {start} (read on to line {stop})"
    return InputError(
        f"{name} {where}: a value is longer than {csv.field_size_limit()} characters",
        hint='a quote (") that is never closed makes the rest of the file one value: check the quotes on that line',
    )


def decode_all(name: str, raw: bytes, encoding: str | None) -> str:
    """The whole input as text, or an InputError about its bytes."""
    chosen = pick_encoding(raw[:4], encoding)
    try:
        text = raw.decode(chosen)
    except UnicodeDecodeError as problem:
        raise decode_problem(name, raw, chosen, problem, given=encoding) from None
    if text.startswith("\ufeff"):
        text = text[1:]  # a BOM left by an explicit --encoding utf-8 or utf-16-le
    nul = nul_problem(name, text)
    if nul is not None:
        raise nul
    return text


def sniff_format(text: str) -> str:
    """json, jsonl or csv, from what standard input's text looks like."""
    stripped = text.lstrip()
    if not stripped.startswith(("[", "{")):
        return "csv"
    if stripped.startswith("["):
        return "json"
    lines = [line for line in stripped.splitlines() if line.strip()]
    if len(lines) < 2:
        return "json"
    return "jsonl" if all(_object_line(line) for line in lines) else "json"


def _object_line(line: str) -> bool:
    """Whether a line holds one JSON object, as JSON Lines do."""
    try:
        return isinstance(json.loads(line), dict)
    except json.JSONDecodeError:
        return False
    except (ValueError, RecursionError):
        # Too deep, or a number too long to read: JSON all the same; the reader says what is wrong on that line.
        return line.lstrip().startswith("{")


def check_format(format_: str | None) -> str | None:
    """A --format value, verified."""
    if format_ is None:
        return None
    value = format_.strip().lower()
    if value not in FORMATS:
        raise InputError(f'unknown format "{format_}"; use one of {", ".join(FORMATS)}')
    return value


def format_for(source: Source, format_: str | None) -> str | None:
    """The format of a file from its extension (`--format` for unknown ones); None: sniff stdin."""
    if source.name == STDIN_NAME:
        return format_
    assert source.path is not None
    ext = os.path.splitext(source.path)[1].lower()
    if ext in EXTENSIONS:
        return EXTENSIONS[ext]
    if format_ is not None:
        return format_
    known = ", ".join(EXTENSIONS)
    what = f'"{ext}"' if ext else "no extension"
    raise InputError(
        f"{source.name}: cannot tell the format from {what}; supported are {known}",
        hint='give --format csv|json|jsonl (this is also how standard input "-" is read)',
    )
