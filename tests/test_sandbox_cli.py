"""`ari-cli sandbox` as a real process: its banner, its curl example, and a clean Ctrl-C."""

from __future__ import annotations

import json
import queue
import re
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

STARTUP_SECONDS = 20


class Running:
    """A started `ari-cli sandbox` with its stdout read line by line on a thread."""

    def __init__(self, *args: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "ari_cli", "sandbox", *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\n"))
        self.lines.put(None)

    def banner(self) -> list[str]:
        """stdout up to the `Press Ctrl-C` line."""
        seen: list[str] = []
        deadline = time.monotonic() + STARTUP_SECONDS
        while time.monotonic() < deadline:
            try:
                line = self.lines.get(timeout=0.2)
            except queue.Empty:
                continue
            if line is None:
                break
            seen.append(line)
            if line.startswith("Press Ctrl-C"):
                return seen
        self.process.kill()
        _, err = self.process.communicate()
        pytest.fail(f"no banner; stdout={seen!r} stderr={err!r}")

    def interrupt(self) -> tuple[int, str]:
        """Send SIGINT; the exit code and stderr."""
        self.process.send_signal(signal.SIGINT)
        try:
            self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.process.kill()
            pytest.fail("the sandbox did not stop on SIGINT")
        assert self.process.stderr is not None
        return self.process.returncode, self.process.stderr.read()


@pytest.fixture
def running() -> Iterator[list[Running]]:
    started: list[Running] = []
    yield started
    for each in started:
        if each.process.poll() is None:
            each.process.kill()
            each.process.wait()


def field(lines: list[str], label: str) -> str:
    for line in lines:
        match = re.match(rf"\s*{label}:\s+(\S+)$", line)
        if match:
            return match[1]
    raise AssertionError(f"no {label!r} in {lines!r}")


@pytest.mark.skipif(shutil.which("curl") is None, reason="curl is not installed")
def test_printed_curl_example_succeeds_and_ctrl_c_exits_0(running: list[Running]) -> None:
    sandbox = Running("--port", "0", "--today", "2027-01-01")
    running.append(sandbox)
    lines = sandbox.banner()
    url = re.search(r"listening on (http://127\.0\.0\.1:\d+)$", lines[0])
    assert url, lines
    assert field(lines, "api key") == "sandbox-key-0001"
    assert field(lines, "source id") == "cpbA1"
    (example,) = [line.strip() for line in lines if line.strip().startswith("curl ")]
    assert url[1] in example
    done = subprocess.run(shlex.split(example), capture_output=True, text=True, timeout=20, check=True)
    answer = json.loads(done.stdout)
    assert answer["success"] is True and answer["trackingid"]
    state = subprocess.run(
        ["curl", "-sS", f"{url[1]}/_sandbox/state"], capture_output=True, text=True, timeout=20, check=True
    )
    assert json.loads(state.stdout)["threshold"]["HTL001"]["DBL"]
    code, stderr = sandbox.interrupt()
    assert code == 0, stderr
    assert "Traceback" not in stderr


def test_non_loopback_host_warns(running: list[Running]) -> None:
    sandbox = Running("--host", "0.0.0.0", "--port", "0")
    running.append(sandbox)
    lines = sandbox.banner()
    assert re.search(r"listening on http://127\.0\.0\.1:\d+$", lines[0])
    code, stderr = sandbox.interrupt()
    assert code == 0
    assert "warning" in stderr and "0.0.0.0" in stderr


def test_loopback_host_does_not_warn(running: list[Running]) -> None:
    sandbox = Running("--port", "0")
    running.append(sandbox)
    sandbox.banner()
    code, stderr = sandbox.interrupt()
    assert code == 0
    assert "warning" not in stderr


def test_custom_fixtures_are_advertised(running: list[Running], tmp_path: Path) -> None:
    path = tmp_path / "world.toml"
    path.write_text('[[accounts]]\nkey = "k-1"\nsource_id = "cpbZZ"\n[[properties]]\nid = "P1"\nrooms = ["R1"]\n')
    sandbox = Running("--port", "0", "--fixtures", str(path))
    running.append(sandbox)
    lines = sandbox.banner()
    assert (field(lines, "api key"), field(lines, "source id")) == ("k-1", "cpbZZ")
    assert sandbox.interrupt()[0] == 0


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (["--latency", "fast"], 2),
        (["--today", "tomorrow"], 2),
        (["--fail-rate", "2"], 2),
        (["--fixtures", "/nonexistent/fixtures.toml"], 2),
    ],
)
def test_bad_options(args: list[str], code: int) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "ari_cli", "sandbox", "--port", "0", *args],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == code, done.stderr
    assert "Traceback" not in done.stderr


def test_bad_fixtures_file(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text("[[accounts]]\n")
    done = subprocess.run(
        [sys.executable, "-m", "ari_cli", "sandbox", "--port", "0", "--fixtures", str(path)],
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 3, done.stderr
    assert "fixtures" in done.stderr and "Traceback" not in done.stderr


def test_port_in_use() -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run(
            [sys.executable, "-m", "ari_cli", "sandbox", "--port", str(port)],
            capture_output=True,
            text=True,
            timeout=30,
        )
    # Exit 4 (configuration), not 1, which says rows failed.
    assert done.returncode == 4, done.stderr
    assert done.stdout == ""
    assert f"error: cannot listen on 127.0.0.1:{port}" in done.stderr
    assert "hint: another program (perhaps another sandbox) uses port" in done.stderr
    assert "--port 0 picks a free one" in done.stderr and "Traceback" not in done.stderr


def sandbox_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ari_cli", "sandbox", *args], capture_output=True, text=True, timeout=30
    )


def post(url: str, body: dict[str, object]) -> tuple[int, dict[str, object]]:
    done = subprocess.run(
        ["curl", "-sS", "-w", "\\n%{http_code}", url, "-H", "content-type: application/json", "-d", json.dumps(body)],
        capture_output=True, text=True, timeout=20, check=True,
    )  # fmt: skip
    answer, status = done.stdout.rsplit("\n", 1)
    return int(status), json.loads(answer)


@pytest.mark.skipif(shutil.which("curl") is None, reason="curl is not installed")
def test_faults_from_the_command_line_answer_in_order_then_every_request(running: list[Running]) -> None:
    sandbox = Running("--port", "0", "--today", "2027-01-01", "--fault", "408:1", "--fault", "428:2", "--fault", "502")
    running.append(sandbox)
    lines = sandbox.banner()
    assert "  fault:      the next push request: HTTP 408, code 408: processing error" in lines
    assert "  fault:      the next 2 push requests: HTTP 428, code 454: invalid endpoint" in lines
    assert "  fault:      every push request: HTTP 502, code 502: bad gateway" in lines
    url = lines[0].rsplit(" ", 1)[1]
    body = {"sharepost": "sandbox-key-0001", "sourceid": "cpbA1", "propertyid": "HTL001",
            "action": "sellthresholdupdate",
            "data": [{"startdateymd": "2027-02-01", "enddateymd": "2027-02-02", "roomid": "DBL", "threshold": "5"}]}  # fmt: skip
    push = f"{url}/v2/push_ari/cpbA1/sellthresholdupdate"
    answers = [post(push, body) for _ in range(5)]
    assert [(status, a["errors"][0]["code"]) for status, a in answers] == [  # type: ignore[index]
        (408, 408),
        (428, 454),
        (428, 454),
        (502, 502),
        (502, 502),
    ]
    pending = subprocess.run(["curl", "-sS", f"{url}/_sandbox/faults"], capture_output=True, text=True, timeout=20)
    assert json.loads(pending.stdout)["pending"] == [{"kind": "error", "status": 502, "times": None}]
    assert sandbox.interrupt()[0] == 0


def test_the_banner_lists_rooms_rates_and_what_each_test_account_answers(running: list[Running]) -> None:
    sandbox = Running("--port", "0")
    running.append(sandbox)
    lines = sandbox.banner()
    text = "\n".join(lines)
    assert "    HTL001\n      rooms: DBL, SGL, STE, TWN (switched off: OLD)\n" in text
    assert "      rates: BAR, BB, FLEX, NRF (switched off: PROMO)" in lines
    assert "    HTL900 (inactive: every push answers 423)" in lines
    assert "    sandbox-key-0001           cpbA1  accepted (the default)" in lines
    assert "    sandbox-key-0002-inactive  cpbB2  HTTP 418, code 442: endpoint is not active" in lines
    assert "    sandbox-key-0003-blocked   cpbC3  HTTP 425, code 471: channel id blocked" in lines
    assert any(line.startswith("  faults:     POST http://127.0.0.1:") for line in lines)
    assert sandbox.interrupt()[0] == 0


@pytest.mark.parametrize(
    ("faults", "said"),
    [
        (["999"], "'999': STATUS must be an HTTP status of the error table (402, 404"),
        (["413"], "'413': STATUS must be an HTTP status of the error table"),
        (["503:0"], "'503:0': COUNT must be a whole number of at least 1"),
        (["503:x"], "'503:x': COUNT must be a whole number of at least 1"),
        (["503", "502:1"], "'503' answers every request, so a --fault after it would never apply"),
    ],
)
def test_a_wrong_fault_is_a_usage_error(faults: list[str], said: str) -> None:
    done = sandbox_cli("--port", "0", *(arg for f in faults for arg in ("--fault", f)))
    assert done.returncode == 2, done.stderr
    assert said in " ".join(done.stderr.split()) and "--fault" in done.stderr
    assert done.stdout == "" and "Traceback" not in done.stderr


def test_write_fixtures_gives_a_starting_point_the_sandbox_reads(running: list[Running], tmp_path: Path) -> None:
    path = tmp_path / "world.toml"
    done = sandbox_cli("--write-fixtures", str(path))
    assert done.returncode == 0, done.stderr
    assert done.stdout == ""
    assert f"wrote the default fixtures to {path}" in done.stderr
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# Default fixtures") and 'key = "sandbox-key-0003-blocked"' in text
    path.write_text(text.replace('"SUI"]', '"SUI", "LOFT"]'), encoding="utf-8")
    sandbox = Running("--port", "0", "--fixtures", str(path))
    running.append(sandbox)
    assert "      rooms: DBL, FAM, KNG, LOFT, SUI" in sandbox.banner()
    assert sandbox.interrupt()[0] == 0
    again = sandbox_cli("--write-fixtures", str(path))
    assert again.returncode == 2
    assert "already exists; --write-fixtures does not overwrite a file" in again.stderr
    assert "LOFT" in path.read_text(encoding="utf-8")  # nothing lost


def test_help_documents_the_faults_endpoint_and_the_exit_codes() -> None:
    from tests.helpers import invoke

    result = invoke(["sandbox", "--help"])
    assert result.exit_code == 0
    text = " ".join(result.stdout.split())
    assert "--fault" in text and "STATUS[:COUNT]" in text
    assert 'POST /_sandbox/faults and a JSON body: {"kind": "error", "status": 503, "times": 2}' in text
    assert "GET /_sandbox/faults" in text and "POST /_sandbox/reset" in text
    assert "4 the port is in use" in text and "--write-fixtures" in text
