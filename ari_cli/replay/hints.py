"""What a replayed answer means for support: the table's row, told about the partner's own call.

The spec's table (`wire/errors.py`) says what failed; its hints are written for `push`, which
builds bodies from rows and options. A replayed body is the partner's: these hints say which key
and source id were sent (the body's own or the configured one), which of the partner's records
overlap, and which field is missing or out of range, without naming options replay does not have.
"""

from __future__ import annotations

import datetime as dt
import itertools
import json
from dataclasses import dataclass
from typing import Any

from ari_cli.replay.bodies import Ready
from ari_cli.send.exchange import Outcome
from ari_cli.wire.errors import ErrorRow, is_retryable, lookup
from ari_cli.wire.gateway import WHERE, gateway_answer
from ari_cli.wire.models import field_problems

# Enough to act on; a body with hundreds of bad records would bury the first ones.
SHOWN = 5
# Where the gateway's own hint names push's options (--batch-size, --rate), which replay does not have.
GATEWAY_HINTS = {
    413: "the body is over the size limit of the service or a gateway (the sandbox's is 1 MiB): the partner "
    "must send fewer records per request; the same body gets the same answer",
    429: "a gateway in front of the service limits how often it may be called: wait (its Retry-After header "
    "says how long) and replay again; this is not the service's 429, which carries code 452",
}


@dataclass(frozen=True, slots=True)
class Meaning:
    """What one error of an answer means, read from the spec's error table (or a gateway's answers)."""

    code: int | None
    message: str
    http_status: int | None
    row: ErrorRow | None
    hint: str | None
    retryable: bool
    note: str = ""


def _listed(items: list[str]) -> str:
    more = len(items) - SHOWN
    return "; ".join(items[:SHOWN]) + (f" (and {more} more)" if more > 0 else "")


def _key_hint(ready: Ready) -> str:
    if "sharepost" in ready.filled:
        return (
            "the configured key was sent (ARI_API_KEY, --api-key-file or the profile's key) and rejected; "
            "check it with ari-cli config show"
        )
    if "sharepost" in ready.document:
        return (
            "the partner's own key from the body (sharepost) was sent and rejected: it is wrong, revoked or "
            "not this service's; to send the configured key instead, remove sharepost or write it as <API_KEY>"
        )
    return "the body has no sharepost and --no-fill sent it so; leave out --no-fill to send the configured key"


def _source_hint(ready: Ready) -> str:
    sent = ready.document.get("sourceid")
    if sent is None:
        return "the body has no sourceid and --no-fill sent it so; leave out --no-fill to send the configured one"
    if "sourceid" in ready.filled:
        whose = "the configured source id (ARI_SOURCE_ID, --source-id or the profile's)"
    else:
        whose = "the partner's own sourceid from the body"
    return (
        f"{whose}, {json.dumps(sent)}, is not the one assigned to the key that was sent; "
        "the key and the source id must belong to the same partner"
    )


def _day(value: Any) -> dt.date | None:
    try:
        return dt.date.fromisoformat(value) if isinstance(value, str) else None
    except ValueError:
        return None


def overlapping_records(document: dict[str, Any]) -> list[str]:
    """`data[0] and data[2] (room DBL)` for each pair of records that cover a date for the same room (and rate)."""
    data = document.get("data")
    if not isinstance(data, list):
        return []
    spans: list[tuple[int, tuple[Any, Any], dt.date, dt.date]] = []
    for index, record in enumerate(data):
        if isinstance(record, dict):
            start, end = _day(record.get("startdateymd")), _day(record.get("enddateymd"))
            if start is not None and end is not None:
                spans.append((index, (record.get("roomid"), record.get("rateid")), start, end))
    found: list[str] = []
    for (i, key, start, end), (j, other, start2, end2) in itertools.combinations(spans, 2):
        if key == other and start <= end2 and start2 <= end:
            room, rate = key
            where = f"room {room}" + (f", rate {rate}" if rate is not None else "")
            found.append(f"data[{i}] and data[{j}] ({where})")
    return found


def _overlap_hint(ready: Ready, row: ErrorRow) -> str:
    pairs = overlapping_records(ready.document)
    if not pairs:
        return row.hint
    return (
        f"the partner's records overlap: {_listed(pairs)} cover the same dates; replay sends the body as "
        "written, so the partner must change the dates or send such records in separate requests"
    )


def _field_hint(ready: Ready) -> str:
    problems = field_problems(ready.document, ready.body.operation)
    if not problems:
        return (
            "the service refused a field, though every field of the body looks valid to ari-cli: "
            "compare the body with the spec's field tables"
        )
    return f"the body's fields: {_listed(problems)}"


def _records(document: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """Each record with where it sits: `data[0]` (or `data`), or the body itself for Cancellation and Deposit."""
    data = document.get("data")
    if isinstance(data, list):
        return [(f"data[{i}]", r) for i, r in enumerate(data) if isinstance(r, dict)]
    if isinstance(data, dict):
        return [("data", data)]
    return [("the body", document)] if "startdate" in document or "enddate" in document else []


def _date_fields(record: dict[str, Any]) -> tuple[str, str]:
    return ("startdate", "enddate") if "startdate" in record or "enddate" in record else ("startdateymd", "enddateymd")


def wrong_dates(document: dict[str, Any], code: int, today: dt.date) -> list[str]:
    """`data[0].startdateymd "2020-01-01" is before today` for each record a 404 (start) or 405 (end) is about."""
    found: list[str] = []
    for where, record in _records(document):
        start_name, end_name = _date_fields(record)
        prefix = f"{where}." if where != "the body" else ""
        start, end = _day(record.get(start_name)), _day(record.get(end_name))
        name = start_name if code == 404 else end_name
        shown = f"{prefix}{name} {json.dumps(record.get(name))}"
        if (start if code == 404 else end) is None:
            found.append(f"{shown} is not a date YYYY-MM-DD")
        elif code == 404 and start is not None and start < today:
            found.append(f"{shown} is before today ({today.isoformat()} here)")
        elif code == 405 and start is not None and end is not None and end < start:
            found.append(f"{shown} is before the start {start.isoformat()}")
    return found


def _hint(row: ErrorRow, ready: Ready) -> str:
    if row.code == 415:
        return _key_hint(ready)
    if row.code == 440:
        return _source_hint(ready)
    if row.code == 416:
        return _overlap_hint(ready, row)
    if row.code == 402:
        return _field_hint(ready)
    if row.code in (404, 405):
        # The local date stands in for the service's: near midnight the two may differ by a day.
        dates = wrong_dates(ready.document, row.code, dt.date.today())
        return f"the body's dates: {_listed(dates)}" if dates else row.hint
    return row.hint


def meanings(outcome: Outcome, ready: Ready) -> list[Meaning]:
    """Each error of an answer with its row of the table, a hint for this body and whether retrying helps."""
    found: list[Meaning] = []
    for problem in outcome.errors:
        gateway = gateway_answer(problem.http_status, problem.code)
        if gateway is not None:
            note = f"HTTP {gateway.http_status} is not the service's own answer: {gateway.message} ({WHERE})"
            said = GATEWAY_HINTS.get(gateway.http_status, gateway.hint)
            meaning = Meaning(problem.code, problem.message, problem.http_status, None, said,
                              gateway.retryable, note)  # fmt: skip
            found.append(meaning)
            continue
        row = lookup(problem.code, problem.http_status)
        note = ""
        if row is not None and problem.http_status is not None and row.http_status != problem.http_status:
            note = (
                f"the table labels code {row.code} with HTTP {row.http_status}; "
                f"this answer came with HTTP {problem.http_status}"
            )
        elif row is None and problem.code is not None:
            note = f"code {problem.code} is not in the spec's error table"
        hint = _hint(row, ready) if row else problem.hint
        # No answer at all (refused, timed out) is worth another try, as the sender's retries assume.
        retryable = is_retryable(problem.code, problem.http_status) or (
            problem.http_status is None and outcome.transient
        )
        found.append(Meaning(problem.code, problem.message, problem.http_status, row, hint, retryable, note))
    return found
