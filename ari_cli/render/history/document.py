"""A journaled run as one JSON document (`history show RUN --output json`): its header, requests, rows and
records, written as they are read, never held whole; and the dicts `history find` lays them out as.

The document is what `json.dumps` would write of those dicts, an item at a time.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import functools
import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import IO, Any

from ari_cli.journal.queries import RecordInfo, RequestInfo, RunDetail, leaves
from ari_cli.journal.rows import RowInfo, RunRows
from ari_cli.operations import of
from ari_cli.render.history.runs import run_dict


def _lines_dict(lines: Iterable[tuple[str, int, int, int]]) -> list[dict[str, Any]]:
    return [{"source": s, "first": a, "last": b, "step": step} for s, a, b, step in lines]


def request_dict(request: RequestInfo) -> dict[str, Any]:
    return {
        "id": request.id,
        "parent": request.parent,
        "propertyid": request.propertyid,
        "url": request.url,
        "records": request.count,
        "lines": _lines_dict(request.lines),
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
    if of(operation).structured:
        with contextlib.suppress(ValueError):
            value = json.loads(record.value)
    laid: dict[str, Any] = {"idx": record.idx, "propertyid": record.key[0], "roomid": record.key[1]}
    if len(record.key) > 2:
        laid["rateid"] = record.key[2]
    laid.update(start=_iso(record.start), end=_iso(record.end), value=value, lines=record.lines)
    return laid


@functools.lru_cache(maxsize=4096)
def _iso(day: dt.date) -> str:
    # A big run's records share a few hundred dates: each is written out once.
    return day.isoformat()


def states(requests: Sequence[RequestInfo]) -> dict[str, int]:
    counted: dict[str, int] = {}
    for request in leaves(requests):
        counted[request.state] = counted.get(request.state, 0) + 1
    return counted


def write_detail(
    whole: RunDetail, completed: Iterable[RequestInfo], rows: RunRows, records: Callable[[], Iterator[RecordInfo]],
    stream: IO[str],
) -> None:  # fmt: skip
    """The run as one JSON document, its requests (`completed`: whole), rows and records written as they are read,
    never held whole."""
    indent = 2 if stream.isatty() else None
    # One encoder for the document's 300,000 items (`json.dumps` with options makes one per call), as `json.dumps`
    # lays them out; written a few hundred items at a time.
    encode = json.JSONEncoder(ensure_ascii=False, indent=indent).encode
    out = _Batched(stream)
    head = encode({"run": run_dict(whole.run, states(whole.requests)), "requests": []})
    # The requests go in where the empty list stands, each laid out as `json.dumps` of the whole head would.
    out.write(head[: head.rindex("[]") + 1])
    written = 0
    for written, request in enumerate(completed, start=1):
        laid = encode(request_dict(request))
        if indent is None:
            out.write((", " if written > 1 else "") + laid)
        else:  # two levels deep; JSON text holds no newline but those of its layout
            out.write(("," if written > 1 else "") + "\n" + "\n".join("    " + line for line in laid.split("\n")))
    out.write("]" if indent is None or not written else "\n  ]")
    operation = whole.run.operation
    flat = json.JSONEncoder(ensure_ascii=False).encode  # rows and records are one line each, at a terminal too
    parts: list[tuple[str, Iterable[str]]] = [
        ("rows", (flat(row_dict(r)) for r in rows.rows())),
        ("records", (flat(record_dict(r, operation)) for r in records())),
    ]
    for name, items in parts:
        out.write(f', "{name}": [')
        pieces = out.pieces
        for n, item in enumerate(items):
            pieces.append(("," if n else "") + item)
            if len(pieces) >= _BATCH:
                out.flush()
        out.write("]")
    out.write("}\n")
    out.flush()


_BATCH = 500


class _Batched:
    """Text written to a stream a few hundred pieces at a time (a write through the stdout wrapper costs as much
    as encoding a row)."""

    def __init__(self, stream: IO[str]) -> None:
        self.stream = stream
        self.pieces: list[str] = []

    def write(self, piece: str) -> None:
        self.pieces.append(piece)
        if len(self.pieces) >= _BATCH:
            self.flush()

    def flush(self) -> None:
        self.stream.write("".join(self.pieces))
        self.pieces.clear()
