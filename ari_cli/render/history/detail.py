"""One journaled run: its header, its requests (with bodies and answers on request) and its rows.

Rows are derived from the journal as they are printed (`journal/rows.py`): a big run's table lists
only what did not go well, and its JSON document is written a row at a time.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import itertools
import json
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from rich.console import Console
from rich.text import Text

from ari_cli.config.secrets import scrub
from ari_cli.journal.lines import joined
from ari_cli.journal.queries import RecordInfo, RequestInfo, RunDetail, RunInfo
from ari_cli.journal.rows import INTERESTING, NOT_FINISHED, RowInfo, RunRows
from ari_cli.operations import of
from ari_cli.render.console import console, fitted, whole
from ari_cli.render.history.document import write_detail
from ari_cli.render.history.groups import (
    BY_CAUSE_OVER,
    MOST_CAUSES,
    SEVERAL,
    RequestGroup,
    RowGroup,
    by_cause_hint,
    cause_heading,
    ids_text,
    request_groups,
    row_groups,
    rows_by_cause,
)
from ari_cli.render.history.page import write_history_run
from ari_cli.render.history.runs import (
    STATE_STYLE,
    STATE_TEXT,
    errors_text,
    exit_text,
    grid,
    lines_text,
    local_time,
    runs_text,
    state_text,
    text,
)
from ari_cli.render.printable import printable
from ari_cli.render.values import value_text
from ari_cli.results import Status

SHOW_ALL_UP_TO = 50


def _duration(run: RunInfo) -> str:
    if run.ended is None:
        return ""
    seconds = (dt.datetime.fromisoformat(run.ended) - dt.datetime.fromisoformat(run.started)).total_seconds()
    return f" ({seconds:.1f} s)"


def summary_text(summary: dict[str, int] | None) -> str:
    if summary is None:
        return "-"
    return (
        f"{summary.get('rows', 0)} rows: {summary.get('ok', 0)} ok, {summary.get('failed', 0)} failed, "
        + (f"{summary['not sent']} not sent, " if summary.get("not sent") else "")
        + f"{summary.get('invalid', 0)} invalid, {summary.get('skipped', 0)} skipped; "
        f"{summary.get('records', 0)} records in {summary.get('requests', 0)} requests"
    )


def _options_text(options: dict[str, Any]) -> str:
    return " ".join(f"{name}={value}" for name, value in sorted(options.items())) or "-"


def labelled(fields: Sequence[tuple[str, Text]], out: Console) -> None:
    """`label  value` lines, the values aligned; a value too long for the width (a file path) never cut."""
    width = max(len(label) for label, _ in fields)
    for label, value in fields:
        line = Text(label.ljust(width + 2), style="bold")
        line.append_text(value)
        whole(out, line)


def _ended(run: RunInfo) -> Text:
    if run.finished:
        return text(local_time(run.ended) + _duration(run))
    return exit_text(run)


def run_header(run: RunInfo, out: Console) -> None:
    """Everything the journal knows of a run but its rows and requests."""
    files = ", ".join(f"{'stdin' if p == '-' else p}" + (f" (sha256 {d[:12]})" if d else "") for p, d in run.files)
    fields: list[tuple[str, Text]] = [
        ("command", text(run.command + (" (to a sandbox started for the run)" if run.sandbox else ""))),
        ("operation", text(run.operation)),
        ("profile", text(run.profile or "-")),
        ("base URL", text(run.base_url)),
        ("source id", text(run.source_id)),
        ("files", text(files or "-")),
        ("options", text(_options_text(run.options))),
        ("started", text(local_time(run.started))),
        ("ended", _ended(run)),
        ("summary", text(summary_text(run.summary))),
        ("exit code", exit_text(run)),
    ]
    if run.retry_of is not None:
        fields.insert(1, ("retry of", text(f"run {run.retry_of}")))
    if run.finished_by is not None:
        fields.insert(1, ("finished by", text(f"run {run.finished_by} (a retry)")))
    if run.options.get("reverts") is not None:
        fields.insert(1, ("reverts", text(f"run {run.options['reverts']} (`ari-cli revert {run.id}` undoes it)")))
    out.print(Text(f"run {run.id}", style="bold"))
    labelled(fields, out)
    if run.unrecorded:
        out.print(
            f"The journal could not record all of this run ({run.unrecorded}): what it shows as acknowledged was; "
            f"`ari-cli retry {run.id}` sends the rest, and nothing acknowledged.",
            markup=False,
        )
    elif not run.finished and run.finished_by is None:
        out.print(
            f"The run has no end recorded: it was killed, or it is still running. `ari-cli retry {run.id}` "
            "sends what was not acknowledged.",
            markup=False,
        )


def requests_table(requests: Iterable[RequestInfo], out: Console, grouped: bool = False) -> None:
    """The requests as a table; `grouped`: alike requests in a row as one line (`groups.request_groups`)."""
    table = grid()
    for name in ("Req", "Parent", "Property", "Records", "Lines", "State", "Tries", "HTTP", "Tracking id", "Error"):
        table.add_column(name, no_wrap=name not in ("Lines", "Error"))
    several = False
    for g in request_groups(requests) if grouped else (RequestGroup(r, r, 1, r.count, {r.parent}) for r in requests):
        r = g.first
        several = several or g.count > 1
        number = str(r.id) if g.count == 1 else f"{r.id}..{g.last.id} ({g.count})"
        parent = next(iter(g.parents)) if len(g.parents) == 1 else None
        lines = r.lines if g.count == 1 else joined(g.lines)
        ids = r.trackingid or "" if g.count == 1 else ids_text(g.trackingids)
        table.add_row(
            text(number), text(parent if parent is not None else ""), text(r.propertyid), text(g.records),
            text(runs_text(lines)), state_text(r), text(r.attempts), text(r.http_status or ""), text(ids),
            text(errors_text(r.errors), "red"),
        )  # fmt: skip
    fitted(table, out)
    if several:
        out.print("Alike requests in a row (one property, the same state, tries, HTTP status and error) are one line:"
                  " `first..last (how many)`; --show all lists each request", markup=False)  # fmt: skip


def rows_table(rows: Iterable[RowInfo], operation: str, out: Console, grouped: bool = False) -> int:
    """The rows as a table; how many there were. `grouped`: alike rows in a row as one line (`groups.row_groups`)."""
    table = grid()
    with_rate = of(operation).has_rate
    names = ["Line", "Property", "Room", *(["Rate"] if with_rate else []), "Dates", "Value", "Status", "Tracking id",
             "Error / note"]  # fmt: skip
    for name in names:
        table.add_column(name, no_wrap=name not in ("Value", "Error / note"))
    count = 0
    several = False
    for group in row_groups(rows) if grouped else (RowGroup(r, [r.line], value=r.value) for r in rows):
        count += group.count
        several = several or group.count > 1
        row = group.first
        status = row.status
        source = "stdin" if row.source == "-" else row.source
        line = f"{source}:{row.line}" if group.count == 1 else lines_text([(row.source, n) for n in group.lines])
        value = group.value if group.value == SEVERAL else value_text(operation, group.value) if group.value else ""
        ids = "\n".join(row.trackingids) if group.count == 1 else ids_text(group.trackingids)
        cells = [text(line), text(row.propertyid), text(row.roomid), *([text(row.rateid)] if with_rate else []),
                 text(group.dates), text(value), text(status, STATE_STYLE.get(status, "yellow")), text(ids),
                 text(errors_text(row.errors) or row.note, "red" if row.errors else "")]  # fmt: skip
        table.add_row(*cells)
    if count:
        fitted(table, out)
    if several:
        out.print("Alike rows in a row (one file and key, the same status and error) are one line; --show all lists"
                  " each row", markup=False)  # fmt: skip
    return count


def _pretty(body: Any) -> str:
    return json.dumps(body, ensure_ascii=False, indent=2)


def exchange(request: RequestInfo, out: Console) -> None:
    """What a request sent (key masked as stored) and what came back."""
    records = request.count
    out.print(
        printable(f"# request {request.id}: property {request.propertyid}, {records} record{'s' * (records != 1)}"),
        markup=False,
    )
    out.print(printable(f"POST {request.url}"), markup=False)
    out.print(printable(scrub(_pretty(request.body))), markup=False)
    if request.http_status is None and request.response is None:
        out.print(f"# answer: none recorded ({STATE_TEXT.get(request.state, request.state)})", markup=False)
        return
    took = f" in {request.seconds * 1000:.0f} ms" if request.seconds else ""
    out.print(f"# answer: HTTP {request.http_status if request.http_status is not None else '-'}{took}", markup=False)
    response = request.response or ""
    with contextlib.suppress(ValueError):
        response = _pretty(json.loads(response))
    out.print(printable(scrub(response)), markup=False)


def shown_requests(whole: RunDetail, everything: bool | None) -> list[RequestInfo] | None:
    """As a push's table: over 50 requests, only those that did not go well, unless `everything` (None: every
    request, those the light read left unread included)."""
    if everything if everything is not None else whole.total <= SHOW_ALL_UP_TO:
        return None
    return [r for r in whole.requests if r.state not in ("ok", "split")]


def run_detail(
    whole: RunDetail, shown: Sequence[RequestInfo] | None, read: Callable[[], Iterable[RequestInfo]], rows: RunRows,
    out: Console, bodies: bool, everything: bool | None = None,
) -> None:  # fmt: skip
    """One run: its header, its requests (`shown`, of `shown_requests`, as `read()` reads them whole, with bodies
    and answers on request) and its rows (over 50, only those that did not go well, unless `everything`). The
    requests are read as they are drawn, never held: a failed run lists a hundred thousand."""
    run_header(whole.run, out)
    out.print()
    requests = whole.total
    if requests:
        out.print(Text(f"Requests ({requests})", style="bold"))
        listed = requests if shown is None else len(shown)
        if listed:
            requests_table(read(), out, grouped=listed < requests)
        if listed < requests:
            out.print(f"{requests - listed} acknowledged or split requests not shown; --show all lists every"
                      " request", markup=False)  # fmt: skip
        if bodies:
            for request in read() if listed else ():
                out.print()
                exchange(request, out)
    else:
        out.print("No request was sent.", markup=False)
    total = rows.total
    all_rows = everything if everything is not None else total <= SHOW_ALL_UP_TO
    out.print()
    out.print(Text(f"Rows ({total})", style="bold"))
    operation = whole.run.operation
    if all_rows or everything is not None or not _by_cause(rows):  # each row as asked, or too few failed to group
        listed = rows_table(rows.rows(None if all_rows else INTERESTING), operation, out, not all_rows)
    else:
        listed = _grouped(rows, operation, out)
    hidden = total - listed
    if hidden > 0:
        out.print(f"{hidden} ok or skipped rows not shown; --show all lists every row", markup=False)


_BY_CAUSE = frozenset({Status.FAILED.value, Status.NOT_SENT.value, NOT_FINISHED})  # not invalid: each its own


def _by_cause(rows: RunRows) -> bool:
    """Whether the run has over `BY_CAUSE_OVER` failed (or not sent) rows: read until one more is found."""
    return sum(1 for _ in itertools.islice(rows.rows(_BY_CAUSE), BY_CAUSE_OVER + 1)) > BY_CAUSE_OVER


def _grouped(rows: RunRows, operation: str, out: Console) -> int:
    """The invalid rows (alike rows in a row as one line), then the failed and not sent ones by cause and property
    (`groups.rows_by_cause`): a line each with its count, and its first rows. How many rows there were. Each is read
    as it is shown, never held: a failed run has a hundred thousand."""
    count = rows_table(rows.rows(frozenset({Status.INVALID.value})), operation, out, grouped=True)
    groups = rows_by_cause(rows.rows(_BY_CAUSE))
    for number, group in enumerate(groups[:MOST_CAUSES]):
        first = group.first
        if number or count:
            out.print()
        told = errors_text(first.errors[:1]) or first.note
        whole(out, Text(printable(cause_heading(group.count, first.status, first.propertyid, told)), style="bold"))
        rows_table(group.rows, operation, out)
    whole(out, Text(by_cause_hint(groups, (group.first.status for group in groups))))
    return count + sum(group.count for group in groups)


def show_detail(
    whole: RunDetail,
    rows: RunRows,
    records: Callable[[], Iterator[RecordInfo]],
    completed: Callable[[Sequence[RequestInfo] | None, bool], Iterable[RequestInfo]],
    form: str,
    body: bool,
    all_rows: bool | None,
    ran_by: tuple[str, str],
) -> None:
    """`history show`: one run in full, as one JSON document, an HTML page or text; read from the journal as it is
    written. `ran_by` is who ran it (user, host), for the page."""
    if form == "json":
        write_detail(whole, completed(None, True), rows, records, sys.stdout)
    elif form == "html":
        write_history_run(whole, rows.rows(), records(), ran_by, sys.stdout)
    else:
        # Only the requests shown are read whole (bodies, lines): a big run's are thousands.
        shown = shown_requests(whole, all_rows)
        run_detail(whole, shown, lambda: completed(shown, body), rows, console(), body, all_rows)
