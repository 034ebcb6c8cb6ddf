"""What to do when a header lacks the operation's columns: the command its columns fit, or the exact
--header-row N when the names are on a line below (title lines, a merged group header above them)."""

from __future__ import annotations

import shlex
from collections.abc import Iterable, Sequence
from itertools import islice

from ari_cli.inputs.columns import Resolver, resolve_header
from ari_cli.operations import of
from ari_cli.wire.operations import Operation


def _fits(names: Sequence[str], operation: Operation) -> bool:
    resolver = Resolver(operation, "")
    resolve_header(names, resolver)
    return not resolver.problems


Rows = Iterable[tuple[int, Sequence[str]]]
"""Rows as their numbers and their cells' text."""
LOOK_DOWN = 30
"""How many rows below a header that lacks columns are looked through for the line that has them."""


def later_header(rows: Rows, resolver: Resolver) -> int | None:
    """The number of the first of `rows` (those below a header that lacks columns, up to LOOK_DOWN) whose
    names give every column the operation needs: where the header really is, below titles."""
    for number, names in islice(rows, LOOK_DOWN):
        below = Resolver(resolver.operation, "", resolver.noun, resolver.mapping, ignore=resolver.ignore)
        resolve_header(names, below)
        if below.seen and not missing_columns(below.problems):
            return number
    return None


def header_follow_up(
    source: str, line: int, names: Sequence[str], resolver: Resolver, later: int | None = None, sheet: str = ""
) -> list[str]:
    """What to do when a header lacks required columns: use the command its columns fit; give --header-row
    with the line below that has them (`later`; and --sheet `sheet` when that sheet would not be read without
    it); or, when the line holds no known name (a title above the names), --header-row (naming what the line
    holds)."""
    operation = resolver.operation
    if not missing_columns(resolver.problems):
        return []
    for other in Operation:
        if other is not operation and _fits(names, other):
            return [f"{source}: these are the columns of {other.value}: use ari-cli {other.value} push"]
    if later is not None:
        named = f" --sheet {shlex.quote(sheet)}" if sheet else ""
        return [f"{source}: the column names are on line {later}: give --header-row {later}{named}"]
    if resolver.seen:
        return []
    shown = ", ".join(name.strip() for name in names if name.strip())
    if len(shown) > 60:
        shown = shown[:57] + "..."
    return [f'{source}: line {line} holds "{shown}"; if the column names are on a later line, give --header-row N']


def missing_columns(problems: Iterable[str]) -> bool:
    """Whether the header problems include required columns that no name gave."""
    return any(": missing column" in problem for problem in problems)


def follow_up(
    source: str, line: int, names: Sequence[str], resolver: Resolver, below: Iterable[tuple[int, Sequence[str]]]
) -> list[str]:
    """The hints after a header's problems; `below` are the rows under it, read only when columns lack."""
    later = later_header(below, resolver) if missing_columns(resolver.problems) else None
    return header_follow_up(source, line, names, resolver, later)


def its_own(resolver: Resolver, later: int | None) -> bool:
    """Whether a header that has problems is still the operation's: a line below it has the columns; or it
    gives every column it must (some with problems of their own: a near-miss, a duplicate, an id the
    operation does not use); or it names the operation's own setting (threshold, time, a policy's), its range
    columns misnamed, say. A workbook's sheet that is the operation's is the one read, never a later one whose
    columns happen to fit."""
    if later is not None:
        return True
    if not resolver.seen or any(name not in resolver.mapped_seen for name in resolver.mapping):
        return False  # a title, a note, another operation's columns; or not the header a --column names
    if not missing_columns(resolver.problems):
        return True
    return bool((resolver.seen | resolver.suggested) & frozenset(of(resolver.operation).own_columns))
