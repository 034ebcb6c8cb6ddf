"""JSON and JSON Lines: flat rows, API request bodies, policies, and the line of every object."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ari_cli.exits import InputError
from ari_cli.inputs import ReadOptions, SourceRow, read_rows
from ari_cli.inputs.jsonfile import load_json
from ari_cli.protocol import Operation

T, M, P = Operation.THRESHOLD, Operation.MAXADV, Operation.POLICY


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)


def write(name: str, content: str) -> str:
    Path(name).write_text(content, encoding="utf-8")
    return name


def read(name: str, operation: Operation = T) -> list[SourceRow]:
    return list(read_rows([name], operation, ReadOptions()).rows)


def lines(name: str, operation: Operation = T) -> list[int]:
    return [row.line for row in read(name, operation)]


def error(name: str, operation: Operation = T) -> InputError:
    with pytest.raises(InputError) as caught:
        read(name, operation)
    return caught.value


FLAT = """[
  {"propertyid": "H1", "roomid": "R1", "start": "2027-01-01", "end": "2027-01-05", "threshold": 5},
  {
    "Property ID": "H1",
    "Room": "R2",
    "From": "2027-02-01", "To": "2027-02-03",
    "Sell Threshold": "n/a"
  }
]
"""


def test_flat_rows_keep_values_as_parsed_and_their_lines() -> None:
    write("rooms.json", FLAT)
    assert read("rooms.json") == [
        SourceRow(
            "rooms.json",
            2,
            {"propertyid": "H1", "roomid": "R1", "start": "2027-01-01", "end": "2027-01-05", "threshold": 5},
        ),
        SourceRow(
            "rooms.json",
            3,
            {
                "propertyid": "H1",
                "roomid": "R2",
                "start": "2027-02-01",
                "end": "2027-02-03",
                "threshold": "n/a",
            },
        ),
    ]


def test_scalars_stay_as_parsed_and_rows_are_a_list() -> None:
    write(
        "policy.json",
        json.dumps(
            {
                "propertyid": 7,
                "roomid": "R",
                "rateid": "BAR",
                "date": "2027-01-01",
                "refundable": True,
                "level": 1.0,
                "policyid": None,
                "dayspriorcheckin": 3,
                "penaltytype": 3,
                "penaltyamount": 50,
                "penaltyapplied": 3,
                "depositpolicy": "required",
                "deposittype": 3,
                "depositamount": 10,
                "depositapplied": 3,
                "depositintervalunits": 0,
            }
        ),
    )
    result = read_rows(["policy.json"], P, ReadOptions())
    assert isinstance(result.rows, list)
    fields = result.rows[0].fields
    assert (fields["propertyid"], fields["refundable"], fields["level"], fields["policyid"]) == (
        7,
        True,
        1.0,
        None,
    )
    assert result.rows[0].line == 1


def test_unused_keys_warn_once() -> None:
    write(
        "rooms.json",
        '[{"propertyid":"H","roomid":"R","date":"2027-01-01","threshold":1,"notes":{"a":1}},'
        '{"propertyid":"H","roomid":"R","date":"2027-01-02","threshold":1,"notes":"x","rateid":"B"}]',
    )
    result = read_rows(["rooms.json"], T, ReadOptions())
    assert result.warnings == ["rooms.json: ignored keys notes, rateid (not used by threshold)"]


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
def test_a_body_of_another_operation_names_the_right_command(
    operation: Operation, content: str, message: str
) -> None:
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


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("5", "line 1: expected a list of row objects or one object, found a number"),
        ('"text"', "line 1: expected a list of row objects or one object, found text"),
        (
            '[\n  {"roomid": "R"},\n  [1, 2]\n]',
            "line 3: expected an object (a row or a request body), found a list",
        ),
        ("[\n  null\n]", "line 2: expected an object (a row or a request body), found null"),
        (
            '[{"roomid": {"id": "R"}}]',
            'line 1: "roomid" holds an object; a value must be text, a number, true/false or null',
        ),
        (
            '[\n{"roomid": "R",\n "threshold": [1]}]',
            'line 2: "threshold" holds a list; a value must be text, a number, true/false or null',
        ),
    ],
)
def test_shapes_that_are_not_rows(content: str, message: str) -> None:
    write("rooms.json", content)
    assert error("rooms.json").message == f"rooms.json {message}"


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (
            '[\n  {"roomid": "R"\n  "threshold": 1}\n]',
            "rooms.json line 3 column 3: not valid JSON: Expecting ',' delimiter",
        ),
        ('[\n  {"roomid": }\n]', "rooms.json line 2 column 14: not valid JSON: Expecting value"),
        ("[1,", "rooms.json line 1 column 4: not valid JSON: Expecting value"),
    ],
)
def test_malformed_json_names_line_and_column(content: str, message: str) -> None:
    write("rooms.json", content)
    assert error("rooms.json").message == message


def test_json_lines_in_a_json_file_hint_at_jsonl() -> None:
    write("rooms.json", '{"roomid": "R1"}\n{"roomid": "R2"}\n')
    problem = error("rooms.json")
    assert problem.message == "rooms.json line 2 column 1: not valid JSON: Extra data"
    assert problem.hint is not None and ".jsonl" in problem.hint


@pytest.mark.parametrize("content", ["", "  \n", "[]", "[ ]\n"])
def test_empty_json_gives_no_rows(content: str) -> None:
    write("rooms.json", content)
    assert read("rooms.json") == []


def test_jsonl_mixes_flat_rows_and_bodies_with_file_lines() -> None:
    body = json.loads(THRESHOLD_BODY)
    flat = {"propertyid": "H3", "roomid": "R3", "date": "2027-05-01", "threshold": 3}
    write(
        "rooms.jsonl", "\n".join(["", json.dumps(flat), "   ", json.dumps(body), json.dumps(flat)]) + "\r\n"
    )
    got = read("rooms.jsonl")
    assert [(row.line, row.fields["roomid"]) for row in got] == [(2, "R3"), (4, "R1"), (4, "R2"), (5, "R3")]
    assert "date" in got[0].fields and "start" in got[1].fields


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"roomid": "R"}\n{"roomid": \n', "rooms.jsonl line 2 column 12: not valid JSON: Expecting value"),
        (
            '{"roomid": "R"}\n\n[1]\n',
            "rooms.jsonl line 3: expected an object (a row or a request body), found a list",
        ),
    ],
)
def test_jsonl_errors_name_the_line(content: str, message: str) -> None:
    write("rooms.jsonl", content)
    assert error("rooms.jsonl").message == message


def test_keys_are_checked_like_columns() -> None:
    write(
        "rooms.json",
        '[\n{"propertyid": "H", "roomid": "R", "date": "2027-01-01", "treshold": 1},\n'
        '{"propertyid": "H", "room": "R", "roomid": "R", "date": "2027-01-01", "threshold": 1}]',
    )
    assert error("rooms.json").message.splitlines()[:2] == [
        'rooms.json: key "treshold" is not known; did you mean "threshold"?',
        'rooms.json line 3: keys "room" and "roomid" both give roomid',
    ]


def test_missing_keys_are_checked_over_the_whole_file() -> None:
    write("rooms.json", '[{"propertyid": "H", "roomid": "R", "start": "2027-01-01"}, {"end": "2027-01-02"}]')
    assert error("rooms.json").message.splitlines()[0] == "rooms.json: missing key threshold"


def test_an_object_lacking_a_key_other_objects_have_simply_lacks_it() -> None:
    write(
        "rooms.json",
        '[{"propertyid": "H", "roomid": "R", "date": "2027-01-01", "threshold": 1}, {"propertyid": "H"}]',
    )
    assert read("rooms.json")[1].fields == {"propertyid": "H"}


def test_load_json_records_object_and_entry_lines() -> None:
    document = load_json("x.json", '[\n  {"a": {\n    "b": 1}},\n\n  [\n   {}\n  ]\n]')
    assert document.lines == [2, 5]
    assert document[0].line == 2 and document[0]["a"].line == 2
    assert document[1].lines == [6] and document[1][0].line == 6


def test_date_together_with_start_is_checked_per_object() -> None:
    write(
        "rooms.json",
        '[{"propertyid": "H", "roomid": "R", "date": "2027-01-01", "threshold": 1},\n'
        '{"propertyid": "H", "roomid": "R", "start": "2027-01-01", "end": "2027-01-02", "threshold": 1},\n'
        '{"propertyid": "H", "roomid": "R", "date": "2027-01-01", "end": "2027-01-02", "threshold": 1},\n'
        '{"propertyid": "H", "roomid": "R", "date": "2027-01-01", "start": "2027-01-02", "threshold": 1}]',
    )
    assert error("rooms.json").message.splitlines()[0] == (
        "rooms.json line 3: give either a date key or start and end keys, not date together with end"
    )
