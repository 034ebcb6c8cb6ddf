"""Whatever comes in, a run ends within seconds and within bounds: endless streams, binaries, long lines, zip bombs.

These run the console script in a process of its own, so that its time and peak memory are its own.
"""

from __future__ import annotations

import datetime as dt
import subprocess
import sys
import tempfile
import threading
import time
import zipfile
from pathlib import Path
from typing import IO, NamedTuple

import openpyxl
import pytest

from ari_cli.records.policy import MAX_POLICY_ROWS
from ari_cli.records.table import MAX_KEYS

ARI = Path(sys.executable).parent / "ari-cli"
HEADER = b"propertyid,roomid,start,end,threshold\n"
pytestmark = [
    pytest.mark.skipif(not ARI.exists(), reason="needs the ari-cli console script"),
    pytest.mark.skipif(sys.platform == "win32", reason="devices and peak memory as POSIX gives them"),
]


def _feed(stream: IO[bytes], chunk: bytes) -> None:
    """Write `chunk` for ever, until the reader goes away."""
    try:
        stream.write(HEADER)
        while True:
            stream.write(chunk)
    except (BrokenPipeError, ValueError, OSError):
        pass


# A small launcher runs ari-cli and writes its peak memory: measured in a fresh process, the peak is
# ari-cli's own, not that of the test process it was forked from.
_LAUNCH = (
    "import os, subprocess, sys; child = subprocess.Popen(sys.argv[2:]); _, status, usage = os.wait4(child.pid, 0); "
    "child.returncode = 0; open(sys.argv[1], 'w').write(str(usage.ru_maxrss)); "
    "sys.exit(os.waitstatus_to_exitcode(status))"
)


class Ran(NamedTuple):
    code: int
    stdout: str
    stderr: str
    seconds: float
    peak_mib: float


def run(args: list[str], tmp_path: Path, endless: bytes | None = None) -> Ran:
    """Run ari-cli ARGS (standard input an endless stream of `endless`): what it wrote, its time and peak memory."""
    peak = tmp_path / "peak"
    started = time.monotonic()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        stdin = subprocess.DEVNULL if endless is None else subprocess.PIPE
        command = [sys.executable, "-c", _LAUNCH, str(peak), str(ARI), *args]
        process = subprocess.Popen(command, stdin=stdin, stdout=out, stderr=err)
        if endless is not None:
            assert process.stdin is not None
            threading.Thread(target=_feed, args=(process.stdin, endless), daemon=True).start()
        try:
            process.wait(timeout=180)
        finally:
            process.kill()
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read().decode(), err.read().decode()
    kib = int(peak.read_text())  # Linux gives KiB, macOS bytes
    return Ran(
        process.returncode,
        stdout,
        stderr,
        time.monotonic() - started,
        kib / (2**20 if sys.platform == "darwin" else 1024),
    )


def test_an_endless_standard_input_stops_within_bounds(tmp_path: Path) -> None:
    done = run(
        ["threshold", "push", "-", "--dry-run"], tmp_path, endless=b"HTL001,DBL,2028-01-01,2028-01-01,3\n" * 1000
    )
    assert done.code == 3
    assert done.stderr == (
        "error: standard input: more than 128 MiB; standard input, pipes and devices are read up to that\n"
        "hint: give the export as a regular file, which is streamed, or split it\n"
    )
    assert done.seconds < 90 and done.peak_mib < 300


def test_a_line_that_never_ends_on_standard_input_stops_within_bounds(tmp_path: Path) -> None:
    done = run(["threshold", "push", "-", "--format", "csv", "--dry-run"], tmp_path, endless=b"HTL001," * 1000)
    assert done.code == 3
    assert done.stderr == (
        "error: standard input: more than 128 MiB; standard input, pipes and devices are read up to that\n"
        "hint: give the export as a regular file, which is streamed, or split it\n"
    )
    assert done.peak_mib < 300


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_a_device_given_as_a_file_stops_within_bounds(tmp_path: Path, device: str) -> None:
    if not Path(device).exists():
        pytest.skip(f"no {device}")
    done = run(["threshold", "push", device, "--format", "csv", "--dry-run"], tmp_path)
    assert done.code == 3
    assert done.stderr.startswith(f"error: {device} line 1: holds a NUL byte; this is not a text file\n")
    assert "Traceback" not in done.stderr and done.seconds < 90 and done.peak_mib < 300


def test_a_line_over_the_limit_stops_the_run(tmp_path: Path) -> None:
    path = tmp_path / "r.csv"
    path.write_bytes(HEADER + b"HTL001," + b"," * (5 * 2**20) + b"\n")
    done = run(["threshold", "push", str(path), "--dry-run"], tmp_path)
    assert done.code == 3 and done.stdout == ""
    assert done.stderr == (
        f"error: {path} line 2: longer than 4194304 characters; this does not look like CSV\n"
        "hint: check that the file is a CSV export (not binary data), and that its lines end\n"
    )
    assert done.seconds < 90 and done.peak_mib < 300


def write_bomb(tmp_path: Path) -> Path:
    """A workbook of under 2 MiB whose sheet unpacks to 1 GiB."""
    plain = tmp_path / "plain.xlsx"
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.append(["propertyid", "roomid", "date", "threshold"])
    book.save(plain)
    bomb = tmp_path / "bomb.xlsx"
    with zipfile.ZipFile(plain) as source, zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as out:
        for item in source.infolist():
            data = source.read(item.filename)
            if item.filename.startswith("xl/worksheets/"):
                data = data.replace(b"<sheetData", b"<!--" + b" " * 2**30 + b"--><sheetData", 1)
            out.writestr(item.filename, data, compresslevel=9)
    assert bomb.stat().st_size < 2**21
    return bomb


def test_a_zip_bomb_workbook_is_refused_before_it_is_read(tmp_path: Path) -> None:
    bomb = write_bomb(tmp_path)
    done = run(["threshold", "push", str(bomb), "--dry-run"], tmp_path)
    assert done.code == 3
    assert done.stderr.startswith(f"error: {bomb}: the workbook unpacks to 1024 MiB from ")
    assert "refused (a workbook may unpack to 100 times its size, and at most 2 GiB)" in done.stderr
    assert done.seconds < 90 and done.peak_mib < 300


def refused(operation: str, path: Path, tmp_path: Path) -> str:
    """What a push of `path` says when a bound of the run refuses it: nothing on stdout, exit 3, within bounds."""
    args = [operation, "push", str(path), "--sandbox", "--today", "2026-11-27", "--no-journal", "--quiet"]
    done = run(args, tmp_path)
    assert (done.code, done.stdout) == (3, "")
    assert done.seconds < 90 and done.peak_mib < 500
    return done.stderr


def test_a_run_of_more_keys_than_the_bound_is_refused_naming_the_key_one_too_many(tmp_path: Path) -> None:
    # A file's size does not bound its keys (an .xlsx whose cells leave out their references packs a million rows
    # of distinct rooms into 5 MB), so the run does: each key costs some 600 bytes while it is planned and sent.
    path = tmp_path / "rooms.csv"
    with path.open("w") as out:
        out.write("propertyid,roomid,date,threshold\n")
        out.writelines(f"HTL001,R{i},2026-12-01,{1 + i % 2}\n" for i in range(MAX_KEYS + 1))
    assert refused("threshold", path, tmp_path) == (
        f'error: {path}: property "HTL001", room "R{MAX_KEYS}" is one key too many: a run names at most '
        f"{MAX_KEYS:,} keys (property, room and, for maxadv and policies, rate); nothing was sent\n"
        "hint: split the file by property and give each part on its own\n"
    )


def test_a_run_of_more_policy_rows_than_the_bound_is_refused_naming_the_row_past_it(tmp_path: Path) -> None:
    # A policy is a request of its own and costs a kilobyte however few its rooms: one room's dates are enough.
    path = tmp_path / "policies.csv"
    first = dt.date(2027, 1, 1)
    with path.open("w") as out:
        out.write("propertyid,roomid,rateid,date,refundable,level,policyid,dayspriorcheckin,penaltyamount,"
                  "penaltyapplied,depositpolicy,depositamount,depositapplied,depositintervalunits\n")  # fmt: skip
        out.writelines(
            f"HTL001,DBL,BAR,{first + dt.timedelta(days=i % 20_000)},true,{1 + i // 20_000 % 2},2,7,100,3,"
            "not required,30,4,0\n"
            for i in range(MAX_POLICY_ROWS + 1)
        )
    assert refused("policy", path, tmp_path) == (
        f"error: {path} line {MAX_POLICY_ROWS + 2}: a run reads at most {MAX_POLICY_ROWS:,} policy rows (each "
        "policy is a request of its own); nothing was sent\n"
        "hint: split the file by property and give each part on its own\n"
    )


def test_weekday_filters_that_ask_for_millions_of_records_are_refused_naming_the_row(tmp_path: Path) -> None:
    # Each row asks for a record per Monday, Wednesday and Friday to 2099: some 11,400. A file of 6 KB asks
    # for 1.1 million; the 88th row (line 89) passes the bound of 1,000,000 (`plan.MAX_WEEKDAY_RECORDS`).
    path = tmp_path / "rooms.csv"
    rows = "".join(f'HTL001,R{i},2026-12-01,2099-12-31,"Mon,Wed,Fri",2\n' for i in range(100))
    path.write_text("propertyid,roomid,start,end,days,threshold\n" + rows)
    args = ["threshold", "push", str(path), "--sandbox", "--today", "2026-11-27", "--no-journal", "--quiet"]
    done = run(args, tmp_path)
    assert (done.code, done.stdout) == (3, "")
    assert done.stderr == (
        f"error: {path} line 89: with this row's weekday filter, the input asks for more than 1,000,000 records "
        "(one per run of days); nothing was sent\n"
        "hint: split the file by property or by dates and give each part on its own\n"
    )
    assert done.seconds < 90 and done.peak_mib < 500

    # Just under the bound, the same rows plan (and would be sent).
    path.write_text("propertyid,roomid,start,end,days,threshold\n" + "".join(rows.splitlines(True)[:87]))
    done = run([*args, "--dry-run", "--output", "csv"], tmp_path)
    assert done.code == 0, done.stderr
