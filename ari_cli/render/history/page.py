"""The HTML page of a journaled run (`history show RUN --output html`): its records on the map, outlined where
the service acknowledged them, and its rows as the journal derives them, runs of alike rows at a time."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Iterator
from typing import IO, Any

from ari_cli.journal.queries import RecordInfo, RunDetail, leaves
from ari_cli.journal.rows import RowInfo
from ari_cli.journal.store import OK
from ari_cli.render.history.groups import row_groups
from ari_cli.render.html.data import compact_rows, lines_text, map_part, ranges_table, rows_tables
from ari_cli.render.html.page import About, MapData, write_page
from ari_cli.render.push.run import problem_text
from ari_cli.render.push.table import summary_sentence
from ari_cli.render.values import value_text
from ari_cli.send.exchange import Problem
from ari_cli.wire.errors import hint_for


def _problem(error: dict[str, Any]) -> list[str]:
    """An error as the journal keeps it, as one line and what to check."""
    code, status = error.get("code"), error.get("http_status")
    problem = Problem(code, str(error.get("message", "")), status)
    return [problem_text(problem), hint_for(code, status) or ""]


def _groups(rows: Iterable[RowInfo], errors: list[list[str]]) -> Iterator[list[Any]]:
    """The rows as `groups.row_groups` makes them (the history table's rule), laid out as `html/data.py` lays out a
    run's groups."""
    ids: dict[tuple[str, str], int] = {}
    for group in row_groups(rows):
        row = group.first
        problems = []
        for error in row.errors:
            text, hint = _problem(error)
            problems.append(ids.setdefault((text, hint), len(ids)))
            if len(errors) < len(ids):
                errors.append([text, hint])
        dates = row.dates if group.count == 1 else ""
        yield [row.source, lines_text(group.lines), group.count, row.status, row.propertyid, row.roomid, row.rateid,
               dates, group.value, " ".join(group.trackingids), problems, row.note]  # fmt: skip


def write_history_run(
    whole: RunDetail, rows: Iterable[RowInfo], records: Iterable[RecordInfo], ran_by: tuple[str, str], stream: IO[str]
) -> None:
    """The page of run `whole`; `ran_by` is who ran it as the journal says (unknown for older runs)."""
    run = whole.run
    acknowledged: set[int] = set()
    for request in leaves(whole.requests):
        if request.state == OK:
            acknowledged.update(request.records)
    data = MapData()
    for record in records:
        value = value_text(run.operation, record.value)
        data.add(record.key, record.start, record.end, value, 0 if record.idx in acknowledged else 1)
    page = map_part(data)
    errors: list[list[str]] = []
    groups = list(_groups(rows, errors))
    # The journal keeps what the service acknowledged, not what it held before: taken is all a run from history says.
    compact_rows(groups, data, page)
    page.update(
        kind="run",
        errors=errors,
        states=[["changed", "acknowledged in this run"], ["notapplied", "not applied: failed or not sent"]],
    )
    # The sentence a push says of itself at the terminal, from the journal's counts.
    sent = sum(1 for request in leaves(whole.requests) if request.attempts)
    summary = summary_sentence(run.summary, sent) if run.summary else "not finished"
    what = f"run {run.id} from history"
    if run.retry_of is not None:
        what += f", a retry of run {run.retry_of}"
    elif run.options.get("reverts"):
        what += f", a revert of run {run.options['reverts']}"
    about = About(what, run.operation, tuple(p for p, _ in run.files), run.base_url, run.source_id,
                  dt.datetime.fromisoformat(run.started), *ran_by, summary, run.exit_code)  # fmt: skip
    tables = {"ranges": ranges_table(page), "rows": rows_tables(groups, errors), "groups": len(groups),
              "unknown": "not set by this run"}  # fmt: skip
    write_page(stream, about, page, tables)
