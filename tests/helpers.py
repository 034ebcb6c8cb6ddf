"""Running the CLI in-process, as a user would call it, with stdout and stderr apart."""

from __future__ import annotations

import re
from typing import Any

from typer.testing import CliRunner, Result

from ari_cli.cli import app

CLEAN_ENV = {"ARI_BASE_URL": None, "ARI_API_KEY": None, "ARI_SOURCE_ID": None, "ARI_PATH_SEGMENT": None,
             "ARI_PROFILE": None, "ARI_CONFIG": None, "NO_COLOR": None}  # fmt: skip


def invoke(args: list[str], env: dict[str, str] | None = None, input: str | bytes | None = None) -> Result:
    """Run `ari-cli ARGS` in-process; the ARI_* environment is only what `env` gives."""
    # A pipe keeps its tables to COLUMNS (else 80): in-process runs are a pipe wide enough for any table, so tests
    # of what a view says read its table; tests of a width (test_views_width, test_table_width) set COLUMNS.
    merged: dict[str, str | None] = {**CLEAN_ENV, "COLUMNS": "1000", **(env or {})}
    return CliRunner().invoke(app, args, env=merged, input=input, catch_exceptions=False)


def sandbox_env(sandbox: Any) -> dict[str, str]:
    """The environment that points the CLI at a test sandbox."""
    return {
        "ARI_BASE_URL": sandbox.base_url,
        "ARI_API_KEY": sandbox.api_key,
        "ARI_SOURCE_ID": sandbox.source_id,
    }


def subcommands(command: Any) -> dict[str, Any]:
    """A group's commands by name, asked for as its --help asks: the root loads each when asked for it."""
    import typer

    if not isinstance(command, typer.core.TyperGroup):
        return {}
    ctx = typer.Context(command)
    return {name: command.get_command(ctx, name) for name in command.list_commands(ctx)}


RULE = "━"  # the line under a table's headers: every table has the one look, at a terminal or in a pipe


def _tables(text: str) -> list[tuple[list[str], list[tuple[int, int]]]]:
    """Each table of `text`: its header line and rows' lines, and where its columns are.

    A table is its header line, the rule under it, and the lines as wide as the header line that follow (Rich pads
    each to the table's width). Its columns are where some line has a character, two blanks or more apart on every
    line (padding and divider; a cell's words are one apart): a right-justified or a wrapped cell is read whole.
    """
    lines = text.splitlines()
    found = []
    for at in range(1, len(lines)):
        if set(lines[at].strip()) != {RULE}:
            continue
        header = lines[at - 1]
        table = [header]
        for line in lines[at + 1 :]:
            if len(line) != len(header):
                break
            table.append(line)
        shape = "".join(" " if all(line[i] == " " for line in table) else "x" for i in range(len(header)))
        found.append((table, [(m.start(), m.end()) for m in re.finditer(r"x+(?: x+)*", shape)]))
    return found


def table_rows(text: str, after: str = "") -> list[list[str]]:
    """The cells of every row of the tables in `text` (from the heading `after` on), headers left out. A wrapped
    cell's further lines are rows of their own, their other cells empty."""
    return [[line[a:b].strip() for a, b in spans] for table, spans in _tables(text[text.index(after) :])
            for line in table[1:] if line.strip()]  # fmt: skip


def row_of(text: str, first: str, after: str = "") -> list[str]:
    """The cells of the one table row (from the heading `after` on) whose first cell is `first`."""
    (found,) = [row for row in table_rows(text, after) if row[0] == first]
    return found


def row_with(text: str, *parts: str) -> list[str]:
    """The cells of the one table line (a header or a row) that holds every part."""
    (found,) = [[line[a:b].strip() for a, b in spans] for table, spans in _tables(text) for line in table
                if all(part in line for part in parts)]  # fmt: skip
    return found
