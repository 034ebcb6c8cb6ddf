"""Showing a run: the Rich table, JSON and CSV documents, report files, progress and warnings.

stdout carries results only; progress, warnings and errors go to stderr. Without a terminal, or
with NO_COLOR, nothing but plain text is written.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Collection, Iterable, Iterator, Sequence
from contextlib import contextmanager
from itertools import chain, pairwise
from typing import IO, Any

from rich.console import Console

from ari_cli.config.secrets import masked_body, masked_text, scrub
from ari_cli.exits import Interrupted
from ari_cli.operations import of
from ari_cli.records.rules import RowView
from ari_cli.render.console import console as console  # the one console, re-exported for callers of this module
from ari_cli.render.printable import json_printable, printable
from ari_cli.render.push.curl import for_request
from ari_cli.render.values import plural
from ari_cli.results import Refused, RowResult, Run, Shared
from ari_cli.send.exchange import Exchange, Problem, Trace
from ari_cli.wire.operations import Operation


def problem_dict(problem: Problem) -> dict[str, Any]:
    """An error as the contract writes it."""
    return {"code": problem.code, "message": scrub(problem.message), "http_status": problem.http_status}


def problem_text(problem: Problem) -> str:
    """An error as one line: `451 invalid room mapping (HTTP 422)`."""
    code = f"{problem.code} " if problem.code is not None else ""
    status = f" (HTTP {problem.http_status})" if problem.http_status is not None else ""
    return scrub(f"{code}{problem.message}{status}")


def _lines(run: Run, exchange: Exchange) -> list[int]:
    """The lines of the rows a request carries, in order."""
    lines = run.rows.table.lines
    refs = [run.records[i].refs for i in exchange.records]
    # Each record's rows are in order, so the request's are when each record's start after the last
    # of the one before; the records of an unsorted file share or interleave rows.
    if all(refs) and all(a[-1] < b[0] for a, b in pairwise(refs)):
        # A record of consecutive rows keeps them as a range: their lines are a slice.
        picked = (lines[r.start : r.stop : r.step] if isinstance(r, range) else map(lines.__getitem__, r) for r in refs)
        return list(chain.from_iterable(picked))
    return [lines[row] for row in sorted(set(chain.from_iterable(refs)))]


def request_dict(run: Run, exchange: Exchange) -> dict[str, Any]:
    """One request of the JSON document; the body with `sharepost` masked."""
    outcome = exchange.outcome
    return {
        "id": exchange.id,
        "parent": exchange.parent,
        "propertyid": exchange.propertyid,
        "records": len(exchange.records),
        "lines": _lines(run, exchange),
        "attempts": exchange.attempts,
        "http_status": outcome.http_status if outcome else None,
        "success": outcome.success if outcome else None,
        "trackingid": outcome.trackingid if outcome else None,
        "errors": [problem_dict(p) for p in outcome.errors] if outcome else [],
        "body": masked_body(exchange.body),
    }


def row_dict(row: RowResult) -> dict[str, Any]:
    """One row of the JSON document."""
    return {
        "source": row.view.source,
        "line": row.view.line,
        "status": row.status.value,
        "trackingids": list(row.trackingids),
        "errors": [problem_dict(p) for p in row.errors],
        "note": row.note,
    }


def key_fields(operation: Operation | str) -> tuple[str, ...]:
    """What a row of the documents says of its input row after its result: the operation's key fields (the
    rate only where it has one), its dates and its value, as the table shows them."""
    return (*of(operation).key_fields, "dates", "value")


def key_dict(view: RowView, fields: Sequence[str]) -> dict[str, str]:
    """A row's key, dates and value (`key_fields`): resolved where the row is valid, as written where not."""
    return {name: getattr(view, name) for name in fields}


def stopped(run: Run) -> dict[str, Any] | None:
    """The `error` of a run that an interrupt stopped (beside the rows it has), else None."""
    if not run.interrupted:
        return None
    return {
        "kind": Interrupted.kind,
        "message": "interrupted: the rows whose requests had not gone out are not sent",
        "hint": "`ari-cli history` shows the run; `ari-cli retry RUN` sends what is left",
    }


def refused_dict(refused: Refused) -> dict[str, Any]:
    """What a retry left refused for the rows' own data, as the document says it: how many rows, by cause."""
    return {
        "run": refused.run,
        "rows": refused.rows,
        "causes": [
            {**problem_dict(cause.problem), "hint": cause.problem.hint, "rows": cause.rows, "first": list(cause.first)}
            for cause in refused.causes
        ],
        "hint": REFUSED_HINT,
    }


REFUSED_HINT = (
    "a second try meets the same answer: fix these rows (each cause's hint says how) and push the file again, as a "
    "run of its own: this run's retry exits 1 for as long as they stand refused"
)


def refused_lines(refused: Refused) -> list[str]:
    """What a retry left refused, said on stderr: how many rows, a line per cause with its first rows and what to
    fix, and what to do; a few lines however many rows."""
    stay = "stays refused for its" if refused.rows == 1 else "stay refused for their"
    lines = [f"run {refused.run}: {plural(refused.rows, 'row')} {stay} own data (not sent again):"]
    for cause in refused.causes:
        more = cause.rows - len(cause.first)
        named = ", ".join(cause.first) + (f" and {more:,} more" if more else "")
        hint = f"; {cause.problem.hint}" if cause.problem.hint else ""
        lines.append(f"  {problem_text(cause.problem)}: {plural(cause.rows, 'row')} ({named}){hint}")
    lines.append(REFUSED_HINT)
    return [printable(line) for line in lines]


def document(run: Run) -> dict[str, Any]:
    """The whole run in the contract's `--output json` shape."""
    error = stopped(run)
    fields = key_fields(run.operation)
    return {
        "operation": run.operation.value,
        "dry_run": run.dry_run,
        **({"error": error} if error else {}),
        "summary": run.summary(),
        **({"ignored_columns": ignored_columns(run)} if run.ignored_columns else {}),
        **({"notes": list(run.notes)} if run.notes else {}),
        **({"refused": refused_dict(run.refused)} if run.refused else {}),
        "rows": [{**row_dict(r), **key_dict(r.view, fields)} for r in run.rows],
        "requests": [request_dict(run, e) for e in run.exchanges],
    }


def ignored_columns(run: Run) -> list[dict[str, str]]:
    """The input columns left out with a warning, as the document lists them."""
    return [{"source": source, "column": name} for source, name in run.ignored_columns]


CSV_FIELDS = ("source", "line", "status", "trackingids", "errors", "note")
"""The CSV's result columns, first and in this order (scripts read them by position); `key_fields` follow."""


def csv_fields(operation: Operation | str) -> list[str]:
    """The CSV's header: the result columns, then the row's key, dates and value."""
    return [*CSV_FIELDS, *key_fields(operation)]


def neutral(cell: str) -> str:
    """A CSV cell a spreadsheet reads as text, never as a formula."""
    # A spreadsheet would run a cell starting with these as a formula (OWASP's list, tab and carriage return included).
    return f"'{cell}" if cell[:1] in ("=", "+", "-", "@", "\t", "\r") else cell


class _Escaped(io.TextIOBase):
    """A terminal's stream: text of outside origin in the written text cannot drive the terminal."""

    def __init__(self, stream: IO[str], escape: Callable[[str], str]) -> None:
        super().__init__()
        self.stream, self.escape = stream, escape

    def write(self, text: str) -> int:
        return self.stream.write(self.escape(text))

    def isatty(self) -> bool:
        return True

    def flush(self) -> None:
        self.stream.flush()


def csv_line(cells: list[str]) -> str:
    """Cells as one line of CSV, as the csv module quotes them, without the line end."""
    text = io.StringIO()
    # The csv module quotes a cell holding a character of the line end: with "\r\n", a carriage return or a
    # newline in a value (a service's answer) stays inside its cell instead of ending the row.
    csv.writer(text, lineterminator="\r\n").writerow(cells)
    return text.getvalue().removesuffix("\r\n")


_AT_ONCE = 4096  # rows joined in one piece: a big run's text is never held whole
_WRITE_AT = 65536  # characters of a document's list gathered before they are written


def write_csv(run: Run, stream: IO[str]) -> None:
    """The rows as CSV, one line each, with the JSON document's row fields."""
    if stream.isatty():
        stream = _Escaped(stream, printable)  # type: ignore[assignment]
    fields = key_fields(run.operation)
    stream.write(csv_line(csv_fields(run.operation)) + "\n")
    rows = run.rows
    table = rows.table
    cell = _Cells(_csv_cell)
    for first, stop, shared in rows.runs():
        # The rows of a run share their result: the cells around the line and before the key are made once.
        head = csv_line([neutral(table.source(first)), ""])
        errors = " | ".join(problem_text(p) for p in shared.errors)
        ids = neutral(" ".join(shared.trackingids))
        middle = csv_line(["", shared.status.value, ids, neutral(errors), neutral(shared.note), ""])
        for at in range(first, stop, _AT_ONCE):
            stream.write(
                "".join(
                    f"{head}{view.line}{middle}{','.join([cell(getattr(view, name)) for name in fields])}\n"
                    for view in map(table.__getitem__, range(at, min(at + _AT_ONCE, stop)))
                )
            )


class _Cells:
    """A key's cell as a document writes it, made once per distinct text: a big run's rows repeat a few thousand
    ids, dates and values, and quoting each cell of each row again costs more than the rest of the row."""

    _KEPT = 65536  # distinct cells remembered at most: a run of a distinct room per row must not keep them all

    def __init__(self, encode: Callable[[str], str]) -> None:
        self._encode = encode
        self._made: dict[str, str] = {}

    def __call__(self, text: str) -> str:
        made = self._made.get(text)
        if made is None:
            if len(self._made) >= self._KEPT:
                self._made.clear()
            made = self._made[text] = self._encode(text)
        return made


def _csv_cell(text: str) -> str:
    # A row of one empty cell is written `""` (a blank line would end the table); inside a row, as here, an empty
    # cell is nothing.
    return csv_line([neutral(text)]) if text else ""


def _row_texts(run: Run, indent: int | None) -> Iterator[str]:
    """The rows of the JSON document as text, a run of alike rows at a time."""
    rows = run.rows
    fields = key_fields(run.operation)
    if indent is not None:
        # Indented output is for a person at a terminal: no big run is read there.
        for row in rows:
            yield json.dumps({**row_dict(row), **key_dict(row.view, fields)}, ensure_ascii=False, indent=indent)
        return
    # The rows of a run share their result: the fields around the line are written once per source and per
    # distinct result (a --changed-only night has tens of thousands of short runs, half of them skipped for one
    # reason); each row adds its line, then its key, dates and value.
    source, head = None, ""
    middles: dict[Shared, str] = {}
    names = [(field, _dumps(field)) for field in fields]
    cell = _Cells(_dumps)
    table = rows.table
    for first, stop, shared in rows.runs():
        named = table.source(first)
        if named != source:
            source, head = named, f'{{"source": {_dumps(named)}, "line": '
        middle = middles.get(shared)
        if middle is None:
            after = {
                "status": shared.status.value,
                "trackingids": list(shared.trackingids),
                "errors": [problem_dict(p) for p in shared.errors],
                "note": shared.note,
            }
            middle = middles[shared] = ", " + _dumps(after).removeprefix("{").removesuffix("}")
        for at in range(first, stop, _AT_ONCE):
            yield ", ".join(
                f"{head}{view.line}{middle}, {', '.join([f'{name}: {cell(getattr(view, f))}' for f, name in names])}}}"
                for view in map(table.__getitem__, range(at, min(at + _AT_ONCE, stop)))
            )


def _dumps(value: Any, indent: int | None = None) -> str:
    # Nothing written here refers to itself: the encoder need not check for cycles.
    return json.dumps(value, ensure_ascii=False, indent=indent, check_circular=False)


def _write_list(stream: IO[str], items: Iterable[str], indent: int | None) -> None:
    """A list of the document's top level, from its items' text, laid out as json.dumps lays it out."""
    pad = "" if indent is None else "\n" + " " * indent
    inner = pad + " " * (indent or 0)
    separator = ", " if indent is None else "," + inner
    opened = False
    # Items are written some 64 K characters at a time: a --changed-only night's rows are 39,000 short
    # items, and each write goes through the stream's wrappers.
    pending: list[str] = []
    size = 0
    for item in items:
        # An indented item is indented once more for every level it sits in.
        pending.append(item if indent is None else item.replace("\n", inner))
        size += len(item)
        if size >= _WRITE_AT:
            stream.write((separator if opened else "[" + inner) + separator.join(pending))
            opened, pending, size = True, [], 0
    if pending:
        stream.write((separator if opened else "[" + inner) + separator.join(pending))
        opened = True
    stream.write(pad + "]" if opened else "[]")


def write_json(run: Run, stream: IO[str]) -> None:
    """The JSON document, and nothing else: indented for a person at a terminal, compact otherwise.

    Written as it is made, a run of rows at a time: a big run's document is never held whole.
    """
    if stream.isatty():
        stream = _Escaped(stream, json_printable)  # type: ignore[assignment]
    indent = 2 if stream.isatty() else None
    pad = "" if indent is None else "\n" + " " * indent
    separator = ", " if indent is None else "," + pad

    def field(name: str, value: Any) -> str:
        text = _dumps(value, indent)
        return f"{_dumps(name)}: {text if indent is None else text.replace(chr(10), pad)}"

    stream.write("{" + pad + field("operation", run.operation.value) + separator + field("dry_run", run.dry_run))
    error = stopped(run)
    if error:
        stream.write(separator + field("error", error))
    stream.write(separator + field("summary", run.summary()))
    if run.ignored_columns:
        stream.write(separator + field("ignored_columns", ignored_columns(run)))
    if run.notes:
        stream.write(separator + field("notes", list(run.notes)))
    if run.refused:
        stream.write(separator + field("refused", refused_dict(run.refused)))
    stream.write(separator + '"rows": ')
    _write_list(stream, _row_texts(run, indent), indent)
    stream.write(separator + '"requests": ')
    _write_list(stream, (_dumps(request_dict(run, e), indent) for e in run.exchanges), indent)
    stream.write(("" if indent is None else "\n") + "}\n")


def planned_requests(run: Run, out: Console) -> None:
    """Each planned request: method, URL and the body with the key masked."""
    for exchange in run.exchanges:
        # The property id is the input's: never markup, and no control character of its reaches the terminal.
        head = f"# request {exchange.id}: {plural(len(exchange.records), 'record')}, property {exchange.propertyid}"
        body = json.dumps(masked_body(exchange.body), indent=2, ensure_ascii=False)
        text = printable(f"{head}\nPOST {exchange.url}\n{body}")
        if out.is_terminal or "\t" in text:  # Rich expands tabs
            out.print(text, markup=False)
        else:
            # Plain text as Rich would write it, without its per-character work: a big run's bodies
            # are megabytes.
            out.file.write(text + "\n")


def notices(messages: list[str], err: Console, label: str = "warning") -> None:
    """Warnings or errors on stderr, one per line."""
    for message in messages:
        err.print(printable(f"{label}: {scrub(message)}"), markup=False)


@contextmanager
def progress(total: int, err: Console, enabled: bool) -> Iterator[Any]:
    """A progress bar of records answered, on stderr, only when it is a terminal."""
    if not enabled or not err.is_terminal or total == 0:
        yield lambda _n: None
        return
    # lazy: rich.progress only for a bar on a terminal
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    bar = Progress(
        TextColumn("sending"), BarColumn(), MofNCompleteColumn(), TextColumn("records"),
        TimeElapsedColumn(), console=err, transient=True,
    )  # fmt: skip
    with bar:
        task = bar.add_task("send", total=total)
        yield lambda n: bar.advance(task, n)


def _prefixed(mark: str, text: str) -> list[str]:
    return [f"{mark} {line}" for line in text.splitlines() or [""]]


def trace(exchange: Trace, err: Console) -> None:
    """One HTTP try on stderr, as `curl -v` shows it: what was sent (key masked), what came back."""
    lines = [f"> {exchange.method} {exchange.url}"]
    lines += [f"> {name}: {value}" for name, value in exchange.request_headers]
    lines += _prefixed(">", masked_text(exchange.body))
    took = f"{exchange.seconds * 1000:.0f} ms"
    if exchange.status is None:
        lines.append(f"< no answer after {took}: {exchange.error}")
    else:
        lines.append(f"< HTTP {exchange.status} in {took}")
        lines += [f"< {name}: {value}" for name, value in exchange.response_headers]
        lines += _prefixed("<", masked_text(exchange.response_body))
    for line in lines:
        err.out(printable(scrub(line)), highlight=False)


def curl_commands(
    requests: Iterable[tuple[str, str, bytes]], configured: bool, stream: IO[str], partner_keys: Collection[str] = ()
) -> None:
    """Each (label, url, body) as a bash-ready curl command after a `# label` line, then a blank line; a partner's
    own key (replay) is left to `$PARTNER_API_KEY`, any other to `$ARI_API_KEY`."""
    # Written as is, not through Rich, which would expand tabs and drop carriage returns in bodies. At a terminal,
    # the body's unsafe characters are written as JSON escapes: the same body, and nothing that drives the terminal.
    safe = json_printable if stream.isatty() else str
    for label, url, content in requests:
        stream.write(f"# {printable(label)}\n{safe(for_request(url, content, configured, partner_keys))}\n\n")
    stream.flush()


def exchange_label(exchange: Exchange) -> str:
    """`request 2: property HTL001, 3 records`."""
    records = len(exchange.records)
    return f"request {exchange.id}: property {exchange.propertyid}, {plural(records, 'record')}"
