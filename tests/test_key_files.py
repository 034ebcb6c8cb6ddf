"""Key and config files are checked before use, and tuning numbers have finite ranges.

A key file others can read is warned about; a key that is not one short line, or a key or config
file that is not a regular file or is over 1 MiB, is a configuration error (exit 4) naming the file.
Every case runs the console script and sends nothing.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from ari_cli.sandbox import Sandbox
from tests.conftest import PINNED_TODAY
from tests.helpers import invoke

ROWS = "propertyid,roomid,start,end,threshold\nHTL001,DBL,2027-02-01,2027-02-02,3\n"


def push_with_key_file(tmp_path: Path, sandbox: Sandbox, key_file: Path, *extra: str) -> tuple[int, str, str]:
    data = tmp_path / "rows.csv"
    data.write_text(ROWS)
    env = {"ARI_BASE_URL": sandbox.base_url, "ARI_SOURCE_ID": sandbox.source_id, "ARI_HOME": str(tmp_path / "h")}
    args = ["threshold", "push", str(data), "--today", PINNED_TODAY, "--api-key-file", str(key_file), *extra]
    result = invoke(args, env=env)
    return result.exit_code, result.stdout, result.stderr


def test_a_key_file_others_can_read_gets_the_chmod_warning(tmp_path: Path, sb: Sandbox) -> None:
    key = tmp_path / "key.txt"
    key.write_text(sb.api_key + "\n")
    key.chmod(0o644)
    code, out, err = push_with_key_file(tmp_path, sb, key)
    assert code == 0, err
    assert f"{key} is readable by others (mode 644); run: chmod 600 {key}" in err
    key.chmod(0o600)
    code, out, err = push_with_key_file(tmp_path, sb, key)
    assert code == 0 and "chmod" not in err and "1 row: 1 ok" in out


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("root:x:0:0\nsecond:line\n", "has a line break inside"),
        ("k" * 257, "is over 256 characters"),
    ],
)
def test_a_key_file_that_does_not_hold_one_key_is_exit_4(
    tmp_path: Path, sb: Sandbox, content: str, message: str
) -> None:
    key = tmp_path / "key.txt"
    key.write_text(content)
    key.chmod(0o600)
    link = tmp_path / "link"
    link.symlink_to(key)  # as a symlink to /etc/shadow would be
    code, out, err = push_with_key_file(tmp_path, sb, link)
    assert code == 4
    assert f"error: the API key (file {key}) {message}" in err.replace(str(link), str(key))
    assert sb.received == [] and "root:x" not in out + err


def test_a_key_file_that_is_a_device_a_fifo_or_too_large_is_exit_4_at_once(tmp_path: Path, sb: Sandbox) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    big = tmp_path / "big"
    big.write_bytes(b"k" * (1_048_576 + 1))
    cases = [(Path("/dev/zero"), "is not a regular file"), (fifo, "is not a regular file"), (big, "is over 1 MiB")]
    for path, message in cases:
        started = time.monotonic()
        code, out, err = push_with_key_file(tmp_path, sb, path)
        assert time.monotonic() - started < 60  # reading /dev/zero or a FIFO whole would never end
        assert code == 4 and out == "", err
        assert f"error: cannot read the API key file {path}" not in err
        assert f"error: API key file {path} {message}" in err
        if message == "is not a regular file":  # the hint says what to give, not the key file's own name again
            assert "hint: give the path of a plain file, not a device, a pipe or a folder" in err
    assert sb.received == []


def test_a_config_file_that_is_a_fifo_or_too_large_is_exit_4(tmp_path: Path) -> None:
    fifo = tmp_path / "config.fifo"
    os.mkfifo(fifo)
    big = tmp_path / "config.toml"
    big.write_text("# " + "x" * 1_048_576 + "\n")
    for path, message in (
        (fifo, "is not a regular file"),
        (big, "is over 1 MiB"),
        (Path("/dev/zero"), "is not a regular file"),
    ):
        started = time.monotonic()
        result = invoke(["config", "show", "--config", str(path)])
        assert time.monotonic() - started < 60  # reading /dev/zero or a FIFO whole would never end
        assert result.exit_code == 4, result.stderr
        assert f"error: config file {path} {message}" in result.stderr


@pytest.mark.parametrize(
    ("option", "value"),
    [("--timeout", "inf"), ("--timeout", "nan"), ("--rate", "inf"), ("--rate", "nan"), ("--timeout", "601"),
     ("--batch-size", "100000000000000000000000000"), ("--concurrency", "65"), ("--retries", "21"), ("--rate", "1001")],
)  # fmt: skip
def test_numbers_out_of_range_are_usage_errors(tmp_path: Path, option: str, value: str) -> None:
    data = tmp_path / "rows.csv"
    data.write_text(ROWS)
    result = invoke(["threshold", "push", str(data), "--dry-run", option, value])
    assert result.exit_code == 2
    assert result.stderr.startswith(f"error: Invalid value for '{option}': ")
    assert "\nUsage: ari-cli threshold push" in result.stderr
    assert result.stdout == ""


@pytest.mark.parametrize(
    ("setting", "expected"),
    [("timeout = inf", "timeout must be a number, 0.1 to 600, not inf"),
     ("rate = nan", "rate must be a number, 0 to 1000, not nan"),
     ("batch_size = 100000000000000000000000000", "batch_size must be a whole number, 1 to 1000"),
     ("concurrency = 65", "concurrency must be a whole number, 1 to 64, not 65")],
)  # fmt: skip
def test_profile_numbers_out_of_range_are_config_errors(tmp_path: Path, setting: str, expected: str) -> None:
    config = tmp_path / "config.toml"
    config.write_text(f"[profiles.default]\n{setting}\n")
    config.chmod(0o600)
    data = tmp_path / "rows.csv"
    data.write_text(ROWS)
    result = invoke(["threshold", "push", str(data), "--dry-run", "--config", str(config)])
    assert result.exit_code == 4
    assert f"error: config file {config}, line 2: {expected}" in result.stderr
