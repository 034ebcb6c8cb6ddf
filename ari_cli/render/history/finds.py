"""`history find`: who got a tracking id, and every record that covered a date with the one in force."""

from __future__ import annotations

import datetime as dt
import sys
from collections.abc import Sequence
from typing import Any

from rich.console import Console
from rich.text import Text

from ari_cli.journal.finds import DateHit
from ari_cli.journal.queries import RequestInfo, RunInfo
from ari_cli.journal.rows import RowInfo
from ari_cli.render.console import fitted
from ari_cli.render.history import runs as show
from ari_cli.render.history.detail import exchange, labelled, rows_table
from ari_cli.render.history.document import record_dict, request_dict, row_dict
from ari_cli.render.history.runs import grid, local_time, run_dict, runs_text, state_text, text
from ari_cli.render.values import value_text


def trackingid_dict(run: RunInfo, request: RequestInfo, rows: Sequence[RowInfo]) -> dict[str, Any]:
    return {"run": run_dict(run), "request": request_dict(request), "rows": [row_dict(r) for r in rows]}


def trackingid_match(run: RunInfo, request: RequestInfo, rows: Sequence[RowInfo], out: Console) -> None:
    """Who got a tracking id, what it sent, the answer, and the rows it carried."""
    answered = local_time(request.answered or request.sent)
    out.print(Text(f"run {run.id}, request {request.id}", style="bold"))
    fields = [
        ("command", text(f"{run.command} ({local_time(run.started)})")),
        ("base URL", text(run.base_url)),
        ("source id", text(run.source_id)),
        ("tracking id", text(request.trackingid or "-")),
        ("state", state_text(request)),
        ("answered", text(answered)),
        ("rows", text(runs_text(request.lines) or "-")),
    ]
    labelled(fields, out)
    out.print()
    exchange(request, out)
    if rows:
        out.print()
        rows_table(rows, run.operation, out)


def date_hit_dict(hit: DateHit) -> dict[str, Any]:
    return {
        "in_force": hit.in_force,
        "run": {k: v for k, v in run_dict(hit.run).items() if k not in ("options", "files", "requests")},
        "request": request_dict(hit.request),
        "record": record_dict(hit.record, hit.run.operation),
    }


def date_hits(hits: Sequence[DateHit], out: Console) -> None:
    """Every record that covered the date, newest first, the ones in force marked."""
    operations = {h.run.operation for h in hits}
    service_count = len({(h.run.base_url, h.run.source_id) for h in hits})
    with_rate = any(len(h.record.key) > 2 for h in hits)
    table = grid()
    names = ["In force", "Run", "Started", "Req", *(["Operation"] if len(operations) > 1 else []),
             *(["Service"] if service_count > 1 else []), "Room", *(["Rate"] if with_rate else []), "Range",
             "Value", "State", "Tracking id", "Answered"]  # fmt: skip
    for name in names:
        table.add_column(name, no_wrap=name != "Value")
    for hit in hits:
        run, request, record = hit.run, hit.request, hit.record
        cells: list[Text] = [
            Text("yes", style="bold green") if hit.in_force else Text(""),
            text(run.id),
            text(local_time(run.started)),
            text(request.id),
        ]
        if len(operations) > 1:
            cells.append(text(run.operation))
        if service_count > 1:
            cells.append(text(f"{run.base_url} {run.source_id}"))
        cells.append(text(record.key[1]))
        if with_rate:
            cells.append(text(record.key[2] if len(record.key) > 2 else ""))
        cells += [text(f"{record.start}..{record.end}"), text(value_text(run.operation, record.value)),
                  state_text(request), text(request.trackingid or ""), text(local_time(request.answered))]  # fmt: skip
        table.add_row(*cells)
    fitted(table, out)
    if not any(hit.in_force for hit in hits):
        if any(hit.request.acknowledged for hit in hits):
            said = "None of these is in force: a value acknowledged later (by a run since pruned) replaced them."
        else:
            said = "None of these was acknowledged: the journal knows of no value in force for this date."
        out.print(said, markup=False)


def show_tracking(
    trackingid: str, matches: Sequence[tuple[RunInfo, RequestInfo, Sequence[RowInfo]]], form: str
) -> None:
    """`history find --trackingid`: each run and request that got it, as text or one JSON document."""
    if form == "json":
        show.write_json({"trackingid": trackingid, "matches": [trackingid_dict(*m) for m in matches]}, sys.stdout)
        return
    out = show.console()
    for position, match in enumerate(matches):
        if position:
            out.print()
        trackingid_match(*match, out)


def show_dates(
    propertyid: str, day: dt.date, roomid: str | None, rateid: str | None, operation: str | None,
    hits: Sequence[DateHit], body: bool, form: str,
) -> None:  # fmt: skip
    """`history find --property --date`: every record that covered the date, as text or one JSON document."""
    if form == "json":
        search = {"propertyid": propertyid, "date": day.isoformat(), "roomid": roomid, "rateid": rateid,
                  "operation": operation}  # fmt: skip
        show.write_json({"search": search, "hits": [date_hit_dict(hit) for hit in hits]}, sys.stdout)
        return
    out = show.console()
    out.print(show.text(f"{day}, property {propertyid}: {len(hits)} record(s) covered it, newest first"))
    date_hits(hits, out)
    if body:
        seen: set[tuple[int, int]] = set()
        for hit in hits:
            if (hit.run.id, hit.request.id) not in seen:
                seen.add((hit.run.id, hit.request.id))
                out.print()
                out.print(show.text(f"# run {hit.run.id}"))
                exchange(hit.request, out)
