"""read_rows as a whole: formats by extension, standard input, unreadable paths, several files."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from ari_cli.exits import ExitCode, InputError
from ari_cli.inputs import ReadOptions, ReadResult, read_rows
from ari_cli.inputs.textio import sniff_format
from ari_cli.wire.models import Operation

CSV = "propertyid,roomid,start,end,threshold\nH1,R1,2027-01-01,2027-01-05,5\n"
JSON = '[{"propertyid": "H1", "roomid": "R1", "start": "2027-01-01", "end": "2027-01-05", "threshold": 5}]'
JSONL = (
    '{"propertyid": "H1", "roomid": "R1", "date": "2027-01-01", "threshold": 5}\n'
    '{"propertyid": "H1", "roomid": "R2", "date": "2027-01-01", "threshold": 6}\n'
)


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)


def write(name: str, content: str | bytes) -> str:
    Path(name).write_bytes(content.encode() if isinstance(content, str) else content)
    return name


def read(paths: list[str], stdin: bytes | None = None, **options: str) -> ReadResult:
    stream = io.BytesIO(stdin) if stdin is not None else None
    return read_rows(paths, Operation.THRESHOLD, ReadOptions(**options), stdin=stream)


def error(paths: list[str], stdin: bytes | None = None, **options: str) -> InputError:
    with pytest.raises(InputError) as caught:
        list(read(paths, stdin, **options).rows)
    assert caught.value.exit_code == ExitCode.INVALID_INPUT
    return caught.value


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (CSV, "csv"),
        ("  \n" + JSON, "json"),
        ('{"propertyid": "H1"}', "json"),
        ('{\n  "propertyid": "H1"\n}\n', "json"),
        (JSONL, "jsonl"),
        ('{"a": 1}\n\n{"a": 2}\n', "jsonl"),
        ('{"a": 1}\n[1]\n', "json"),
        ("", "csv"),
    ],
)
def test_sniff_format(content: str, expected: str) -> None:
    assert sniff_format(content) == expected


@pytest.mark.parametrize("content", [CSV, CSV.replace(",", ";"), JSON, JSONL, "\ufeff" + JSON])
def test_stdin_is_sniffed_and_named(content: str) -> None:
    rows = list(read(["-"], stdin=content.encode()).rows)
    assert rows[0].source == "<stdin>"
    assert rows[0].fields["roomid"] == "R1"


def test_stdin_lines_are_file_lines() -> None:
    assert [row.line for row in read(["-"], stdin=JSONL.encode()).rows] == [1, 2]
    assert [row.line for row in read(["-"], stdin=("\n" + CSV).encode()).rows] == [3]


def test_stdin_format_option_wins() -> None:
    problem = error(["-"], stdin=CSV.encode(), format="json")
    assert problem.message.startswith("<stdin> line 1 column 1: not valid JSON")


def test_stdin_with_an_encoding() -> None:
    data = CSV.replace("R1", "Règle").encode("cp1252")
    (row,) = read(["-"], stdin=data, encoding="cp1252").rows
    assert row.fields["roomid"] == "Règle"
    assert error(["-"], stdin=data).message == "<stdin> line 2: cannot decode byte e8 as UTF-8"


def test_stdin_can_be_given_once() -> None:
    assert error(["-", "-"], stdin=CSV.encode()).message == 'standard input ("-") can be read only once'


def test_files_and_stdin_together_keep_their_order_and_sources() -> None:
    write("a.json", JSON)
    write("b.csv", CSV)
    result = read(["b.csv", "-", "a.json"], stdin=JSONL.encode())
    assert [(row.source, row.line) for row in result.rows] == [
        ("b.csv", 2),
        ("<stdin>", 1),
        ("<stdin>", 2),
        ("a.json", 1),
    ]


def test_warnings_come_per_file() -> None:
    write("a.csv", CSV.replace("threshold\n", "threshold,Notes\n"))
    write("b.json", JSON.replace('"threshold"', '"owner": "me", "threshold"'))
    assert read(["a.csv", "b.json"]).warnings == [
        "a.csv: ignored column Notes (not used by threshold)",
        "b.json: ignored key owner (not used by threshold)",
    ]


def test_missing_file() -> None:
    problem = error(["rooms.csv"])
    assert problem.message == "cannot read rooms.csv: no such file"


def test_missing_file_with_an_unknown_extension_says_it_is_missing() -> None:
    assert error(["rooms.txt"]).message == "cannot read rooms.txt: no such file"


def test_a_directory() -> None:
    Path("rooms").mkdir()
    assert error(["rooms"]).message == "cannot read rooms: it is a directory, not a file"


@pytest.mark.parametrize("name", ["rooms.xlsx", "ROOMS.XLSX", "rooms.xlsm", "rooms.xls", "rooms.xlsb", "rooms.ods"])
def test_a_damaged_workbook_is_an_input_error(name: str) -> None:
    # Old .xls, .xlsb and OpenDocument are read too (python-calamine): a damaged one is an input error.
    write(name, b"PK\x03\x04 not really a zip archive")
    problem = error([name])
    assert problem.message.startswith(f"{name}: cannot read the workbook: ")
    assert problem.hint is not None and "save it again" in problem.hint


def test_unknown_extension_lists_the_supported_ones_and_mentions_format() -> None:
    write("rooms.txt", CSV)
    problem = error(["rooms.txt"])
    assert problem.message == (
        'rooms.txt: cannot tell the format from ".txt"; supported are .csv, .tsv, .json, .jsonl, .ndjson, .xlsx, .xlsm, '
        ".xls, .xlsb, .ods"
    )
    assert problem.hint is not None and "--format" in problem.hint and "standard input" in problem.hint


def test_unknown_extension_is_read_with_the_format_option() -> None:
    write("rooms.txt", CSV)
    write("rooms", JSONL)
    assert [row.line for row in read(["rooms.txt"], format="csv").rows] == [2]
    assert [row.line for row in read(["rooms"], format="jsonl").rows] == [1, 2]


def test_the_format_option_does_not_override_a_known_extension() -> None:
    write("rooms.csv", CSV)
    assert [row.line for row in read(["rooms.csv"], format="json").rows] == [2]


def test_unknown_encoding_and_format_options() -> None:
    assert error([], encoding="klingon").message == 'unknown encoding "klingon"'
    assert error([], format="xml").message == 'unknown format "xml"; use one of csv, json, jsonl'


def test_no_paths_give_no_rows() -> None:
    result = read([])
    assert list(result.rows) == [] and result.warnings == []


def test_failures_of_several_files_come_together_with_their_hints() -> None:
    write("a.xls", b"PK")
    write("b.csv", CSV.encode("utf-16-le"))
    problem = error(["a.xls", "missing.csv", "b.csv"])
    lines = problem.message.splitlines()
    assert lines[0].startswith("a.xls: cannot read the workbook: ")
    assert lines[1:] == [
        "cannot read missing.csv: no such file",
        "b.csv line 1: holds a NUL byte; this is not a text file",
    ]
    assert problem.hint is not None and "save it again" in problem.hint and "utf-16" in problem.hint
