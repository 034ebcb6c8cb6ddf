"""Pipes and closed streams, as a shell makes them: the console script run as a process.

A reader that goes away (`| head`) ends the output quietly and the run finishes as it would have
(report, journal, exit code); a closed stderr never stops a run; a closed or full stdout is a clear error.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import sandbox_env

ARI_CLI = str(Path(sys.executable).parent / "ari-cli")
BASH = shutil.which("bash") or "/bin/bash"
TODAY = dt.date.today()
ROWS = 300  # several requests of the default batch size, and more output than a pipe holds (64 KiB)


@pytest.fixture
def big(tmp_path: Path) -> Path:
    path = tmp_path / "rooms.csv"
    days = (TODAY + dt.timedelta(days=n) for n in range(1, ROWS + 1))
    path.write_text("propertyid,roomid,start,end,threshold\n" + "".join(f"HTL001,DBL,{d},{d},{d.day}\n" for d in days))
    return path


def env_for(sandbox: Any) -> dict[str, str]:
    return {**os.environ, **sandbox_env(sandbox)}


def started(args: list[str], sandbox: Any, close: str) -> tuple[int, str]:
    """Run `ari-cli ARGS` with `close` (stdout or stderr) a pipe closed before anything is written to it;
    the exit code and what the other stream got."""
    process = subprocess.Popen(
        [ARI_CLI, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env_for(sandbox), text=True
    )
    assert process.stdout is not None and process.stderr is not None
    closed, kept = (process.stdout, process.stderr) if close == "stdout" else (process.stderr, process.stdout)
    closed.close()
    other = kept.read()
    return process.wait(timeout=120), other


@pytest.mark.parametrize("form", ["table", "json", "csv"])
def test_a_reader_that_goes_away_keeps_the_exit_code_and_the_report(
    tmp_path: Path, sandbox: Any, big: Path, form: str
) -> None:
    report = tmp_path / "r.json"
    code, stderr = started(["threshold", "push", str(big), "-o", form, "--report", str(report)], sandbox, "stdout")
    assert code == 0, stderr
    assert stderr == ""
    document = json.loads(report.read_text())
    assert document["summary"]["ok"] == ROWS and len(sandbox.received) == document["summary"]["requests"] == 6


def test_head_of_a_successful_push_exits_0(sandbox: Any, big: Path) -> None:
    shell = f"{ARI_CLI} threshold push {big} --output json | head -c 100; echo; echo ${{PIPESTATUS[0]}}"
    done = subprocess.run([BASH, "-c", shell], capture_output=True, text=True, env=env_for(sandbox), timeout=120)
    assert done.stdout.startswith('{"operation": "threshold"') and done.stdout.splitlines()[-1] == "0"
    assert done.stderr == ""
    assert len(sandbox.received) == 6


def test_a_closed_stderr_never_stops_a_run(sandbox: Any, big: Path) -> None:
    code, stdout = started(["threshold", "push", str(big), "--verbose", "--output", "json"], sandbox, "stderr")
    assert code == 0
    document = json.loads(stdout)
    assert document["summary"]["ok"] == ROWS
    assert len(sandbox.received) == 6


def test_verbose_into_a_pipe_that_closes_sends_every_request(sandbox: Any, big: Path) -> None:
    shell = f"{ARI_CLI} threshold push {big} --verbose 2>&1 | head -3 >/dev/null; echo ${{PIPESTATUS[0]}}"
    done = subprocess.run([BASH, "-c", shell], capture_output=True, text=True, env=env_for(sandbox), timeout=120)
    assert (done.stdout, done.stderr) == ("0\n", "")
    assert len(sandbox.received) == 6


def test_a_closed_stdout_is_refused_before_sending(sandbox: Any, big: Path) -> None:
    shell = f"{ARI_CLI} threshold push {big} >&-"
    done = subprocess.run([BASH, "-c", shell], capture_output=True, text=True, env=env_for(sandbox), timeout=120)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == (
        "error: standard output is closed: there is nowhere to show the results\n"
        "hint: send it to a file or to /dev/null (`> results.txt`)\n"
    )
    assert sandbox.received == []


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_a_full_stdout_is_a_clear_error_and_the_report_is_still_written(
    tmp_path: Path, sandbox: Any, big: Path
) -> None:
    report = tmp_path / "r.csv"
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [ARI_CLI, "threshold", "push", str(big), "-o", "json", "--report", str(report)],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            env=env_for(sandbox),
            timeout=120,
        )
    assert done.returncode == 1
    assert done.stderr == "error: cannot write to standard output: No space left on device\n"
    assert len(report.read_text().splitlines()) == ROWS + 1 and len(sandbox.received) == 6
