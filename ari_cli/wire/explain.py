"""What an HTTP status or a body code of the push service means, from the spec's error table. Pure.

Everything here is read from `errors.py`; the notes only say what the table implies (a status
that carries another code, a code that two statuses share, a status whose usual web meaning does
not apply here). What a gateway in front of the service answers comes from `gateway.py`, shown
apart from the table's rows.
"""

from __future__ import annotations

from dataclasses import dataclass
from http import HTTPStatus

from ari_cli.wire.errors import ERROR_TABLE, ErrorRow, Reach, rows_for
from ari_cli.wire.gateway import BY_GATEWAY_STATUS, GATEWAY_ANSWERS, GatewayAnswer
from ari_cli.wire.operations import LABELS, Operation

SUCCESS = 200
SUCCESS_NOTE = (
    "HTTP 200 is success: the body carries success true and a tracking id; nothing to check. "
    "An HTTP 200 whose body says success false, or is not the service's JSON, is not a success."
)


@dataclass(frozen=True, slots=True)
class Explanation:
    """The rows a number names (as HTTP status or body code) and what to keep in mind."""

    number: int
    rows: tuple[ErrorRow, ...]
    notes: tuple[str, ...]
    gateway: GatewayAnswer | None = None
    """What the number means when a gateway in front of the service answered it."""


def known_statuses() -> list[int]:
    """Every HTTP status of the table, 200 included."""
    return sorted({SUCCESS} | {row.http_status for row in ERROR_TABLE})


def gateway_statuses() -> list[int]:
    """Every HTTP status a gateway in front of the service is known to answer."""
    return sorted(answer.http_status for answer in GATEWAY_ANSWERS)


def known_codes() -> list[int]:
    """Every body code of the table."""
    return sorted({row.code for row in ERROR_TABLE})


def applies_to(row: ErrorRow) -> str:
    """`all operations`, `Sell Threshold only`, or the operations it applies to and the one it does not."""
    if row.operations == frozenset(Operation):
        return "all operations"
    names = [LABELS[op] for op in Operation if op in row.operations]
    if len(names) == 1:
        return f"{names[0]} only"
    others = [LABELS[op] for op in Operation if op not in row.operations]
    return f"{', '.join(names)} (not {', '.join(others)})"


def _usual(status: int) -> str | None:
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return None


def _notes(number: int, rows: list[ErrorRow]) -> list[str]:
    notes: list[str] = []
    by_status = [row for row in rows if row.http_status == number]
    by_code = [row for row in rows if row.code == number and row.http_status != number]
    for row in by_status:
        if row.code != row.http_status:
            notes.append(f"HTTP {number} carries body code {row.code}: the code says what failed, not the status")
        usual = _usual(number)
        if usual and usual.lower() != row.message.lower():
            notes.append(f"HTTP {number} usually means {usual!r}; not in this API: here it means {row.message!r}")
    if len(by_code) > 1:
        statuses = " and ".join(f"HTTP {row.http_status}" for row in by_code)
        same = len({row.message for row in by_code}) == 1
        notes.append(
            f"body code {number} is shared by {len(by_code)} rows, {statuses}"
            + (", with the same meaning" if same else "")
            + "; the HTTP status tells which row answered"
        )
    elif by_code:
        notes.append(f"body code {number} comes with HTTP {by_code[0].http_status}")
    if any(row.retryable for row in rows):
        notes.append("retrying helps: the failure is transient, and ari-cli retries it with backoff by itself")
    else:
        notes.append("retrying does not help: the same request gets the same answer until the cause is fixed")
    for found in dict.fromkeys(row.reach for row in rows):
        if found in REACHES:
            notes.append(REACHES[found])
    return notes


# What ari-cli does with the rest of a run after such an answer (`send/refusals.py`).
REACHES = {
    Reach.RECORD: "it is about one record of the request: ari-cli splits a request of several records in halves to "
    "find which, within a budget per property (its planned requests)",
    Reach.PROPERTY: "it is about the request's one property: ari-cli sends none of the property's other requests in "
    "that run (they end `not sent`); `ari-cli retry RUN` sends them once the cause is put right",
    Reach.ENDPOINT: "it is about the endpoint: ari-cli sends nothing more to that URL in that run (those requests end "
    "`not sent`); `ari-cli retry RUN` sends them once the cause is put right",
    Reach.ACCOUNT: "it is about the account: ari-cli sends none of the run's other requests (they end `not sent`); "
    "`ari-cli retry RUN` sends them once the cause is put right",
}


def explain(number: int) -> Explanation | None:
    """The explanation of an HTTP status or body code; None when the table does not know it."""
    if number == SUCCESS:
        return Explanation(number, (), (SUCCESS_NOTE,))
    rows = rows_for(number)
    gateway = BY_GATEWAY_STATUS.get(number)
    if gateway is not None and not rows:
        note = f"HTTP {number} is not in the spec's error table: the service's own errors do not use it"
        return Explanation(number, (), (note,), gateway)
    if not rows:
        return None
    notes = _notes(number, rows)
    if gateway is not None:
        notes.append(f"an HTTP {number} whose body is not the service's JSON comes from a gateway in front of it")
    return Explanation(number, tuple(rows), tuple(notes), gateway)


def unknown_message(text: str) -> str:
    """Why `text` cannot be explained, with the numbers that can."""
    statuses = ", ".join(map(str, known_statuses()))
    codes = ", ".join(map(str, known_codes()))
    gateways = ", ".join(map(str, gateway_statuses()))
    what = "is not in the spec's error table" if text.strip().isdigit() else "is not an HTTP status or a body code"
    return f"{text!r} {what}; known HTTP statuses: {statuses}; known body codes: {codes}; gateway answers: {gateways}"
