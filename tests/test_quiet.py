"""`-q/--quiet` on the read-only commands that say more than their result: the result alone, warnings kept."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ARI_CLI = str(Path(sys.executable).parent / "ari-cli")


def run(args: list[str], home: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "HOME": str(home), "XDG_CONFIG_HOME": str(home / "c"), "ARI_HOME": str(home)}
    env.pop("ARI_CONFIG", None)
    env.pop("ARI_PROFILE", None)
    return subprocess.run([ARI_CLI, *args], capture_output=True, text=True, env=env, timeout=60)


@pytest.mark.parametrize("flag", ["-q", "--quiet"])
def test_history_quiet_says_no_note_about_an_empty_journal(tmp_path: Path, flag: str) -> None:
    loud = run(["history"], tmp_path)
    assert (loud.returncode, loud.stdout) == (0, "") and loud.stderr.startswith("no run in the journal ")
    quiet = run(["history", flag], tmp_path)
    assert (quiet.returncode, quiet.stdout, quiet.stderr) == (0, "", "")


def test_config_profiles_quiet_says_no_note_about_a_missing_file(tmp_path: Path) -> None:
    loud = run(["config", "profiles"], tmp_path)
    assert loud.returncode == 0 and loud.stderr.startswith("no config file at ")
    quiet = run(["config", "profiles", "-q"], tmp_path)
    assert (quiet.returncode, quiet.stdout, quiet.stderr) == (0, loud.stdout, "")


def test_config_get_quiet_prints_the_value_alone(tmp_path: Path) -> None:
    config = tmp_path / "c.toml"
    config.write_text('[profiles.default]\nbase_url = "http://127.0.0.1:9"\n')
    loud = run(["config", "get", "batch_size", "--config", str(config)], tmp_path)
    assert (loud.returncode, loud.stdout) == (0, "50\n") and "is not set in profile 'default'" in loud.stderr
    quiet = run(["config", "get", "batch_size", "--config", str(config), "--quiet"], tmp_path)
    assert (quiet.returncode, quiet.stdout, quiet.stderr) == (0, "50\n", "")


def test_calendar_quiet_still_says_its_error(tmp_path: Path) -> None:
    # What -q leaves out at calendar (which service it shows) is held in tests/test_calendar.py; errors stay.
    loud = run(["calendar", "threshold", "--property", "HTL001"], tmp_path)
    quiet = run(["calendar", "threshold", "--property", "HTL001", "-q"], tmp_path)
    assert quiet.returncode == loud.returncode != 0
    assert quiet.stderr == loud.stderr and quiet.stderr.startswith("error: ")
