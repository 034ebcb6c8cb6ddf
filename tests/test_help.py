"""Every command's --help teaches: a one-line summary, a description, and examples."""

from __future__ import annotations

import inspect
from collections.abc import Iterator
from typing import Any

import pytest
import typer.main

from ari_cli.cli import LAZY, SHORT_HELP, all_commands, app
from tests.helpers import invoke


def _walk(command: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], Any]]:
    yield path, command
    for name, sub in sorted(getattr(command, "commands", {}).items()):
        if not getattr(sub, "hidden", False):
            yield from _walk(sub, (*path, name))


COMMANDS = dict(_walk(all_commands()))


def _first_paragraph(command: Any) -> str:
    return inspect.cleandoc(command.short_help or command.help or "").split("\n\n")[0].strip()


def test_the_static_listing_is_the_commands_own() -> None:
    """The root's --help and completion name the commands from a static table, not the commands:
    it must hold exactly their names, order, first help paragraph and help panel."""
    root, unbuilt = all_commands(), typer.main.get_command(app).commands
    assert list(SHORT_HELP) == list(LAZY) == list(root.commands) == list(unbuilt)
    for name, command in root.commands.items():
        assert unbuilt[name].get_short_help_str() == command.get_short_help_str(), name  # completion's text
        panel = getattr(command, "rich_help_panel", None) or None
        assert SHORT_HELP[name] == (_first_paragraph(command), panel), name
        assert not command.hidden and not command.deprecated and command.short_help is None, name


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
