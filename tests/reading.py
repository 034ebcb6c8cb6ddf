"""Reading one input file in a test's own folder: rows, lines and the error it raises."""

from __future__ import annotations

from pathlib import Path

import pytest

from ari_cli.exits import InputError
from ari_cli.inputs import ReadOptions, SourceRow, read_rows
from ari_cli.wire.models import Operation

T, M, P = Operation.THRESHOLD, Operation.MAXADV, Operation.POLICY


def write(name: str, content: str) -> str:
    """Write a file into the current (the test's temporary) folder and return its name."""
    Path(name).write_text(content, encoding="utf-8")
    return name


def read(name: str, operation: Operation = T) -> list[SourceRow]:
    """All rows of one file."""
    return list(read_rows([name], operation, ReadOptions()).rows)


def lines(name: str, operation: Operation = T) -> list[int]:
    """The line of each row of one file."""
    return [row.line for row in read(name, operation)]


def error(name: str, operation: Operation = T) -> InputError:
    """The input error reading one file raises."""
    with pytest.raises(InputError) as caught:
        read(name, operation)
    return caught.value
