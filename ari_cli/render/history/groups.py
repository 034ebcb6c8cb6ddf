"""Runs of alike rows, and of alike requests, of a journaled run: the one rule that the history table of a big
run and the run's HTML page share. And failed rows by cause: what a big run's table (a push's, `history show`'s)
lists of them.

Consecutive items alike in everything but what tells them apart one by one (their line or number, dates,
value, tracking id) are one group. A failed property's thousands of rows, each refused in a request of its
own with a tracking id of its own, are then one line of the table (or the page) instead of thousands.

Over `BY_CAUSE_OVER` failed rows, wherever they are in the file, rows of one cause (status, and answer or note)
and property are one group: its count and its first `FIRST_ROWS` rows. 3,000 rows of 3,000 unknown rooms are
then a few lines, at a terminal or in the mail cron sends.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from ari_cli.render.values import plural

if TYPE_CHECKING:  # a push's table groups its failed rows here, and a dry run must not load the journal
    from ari_cli.journal.queries import RequestInfo
    from ari_cli.journal.rows import RowInfo

Item = TypeVar("Item")
Grouped = TypeVar("Grouped")
SEVERAL = "(several)"


def alike_runs(
    items: Iterable[Item], alike: Callable[[Item], Hashable], start: Callable[[Item], Grouped],
    fold: Callable[[Grouped, Item], None],
) -> Iterator[Grouped]:  # fmt: skip
    """Consecutive items with equal `alike(item)` as one group each: `start` makes a group of its first item, and
    `fold` adds every item to its group (the first included) as it comes, so that no group holds its items."""
    group: Grouped | None = None
    held: Hashable = None
    for item in items:
        key = alike(item)
        if group is None or key != held:
            if group is not None:
                yield group
            group, held = start(item), key
        fold(group, item)
    if group is not None:
        yield group


@dataclass(slots=True)
class RowGroup:
    """Alike rows of one file and key: the lines they came from, their dates and values as one."""

    first: RowInfo
    lines: list[int] = field(default_factory=list)
    low: str = ""
    high: str = ""
    value: str = ""
    dated: bool = True
    trackingids: dict[str, None] = field(default_factory=dict)

    @property
    def count(self) -> int:
        return len(self.lines)

    @property
    def dates(self) -> str:
        """One row's dates as written; a group's as `first..last`, or `(several)` when some are not dates."""
        if self.count == 1:
            return self.first.dates
        if not self.low:
            return SEVERAL
        return self.low if self.low == self.high else f"{self.low}..{self.high}"


class _Errors:
    """What tells lists of errors apart (code, message, HTTP status of each), made once per list: alike rows and
    requests share one list (`journal/rows.py`, `run_requests.py`), a failed run's 98,000 of them. Each list is held
    while its key is, so that no other list can take its identity."""

    def __init__(self) -> None:
        self.made: dict[int, tuple[list[dict[str, Any]], tuple[Hashable, ...]]] = {}

    def key(self, errors: list[dict[str, Any]]) -> tuple[Hashable, ...]:
        found = self.made.get(id(errors))
        if found is None:
            told = tuple((e.get("code"), e.get("message"), e.get("http_status")) for e in errors)
            found = self.made[id(errors)] = (errors, told)
        return found[1]


def _row_alike(errors: _Errors) -> Callable[[RowInfo], Hashable]:
    def alike(row: RowInfo) -> Hashable:
        return row.source, row.status, row.propertyid, row.roomid, row.rateid, errors.key(row.errors), row.note

    return alike


@functools.lru_cache(maxsize=4096)  # a big run's rows share a few hundred dates: each is read once
def bounds(dates: str) -> tuple[str, str] | None:
    """A row's first and last date when its dates are ISO dates (`2027-01-01..2027-01-05`, a weekday filter
    after them), else None."""
    span = dates.split(" (", 1)[0].split("..")
    low, high = span[0], span[-1]
    if len(span) > 2 or not all(len(d) == 10 and d[4] == d[7] == "-" for d in (low, high)):
        return None
    return low, high


def _fold_row(group: RowGroup, row: RowInfo) -> None:
    group.lines.append(row.line)
    if group.value != row.value:
        group.value = SEVERAL
    found = bounds(row.dates) if group.dated else None
    if found is None:
        group.dated, group.low, group.high = False, "", ""
    else:
        group.low = min(group.low or found[0], found[0])
        group.high = max(group.high, found[1])
    for trackingid in row.trackingids:
        group.trackingids[trackingid] = None


def row_groups(rows: Iterable[RowInfo]) -> Iterator[RowGroup]:
    """Consecutive rows of one file and key with the same status, errors and note, as groups."""
    return alike_runs(rows, _row_alike(_Errors()), lambda row: RowGroup(row, value=row.value), _fold_row)


def _request_alike(errors: _Errors) -> Callable[[RequestInfo], Hashable]:
    def alike(r: RequestInfo) -> Hashable:
        return r.propertyid, r.state, r.transient, r.attempts, r.http_status, errors.key(r.errors)

    return alike


@dataclass(slots=True)
class RequestGroup:
    """Alike requests in a row (by number): same property, state, tries, HTTP status and errors."""

    first: RequestInfo
    last: RequestInfo
    count: int = 0
    records: int = 0
    parents: set[int | None] = field(default_factory=set)
    lines: list[tuple[str, int, int, int]] = field(default_factory=list)
    trackingids: dict[str, None] = field(default_factory=dict)


def _fold_request(group: RequestGroup, request: RequestInfo) -> None:
    group.last = request
    group.count += 1
    group.records += request.count
    group.parents.add(request.parent)
    group.lines.extend(request.lines)
    if request.trackingid:
        group.trackingids[request.trackingid] = None


def request_groups(requests: Iterable[RequestInfo]) -> Iterator[RequestGroup]:
    """Consecutive requests alike (`_request_alike`) as groups, with the lines all of them carried."""
    return alike_runs(
        requests, _request_alike(_Errors()), lambda request: RequestGroup(request, request), _fold_request
    )


def ids_text(trackingids: Iterable[str], one_per_line: bool = False) -> str:
    """A group's tracking ids: the only one, or the first and how many more (`--output json` lists each)."""
    ids = list(trackingids)
    if len(ids) <= 1 or one_per_line:
        return "\n".join(ids)
    return f"{ids[0]} +{len(ids) - 1} more"


BY_CAUSE_OVER = 50  # more failed rows than this, without --show, are listed by cause
FIRST_ROWS = 3  # the rows listed of each cause
MOST_CAUSES = 10  # the causes listed, the largest first: the rest are counted in the hint


@dataclass(slots=True)
class CauseGroup(Generic[Item]):
    """The failed rows of one cause and property: how many, and the first `FIRST_ROWS` of them."""

    first: Item
    count: int = 0
    rows: list[Item] = field(default_factory=list)


def cause_groups(items: Iterable[Item], cause: Callable[[Item], Hashable]) -> list[CauseGroup[Item]]:
    """Items of equal `cause(item)` wherever they are, as groups, the largest first (ties in the order of their first
    item); each holds its first `FIRST_ROWS` items only, so that a million failed rows are a few groups."""
    groups: dict[Hashable, CauseGroup[Item]] = {}
    for item in items:
        key = cause(item)
        group = groups.get(key)
        if group is None:
            group = groups[key] = CauseGroup(item)
        group.count += 1
        if len(group.rows) < FIRST_ROWS:
            group.rows.append(item)
    return sorted(groups.values(), key=lambda group: -group.count)  # a stable sort: ties keep their order


def rows_by_cause(rows: Iterable[RowInfo]) -> list[CauseGroup[RowInfo]]:
    """A journaled run's failed rows by cause: status, the service's answer (the first error: a second says only
    that its records were not isolated) or the note, and property."""
    errors = _Errors()
    return cause_groups(rows, lambda row: (row.status, row.propertyid, errors.key(row.errors)[:1], row.note))


def cause_heading(count: int, status: str, propertyid: str, cause: str) -> str:
    """A group's line: `3000 rows failed, property HTL001: 451 invalid room mapping (HTTP 422)`."""
    if status == "not sent":
        cause = cause.removeprefix("not sent: ")  # the note of a row not sent says so: once is enough
    return f"{plural(count, 'row')} {status}, property {propertyid}: {cause}"


def by_cause_hint(groups: list[CauseGroup[Any]], statuses: Iterable[str]) -> str:
    """What the grouped table left out and how to see it; `statuses`: the groups' (failed, not sent)."""
    rows = sum(group.count for group in groups)
    failed = "failed" if set(statuses) <= {"failed"} else "failed or not sent"
    left = groups[MOST_CAUSES:]
    if left:
        which = (
            f"the first {FIRST_ROWS} of each of the {MOST_CAUSES} largest groups above"
            f" ({plural(sum(g.count for g in left), 'row')} in {plural(len(left), 'other group')})"
        )
    else:
        which = f"the first {FIRST_ROWS} of each above"
    return (
        f"{rows} {failed} rows by cause and property: {which}; --show failed lists every failed row,"
        " --show all every row"
    )
