"""The error table against a copy of the spec's table typed out by hand.

Any drift between `ari_cli.wire.errors` and the spec (a status, a code, a message's wording, which
operations a row applies to) fails here.
"""

from __future__ import annotations

import pytest

from ari_cli.wire.errors import (
    BY_STATUS,
    ERROR_TABLE,
    RECORD_LEVEL_CODES,
    RETRYABLE_STATUSES,
    ErrorRow,
    Reach,
    failure_body,
    hint_for,
    is_retryable,
    lookup,
    reach,
    rows_for,
)
from ari_cli.wire.models import Operation

ALL = "all"
T, P, M = Operation.THRESHOLD, Operation.POLICY, Operation.MAXADV

# Copied from the spec's Errors table (the 200 success row is not an error and is left out).
SPEC_TABLE: list[tuple[int, int, str, str | frozenset[Operation]]] = [
    (402, 402, "invalid parameter", ALL),
    (404, 404, "invalid start date", frozenset({T})),
    (405, 405, "invalid end date", ALL),
    (408, 408, "processing error", ALL),
    (415, 415, "invalid authentication key", ALL),
    (416, 416, "overlapping data range", ALL),
    (417, 440, "invalid source id", ALL),
    (418, 442, "endpoint is not active", ALL),
    (421, 446, "invalid property mapping", ALL),
    (422, 451, "invalid room mapping", ALL),
    (423, 453, "mapping is not active", ALL),
    (424, 454, "invalid endpoint", ALL),
    (425, 471, "channel id blocked", ALL),
    (426, 453, "mapping is not active", ALL),
    (428, 454, "invalid endpoint", ALL),
    (429, 452, "invalid rate plan mapping", frozenset({P, M})),
    (500, 500, "internal server error", ALL),
    (502, 502, "bad gateway", ALL),
    (503, 503, "service unavailable", ALL),
    (504, 504, "endpoint request timed out", ALL),
]
TWINS = [(417, 440), (418, 442), (421, 446), (422, 451), (423, 453), (424, 454), (425, 471), (426, 453)]
TWINS += [(428, 454), (429, 452)]


def test_table_equals_the_spec() -> None:
    expected = [
        (status, code, message, frozenset(Operation) if ops == ALL else ops)
        for status, code, message, ops in SPEC_TABLE
    ]
    actual = [(row.http_status, row.code, row.message, row.operations) for row in ERROR_TABLE]
    assert actual == expected


def test_statuses_are_unique_and_indexed() -> None:
    assert len(BY_STATUS) == len(ERROR_TABLE) == len(SPEC_TABLE)
    assert all(BY_STATUS[row.http_status] is row for row in ERROR_TABLE)


@pytest.mark.parametrize(("status", "code"), TWINS)
def test_status_and_code_differ_for_twins(status: int, code: int) -> None:
    row = BY_STATUS[status]
    assert row.code == code
    assert lookup(code, status) is row


def test_twins_are_exactly_the_rows_whose_status_differs_from_code() -> None:
    assert [(r.http_status, r.code) for r in ERROR_TABLE if r.http_status != r.code] == TWINS


def test_retryable_exactly_transient_rows() -> None:
    assert sorted(RETRYABLE_STATUSES) == [408, 500, 502, 503, 504]
    assert [row.http_status for row in ERROR_TABLE if row.retryable] == [408, 500, 502, 503, 504]


@pytest.mark.parametrize(
    ("code", "status", "retry"),
    [
        (408, 408, True),
        (408, 200, True),
        (408, None, True),
        (None, 408, True),
        (500, 500, True),
        (None, 500, True),
        (None, 502, True),
        (None, 503, True),
        (None, 504, True),
        (502, 502, True),
        (504, 504, True),
        # 429 and 404 are validation errors in this API, never "slow down" or "not found".
        (452, 429, False),
        (None, 429, False),
        (404, 404, False),
        (None, 404, False),
        (402, 402, False),
        (415, 415, False),
        (471, 425, False),
        (402, 408, False),
        (None, None, False),
        (None, 200, False),
    ],
)
def test_is_retryable(code: int | None, status: int | None, retry: bool) -> None:
    assert is_retryable(code, status) is retry


def test_record_level_codes() -> None:
    # 446 (property mapping) is about the request's one property, never its records (clarifications, 2026-11-28).
    assert sorted(RECORD_LEVEL_CODES) == [402, 404, 405, 416, 451, 452, 453]
    assert [r.http_status for r in ERROR_TABLE if r.record_level] == [
        402,
        404,
        405,
        416,
        422,
        423,
        426,
        429,
    ]


def test_every_refusal_of_the_table_has_its_reach() -> None:
    reaches = {(r.http_status, r.code): r.reach for r in ERROR_TABLE}
    assert reaches == {
        (402, 402): Reach.RECORD, (404, 404): Reach.RECORD, (405, 405): Reach.RECORD, (408, 408): Reach.TRANSIENT,
        (415, 415): Reach.ACCOUNT, (416, 416): Reach.RECORD, (417, 440): Reach.ACCOUNT, (418, 442): Reach.ENDPOINT,
        (421, 446): Reach.PROPERTY, (422, 451): Reach.RECORD, (423, 453): Reach.RECORD, (424, 454): Reach.ENDPOINT,
        (425, 471): Reach.ACCOUNT, (426, 453): Reach.RECORD, (428, 454): Reach.ENDPOINT, (429, 452): Reach.RECORD,
        (500, 500): Reach.TRANSIENT, (502, 502): Reach.TRANSIENT, (503, 503): Reach.TRANSIENT,
        (504, 504): Reach.TRANSIENT,
    }  # fmt: skip


@pytest.mark.parametrize(
    ("status", "expected"),
    [(401, Reach.ACCOUNT), (403, Reach.ACCOUNT), (404, Reach.ACCOUNT), (413, Reach.REQUEST),
     (429, Reach.TRANSIENT), (502, Reach.TRANSIENT), (200, Reach.REQUEST), (None, Reach.TRANSIENT)],
)  # fmt: skip
def test_answers_that_are_not_the_services_json(status: int | None, expected: Reach) -> None:
    # A gateway's 401 or 403, or a 404 that is not the service's JSON, refuse every request of the account.
    assert reach(None, status) is expected


@pytest.mark.parametrize(("number", "statuses"), [(453, [423, 426]), (454, [424, 428])])
def test_rows_for_shared_codes(number: int, statuses: list[int]) -> None:
    rows = rows_for(number)
    assert [r.http_status for r in rows] == statuses
    assert {r.code for r in rows} == {number}


@pytest.mark.parametrize(
    ("number", "statuses"), [(402, [402]), (440, [417]), (417, [417]), (429, [429]), (452, [429]), (999, [])]
)
def test_rows_for_by_status_or_code(number: int, statuses: list[int]) -> None:
    assert [r.http_status for r in rows_for(number)] == statuses


@pytest.mark.parametrize(
    ("code", "status", "expected_status"),
    [
        (453, 423, 423),
        (453, 426, 426),
        (454, 424, 424),
        (454, 428, 428),
        # Without a twin's status, the first row of that code stands for it.
        (453, None, 423),
        (454, 200, 424),
        (452, 429, 429),
        (452, None, 429),
        (440, 400, 417),
        (404, 404, 404),
        # No body code (a body that is not JSON): the status label is all there is.
        (None, 429, 429),
        (None, 421, 421),
    ],
)
def test_lookup(code: int | None, status: int | None, expected_status: int) -> None:
    row = lookup(code, status)
    assert row is not None
    assert row.http_status == expected_status
    if code is not None:
        assert row.code == code


@pytest.mark.parametrize(("code", "status"), [(None, None), (None, 200), (None, 400), (999, 429), (999, None)])
def test_lookup_unknown(code: int | None, status: int | None) -> None:
    assert lookup(code, status) is None
    assert hint_for(code, status) is None


def test_failure_body_with_trackingid() -> None:
    assert failure_body(BY_STATUS[429], "trk-1") == {
        "success": False,
        "errors": [{"code": 452, "message": "invalid rate plan mapping"}],
        "trackingid": "trk-1",
    }


def test_failure_body_without_trackingid() -> None:
    # The spec's Sell Threshold 404 variant has no trackingid at all (not a null one).
    assert failure_body(BY_STATUS[404], None) == {
        "success": False,
        "errors": [{"code": 404, "message": "invalid start date"}],
    }


@pytest.mark.parametrize("row", ERROR_TABLE, ids=lambda r: str(r.http_status))
def test_failure_body_uses_code_not_status(row: ErrorRow) -> None:
    body = failure_body(row, "t")
    assert body["errors"] == [{"code": row.code, "message": row.message}]
    assert list(body) == ["success", "errors", "trackingid"]


@pytest.mark.parametrize("row", ERROR_TABLE, ids=lambda r: str(r.http_status))
def test_every_row_has_a_one_line_hint(row: ErrorRow) -> None:
    assert row.hint.strip() == row.hint
    assert row.hint
    assert "\n" not in row.hint and "\r" not in row.hint
    assert hint_for(row.code, row.http_status) == row.hint


def test_429_hint_says_it_is_not_rate_limiting() -> None:
    hint = hint_for(452, 429)
    assert hint is not None
    assert "not rate limiting" in hint
    assert "rateid" in hint


def test_446_hint_names_the_property_mapping() -> None:
    hint = hint_for(446, 421)
    assert hint is not None
    assert "property id is not mapped for this partner" in hint
    assert "propertyid" in hint


@pytest.mark.parametrize(
    ("code", "status", "service_json", "expected"),
    [
        (451, 422, True, "record"),
        (402, 402, True, "record"),
        (404, 404, True, "record"),  # the service's 404: an invalid start date
        (446, 421, True, "property"),
        (442, 418, True, "endpoint"),
        (454, 424, True, "endpoint"),
        (454, 428, True, "endpoint"),
        (415, 415, True, "account"),
        (440, 417, True, "account"),
        (471, 425, True, "account"),
        (None, 401, False, "account"),  # a gateway's own authentication
        (None, 403, False, "account"),
        (None, 404, False, "account"),  # not the service's JSON: a wrong URL
        (None, 413, False, "request"),
        (999, 400, True, "request"),
        (408, 408, True, "transient"),
        (503, 503, True, "transient"),
        (None, 502, False, "transient"),
        (None, 429, False, "transient"),  # a gateway's rate limit
        (452, 429, True, "record"),  # the service's 429 is a rate plan mapping
        (None, None, False, "transient"),  # no answer: a connection error, a timeout, an interruption
    ],
)
def test_the_reach_of_an_answer(code: int | None, status: int | None, service_json: bool, expected: str) -> None:
    assert service_json is (code is not None)  # an answer with a body code was the service's JSON
    assert reach(code, status) == expected
