"""Every command's --help teaches: a one-line summary, a description, and examples."""

from __future__ import annotations

import inspect
import re
from collections.abc import Iterator
from typing import Any

import pytest
import typer.main

from ari_cli.cli import app
from tests.helpers import invoke, subcommands

# As --help and completion list them: the push commands, what users come for, first.
LISTED = ["threshold", "maxadv", "policy", "replay", "explain", "errors", "retry", "revert", "calendar", "why", "samples", "completion", "sandbox",
          "config", "history"]  # fmt: skip
# The root loads each command when asked for it (cli/__init__.py): the same names, each a command.
ORDER = LISTED


def _walk(command: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], Any]]:
    yield path, command
    for name, sub in sorted(subcommands(command).items()):
        if not getattr(sub, "hidden", False):
            yield from _walk(sub, (*path, name))


ROOT = typer.main.get_command(app)
COMMANDS = dict(_walk(ROOT))
ROOT_COMMANDS = subcommands(ROOT)


def _first_paragraph(command: Any) -> str:
    return inspect.cleandoc(command.short_help or command.help or "").split("\n\n")[0].strip()


def test_the_root_lists_every_command_with_its_short_help_in_order() -> None:
    """The root's --help names every command, in the documented order, with its help's first paragraph."""
    assert isinstance(ROOT, typer.core.TyperGroup)
    assert list(ROOT_COMMANDS) == ORDER
    out = invoke(["--help"], env={"COLUMNS": "400"}).stdout
    listed = [
        line.strip(" │").split(None, 1) for line in out.splitlines() if line.strip(" │").split(" ", 1)[0] in ORDER
    ]
    assert [name for name, _ in listed] == LISTED
    for name, shown in listed:
        command = ROOT_COMMANDS[name]
        assert not command.hidden and not command.deprecated and command.short_help is None, name
        assert shown.strip() == _first_paragraph(command), name


def test_completion_offers_every_command_with_its_short_help() -> None:
    env = {"_ARI_CLI_COMPLETE": "complete_zsh", "_TYPER_COMPLETE_ARGS": "ari-cli "}
    out = invoke([], env=env).stdout
    offered = dict(re.findall(r'"([a-z]+)":"((?:[^"\\]|\\.)*)"', out))
    assert list(offered) == LISTED

    def words(text: str) -> list[str]:  # zsh quoting aside
        return re.findall(r"[A-Za-z0-9]+", text)

    for name in ORDER:
        assert words(offered[name]) == words(ROOT_COMMANDS[name].get_short_help_str()), name


@pytest.mark.parametrize("path", sorted(COMMANDS), ids=lambda p: " ".join(p) or "ari-cli")
def test_help_has_a_summary_a_description_and_examples(path: tuple[str, ...]) -> None:
    result = invoke([*path, "--help"], env={"COLUMNS": "120"})
    assert result.exit_code == 0, result.output
    assert "Example" in result.stdout, f"`ari-cli {' '.join(path)} --help` shows no example"
    text = (COMMANDS[path].help or "").strip()
    summary, _, description = text.partition("\n\n")
    assert summary and "\n" not in summary.strip(), "the first paragraph is one line"
    assert description.strip(), "a description follows the summary"


PUSH_COLUMNS = {
    "threshold": ["propertyid", "roomid", "start", "end", "date", "threshold", "days", "n/a"],
    "maxadv": ["propertyid", "roomid", "rateid", "start", "end", "time", "days"],
    "policy": ["propertyid", "roomid", "rateid", "refundable", "level", "policyid", "dayspriorcheckin",
               "penaltytype", "penaltyamount", "penaltyapplied", "depositpolicy", "deposittype", "depositamount",
               "depositapplied", "depositintervalunits", "deposittimeinterval"],
}  # fmt: skip


@pytest.mark.parametrize("operation", sorted(PUSH_COLUMNS))
def test_push_help_names_every_column_and_shows_a_file(operation: str) -> None:
    out = invoke([operation, "push", "--help"], env={"COLUMNS": "200"}).stdout
    missing = [column for column in PUSH_COLUMNS[operation] if column not in out]
    assert missing == []
    assert "Example file" in out and "header" in out and "YYYY-MM-DD" in out


def test_threshold_help_alone_says_how_to_write_the_file() -> None:
    out = invoke(["threshold", "push", "--help"], env={"COLUMNS": "200"}).stdout
    assert "propertyid,roomid,start,end,threshold" in out
    for lesson in ("one row per room and date range", "0 means no restriction", "n/a clears", "both included",
                   "today+N", "--date-format", ".xlsx", "JSON", "Notes"):  # fmt: skip
        assert lesson in out, lesson
