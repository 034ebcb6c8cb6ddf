"""The spec's error table, as data, and the lookups everything else uses.

In this API the HTTP status only labels a failure; its meaning is the body `code`. Several
statuses differ from their codes (417 answers code 440, 429 answers 452), and 429 and 404 are
validation errors here, never "slow down" or "not found".
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from ari_cli.wire.operations import Operation

ALL = frozenset(Operation)
THRESHOLD_ONLY = frozenset({Operation.THRESHOLD})
WITH_RATE = frozenset({Operation.POLICY, Operation.MAXADV})

RETRYABLE_STATUSES = frozenset({408, 500, 502, 503, 504})


class Reach(StrEnum):
    """What a failure is about, and so how far it reaches (clarifications, 2026-11-28)."""

    RECORD = "record"  # one record's data: splitting the request isolates the culprit
    REQUEST = "request"  # this request alone (an unknown code, a body too large): a second try meets it again
    PROPERTY = "property"  # the request's one property: its other requests would get the same answer
    ENDPOINT = "endpoint"  # the URL: every request to it would
    ACCOUNT = "account"  # the key, source id or channel: every request of the run would
    TRANSIENT = "transient"  # nothing lasting: no answer at all, a retryable status or code 408, a gateway's 429


# Refusals that reach past their request's records: the service would refuse the property's, the URL's or the
# account's other requests alike, whatever their data.
WHOLE = frozenset({Reach.PROPERTY, Reach.ENDPOINT, Reach.ACCOUNT})

# A request carries one property, so an error about the property is never its records' (446 is not here).
RECORD_LEVEL_CODES = frozenset({402, 404, 405, 416, 451, 452, 453})
PROPERTY_CODES = frozenset({446})
ENDPOINT_CODES = frozenset({442, 454})
ACCOUNT_CODES = frozenset({415, 440, 471})
# Without the service's JSON, these statuses come from in front of the service and refuse the account's calls:
# a gateway's 401 or 403, or a 404 where the service would have answered its own JSON (a wrong base URL).
ACCOUNT_STATUSES_WITHOUT_CODE = frozenset({401, 403, 404})


@dataclass(frozen=True, slots=True)
class ErrorRow:
    """One row of the spec's error table."""

    http_status: int
    code: int
    message: str
    operations: frozenset[Operation]
    hint: str

    @property
    def retryable(self) -> bool:
        return self.http_status in RETRYABLE_STATUSES

    @property
    def record_level(self) -> bool:
        return self.code in RECORD_LEVEL_CODES

    @property
    def reach(self) -> Reach:
        return reach(self.code, self.http_status)


ERROR_TABLE: tuple[ErrorRow, ...] = (
    ErrorRow(402, 402, "invalid parameter", ALL,
             "a field is missing or has a value the service does not accept; check the row's values"),
    ErrorRow(404, 404, "invalid start date", THRESHOLD_ONLY,
             "the start date is malformed or in the past; use YYYY-MM-DD, today or later"),
    ErrorRow(405, 405, "invalid end date", ALL,
             "the end date is malformed or before the start date; use YYYY-MM-DD, on or after the start"),
    ErrorRow(408, 408, "processing error", ALL,
             "the service could not process the request in time; retrying usually helps"),
    ErrorRow(415, 415, "invalid authentication key", ALL,
             "the API key was rejected; check ARI_API_KEY, --api-key-file or the profile's key"),
    ErrorRow(416, 416, "overlapping data range", ALL,
             "two records of one request cover the same dates for the same room (and rate); "
             "fix the overlapping rows or use --overlaps last-wins"),
    ErrorRow(417, 440, "invalid source id", ALL,
             "the source id is not the one assigned to this key; check ARI_SOURCE_ID or --source-id"),
    ErrorRow(418, 442, "endpoint is not active", ALL,
             "this partner's endpoint is switched off at the service; ask the service to activate it"),
    ErrorRow(421, 446, "invalid property mapping", ALL,
             "the property id is not mapped for this partner; check propertyid"),
    ErrorRow(422, 451, "invalid room mapping", ALL,
             "the room id is not mapped for this property; check roomid"),
    ErrorRow(423, 453, "mapping is not active", ALL,
             "the property, room or rate mapping exists but is switched off; ask the service to activate it"),
    ErrorRow(424, 454, "invalid endpoint", ALL,
             "the URL is not a valid endpoint; check the base URL and --path-segment"),
    ErrorRow(425, 471, "channel id blocked", ALL,
             "this partner's channel is blocked at the service; contact the service, resending won't help"),
    ErrorRow(426, 453, "mapping is not active", ALL,
             "the property, room or rate mapping exists but is switched off; ask the service to activate it"),
    ErrorRow(428, 454, "invalid endpoint", ALL,
             "the URL is not a valid endpoint; check the base URL and --path-segment"),
    ErrorRow(429, 452, "invalid rate plan mapping", WITH_RATE,
             "the rate id is not mapped for this room (this 429 is not rate limiting); check rateid"),
    ErrorRow(500, 500, "internal server error", ALL,
             "the service failed; the request is retried, and a later run may succeed"),
    ErrorRow(502, 502, "bad gateway", ALL,
             "a gateway in front of the service failed; the request is retried, and a later run may succeed"),
    ErrorRow(503, 503, "service unavailable", ALL,
             "the service is down or overloaded; the request is retried, and a later run may succeed"),
    ErrorRow(504, 504, "endpoint request timed out", ALL,
             "the service timed out; the request is retried, and a later run may succeed"),
)  # fmt: skip

BY_STATUS: dict[int, ErrorRow] = {row.http_status: row for row in ERROR_TABLE}


def rows_for(number: int) -> list[ErrorRow]:
    """Rows whose HTTP status or body code is `number` (453 and 454 name two rows each)."""
    return [row for row in ERROR_TABLE if number in (row.http_status, row.code)]


def lookup(code: int | None, http_status: int | None) -> ErrorRow | None:
    """The row a failure belongs to: the body code decides, the HTTP status picks between twins."""
    if code is not None:
        matches = [row for row in ERROR_TABLE if row.code == code]
        for row in matches:
            if row.http_status == http_status:
                return row
        # An unknown code is not explained by its status label: a 429 carrying code 999 is not
        # "invalid rate plan mapping", and a wrong hint is worse than none.
        return matches[0] if matches else None
    if http_status is not None:
        return BY_STATUS.get(http_status)
    return None


def failure_body(row: ErrorRow, trackingid: str | None) -> dict[str, object]:
    """The exact failure body the spec gives for a row (no trackingid when it is None)."""
    body: dict[str, object] = {"success": False, "errors": [{"code": row.code, "message": row.message}]}
    if trackingid is not None:
        body["trackingid"] = trackingid
    return body


def hint_for(code: int | None, http_status: int | None) -> str | None:
    """The user-facing hint for a failure, if the table knows it."""
    row = lookup(code, http_status)
    return row.hint if row else None


def is_retryable(code: int | None, http_status: int | None) -> bool:
    """Whether trying again can help: HTTP 500/502/503/504 or code 408, and nothing else."""
    if http_status in RETRYABLE_STATUSES - {408} or code == 408:
        return True
    return http_status == 408 and code is None


def reach(code: int | None, http_status: int | None) -> Reach:
    """What a failure with this body `code` and HTTP status is about; `code` None: the answer was not the
    service's JSON (a gateway's page, no body, or no answer at all)."""
    if is_retryable(code, http_status) or (code is None and http_status in (None, 429)):
        return Reach.TRANSIENT  # a gateway's 429 without the service's JSON is a rate limit: wait and send again
    if code is None:
        return Reach.ACCOUNT if http_status in ACCOUNT_STATUSES_WITHOUT_CODE else Reach.REQUEST
    for codes, found in (
        (RECORD_LEVEL_CODES, Reach.RECORD),
        (PROPERTY_CODES, Reach.PROPERTY),
        (ENDPOINT_CODES, Reach.ENDPOINT),
        (ACCOUNT_CODES, Reach.ACCOUNT),
    ):
        if code in codes:
            return found
    return Reach.REQUEST
