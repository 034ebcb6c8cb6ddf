"""JSON and JSON Lines files: flat rows, positions, malformed input and key checks."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ari_cli.exits import InputError
from ari_cli.inputs import ReadOptions, SourceRow, read_rows
from ari_cli.inputs.jsonfile import load_json
from tests.reading import P, T, error, lines, read, write


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)


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


def test_scalars_stay_as_parsed() -> None:
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
    rows = list(read_rows(["policy.json"], P, ReadOptions()).rows)
    fields = rows[0].fields
    assert (fields["propertyid"], fields["refundable"], fields["level"], fields["policyid"]) == (
        7,
        True,
        1.0,
        None,
    )
    assert rows[0].line == 1


def test_unused_keys_warn_once() -> None:
    write(
        "rooms.json",
        '[{"propertyid":"H","roomid":"R","date":"2027-01-01","threshold":1,"notes":{"a":1}},'
        '{"propertyid":"H","roomid":"R","date":"2027-01-02","threshold":1,"notes":"x","time":"B"}]',
    )
    result = read_rows(["rooms.json"], T, ReadOptions())
    assert result.warnings == ["rooms.json: ignored keys notes, time (not used by threshold)"]


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


def test_json_in_another_encoding() -> None:
    content = '[\n{"propertyid": "H", "roomid": "Règle", "date": "2027-01-01", "threshold": 1}\n]\n'
    Path("rooms.json").write_bytes(content.encode("cp1252"))
    with pytest.raises(InputError) as caught:
        read("rooms.json")
    assert caught.value.message == "rooms.json line 2: cannot decode byte e8 as UTF-8"
    assert caught.value.hint is not None and "--encoding cp1252" in caught.value.hint
    rows = list(read_rows(["rooms.json"], T, ReadOptions(encoding="cp1252")).rows)
    assert rows[0].fields["roomid"] == "Règle"


def test_json_with_bom_and_crlf() -> None:
    Path("rooms.json").write_bytes(
        b'\xef\xbb\xbf[\r\n\r\n{"propertyid": "H", "roomid": "R", "date": "2027-01-01", "threshold": 1}]'
    )
    assert lines("rooms.json") == [3]


def test_json_with_nul_bytes() -> None:
    Path("rooms.jsonl").write_bytes('{"roomid": "R"}\n'.encode("utf-16-le"))
    assert error("rooms.jsonl").message == "rooms.jsonl line 1: holds a NUL byte; this is not a text file"
