"""A memo of bounded size for the checks: each distinct cell (or tuple of cells) of a part judged once.

An export repeats a few thousand texts (ids, values, dates, a policy's terms) a million times: what a
check makes of each distinct one is remembered while a part is read. The memo is bounded, because a file
whose rows never repeat (a distinct room per row) gains nothing by it and would keep an entry per row.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

_T = TypeVar("_T")


def _text(cell: Any) -> bool:
    return cell is None or type(cell) is str


MEMO_MOST = 2**16
"""The most cells a memo remembers: a nightly export's few thousand combinations fit many times over, while a
file of a distinct room per row, whose rows never repeat, would keep an entry (a few hundred bytes) per row."""


class Judged(dict[Any, _T]):
    """A cell (or a tuple of cells) -> what `judge` makes of it: a kind id or day ordinal, a field's value, a
    policy's rule (or a mark that it breaks a rule). A memo: a judgement is the same whenever it is made, so a
    memo that is full (MEMO_MOST) starts over.

    Texts (and None, a field a row lacks) are remembered as themselves. Other cells (a workbook's
    numbers and date cells, JSON's numbers and true) are remembered with their types, apart: JSON's
    true and 1 are equal keys, not equal values.
    """

    def __init__(self, judge: Callable[[Any], _T], plain: bool = False) -> None:
        super().__init__()
        self.judge = judge
        self.plain = plain
        """Every cell is remembered as itself: the part's cells are plain (`Part.plain_cells`)."""
        self.typed: dict[tuple[Any, Any], _T] = {}

    def __missing__(self, cell: Any) -> _T:
        if len(self) + len(self.typed) >= MEMO_MOST:
            self.clear()
            self.typed.clear()
        if self.plain or _text(cell) or (type(cell) is tuple and all(map(_text, cell))):
            found = self[cell] = self.judge(cell)
            return found
        typed = (cell, tuple(map(type, cell)) if type(cell) is tuple else type(cell))
        try:
            return self.typed[typed]
        except KeyError:
            found = self.typed[typed] = self.judge(cell)
            return found
