"""Terminal conventions: NO_COLOR, FORCE_COLOR and --color; --show-completion SHELL; the user-agent."""

from __future__ import annotations

import datetime as dt
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from ari_cli import __version__
from tests.helpers import invoke, sandbox_env
from tests.test_terminal_output import at_a_terminal

ARI_CLI = str(Path(sys.executable).parent / "ari-cli")
TODAY = dt.date.today()
GREEN_OK = "\x1b[32mok"


@pytest.fixture
def rooms(tmp_path: Path) -> str:
    path = tmp_path / "rooms.csv"
    path.write_text(f"propertyid,roomid,date,threshold\nHTL001,DBL,{TODAY + dt.timedelta(days=1)},2\n")
    return str(path)


def piped(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    return subprocess.run([ARI_CLI, *args], capture_output=True, text=True, env={**clean, **env}, timeout=60)


@pytest.mark.parametrize(
    ("color", "env", "coloured"),
    [
        ([], {}, False),
        ([], {"FORCE_COLOR": "1"}, True),
        ([], {"FORCE_COLOR": "0"}, False),
        ([], {"FORCE_COLOR": "1", "NO_COLOR": "1"}, False),
        (["--color", "always"], {}, True),
        (["--color", "always"], {"NO_COLOR": "1"}, True),
        (["--color", "never"], {"FORCE_COLOR": "1"}, False),
    ],
)
def test_colour_in_a_pipe(rooms: str, sandbox: Any, color: list[str], env: dict[str, str], coloured: bool) -> None:
    done = piped([*color, "threshold", "push", rooms], {**sandbox_env(sandbox), **env})
    assert done.returncode == 0, done.stderr
    assert (GREEN_OK in done.stdout) is coloured
    assert "1 row: 1 ok" in done.stdout
    assert done.stderr == ""  # colour forced into a pipe is colour only: no progress bar


@pytest.mark.parametrize(
    ("color", "env", "coloured"),
    [([], {}, True), ([], {"NO_COLOR": "1"}, False), (["--color", "never"], {}, False)],
)
def test_colour_at_a_terminal(rooms: str, sandbox: Any, color: list[str], env: dict[str, str], coloured: bool) -> None:
    code, shown, stderr = at_a_terminal([*color, "threshold", "push", rooms], {**sandbox_env(sandbox), **env})
    assert code == 0, stderr
    assert ("\x1b[32m" in shown) is coloured
    assert "1 row: 1 ok" in shown


@pytest.mark.parametrize(
    ("before", "after", "coloured"),
    [
        ([], ["--color", "always"], True),
        (["--color", "always"], ["--color", "never"], False),
        (["--color", "never"], ["--color=always"], True),
        (["--color", "always"], [], True),
    ],
)
def test_color_is_taken_after_the_command_too(
    rooms: str, sandbox: Any, before: list[str], after: list[str], coloured: bool
) -> None:
    done = piped([*before, "threshold", "push", rooms, *after], sandbox_env(sandbox))
    assert done.returncode == 0, done.stderr
    assert (GREEN_OK in done.stdout) is coloured
    assert done.stderr == ""


@pytest.mark.parametrize("command", [["history"], ["config", "profiles"], ["explain", "417"], ["errors"]], ids=" ".join)
def test_every_command_takes_color(command: list[str]) -> None:
    done = piped([*command, "--color", "never"], {})
    assert "No such option" not in done.stderr and done.returncode in (0, 4), done.stderr
    bad = piped([*command, "--color", "sometimes"], {})
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr.startswith("error: Invalid value for '--color': 'sometimes' is not one of auto, always, never\n")


@pytest.mark.parametrize("flag", ["-V", "--version"])
def test_dash_capital_v_is_the_version(flag: str) -> None:
    done = piped([flag], {})
    assert (done.returncode, done.stdout, done.stderr) == (0, f"ari-cli {__version__}\n", "")


def test_an_unknown_colour_mode_is_a_usage_error(rooms: str) -> None:
    result = invoke(["--color", "sometimes", "threshold", "push", rooms])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith(
        "error: Invalid value for '--color': 'sometimes' is not one of auto, always, never\nUsage: ari-cli"
    )


@pytest.mark.parametrize(("shell", "first"), [("zsh", "#compdef ari-cli"), ("fish", "complete --command ari-cli")])
def test_show_completion_gives_the_named_shells_script(shell: str, first: str) -> None:
    done = piped(["--show-completion", shell], {"SHELL": "/bin/bash"})
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout.startswith(first)


def test_the_user_agent_names_ari_cli_and_its_version(rooms: str, sandbox: Any) -> None:
    result = invoke(["threshold", "push", rooms, "--verbose"], env=sandbox_env(sandbox))
    assert result.exit_code == 0, result.stderr
    (received,) = sandbox.received
    assert {k.lower(): v for k, v in received.headers.items()}["user-agent"] == f"ari-cli/{__version__}"
    assert f"> user-agent: ari-cli/{__version__}" in result.stderr
