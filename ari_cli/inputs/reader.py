"""read_rows: every input file to rows, with all files' header problems reported together."""

from __future__ import annotations

import dataclasses
import difflib
import os
import stat
import sys
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, BinaryIO

from ari_cli.exits import InputError
from ari_cli.inputs.csvfile import prepare_csv
from ari_cli.inputs.jsonfile import prepare_json, prepare_objects
from ari_cli.inputs.model import ROWS_NAME, STDIN, STDIN_NAME, Part, Prepared, ReadMeter, ReadOptions, ReadResult
from ari_cli.inputs.names import CANONICAL, alias_hint, expected_columns, normalize
from ari_cli.inputs.sheets import prepare_xlsx
from ari_cli.inputs.textio import (
    OLE_MAGIC,
    XLSX,
    ZIP_MAGIC,
    Source,
    binary_kind,
    check_encoding,
    check_format,
    decode_all,
    format_for,
    read_stream,
    sniff_format,
)
from ari_cli.inputs.weekdays import with_weekday_flags
from ari_cli.wire.operations import Operation


def _stdin_source(stdin: BinaryIO | None, meter: ReadMeter | None) -> Source:
    stream = stdin if stdin is not None else getattr(sys.stdin, "buffer", None)
    if stream is None:
        raise InputError('cannot read standard input ("-"): there is none')
    return Source(STDIN_NAME, data=read_stream("standard input", stream, meter))


def _file_source(path: str, meter: ReadMeter | None) -> Source:
    """A path as a Source: a regular file is re-read as needed; a pipe or a device (which could be
    endless, or give its bytes once) is read into memory, within bounds."""
    source = Source(path, path=path)
    with source.open() as stream:  # a missing file says so, whatever its extension
        if stat.S_ISREG(os.fstat(stream.fileno()).st_mode):
            return source
        return Source(path, path=path, data=read_stream(path, stream, meter))


def _prepare(source: Source, operation: Operation, options: ReadOptions) -> Prepared:
    format_ = format_for(source, options.format)
    if format_ is None and source.data is not None and source.data.startswith((ZIP_MAGIC, OLE_MAGIC)):
        format_ = XLSX  # a workbook on standard input
    if format_ == XLSX:
        return prepare_xlsx(source, operation, options)
    kind = binary_kind(source)
    if kind is not None:
        # Named for what it is: decoding it would only end in an encoding hint that cannot help.
        extension = next((ext for ext in (".xlsx", ".xls", ".ods") if f"({ext})" in kind), None)
        raise InputError(
            f"{source.name}: this is {kind}, not {(format_ or 'CSV or JSON').upper()} text",
            hint=f"rename it to {extension}" if extension else "save the sheet as CSV (UTF-8) or as a workbook",
        )
    if format_ is None:
        assert source.data is not None
        format_ = sniff_format(decode_all(source.name, source.data, options.encoding))
    if format_ == "csv":
        return prepare_csv(
            source,
            operation,
            options.encoding,
            options.header_row,
            dict(options.columns),
            options.meter,
            options.ignore_columns,
            options.grid,
        )
    return prepare_json(
        source, operation, options.encoding, format_, dict(options.columns), options.meter, options.ignore_columns
    )


def _combined(messages: list[str], hints: list[str], problems: bool, operation: Operation) -> InputError:
    if problems:
        messages = [*messages, expected_columns(operation)]
        hints = [*hints, alias_hint()]
    return InputError("\n".join(messages), hint="\n".join(dict.fromkeys(hints)) or None)


def read_rows(
    paths: Sequence[str], operation: Operation, options: ReadOptions, stdin: BinaryIO | None = None
) -> ReadResult:
    """Read every path (`-` is standard input) into rows under canonical field names.

    Headers are checked for all files before any row is read, and their problems raised as one
    InputError; CSV rows then stream as each part is read (a malformed row raises InputError then).
    """
    options = dataclasses.replace(
        options, format=check_format(options.format), encoding=check_encoding(options.encoding)
    )
    failures: list[InputError] = []
    messages: list[str] = []  # in the order of the paths, so each file's problems stay together
    problems = False
    warnings: list[str] = []
    notes: list[str] = []
    empty: list[str] = []
    ignored: list[tuple[str, str]] = []
    parts: list[Part] = []
    policies: tuple[str, str] | None = None
    exported_run: int | None = None
    stdin_taken = False
    for path in paths:
        try:
            if path == STDIN:
                if stdin_taken:
                    raise InputError('standard input ("-") can be read only once')
                stdin_taken = True
                source = _stdin_source(stdin, options.meter)
            else:
                source = _file_source(path, options.meter)
            prepared = _prepare(source, operation, options)
        except InputError as failure:
            failures.append(failure)
            messages.append(failure.message)
            continue
        messages.extend(prepared.problems)
        problems = problems or bool(prepared.problems)
        warnings.extend(prepared.warnings)
        notes.extend(prepared.notes)
        ignored.extend(prepared.ignored)
        policies = policies or prepared.policies
        if prepared.exported_run is not None:
            exported_run = min(exported_run or prepared.exported_run, prepared.exported_run)
        if prepared.part is not None:
            for part in (prepared.part, *prepared.also):
                try:
                    parts.append(with_weekday_flags(part))
                except InputError as failure:
                    failures.append(failure)
                    messages.append(failure.message)
        elif not prepared.problems:
            empty.append(source.name)
    if len(failures) == 1 and not problems:
        raise failures[0]
    if messages:
        raise _combined(messages, [f.hint for f in failures if f.hint], problems, operation)
    read = {field for part in parts for field in part.columns}
    notes.extend(_not_found(options.ignore_named, [name for _, name in ignored], read, operation))
    return ReadResult(parts, warnings, notes, empty, ignored, policies, exported_run)


def _not_found(named: Iterable[str], left_out: list[str], read: set[str], operation: Operation) -> Iterator[str]:
    """A note for each --ignore-column name that no column left out has (a typo leaves the column it meant
    to the other rules), with the left-out name it is closest to."""
    keys = {normalize(name): name for name in left_out}
    for name in named:
        if normalize(name) in keys:
            continue
        if CANONICAL.get(normalize(name)) in read:
            yield f'--ignore-column "{name}": {operation.value} reads that column, so it is not left out'
            continue
        close = difflib.get_close_matches(normalize(name), list(keys), n=1, cutoff=0.7)
        meant = f'; did you mean "{keys[close[0]]}"?' if close else ""
        yield f'--ignore-column "{name}": no column of the input is named so{meant}'


def read_objects(objects: Iterable[Any], operation: Operation, options: ReadOptions, read: ReadResult) -> ReadResult:
    """`read` (the files' rows) and then rows given from Python, as a JSON list of objects would give them."""
    prepared = prepare_objects(ROWS_NAME, objects, operation, dict(options.columns), options.ignore_columns)
    if prepared.problems:
        raise _combined(prepared.problems, [], True, operation)
    parts = [*read.parts, with_weekday_flags(prepared.part)] if prepared.part is not None else read.parts
    empty = read.empty if prepared.part is not None else [*read.empty, ROWS_NAME]
    return ReadResult(
        parts, [*read.warnings, *prepared.warnings], read.notes, empty, [*read.ignored, *prepared.ignored]
    )
