"""Showing the support tools' results: rows of the spec's error table, and replayed answers.

Kept apart from `render` (the push run's output) so that each stays a readable size; the same
rules hold: results on stdout, plain text without a terminal, the key never shown.
"""

from __future__ import annotations

import csv
import json
import sys
from collections.abc import Sequence
from typing import IO, Any

import typer
from rich.console import Console
from rich.text import Text

from ari_cli.config.secrets import masked_body, masked_text, scrub
from ari_cli.render.console import MIN_WRAP, console, fitted, styled_table, whole
from ari_cli.render.printable import printable
from ari_cli.render.push.run import curl_commands
from ari_cli.replay.bodies import Ready, Replayed
from ari_cli.replay.hints import Meaning, meanings
from ari_cli.wire.errors import ErrorRow
from ari_cli.wire.explain import SUCCESS_NOTE, Explanation, applies_to
from ari_cli.wire.gateway import WHERE, GatewayAnswer


def error_row_dict(row: ErrorRow) -> dict[str, Any]:
    """One row of the error table as JSON."""
    return {
        "http_status": row.http_status,
        "code": row.code,
        "message": row.message,
        "applies_to": applies_to(row),
        "operations": sorted(op.value for op in row.operations),
        "retryable": row.retryable,
        "hint": row.hint,
    }


def gateway_dict(answer: GatewayAnswer) -> dict[str, Any]:
    """A gateway's answer in the shape of a row of the error table, without a body code."""
    return {
        "http_status": answer.http_status,
        "code": None,
        "message": answer.message,
        "applies_to": WHERE,
        "operations": [],
        "retryable": answer.retryable,
        "hint": answer.hint,
    }


def error_table(rows: Sequence[ErrorRow], out: Console) -> None:
    """The rows as a table: status, code, meaning, where it applies, whether a retry helps, what to check.

    At a terminal too narrow for the status, the code and the retry whole beside some room for the text to wrap
    in, each row is a short block instead (`fitted`).
    """
    grid = styled_table()
    for name in ("HTTP", "Code"):
        grid.add_column(name, no_wrap=True, justify="right")
    grid.add_column("Meaning", overflow="fold", min_width=MIN_WRAP)
    grid.add_column("Applies to", overflow="fold", min_width=MIN_WRAP)
    grid.add_column("Retry helps", no_wrap=True)
    grid.add_column("What to check", overflow="fold", min_width=MIN_WRAP)
    for row in rows:
        cells = (str(row.http_status), str(row.code), row.message, applies_to(row), "yes" if row.retryable else "no")
        grid.add_row(*(Text(c) for c in (*cells, row.hint)))
    fitted(grid, out)


ERROR_ROW_FIELDS = ("http_status", "code", "message", "applies_to", "operations", "retryable", "hint")


def _write_json(document: Any, stream: IO[str]) -> None:
    json.dump(document, stream, ensure_ascii=False, indent=2)
    stream.write("\n")


def write_error_csv(rows: Sequence[ErrorRow], stream: IO[str], gateway: Sequence[GatewayAnswer] = ()) -> None:
    """The rows (then any gateway answers, without a code) as CSV, one line each."""
    documents = [error_row_dict(row) for row in rows] + [gateway_dict(answer) for answer in gateway]
    writer = csv.DictWriter(stream, fieldnames=ERROR_ROW_FIELDS, lineterminator="\n")
    writer.writeheader()
    for document in documents:
        retry = "yes" if document["retryable"] else "no"
        writer.writerow({**document, "operations": " ".join(document["operations"]), "retryable": retry})


def explanations(items: Sequence[Explanation], out: Console) -> None:
    """Each number's rows as a table, followed by its notes."""
    for position, item in enumerate(items):
        if position:
            out.print()
        rows = "row" if len(item.rows) == 1 else "rows"
        head = f"{item.number}: {len(item.rows)} {rows} of the error table" if item.rows else f"{item.number}:"
        whole(out, Text(printable(head)))
        if item.rows:
            error_table(item.rows, out)
        for note in item.notes:
            whole(out, Text(printable(f"- {note}")))
        if item.gateway is not None:
            gateway = item.gateway
            whole(out, Text(f"From a gateway ({WHERE}): HTTP {gateway.http_status}, {gateway.message}"))
            whole(out, Text(f"- what to check: {gateway.hint}"))
            whole(out, Text(f"- retry helps: {'yes, after a wait' if gateway.retryable else 'no'}"))


def explanation_dicts(items: Sequence[Explanation]) -> list[dict[str, Any]]:
    """The explanations as JSON; `gateway` is what the number means from a gateway, or null."""
    return [
        {
            "number": i.number,
            "rows": [error_row_dict(r) for r in i.rows],
            "notes": list(i.notes),
            "gateway": None if i.gateway is None else gateway_dict(i.gateway),
        }
        for i in items
    ]


def _meaning_dict(meaning: Meaning) -> dict[str, Any]:
    row = meaning.row
    return {
        "code": meaning.code,
        "message": scrub(meaning.message),
        "http_status": meaning.http_status,
        "row": None if row is None else {"http_status": row.http_status, "code": row.code, "message": row.message},
        "hint": meaning.hint,
        "retryable": meaning.retryable,
        "note": meaning.note,
    }


def replay_dict(result: Replayed) -> dict[str, Any]:
    """One replayed body as JSON: where it went, the body (key masked), the raw answer and its meaning."""
    ready, sent = result.ready, result.sent
    propertyid = ready.document.get("propertyid")
    answer: dict[str, Any] = {"http_status": None, "seconds": None, "response": None, "success": None,
                              "trackingid": None, "errors": []}  # fmt: skip
    if sent is not None:
        answer = {
            "http_status": sent.trace.status,
            "seconds": round(sent.trace.seconds, 6),
            "response": masked_text(sent.trace.response_body) if sent.trace.status is not None else None,
            "success": sent.outcome.success,
            "trackingid": sent.outcome.trackingid,
            "errors": [_meaning_dict(m) for m in meanings(sent.outcome, ready)],
        }
    return {
        "source": ready.body.source,
        "line": ready.body.line,
        "action": ready.body.operation.action,
        "operation": ready.body.operation.value,
        "propertyid": propertyid if isinstance(propertyid, str) else None,
        "url": ready.url,
        "filled": list(ready.filled),
        "body": masked_body(ready.document),
        **answer,
    }


def replay_summary(results: Sequence[Replayed], dry_run: bool) -> dict[str, int]:
    """How many bodies, and how many the service accepted."""
    ok = sum(r.ok for r in results)
    return {"bodies": len(results), "ok": ok, "failed": 0 if dry_run else len(results) - ok}


def write_replay_json(results: Sequence[Replayed], dry_run: bool, stream: IO[str]) -> None:
    """The replay as one JSON document."""
    document = {
        "dry_run": dry_run,
        "summary": replay_summary(results, dry_run),
        "bodies": [replay_dict(r) for r in results],
    }
    _write_json(document, stream)


REPLAY_CSV_FIELDS = ("source", "line", "action", "url", "http_status", "success", "trackingid", "errors", "retryable")


def write_replay_csv(results: Sequence[Replayed], stream: IO[str]) -> None:
    """One CSV line per body."""
    writer = csv.writer(stream, lineterminator="\n")
    writer.writerow(REPLAY_CSV_FIELDS)
    for result in results:
        d = replay_dict(result)
        errors = " | ".join(f"{e['code'] if e['code'] is not None else ''} {e['message']}".strip() for e in d["errors"])
        retry = "" if not d["errors"] else "yes" if any(e["retryable"] for e in d["errors"]) else "no"
        success = None if d["success"] is None else "true" if d["success"] else "false"
        cells = [d["source"], d["line"], d["action"], d["url"], d["http_status"], success, d["trackingid"]]
        writer.writerow(["" if c is None else c for c in cells] + [errors, retry])


def _meaning_lines(meaning: Meaning) -> list[str]:
    row = meaning.row
    said = f"code {meaning.code}: {meaning.message}" if meaning.code is not None else meaning.message
    if row is not None:
        lines = [f"meaning: HTTP {row.http_status}, code {row.code}: {row.message}; applies to {applies_to(row)}"]
        if meaning.message and meaning.message != row.message:
            lines.append(f"the service said: {said}")
    else:
        lines = [f"meaning: {said}"]
    if meaning.note:
        lines.append(f"note: {meaning.note}")
    if meaning.hint:
        lines.append(f"what to check: {meaning.hint}")
    if meaning.retryable:
        lines.append("retry helps: yes (replay sends each body once: run it again)")
    else:
        lines.append("retry helps: no (the same body gets the same answer until the cause is fixed)")
    return lines


def _indented(label: str, text: str) -> list[str]:
    first, *rest = text.splitlines() or [""]
    return [f"{label}{first}", *(f"  {' ' * len(label)}{line}" for line in rest)]


def replay_text(results: Sequence[Replayed], dry_run: bool, out: Console) -> None:
    """Per body: where it went, the status, the raw answer and what it means; then a summary."""
    for position, result in enumerate(results):
        ready, sent = result.ready, result.sent
        if position:
            out.out("")
        head = f"{ready.body.source}:{ready.body.line}  {ready.body.operation.action} ({ready.body.operation.label})"
        propertyid = ready.document.get("propertyid")
        if isinstance(propertyid, str):
            head += f", property {propertyid}"
        if ready.filled:
            head += f"; filled from the configuration: {', '.join(ready.filled)}"
        elif ready.unfilled:
            head += f"; not filled (nothing is configured): {', '.join(ready.unfilled)}"
        lines = [f"POST {ready.url}"]
        if sent is None:
            lines += _indented("body: ", masked_text(ready.content))
            lines.append("not sent (dry run)")
        elif sent.trace.status is None:
            lines.append(f"no answer after {sent.trace.seconds * 1000:.0f} ms")
        else:
            lines.append(f"HTTP {sent.trace.status} in {sent.trace.seconds * 1000:.0f} ms")
            lines += _indented("response: ", masked_text(sent.trace.response_body) or "(empty)")
        if sent is not None and sent.outcome.success:
            lines.append(f"meaning: success, tracking id {sent.outcome.trackingid}")
        elif sent is not None:
            for meaning in meanings(sent.outcome, ready):
                lines += _meaning_lines(meaning)
        # Bodies, answers and file names are of outside origin: shown with their control characters escaped.
        out.out(printable(scrub(head)), highlight=False)
        for line in lines:
            out.out(printable(scrub(f"  {line}")), highlight=False)
    s = replay_summary(results, dry_run)
    out.out("")
    if dry_run:
        out.out(f"{s['bodies']} bodies planned; nothing was sent (dry run)", highlight=False)
    else:
        out.out(f"{s['bodies']} bodies sent: {s['ok']} ok, {s['failed']} failed", highlight=False)


def show_explanations(items: Sequence[Explanation], form: str) -> None:
    """`explain`: what statuses or codes mean, as a table, JSON or CSV on stdout."""
    if form == "json":
        _write_json(explanation_dicts(items), sys.stdout)
    elif form == "csv":
        rows = [row for item in items for row in item.rows]
        gateway = [item.gateway for item in items if item.gateway is not None]
        write_error_csv(rows, sys.stdout, gateway)
    else:
        explanations(items, console())


def show_error_table(rows: Sequence[ErrorRow], form: str) -> None:
    """`errors`: the spec's error table as a table (with what success looks like), JSON or CSV on stdout."""
    if form == "json":
        _write_json([error_row_dict(row) for row in rows], sys.stdout)
    elif form == "csv":
        write_error_csv(rows, sys.stdout)
    else:
        out = console()
        error_table(rows, out)
        whole(out, Text(SUCCESS_NOTE))


def show_described(policies: Sequence[tuple[str, str]], one: bool, form: str) -> None:
    """`policy describe`: each named policy in words, a line each (`NAME: words`, or the words of the one asked
    for), as typed: no markup, no colour; or one JSON document."""
    if form == "json":
        _write_json({"policies": [{"name": name, "description": words} for name, words in policies]}, sys.stdout)
        return
    for name, words in policies:
        typer.echo(words if one else f"{name}: {words}")


def show_replay(ready: Sequence[Ready], results: Sequence[Replayed], dry_run: bool, connected: bool, form: str,
                curl: bool, partner_keys: frozenset[str] = frozenset()) -> None:  # fmt: skip
    """`replay`: each body and what its answer means, as text, one JSON document or CSV; `--curl` commands."""
    out, err = console(), console(stderr=True)

    def commands(where: Console) -> None:
        if curl:
            requests = [(f"{r.body.source}:{r.body.line} {r.body.operation.action}", r.url, r.content) for r in ready]
            curl_commands(requests, connected, where.file, partner_keys)

    if form == "json":
        commands(err)
        write_replay_json(results, dry_run, sys.stdout)
    elif form == "csv":
        commands(err)
        write_replay_csv(results, sys.stdout)
    else:
        commands(out)
        # `--curl --dry-run` makes a script (`> calls.sh; bash calls.sh`): stdout holds the commands only.
        replay_text(results, dry_run, err if curl and dry_run else out)
