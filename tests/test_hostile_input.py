"""Hostile input: fuzzed CSV, JSON and JSON Lines bytes and row values, huge fields and lines, NUL
bytes, undecodable bytes, deep nesting, duplicate names, empty files.

The property is always the same: the tool answers with an exit code of the contract and a message,
never a traceback or an "internal error"; input it calls invalid (exit 3) sends nothing.
"""

from __future__ import annotations

import csv
import io
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from typer.testing import Result

from ari_cli.cli import app
from ari_cli.sandbox import Sandbox
from ari_cli.wire.models import BODY_MODELS
from ari_cli.wire.operations import OPERATION_BY_ACTION
from tests.conftest import PINNED_TODAY
from tests.helpers import invoke, sandbox_env

FUZZ = settings(
    # Modest by default, to keep the suite quick; ARI_FUZZ_EXAMPLES=5000 searches harder.
    max_examples=int(os.environ.get("ARI_FUZZ_EXAMPLES", "150")),
    deadline=None,
    database=None,  # nothing written into the work tree; a failure prints its reproducing example
    # The autouse fixtures (no backoff, no user config) are meant to be shared by every example.
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
OPERATIONS = ("threshold", "maxadv", "policy")
HEADERS = {
    "threshold": ["propertyid", "roomid", "start", "end", "threshold"],
    "maxadv": ["propertyid", "roomid", "rateid", "start", "end", "time"],
    "policy": ["propertyid", "roomid", "rateid", "start", "end", "refundable", "level", "policyid",
               "dayspriorcheckin", "penaltytype", "penaltyamount", "penaltyapplied", "depositpolicy",
               "deposittype", "depositamount", "depositapplied", "depositintervalunits", "deposittimeinterval"],
}  # fmt: skip
NAMES = [
    *sorted({name for names in HEADERS.values() for name in names}),
    "Property ID", "room_type", "from", "to", "date", "days", "sellthreshold", "nights", "notes", "treshold",
    "action", "data", "policydetails", "cancellation", "deposit", "sharepost", "sourceid", "minmaxmessagetype", "",
]  # fmt: skip
GOOD_VALUES = [
    "HTL001", "HTL002", "HTL900", "DBL", "TWN", "OLD", "BAR", "NRF", "PROMO", "2027-02-01", "2027-02-03",
    "2026-12-30", "today", "today+3", "today-2", "today+99999999999", "04/01/2027", "n/a", "N/A", "0", "5", "3.0",
    "999", "1000", "-1", "1e3", "true", "FALSE", "yes", "required", "not required", "Mon-Fri", "1111100", "Sat,Sun",
    "", " ", "9" * 5000,
]  # fmt: skip
# Every character a file may hold: control characters, quotes, delimiters, line ends, non-ASCII.
TEXT = st.text(st.characters(min_codepoint=0, max_codepoint=0x2FFF), max_size=24)
VALUES = st.one_of(st.sampled_from(GOOD_VALUES), TEXT)
KEYS = st.one_of(st.sampled_from(NAMES), TEXT)
SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-(10**30), max_value=10**30),
    st.floats(allow_nan=True, allow_infinity=True), VALUES,
    # Lone surrogates, which json.dumps writes as `\ud800` escapes.
    st.text(st.characters(min_codepoint=0xD7F0, max_codepoint=0xDC10, exclude_categories=()), max_size=3),
)  # fmt: skip
JSON_VALUES = st.recursive(SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                           st.dictionaries(KEYS, inner, max_size=6)), max_leaves=20)  # fmt: skip


@pytest.fixture(scope="module", autouse=True)
def _command_built_once() -> Iterator[None]:
    """Typer rebuilds the Click command on each in-process call, most of its cost: build it once here."""
    import typer.main
    import typer.testing

    command = typer.main.get_command(app)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(typer.testing, "_get_command", lambda _app: command)
        yield


@pytest.fixture(scope="module")
def shared_sandbox() -> Iterator[Sandbox]:
    """One sandbox for all the examples of a fuzz test; each example starts from a reset."""
    with Sandbox(today=PINNED_TODAY) as sandbox:
        yield sandbox


@st.composite
def csv_bytes(draw: st.DrawFn) -> bytes:
    """A CSV file as spreadsheets and people write them, then possibly damaged byte by byte."""
    operation = draw(st.sampled_from(OPERATIONS))
    header = draw(st.one_of(st.just(HEADERS[operation]), st.lists(st.sampled_from(NAMES), max_size=8),
                            st.lists(KEYS, max_size=6)))  # fmt: skip
    rows = draw(st.lists(st.lists(VALUES, min_size=0, max_size=len(header) + 2), max_size=5))
    delimiter = draw(st.sampled_from([",", ";", "\t"]))
    ending = draw(st.sampled_from(["\n", "\r\n", "\r"]))
    text = io.StringIO()
    if draw(st.booleans()):
        writer = csv.writer(text, delimiter=delimiter, lineterminator=ending)
        writer.writerow(header)
        writer.writerows(rows)
    else:  # unquoted: stray quotes and delimiters inside values stay as they are
        text.write(ending.join(delimiter.join(cells) for cells in [header, *rows]))
    encoding = draw(st.sampled_from(["utf-8", "utf-8-sig", "utf-16", "latin-1"]))
    data = text.getvalue().encode(encoding, errors="replace")
    return draw(damaged(data))


@st.composite
def damaged(draw: st.DrawFn, data: bytes) -> bytes:
    """`data` as is, cut short, or with a few random bytes put in."""
    how = draw(st.sampled_from(["whole", "whole", "cut", "insert"]))
    if how == "cut" and data:
        return data[: draw(st.integers(0, len(data) - 1))]
    if how == "insert":
        at = draw(st.integers(0, len(data)))
        return data[:at] + draw(st.binary(min_size=1, max_size=4)) + data[at:]
    return data


@st.composite
def json_bytes(draw: st.DrawFn) -> bytes:
    """A JSON document: a list of row objects, an API body, or anything; then possibly damaged."""
    operation = draw(st.sampled_from(OPERATIONS))
    row = st.fixed_dictionaries({name: VALUES for name in HEADERS[operation]}, optional={"notes": VALUES})
    document = draw(st.one_of(
        st.lists(row, max_size=4),
        st.fixed_dictionaries({"action": st.sampled_from(["sellthresholdupdate", "setadvbookingcondrq", "getcancellation", "x"]),
                               "propertyid": VALUES, "data": JSON_VALUES, "policydetails": JSON_VALUES}),
        JSON_VALUES,
    ))  # fmt: skip
    text = json.dumps(document, ensure_ascii=draw(st.booleans()), allow_nan=True)
    return draw(damaged(text.encode("utf-8", errors="surrogatepass")))


@st.composite
def jsonl_bytes(draw: st.DrawFn) -> bytes:
    """JSON Lines: one value per line (objects mostly), blank lines, and a damaged line now and then."""
    operation = draw(st.sampled_from(OPERATIONS))
    row = st.fixed_dictionaries({name: VALUES for name in HEADERS[operation]})
    values = draw(st.lists(st.one_of(row, JSON_VALUES), max_size=4))
    lines = [json.dumps(value, ensure_ascii=draw(st.booleans())) for value in values]
    if lines and draw(st.booleans()):
        lines.insert(draw(st.integers(0, len(lines))), "")
    return draw(damaged("\n".join(lines).encode("utf-8", errors="surrogatepass")))


def push(operation: str, data: bytes, form: str | None, *extra: str, env: dict[str, str] | None = None) -> Result:
    args = [operation, "push", "-", "--today", PINNED_TODAY, "--output", "json", *extra]
    if form is not None:
        args += ["--format", form]
    return invoke(args, env=env, input=data)


def assert_answered(result: Result, allowed: set[int]) -> None:
    """An exit code of the contract, and a message rather than a crash."""
    told = result.stdout + result.stderr
    event(f"exit {result.exit_code}")  # --hypothesis-show-statistics tells how often input got through
    assert result.exit_code in allowed, told
    assert "internal error" not in told and "Traceback" not in told, told
    if result.stdout:
        document = json.loads(result.stdout)  # --output json: stdout is one document, whatever the input
        assert_bodies_fit_the_wire_models(document)
    if result.exit_code == 3:
        errors = [line for line in result.stderr.splitlines() if line.startswith("error: ")]
        assert errors and "<stdin>" in errors[0], told


def assert_bodies_fit_the_wire_models(document: dict[str, Any]) -> None:
    """Every body planned from what was read is one the wire models accept: level bodies are laid out
    without going through them, so this is where a row check that lets too much through would show."""
    for request in document.get("requests", []):
        body = request["body"]
        # A dry run without configuration shows the spec's placeholders, which are not a source id.
        sourceid = "cpb00" if body["sourceid"] == "<source_id>" else body["sourceid"]
        BODY_MODELS[OPERATION_BY_ACTION[body["action"]]].model_validate({**body, "sourceid": sourceid})


@FUZZ
@given(data=csv_bytes(), operation=st.sampled_from(OPERATIONS), form=st.sampled_from(["csv", None]))
def test_fuzzed_csv_bytes_in_a_dry_run(data: bytes, operation: str, form: str | None) -> None:
    assert_answered(push(operation, data, form, "--dry-run"), {0, 3})


@FUZZ
@given(data=json_bytes(), operation=st.sampled_from(OPERATIONS), form=st.sampled_from(["json", None]))
def test_fuzzed_json_bytes_in_a_dry_run(data: bytes, operation: str, form: str | None) -> None:
    assert_answered(push(operation, data, form, "--dry-run"), {0, 3})


@FUZZ
@given(data=jsonl_bytes(), operation=st.sampled_from(OPERATIONS))
def test_fuzzed_jsonl_bytes_in_a_dry_run(data: bytes, operation: str) -> None:
    assert_answered(push(operation, data, "jsonl", "--dry-run"), {0, 3})


# Values each column takes when valid (or nearly: unknown ids, past dates, overlaps at the sandbox).
COLUMN_VALUES = {
    "propertyid": ["HTL001", "HTL002", "HTL900", "NOPE"], "roomid": ["DBL", "TWN", "KNG", "OLD"],
    "rateid": ["BAR", "NRF", "PROMO"], "start": ["2027-02-01", "today+5", "2026-12-30"], "end": ["2027-02-10", "today+40"], "threshold": ["3", "0", "999", "n/a"], "time": ["1", "30", "n/a"],
    "refundable": ["true", "false"], "level": ["1", "2"], "policyid": ["1", "2"], "dayspriorcheckin": ["0", "3"],
    "penaltytype": ["3"], "penaltyamount": ["50", "100"], "penaltyapplied": ["3", "4"],
    "depositpolicy": ["required", "not required"], "deposittype": ["3"], "depositamount": ["20"],
    "depositapplied": ["3", "4"], "depositintervalunits": ["0", "1"], "deposittimeinterval": ["5", "30", ""],
}  # fmt: skip


@st.composite
def rows_of(draw: st.DrawFn, operation: str) -> list[list[str]]:
    """Rows whose cells are mostly valid for their column, now and then anything at all."""
    columns = HEADERS[operation]

    def cell(name: str) -> st.SearchStrategy[str]:
        return st.integers(0, 19).flatmap(lambda n: VALUES if n == 0 else st.sampled_from(COLUMN_VALUES[name]))

    return draw(st.lists(st.tuples(*map(cell, columns)).map(list), min_size=1, max_size=3))


@FUZZ
@given(operation=st.sampled_from(OPERATIONS), data=st.data())
def test_fuzzed_row_values_pushed_to_the_sandbox(shared_sandbox: Sandbox, operation: str, data: st.DataObject) -> None:
    shared_sandbox.reset()
    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\n")
    writer.writerow(HEADERS[operation])
    writer.writerows(data.draw(rows_of(operation)))
    extra = data.draw(st.sampled_from([[], ["--skip-invalid"], ["--overlaps", "last-wins"], ["--no-merge"]]))
    result = push(operation, text.getvalue().encode(), "csv", *extra, env=sandbox_env(shared_sandbox))
    assert_answered(result, {0, 1, 3})
    if result.exit_code == 3:
        assert shared_sandbox.received == [], "input called invalid, yet something was sent"
        assert " line " in result.stderr  # the row at fault is named
    if result.exit_code == 0:
        assert {row["status"] for row in json.loads(result.stdout)["rows"]} <= {"ok", "skipped"}


@FUZZ
@given(data=st.one_of(csv_bytes(), json_bytes(), jsonl_bytes()), operation=st.sampled_from(OPERATIONS))
def test_fuzzed_files_pushed_to_the_sandbox_send_nothing_when_invalid(
    shared_sandbox: Sandbox, data: bytes, operation: str
) -> None:
    shared_sandbox.reset()
    result = push(operation, data, None, env=sandbox_env(shared_sandbox))
    assert_answered(result, {0, 1, 3})
    if result.exit_code == 3:
        assert shared_sandbox.received == [], "input called invalid, yet something was sent"


@FUZZ
@given(data=st.one_of(json_bytes(), jsonl_bytes(), csv_bytes()))
def test_fuzzed_replay_files_in_a_dry_run(data: bytes) -> None:
    result = invoke(["replay", "-", "--dry-run", "--output", "json"], input=data)
    told = result.stdout + result.stderr
    event(f"exit {result.exit_code}")
    assert result.exit_code in {0, 3}, told
    assert "internal error" not in told and "Traceback" not in told, told
    if result.stdout:
        json.loads(result.stdout)


# Explicit cases --------------------------------------------------------------------------------

HEADER = "propertyid,roomid,start,end,threshold\n"
ROW = "HTL001,DBL,2027-02-01,2027-02-03,3\n"
MB = 1024 * 1024


def push_file(path: Path, *extra: str, env: dict[str, str] | None = None) -> Result:
    return invoke(["threshold", "push", str(path), "--today", PINNED_TODAY, *extra], env=env)


def test_a_1_mb_field_is_a_clear_error(tmp_path: Path, sb: Sandbox) -> None:
    path = tmp_path / "rooms.csv"
    path.write_text(HEADER + ROW + "HTL001," + "D" * MB + ",2027-02-01,2027-02-03,3\n", encoding="utf-8")
    result = push_file(path, env=sandbox_env(sb))
    assert result.exit_code == 3, result.stderr
    first = result.stderr.splitlines()[0]
    assert first.startswith("error: ") and "rooms.csv line 3" in first and "longer than" in first
    assert "quote" in result.stderr  # the usual cause: a quote never closed
    assert sb.received == []


def test_a_quote_never_closed_is_a_clear_error(tmp_path: Path, sb: Sandbox) -> None:
    path = tmp_path / "rooms.csv"
    path.write_text(HEADER + 'HTL001,"DBL,2027-02-01,2027-02-03,3\n' + ROW * 20_000, encoding="utf-8")
    result = push_file(path, env=sandbox_env(sb))
    assert result.exit_code == 3, result.stderr
    assert "rooms.csv line" in result.stderr and "quote" in result.stderr
    assert "Traceback" not in result.stderr and sb.received == []


def test_a_1_mb_line_of_empty_cells_is_read(tmp_path: Path, sb: Sandbox) -> None:
    path = tmp_path / "rooms.csv"
    path.write_text(HEADER + ROW.rstrip("\n") + "," * MB + "\n", encoding="utf-8")
    result = push_file(path, env=sandbox_env(sb))
    assert result.exit_code == 0, result.stderr
    assert len(sb.received) == 1


def test_a_1_mb_value_in_json_is_a_row_error(tmp_path: Path, sb: Sandbox) -> None:
    path = tmp_path / "rooms.json"
    row = {"propertyid": "HTL001", "roomid": "DBL", "start": "2027-02-01", "end": "2027-02-03", "threshold": "9" * MB}
    path.write_text(json.dumps([row]), encoding="utf-8")
    result = push_file(path, env=sandbox_env(sb))
    assert result.exit_code == 3, result.stderr[:500]
    assert "rooms.json line 1, threshold:" in result.stderr and "internal error" not in result.stderr
    assert sb.received == []


def test_a_number_too_long_to_read_in_json(tmp_path: Path) -> None:
    path = tmp_path / "rooms.json"
    path.write_text(
        '[\n{"propertyid": "HTL001", "roomid": "DBL", "date": "2027-02-01", "threshold": ' + "9" * 10_000 + "}]"
    )
    result = push_file(path, "--dry-run")
    assert result.exit_code == 3
    assert result.stderr.startswith("error: ") and "rooms.json line 2: a number of 10000 digits" in result.stderr


@pytest.mark.parametrize(
    ("content", "line"),
    [
        (HEADER + "HTL001,DBL,2027-02-01,2027-02-03,3\x00\n", 2),
        ("\x00" + HEADER + ROW, 1),
        (HEADER + ROW + ROW + "\x00,\n", 4),
    ],
    ids=["in a value", "first byte", "own line"],
)
def test_nul_bytes_are_a_clear_error(tmp_path: Path, sb: Sandbox, content: str, line: int) -> None:
    path = tmp_path / "rooms.csv"
    path.write_bytes(content.encode())
    result = push_file(path, env=sandbox_env(sb))
    assert result.exit_code == 3
    assert f"error: {path} line {line}: holds a NUL byte" in result.stderr
    assert sb.received == []


def test_invalid_utf8_suggests_encoding_and_latin1_then_works(tmp_path: Path, sb: Sandbox) -> None:
    path = tmp_path / "zimmer.csv"
    text = (
        "propertyid,roomid,start,end,threshold,notes\n"
        + ROW.rstrip("\n")
        + ",\nHTL001,TWN,2027-02-01,2027-02-03,4,für zwei\n"
    )
    path.write_bytes(text.encode("latin-1"))
    refused = push_file(path, env=sandbox_env(sb))
    assert refused.exit_code == 3
    assert f"error: {path} line 3: cannot decode byte fc as UTF-8" in refused.stderr
    assert "hint: " in refused.stderr and "--encoding latin-1" in refused.stderr
    assert sb.received == []
    accepted = push_file(path, "--encoding", "latin-1", env=sandbox_env(sb))
    assert accepted.exit_code == 0, accepted.stderr
    assert len(sb.received) == 1


@pytest.mark.parametrize(
    ("name", "content"),
    [
        ("deep.json", "[" * 100_000 + "]" * 100_000),
        ("deep-object.json", '{"a":' * 100_000 + "1" + "}" * 100_000),
        ("unclosed.json", "[" * 100_000),
        ("deep.jsonl", '{"propertyid": "HTL001"}\n' + "[" * 100_000 + "]" * 100_000 + "\n"),
        ("deep-value.json", '[{"propertyid": "HTL001", "roomid": ' + "[" * 100_000 + "]" * 100_000 + "}]"),
    ],
)
def test_deeply_nested_json_is_a_clear_error(tmp_path: Path, sb: Sandbox, name: str, content: str) -> None:
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    result = push_file(path, env=sandbox_env(sb))
    assert result.exit_code == 3
    assert result.stderr.startswith(f"error: {path}") and "nested too deeply" in result.stderr
    assert "RecursionError" not in result.stderr and "Traceback" not in result.stderr
    assert sb.received == []


@pytest.mark.parametrize(
    ("header", "message"),
    [
        ("propertyid,roomid,start,end,threshold,threshold", 'columns "threshold" and "threshold" both give threshold'),
        ("propertyid,room,roomid,start,end,threshold", 'columns "room" and "roomid" both give roomid'),
        (
            "Property ID,property_id,roomid,start,end,threshold",
            'columns "Property ID" and "property_id" both give propertyid',
        ),
    ],
)
def test_duplicate_header_columns_are_named(tmp_path: Path, sb: Sandbox, header: str, message: str) -> None:
    path = tmp_path / "rooms.csv"
    path.write_text(f"{header}\nHTL001,DBL,DBL,2027-02-01,2027-02-03,3\n", encoding="utf-8")
    result = push_file(path, env=sandbox_env(sb))
    assert result.exit_code == 3
    assert message in result.stderr and sb.received == []


def test_a_duplicate_ignored_column_is_only_a_warning(tmp_path: Path, sb: Sandbox) -> None:
    path = tmp_path / "rooms.csv"
    path.write_text("propertyid,roomid,start,end,threshold,notes,notes\nHTL001,DBL,2027-02-01,2027-02-03,3,a,b\n")
    result = push_file(path, env=sandbox_env(sb))
    assert result.exit_code == 0, result.stderr
    assert "warning:" in result.stderr and "notes" in result.stderr


@pytest.mark.parametrize("form", ["json", "jsonl"])
def test_a_key_given_twice_in_json_is_named(tmp_path: Path, sb: Sandbox, form: str) -> None:
    path = tmp_path / f"rooms.{form}"
    twice = '{"propertyid": "HTL001", "roomid": "DBL", "date": "2027-02-01", "threshold": 3, "threshold": 5}'
    path.write_text(f'{{"propertyid": "HTL001", "roomid": "TWN", "date": "2027-02-01", "threshold": 1}}\n{twice}\n'
                    if form == "jsonl" else f"[\n{twice}\n]")  # fmt: skip
    result = push_file(path, env=sandbox_env(sb))
    assert result.exit_code == 3
    assert f'error: {path} line 2: key "threshold" is given twice in one object' in result.stderr
    assert sb.received == []


@pytest.mark.parametrize("form", ["json", "jsonl"])
def test_a_lone_surrogate_in_json_is_a_clear_error(tmp_path: Path, sb: Sandbox, form: str) -> None:
    path = tmp_path / f"rooms.{form}"
    row = '{"propertyid": "HTL001", "roomid": "D\\ud800BL", "date": "2027-02-01", "threshold": 3}'
    path.write_text(row if form == "jsonl" else f"[{row}]")
    result = push_file(path, env=sandbox_env(sb))
    assert result.exit_code == 3
    assert f"error: {path} line 1: text holds \\ud800" in result.stderr
    assert sb.received == []


def test_a_surrogate_pair_in_json_is_one_character(tmp_path: Path, sb: Sandbox) -> None:
    path = tmp_path / "rooms.json"
    path.write_text(
        '[{"propertyid": "HTL001", "roomid": "DBL", "date": "2027-02-01", "threshold": 3, "notes": "\\ud83d\\ude00"}]'
    )
    assert push_file(path, env=sandbox_env(sb)).exit_code == 0


@pytest.mark.parametrize(
    ("name", "content"),
    [("empty.csv", ""), ("header-only.csv", HEADER), ("blank.csv", "\n\n"), ("empty.json", ""), ("list.json", "[]"),
     ("empty.jsonl", "")],
)  # fmt: skip
def test_files_without_rows_send_nothing_and_say_so(tmp_path: Path, sb: Sandbox, name: str, content: str) -> None:
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    result = push_file(path, env=sandbox_env(sb))
    assert result.exit_code == 3 and result.stdout == ""
    assert result.stderr.startswith(f"error: {path} has no rows\nhint: ")
    assert "give --allow-empty if it may rightly be empty" in result.stderr
    allowed = push_file(path, "--allow-empty", env=sandbox_env(sb))
    assert allowed.exit_code == 0, allowed.stderr
    assert "0 rows: 0 ok, 0 failed, 0 invalid, 0 skipped; 0 records, sent 0 of 0 requests" in allowed.stdout
    assert f"note: {path} has no rows" in allowed.stderr
    assert sb.received == []


def test_several_bad_files_are_each_reported(tmp_path: Path, sb: Sandbox) -> None:
    nul = tmp_path / "nul.csv"
    nul.write_bytes((HEADER + "\x00\n").encode())
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 50_000)
    latin = tmp_path / "latin.csv"
    latin.write_bytes((HEADER + "HTL001,DBLé,2027-02-01,2027-02-03,3\n").encode("latin-1"))
    result = invoke(
        ["threshold", "push", str(nul), str(deep), str(latin), "--today", PINNED_TODAY], env=sandbox_env(sb)
    )
    assert result.exit_code == 3
    for path in (nul, deep, latin):
        assert str(path) in result.stderr
    assert sb.received == []


@pytest.mark.parametrize(
    ("second", "message"),
    [
        ('{"b": ' + "[" * 100_000 + "]" * 100_000 + "}", "error: <stdin> line 2: the JSON is nested too deeply"),
        ('{"b": ' + "9" * 5000 + "}", "error: <stdin> line 2: a number of 5000 digits is too long to be a value"),
    ],
    ids=["deep", "long number"],
)
def test_standard_input_is_sniffed_whatever_its_lines_hold(second: str, message: str) -> None:
    data = '{"propertyid": "HTL001"}\n' + second + "\n"
    result = invoke(["threshold", "push", "-", "--dry-run", "--today", PINNED_TODAY], input=data)
    assert result.exit_code == 3
    assert message in result.stderr


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"propertyid": "HTL001", "action": "sellthresholdupdate", "data": ' + "[" * 100_000 + "]" * 100_000 + "}", "nested too deeply"),
        ('{"propertyid": "HTL001", "action": "sellthresholdupdate", "x": ' + "9" * 5000 + "}", "a number is too long to read"),
        ('{"propertyid": "HTL\\udc00", "action": "sellthresholdupdate", "data": []}', "line 1: text holds \\udc00, half of a UTF-16 surrogate pair"),
    ],
    ids=["deep", "long number", "lone surrogate"],
)  # fmt: skip
def test_replay_refuses_hostile_bodies_clearly(tmp_path: Path, sb: Sandbox, content: str, message: str) -> None:
    path = tmp_path / "call.json"
    path.write_text(content, encoding="utf-8")
    result = invoke(["replay", str(path)], env=sandbox_env(sb))
    assert result.exit_code == 3
    assert result.stderr.startswith(f"error: {path}") and message in result.stderr
    assert sb.received == []
