"""Seven weekday flag columns (`Mon` ... `Sun` of Y or N, as revenue systems export them) as one `days` field.

A part whose header gives the flags is wrapped so that its rows carry the seven cells, as written, in the
`days` field: `records/rules.py` (`weekday_filter`) says what they mean, as it does for a `days` text, so
that a weekday filter is one rule whichever way a file writes it.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from operator import itemgetter
from typing import Any

from ari_cli.exits import InputError
from ari_cli.inputs.columns import flag_problem
from ari_cli.inputs.model import Part
from ari_cli.inputs.names import WEEKDAY_FLAGS

FLAG_NAMES = tuple(day.title() for day in WEEKDAY_FLAGS)
"""How messages name the flag columns: Mon ... Sun."""


class WeekdayFlags(tuple[Any, ...]):
    """A row's seven weekday flag cells, Monday first, as written."""

    __slots__ = ()

    def __str__(self) -> str:
        return " ".join(f"{name}={'' if cell is None else cell}" for name, cell in zip(FLAG_NAMES, self, strict=True))


class _FlaggedPart(Part):
    """A part whose seven flag columns are given as one `days` field (the last of each row's values)."""

    def __init__(self, inner: Part, at: list[int]) -> None:
        columns = {name: i for name, i in inner.columns.items() if name not in WEEKDAY_FLAGS}
        super().__init__(inner.source, {**columns, "days": -1})
        self.notes = inner.notes  # filled as the inner part's rows are spent
        self.warnings = inner.warnings
        self.plain_cells = inner.plain_cells
        self._inner = inner
        self._pick = itemgetter(*at)

    def rows(self) -> Iterator[tuple[int, Sequence[Any]]]:
        pick = self._pick
        for line, values in self._inner.rows():
            yield line, (*values, WeekdayFlags(pick(values)))


def with_weekday_flags(part: Part) -> Part:
    """The part, its flag columns (if it has any) given as `days`. A file giving some but not all seven,
    or flags beside a `days` column, is refused (a CSV's or sheet's header says so earlier, with its line)."""
    if not any(day in part.columns for day in WEEKDAY_FLAGS):
        return part
    problem = flag_problem(part.columns, part.source, "key" if part.source.endswith((".json", ".jsonl")) else "column")
    if problem is not None:
        raise InputError(problem)
    return _FlaggedPart(part, [part.columns[day] for day in WEEKDAY_FLAGS])
