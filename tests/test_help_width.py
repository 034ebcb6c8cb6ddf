"""--help at narrow terminals: the prose wraps to the width, every example line is shown whole (issue 18, point 6).

An example wrapped across two lines cannot be copied into a shell; a terminal too narrow for one folds it on
screen, but the text it was given holds the line whole.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import typer.main
from rich.cells import cell_len
from rich.text import Text

from ari_cli.cli import app
from ari_cli.cli.helptext import HelpCommand, HelpGroup, examples_of
from tests.helpers import invoke, subcommands
from tests.test_terminal_output import at_a_terminal


def _walk(command: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], Any]]:
    yield path, command
    for name, sub in sorted(subcommands(command).items()):
        yield from _walk(sub, (*path, name))


COMMANDS = dict(_walk(typer.main.get_command(app)))


def _shown(markup: str) -> str:
    return Text.from_markup(markup).plain.strip()


def _example_lines(command: Any) -> list[str]:
    """The lines of a command's examples as a terminal shows them, without headings and blank lines."""
    return [_shown(line) for line in examples_of(command.help) if line.startswith("  ")]


def _lines(shown: str) -> list[str]:
    """What a terminal shows, line by line, without the styles (bold, dim) help is written in."""
    return [Text.from_ansi(line).plain for line in shown.splitlines()]


def _whole(example: str, shown: str) -> bool:
    return any(line.strip() == example for line in _lines(shown))


def _assert_fits(path: tuple[str, ...], shown: str, columns: int) -> None:
    examples = set(_example_lines(COMMANDS[path]))
    missing = [e for e in examples if not _whole(e, shown)]
    assert not missing, f"`ari-cli {' '.join(path)} --help` at {columns} columns cuts {missing}"
    # Everything but the examples is wrapped to the width.
    too_wide = [line for line in _lines(shown) if cell_len(line) > columns and line.strip() not in examples]
    assert not too_wide, too_wide


@pytest.mark.parametrize("path", sorted(COMMANDS), ids=lambda p: " ".join(p) or "ari-cli")
def test_every_command_keeps_its_examples_apart_from_the_prose(path: tuple[str, ...]) -> None:
    command = COMMANDS[path]
    assert isinstance(command, HelpCommand | HelpGroup), "register it with cls=HelpCommand (or HelpGroup)"
    assert _example_lines(command), r"its examples go after a \f line of its help (see cli/helptext.py)"
    before, _, _ = (command.help or "").partition("\f")
    assert "Example" not in before, r"an example before the \f line would be wrapped"


@pytest.mark.parametrize("columns", [40, 60, 80])
@pytest.mark.parametrize("path", sorted(COMMANDS), ids=lambda p: " ".join(p) or "ari-cli")
def test_examples_are_whole_at_any_width(path: tuple[str, ...], columns: int) -> None:
    result = invoke([*path, "--help"], env={"COLUMNS": str(columns)})
    assert result.exit_code == 0 and result.stderr == ""
    _assert_fits(path, result.stdout, columns)


@pytest.mark.parametrize("columns", [50, 80])
@pytest.mark.parametrize(
    "path", [(), ("threshold", "push"), ("policy", "push"), ("config", "init"), ("sandbox",)], ids=" ".join
)
def test_examples_are_whole_at_a_real_terminal(path: tuple[str, ...], columns: int) -> None:
    code, shown, stderr = at_a_terminal([*path, "--help"], {"NO_COLOR": "1"}, columns, tell_columns=False)
    assert code == 0 and stderr == ""
    _assert_fits(path, shown, columns)
