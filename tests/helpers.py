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


def table_rows(text: str, after: str = "") -> list[list[str]]:
    """The cells of every row of the tables in `text` (from the heading `after` on), headers left out.

    A table is its header line, the rule under it, and the lines as wide as the header line that follow (Rich pads
    each to the table's width). Its columns are where some line has a character: the positions blank on every line
    of the table part them, so a right-justified or a wrapped cell is read whole. A wrapped cell's further lines
    are rows of their own, their other cells empty; a blank line between groups is left out.
    """
    lines = text[text.index(after) :].splitlines()
    rows: list[list[str]] = []
    for at in range(1, len(lines)):
        if not lines[at].strip() or set(lines[at].strip()) != {RULE}:
            continue
        header = lines[at - 1]
        body = []
        for line in lines[at + 1 :]:
            if len(line) != len(header):
                break
            body.append(line)
        shape = "".join(" " if all(line[i] == " " for line in (header, *body)) else "x" for i in range(len(header)))
        # Columns are two spaces apart or more (padding and divider); a cell's words, one.
        spans = [(m.start(), m.end()) for m in re.finditer(r"\S+(?: \S+)*", shape)]
        rows += [[line[a:b].strip() for a, b in spans] for line in body if line.strip()]
    return rows


def row_of(text: str, first: str, after: str = "") -> list[str]:
    """The cells of the one table row (from the heading `after` on) whose first cell is `first`."""
    (found,) = [row for row in table_rows(text, after) if row[0] == first]
    return found
