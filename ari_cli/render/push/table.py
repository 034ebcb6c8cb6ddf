"""The run's table at a terminal, in a pipe or a file, and its summary line.

A table whose columns would not fit whole at the terminal's width becomes a short block per row: a line
number, a value, a result, an error code or a tracking id cut to `…` is worse than no table (support
copies tracking ids, users look up lines).
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Mapping

from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from ari_cli.operations import of
from ari_cli.render.console import MIN_WRAP, fitted, styled_table, whole
from ari_cli.render.history.groups import BY_CAUSE_OVER, MOST_CAUSES, by_cause_hint, cause_groups, cause_heading
from ari_cli.render.printable import printable
from ari_cli.render.push.run import problem_text
from ari_cli.render.values import plural
from ari_cli.results import RowResult, Run, Shared, Status
from ari_cli.wire.operations import Operation

SHOW_ALL_UP_TO = 50
_STYLE = {Status.OK: "green", Status.PLANNED: "cyan", Status.FAILED: "bold red", Status.NOT_SENT: "bold yellow",
          Status.INVALID: "red", Status.SKIPPED: "yellow"}  # fmt: skip


def _value_column(operation: Operation) -> str:
    return of(operation).words.heading


def _result_text(run: Run, row: RowResult) -> Text:
    return Text(row.status.value, style=_STYLE[row.status])


def _detail(row: RowResult) -> str:
    return "\n".join(problem_text(p) for p in row.errors) if row.errors else row.note


def _hints(rows: list[RowResult]) -> list[str]:
    """Each distinct service error once, with what to check."""
    seen: dict[str, None] = {}
    for row in rows:
        for p in row.errors:
            if p.hint:
                status = f" (HTTP {p.http_status})" if p.http_status is not None else ""
                seen.setdefault(f"  {p.code if p.code is not None else 'error'}{status}: {p.hint}", None)
    return list(seen)


def _cells(run: Run, row: RowResult) -> list[str]:
    """A row's cells of outside origin, escaped for the terminal and for Rich markup."""
    v = row.view
    cells = [f"{v.source}:{v.line}", v.propertyid, v.roomid, *([v.rateid] if _with_rate(run) else []), v.dates, v.value]
    return [escape(printable(c)) for c in cells]


def _with_rate(run: Run) -> bool:
    return of(run.operation).has_rate


def _grid(run: Run, shown: list[RowResult]) -> Table:
    grid = styled_table(show_lines=False, collapse_padding=True)
    for name in ("Line", "Property", "Room", *(["Rate"] if _with_rate(run) else []), "Dates"):
        grid.add_column(name, no_wrap=True)
    grid.add_column(_value_column(run.operation), no_wrap=True)
    grid.add_column("Result", no_wrap=True)
    grid.add_column("Tracking id", no_wrap=True)
    # The one column that wraps: the rows become blocks where it would get less than MIN_WRAP.
    grid.add_column("Error / note", min_width=MIN_WRAP, ratio=1, overflow="fold")
    for row in shown:
        trackingids = escape(printable("\n".join(row.trackingids)))
        grid.add_row(*_cells(run, row), _result_text(run, row), trackingids, escape(printable(_detail(row))))
    return grid


def _blocks(run: Run, shown: list[RowResult], out: Console) -> None:
    """Each row as a short block, for a terminal too narrow for the table: nothing is cut, long text wraps."""
    value = _value_column(run.operation)
    for row in shown:
        _line, *where, dates, shown_value = _cells(run, row)
        head = Text.assemble(Text(printable(f"{row.view.source}:{row.view.line}")), "  ", _result_text(run, row))
        whole(out, head)
        whole(out, f"  {' '.join(where)}  {dates}  {value.lower()} {shown_value}")  # cells escaped for markup
        for trackingid in row.trackingids:
            whole(out, Text(f"  tracking id {printable(trackingid)}"))
        detail = _detail(row)
        for text in detail.splitlines() if detail else []:
            whole(out, Text(f"  {printable(text)}"))


def table(run: Run, show_all: bool | None, out: Console) -> None:
    """The rows table (all rows, or only failed and invalid ones over 50 rows) and a summary.

    Without `--show`, over `BY_CAUSE_OVER` failed (or not sent) rows are listed by cause: a line per cause and
    property with its count, and its first rows (`groups.cause_groups`). At a terminal too narrow for every column
    whole, each row is a short block instead: the line, the value, the result, the error code and the tracking id
    are never cut.
    """
    counts = run.rows.counts()
    if show_all is None and counts[Status.FAILED] + counts[Status.NOT_SENT] > BY_CAUSE_OVER:
        _by_cause(run, out)
        out.print(summary_line(run))
        return
    everything = show_all if show_all is not None else len(run.rows) <= SHOW_ALL_UP_TO
    shown = list(run.rows) if everything else run.rows.with_status({Status.FAILED, Status.NOT_SENT, Status.INVALID})
    if shown:
        _rows(run, shown, out)
    _what_to_check(shown, out)
    hidden = len(run.rows) - len(shown)
    if hidden:
        kept = "planned" if run.dry_run else "ok"
        rows = "row" if hidden == 1 else "rows"
        out.print(f"{hidden} {kept} or skipped {rows} not shown; --show all lists every row")
    out.print(summary_line(run))


def _rows(run: Run, shown: list[RowResult], out: Console) -> None:
    """`shown` as a table, or as blocks where the table does not fit."""
    fitted(_grid(run, shown), out, lambda: _blocks(run, shown, out))


def _what_to_check(rows: list[RowResult], out: Console) -> None:
    hints = _hints(rows)
    if hints:
        out.print("What to check:", markup=False)
        for line in hints:
            whole(out, Text(line))


_Failed = tuple[int, Shared, str]  # a failed or not sent row: its index, its result and its property


def _failed(run: Run) -> Iterator[_Failed]:
    """Each failed or not sent row, in order, without making its view: a run of alike rows is carried by one
    record (`RowResults.runs`), so its rows share their property, read once."""
    for first, stop, shared in run.rows.runs():
        if shared.status in (Status.FAILED, Status.NOT_SENT):
            propertyid = run.rows.table[first].propertyid
            for index in range(first, stop):
                yield index, shared, propertyid


def _cause(row: _Failed) -> Hashable:
    """The service's answer (its first error: a second says only that its records were not isolated), or the note
    of a row not sent."""
    _, shared, propertyid = row
    return shared.status, propertyid, shared.errors[:1], shared.note


def _by_cause(run: Run, out: Console) -> None:
    """The invalid rows, then the failed and not sent ones by cause and property: a line each with the count, and
    the first rows as the table shows them."""
    invalid = run.rows.with_status({Status.INVALID})  # each its own problem, as standard error lists them
    if invalid:
        _rows(run, invalid, out)
    groups = cause_groups(_failed(run), _cause)
    shown: list[RowResult] = []
    for number, group in enumerate(groups[:MOST_CAUSES]):
        rows = [run.rows[index] for index, _, _ in group.rows]
        first = rows[0]
        told = problem_text(first.errors[0]) if first.errors else first.note
        if number or invalid:
            out.print()
        heading = cause_heading(group.count, first.status.value, first.view.propertyid, told)
        whole(out, Text(printable(heading), style="bold"))
        _rows(run, rows, out)
        shown.extend(rows)
    _what_to_check(invalid + shown, out)
    whole(out, Text(by_cause_hint(groups, (group.first[1].status.value for group in groups))))


def summary_line(run: Run) -> str:
    """`12 rows: 10 ok, 1 failed, 1 invalid, 0 skipped; 4 records, sent 2 of 2 requests`.

    Statuses a run cannot have (planned in a real run, not sent when none is) are left out.
    """
    sent = None if run.dry_run else sum(1 for e in run.exchanges if e.attempts)
    return summary_sentence(run.summary(), sent)


def summary_sentence(s: Mapping[str, int], sent: int | None) -> str:
    """A run's summary (`results.summary`'s counts) as `summary_line` says it; `sent`: the requests that went out,
    None for a dry run. A journaled run's page says it too (`render/history/page.py`)."""
    shown = [Status.PLANNED if sent is None else Status.OK, Status.FAILED, Status.INVALID, Status.SKIPPED]
    if s.get(Status.NOT_SENT.value):
        shown.insert(2, Status.NOT_SENT)
    counts = ", ".join(f"{s.get(status.value, 0)} {status.value}" for status in shown)
    records, requests = plural(s.get("records", 0), "record"), plural(s.get("requests", 0), "request")
    said = f"{records} in {requests} planned" if sent is None else f"{records}, sent {sent} of {requests}"
    return f"{plural(s.get('rows', 0), 'row')}: {counts}; {said}"
