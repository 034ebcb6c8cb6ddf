"""Config edits lose nothing and show nothing raw: a lock around each edit, symlinks kept, numbers as numbers,
profile names escaped."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pytest
from filelock import FileLock

from tests.helpers import CLEAN_ENV, invoke
from tests.test_config_edit import complete, needs_bash

BIN = Path(sys.executable).parent
posix_only = pytest.mark.skipif(os.name == "nt", reason="symlinks need privileges on Windows")

ONE = """[profiles.default]
base_url = "https://push.example.com"
source_id = "cpbA1"
api_key_env = "MY_ARI_KEY"
"""

# Ten settings, each set by its own process at once.
TEN = {
    "batch_size": ("20", 20),
    "concurrency": ("8", 8),
    "rate": ("2.5", 2.5),
    "timeout": ("12", 12),
    "retries": ("5", 5),
    "rate_per_property": ("10/min", "10/min"),
    "max_changed": ("5%", "5%"),
    "max_cleared": ("7", 7),
    "min_coverage": ("90%", "90%"),
    "max_step": ("3", 3),
}


@pytest.fixture
def config(tmp_path: Path) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(ONE, encoding="utf-8")
    path.chmod(0o600)
    return path


def _env() -> dict[str, str]:
    base = {k: v for k, v in os.environ.items() if k not in CLEAN_ENV}
    return {**base, "COLUMNS": "200"}


def _set(config: Path, key: str, value: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [str(BIN / "ari-cli"), "config", "set", key, value, "--config", str(config)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=_env(),
    )


def test_ten_config_set_at_once_on_ten_keys_all_land(config: Path) -> None:
    running = {key: _set(config, key, text) for key, (text, _) in TEN.items()}
    for key, process in running.items():
        out, err = process.communicate(timeout=120)
        assert process.returncode == 0, (key, err)
        assert out.startswith(f"Set {key} = ") and err == ""
    profile = tomllib.loads(config.read_text(encoding="utf-8"))["profiles"]["default"]
    assert {key: profile[key] for key in TEN} == {key: value for key, (_, value) in TEN.items()}
    assert profile["base_url"] == "https://push.example.com"
    # Nothing half-written is left: only the file and its (empty) lock.
    assert sorted(p.name for p in config.parent.iterdir()) == [".config.toml.lock", "config.toml"]


def test_config_set_waits_for_an_edit_in_progress_then_lands(config: Path) -> None:
    lock = FileLock(config.with_name(".config.toml.lock"))
    with lock:
        process = _set(config, "retries", "7")
        time.sleep(1.5)  # ample time for the command to start and reach the lock
        assert process.poll() is None, process.communicate()
        assert "retries" not in config.read_text(encoding="utf-8")
    _, err = process.communicate(timeout=60)
    assert process.returncode == 0, err
    assert "retries = 7\n" in config.read_text(encoding="utf-8")


def test_a_lock_that_cannot_be_made_is_an_error_and_nothing_changes(config: Path) -> None:
    (config.parent / ".config.toml.lock").mkdir()  # in the way of the lock file
    result = invoke(["config", "set", "retries", "7", "--config", str(config)])
    assert result.exit_code == 4
    assert result.stdout == ""
    assert result.stderr.startswith(f"error: cannot lock config file {config} to change it: ")
    assert "Traceback" not in result.stderr
    assert config.read_text(encoding="utf-8") == ONE


@posix_only
def test_a_symlinked_config_file_is_edited_at_its_target_and_the_link_kept(tmp_path: Path, config: Path) -> None:
    linked = tmp_path / "dotfiles" / "ari.toml"
    linked.parent.mkdir()
    config.rename(linked)
    config.symlink_to(Path("dotfiles") / "ari.toml")  # relative, as dotfile managers make them
    result = invoke(["config", "set", "retries", "5", "--config", str(config)])
    assert result.exit_code == 0, result.stderr
    assert config.is_symlink() and os.readlink(config) == str(Path("dotfiles") / "ari.toml")
    assert "retries = 5\n" in linked.read_text(encoding="utf-8")
    added = invoke(["config", "init", "--config", str(config), "--profile", "staging",
                    "--base-url", "https://staging.example.com", "--source-id", "cpbB2", "--api-key-env", "K"])  # fmt: skip
    assert added.exit_code == 0, added.stderr
    deleted = invoke(["config", "delete", "default", "--yes", "--config", str(config)])
    assert deleted.exit_code == 0, deleted.stderr
    assert config.is_symlink()
    assert list(tomllib.loads(linked.read_text(encoding="utf-8"))["profiles"]) == ["staging"]
    # The temporary file and the lock sit beside the target, not the link.
    assert sorted(p.name for p in tmp_path.iterdir()) == ["config.toml", "dotfiles"]


@pytest.mark.parametrize(
    ("key", "given", "line"),
    [
        ("max_step", "5", "max_step = 5\n"),
        ("max_changed", "10", "max_changed = 10\n"),
        ("max_changed", "5%", 'max_changed = "5%"\n'),
        ("min_coverage", "90", 'min_coverage = "90%"\n'),
        ("timeout", "12", "timeout = 12\n"),
        ("timeout", "12.5", "timeout = 12.5\n"),
        ("rate", "0", "rate = 0\n"),
        ("retries", "5", "retries = 5\n"),
    ],
)
def test_config_set_stores_numbers_as_numbers(config: Path, key: str, given: str, line: str) -> None:
    result = invoke(["config", "set", key, given, "--config", str(config)])
    assert result.exit_code == 0, result.stderr
    assert config.read_text(encoding="utf-8") == ONE + line
    got = invoke(["config", "get", key, "--config", str(config)])
    assert got.exit_code == 0, got.stderr
    assert got.stdout.strip() == line.split(" = ")[1].strip().strip('"')


def test_config_init_writes_whole_numbers_whole(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    result = invoke(["config", "init", "--config", str(path), "--base-url", "https://push.example.com",
                     "--source-id", "cpbA1", "--api-key-env", "K"])  # fmt: skip
    assert result.exit_code == 0, result.stderr
    again = invoke(["config", "set", "timeout", "30", "--config", str(path)])
    assert again.exit_code == 0, again.stderr
    assert "\ntimeout = 30\n" in path.read_text(encoding="utf-8")


def test_numbers_written_as_text_still_read(config: Path) -> None:
    config.write_text(ONE + 'max_step = "5"\nmax_changed = "10"\n', encoding="utf-8")
    for key in ("max_step", "max_changed"):
        got = invoke(["config", "get", key, "--config", str(config)])
        assert (got.exit_code, got.stdout, got.stderr) == (0, "5\n" if key == "max_step" else "10\n", "")
    shown = invoke(["config", "show", "--config", str(config), "--output", "json"], env={"MY_ARI_KEY": "k" * 12})
    assert shown.exit_code == 0, shown.stderr
    assert '"max_step"' in shown.stdout
    changed = invoke(["config", "set", "max_step", "6", "--config", str(config)])
    assert (
        changed.exit_code == 0
        and changed.stdout == f"Set max_step = 6 in profile 'default' of {config} (was max_step = 5).\n"
    )
    assert 'max_step = 6\nmax_changed = "10"\n' in config.read_text(encoding="utf-8")


CLEARS = "x\x1b[2Jy"
ESCAPED = "x\\x1b[2Jy"
HOSTILE = """[profiles."x\\u001b[2Jy"]
base_url = "https://push.example.com"
source_id = "cpbA1"
api_key_env = "MY_ARI_KEY"

[profiles.default]
base_url = "https://push.example.com"
source_id = "cpbB2\\u009b31m"
api_key_env = "MY_ARI_KEY"
"""


def test_config_profiles_shows_a_profile_name_escaped(config: Path) -> None:
    config.write_text(HOSTILE, encoding="utf-8")
    result = invoke(["config", "profiles", "--config", str(config)], env={"ARI_PROFILE": CLEARS})
    assert result.exit_code == 0, result.stderr
    assert "\x1b" not in result.stdout and "\x9b" not in result.stdout
    lines = result.stdout.splitlines()
    assert lines[1].split() == ["*", ESCAPED, "https://push.example.com", "cpbA1", "api_key_env", "MY_ARI_KEY"]
    assert lines[2].split() == ["default", "https://push.example.com", "cpbB2\\x9b31m", "api_key_env", "MY_ARI_KEY"]
    # At a width too narrow for the table, each profile is a block: escaped there too.
    narrow = invoke(["config", "profiles", "--config", str(config)], env={"ARI_PROFILE": CLEARS, "COLUMNS": "30"})
    assert narrow.exit_code == 0, narrow.stderr
    assert "\x1b" not in narrow.stdout and f"profile    {ESCAPED} (in use)" in narrow.stdout


def test_config_show_shows_a_profile_name_escaped(config: Path) -> None:
    config.write_text(HOSTILE, encoding="utf-8")
    result = invoke(["config", "show", "--config", str(config)], env={"ARI_PROFILE": CLEARS, "MY_ARI_KEY": "k" * 12})
    assert result.exit_code == 0, result.stderr
    assert "\x1b" not in result.stdout
    assert f"profile      {ESCAPED} (env ARI_PROFILE)" in result.stdout
    assert f"profile {ESCAPED} in {config}" in result.stdout  # each setting's source


@needs_bash
def test_tab_does_not_offer_a_profile_name_with_a_control_character(config: Path, tmp_path: Path) -> None:
    config.write_text(HOSTILE, encoding="utf-8")
    assert complete(f"ari-cli config show --config {config} --profile ", tmp_path) == ["default"]
