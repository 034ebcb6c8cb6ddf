"""JSON input in the API's own shapes: request bodies and policies, flattened with their lines."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ari_cli.inputs import ReadOptions, SourceRow, read_rows
from ari_cli.wire.models import Operation
from tests.reading import M, P, T, error, read, write


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)


THRESHOLD_BODY = """{
  "sharepost": "key",
  "sourceid": "cpbAB",
  "propertyid": "H1",
  "action": "sellthresholdupdate",
  "data": [
    {"startdateymd": "2027-01-01", "enddateymd": "2027-01-05", "roomid": "R1", "threshold": "5"},
    {
      "startdateymd": "2027-02-01",
      "enddateymd": "2027-02-03",
      "roomid": "R2",
      "threshold": "n/a"
    }
  ]
}
"""


def test_threshold_body_gives_one_row_per_record_with_the_property() -> None:
    write("body.json", THRESHOLD_BODY)
    assert read("body.json") == [
        SourceRow(
            "body.json",
            7,
            {
                "propertyid": "H1",
                "start": "2027-01-01",
                "end": "2027-01-05",
                "roomid": "R1",
                "threshold": "5",
            },
        ),
        SourceRow(
            "body.json",
            8,
            {
                "propertyid": "H1",
                "start": "2027-02-01",
                "end": "2027-02-03",
                "roomid": "R2",
                "threshold": "n/a",
            },
        ),
    ]
    assert read_rows(["body.json"], T, ReadOptions()).warnings == []


def test_list_of_bodies_with_single_object_data_and_no_sharepost() -> None:
    write(
        "bodies.json",
        '[\n {"propertyid": "H1", "action": "sellthresholdupdate",\n'
        '  "data": {"startdateymd": "2027-01-01", "enddateymd": "2027-01-01", "roomid": "R1",'
        ' "threshold": "1"}},\n'
        ' {"propertyid": "H2", "action": "sellthresholdupdate", "data": [\n'
        '  {"startdateymd": "2027-01-01", "enddateymd": "2027-01-01", "roomid": "R9",'
        ' "threshold": "2"}]}\n]\n',
    )
    got = read("bodies.json")
    assert [(row.line, row.fields["propertyid"], row.fields["roomid"]) for row in got] == [
        (3, "H1", "R1"),
        (5, "H2", "R9"),
    ]


MAXADV_BODY = {
    "sharepost": "key",
    "sourceid": "cpbAB",
    "propertyid": "H1",
    "action": "setadvbookingcondrq",
    "data": [
        {
            "startdateymd": "2027-01-01",
            "enddateymd": "2027-01-05",
            "roomid": "R1",
            "rateid": "BAR",
            "minmaxmessagetype": "maxadvbooking",
            "time": "30",
        }
    ],
}


def test_maxadv_body_drops_the_message_type() -> None:
    write("maxadv.json", json.dumps(MAXADV_BODY, indent=2))
    (row,) = read("maxadv.json", M)
    assert row.line == 7
    assert row.fields == {
        "propertyid": "H1",
        "start": "2027-01-01",
        "end": "2027-01-05",
        "roomid": "R1",
        "rateid": "BAR",
        "time": "30",
    }


def test_maxadv_body_with_another_message_type_is_an_error() -> None:
    body: dict[str, Any] = json.loads(json.dumps(MAXADV_BODY))
    body["data"][0]["minmaxmessagetype"] = "minlos"
    write("maxadv.json", json.dumps(body, indent=2))
    assert error("maxadv.json", M).message == (
        'maxadv.json line 7: minmaxmessagetype must be "maxadvbooking", not "minlos"'
    )


POLICY = {
    "sharepost": "key",
    "sourceid": "cpbAB",
    "propertyid": "H1",
    "roomid": "R1",
    "rateid": "BAR",
    "startdate": "2027-01-01",
    "enddate": "2027-03-31",
    "refundable": "true",
    "action": "getcancellation",
    "policydetails": {
        "cancellation": [
            {
                "policyid": 1,
                "dayspriorcheckin": 7,
                "penaltytype": 3,
                "penaltyamount": 50,
                "penaltyapplied": 3,
                "level": 1,
            },
            {
                "policyid": 1,
                "dayspriorcheckin": 1,
                "penaltytype": 3,
                "penaltyamount": 100,
                "penaltyapplied": 4,
                "level": 2,
            },
        ],
        "deposit": {
            "depositpolicy": "required",
            "deposittype": 3,
            "depositamount": 20,
            "depositapplied": 3,
            "depositintervalunits": 1,
            "deposittimeinterval": 30,
        },
    },
}
POLICY_TOP = {
    "propertyid": "H1",
    "roomid": "R1",
    "rateid": "BAR",
    "start": "2027-01-01",
    "end": "2027-03-31",
    "refundable": "true",
}


def test_policy_shape_flattens_into_one_row_per_cancellation_rule() -> None:
    write("policy.json", json.dumps(POLICY, indent=2))
    got = read("policy.json", P)
    assert [row.line for row in got] == [13, 21]
    deposit = POLICY["policydetails"]["deposit"]  # type: ignore[index]
    rules = POLICY["policydetails"]["cancellation"]  # type: ignore[index]
    assert got[0].fields == {**POLICY_TOP, **deposit, **rules[0]}
    assert got[1].fields == {**POLICY_TOP, **deposit, **rules[1]}


def test_policy_shape_without_action_and_with_a_single_rule_object() -> None:
    policy: dict[str, Any] = json.loads(json.dumps(POLICY))
    del policy["action"], policy["sharepost"], policy["sourceid"]
    policy["policydetails"]["cancellation"] = policy["policydetails"]["cancellation"][0]
    write("policies.jsonl", json.dumps(policy) + "\n\n" + json.dumps(policy) + "\n")
    got = read("policies.jsonl", P)
    assert [row.line for row in got] == [1, 3]
    assert got[0].fields["level"] == 1 and got[0].fields["start"] == "2027-01-01"


@pytest.mark.parametrize(
    ("operation", "content", "message"),
    [
        (T, json.dumps(POLICY), 'this file holds getcancellation bodies; use "ari-cli policy push"'),
        (P, THRESHOLD_BODY, 'this file holds sellthresholdupdate bodies; use "ari-cli threshold push"'),
        (T, json.dumps(MAXADV_BODY), 'this file holds setadvbookingcondrq bodies; use "ari-cli maxadv push"'),
        (
            M,
            json.dumps({"propertyid": "H", "data": [{"roomid": "R", "threshold": "1"}]}),
            'this file holds sellthresholdupdate bodies; use "ari-cli threshold push"',
        ),
        (
            T,
            json.dumps({"propertyid": "H", "policydetails": {}}),
            'this file holds getcancellation bodies; use "ari-cli policy push"',
        ),
    ],
)
def test_a_body_of_another_operation_names_the_right_command(operation: Operation, content: str, message: str) -> None:
    write("body.json", content)
    assert error("body.json", operation).message == f"body.json line 1: {message}"


@pytest.mark.parametrize(
    ("operation", "content", "message"),
    [
        (
            T,
            '{"action": "nosuchaction", "data": []}',
            'line 1: unknown action "nosuchaction"; a threshold body has action "sellthresholdupdate"',
        ),
        (
            T,
            '{"action": "sellthresholdupdate", "propertyid": "H"}',
            'line 1: a sellthresholdupdate body needs "data"',
        ),
        (T, '{"action": "sellthresholdupdate", "data": []}', 'line 1: "data" is empty'),
        (
            T,
            '{"action": "sellthresholdupdate", "data": 5}',
            'line 1: "data" must be an object or a list of objects, found a number',
        ),
        (
            T,
            '{"action": "sellthresholdupdate", "data": [{},\n "x"]}',
            'line 2: each entry of "data" must be an object, found text',
        ),
        (
            P,
            '{"action": "getcancellation", "propertyid": "H"}',
            'line 1: a getcancellation body needs "policydetails"',
        ),
        (P, '{"policydetails": []}', 'line 1: "policydetails" must be an object, found a list'),
        (
            P,
            '{"policydetails":\n {"deposit": {}}}',
            'line 2: "policydetails" needs "cancellation" and "deposit"',
        ),
        (
            P,
            '{"policydetails": {"deposit": 1, "cancellation": {}}}',
            'line 1: "deposit" must be an object, found a number',
        ),
        (P, '{"policydetails": {"deposit": {},\n "cancellation": []}}', 'line 1: "cancellation" is empty'),
    ],
)
def test_malformed_bodies(operation: Operation, content: str, message: str) -> None:
    write("body.json", content)
    assert error("body.json", operation).message == f"body.json {message}"


def test_jsonl_mixes_flat_rows_and_bodies_with_file_lines() -> None:
    body = json.loads(THRESHOLD_BODY)
    flat = {"propertyid": "H3", "roomid": "R3", "date": "2027-05-01", "threshold": 3}
    write("rooms.jsonl", "\n".join(["", json.dumps(flat), "   ", json.dumps(body), json.dumps(flat)]) + "\r\n")
    got = read("rooms.jsonl")
    assert [(row.line, row.fields["roomid"]) for row in got] == [(2, "R3"), (4, "R1"), (4, "R2"), (5, "R3")]
    assert "date" in got[0].fields and "start" in got[1].fields
