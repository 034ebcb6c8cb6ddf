"""What to do when a header lacks the operation's columns: the command its columns fit, the exact
--header-row N when the names are on a line below (title lines, a merged group header above them), or the
column that holds ranges (`01.12.2026 - 31.12.2026`) under a name not taken for a period."""

from __future__ import annotations

import shlex
from collections.abc import Iterable, Sequence
from itertools import islice

from ari_cli.inputs.columns import Resolver, resolve_header
from ari_cli.inputs.ranges import looks_like_range
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


def range_column(names: Sequence[str], resolver: Resolver, below: Sequence[tuple[int, Sequence[str]]]) -> str | None:
    """When a header lacks start and end: the name of a column not read whose cells (in `below`, the rows under
    the header) each hold a range, which a period column reads."""
    if "start" in resolver.seen or not any("missing column" in p and " start" in p for p in resolver.problems):
        return None
    for at, name in enumerate(names):
        if name.strip() not in resolver.ignored:  # read, or said already (a near miss, a bound)
            continue
        cells = [cells[at].strip() for _, cells in below if at < len(cells) and cells[at].strip()]
        if cells and all(map(looks_like_range, cells)):
            return (
                f'{resolver.source}: column "{name.strip()}" holds ranges ("{cells[0]}"): a period column reads '
                f'them as start and end; name it period, or map it: --column period="{name.strip()}"'
            )
    return None


def header_follow_up(
    source: str,
    line: int,
    names: Sequence[str],
    resolver: Resolver,
    later: int | None = None,
    sheet: str = "",
    below: Sequence[tuple[int, Sequence[str]]] = (),
) -> list[str]:
    """What to do when a header lacks required columns: map the column that holds ranges (in `below`, the rows
    under the header) to period; use the command its columns fit; give --header-row with the line below that
    has them (`later`; and --sheet `sheet` when that sheet would not be read without it); or, when the line
    holds no known name (a title above the names), --header-row (naming what the line holds)."""
    operation = resolver.operation
    if not missing_columns(resolver.problems):
        return []
    ranges = range_column(names, resolver, below)
    if ranges is not None:
        return [ranges]
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
    if not missing_columns(resolver.problems):
        return []
    rows = list(islice(below, LOOK_DOWN))
    return header_follow_up(source, line, names, resolver, later_header(rows, resolver), below=rows)


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
