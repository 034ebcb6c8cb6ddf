"""Every command of the README runs as written, in order, as a newcomer would run them: a fresh home, the
sample files written by `ari-cli samples`, and a sandbox where the README starts one in another terminal.

The README's ```bash and ```shell blocks are read top to bottom. Each command that starts with `ari-cli` is run
through bash (its redirections included) with the installed console script first on PATH, and must end with
the exit code the README states: 0 unless its trailing comment starts with `exit N` (`# exit 1: ...`).
`export NAME=VALUE` lines set the environment of the commands after them, as in a shell.

A command that cannot run here (a real service's URL, cron lines, installs, a long-running server) is marked in
the README as illustrative: a block by an `<!-- illustrative: why -->` line before it, one command by a
trailing `# illustrative: why`. The marks are listed as skipped tests with their reasons.

The one liberty taken: where the README says `ari-cli sandbox` runs in another terminal (on its default port
8765), this test starts `ari-cli sandbox --port 0` and points `127.0.0.1:8765` in the commands at its port, so
that a sandbox someone left running on 8765 cannot answer in its place.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
BIN = Path(sys.executable).parent
DEFAULT_PORT = "127.0.0.1:8765"
FENCE = re.compile(r"^```(bash|shell)\s*$")
BLOCK_MARK = re.compile(r"^<!--\s*illustrative:\s*(?P<why>.*?)\s*-->$")
EXIT_COMMENT = re.compile(r"^exit (?P<code>\d+)\b")
EXPORT = re.compile(r"^export (?P<name>[A-Z_][A-Z0-9_]*)=(?P<value>\S+)$")


@dataclass(frozen=True)
class Command:
    line: int  # where it starts in the README, 1-based
    block: int  # the line of its block's opening fence
    text: str  # as written, continuation lines joined, the trailing comment cut
    comment: str  # the trailing comment without its `#`, or ""
    illustrative: str | None  # why it cannot run here, when the README marks it so
    whole_block: bool  # marked with its block rather than alone

    @property
    def expected_exit(self) -> int:
        found = EXIT_COMMENT.match(self.comment)
        return int(found["code"]) if found else 0


def split_comment(line: str) -> tuple[str, str]:
    """A shell line and its trailing comment: the first `#` outside quotes that starts a word."""
    quote = ""
    for at, char in enumerate(line):
        if quote:
            if char == quote:
                quote = ""
        elif char in "'\"":
            quote = char
        elif char == "#" and (at == 0 or line[at - 1].isspace()):
            return line[:at].rstrip(), line[at + 1 :].strip()
    return line.rstrip(), ""


def commands(text: str) -> list[Command]:
    """The commands of the README's shell blocks, in order: one per logical line, comment lines left out."""
    lines = text.splitlines()
    found: list[Command] = []
    at = 0
    while at < len(lines):
        if not FENCE.match(lines[at]):
            at += 1
            continue
        fence = at + 1
        before = next((lines[i].strip() for i in range(at - 1, -1, -1) if lines[i].strip()), "")
        block_mark = BLOCK_MARK.match(before)
        at += 1
        while not lines[at].startswith("```"):
            start, logical, comment = at, "", ""
            while True:
                code, comment = split_comment(lines[at])
                code = code.strip()
                if code.endswith("\\"):
                    logical += code[:-1].rstrip() + " "
                    at += 1
                    continue
                logical += code
                at += 1
                break
            logical = logical.strip()
            if not logical:
                continue
            why = block_mark["why"] if block_mark else None
            if why is None and comment.startswith("illustrative"):
                why = comment.partition(":")[2].strip()
            found.append(Command(start + 1, fence, logical, comment, why, block_mark is not None))
        at += 1
    return found


README_COMMANDS = commands(README.read_text(encoding="utf-8"))
# One skip per illustrative block, or per command marked alone: (its README line, why).
ILLUSTRATIVE = sorted(
    {
        (c.block if c.whole_block else c.line, c.illustrative or "")
        for c in README_COMMANDS
        if c.illustrative is not None
    }
)
RUNNABLE = [c for c in README_COMMANDS if c.illustrative is None]


def test_the_parser_reads_comments_continuations_exit_codes_and_marks() -> None:
    text = "\n".join([
        "intro",
        "```bash",
        "ari-cli a '# not a comment' \\",
        "  --b \"x # y\"   # exit 3: because",
        "# a comment line",
        "",
        "ari-cli c#d   # illustrative: needs a terminal",
        "```",
        "<!-- illustrative: a real service -->",
        "",
        "```shell",
        "ari-cli e",
        "```",
        "```text",
        "ari-cli f",
        "```",
    ])  # fmt: skip
    got = commands(text)
    assert [(c.line, c.block, c.text, c.expected_exit, c.illustrative, c.whole_block) for c in got] == [
        (3, 2, "ari-cli a '# not a comment' --b \"x # y\"", 3, None, False),
        (7, 2, "ari-cli c#d", 0, "needs a terminal", False),
        (12, 11, "ari-cli e", 0, "a real service", True),
    ]


def test_every_runnable_command_is_an_ari_cli_command_or_an_export() -> None:
    strays = [
        f"README line {c.line}: {c.text}"
        for c in RUNNABLE
        if not (c.text.startswith("ari-cli ") or EXPORT.match(c.text))
    ]
    assert not strays, "mark these illustrative (and say why), or make them ari-cli commands:\n" + "\n".join(strays)


def test_the_set_up_commands_push_as_a_command_that_runs_here() -> None:
    """An install shown with the job after it (`pip install -e . && ari-cli ...`) is not run here; the job is
    the same, character for character, as a command that is."""
    jobs = [
        c.text.partition(" && ")[2] for c in README_COMMANDS if c.illustrative is not None and " && ari-cli " in c.text
    ]
    assert jobs, "the README's set-up command (install, then push to the sandbox) is gone"
    runnable = {c.text for c in RUNNABLE}
    assert [job for job in jobs if job not in runnable] == []


@pytest.mark.parametrize(("line", "why"), ILLUSTRATIVE, ids=[f"line {line}" for line, _ in ILLUSTRATIVE])
def test_illustrative_commands_say_why_they_are_not_run(line: int, why: str) -> None:
    assert why, f"README line {line}: the illustrative mark gives no reason"
    pytest.skip(f"README line {line} is not run here: {why}")


@pytest.fixture
def newcomer(tmp_path: Path) -> dict[str, str]:
    """A fresh home: no config file, no journal, no ARI_* variable; the installed ari-cli first on PATH."""
    home = tmp_path / "home"
    home.mkdir()
    return {
        "PATH": f"{BIN}{os.pathsep}/usr/local/bin:/usr/bin:/bin",
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "XDG_DATA_HOME": str(home / ".local" / "share"),
        "XDG_CACHE_HOME": str(home / ".cache"),
        "ARI_HOME": str(home / ".local" / "share" / "ari-cli"),
        "LANG": "C.UTF-8",
    }


@pytest.fixture
def sandbox_port(newcomer: dict[str, str], tmp_path: Path) -> Iterator[str]:
    """`ari-cli sandbox` as the README runs it in another terminal, on a free port: its address."""
    banner = tmp_path / "sandbox.out"
    with banner.open("w") as out:
        server = subprocess.Popen(
            [str(BIN / "ari-cli"), "sandbox", "--port", "0"],
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            env=newcomer,
            cwd=tmp_path,
        )
    try:
        address = ""
        for _ in range(300):
            found = re.search(r"http://(127\.0\.0\.1:\d+)", banner.read_text())
            if found:
                address = found[1]
                break
            assert server.poll() is None, banner.read_text()
            time.sleep(0.05)
        assert address, "the sandbox printed no address: " + banner.read_text()
        yield address
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_every_readme_command_runs_as_written(newcomer: dict[str, str], sandbox_port: str, tmp_path: Path) -> None:
    workdir = tmp_path / "work"
    workdir.mkdir()
    env = dict(newcomer)
    failures: list[str] = []
    ran = 0
    for command in RUNNABLE:
        exported = EXPORT.match(command.text)
        if exported:
            env[exported["name"]] = exported["value"]
            continue
        if not command.text.startswith("ari-cli "):
            continue  # never run here: the test above names it
        shell_line = command.text.replace(DEFAULT_PORT, sandbox_port)
        done = subprocess.run(
            ["bash", "-c", shell_line],
            cwd=workdir,
            env=env,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=60,
        )
        ran += 1
        broken = "Traceback" in done.stderr or "internal error" in done.stderr
        if done.returncode != command.expected_exit or broken:
            failures.append(
                f"README line {command.line}: {command.text}\n"
                f"  exit {done.returncode}, the README says {command.expected_exit}{'; a traceback' if broken else ''}\n"
                f"  stdout: {done.stdout[-600:]!r}\n  stderr: {done.stderr[-600:]!r}"
            )
    assert ran >= 40, f"only {ran} README commands were found to run: is the parser still reading the blocks?"
    assert not failures, f"{len(failures)} README commands do not run as written:\n\n" + "\n\n".join(failures)
    # The Quick start's profile pushed to this sandbox, not to one someone left on the README's port.
    state = httpx.get(f"http://{sandbox_port}/_sandbox/state", timeout=10).json()
    assert state["threshold"]["HTL001"]["DBL"], state
