"""Rows into a RowTable: a big CSV file read by two processes, each a half.

Reading and checking a million-row export keeps one core busy for a third of a second. Where a
second core is there and forking is safe, a forked child reads the second half of the file (its
plain blocks, checked into compact columns) while this process reads the first half; the child
then sends its columns through a pipe. This process reads on from wherever the child stopped
(the first chunk that is not one block of plain rows: quotes, blank or ragged lines, rows for the
precise path), and when a record spans the cut it reads on to the end itself and drops the
child's work: the table is always the one that a single reader makes.
"""

from __future__ import annotations

import marshal
import os
import signal
import sys
import threading
from collections.abc import Iterable
from typing import NoReturn

from ari_cli.inputs import ReadResult, SourceRow
from ari_cli.inputs.csvfile import Block, CsvRows, Piece
from ari_cli.records.rows import DateOptions
from ari_cli.table import PlainColumns, RowTable
from ari_cli.wire.operations import Operation

# A smaller file takes under a tenth of a second to read: a second process would not pay.
SPLIT_BYTES = 4 * 1024 * 1024


def read_table(read: ReadResult, operation: Operation, dates: DateOptions) -> RowTable:
    """Every row that `read` holds, in order, into a table; a CSV file's plain lines a block at a time."""
    table = RowTable(operation, dates)
    parts: Iterable[Iterable[SourceRow]] = read.parts or [read.rows]
    for part in parts:
        if not isinstance(part, CsvRows):
            for row in part:
                table.add_row(row)
            continue
        at = part.cut(SPLIT_BYTES) if may_fork() else None
        if at is None:
            _add(table, part.pieces())
        else:
            read_halves(table, part, at)
    return table


def may_fork() -> bool:
    """Whether a forked child may read here: a second core to run on, and a fork that is safe. It is
    not on Windows (none), on macOS (system libraries are not fork-safe), or beside another thread,
    which the child would find in the middle of whatever it was doing."""
    if not hasattr(os, "fork") or sys.platform == "darwin" or threading.active_count() != 1:
        return False
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return cores > 1


def _add(table: RowTable, pieces: Iterable[Piece]) -> None:
    for piece in pieces:
        if isinstance(piece, Block):
            table.add_block(piece)
        else:
            table.add_row(piece)


def read_halves(table: RowTable, rows: CsvRows, at: int) -> None:
    """The rows of a CSV file into the table, a forked child reading those from byte `at` (where
    `rows.cut` says a second reader may start) while this process reads those before."""
    child = _Child(at)
    try:
        if not child.start(rows, RowTable(table.operation, table.dates)):
            _add(table, rows.pieces())  # no process to spare: one reader
            return
        head = rows.pieces(stop=at)
        _add(table, head)
        if head.lines is None:
            return  # a record spans the cut: the head was read on to the end
        taken = child.taken()
    finally:
        child.end()
    offset, lines = at, head.lines
    if taken is not None:
        offset, count, columns = taken
        table.add_plain_rows(rows.source.name, lines + 1, columns)
        lines += count
    _add(table, rows.pieces(start=(offset, lines)))


# Blocked while forking: a Ctrl-C must not reach the child before it is set to end quietly on one.
_STOPS = {signal.SIGINT, signal.SIGTERM}


class _Child:
    """A forked process that checks a file's plain blocks from byte `at` into a table, and sends back
    the byte it stopped at, the lines it read and the table's columns."""

    def __init__(self, at: int) -> None:
        self.at = at
        self.pid: int | None = None
        self.pipe: int | None = None
        self.received = False

    def start(self, rows: CsvRows, table: RowTable) -> bool:
        """Fork the child; False when the system has no process or pipe to spare."""
        try:
            reading, writing = os.pipe()
        except OSError:
            return False
        blocked = signal.pthread_sigmask(signal.SIG_BLOCK, _STOPS)
        try:
            try:
                pid = os.fork()
            except OSError:
                os.close(reading)
                os.close(writing)
                return False
            if pid == 0:
                _child(rows, self.at, table, reading, writing, blocked)
            self.pid, self.pipe = pid, reading
            os.close(writing)
            return True
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, blocked)  # raises here a Ctrl-C pressed meanwhile

    def taken(self) -> tuple[int, int, PlainColumns] | None:
        """(byte after the rows the child took, their lines, their columns), or None when it sent nothing whole."""
        assert self.pipe is not None
        with open(self.pipe, "rb") as stream:
            self.pipe = None
            data = stream.read()
        self.received = True
        try:
            offset, count, keys, values, kinds, starts, ends = marshal.loads(data)
            columns = PlainColumns(keys, values, kinds, starts, ends)
        except (EOFError, ValueError, TypeError):
            return None  # it met an error of its own: this process reads its part instead
        if offset < self.at or count != len(columns) or len(starts) != count or (ends and len(ends) != count):
            return None
        return offset, count, columns

    def end(self) -> None:
        """Stop the child unless all it sent was read (the head's reading failed, or was interrupted),
        and wait for its end."""
        if self.pipe is not None:
            os.close(self.pipe)
            self.pipe = None
        pid, self.pid = self.pid, None
        if pid is None:
            return
        if not self.received:
            os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)


def _child(rows: CsvRows, at: int, table: RowTable, parents: int, pipe: int, blocked: Iterable[int]) -> NoReturn:
    """The child's whole life: it never returns, ends at once on a Ctrl-C, and whatever goes wrong
    ends quietly, having sent nothing whole, so that the parent reads its part itself."""
    try:
        for number in _STOPS:
            signal.signal(number, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
        os.close(parents)  # the parent's end of the pipe
        offset, count = at, 0
        for block, after in rows.plain_blocks(at):
            if not table.add_plain(block):
                break
            offset, count = after, count + len(block)
        columns = table.plain_columns()
        data = marshal.dumps((offset, count, columns.keys, columns.values, columns.kinds, columns.starts, columns.ends))
        with open(pipe, "wb") as stream:
            stream.write(data)
    finally:
        os._exit(0)  # no exit handlers, no flushing of buffers the parent also holds
