"""Reading one run's requests as they are used, with what they carried: their bodies (rebuilt from their
records as `batch.py` lays them out), the lines their records came from, their answers.

A failed run's hundred thousand requests are read in number order, a few hundred to a query when only some are
wanted; requests refused alike share their errors and read no body, answer or time that a table does not show.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Collection, Iterable, Iterator, Sequence
from typing import Any

from ari_cli.journal.database import loads_object
from ari_cli.journal.lines import Span as LineSpan
from ari_cli.journal.lines import joined, spans
from ari_cli.journal.pending import Said
from ari_cli.journal.queries import (
    REQUEST_COLUMNS,
    RecordInfo,
    RequestInfo,
    RunDetail,
    RunInfo,
    request_errors,
    request_state,
    run_info,
    run_notes,
)
from ari_cli.journal.run_records import RunRecords
from ari_cli.journal.store import OK, SPLIT
from ari_cli.planning.batch import DataForm, Envelope, build_body
from ari_cli.wire.operations import Operation


def body_of(run: RunInfo, stored: str | None, form: str | None, carried: Sequence[RecordInfo]) -> dict[str, Any]:
    """A request's body as sent (key masked): kept whole, or rebuilt from its records as `batch.py` lays them out."""
    if stored is not None:
        return loads_object(stored)
    if not carried:
        return {}
    envelope = Envelope(run.sharepost or "<API_KEY>", run.source_id)
    shape = DataForm.OBJECT if form == "object" else DataForm.LIST
    return build_body(Operation(run.operation), envelope, [r.record() for r in carried], shape)


def requests_of(
    db: sqlite3.Connection, run: RunInfo, where: str = "", args: Sequence[Any] = (), whole: bool = True
) -> list[RequestInfo]:
    """A run's requests; `whole`: with their bodies, answers and the lines they carried, read from their records."""
    return list(each_request(db, run, where, args, whole))


def each_request(
    db: sqlite3.Connection,
    run: RunInfo,
    where: str = "",
    args: Sequence[Any] = (),
    whole: bool = True,
    only: Collection[int] | None = None,
    bodies: bool = True,
    held: RunRecords | None = None,
) -> Iterator[RequestInfo]:
    """A run's requests (`only` those numbered, when given) in number order, read as they are used; `whole`: with
    their answers, the lines they carried and (when `bodies`) their bodies, read from their records. Without, a
    failed run's hundred thousand requests share their errors and an empty body, and leave their answers and
    times unread. `held`: the run's records, when they are read already."""
    return _whole(db, run, where, args, only, bodies, held) if whole else _light(db, run, where, args, only)


def _whole(
    db: sqlite3.Connection, run: RunInfo, where: str, args: Sequence[Any], only: Collection[int] | None, bodies: bool,
    held: RunRecords | None,
) -> Iterator[RequestInfo]:  # fmt: skip
    """As `each_request`, whole."""
    # Text not shown is not read (each stored text is decoded and checked as it is read).
    columns = REQUEST_COLUMNS if bodies else REQUEST_COLUMNS.replace(" body,", " NULL,")
    rows = _selected(db, f"SELECT {columns} FROM requests WHERE run = ?{where}", (run.id, *args), only)
    said = _said(db, run)
    shared: dict[str | None, Any] = {}  # requests refused alike share one list of errors (read-only once made)
    carrying = _carrying(db, run, held, only is None or len(only) > _HELD_FROM)
    for (run_id, id_, parent, propertyid, url, body, form, first, count, state, transient, attempts, http_status,
         trackingid, errors, response, seconds, sent, answered) in rows:  # fmt: skip
        noted = said.answers.get(id_) if said is not None and state not in (OK, SPLIT) else None
        if noted is not None:
            state, transient, attempts, http_status, trackingid, listed, answered = noted
            errors = json.dumps(listed)
        state = request_state(state, (id_, parent, first, count, transient, attempts, http_status, seconds))
        carried = carrying.between(first, first + count)
        named = tuple((_source(run, s), a, b, step) for s, a, b, step in _lines_of(carried))
        shown = body_of(run, body, form, carried) if bodies else {}
        loaded = shared[errors] if errors in shared else shared.setdefault(errors, request_errors(errors))
        yield RequestInfo(
            run_id, id_, parent, propertyid, url, shown, state, bool(transient), attempts, http_status, trackingid,
            loaded, response, seconds, sent, answered, first, count, named,
        )  # fmt: skip


def _light(
    db: sqlite3.Connection, run: RunInfo, where: str, args: Sequence[Any], only: Collection[int] | None
) -> Iterator[RequestInfo]:
    """As `each_request`, without what only a document or `--body` shows: body, form, answer, times, lines. What
    counts states and makes rows' results is kept: a failed run's 98,000 leaves are held."""
    columns = "id, parent, propertyid, url, first, count, state, transient, attempts, http_status, trackingid, errors"
    rows = _selected(db, f"SELECT {columns} FROM requests WHERE run = ?{where}", (run.id, *args), only)
    said = _said(db, run)
    # Read-only once made: requests refused alike share one list of errors, as they share their URL; each number
    # SQLite gives is an object of its own: a half's parent is shared with its other half, a status one of a few.
    shared: dict[str | None, Any] = {}
    texts: dict[str, str] = {}
    numbers: dict[int | None, int | None] = {}
    for id_, parent, propertyid, url, first, count, state, transient, attempts, http_status, trackingid, errors in rows:
        noted = said.answers.get(id_) if said is not None and state not in (OK, SPLIT) else None
        if noted is not None:
            state, transient, attempts, http_status, trackingid, listed, _ = noted
            errors = json.dumps(listed)
        state = request_state(state, (id_, parent, first, count, transient, attempts, http_status))
        loaded = shared[errors] if errors in shared else shared.setdefault(errors, request_errors(errors))
        yield RequestInfo(
            run.id, id_, numbers.setdefault(parent, parent), texts.setdefault(propertyid, propertyid),
            texts.setdefault(url, url), _NO_BODY, state, bool(transient), attempts,
            numbers.setdefault(http_status, http_status), trackingid, loaded, None, 0.0, None, None, first, count, (),
        )  # fmt: skip


def _selected(
    db: sqlite3.Connection, sql: str, args: tuple[Any, ...], only: Collection[int] | None
) -> Iterable[tuple[Any, ...]]:
    """The rows of a query of requests (`only` those numbered, when given), in number order."""
    return db.execute(sql + " ORDER BY id", args) if only is None else _numbered(db, sql, args, sorted(only))


def _said(db: sqlite3.Connection, run: RunInfo) -> Said | None:
    """Answers the journal could not take are in the run's note: until a writer folds them in, they count."""
    return run_notes(db).get(run.id) if run.unrecorded else None


# A few thousand requests read their records all at once (`RunRecords.hold`), fewer a query each.
_HELD_FROM = 1000


_NO_BODY: dict[str, Any] = {}  # shared by the requests read without their bodies: never written to


def _numbered(db: sqlite3.Connection, sql: str, args: tuple[Any, ...], numbers: list[int]) -> Iterator[tuple[Any, ...]]:
    """The requests numbered `numbers` (sorted), in number order: a few hundred to a query, under SQLite's limit
    of bound variables, and never the rest of the run read to be passed over."""
    for at in range(0, len(numbers), _AT_ONCE):
        chunk = numbers[at : at + _AT_ONCE]
        if chunk[-1] - chunk[0] < 2 * len(chunk):  # most of a stretch (a document's every request): read it whole
            wanted = set(chunk)
            found = db.execute(f"{sql} AND id BETWEEN ? AND ? ORDER BY id", (*args, chunk[0], chunk[-1]))
            yield from (row for row in found if row[1] in wanted)
        else:
            yield from db.execute(f"{sql} AND id IN ({', '.join('?' * len(chunk))}) ORDER BY id", (*args, *chunk))


_AT_ONCE = 500


def _carrying(db: sqlite3.Connection, run: RunInfo, held: RunRecords | None, many: bool) -> RunRecords:
    """The run's records, read once for many requests, else a query per request."""
    carrying = held or RunRecords(db, run.id)
    if many:
        carrying.hold()
    return carrying


def completed(
    db: sqlite3.Connection,
    run: RunInfo,
    requests: Sequence[RequestInfo] | None,
    bodies: bool = True,
    held: RunRecords | None = None,
) -> Iterator[RequestInfo]:
    """Requests of `detail(..., whole=False)`, given in number order (None: every request of the run, those it left
    unread included), with the lines they carried, and (when `bodies`) their bodies, answers and times: read in one
    pass over the run's requests as they are used, not a query (and a read of the notes) per request. A body is
    rebuilt from its records: a table that shows none leaves them, and its answers' text. `held`: the run's records,
    when they are read already."""
    if requests is None:
        return each_request(db, run, bodies=bodies, held=held)
    if not bodies:
        return _with_lines(db, run, requests, held)
    wanted = {request.id for request in requests}
    return each_request(db, run, only=wanted, bodies=bodies, held=held) if wanted else iter(())


def _with_lines(
    db: sqlite3.Connection, run: RunInfo, requests: Sequence[RequestInfo], held: RunRecords | None
) -> Iterator[RequestInfo]:
    """What a table of requests shows: the requests as read without their answers, and the lines they carried."""
    carrying = _carrying(db, run, held, len(requests) > _HELD_FROM)
    for request in requests:
        carried = carrying.between(request.first, request.first + request.count)
        lines = joined([run for record in carried for run in spans(record.lines)])
        yield request.with_lines(tuple((_source(run, s), a, b, step) for s, a, b, step in lines))


def _lines_of(carried: Iterable[RecordInfo]) -> list[LineSpan]:
    return joined([run for record in carried for run in spans(record.lines)])


def _source(run: RunInfo, position: int) -> str:
    return run.sources[position] if position < len(run.sources) else f"source {position}"


def detail(db: sqlite3.Connection, run: int, whole: bool = True) -> RunDetail:
    """One run with its requests (with bodies rebuilt and lines carried, when `whole`); its rows are derived by
    `rows.py`. Read light (not `whole`), only the requests whose answers are the records' (`queries.leaves`) are
    read, and those replaced by halves counted: what the header's counts and the rows' results are made of."""
    info = run_info(db, run)
    if whole:
        return RunDetail(info, requests_of(db, info))
    (total,) = db.execute("SELECT count(*) FROM requests WHERE run = ?", (run,)).fetchone()
    found = requests_of(db, info, _LEAVES, (run,), whole=False)
    return RunDetail(info, found, total - len(found))


# The requests `queries.leaves` keeps, chosen by SQLite: neither split nor any request's parent.
_LEAVES = f" AND state != '{SPLIT}' AND id NOT IN (SELECT parent FROM requests WHERE run = ? AND parent IS NOT NULL)"
