"""A big CSV file read by two processes gives exactly what one reader gives.

`tableread.read_halves` forks a child that checks the file's plain blocks from a cut on while the
parent reads the rows before it. Wherever the cut falls (every line start of files with quotes
across lines, invalid rows, blank and ragged lines, weekday filters, BOMs and undecodable bytes),
the rows, their lines, the errors and the plan must be those of a single reader. Forking beside
the test run's threads is unsafe, so each check runs in a process of its own.
"""

from __future__ import annotations

import datetime as dt
import io
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from ari_cli.inputs import ReadOptions, read_rows
from ari_cli.inputs.csvfile import CsvRows
from ari_cli.tableread import may_fork
from ari_cli.wire.operations import Operation

TODAY = dt.date(2027, 1, 10)

# For every line start past the header: the table read whole, and read in two halves cut there.
CHECK = r"""
import datetime as dt, json, sys
from ari_cli.exits import InputError
from ari_cli.inputs import ReadOptions, csvfile, read_rows
from ari_cli.wire.operations import Operation
from ari_cli.plan import PlanOptions
from ari_cli.records.rows import DateOptions
from ari_cli.table import RowTable
from ari_cli.tableplan import plan_table
from ari_cli.tableread import read_halves, read_table

path, operation, encoding = sys.argv[1], Operation(sys.argv[2]), sys.argv[3] or None
csvfile.CHUNK_CHARS = int(sys.argv[4])
today = dt.date.fromisoformat(sys.argv[5])
dates = DateOptions(today)

def outcome(cut):
    try:
        read = read_rows([path], operation, ReadOptions(encoding=encoding))
        if cut is None:
            table = read_table(read, operation, dates)
        else:
            table = RowTable(operation, dates)
            read_halves(table, read.parts[0], cut)
    except InputError as problem:
        return {"error": problem.message}
    plan = plan_table(table, PlanOptions(today))
    return {
        "rows": [repr(view) for view in table], "errors": table.errors,
        "settings": [repr(setting) for setting in table.settings],
        "records": [repr(record) for record in plan.records], "warnings": plan.warnings,
        "skipped": plan.skipped, "lines": [table.line(i) for i in range(len(table))],
    }

data = open(path, "rb").read()
header_end = data.index(b"\n") + 1
cuts = [i + 1 for i, byte in enumerate(data) if byte == 10 and header_end <= i + 1 < len(data)]
whole = outcome(None)
print(json.dumps({"whole": whole, "cuts": len(cuts), "different": [c for c in cuts if outcome(c) != whole]}))
"""


def check(path: Path, operation: Operation = Operation.THRESHOLD, encoding: str = "", chunk: int = 64 * 1024) -> dict:
    done = subprocess.run(
        [sys.executable, "-c", CHECK, str(path), operation.value, encoding, str(chunk), TODAY.isoformat()],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    result: dict = json.loads(done.stdout)
    assert result["cuts"] > 10
    return result


def day(offset: int) -> str:
    return (TODAY + dt.timedelta(days=offset)).isoformat()


def export(count: int, room: str = "R{i}") -> list[str]:
    """A sorted export's rows: a few rooms, a value that changes now and then."""
    return [f"H1,{room.format(i=i // 10)},{day(i % 10)},{(i // 4) % 3}" for i in range(count)]


def write(path: Path, lines: list[str], newline: str = "\n", encoding: str = "utf-8") -> Path:
    path.write_bytes(newline.join(lines).encode(encoding) + newline.encode(encoding))
    return path


HEADER = "propertyid,roomid,date,threshold"


@pytest.mark.parametrize("chunk", [40, 64 * 1024])
def test_a_plain_export_is_read_the_same_wherever_it_is_cut(tmp_path: Path, chunk: int) -> None:
    result = check(write(tmp_path / "rooms.csv", [HEADER, *export(40)]), chunk=chunk)
    assert result["different"] == []
    assert len(result["whole"]["rows"]) == 40 and len(result["whole"]["records"]) > 4


@pytest.mark.parametrize("chunk", [40, 64 * 1024])
def test_rows_for_the_precise_path_and_odd_lines_in_either_half(tmp_path: Path, chunk: int) -> None:
    rows = export(40)
    rows[7] = f"H1,R0,{day(7)},1000"  # invalid
    rows[25] = f'H1,"R2",{day(5)},1'  # quoted
    rows[28] = ""  # blank
    rows[31] = "H1,R3"  # short
    rows[35] = f"H1,R3,{day(20)},n/a,,"  # wide but empty
    rows[37] = "H1,R3,today+30,2"  # a relative date
    result = check(write(tmp_path / "rooms.csv", [HEADER, *rows]), chunk=chunk)
    assert result["different"] == []
    assert any("1000" in " ".join(messages) for messages in result["whole"]["errors"].values())


@pytest.mark.parametrize("chunk", [40, 64 * 1024])
def test_quoted_values_across_lines_on_either_side_of_the_cut(tmp_path: Path, chunk: int) -> None:
    rows = [f"{row},note" for row in export(40)]
    rows[10] = f'H1,R1,{day(0)},0,"a note\non\nthree lines"'
    rows[30] = f'H1,R3,{day(0)},2,"crlf\r\ninside, and a comma"'
    result = check(write(tmp_path / "rooms.csv", [HEADER + ",notes", *rows]), chunk=chunk)
    assert result["different"] == []
    assert [json.loads(view.split("line=")[1].split(",")[0]) for view in result["whole"]["rows"][9:13]] == [
        11, 12, 15, 16,
    ]  # fmt: skip


@pytest.mark.parametrize("chunk", [40, 64 * 1024])
def test_maxadv_ranges_with_crlf_and_a_weekday_filter(tmp_path: Path, chunk: int) -> None:
    rows = [f"H1,R{i // 8},BAR,{day(2 * i)},{day(2 * i + 1)},{30 + (i // 5) % 2}," for i in range(40)]
    rows[33] = f"H1,R4,BAR,{day(66)},{day(67)},30,Mon-Fri"
    path = write(tmp_path / "rates.csv", ["propertyid,roomid,rateid,start,end,time,days", *rows], newline="\r\n")
    assert check(path, Operation.MAXADV, chunk=chunk)["different"] == []


def test_utf8_with_a_bom_accents_and_a_line_that_starts_with_u_feff(tmp_path: Path) -> None:
    rows = export(40, room="Réf{i}")
    # Not a BOM in the middle of a file but part of the first value; invalid, so that the child
    # stops there and the parent reads on from that line.
    rows[30] = "\ufeff" + rows[30][:-1] + "1000"
    path = tmp_path / "rooms.csv"
    path.write_bytes(b"\xef\xbb\xbf" + ("\n".join([HEADER, *rows]) + "\n").encode("utf-8"))
    result = check(path, chunk=40)
    assert result["different"] == []
    assert "propertyid='\\ufeffH1'" in result["whole"]["rows"][30]


def test_a_single_byte_encoding_given_by_the_user(tmp_path: Path) -> None:
    path = write(tmp_path / "rooms.csv", [HEADER, *export(40, room="Chambre-é{i}")], encoding="cp1252")
    result = check(path, encoding="cp1252", chunk=40)
    assert result["different"] == [] and "Chambre-é0" in result["whole"]["rows"][0]


@pytest.mark.parametrize("chunk", [40, 64 * 1024])
def test_bytes_that_do_not_decode_are_the_same_error_wherever_the_cut(tmp_path: Path, chunk: int) -> None:
    path = tmp_path / "rooms.csv"
    text = ("\n".join([HEADER, *export(40)]) + "\n").encode()
    at = text.index(b"R3")
    path.write_bytes(text[:at] + b"\xff" + text[at:])
    result = check(path, chunk=chunk)
    assert result["different"] == []
    assert "line 32" in result["whole"]["error"] and "UTF-8" in result["whole"]["error"]


@pytest.mark.parametrize("chunk", [40, 64 * 1024])
def test_lone_carriage_returns_among_line_feeds(tmp_path: Path, chunk: int) -> None:
    rows = export(40)
    text = "\n".join([HEADER, *rows[:12]]) + "\r" + "\r".join(rows[12:16]) + "\n" + "\n".join(rows[16:30])
    text += "\r\n" + "\r\n".join(rows[30:]) + "\r\n"
    path = tmp_path / "rooms.csv"
    path.write_bytes(text.encode())
    result = check(path, chunk=chunk)
    assert result["different"] == [] and len(result["whole"]["rows"]) == 40


def test_a_last_line_without_its_line_end(tmp_path: Path) -> None:
    path = tmp_path / "rooms.csv"
    path.write_text("\n".join([HEADER, *export(40)]))
    assert check(path, chunk=40)["different"] == []


# With every file descriptor but one taken, no pipe can be made: the file is read by one process.
SHORT_OF_PIPES = r"""
import datetime as dt, os, resource, sys
from ari_cli.inputs import ReadOptions, read_rows
from ari_cli.wire.operations import Operation
from ari_cli.records.rows import DateOptions
from ari_cli.table import RowTable
from ari_cli.tableread import read_halves, read_table

dates = DateOptions(dt.date.fromisoformat(sys.argv[2]))
whole = read_table(read_rows([sys.argv[1]], Operation.THRESHOLD, ReadOptions()), Operation.THRESHOLD, dates)
read = read_rows([sys.argv[1]], Operation.THRESHOLD, ReadOptions())
resource.setrlimit(resource.RLIMIT_NOFILE, (256, 256))
held = []
try:
    while True:
        held.append(os.open(os.devnull, os.O_RDONLY))
except OSError:
    os.close(held.pop())
table = RowTable(Operation.THRESHOLD, dates)
read_halves(table, read.parts[0], int(sys.argv[3]))
print(list(map(repr, table)) == list(map(repr, whole)) and len(table) == 40)
"""


def test_with_no_pipe_to_spare_one_process_reads_the_file(tmp_path: Path) -> None:
    path = write(tmp_path / "rooms.csv", [HEADER, *export(40)])
    cut = path.read_bytes().index(b"\n", 500) + 1
    command = [sys.executable, "-c", SHORT_OF_PIPES, str(path), TODAY.isoformat(), str(cut)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
    assert (done.returncode, done.stdout, done.stderr) == (0, "True\n", "")


# Where a second reader may start ------------------------------------------------------------------


def rows_of(path: Path, encoding: str | None = None) -> CsvRows:
    rows = read_rows([str(path)], Operation.THRESHOLD, ReadOptions(encoding=encoding)).parts[0]
    assert isinstance(rows, CsvRows)
    return rows


def test_the_cut_is_the_first_line_start_past_the_middle(tmp_path: Path) -> None:
    path = write(tmp_path / "rooms.csv", [HEADER, *export(20_000)])
    data = path.read_bytes()
    at = rows_of(path).cut(min_bytes=1)
    assert at is not None and at > len(data) // 2 and data[at - 1 : at] == b"\n"
    assert b"\n" not in data[len(data) // 2 : at - 1]
    assert rows_of(path).cut(min_bytes=len(data) + 1) is None  # too small to share


def test_no_cut_in_utf16_in_a_small_file_or_on_standard_input(tmp_path: Path) -> None:
    lines = [HEADER, *export(20_000)]
    wide = tmp_path / "wide.csv"
    wide.write_bytes(("\n".join(lines) + "\n").encode("utf-16"))
    assert rows_of(wide).cut(min_bytes=1) is None
    small = write(tmp_path / "small.csv", lines[:100])
    assert rows_of(small).cut(min_bytes=1) is None  # its header lies within the sample read first
    data = write(tmp_path / "big.csv", lines).read_bytes()
    stdin = io.BytesIO(data)
    from_stdin = read_rows(["-"], Operation.THRESHOLD, ReadOptions(format="csv"), stdin=stdin).parts[0]
    assert isinstance(from_stdin, CsvRows) and from_stdin.cut(min_bytes=1) is None


def may_fork_here() -> bool:
    """Whether a process of its own, on this machine, would fork to read a big file."""
    return hasattr(os, "sched_getaffinity") and len(os.sched_getaffinity(0)) > 1 and sys.platform != "darwin"


def test_no_fork_beside_another_thread() -> None:
    release = threading.Event()
    other = threading.Thread(target=release.wait)
    other.start()
    try:
        assert may_fork() is False
    finally:
        release.set()
        other.join()


# The whole command ----------------------------------------------------------------------------------


def test_a_big_file_gives_what_the_same_rows_from_standard_input_give(tmp_path: Path) -> None:
    """Over the size at which two processes read it (standard input is always read by one)."""
    rows = [f"H{i // 40_000},R{(i // 50) % 800},{day(i % 50)},{(i // 7) % 4}" for i in range(220_000)]
    rows[150_000] = f"H3,R0,{day(3)},1000"  # in the second half: the child stops before it
    rows[160_000] = f'H4,"R0",{day(0)},1'
    path = write(tmp_path / "big.csv", [HEADER, *rows])
    assert path.stat().st_size > 4 * 1024 * 1024
    common = ["--dry-run", "--output", "json", "--today", TODAY.isoformat(), "--skip-invalid"]
    direct = run_cli(["threshold", "push", str(path), *common])
    piped = run_cli(["threshold", "push", "-", "--format", "csv", *common], stdin=path.read_bytes())
    assert direct.returncode == piped.returncode == 3, direct.stderr + piped.stderr  # an invalid row
    assert direct.stdout.replace(str(path), "<stdin>") == piped.stdout
    assert direct.stderr.replace(str(path), "<stdin>") == piped.stderr
    assert "line 150002, threshold: 1000 is above the maximum 999" in direct.stderr
    document = json.loads(direct.stdout)
    assert document["summary"]["rows"] == 220_000
    assert [row["line"] for row in document["rows"] if row["status"] == "invalid"] == [150_002]


def run_cli(args: list[str], stdin: bytes | None = None) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [sys.executable, "-m", "ari_cli", *args], input=stdin, capture_output=True, timeout=300, check=False
    )
    return subprocess.CompletedProcess(done.args, done.returncode, done.stdout.decode(), done.stderr.decode())


@pytest.mark.skipif(not Path("/proc/self/task").exists() or not may_fork_here(), reason="needs Linux and two cores")
def test_a_ctrl_c_while_two_processes_read_ends_both_with_one_message(tmp_path: Path) -> None:
    rows = [f"H{i // 100_000},R{(i // 50) % 2000},{day(i % 50)},{(i // 7) % 4}" for i in range(1_500_000)]
    path = write(tmp_path / "big.csv", [HEADER, *rows])
    command = [sys.executable, "-m", "ari_cli", "threshold", "push", str(path), "--dry-run", "--output", "json"]
    run = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    children: list[str] = []
    deadline = time.monotonic() + 60
    while not children and run.poll() is None and time.monotonic() < deadline:
        children = Path(f"/proc/{run.pid}/task/{run.pid}/children").read_text().split()
    assert children, "the file was not read by two processes"
    os.killpg(run.pid, signal.SIGINT)  # as a Ctrl-C at a terminal: the whole process group
    out, err = run.communicate(timeout=60)
    assert (run.returncode, out, err) == (130, b"", b"interrupted\n")
    assert not Path(f"/proc/{children[0]}").exists()  # the child ended, and was waited for
