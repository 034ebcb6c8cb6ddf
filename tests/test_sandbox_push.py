"""Accepted pushes through real HTTP: both container forms, state, overrides, clearing, atomicity."""

from __future__ import annotations

import copy
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest

from ari_cli.sandbox import Sandbox
from tests.conftest import PINNED_TODAY as TODAY

URL = "/v2/push_ari/cpbA1/any-segment"

RULE_1 = {
    "policyid": 1,
    "dayspriorcheckin": 2,
    "penaltytype": 3,
    "penaltyamount": 100,
    "penaltyapplied": 3,
    "level": 1,
}
RULE_2 = {
    "policyid": 2,
    "dayspriorcheckin": 7,
    "penaltytype": 3,
    "penaltyamount": 50,
    "penaltyapplied": 4,
    "level": 2,
}
DEPOSIT = {
    "depositpolicy": "required",
    "deposittype": 3,
    "depositamount": 20,
    "depositapplied": 3,
    "depositintervalunits": 1,
    "deposittimeinterval": 30,
}
EMPTY: dict[str, Any] = {"threshold": {}, "maxadv": {}, "policy": {}}


def threshold_body(data: Any) -> dict[str, Any]:
    return {
        "sharepost": "sandbox-key-0001",
        "sourceid": "cpbA1",
        "propertyid": "HTL001",
        "action": "sellthresholdupdate",
        "data": data,
    }


def maxadv_body(data: Any) -> dict[str, Any]:
    return {
        "sharepost": "sandbox-key-0001",
        "sourceid": "cpbA1",
        "propertyid": "HTL002",
        "action": "setadvbookingcondrq",
        "data": data,
    }


def policy_body(cancellation: Any, start: str = "2027-05-01", end: str = "2027-05-02") -> dict[str, Any]:
    return {
        "sharepost": "sandbox-key-0001",
        "sourceid": "cpbA1",
        "propertyid": "HTL003",
        "roomid": "TWN",
        "rateid": "NRF",
        "startdate": start,
        "enddate": end,
        "refundable": "false",
        "action": "getcancellation",
        "policydetails": {"cancellation": cancellation, "deposit": DEPOSIT},
    }


def assert_success(response: httpx.Response) -> None:
    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == "application/json"
    body = response.json()
    assert set(body) == {"success", "trackingid"}
    assert body["success"] is True
    assert isinstance(body["trackingid"], str) and body["trackingid"]


THRESHOLD_RECORD = {
    "startdateymd": "2027-03-01",
    "enddateymd": "2027-03-02",
    "roomid": "DBL",
    "threshold": "5",
}
MAXADV_RECORD = {
    "startdateymd": "2027-04-10",
    "enddateymd": "2027-04-10",
    "roomid": "KNG",
    "rateid": "FLEX",
    "minmaxmessagetype": "maxadvbooking",
    "time": "90",
}


@pytest.mark.parametrize("form", ["list", "object"])
def test_threshold_both_forms(client: httpx.Client, sb: Sandbox, form: str) -> None:
    data = [THRESHOLD_RECORD] if form == "list" else THRESHOLD_RECORD
    assert_success(client.post(URL, json=threshold_body(data)))
    assert sb.state() == {
        "threshold": {"HTL001": {"DBL": {"2027-03-01": "5", "2027-03-02": "5"}}},
        "maxadv": {},
        "policy": {},
    }


@pytest.mark.parametrize("form", ["list", "object"])
def test_maxadv_both_forms(client: httpx.Client, sb: Sandbox, form: str) -> None:
    data = [MAXADV_RECORD] if form == "list" else MAXADV_RECORD
    assert_success(client.post(URL, json=maxadv_body(data)))
    assert sb.state() == {
        "threshold": {},
        "maxadv": {"HTL002": {"KNG": {"FLEX": {"2027-04-10": "90"}}}},
        "policy": {},
    }


@pytest.mark.parametrize("form", ["list", "object"])
def test_policy_both_forms(client: httpx.Client, sb: Sandbox, form: str) -> None:
    cancellation = [RULE_1] if form == "list" else RULE_1
    assert_success(client.post(URL, json=policy_body(cancellation)))
    stored = {"refundable": "false", "policydetails": {"cancellation": [RULE_1], "deposit": DEPOSIT}}
    assert sb.state() == {
        "threshold": {},
        "maxadv": {},
        "policy": {"HTL003": {"TWN": {"NRF": {"2027-05-01": stored, "2027-05-02": stored}}}},
    }


def test_policy_two_levels(client: httpx.Client, sb: Sandbox) -> None:
    assert_success(client.post(URL, json=policy_body([RULE_1, RULE_2], "2027-05-01", "2027-05-01")))
    stored = sb.state()["policy"]["HTL003"]["TWN"]["NRF"]["2027-05-01"]
    assert stored["policydetails"]["cancellation"] == [RULE_1, RULE_2]


def test_start_today_is_accepted(client: httpx.Client) -> None:
    record = {**THRESHOLD_RECORD, "startdateymd": TODAY, "enddateymd": TODAY}
    assert_success(client.post(URL, json=threshold_body([record])))


def test_state_endpoint_matches_python_and_sorts_dates(client: httpx.Client, sb: Sandbox) -> None:
    records = [
        {"startdateymd": "2027-03-10", "enddateymd": "2027-03-10", "roomid": "TWN", "threshold": "1"},
        {"startdateymd": "2027-03-08", "enddateymd": "2027-03-09", "roomid": "TWN", "threshold": "2"},
        {"startdateymd": "2027-03-01", "enddateymd": "2027-03-01", "roomid": "DBL", "threshold": "0"},
    ]
    assert_success(client.post(URL, json=threshold_body(records)))
    state = client.get("/_sandbox/state").json()
    assert state == sb.state()
    assert state == {
        "threshold": {
            "HTL001": {
                "DBL": {"2027-03-01": "0"},
                "TWN": {"2027-03-08": "2", "2027-03-09": "2", "2027-03-10": "1"},
            }
        },
        "maxadv": {},
        "policy": {},
    }
    assert list(state["threshold"]["HTL001"]["TWN"]) == ["2027-03-08", "2027-03-09", "2027-03-10"]


def test_later_push_overrides_and_na_clears(client: httpx.Client, sb: Sandbox) -> None:
    first = {"startdateymd": "2027-03-01", "enddateymd": "2027-03-04", "roomid": "DBL", "threshold": "5"}
    assert_success(client.post(URL, json=threshold_body([first])))
    override = {"startdateymd": "2027-03-02", "enddateymd": "2027-03-02", "roomid": "DBL", "threshold": "9"}
    assert_success(client.post(URL, json=threshold_body([override])))
    clear = {"startdateymd": "2027-03-04", "enddateymd": "2027-03-10", "roomid": "DBL", "threshold": "n/a"}
    assert_success(client.post(URL, json=threshold_body([clear])))
    assert sb.state()["threshold"] == {"HTL001": {"DBL": {"2027-03-01": "5", "2027-03-02": "9", "2027-03-03": "5"}}}
    clear_all = {
        "startdateymd": "2027-03-01",
        "enddateymd": "2027-03-03",
        "roomid": "DBL",
        "threshold": "n/a",
    }
    assert_success(client.post(URL, json=threshold_body([clear_all])))
    assert sb.state() == EMPTY


def test_maxadv_na_clears(client: httpx.Client, sb: Sandbox) -> None:
    assert_success(client.post(URL, json=maxadv_body([MAXADV_RECORD, {**MAXADV_RECORD, "rateid": "BAR"}])))
    assert_success(client.post(URL, json=maxadv_body({**MAXADV_RECORD, "time": "n/a"})))
    assert sb.state()["maxadv"] == {"HTL002": {"KNG": {"BAR": {"2027-04-10": "90"}}}}


def test_same_dates_different_rooms_or_rates_do_not_overlap(client: httpx.Client) -> None:
    assert_success(client.post(URL, json=threshold_body([THRESHOLD_RECORD, {**THRESHOLD_RECORD, "roomid": "TWN"}])))
    assert_success(client.post(URL, json=maxadv_body([MAXADV_RECORD, {**MAXADV_RECORD, "rateid": "NRF"}])))
    adjacent = {**THRESHOLD_RECORD, "startdateymd": "2027-03-03", "enddateymd": "2027-03-04"}
    assert_success(client.post(URL, json=threshold_body([THRESHOLD_RECORD, adjacent])))


@pytest.mark.parametrize(
    "bad",
    [
        {"roomid": "XXX"},
        {"threshold": "1000"},
        {"startdateymd": "2027-03-02", "enddateymd": "2027-03-02"},
    ],
    ids=["unmapped room", "invalid value", "overlap"],
)
def test_request_is_atomic(client: httpx.Client, sb: Sandbox, bad: dict[str, str]) -> None:
    good = {"startdateymd": "2027-03-01", "enddateymd": "2027-03-03", "roomid": "DBL", "threshold": "5"}
    other = {"startdateymd": "2027-03-01", "enddateymd": "2027-03-03", "roomid": "TWN", "threshold": "5"}
    response = client.post(URL, json=threshold_body([good, other, {**good, **bad}]))
    assert response.status_code != 200
    assert sb.state() == EMPTY


def test_received_records_request_and_answer(client: httpx.Client, sb: Sandbox) -> None:
    body = threshold_body([THRESHOLD_RECORD])
    response = client.post(URL + "?x=1", json=body, headers={"X-Test": "yes"})
    (seen,) = sb.received
    assert seen.method == "POST"
    assert seen.path == URL + "?x=1"
    assert seen.headers["x-test"] == "yes"
    assert seen.json == body
    assert seen.body == response.request.content
    assert seen.status == 200
    assert seen.response == response.content
    assert seen.response_json == response.json()
    assert seen.fault is None


def test_received_keeps_non_json_bodies(client: httpx.Client, sb: Sandbox) -> None:
    client.post(URL, content=b"\xff not json")
    (seen,) = sb.received
    assert seen.body == b"\xff not json"
    assert seen.json is None
    assert seen.status == 402


def test_chunked_request_body(client: httpx.Client, sb: Sandbox) -> None:
    import json

    payload = json.dumps(threshold_body([THRESHOLD_RECORD])).encode()
    response = client.post(URL, content=iter([payload[:10], payload[10:]]))
    assert response.request.headers["transfer-encoding"] == "chunked"
    assert_success(response)


def test_reset_over_http(client: httpx.Client, sb: Sandbox) -> None:
    assert_success(client.post(URL, json=threshold_body([THRESHOLD_RECORD])))
    sb.queue_error(503)
    assert client.post("/_sandbox/reset").json() == {"reset": True}
    assert sb.state() == EMPTY
    assert sb.received == []
    assert sb.pending_faults() == []
    assert_success(client.post(URL, json=threshold_body([THRESHOLD_RECORD])))


def test_python_reset(client: httpx.Client, sb: Sandbox) -> None:
    assert_success(client.post(URL, json=threshold_body([THRESHOLD_RECORD])))
    sb.reset()
    assert sb.state() == EMPTY
    assert sb.received == []


def test_start_stop_without_with() -> None:
    sandbox = Sandbox(today=TODAY)
    sandbox.start()
    try:
        assert sandbox.base_url.startswith("http://127.0.0.1:")
        assert sandbox.port != 0
        assert (sandbox.api_key, sandbox.source_id) == ("sandbox-key-0001", "cpbA1")
        response = httpx.post(sandbox.base_url + URL, json=threshold_body([THRESHOLD_RECORD]))
        assert_success(response)
    finally:
        sandbox.stop()
    sandbox.stop()
    with pytest.raises(httpx.ConnectError):
        httpx.post(sandbox.base_url + URL, json=threshold_body([THRESHOLD_RECORD]), timeout=2)


def test_default_fixtures() -> None:
    fixtures = Sandbox().fixtures
    assert [(a.key, a.source_id, a.endpoint_active, a.blocked) for a in fixtures.accounts] == [
        ("sandbox-key-0001", "cpbA1", True, False),
        ("sandbox-key-0002-inactive", "cpbB2", False, False),
        ("sandbox-key-0003-blocked", "cpbC3", True, True),
    ]
    props = fixtures.properties
    assert sorted(props) == ["HTL001", "HTL002", "HTL003", "HTL900"]
    assert props["HTL001"].rooms == {"DBL", "TWN", "SGL", "STE"}
    assert props["HTL001"].rates == {"BAR", "NRF", "BB", "FLEX"}
    assert props["HTL001"].inactive_rooms == {"OLD"}
    assert props["HTL001"].inactive_rates == {"PROMO"}
    assert props["HTL002"].rooms == {"DBL", "KNG", "FAM", "SUI"}
    assert props["HTL002"].rates == {"BAR", "NRF", "FLEX", "BB"}
    assert props["HTL003"].rooms == {"DBL", "TWN"}
    assert props["HTL003"].rates == {"BAR", "NRF"}
    assert not props["HTL900"].active
    assert all(props[p].active for p in ("HTL001", "HTL002", "HTL003"))


def test_custom_fixtures_file(tmp_path: Path) -> None:
    path = tmp_path / "world.toml"
    path.write_text(
        '[[accounts]]\nkey = "k-1"\nsource_id = "cpbZZ"\n\n'
        '[[accounts]]\nkey = "k-2"\nsource_id = "cpbYY"\ndefault = true\n\n'
        '[[properties]]\nid = "P1"\nrooms = ["R1"]\nrates = ["X"]\n'
    )
    with Sandbox(fixtures=path, today=TODAY) as sandbox:
        assert (sandbox.api_key, sandbox.source_id) == ("k-2", "cpbYY")
        body = {
            "sharepost": "k-2",
            "sourceid": "cpbYY",
            "propertyid": "P1",
            "action": "sellthresholdupdate",
            "data": {
                "startdateymd": "2027-03-01",
                "enddateymd": "2027-03-01",
                "roomid": "R1",
                "threshold": "3",
            },
        }
        assert_success(httpx.post(sandbox.base_url + "/v2/push_ari/cpbYY/x", json=body))
        assert sandbox.state()["threshold"] == {"P1": {"R1": {"2027-03-01": "3"}}}


@pytest.mark.parametrize(
    "text",
    [
        "not toml [",
        '[[properties]]\nid = "P"\n',
        '[[accounts]]\nkey = "k"\n',
        '[[accounts]]\nkey = "k"\nsource_id = "cpbA1"\ncolour = "red"\n',
        '[[accounts]]\nkey = "k"\nsource_id = "cpbA1"\n'
        '[[properties]]\nid = "P"\nrooms = ["A"]\ninactive_rooms = ["A"]\n',
    ],
    ids=["syntax", "no accounts", "no source id", "unknown field", "active and inactive"],
)
def test_bad_fixtures_are_refused(tmp_path: Path, text: str) -> None:
    from ari_cli.sandbox import FixtureError

    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(FixtureError):
        Sandbox(fixtures=path)


def test_concurrent_load_keeps_every_connection(sb: Sandbox) -> None:
    body = threshold_body([THRESHOLD_RECORD])
    limits = httpx.Limits(max_connections=16, max_keepalive_connections=16)
    with (
        httpx.Client(base_url=sb.base_url, limits=limits, timeout=10) as http,
        ThreadPoolExecutor(16) as pool,
    ):
        statuses = list(pool.map(lambda _: http.post(URL, json=copy.deepcopy(body)).status_code, range(2000)))
    assert statuses == [200] * 2000
    assert len(sb.received) == 2000
