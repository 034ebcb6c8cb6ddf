"""Every command's --help lists every exit code it can give, 2 and 130 included (issue 33)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
import typer

from ari_cli.cli import app
from tests.helpers import subcommands

ARI_CLI = str(Path(sys.executable).parent / "ari-cli")

# What each command can give, as its behaviour (and the contract) has it; every command also ends with 1 when
# standard output cannot be written, 2 on a usage error, 130 on Ctrl-C and 141 when its reader goes away.
ANY = {1, 2, 130, 141}
CAN_GIVE: dict[str, set[int]] = {
    "": {0, 3, 4, 5},
    "threshold": {0},
    "maxadv": {0},
    "policy": {0},
    "config": {0},
    **{f"{op} push": {0, 3, 4, 5} for op in ("threshold", "maxadv", "policy")},
    **{f"{op} diff": {0, 3, 4} for op in ("threshold", "maxadv", "policy")},
    **{f"{op} send": {0, 3, 4, 5} for op in ("threshold", "maxadv", "policy")},
    **{f"{op} export": {0, 4} for op in ("threshold", "maxadv", "policy")},
    "policy describe": {0, 3},
    "replay": {0, 3, 4},
    "explain": {0},
    "errors": {0},
    "retry": {0, 4},
    "revert": {0, 4},
    "calendar": {0, 4},
    "why": {0, 4},
    "samples": {0},
    "completion": {0},
    "sandbox": {0, 3, 4},
    "config init": {0, 4},
    "config show": {0, 4},
    "config set": {0, 4},
    "config get": {0, 4},
    "config delete": {0, 4},
    "config profiles": {0, 4},
    "history": {0, 4},
    "history show": {0, 4},
    "history find": {0, 4},
    "history prune": {0, 4},
}


def _paths(command: typer.core.TyperGroup | typer.core.TyperCommand, path: str = "") -> list[str]:
    found = [path]
    for name, sub in sorted(subcommands(command).items()):
        found += _paths(sub, f"{path} {name}".strip())
    return found


COMMANDS = _paths(typer.main.get_command(app))


def test_the_table_knows_every_command() -> None:
    assert sorted(COMMANDS) == sorted(CAN_GIVE)


@pytest.mark.parametrize("path", COMMANDS, ids=lambda path: path or "ari-cli")
def test_help_lists_the_codes_the_command_can_give(path: str) -> None:
    shown = subprocess.run(
        [ARI_CLI, *path.split(), "--help"], capture_output=True, text=True, env={"COLUMNS": "100"}, timeout=60
    )
    assert shown.returncode == 0 and shown.stderr == ""
    said = re.search(r"^ Exit codes: (.*?)\.\n", shown.stdout, re.S | re.M)
    assert said is not None, shown.stdout
    listed = {int(code) for code in re.findall(r"(?:^|, )(\d+) ", " ".join(said.group(1).split()))}
    assert listed == CAN_GIVE[path] | ANY
