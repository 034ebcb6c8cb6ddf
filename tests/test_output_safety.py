"""Text of outside origin never reaches the terminal raw: control characters from input files and
from the service's answers are shown as visible escapes in the table, errors, warnings and traces;
CSV reports neutralise cells a spreadsheet would run as formulas."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from typer.testing import Result

from ari_cli.render.printable import printable
from ari_cli.sandbox import Sandbox
from tests.conftest import PINNED_TODAY
from tests.helpers import invoke, row_of, sandbox_env

# Everything a terminal may act on: C0 but tab and newline, DEL, C1, and the bidi overrides.
UNSAFE = [chr(c) for c in range(0x20) if chr(c) not in "\t\n"] + [chr(c) for c in range(0x7F, 0xA0)]
UNSAFE += [chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A))]
# A hostile value: clear the screen, set the window title, hide the text, overwrite the line, 8-bit CSI.
HOSTILE = "\x1b[2J\x1b]0;pwned\x07\x1b[8m\r\x08\x9b31m\u202e"
HEADER = ["propertyid", "roomid", "start", "end", "threshold"]
SHOWN = "\\x1b[2J\\x1b]0;pwned\\x07\\x1b[8m\\r\\x08\\x9b31m\\u202e"


def assert_clean(*texts: str) -> None:
    for text in texts:
        found = sorted({f"U+{ord(c):04X}" for c in text if c in UNSAFE})
        assert not found, f"raw control characters reached the terminal: {found}\n{text!r}"


def csv_file(tmp_path: Path, text: str, name: str = "rooms.csv") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def rows_file(tmp_path: Path, *rows: list[str]) -> Path:
    """A CSV file with values quoted as needed (a carriage return in a value must not end its row)."""
    text = io.StringIO()
    csv.writer(text, lineterminator="\n", quoting=csv.QUOTE_ALL).writerows(rows)
    return csv_file(tmp_path, text.getvalue())


def push(path: Path, *extra: str, env: dict[str, str] | None = None) -> Result:
    return invoke(["threshold", "push", str(path), "--today", PINNED_TODAY, *extra], env=env)


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("plain text, tabs\tand\nnewlines", "plain text, tabs\tand\nnewlines"),
        ("é 日本 🏨 “quotes” ß", "é 日本 🏨 “quotes” ß"),
        ("\x1b[31mred\x1b[0m", "\\x1b[31mred\\x1b[0m"),
        ("\x00\x07\x08\x0b\x0c\r\x7f", "\\x00\\x07\\x08\\x0b\\x0c\\r\\x7f"),
        ("\x85\x9b\x9f", "\\x85\\x9b\\x9f"),
        ("abc\u202edcba\u2066x\u2069", "abc\\u202edcba\\u2066x\\u2069"),
        ("half \ud800 pair", "half \\ud800 pair"),
        (HOSTILE, SHOWN),
    ],
)
def test_printable(text: str, shown: str) -> None:
    assert printable(text) == shown
    assert_clean(printable(text))


def test_every_unsafe_character_is_escaped() -> None:
    assert_clean(printable("".join(UNSAFE)))


def test_input_values_holding_terminal_controls_are_refused_and_never_echoed_raw(tmp_path: Path) -> None:
    # An id holding a control character is an input error (issue 29, round two): it never reaches the dry run's
    # table or bodies, and the error that names it writes nothing a terminal would act on.
    path = rows_file(tmp_path, HEADER, [f"HTL{HOSTILE}001", f"DBL{HOSTILE}", "2027-02-01", "2027-02-03", "3"])
    result = push(path, "--dry-run")
    assert result.exit_code == 3
    assert_clean(result.stdout, result.stderr)
    assert f"{path.name} line 2, propertyid: holds U+001B, a control character: type the id again without it\n" in (
        result.stderr
    )
    assert f"{path.name} line 2, roomid: holds U+001B, a control character" in result.stderr


def test_input_values_with_rich_markup_are_shown_as_written(tmp_path: Path) -> None:
    path = rows_file(tmp_path, HEADER, ["[/bold]H[red]1", "[/]", "2027-02-01", "2027-02-03", "3"])
    result = push(path, "--dry-run")
    assert result.exit_code == 0, result.stderr
    assert "# request 1: 1 record, property [/bold]H[red]1" in result.stdout
    assert row_of(result.stdout, f"{path}:2")[1:3] == ["[/bold]H[red]1", "[/]"]


def test_emoji_codes_in_values_and_names_are_shown_as_written(tmp_path: Path, sb: Sandbox) -> None:
    path = rows_file(tmp_path, HEADER, ["HTL001", ":smile:", "2027-02-01", "2027-02-03", "3"])
    planned = push(path, "--dry-run")
    assert planned.exit_code == 0, planned.stderr
    assert '"roomid": ":smile:"' in planned.stdout  # as it will be sent
    assert row_of(planned.stdout, f"{path}:2")[2] == ":smile:"
    missing = push(tmp_path / ":thumbs_up:.csv", env=sandbox_env(sb))
    assert ":thumbs_up:.csv: no such file" in missing.stderr


def test_error_messages_about_input_values(tmp_path: Path, sb: Sandbox) -> None:
    path = rows_file(tmp_path, HEADER, ["HTL001", "DBL", f"2027{HOSTILE}-02-01", "2027-02-03", "3"])
    result = push(path, env=sandbox_env(sb))
    assert result.exit_code == 3
    assert_clean(result.stdout, result.stderr)
    assert f'start: "2027{SHOWN}-02-01" is not a date' in result.stderr


def test_a_header_error_quoting_a_column_name(tmp_path: Path, sb: Sandbox) -> None:
    path = rows_file(tmp_path, [*HEADER[:4], "treshold\x1b"], ["HTL001", "DBL", "2027-02-01", "2027-02-03", "3"])
    result = push(path, env=sandbox_env(sb))
    assert result.exit_code == 3
    assert_clean(result.stdout, result.stderr)
    # An escape in a name is named as the control character it is (issue 29, round two), shown escaped.
    assert 'column "treshold\\x1b" holds U+001B, a control character: write the name again without it ("treshold")' in (
        result.stderr
    )


def test_warnings_naming_ignored_columns(tmp_path: Path) -> None:
    path = rows_file(tmp_path, [*HEADER, f"notes{HOSTILE}"], ["HTL001", "DBL", "2027-02-01", "2027-02-03", "3", "x"])
    result = push(path, "--dry-run")
    assert result.exit_code == 0
    assert_clean(result.stdout, result.stderr)
    assert f"warning: {path}: ignored column notes{SHOWN}" in result.stderr


def test_a_file_name_with_control_characters(tmp_path: Path, sb: Sandbox) -> None:
    name = tmp_path / "rooms\x1b[2J.csv"
    result = push(name, env=sandbox_env(sb))
    assert result.exit_code == 3
    assert_clean(result.stderr)
    assert "rooms\\x1b[2J.csv: no such file" in result.stderr


ONE_ROW = "propertyid,roomid,start,end,threshold\nHTL001,DBL,2027-02-01,2027-02-03,3\n"


@pytest.mark.parametrize(
    ("status", "body", "shown"),
    [
        (200, json.dumps({"success": False, "errors": [{"code": 451, "message": f"bad {HOSTILE} room"}]}).encode(), f"451 bad {SHOWN} room (HTTP 200)"),
        (200, b'{"success": false, "errors": [{"code": 451, "message": "raw \x1b[31m in JSON"}]}', "raw \\x1b[31m in JSON"),
        (200, json.dumps({"success": False, "errors": [{"code": 451, "message": "lone \ud800 half"}]}).encode(), "451 lone \ufffd half (HTTP 200)"),
        (422, f"<h1>{HOSTILE}</h1>".encode(), "<h1>\\x1b[2J\\x1b]0;pwned\\x07\\x1b[8m \\x08\\x9b31m\\u202e</h1>"),
    ],
    ids=["escaped in JSON", "raw in JSON", "lone surrogate", "not JSON"],
)  # fmt: skip
def test_service_answers_in_the_table(tmp_path: Path, sb: Sandbox, status: int, body: bytes, shown: str) -> None:
    sb.queue_raw(status, body)
    result = push(csv_file(tmp_path, ONE_ROW), env=sandbox_env(sb))
    assert result.exit_code == 1
    assert_clean(result.stdout, result.stderr)
    assert shown in result.stdout


def test_service_answers_in_the_verbose_trace(tmp_path: Path, sb: Sandbox) -> None:
    sb.queue_raw(500, f"boom {HOSTILE}!".encode())
    sb.queue_raw(200, json.dumps({"success": True, "trackingid": f"t-{HOSTILE}"}).encode())
    result = push(csv_file(tmp_path, ONE_ROW), "--verbose", env=sandbox_env(sb))
    assert result.exit_code == 0, result.stderr
    assert_clean(result.stdout, result.stderr)
    # The trace shows the body line by line: its carriage return ends a line.
    assert "< boom \\x1b[2J\\x1b]0;pwned\\x07\\x1b[8m\n< \\x08\\x9b31m\\u202e!\n" in result.stderr
    assert f"t-{SHOWN}" in result.stdout  # the tracking id column


def test_service_answers_in_a_replay(tmp_path: Path, sb: Sandbox) -> None:
    body = tmp_path / "call.json"
    body.write_text(json.dumps({"propertyid": "HTL001", "action": "sellthresholdupdate", "data": []}))
    sb.queue_raw(500, f"oops {HOSTILE}".encode())
    result = invoke(["replay", str(body)], env=sandbox_env(sb))
    assert result.exit_code == 1
    assert_clean(result.stdout, result.stderr)
    assert "response: oops \\x1b[2J\\x1b]0;pwned\\x07\\x1b[8m\n" in result.stdout
    assert "with a body that is not the service's JSON: 'oops \\x1b[2J" in result.stdout


FORMULAS = ["=1+2", "+cmd|' /C calc'!A0", "-2+3", "@SUM(A1)"]


@pytest.mark.parametrize("formula", FORMULAS)
def test_csv_output_and_report_neutralise_formulas(tmp_path: Path, sb: Sandbox, formula: str) -> None:
    sb.queue_raw(200, json.dumps({"success": False, "errors": [{"code": None, "message": formula}]}).encode())
    sb.queue_raw(200, json.dumps({"success": True, "trackingid": formula}).encode())
    path = csv_file(tmp_path, ONE_ROW + "HTL001,TWN,2027-02-01,2027-02-03,3\n")
    report = tmp_path / "report.csv"
    args = ["--output", "csv", "--report", str(report), "--batch-size", "1", "--no-merge", "--concurrency", "1"]
    result = push(path, *args, env=sandbox_env(sb))
    assert result.exit_code == 1
    for text in (result.stdout, report.read_text(encoding="utf-8")):
        rows = list(csv.DictReader(io.StringIO(text)))
        assert rows[0]["errors"].startswith(f"'{formula}")
        assert rows[1]["trackingids"] == f"'{formula}"
        for row in rows:
            assert not any(cell[:1] in "=+-@" for cell in row.values() if cell)
