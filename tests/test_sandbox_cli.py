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
            self.process.wait(timeout=10)
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
    assert done.returncode == 1, done.stderr
    assert "--port" in done.stderr and "Traceback" not in done.stderr
