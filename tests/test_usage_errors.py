"""Command-line mistakes in the tool's own words: one `error:` line and the usage line, exit 2, no boxes."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import typer

from ari_cli.cli import app
from tests.helpers import invoke, subcommands

PUSH_USAGE = "usage: ari-cli threshold push [OPTIONS] FILE...   (-h for help)\n"


@pytest.fixture
def rooms(tmp_path: Path) -> str:
    path = tmp_path / "rooms.csv"
    path.write_text("propertyid,roomid,date,threshold\nHTL001,DBL,2099-01-01,2\n")
    return str(path)


def test_a_push_without_a_file_is_a_usage_error_not_the_help() -> None:
    result = invoke(["threshold", "push"])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == "error: missing FILE: give at least one\n" + PUSH_USAGE


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--show", "some"], "--show: 'some' is not one of 'all', 'failed'"),
        (["--output", "xml"], "--output: 'xml' is not one of 'table', 'json', 'csv'"),
        (["--batch-size", "x"], "--batch-size: give a whole number"),
        (["--batch-size", "0"], "--batch-size: must be at least 1"),
        (["--concurrency", "100"], "--concurrency: must be at most 64"),
        (["--rate", "fast"], "--rate: give a number"),
        (["--today", "x"], "--today: 'x' is not a date of the form YYYY-MM-DD"),
        (["--dry-rn"], "no such option: --dry-rn (did you mean --dry-run or --header-row?)"),
    ],
)
def test_option_values_are_judged_in_the_tools_words(rooms: str, args: list[str], said: str) -> None:
    result = invoke(["threshold", "push", rooms, *args])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == f"error: {said}\n" + PUSH_USAGE
    assert "╭" not in result.stderr and "Value error" not in result.stderr and "Input should" not in result.stderr


def test_a_missing_option_of_send_names_it() -> None:
    result = invoke(["threshold", "send"])
    assert result.exit_code == 2
    assert result.stderr.startswith("error: missing option --property\nusage: ari-cli threshold send [OPTIONS]")


def test_an_unknown_root_option_is_one_line_too() -> None:
    result = invoke(["--bogus"])
    assert result.exit_code == 2
    assert (
        result.stderr == "error: no such option: --bogus\nusage: ari-cli [OPTIONS] COMMAND [ARGS]...   (-h for help)\n"
    )


@pytest.mark.parametrize("args", [["-h"], ["threshold", "-h"], ["threshold", "push", "-h"], ["history", "show", "-h"]])
def test_dash_h_is_help(args: list[str]) -> None:
    short, long = invoke(args), invoke([*args[:-1], "--help"])
    assert short.exit_code == long.exit_code == 0
    assert short.stdout == long.stdout and "Usage:" in short.stdout and short.stderr == ""


def test_the_push_commands_come_first_in_the_help() -> None:
    result = invoke(["--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    panel = result.stdout[result.stdout.index("Commands") :]
    first = [line.strip(" │").split()[0] for line in panel.splitlines()[1:5]]
    assert first == ["threshold", "maxadv", "policy", "replay"]


def _command_paths(command: Any, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    found = [path]
    for name, sub in sorted(subcommands(command).items()):
        found += _command_paths(sub, (*path, name))
    return found


def test_help_shows_no_python_types() -> None:
    root = typer.main.get_command(app)
    for path in _command_paths(root):
        result = invoke([*path, "--help"], env={"COLUMNS": "200"})
        assert result.exit_code == 0, path
        types = re.findall(r"<(?:bool|int|float|str|text|list\[[^]]*\]|Path|path|datetime)>", result.stdout)
        assert not types, (path, types)
