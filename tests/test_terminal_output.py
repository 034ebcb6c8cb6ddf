"""At a real terminal (a pseudo-terminal), JSON and CSV output never pass on the service's control characters;
CSV output and reports neutralise every formula start OWASP lists, tab and carriage return included."""

from __future__ import annotations

import csv
import fcntl
import io
import json
import os
import pty
import struct
import subprocess
import sys
import termios
from pathlib import Path

import pytest

from ari_cli.sandbox import Sandbox
from tests.helpers import sandbox_env
from tests.test_output_safety import HOSTILE, UNSAFE, assert_clean

ARI_CLI = str(Path(sys.executable).parent / "ari-cli")
ROW = "propertyid,roomid,start,end,threshold\nHTL001,DBL,2027-02-01,2027-02-03,2\n"


def at_a_terminal(
    args: list[str], env: dict[str, str], columns: int = 200, *, tell_columns: bool = True
) -> tuple[int, str, str]:
    """Run `ari-cli ARGS` with stdout a pseudo-terminal `columns` wide: exit code, what the terminal got, stderr.

    `tell_columns=False` leaves COLUMNS out of the environment: the width is then the terminal's own.
    """
    main, child = pty.openpty()
    fcntl.ioctl(child, termios.TIOCSWINSZ, struct.pack("HHHH", 50, columns, 0, 0))
    environment = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    environment.update(env)
    if tell_columns:
        environment["COLUMNS"] = str(columns)
    process = subprocess.Popen([ARI_CLI, *args], stdout=child, stderr=subprocess.PIPE, env=environment)
    os.close(child)
    received = bytearray()
    while True:
        try:
            chunk = os.read(main, 65536)
        except OSError:  # the terminal's other end closed
            break
        if not chunk:
            break
        received += chunk
    os.close(main)
    assert process.stderr is not None
    stderr = process.stderr.read().decode()
    # A terminal turns "\n" into "\r\n": that carriage return is the terminal's, not the service's.
    return process.wait(timeout=60), received.decode().replace("\r\n", "\n"), stderr


@pytest.fixture
def hostile_answer(sb: Sandbox) -> Sandbox:
    sb.queue_raw(
        200, json.dumps({"success": False, "trackingid": f"t{HOSTILE}", "errors": [{"message": HOSTILE}]}).encode()
    )
    return sb


def test_json_at_a_terminal_escapes_the_services_control_characters(tmp_path: Path, hostile_answer: Sandbox) -> None:
    path = tmp_path / "rooms.csv"
    path.write_text(ROW)
    code, shown, stderr = at_a_terminal(["threshold", "push", str(path), "-o", "json"], sandbox_env(hostile_answer))
    assert code == 1, stderr
    assert_clean(shown)
    document = json.loads(shown)  # still the same document: only JSON escapes were used
    assert document["rows"][0]["trackingids"] == [f"t{HOSTILE}"]
    assert document["rows"][0]["errors"][0]["message"] == HOSTILE


def test_csv_at_a_terminal_escapes_the_services_control_characters(tmp_path: Path, hostile_answer: Sandbox) -> None:
    path = tmp_path / "rooms.csv"
    path.write_text(ROW)
    code, shown, stderr = at_a_terminal(["threshold", "push", str(path), "-o", "csv"], sandbox_env(hostile_answer))
    assert code == 1, stderr
    assert_clean(shown)
    (row,) = csv.DictReader(io.StringIO(shown))
    assert row["trackingids"] == "t\\x1b[2J\\x1b]0;pwned\\x07\\x1b[8m\\r\\x08\\x9b31m\\u202e"


def test_csv_into_a_file_keeps_the_text_as_sent(tmp_path: Path, hostile_answer: Sandbox) -> None:
    path = tmp_path / "rooms.csv"
    path.write_text(ROW)
    done = subprocess.run(
        [ARI_CLI, "threshold", "push", str(path), "-o", "csv"],
        capture_output=True,
        env={**os.environ, **sandbox_env(hostile_answer)},
        timeout=60,
    )
    assert done.returncode == 1
    (row,) = csv.DictReader(io.StringIO(done.stdout.decode()))
    assert row["trackingids"] == f"t{HOSTILE}"  # a file or a pipe gets the data itself
    assert any(c in UNSAFE for c in row["trackingids"])


@pytest.mark.parametrize("start", ["\t", "\r"])
def test_tab_and_carriage_return_formula_starts_are_neutralised(tmp_path: Path, sb: Sandbox, start: str) -> None:
    sb.queue_raw(200, json.dumps({"success": True, "trackingid": f"{start}=1+2"}).encode())
    path = tmp_path / "rooms.csv"
    path.write_text(ROW)
    report = tmp_path / "report.csv"
    done = subprocess.run(
        [ARI_CLI, "threshold", "push", str(path), "-o", "csv", "--report", str(report)],
        capture_output=True,
        env={**os.environ, **sandbox_env(sb)},
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    for text in (done.stdout.decode(), report.read_bytes().decode()):
        (row,) = csv.DictReader(io.StringIO(text))
        assert row["trackingids"] == f"'{start}=1+2"


def test_an_id_holding_control_characters_is_refused_and_named_escaped_at_a_terminal(tmp_path: Path) -> None:
    path = tmp_path / "rooms.csv"
    # An id holding a control character is an input error since issue 29's round two (a bidirectional control
    # since issue 30): it never reaches --curl, and its error writes nothing a terminal would act on.
    path.write_text("propertyid,roomid,start,end,threshold\nHTL\x9b31m\x1b,DBL,2099-02-01,2099-02-02,2\n")
    code, shown, stderr = at_a_terminal(["threshold", "push", str(path), "--dry-run", "--curl"], {"NO_COLOR": "1"})
    assert code == 3
    assert_clean(shown, stderr)
    assert "line 2, propertyid: holds U+009B, a control character: type the id again without it\n" in stderr
    assert "curl" not in shown
