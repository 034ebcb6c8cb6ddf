"""Showing the journal: the runs, one run whole, and who set what (find).

The same rules as for a push's output hold: results on stdout, plain text without a terminal or
with NO_COLOR, every text of outside origin made printable. The journal stores bodies with the key
already masked; they are shown as stored.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
from collections.abc import Iterable, Sequence
from typing import IO, Any

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from ari_cli.config.secrets import scrub
from ari_cli.journal.queries import DateHit, RecordInfo, RequestInfo, RowInfo, RunDetail, RunInfo
from ari_cli.render.console import console as console  # the one console, re-exported for callers of this module
from ari_cli.render.console import fitted
from ari_cli.render.printable import printable

UNFINISHED = "unfinished (killed?)"
_STATE_STYLE = {"ok": "green", "failed": "bold red", "not sent": "bold yellow", "invalid": "red", "skipped": "yellow",
                "planned": "yellow", "sending": "yellow", "split": "dim"}  # fmt: skip
_STATE_TEXT = {"planned": "not sent", "sending": "sent, no answer", "split": "split in halves"}


def write_json(document: Any, stream: IO[str]) -> None:
    """One JSON document: indented for a person at a terminal, compact for a program."""
    stream.write(json.dumps(document, ensure_ascii=False, indent=2 if stream.isatty() else None))
    stream.write("\n")


def text(value: object, style: str = "") -> Text:
    """A cell of outside origin: never markup, no control character, no known key."""
    return Text(printable(scrub(str(value))), style=style)


def grid(plain: bool) -> Table:
    return Table(box=box.ASCII if plain else box.SIMPLE_HEAVY, pad_edge=False)


def local_time(stamp: str | None) -> str:
    """A stored UTC time as the local time, to the second."""
    if not stamp:
        return "-"
    return dt.datetime.fromisoformat(stamp).astimezone().strftime("%Y-%m-%d %H:%M:%S")


def command_text(run: RunInfo) -> str:
    command = run.command.removeprefix("ari-cli ")
    return f"{command}, retry of {run.retry_of}" if run.retry_of is not None else command


def files_text(files: Sequence[tuple[str, str | None]], most: int = 2) -> str:
    names = ["stdin" if path == "-" else path for path, _ in files]
    if len(names) > most:
        return ", ".join(names[:most]) + f" +{len(names) - most} more"
    return ", ".join(names) or "-"


def exit_text(run: RunInfo) -> Text:
    if not run.finished:
        return Text(UNFINISHED, style="bold yellow")
    labels = {0: "0", 1: "1 failed", 2: "2 usage", 3: "3 invalid input", 4: "4 configuration",
              130: "130 interrupted"}  # fmt: skip
    code = run.exit_code if run.exit_code is not None else -1
    return Text(labels.get(code, str(code)), style="green" if code == 0 else "bold red")


def state_text(request: RequestInfo) -> Text:
    label = _STATE_TEXT.get(request.state, request.state)
    if request.state == "failed" and request.transient:
        label = "failed (transient)"
    return Text(label, style=_STATE_STYLE.get(request.state, ""))


def errors_text(errors: Iterable[dict[str, Any]]) -> str:
    parts = []
    for error in errors:
        code = f"{error['code']} " if error.get("code") is not None else ""
        status = f" (HTTP {error['http_status']})" if error.get("http_status") is not None else ""
        parts.append(f"{code}{error.get('message', '')}{status}")
    return "\n".join(parts)


def lines_text(lines: Sequence[tuple[str, int]]) -> str:
    """`rooms.csv:2-4,7`: each file once, runs of lines as ranges."""
    by_source: dict[str, list[int]] = {}
    for source, line in lines:
        by_source.setdefault(source, []).append(line)
    parts = []
    for source, numbers in by_source.items():
        spans: list[list[int]] = []
        for n in sorted(set(numbers)):
            if spans and n == spans[-1][1] + 1:
                spans[-1][1] = n
            else:
                spans.append([n, n])
        joined = ",".join(f"{a}" if a == b else f"{a}-{b}" for a, b in spans)
        parts.append(f"{'stdin' if source == '-' else source}:{joined}")
    return " ".join(parts)


def policy_parts(value: str) -> tuple[str, ...]:
    """A stored policy (the service's JSON) in words: its cancellation, then its deposit; the JSON itself if it
    cannot be read."""
    try:
        from ari_cli.records.words import cancellation_words, deposit_words
        from ari_cli.wire.models import CancellationRule, Deposit

        document = json.loads(value)
        details = document["policydetails"]
        rules = [CancellationRule.model_validate(r) for r in details.get("cancellation") or []]
        deposit = Deposit.model_validate(details["deposit"])
        return cancellation_words(document["refundable"], rules), deposit_words(deposit)
    except (ValueError, KeyError, TypeError):
        return (value,)


def policy_words(value: str) -> str:
    """A stored policy (the service's JSON) in words; the JSON itself if it cannot be read."""
    return " ".join(policy_parts(value))


def value_text(operation: str, value: str) -> str:
    return policy_words(value) if operation == "policy" else value


# --- the runs ---------------------------------------------------------------------------------


def run_dict(run: RunInfo, states: dict[str, int] | None = None) -> dict[str, Any]:
    """One run as JSON; `requests` counts its final requests by state."""
    return {
        "id": run.id,
        "command": run.command,
        "operation": run.operation,
        "profile": run.profile,
        "base_url": run.base_url,
        "source_id": run.source_id,
        "retry_of": run.retry_of,
        "started": run.started,
        "ended": run.ended,
        "finished": run.finished,
        "exit_code": run.exit_code,
        "summary": run.summary,
        "files": [{"path": path, "sha256": digest} for path, digest in run.files],
        "options": run.options,
        "requests": dict(sorted((states or {}).items())),
    }


def _requests_cell(run: RunInfo, states: dict[str, int]) -> str:
    total = sum(states.values())
    if run.finished and run.summary is not None:
        return str(run.summary.get("requests", total))
    return f"{states.get('ok', 0)}/{total} acknowledged"


_RUN_COLUMNS = ("Run", "Started", "Command", "Operation", "Base URL", "Files", "OK", "Failed", "Invalid", "Skipped",
                "Requests", "Exit")  # fmt: skip


def runs_table(runs: Sequence[RunInfo], states: dict[int, dict[str, int]], out: Console) -> None:
    """The runs, newest first: one line each, or at a terminal too narrow for that, a short block each."""
    rows: list[list[Text]] = []
    for run in runs:
        summary = run.summary or {}
        counts = [str(summary.get(k, "-")) if run.finished else "-" for k in ("ok", "failed", "invalid", "skipped")]
        rows.append([
            text(run.id), text(local_time(run.started)), text(command_text(run)), text(run.operation),
            text(run.base_url), text(files_text(run.files)),
            *(text(c, "red" if c not in ("0", "-") and i in (1, 2) else "") for i, c in enumerate(counts)),
            text(_requests_cell(run, states.get(run.id, {}))), exit_text(run),
        ])  # fmt: skip
    widths = [max([len(name), *(row[i].cell_len for row in rows)]) for i, name in enumerate(_RUN_COLUMNS)]
    # The grid puts three columns between cells; the run number must never be cut, nor any count.
    if out.is_terminal and sum(widths) + 3 * len(widths) > out.width:
        _run_blocks(rows, out)
        return
    table = grid(not out.is_terminal)
    for name in _RUN_COLUMNS[:6]:
        table.add_column(name, no_wrap=name != "Files")
    for name in _RUN_COLUMNS[6:11]:
        table.add_column(name, justify="right", no_wrap=True)
    table.add_column("Exit", no_wrap=True)
    for row in rows:
        table.add_row(*row)
    out.print(table)


def _run_blocks(rows: list[list[Text]], out: Console) -> None:
    """Each run as a short block: `run 12  started  exit`, the command and where it went, the counts."""
    for number, started, command, _operation, base_url, files, ok, failed, invalid, skipped, requests, exit_ in rows:
        out.print(Text.assemble("run ", number, "  ", started, "  exit ", exit_))
        out.print(Text.assemble("  ", command, "  ", files), overflow="fold")
        out.print(Text.assemble("  to ", base_url), overflow="fold")
        counts = Text.assemble("  ", ok, " ok, ", failed, " failed, ", invalid, " invalid, ", skipped, " skipped; ")
        out.print(Text.assemble(counts, "requests ", requests), overflow="fold")


# --- one run ----------------------------------------------------------------------------------


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


def run_header(run: RunInfo, out: Console) -> None:
    """Everything the journal knows of a run but its rows and requests."""
    files = ", ".join(f"{'stdin' if p == '-' else p}" + (f" (sha256 {d[:12]})" if d else "") for p, d in run.files)
    fields: list[tuple[str, Text]] = [
        ("command", text(run.command)),
        ("operation", text(run.operation)),
        ("profile", text(run.profile or "-")),
        ("base URL", text(run.base_url)),
        ("source id", text(run.source_id)),
        ("files", text(files or "-")),
        ("options", text(_options_text(run.options))),
        ("started", text(local_time(run.started))),
        ("ended", text(local_time(run.ended) + _duration(run)) if run.finished else Text(UNFINISHED, "bold yellow")),
        ("summary", text(summary_text(run.summary))),
        ("exit code", exit_text(run)),
    ]
    if run.retry_of is not None:
        fields.insert(1, ("retry of", text(f"run {run.retry_of}")))
    out.print(Text(f"run {run.id}", style="bold"))
    labelled(fields, out)
    if not run.finished:
        out.print(
            f"The run has no end recorded: it was killed, or it is still running. `ari-cli retry {run.id}` "
            "sends what was not acknowledged.",
            markup=False,
        )


def labelled(fields: Sequence[tuple[str, Text]], out: Console) -> None:
    """`label  value` lines, the values aligned."""
    width = max(len(label) for label, _ in fields)
    for label, value in fields:
        line = Text(label.ljust(width + 2), style="bold")
        line.append_text(value)
        out.print(line)


def request_dict(request: RequestInfo) -> dict[str, Any]:
    return {
        "id": request.id,
        "parent": request.parent,
        "propertyid": request.propertyid,
        "url": request.url,
        "records": len(request.records),
        "lines": [{"source": source, "line": line} for source, line in request.lines],
        "state": request.state,
        "transient": request.transient,
        "attempts": request.attempts,
        "http_status": request.http_status,
        "trackingid": request.trackingid,
        "errors": request.errors,
        "sent": request.sent,
        "answered": request.answered,
        "seconds": request.seconds,
        "body": request.body,
        "response": request.response,
    }


def row_dict(row: RowInfo) -> dict[str, Any]:
    return {
        "source": row.source,
        "line": row.line,
        "propertyid": row.propertyid,
        "roomid": row.roomid,
        "rateid": row.rateid,
        "dates": row.dates,
        "value": row.value,
        "status": row.status,
        "trackingids": row.trackingids,
        "errors": row.errors,
        "note": row.note,
    }


def record_dict(record: RecordInfo, operation: str) -> dict[str, Any]:
    value: Any = record.value
    if operation == "policy":
        with contextlib.suppress(ValueError):
            value = json.loads(record.value)
    key = dict(zip(("propertyid", "roomid", "rateid"), record.key, strict=False))
    return {"idx": record.idx, **key, "start": record.start.isoformat(), "end": record.end.isoformat(), "value": value}


def detail_dict(whole: RunDetail) -> dict[str, Any]:
    from ari_cli.journal.queries import leaves

    states: dict[str, int] = {}
    for request in leaves(whole.requests):
        states[request.state] = states.get(request.state, 0) + 1
    return {
        "run": run_dict(whole.run, states),
        "requests": [request_dict(r) for r in whole.requests],
        "rows": [row_dict(r) for r in whole.rows],
        "records": [record_dict(r, whole.run.operation) for r in whole.records],
    }


def requests_table(requests: Sequence[RequestInfo], out: Console) -> None:
    table = grid(not out.is_terminal)
    for name in ("Req", "Parent", "Property", "Records", "Lines", "State", "Tries", "HTTP", "Tracking id", "Error"):
        table.add_column(name, no_wrap=name not in ("Lines", "Error"))
    for r in requests:
        table.add_row(
            text(r.id), text(r.parent if r.parent is not None else ""), text(r.propertyid), text(len(r.records)),
            text(lines_text(r.lines)), state_text(r), text(r.attempts), text(r.http_status or ""),
            text(r.trackingid or ""), text(errors_text(r.errors), "red"),
        )  # fmt: skip
    fitted(table, out)


def rows_table(rows: Sequence[RowInfo], operation: str, out: Console) -> None:
    table = grid(not out.is_terminal)
    with_rate = operation != "threshold"
    names = ["Line", "Property", "Room", *(["Rate"] if with_rate else []), "Dates", "Value", "Status", "Tracking id",
             "Error / note"]  # fmt: skip
    for name in names:
        table.add_column(name, no_wrap=name not in ("Value", "Error / note"))
    for row in rows:
        status = row.status or "not finished"
        cells = [text(f"{'stdin' if row.source == '-' else row.source}:{row.line}"), text(row.propertyid),
                 text(row.roomid), *([text(row.rateid)] if with_rate else []), text(row.dates), text(row.value),
                 text(status, _STATE_STYLE.get(status, "yellow")), text("\n".join(row.trackingids)),
                 text(errors_text(row.errors) or row.note, "red" if row.errors else "")]  # fmt: skip
        table.add_row(*cells)
    fitted(table, out)


def _pretty(body: Any) -> str:
    return json.dumps(body, ensure_ascii=False, indent=2)


def exchange(request: RequestInfo, out: Console) -> None:
    """What a request sent (key masked as stored) and what came back."""
    records = len(request.records)
    out.print(
        printable(f"# request {request.id}: property {request.propertyid}, {records} record{'s' * (records != 1)}"),
        markup=False,
    )
    out.print(printable(f"POST {request.url}"), markup=False)
    out.print(printable(scrub(_pretty(request.body))), markup=False)
    if request.http_status is None and request.response is None:
        out.print(f"# answer: none recorded ({_STATE_TEXT.get(request.state, request.state)})", markup=False)
        return
    took = f" in {request.seconds * 1000:.0f} ms" if request.seconds else ""
    out.print(f"# answer: HTTP {request.http_status if request.http_status is not None else '-'}{took}", markup=False)
    response = request.response or ""
    with contextlib.suppress(ValueError):
        response = _pretty(json.loads(response))
    out.print(printable(scrub(response)), markup=False)


SHOW_ALL_UP_TO = 50


def run_detail(whole: RunDetail, out: Console, bodies: bool, all_rows: bool | None = None) -> None:
    """One run: its header, its requests (with bodies and answers on request) and its rows.

    As a push's table: over 50 rows, only those not ok or skipped, unless `all_rows`.
    """
    run_header(whole.run, out)
    out.print()
    if whole.requests:
        out.print(Text(f"Requests ({len(whole.requests)})", style="bold"))
        requests_table(whole.requests, out)
        if bodies:
            for request in whole.requests:
                out.print()
                exchange(request, out)
    else:
        out.print("No request was sent.", markup=False)
    everything = all_rows if all_rows is not None else len(whole.rows) <= SHOW_ALL_UP_TO
    shown = [r for r in whole.rows if everything or r.status not in ("ok", "skipped")]
    out.print()
    out.print(Text(f"Rows ({len(whole.rows)})", style="bold"))
    if shown:
        rows_table(shown, whole.run.operation, out)
    hidden = len(whole.rows) - len(shown)
    if hidden:
        out.print(f"{hidden} ok or skipped rows not shown; --show all lists every row", markup=False)


# --- find -------------------------------------------------------------------------------------


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
        ("state", state_text(request)),
        ("answered", text(answered)),
        ("rows", text(lines_text(request.lines) or "-")),
    ]
    labelled(fields, out)
    out.print()
    exchange(request, out)
    if rows:
        out.print()
        rows_table(rows, run.operation, out)


def in_force(hits: Sequence[DateHit]) -> set[int]:
    """Positions of the hits in force: per service and key, the newest acknowledged one."""
    seen: set[tuple[Any, ...]] = set()
    chosen: set[int] = set()
    for position, hit in enumerate(hits):
        group = (hit.run.operation, hit.run.base_url, hit.run.source_id, hit.record.key)
        if hit.request.acknowledged and group not in seen:
            seen.add(group)
            chosen.add(position)
    return chosen


def date_hit_dict(hit: DateHit, current: bool) -> dict[str, Any]:
    return {
        "in_force": current,
        "run": {k: v for k, v in run_dict(hit.run).items() if k not in ("options", "files", "requests")},
        "request": request_dict(hit.request),
        "record": record_dict(hit.record, hit.run.operation),
    }


def date_hits(hits: Sequence[DateHit], out: Console) -> None:
    """Every record that covered the date, newest first, the ones in force marked."""
    current = in_force(hits)
    operations = {h.run.operation for h in hits}
    service_count = len({(h.run.base_url, h.run.source_id) for h in hits})
    with_rate = any(len(h.record.key) > 2 for h in hits)
    table = grid(not out.is_terminal)
    names = ["In force", "Run", "Started", "Req", *(["Operation"] if len(operations) > 1 else []),
             *(["Service"] if service_count > 1 else []), "Room", *(["Rate"] if with_rate else []), "Range",
             "Value", "State", "Tracking id", "Answered"]  # fmt: skip
    for name in names:
        table.add_column(name, no_wrap=name != "Value")
    for position, hit in enumerate(hits):
        run, request, record = hit.run, hit.request, hit.record
        cells: list[Text] = [
            Text("yes", style="bold green") if position in current else Text(""),
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
    if not current:
        out.print("None of these was acknowledged: the journal knows of no value in force for this date.", markup=False)
