"""Command-line mistakes as Typer words them: one `error:` line and Typer's usage line, exit 2, no boxes."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import typer

from ari_cli.cli import app
from tests.helpers import invoke, subcommands

PUSH_USAGE = "Usage: ari-cli threshold push [OPTIONS] {FILE}...   (-h for help)\n"


@pytest.fixture
def rooms(tmp_path: Path) -> str:
    path = tmp_path / "rooms.csv"
    path.write_text("propertyid,roomid,date,threshold\nHTL001,DBL,2099-01-01,2\n")
    return str(path)


def test_a_push_without_a_file_is_a_usage_error_not_the_help() -> None:
    result = invoke(["threshold", "push"])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == "error: Missing argument 'FILE'.\n" + PUSH_USAGE


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--show", "some"], "Invalid value for '--show': 'some' is not one of all, failed"),
        (["--output", "xml"], "Invalid value for '--output' / '-o': 'xml' is not one of table, json, csv"),
        (["--overlaps", "newest"], "Invalid value for '--overlaps': 'newest' is not one of error, last-wins"),
        (["--batch-size", "x"], "Invalid value for '--batch-size': 'x' is not a whole number from 1 to 1000"),
        (["--batch-size", "2.5"], "Invalid value for '--batch-size': '2.5' is not a whole number from 1 to 1000"),
        (["--batch-size", "0"], "Invalid value for '--batch-size': '0' is not a whole number from 1 to 1000"),
        (["--concurrency", "100"], "Invalid value for '--concurrency': '100' is not a whole number from 1 to 64"),
        (["--header-row", "0"], "Invalid value for '--header-row': '0' is not a whole number of 1 or more"),
        (["--rate", "fast"], "Invalid value for '--rate': 'fast' is not a number from 0 to 1000"),
        (["--rate", "nan"], "Invalid value for '--rate': 'nan' is not a number from 0 to 1000"),
        (["--timeout", "0"], "Invalid value for '--timeout': '0' is not a number from 0.1 to 600"),
        (["--today", "x"], "Invalid value for '--today': 'x' is not a date of the form YYYY-MM-DD"),
        (["--dry-rn"], "No such option: --dry-rn (Possible options: --dry-run, --header-row)"),
    ],
)
def test_option_values_are_judged_in_the_tools_words(rooms: str, args: list[str], said: str) -> None:
    result = invoke(["threshold", "push", rooms, *args])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == f"error: {said}\n" + PUSH_USAGE
    assert "╭" not in result.stderr and "Traceback" not in result.stderr


def test_a_missing_option_of_send_names_it() -> None:
    result = invoke(["threshold", "send"])
    assert result.exit_code == 2
    assert (
        result.stderr
        == "error: Missing option '--property'.\nUsage: ari-cli threshold send [OPTIONS]   (-h for help)\n"
    )


def test_an_unknown_root_option_is_one_line_too() -> None:
    result = invoke(["--bogus"])
    assert result.exit_code == 2
    assert (
        result.stderr == "error: No such option: --bogus\nUsage: ari-cli [OPTIONS] COMMAND [ARGS]...   (-h for help)\n"
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


def test_every_option_that_takes_a_value_names_it_in_help() -> None:
    # An option's value is named by its `metavar=` (its choices, for a choice: cli/values.py); a flag and an
    # argument show nothing (cli/helptext.py). test_rough_edges.py holds every help page free of type labels.
    root = typer.main.get_command(app)
    for path in _command_paths(root):
        result = invoke([*path, "--help"], env={"COLUMNS": "200"})
        assert result.exit_code == 0, path
        options = [line for line in result.stdout.splitlines() if line.lstrip("│ ").startswith("-")]
        types = [re.findall(r"<(?:int|float|str|text|list\[[^]]*\]|Path|path|datetime)>", line) for line in options]
        assert not any(types), (path, types)
