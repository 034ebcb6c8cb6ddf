"""Bytes that are not UTF-8, where a user can put them: the key, the base URL and the path segment are
configuration errors (exit 4) said where they are read, before anything is journaled or sent, never naming the
key; a file name is pushed and journaled with the byte spelled `\\xff`. A key file saved by Windows Notepad (a
byte order mark) is read; one holding a NUL or another control character is exit 4.

Each case runs the console script, as a user would, with the raw byte in the environment or the file system.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ari_cli.sandbox import Sandbox
from tests.conftest import PINNED_TODAY
from tests.test_faults import clean_env, rooms

SCRIPT = str(Path(sys.executable).parent / "ari-cli")
BYTE = os.fsdecode(b"\xff")  # how Python reads the byte: a lone surrogate, sent back out as the byte


def _run(args: list[str], env: dict[str, str], cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    # Read back as Python reads a file name: a byte that is not UTF-8 is the same surrogate, so `BYTE` finds it.
    return subprocess.run([SCRIPT, *args], capture_output=True, text=True, env=env, timeout=120,
                          stdin=subprocess.DEVNULL, cwd=cwd, errors="surrogateescape")  # fmt: skip


def _runs(env: dict[str, str]) -> list[dict[str, object]]:
    done = _run(["history", "--output", "json"], env)
    assert done.returncode == 0, done.stderr
    listed = json.loads(done.stdout)
    return list(listed["runs"] if isinstance(listed, dict) else listed)


def _clean(done: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr, done.stderr


@pytest.mark.parametrize("command", [["threshold", "push", "ROWS", "--output", "json"], ["config", "show"]])
def test_a_key_holding_a_byte_that_is_not_utf8_is_a_configuration_error(command: list[str], tmp_path: Path) -> None:
    env = clean_env(tmp_path, ARI_API_KEY=f"abc{BYTE}defghijklm", ARI_HOME=str(tmp_path / "ari"))
    args = [str(rooms(tmp_path, 1)) if a == "ROWS" else a for a in command]
    with Sandbox(today=PINNED_TODAY) as sandbox:
        done = _run([*args, "--base-url", sandbox.base_url, "--source-id", sandbox.source_id], env)
        assert sandbox.received == []
    _clean(done)
    assert done.returncode == 4, done.stdout + done.stderr
    assert "error: the API key (env ARI_API_KEY) holds a byte that is not UTF-8" in done.stderr
    assert "hint: set the key again as UTF-8 text" in done.stderr
    assert "abc" not in done.stdout + done.stderr and "defghijklm" not in done.stdout + done.stderr
    if "--output" in command:
        document = json.loads(done.stdout)  # one document, nothing else
        assert document["error"]["kind"] == "config" and "not UTF-8" in document["error"]["message"]
        assert _runs(env) == []
    else:
        assert "api_key" in done.stdout  # the settings are shown, then what stops a push


@pytest.mark.parametrize(
    ("content", "error"),
    [
        (b"abc\xffdefghijklm\n", "error: cannot read the API key file key.txt: not UTF-8 text"),
        (b"abcdef\x00ghijklm\n", "error: the API key (file key.txt) holds a control character (U+0000)"),
        (b"abcdef\x1bghijklm\n", "error: the API key (file key.txt) holds a control character (U+001B)"),
        (b"\xef\xbb\xbfabc\xef\xbb\xbfdefghijklm\n", "error: the API key (file key.txt) holds a control character (U+FEFF)"),
    ],
)  # fmt: skip
def test_a_key_file_holding_a_byte_that_is_not_utf8_or_a_control_character_is_exit_4(
    content: bytes, error: str, tmp_path: Path
) -> None:
    (tmp_path / "key.txt").write_bytes(content)
    (tmp_path / "key.txt").chmod(0o600)
    env = clean_env(tmp_path, ARI_HOME=str(tmp_path / "ari"))
    with Sandbox(today=PINNED_TODAY) as sandbox:
        args = ["threshold", "push", str(rooms(tmp_path, 1)), "--api-key-file", "key.txt", "--base-url",
                sandbox.base_url, "--source-id", sandbox.source_id]  # fmt: skip
        done = _run(args, env, cwd=tmp_path)
        assert sandbox.received == []
    _clean(done)
    assert done.returncode == 4, done.stdout + done.stderr
    assert done.stdout == ""
    assert error in done.stderr
    assert "defghijklm" not in done.stderr and "ghijklm" not in done.stderr
    assert _runs(env) == []


def test_a_key_file_saved_with_a_byte_order_mark_is_read_without_it(tmp_path: Path) -> None:
    env = clean_env(tmp_path, ARI_HOME=str(tmp_path / "ari"))
    with Sandbox(today=PINNED_TODAY) as sandbox:
        (tmp_path / "key.txt").write_bytes(b"\xef\xbb\xbf" + sandbox.api_key.encode() + b"\r\n")
        (tmp_path / "key.txt").chmod(0o600)
        args = ["threshold", "push", str(rooms(tmp_path, 1)), "--api-key-file", "key.txt", "--base-url",
                sandbox.base_url, "--source-id", sandbox.source_id, "--today", PINNED_TODAY]  # fmt: skip
        done = _run(args, env, cwd=tmp_path)
        assert len(sandbox.received) == 1
    _clean(done)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 row: 1 ok" in done.stdout, done.stdout


@pytest.mark.parametrize(
    ("variable", "value", "error"),
    [
        ("ARI_BASE_URL", "BASE/" + BYTE, "error: the base URL (env ARI_BASE_URL) holds a byte that is not UTF-8"),
        ("ARI_PATH_SEGMENT", "{action}" + BYTE,
         "error: the path segment (env ARI_PATH_SEGMENT) holds a byte that is not UTF-8"),
    ],
)  # fmt: skip
def test_a_base_url_or_path_segment_holding_a_byte_that_is_not_utf8_is_exit_4_and_not_journaled(
    variable: str, value: str, error: str, tmp_path: Path
) -> None:
    with Sandbox(today=PINNED_TODAY) as sandbox:
        env = clean_env(tmp_path, ARI_HOME=str(tmp_path / "ari"), ARI_API_KEY=sandbox.api_key,
                        ARI_SOURCE_ID=sandbox.source_id, ARI_BASE_URL=sandbox.base_url)  # fmt: skip
        env[variable] = value.replace("BASE", sandbox.base_url)
        path = str(rooms(tmp_path, 1))
        done = _run(["threshold", "push", path, "--today", PINNED_TODAY], env)
        as_json = _run(["threshold", "push", path, "--today", PINNED_TODAY, "--output", "json"], env)
        assert sandbox.received == []
    for ran in (done, as_json):
        _clean(ran)
        assert ran.returncode == 4, ran.stdout + ran.stderr
        assert error in ran.stderr and "hint: set it again as UTF-8 text" in ran.stderr
    assert done.stdout == ""
    document = json.loads(as_json.stdout)
    assert document["error"]["kind"] == "config" and error.removeprefix("error: ") == document["error"]["message"]
    assert _runs(env) == []  # nothing journaled, so no run left "unfinished (killed?)"


def test_a_file_name_holding_a_byte_that_is_not_utf8_is_pushed_and_journaled_readably(tmp_path: Path) -> None:
    name = f"x{BYTE}.csv"
    shutil.copy(rooms(tmp_path, 2), tmp_path / name)
    with Sandbox(today=PINNED_TODAY) as sandbox:
        env = clean_env(tmp_path, ARI_HOME=str(tmp_path / "ari"), ARI_API_KEY=sandbox.api_key,
                        ARI_SOURCE_ID=sandbox.source_id, ARI_BASE_URL=sandbox.base_url)  # fmt: skip
        done = _run(["threshold", "push", name, "--today", PINNED_TODAY, "--output", "json"], env, cwd=tmp_path)
        assert len(sandbox.received) == 1
    _clean(done)
    assert done.returncode == 0, done.stdout + done.stderr
    # Into a pipe, the document names the file as it is: its bytes, so a script can find the file again.
    rows = json.loads(done.stdout)["rows"]
    assert [(row["source"], row["status"]) for row in rows] == [(name, "ok"), (name, "ok")]
    listed = _run(["history"], env)
    shown = _run(["history", "show", "1"], env)
    for ran in (listed, shown):
        _clean(ran)
        assert ran.returncode == 0, ran.stderr
        assert "x\\xff.csv" in ran.stdout and BYTE not in ran.stdout, ran.stdout
        assert "unfinished" not in ran.stdout and "killed" not in ran.stdout
    assert "exit 0" in listed.stdout
