"""What the emulated service accepts: one request body in, the changes to apply or the error row out.

Checks run in a fixed order and the first failure wins: body shape, key, source id, endpoint,
block, action, property, then dates of every record, field validation, room and rate mapping of
every record, and last the overlaps between the records of the request. Nothing here touches
state, so a request is atomic by construction: it is applied only when this module accepts it.
"""

from __future__ import annotations

import datetime as dt
import itertools
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from ari_cli.sandbox.fixtures import Account, Fixtures, MappingStatus, Property
from ari_cli.wire.errors import BY_STATUS, WITH_RATE, ErrorRow
from ari_cli.wire.models import OPERATION_BY_ACTION, Operation, field_problems

Key = tuple[str, ...]
Span = tuple[dt.date, dt.date]

_DATE_FIELDS: dict[Operation, tuple[str, str]] = {
    Operation.THRESHOLD: ("startdateymd", "enddateymd"),
    Operation.MAXADV: ("startdateymd", "enddateymd"),
    Operation.POLICY: ("startdate", "enddate"),
}
_VALUE_FIELDS: dict[Operation, str] = {Operation.THRESHOLD: "threshold", Operation.MAXADV: "time"}


@dataclass(frozen=True, slots=True)
class Rejection:
    """The error row a request is refused with; `tracked` is False only for the Sell Threshold 404."""

    row: ErrorRow
    tracked: bool = True


@dataclass(frozen=True, slots=True)
class Change:
    """One accepted record: a value (or `n/a`) for every date of a range of one key."""

    operation: Operation
    key: Key
    start: dt.date
    end: dt.date
    value: Any


@dataclass(frozen=True, slots=True)
class Accepted:
    """A request that passed every check, with what it sets."""

    operation: Operation
    changes: tuple[Change, ...]


class _Reject(Exception):
    def __init__(self, status: int, tracked: bool = True) -> None:
        super().__init__(status)
        self.rejection = Rejection(BY_STATUS[status], tracked)


def check_push(document: Any, path_source_id: str, fixtures: Fixtures, today: dt.date) -> Accepted | Rejection:
    """Judge one parsed request body (None when it was not JSON) sent to `/v2/push_ari/{path_source_id}/…`."""
    try:
        return _check(document, path_source_id, fixtures, today)
    except _Reject as refused:
        return refused.rejection


def _check(document: Any, path_source_id: str, fixtures: Fixtures, today: dt.date) -> Accepted:
    if not isinstance(document, dict):
        raise _Reject(402)
    _authenticate(document, path_source_id, fixtures)
    action = document.get("action")
    operation = OPERATION_BY_ACTION.get(action) if isinstance(action, str) else None
    if operation is None:
        raise _Reject(402)
    prop = _property(document, fixtures)
    records = _records(document, operation)
    for record in records:
        _check_dates(record, operation, today)
    _validate(document, operation)
    keys = [_mapped_key(record, prop, operation) for record in records]
    spans = [_span(record, operation) for record in records]
    _check_overlaps(keys, spans)
    changes = tuple(
        Change(operation, key, start, end, _value(record, operation))
        for record, key, (start, end) in zip(records, keys, spans, strict=True)
    )
    return Accepted(operation, changes)


def _authenticate(document: dict[str, Any], path_source_id: str, fixtures: Fixtures) -> None:
    key = document.get("sharepost")
    account = fixtures.account(key) if isinstance(key, str) else None
    if account is None:
        raise _Reject(415)
    if document.get("sourceid") != account.source_id or path_source_id != account.source_id:
        raise _Reject(417)
    refused = account_refusal(account)
    if refused is not None:
        raise _Reject(refused.http_status)


def account_refusal(account: Account) -> ErrorRow | None:
    """The row every push with this account's key and source id is refused with; None if it may push."""
    if not account.endpoint_active:
        return BY_STATUS[418]
    if account.blocked:
        return BY_STATUS[425]
    return None


def _property(document: dict[str, Any], fixtures: Fixtures) -> Property:
    propertyid = document.get("propertyid")
    if not isinstance(propertyid, str) or not propertyid:
        raise _Reject(402)
    prop = fixtures.properties.get(propertyid)
    if prop is None:
        raise _Reject(421)
    if not prop.active:
        raise _Reject(423)
    return prop


def _records(document: dict[str, Any], operation: Operation) -> list[dict[str, Any]]:
    # Cancellation and Deposit carries its one record at the top level of the body.
    if operation is Operation.POLICY:
        return [document]
    data = document.get("data")
    items: list[Any] = data if isinstance(data, list) else [data]
    if not items or not all(isinstance(item, dict) for item in items):
        raise _Reject(402)
    return items


def _parse_date(value: Any) -> dt.date | None:
    if not isinstance(value, str):
        return None
    try:
        parsed = dt.date.fromisoformat(value)
    except ValueError:
        return None
    # fromisoformat also takes 20270101 and week dates; the wire format is YYYY-MM-DD only.
    return parsed if parsed.isoformat() == value else None


def _check_dates(record: dict[str, Any], operation: Operation, today: dt.date) -> None:
    start_field, end_field = _DATE_FIELDS[operation]
    # A missing date is a missing field: field validation answers it with 402.
    if start_field not in record:
        return
    start = _parse_date(record[start_field])
    if start is None or start < today:
        if operation is Operation.THRESHOLD:
            raise _Reject(404, tracked=False)
        raise _Reject(402)
    if end_field not in record:
        return
    end = _parse_date(record[end_field])
    if end is None or end < start:
        raise _Reject(405)


def _validate(document: dict[str, Any], operation: Operation) -> None:
    if field_problems(document, operation):
        raise _Reject(402)


def _mapped_key(record: dict[str, Any], prop: Property, operation: Operation) -> Key:
    roomid: str = record["roomid"]
    room = prop.room(roomid)
    if room is MappingStatus.UNMAPPED:
        raise _Reject(422)
    if room is MappingStatus.INACTIVE:
        raise _Reject(423)
    if operation not in WITH_RATE:
        return (prop.id, roomid)
    rateid: str = record["rateid"]
    rate = prop.rate(rateid)
    if rate is MappingStatus.UNMAPPED:
        raise _Reject(429)
    if rate is MappingStatus.INACTIVE:
        raise _Reject(423)
    return (prop.id, roomid, rateid)


def _span(record: dict[str, Any], operation: Operation) -> Span:
    start_field, end_field = _DATE_FIELDS[operation]
    return dt.date.fromisoformat(record[start_field]), dt.date.fromisoformat(record[end_field])


def _check_overlaps(keys: list[Key], spans: list[Span]) -> None:
    by_key: defaultdict[Key, list[Span]] = defaultdict(list)
    for key, span in zip(keys, spans, strict=True):
        by_key[key].append(span)
    for key_spans in by_key.values():
        key_spans.sort()
        for (_, previous_end), (start, _) in itertools.pairwise(key_spans):
            if start <= previous_end:
                raise _Reject(416)


def _value(record: dict[str, Any], operation: Operation) -> Any:
    if operation is not Operation.POLICY:
        return record[_VALUE_FIELDS[operation]]
    details: dict[str, Any] = record["policydetails"]
    cancellation = details["cancellation"]
    return {
        "refundable": record["refundable"],
        "policydetails": {
            **details,
            "cancellation": cancellation if isinstance(cancellation, list) else [cancellation],
        },
    }
