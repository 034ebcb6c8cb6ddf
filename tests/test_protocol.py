"""The wire models against bodies written by hand from the spec's field tables.

The expected JSON here is typed out literally, never produced by the models, so that a wrong
field name, type, default or order in `ari_cli.wire.models` fails a test.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from pydantic import BaseModel, ValidationError

from ari_cli.wire.models import (
    ACTIONS,
    BODY_MODELS,
    CLEAR,
    OPERATION_BY_ACTION,
    REQUEST_HEADERS,
    UNUSED_DEPOSIT_INTERVAL,
    CancellationRule,
    Deposit,
    MaxAdvBody,
    MaxAdvRecord,
    Operation,
    PolicyBody,
    PolicyDetails,
    PushResponse,
    ThresholdBody,
    ThresholdRecord,
    dump_body,
    path_segment,
    push_url,
)

# --- hand-written bodies, fields in the order of the spec's Endpoints and field tables ----------

THRESHOLD_LIST_JSON = (
    '{"sharepost": "<API_KEY>", "sourceid": "cpb01", "propertyid": "H100", '
    '"action": "sellthresholdupdate", "data": ['
    '{"startdateymd": "2027-01-05", "enddateymd": "2027-01-10", "roomid": "R1", "threshold": "5"}, '
    '{"startdateymd": "2027-02-01", "enddateymd": "2027-02-01", "roomid": "R2", "threshold": "n/a"}]}'
)
THRESHOLD_OBJECT_JSON = (
    '{"sharepost": "<API_KEY>", "sourceid": "cpb01", "propertyid": "H100", '
    '"action": "sellthresholdupdate", "data": '
    '{"startdateymd": "2027-01-05", "enddateymd": "2027-01-10", "roomid": "R1", "threshold": "0"}}'
)
MAXADV_LIST_JSON = (
    '{"sharepost": "<API_KEY>", "sourceid": "cpb01", "propertyid": "H100", '
    '"action": "setadvbookingcondrq", "data": ['
    '{"startdateymd": "2027-01-05", "enddateymd": "2027-03-31", "roomid": "R1", "rateid": "BAR", '
    '"minmaxmessagetype": "maxadvbooking", "time": "90"}, '
    '{"startdateymd": "2027-04-01", "enddateymd": "2027-04-30", "roomid": "R1", "rateid": "NRF", '
    '"minmaxmessagetype": "maxadvbooking", "time": "n/a"}]}'
)
MAXADV_OBJECT_JSON = (
    '{"sharepost": "<API_KEY>", "sourceid": "cpb01", "propertyid": "H100", '
    '"action": "setadvbookingcondrq", "data": '
    '{"startdateymd": "2027-01-05", "enddateymd": "2027-03-31", "roomid": "R1", "rateid": "BAR", '
    '"minmaxmessagetype": "maxadvbooking", "time": "999"}}'
)
POLICY_LIST_JSON = (
    '{"sharepost": "<API_KEY>", "sourceid": "cpb01", "propertyid": "H100", "roomid": "R1", '
    '"rateid": "BAR", "startdate": "2027-01-05", "enddate": "2027-03-31", "refundable": "true", '
    '"action": "getcancellation", "policydetails": {"cancellation": ['
    '{"policyid": 2, "dayspriorcheckin": 7, "penaltytype": 3, "penaltyamount": 50, '
    '"penaltyapplied": 3, "level": 1}, '
    '{"policyid": 2, "dayspriorcheckin": 0, "penaltytype": 3, "penaltyamount": 100, '
    '"penaltyapplied": 4, "level": 2}], '
    '"deposit": {"depositpolicy": "required", "deposittype": 3, "depositamount": 20, '
    '"depositapplied": 3, "depositintervalunits": 1, "deposittimeinterval": 30}}}'
)
POLICY_OBJECT_JSON = (
    '{"sharepost": "<API_KEY>", "sourceid": "cpb01", "propertyid": "H100", "roomid": "R1", '
    '"rateid": "NRF", "startdate": "2027-01-05", "enddate": "2027-01-05", "refundable": "false", '
    '"action": "getcancellation", "policydetails": {"cancellation": '
    '{"policyid": 1, "dayspriorcheckin": 0, "penaltytype": 3, "penaltyamount": 100, '
    '"penaltyapplied": 4, "level": 1}, '
    '"deposit": {"depositpolicy": "required", "deposittype": 3, "depositamount": 100, '
    '"depositapplied": 4, "depositintervalunits": 0, "deposittimeinterval": 0}}}'
)
ALL_BODIES_JSON = [
    pytest.param(ThresholdBody, THRESHOLD_LIST_JSON, id="threshold-list"),
    pytest.param(ThresholdBody, THRESHOLD_OBJECT_JSON, id="threshold-object"),
    pytest.param(MaxAdvBody, MAXADV_LIST_JSON, id="maxadv-list"),
    pytest.param(MaxAdvBody, MAXADV_OBJECT_JSON, id="maxadv-object"),
    pytest.param(PolicyBody, POLICY_LIST_JSON, id="policy-list"),
    pytest.param(PolicyBody, POLICY_OBJECT_JSON, id="policy-object"),
]

ENVELOPE = {"sharepost": "<API_KEY>", "sourceid": "cpb01", "propertyid": "H100"}


def _threshold_list_model() -> ThresholdBody:
    # action is left to its default on purpose: the dump must still carry it.
    return ThresholdBody(
        sharepost="<API_KEY>",
        sourceid="cpb01",
        propertyid="H100",
        data=[
            ThresholdRecord(startdateymd="2027-01-05", enddateymd="2027-01-10", roomid="R1", threshold="5"),
            ThresholdRecord(startdateymd="2027-02-01", enddateymd="2027-02-01", roomid="R2", threshold=CLEAR),
        ],
    )


def _threshold_object_model() -> ThresholdBody:
    return ThresholdBody(
        sharepost="<API_KEY>",
        sourceid="cpb01",
        propertyid="H100",
        action="sellthresholdupdate",
        data=ThresholdRecord(startdateymd="2027-01-05", enddateymd="2027-01-10", roomid="R1", threshold="0"),
    )


def _maxadv_list_model() -> MaxAdvBody:
    # minmaxmessagetype is left to its default on purpose: the dump must still carry it.
    return MaxAdvBody(
        sharepost="<API_KEY>",
        sourceid="cpb01",
        propertyid="H100",
        data=[
            MaxAdvRecord(startdateymd="2027-01-05", enddateymd="2027-03-31", roomid="R1", rateid="BAR", time="90"),
            MaxAdvRecord(startdateymd="2027-04-01", enddateymd="2027-04-30", roomid="R1", rateid="NRF", time="n/a"),
        ],
    )


def _maxadv_object_model() -> MaxAdvBody:
    return MaxAdvBody(
        sharepost="<API_KEY>",
        sourceid="cpb01",
        propertyid="H100",
        action="setadvbookingcondrq",
        data=MaxAdvRecord(
            startdateymd="2027-01-05",
            enddateymd="2027-03-31",
            roomid="R1",
            rateid="BAR",
            minmaxmessagetype="maxadvbooking",
            time="999",
        ),
    )


def _policy_list_model() -> PolicyBody:
    return PolicyBody(
        sharepost="<API_KEY>",
        sourceid="cpb01",
        propertyid="H100",
        roomid="R1",
        rateid="BAR",
        startdate="2027-01-05",
        enddate="2027-03-31",
        refundable="true",
        policydetails=PolicyDetails(
            cancellation=[
                CancellationRule(
                    policyid=2, dayspriorcheckin=7, penaltytype=3, penaltyamount=50, penaltyapplied=3, level=1
                ),
                CancellationRule(
                    policyid=2,
                    dayspriorcheckin=0,
                    penaltytype=3,
                    penaltyamount=100,
                    penaltyapplied=4,
                    level=2,
                ),
            ],
            deposit=Deposit(
                depositpolicy="required",
                deposittype=3,
                depositamount=20,
                depositapplied=3,
                depositintervalunits=1,
                deposittimeinterval=30,
            ),
        ),
    )


def _policy_object_model() -> PolicyBody:
    return PolicyBody(
        sharepost="<API_KEY>",
        sourceid="cpb01",
        propertyid="H100",
        roomid="R1",
        rateid="NRF",
        startdate="2027-01-05",
        enddate="2027-01-05",
        refundable="false",
        action="getcancellation",
        policydetails=PolicyDetails(
            cancellation=CancellationRule(
                policyid=1, dayspriorcheckin=0, penaltytype=3, penaltyamount=100, penaltyapplied=4, level=1
            ),
            deposit=Deposit(
                depositpolicy="required",
                deposittype=3,
                depositamount=100,
                depositapplied=4,
                depositintervalunits=0,
                deposittimeinterval=UNUSED_DEPOSIT_INTERVAL,
            ),
        ),
    )


BUILT_VS_HAND = [
    pytest.param(_threshold_list_model, THRESHOLD_LIST_JSON, id="threshold-list"),
    pytest.param(_threshold_object_model, THRESHOLD_OBJECT_JSON, id="threshold-object"),
    pytest.param(_maxadv_list_model, MAXADV_LIST_JSON, id="maxadv-list"),
    pytest.param(_maxadv_object_model, MAXADV_OBJECT_JSON, id="maxadv-object"),
    pytest.param(_policy_list_model, POLICY_LIST_JSON, id="policy-list"),
    pytest.param(_policy_object_model, POLICY_OBJECT_JSON, id="policy-object"),
]


@pytest.mark.parametrize(("build", "expected"), BUILT_VS_HAND)
def test_dumped_body_equals_hand_written_json(build: Any, expected: str) -> None:
    dumped = dump_body(build())
    assert dumped == json.loads(expected)
    # The string comparison also pins the key order, which dict equality ignores.
    assert json.dumps(dumped) == expected


def test_threshold_dict_written_from_field_table() -> None:
    assert dump_body(_threshold_object_model()) == {
        "sharepost": "<API_KEY>",
        "sourceid": "cpb01",
        "propertyid": "H100",
        "action": "sellthresholdupdate",
        "data": {"startdateymd": "2027-01-05", "enddateymd": "2027-01-10", "roomid": "R1", "threshold": "0"},
    }


def test_policy_key_order_matches_endpoints_table() -> None:
    assert list(dump_body(_policy_list_model())) == [
        "sharepost",
        "sourceid",
        "propertyid",
        "roomid",
        "rateid",
        "startdate",
        "enddate",
        "refundable",
        "action",
        "policydetails",
    ]
    details = dump_body(_policy_list_model())["policydetails"]
    assert list(details) == ["cancellation", "deposit"]
    assert list(details["cancellation"][0]) == [
        "policyid",
        "dayspriorcheckin",
        "penaltytype",
        "penaltyamount",
        "penaltyapplied",
        "level",
    ]
    assert list(details["deposit"]) == [
        "depositpolicy",
        "deposittype",
        "depositamount",
        "depositapplied",
        "depositintervalunits",
        "deposittimeinterval",
    ]


@pytest.mark.parametrize(("model", "text"), ALL_BODIES_JSON)
def test_hand_written_body_parses_and_round_trips(model: Any, text: str) -> None:
    body = model.model_validate_json(text)
    assert json.dumps(dump_body(body)) == text
    assert model.model_validate(json.loads(text)) == body


@pytest.mark.parametrize(("model", "text"), ALL_BODIES_JSON)
def test_container_form_is_kept(model: Any, text: str, request: pytest.FixtureRequest) -> None:
    dumped = dump_body(model.model_validate_json(text))
    container = dumped["policydetails"]["cancellation"] if model is PolicyBody else dumped["data"]
    assert isinstance(container, list) is request.node.callspec.id.endswith("-list")


def test_policy_rules_gives_a_list_in_both_forms() -> None:
    assert [r.level for r in _policy_list_model().policydetails.rules] == [1, 2]
    assert [r.level for r in _policy_object_model().policydetails.rules] == [1]


def test_actions_and_models() -> None:
    assert ACTIONS == {
        Operation.THRESHOLD: "sellthresholdupdate",
        Operation.POLICY: "getcancellation",
        Operation.MAXADV: "setadvbookingcondrq",
    }
    assert OPERATION_BY_ACTION == {
        "sellthresholdupdate": Operation.THRESHOLD,
        "getcancellation": Operation.POLICY,
        "setadvbookingcondrq": Operation.MAXADV,
    }
    models = {Operation.THRESHOLD: ThresholdBody, Operation.POLICY: PolicyBody, Operation.MAXADV: MaxAdvBody}
    assert models == BODY_MODELS
    assert Operation.MAXADV.action == "setadvbookingcondrq"


def test_url_and_headers() -> None:
    assert push_url("https://api.example.com/", "cpb01", "sellthresholdupdate") == (
        "https://api.example.com/v2/push_ari/cpb01/sellthresholdupdate"
    )
    assert path_segment("{action}", "getcancellation", "H1") == "getcancellation"
    assert path_segment("{propertyid}/{action}", "getcancellation", "H1") == "H1/getcancellation"
    assert path_segment("{propertyid}", "x", "H 1/2") == "H%201%2F2"
    assert REQUEST_HEADERS == {"accept": "application/json", "content-type": "application/json"}


# --- every field constraint: accepted boundaries and rejected values -----------------------------

THRESHOLD_RECORD: dict[str, Any] = {
    "startdateymd": "2027-01-05",
    "enddateymd": "2027-01-10",
    "roomid": "R1",
    "threshold": "5",
}
MAXADV_RECORD: dict[str, Any] = {
    "startdateymd": "2027-01-05",
    "enddateymd": "2027-01-10",
    "roomid": "R1",
    "rateid": "BAR",
    "minmaxmessagetype": "maxadvbooking",
    "time": "30",
}
RULE: dict[str, Any] = {
    "policyid": 1,
    "dayspriorcheckin": 3,
    "penaltytype": 3,
    "penaltyamount": 50,
    "penaltyapplied": 3,
    "level": 1,
}
DEPOSIT: dict[str, Any] = {
    "depositpolicy": "required",
    "deposittype": 3,
    "depositamount": 50,
    "depositapplied": 3,
    "depositintervalunits": 1,
    "deposittimeinterval": 5,
}


def _policy(**top: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        **ENVELOPE,
        "roomid": "R1",
        "rateid": "BAR",
        "startdate": "2027-01-05",
        "enddate": "2027-01-10",
        "refundable": "true",
        "action": "getcancellation",
        "policydetails": {"cancellation": [dict(RULE)], "deposit": dict(DEPOSIT)},
    }
    body.update(top)
    return body


def _accepts(model: type[BaseModel], data: dict[str, Any]) -> bool:
    """Validate both from Python and from JSON text; the two paths must agree."""
    try:
        model.model_validate(data)
        from_python = True
    except ValidationError:
        from_python = False
    try:
        model.model_validate_json(json.dumps(data))
        from_json = True
    except ValidationError:
        from_json = False
    assert from_python == from_json, f"python and JSON validation disagree on {data}"
    return from_python


@pytest.mark.parametrize(
    ("value", "ok"),
    [
        ("0", True),
        ("1", True),
        ("999", True),
        ("n/a", True),
        ("-1", False),
        ("1000", False),
        ("05", False),
        ("00", False),
        ("abc", False),
        ("", False),
        (" 5", False),
        ("5.0", False),
        ("N/A", False),
        (5, False),
        (0, False),
        (None, False),
    ],
)
def test_threshold_values(value: Any, ok: bool) -> None:
    assert _accepts(ThresholdRecord, {**THRESHOLD_RECORD, "threshold": value}) is ok


@pytest.mark.parametrize(
    ("value", "ok"),
    [
        ("1", True),
        ("999", True),
        ("n/a", True),
        ("0", False),
        ("-1", False),
        ("1000", False),
        ("05", False),
        ("abc", False),
        (30, False),
    ],
)
def test_time_values(value: Any, ok: bool) -> None:
    assert _accepts(MaxAdvRecord, {**MAXADV_RECORD, "time": value}) is ok


@pytest.mark.parametrize(
    ("value", "ok"),
    [("maxadvbooking", True), ("minadvbooking", False), ("MAXADVBOOKING", False), ("", False)],
)
def test_minmaxmessagetype(value: str, ok: bool) -> None:
    assert _accepts(MaxAdvRecord, {**MAXADV_RECORD, "minmaxmessagetype": value}) is ok


DATE_CASES = [
    ("2027-01-05", True),
    ("2028-02-29", True),
    ("2027-1-5", False),
    ("2027-02-30", False),
    ("2027-02-29", False),
    ("20270105", False),
    ("05/01/2027", False),
    ("2027-01-05T00:00:00", False),
    ("today", False),
    ("", False),
]


@pytest.mark.parametrize(("value", "ok"), DATE_CASES)
@pytest.mark.parametrize("field", ["startdateymd", "enddateymd"])
def test_record_dates(field: str, value: str, ok: bool) -> None:
    assert _accepts(ThresholdRecord, {**THRESHOLD_RECORD, field: value}) is ok
    assert _accepts(MaxAdvRecord, {**MAXADV_RECORD, field: value}) is ok


@pytest.mark.parametrize(("value", "ok"), DATE_CASES)
@pytest.mark.parametrize("field", ["startdate", "enddate"])
def test_policy_dates(field: str, value: str, ok: bool) -> None:
    assert _accepts(PolicyBody, _policy(**{field: value})) is ok


INT_FIELD_CASES: list[tuple[str, Any, bool]] = [
    ("policyid", 1, True),
    ("policyid", 5, True),
    ("policyid", 0, False),
    ("policyid", 6, False),
    ("dayspriorcheckin", 0, True),
    ("dayspriorcheckin", 365, True),
    ("dayspriorcheckin", -1, False),
    ("penaltytype", 3, True),
    ("penaltytype", 2, False),
    ("penaltytype", 1, False),
    ("penaltyamount", 1, True),
    ("penaltyamount", 100, True),
    ("penaltyamount", 0, False),
    ("penaltyamount", 101, False),
    ("penaltyapplied", 3, True),
    ("penaltyapplied", 4, True),
    ("penaltyapplied", 2, False),
    ("penaltyapplied", 5, False),
    ("level", 1, True),
    ("level", 2, True),
    ("level", 0, False),
    ("level", 3, False),
]
# Strictness: a policy number is a JSON integer, not its text, a boolean or a float.
for _field in RULE:
    INT_FIELD_CASES += [
        (_field, str(RULE[_field]), False),
        (_field, float(RULE[_field]), False),
        (_field, None, False),
    ]
INT_FIELD_CASES += [("policyid", True, False), ("level", True, False), ("penaltyapplied", True, False)]


@pytest.mark.parametrize(("field", "value", "ok"), INT_FIELD_CASES)
def test_cancellation_rule_fields(field: str, value: Any, ok: bool) -> None:
    assert _accepts(CancellationRule, {**RULE, field: value}) is ok


DEPOSIT_CASES: list[tuple[dict[str, Any], bool]] = [
    ({"depositpolicy": "required"}, True),
    ({"depositpolicy": "not required"}, True),
    ({"depositpolicy": "Required"}, False),
    ({"depositpolicy": "notrequired"}, False),
    ({"depositpolicy": True}, False),
    ({"deposittype": 3}, True),
    ({"deposittype": 2}, False),
    ({"deposittype": "3"}, False),
    ({"depositamount": 1}, True),
    ({"depositamount": 100}, True),
    ({"depositamount": 0}, False),
    ({"depositamount": 101}, False),
    ({"depositamount": "50"}, False),
    ({"depositamount": True}, False),
    ({"depositapplied": 3}, True),
    ({"depositapplied": 4}, True),
    ({"depositapplied": 2}, False),
    ({"depositapplied": "4"}, False),
    ({"depositintervalunits": 2}, False),
    ({"depositintervalunits": "1"}, False),
    ({"depositintervalunits": True}, False),
    ({"depositintervalunits": 1.0}, False),
    ({"depositintervalunits": False, "deposittimeinterval": 0}, False),
    ({"deposittimeinterval": "5"}, False),
    ({"deposittimeinterval": True, "depositintervalunits": 1}, False),
]
DEPOSIT_CASES += [
    ({"depositintervalunits": 1, "deposittimeinterval": days}, True) for days in (1, 2, 9, 10, 30, 45, 60)
]
DEPOSIT_CASES += [
    ({"depositintervalunits": 1, "deposittimeinterval": days}, False)
    for days in (0, -1, 11, 29, 31, 44, 46, 59, 61, 90)
]
DEPOSIT_CASES += [
    ({"depositintervalunits": 0, "deposittimeinterval": 0}, True),
    # Ignored by the service with units 0, so any allowed interval passes; nonsense still fails.
    ({"depositintervalunits": 0, "deposittimeinterval": 1}, True),
    ({"depositintervalunits": 0, "deposittimeinterval": 30}, True),
    ({"depositintervalunits": 0, "deposittimeinterval": 11}, False),
    ({"depositintervalunits": 0, "deposittimeinterval": -1}, False),
]


@pytest.mark.parametrize(("change", "ok"), DEPOSIT_CASES)
def test_deposit_fields(change: dict[str, Any], ok: bool) -> None:
    assert _accepts(Deposit, {**DEPOSIT, **change}) is ok


def test_unused_deposit_interval_is_zero() -> None:
    assert UNUSED_DEPOSIT_INTERVAL == 0


@pytest.mark.parametrize(
    ("refundable", "depositpolicy", "ok"),
    [
        ("true", "required", True),
        ("true", "not required", True),
        ("false", "required", True),
        ("false", "not required", False),
        ("TRUE", "required", False),
        ("False", "required", False),
        ("yes", "required", False),
        (True, "required", False),
        (False, "required", False),
    ],
)
def test_refundable_and_deposit_policy(refundable: Any, depositpolicy: str, ok: bool) -> None:
    body = _policy(refundable=refundable)
    body["policydetails"]["deposit"]["depositpolicy"] = depositpolicy
    assert _accepts(PolicyBody, body) is ok


@pytest.mark.parametrize(
    ("cancellation", "ok"),
    [
        ([{**RULE, "level": 1}], True),
        ([{**RULE, "level": 2}], True),
        ([{**RULE, "level": 1}, {**RULE, "level": 2}], True),
        ({**RULE, "level": 2}, True),
        ([{**RULE, "level": 1}, {**RULE, "level": 1}], False),
        ([{**RULE, "level": 2}, {**RULE, "level": 2}], False),
        ([{**RULE, "level": 1}, {**RULE, "level": 2}, {**RULE, "level": 1}], False),
        ([], False),
        (None, False),
    ],
)
def test_cancellation_container_and_levels(cancellation: Any, ok: bool) -> None:
    body = _policy()
    body["policydetails"]["cancellation"] = cancellation
    assert _accepts(PolicyBody, body) is ok


@pytest.mark.parametrize("missing", ["cancellation", "deposit"])
def test_policydetails_needs_both_parts(missing: str) -> None:
    body = _policy()
    del body["policydetails"][missing]
    assert not _accepts(PolicyBody, body)


@pytest.mark.parametrize(
    ("value", "ok"),
    [
        ("cpb01", True),
        ("cpbAB", True),
        ("cpbz9", True),
        ("cpx12", False),
        ("cpbABC", False),
        ("cpb1", False),
        ("cpb", False),
        ("CPB01", False),
        ("cpb01\n", False),
        ("cpb 1", False),
        ("cpb/1", False),
        ("", False),
    ],
)
def test_sourceid(value: str, ok: bool) -> None:
    threshold = {**ENVELOPE, "action": "sellthresholdupdate", "data": [THRESHOLD_RECORD], "sourceid": value}
    assert _accepts(ThresholdBody, threshold) is ok
    assert _accepts(PolicyBody, _policy(sourceid=value)) is ok


@pytest.mark.parametrize("field", ["sharepost", "propertyid"])
def test_envelope_strings_must_not_be_empty(field: str) -> None:
    assert not _accepts(PolicyBody, _policy(**{field: ""}))
    assert not _accepts(ThresholdBody, {**ENVELOPE, "data": THRESHOLD_RECORD, field: ""})


@pytest.mark.parametrize("field", ["roomid", "rateid"])
def test_ids_must_not_be_empty(field: str) -> None:
    assert not _accepts(PolicyBody, _policy(**{field: ""}))
    assert not _accepts(MaxAdvRecord, {**MAXADV_RECORD, field: ""})


@pytest.mark.parametrize(
    ("model", "body"),
    [
        pytest.param(ThresholdBody, {**ENVELOPE, "data": THRESHOLD_RECORD}, id="threshold"),
        pytest.param(MaxAdvBody, {**ENVELOPE, "data": MAXADV_RECORD}, id="maxadv"),
        pytest.param(PolicyBody, _policy(), id="policy"),
    ],
)
class TestBodies:
    def test_valid_base(self, model: type[BaseModel], body: dict[str, Any]) -> None:
        assert _accepts(model, body)

    def test_empty_data_list_rejected(self, model: type[BaseModel], body: dict[str, Any]) -> None:
        body = json.loads(json.dumps(body))
        if model is PolicyBody:
            body["policydetails"]["cancellation"] = []
        else:
            body["data"] = []
        assert not _accepts(model, body)

    @pytest.mark.parametrize(
        "wrong", ["sellthresholdupdate", "getcancellation", "setadvbookingcondrq", "push", "", None]
    )
    def test_wrong_action_rejected(self, model: type[BaseModel], body: dict[str, Any], wrong: Any) -> None:
        right = {ThresholdBody: "sellthresholdupdate", MaxAdvBody: "setadvbookingcondrq"}.get(model, "getcancellation")
        assert _accepts(model, {**body, "action": wrong}) is (wrong == right)

    @pytest.mark.parametrize("name", ["notes", "Sharepost", "propertyId", "trackingid"])
    def test_unknown_top_level_field_rejected(self, model: type[BaseModel], body: dict[str, Any], name: str) -> None:
        assert not _accepts(model, {**body, name: "x"})

    def test_unknown_nested_field_rejected(self, model: type[BaseModel], body: dict[str, Any]) -> None:
        body = json.loads(json.dumps(body))
        if model is PolicyBody:
            body["policydetails"]["cancellation"][0]["extra"] = 1
            assert not _accepts(model, body)
            body = _policy()
            body["policydetails"]["deposit"]["extra"] = 1
            assert not _accepts(model, body)
            body = _policy()
            body["policydetails"]["extra"] = 1
        else:
            body["data"]["extra"] = "1"
        assert not _accepts(model, body)

    @pytest.mark.parametrize("field", ["sharepost", "sourceid", "propertyid"])
    def test_envelope_fields_required(self, model: type[BaseModel], body: dict[str, Any], field: str) -> None:
        assert not _accepts(model, {k: v for k, v in body.items() if k != field})


@pytest.mark.parametrize("field", list(THRESHOLD_RECORD))
def test_threshold_record_fields_required(field: str) -> None:
    assert not _accepts(ThresholdRecord, {k: v for k, v in THRESHOLD_RECORD.items() if k != field})


@pytest.mark.parametrize("field", [f for f in MAXADV_RECORD if f != "minmaxmessagetype"])
def test_maxadv_record_fields_required(field: str) -> None:
    assert not _accepts(MaxAdvRecord, {k: v for k, v in MAXADV_RECORD.items() if k != field})


@pytest.mark.parametrize("field", list(RULE))
def test_rule_fields_required(field: str) -> None:
    assert not _accepts(CancellationRule, {k: v for k, v in RULE.items() if k != field})


@pytest.mark.parametrize("field", list(DEPOSIT))
def test_deposit_fields_required(field: str) -> None:
    assert not _accepts(Deposit, {k: v for k, v in DEPOSIT.items() if k != field})


@pytest.mark.parametrize("field", ["roomid", "rateid", "startdate", "enddate", "refundable", "policydetails"])
def test_policy_top_fields_required(field: str) -> None:
    assert not _accepts(PolicyBody, {k: v for k, v in _policy().items() if k != field})


def test_data_list_of_many_records() -> None:
    records = [{**THRESHOLD_RECORD, "roomid": f"R{i}"} for i in range(50)]
    body = ThresholdBody.model_validate({**ENVELOPE, "data": records})
    assert [r["roomid"] for r in dump_body(body)["data"]] == [f"R{i}" for i in range(50)]


# --- the response -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "success", "trackingid", "errors"),
    [
        ('{"success": true, "trackingid": "<tracking_id>"}', True, "<tracking_id>", None),
        (
            '{"success": false, "errors": [{"code": 440, "message": "invalid source id"}], '
            '"trackingid": "<tracking_id>"}',
            False,
            "<tracking_id>",
            [(440, "invalid source id")],
        ),
        (
            '{"success": false, "errors": [{"code": 404, "message": "invalid start date"}]}',
            False,
            None,
            [(404, "invalid start date")],
        ),
        ("{}", None, None, None),
    ],
)
def test_response_parses(text: str, success: bool | None, trackingid: str | None, errors: Any) -> None:
    response = PushResponse.model_validate_json(text)
    assert response.success is success
    assert response.trackingid == trackingid
    if errors is None:
        assert response.errors is None
    else:
        assert [(e.code, e.message) for e in response.errors or []] == errors


def test_response_tolerates_extras_and_null_message() -> None:
    response = PushResponse.model_validate_json(
        '{"success": false, "errors": [{"code": 452, "message": null}], "trackingid": "t1", "extra": 1}'
    )
    assert response.errors is not None
    assert (response.errors[0].code, response.errors[0].message) == (452, "")
