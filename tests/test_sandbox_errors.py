"""Every row of the spec's error table, provoked through real HTTP against the sandbox."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import httpx
import pytest

from ari_cli.sandbox import Sandbox
from ari_cli.wire.errors import ERROR_TABLE

PATH = "/v2/push_ari/cpbA1/push"

THRESHOLD: dict[str, Any] = {
    "sharepost": "sandbox-key-0001",
    "sourceid": "cpbA1",
    "propertyid": "HTL001",
    "action": "sellthresholdupdate",
    "data": [{"startdateymd": "2027-03-01", "enddateymd": "2027-03-05", "roomid": "DBL", "threshold": "5"}],
}
MAXADV: dict[str, Any] = {
    "sharepost": "sandbox-key-0001",
    "sourceid": "cpbA1",
    "propertyid": "HTL001",
    "action": "setadvbookingcondrq",
    "data": [
        {
            "startdateymd": "2027-03-01",
            "enddateymd": "2027-03-05",
            "roomid": "DBL",
            "rateid": "BAR",
            "minmaxmessagetype": "maxadvbooking",
            "time": "30",
        }
    ],
}
POLICY: dict[str, Any] = {
    "sharepost": "sandbox-key-0001",
    "sourceid": "cpbA1",
    "propertyid": "HTL001",
    "roomid": "DBL",
    "rateid": "BAR",
    "startdate": "2027-03-01",
    "enddate": "2027-03-05",
    "refundable": "true",
    "action": "getcancellation",
    "policydetails": {
        "cancellation": [
            {
                "policyid": 1,
                "dayspriorcheckin": 2,
                "penaltytype": 3,
                "penaltyamount": 100,
                "penaltyapplied": 3,
                "level": 1,
            }
        ],
        "deposit": {
            "depositpolicy": "not required",
            "deposittype": 3,
            "depositamount": 10,
            "depositapplied": 3,
            "depositintervalunits": 0,
            "deposittimeinterval": 0,
        },
    },
}

E402 = {"success": False, "errors": [{"code": 402, "message": "invalid parameter"}]}
E404 = {"success": False, "errors": [{"code": 404, "message": "invalid start date"}]}
E405 = {"success": False, "errors": [{"code": 405, "message": "invalid end date"}]}
E408 = {"success": False, "errors": [{"code": 408, "message": "processing error"}]}
E415 = {"success": False, "errors": [{"code": 415, "message": "invalid authentication key"}]}
E416 = {"success": False, "errors": [{"code": 416, "message": "overlapping data range"}]}
E440 = {"success": False, "errors": [{"code": 440, "message": "invalid source id"}]}
E442 = {"success": False, "errors": [{"code": 442, "message": "endpoint is not active"}]}
E446 = {"success": False, "errors": [{"code": 446, "message": "invalid property mapping"}]}
E451 = {"success": False, "errors": [{"code": 451, "message": "invalid room mapping"}]}
E452 = {"success": False, "errors": [{"code": 452, "message": "invalid rate plan mapping"}]}
E453 = {"success": False, "errors": [{"code": 453, "message": "mapping is not active"}]}
E454 = {"success": False, "errors": [{"code": 454, "message": "invalid endpoint"}]}
E471 = {"success": False, "errors": [{"code": 471, "message": "channel id blocked"}]}
E500 = {"success": False, "errors": [{"code": 500, "message": "internal server error"}]}
E502 = {"success": False, "errors": [{"code": 502, "message": "bad gateway"}]}
E503 = {"success": False, "errors": [{"code": 503, "message": "service unavailable"}]}
E504 = {"success": False, "errors": [{"code": 504, "message": "endpoint request timed out"}]}


def assert_failure(response: httpx.Response, status: int, expected: dict[str, Any], tracked: bool = True) -> None:
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/json"
    body = response.json()
    if tracked:
        trackingid = body.pop("trackingid")
        assert isinstance(trackingid, str) and trackingid
    else:
        assert "trackingid" not in body
    assert body == expected


def changed(base: dict[str, Any], edit: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    body = copy.deepcopy(base)
    edit(body)
    return body


def record(**fields: Any) -> Callable[[dict[str, Any]], None]:
    def edit(body: dict[str, Any]) -> None:
        body["data"][0].update(fields)

    return edit


def top(**fields: Any) -> Callable[[dict[str, Any]], None]:
    def edit(body: dict[str, Any]) -> None:
        body.update(fields)

    return edit


def without(*names: str) -> Callable[[dict[str, Any]], None]:
    def edit(body: dict[str, Any]) -> None:
        for name in names:
            del body[name]

    return edit


def second_record(**fields: Any) -> Callable[[dict[str, Any]], None]:
    def edit(body: dict[str, Any]) -> None:
        body["data"].append({**body["data"][0], **fields})

    return edit


def both(*edits: Callable[[dict[str, Any]], None]) -> Callable[[dict[str, Any]], None]:
    def edit(body: dict[str, Any]) -> None:
        for each in edits:
            each(body)

    return edit


@dataclass(frozen=True)
class Case:
    id: str
    body: dict[str, Any] | bytes
    status: int
    expected: dict[str, Any]
    tracked: bool = True
    path: str = PATH
    method: str = "POST"


CAUSED = [
    Case("402 not json", b"{not json", 402, E402),
    Case("402 json array", b"[1, 2]", 402, E402),
    Case("402 action missing", changed(THRESHOLD, without("action")), 402, E402),
    Case("402 action unknown", changed(THRESHOLD, top(action="sellthreshold")), 402, E402),
    Case("402 threshold out of range", changed(THRESHOLD, record(threshold="1000")), 402, E402),
    Case("402 threshold as a number", changed(THRESHOLD, record(threshold=5)), 402, E402),
    Case("402 unknown field", changed(THRESHOLD, top(extra="x")), 402, E402),
    Case("402 data empty", changed(THRESHOLD, top(data=[])), 402, E402),
    Case("402 data not a record", changed(THRESHOLD, top(data="x")), 402, E402),
    Case("402 propertyid missing", changed(THRESHOLD, without("propertyid")), 402, E402),
    Case("402 maxadv past start", changed(MAXADV, record(startdateymd="2026-12-31")), 402, E402),
    Case("402 maxadv time 0", changed(MAXADV, record(time="0")), 402, E402),
    Case(
        "402 maxadv message type missing",
        changed(MAXADV, lambda b: b["data"][0].pop("minmaxmessagetype")),
        402,
        E402,
    ),
    Case("402 policy malformed start", changed(POLICY, top(startdate="2027-3-01")), 402, E402),
    Case(
        "402 policy penalty 0",
        changed(POLICY, lambda b: b["policydetails"]["cancellation"][0].update(penaltyamount=0)),
        402,
        E402,
    ),
    Case("402 policy non-refundable without deposit", changed(POLICY, top(refundable="false")), 402, E402),
    Case("404 past start", changed(THRESHOLD, record(startdateymd="2026-12-31")), 404, E404, tracked=False),
    Case("404 malformed start", changed(THRESHOLD, record(startdateymd="01/03/2027")), 404, E404, tracked=False),
    Case("405 threshold end before start", changed(THRESHOLD, record(enddateymd="2027-02-28")), 405, E405),
    Case("405 maxadv malformed end", changed(MAXADV, record(enddateymd="2027-03-32")), 405, E405),
    Case("405 policy end before start", changed(POLICY, top(enddate="2027-02-01")), 405, E405),
    Case("415 key missing", changed(THRESHOLD, without("sharepost")), 415, E415),
    Case("415 key unknown", changed(THRESHOLD, top(sharepost="nope")), 415, E415),
    Case(
        "416 threshold overlap",
        changed(THRESHOLD, second_record(startdateymd="2027-03-05", enddateymd="2027-03-09")),
        416,
        E416,
    ),
    Case(
        "416 maxadv overlap",
        changed(MAXADV, second_record(startdateymd="2027-03-02", enddateymd="2027-03-03", time="7")),
        416,
        E416,
    ),
    Case(
        "417 body source id not the key's",
        changed(THRESHOLD, top(sourceid="cpbB2")),
        417,
        E440,
        path="/v2/push_ari/cpbB2/push",
    ),
    Case("417 path source id differs", THRESHOLD, 417, E440, path="/v2/push_ari/cpbZ9/push"),
    Case("417 source id missing", changed(THRESHOLD, without("sourceid")), 417, E440),
    Case(
        "418 endpoint not active",
        changed(THRESHOLD, top(sharepost="sandbox-key-0002-inactive", sourceid="cpbB2")),
        418,
        E442,
        path="/v2/push_ari/cpbB2/push",
    ),
    Case("421 property unknown", changed(THRESHOLD, top(propertyid="HTL404")), 421, E446),
    Case("422 room unknown", changed(THRESHOLD, record(roomid="XXX")), 422, E451),
    Case("422 policy room unknown", changed(POLICY, top(roomid="XXX")), 422, E451),
    Case("423 property inactive", changed(THRESHOLD, top(propertyid="HTL900")), 423, E453),
    Case("423 room inactive", changed(THRESHOLD, record(roomid="OLD")), 423, E453),
    Case("423 rate inactive", changed(MAXADV, record(rateid="PROMO")), 423, E453),
    Case("423 policy rate inactive", changed(POLICY, top(rateid="PROMO")), 423, E453),
    Case("424 GET", THRESHOLD, 424, E454, method="GET"),
    Case("424 PUT", THRESHOLD, 424, E454, method="PUT"),
    Case("424 unknown path", THRESHOLD, 424, E454, path="/v2/push/cpbA1/push"),
    Case("424 no segment", THRESHOLD, 424, E454, path="/v2/push_ari/cpbA1/"),
    Case("424 extra segment", THRESHOLD, 424, E454, path="/v2/push_ari/cpbA1/a/b"),
    Case("424 unknown control path", THRESHOLD, 424, E454, path="/_sandbox/nothing"),
    Case(
        "425 blocked",
        changed(THRESHOLD, top(sharepost="sandbox-key-0003-blocked", sourceid="cpbC3")),
        425,
        E471,
        path="/v2/push_ari/cpbC3/push",
    ),
    Case("429 maxadv rate unknown", changed(MAXADV, record(rateid="XXX")), 429, E452),
    Case("429 policy rate unknown", changed(POLICY, top(rateid="XXX")), 429, E452),
]

# Rows no request can cause in the sandbox: scripted through the fault queue.
QUEUED = [
    Case("408 queued", THRESHOLD, 408, E408),
    Case("426 queued", THRESHOLD, 426, E453),
    Case("428 queued", THRESHOLD, 428, E454),
    Case("500 queued", THRESHOLD, 500, E500),
    Case("502 queued", THRESHOLD, 502, E502),
    Case("503 queued", THRESHOLD, 503, E503),
    Case("504 queued", THRESHOLD, 504, E504),
]


def send(client: httpx.Client, case: Case) -> httpx.Response:
    content = case.body if isinstance(case.body, bytes) else json.dumps(case.body).encode()
    headers = {"accept": "application/json", "content-type": "application/json"}
    return client.request(case.method, case.path, content=content, headers=headers)


def test_every_row_of_the_table_is_provoked() -> None:
    assert {case.status for case in CAUSED + QUEUED} == {row.http_status for row in ERROR_TABLE}


@pytest.mark.parametrize("case", CAUSED, ids=lambda case: case.id)
def test_real_cause(client: httpx.Client, sb: Sandbox, case: Case) -> None:
    assert_failure(send(client, case), case.status, case.expected, case.tracked)
    assert sb.state() == {"threshold": {}, "maxadv": {}, "policy": {}}


@pytest.mark.parametrize("case", QUEUED, ids=lambda case: case.id)
def test_queued_row(client: httpx.Client, sb: Sandbox, case: Case) -> None:
    sb.queue_error(case.status)
    assert_failure(send(client, case), case.status, case.expected)
    assert send(client, case).status_code == 200


def test_queued_404_has_no_trackingid(client: httpx.Client, sb: Sandbox) -> None:
    sb.queue_error(404)
    assert_failure(send(client, Case("404", THRESHOLD, 404, E404)), 404, E404, tracked=False)


def test_trackingids_are_unique(client: httpx.Client) -> None:
    case = Case("415", changed(THRESHOLD, top(sharepost="nope")), 415, E415)
    ids = {send(client, case).json()["trackingid"] for _ in range(20)}
    assert len(ids) == 20


ORDER = [
    # key before everything else
    Case("415 before 402", changed(THRESHOLD, top(sharepost="nope", action="x")), 415, E415),
    Case("440 before 442", changed(THRESHOLD, top(sharepost="sandbox-key-0002-inactive")), 417, E440),
    Case(
        "471 before 446",
        changed(THRESHOLD, top(sharepost="sandbox-key-0003-blocked", sourceid="cpbC3", propertyid="NO")),
        425,
        E471,
        path="/v2/push_ari/cpbC3/push",
    ),
    Case("402 action before 446", changed(THRESHOLD, top(action="x", propertyid="NO")), 402, E402),
    Case(
        "453 property before 404",
        changed(THRESHOLD, both(top(propertyid="HTL900"), record(startdateymd="2020-01-01"))),
        423,
        E453,
    ),
    Case(
        "404 before 451",
        changed(THRESHOLD, record(startdateymd="2020-01-01", roomid="XXX")),
        404,
        E404,
        tracked=False,
    ),
    Case("405 before 402", changed(THRESHOLD, record(enddateymd="2027-02-01", threshold="x")), 405, E405),
    Case("402 before 451", changed(THRESHOLD, record(threshold="x", roomid="XXX")), 402, E402),
    Case("451 before 452", changed(MAXADV, record(roomid="XXX", rateid="XXX")), 422, E451),
    Case("451 before 416", changed(THRESHOLD, second_record(roomid="XXX")), 422, E451),
    Case(
        "date of a later record",
        changed(THRESHOLD, second_record(roomid="TWN", startdateymd="2026-06-01")),
        404,
        E404,
        tracked=False,
    ),
]


@pytest.mark.parametrize("case", ORDER, ids=lambda case: case.id)
def test_check_order(client: httpx.Client, case: Case) -> None:
    assert_failure(send(client, case), case.status, case.expected, case.tracked)
