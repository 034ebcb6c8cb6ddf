"""Running the CLI in-process, as a user would call it, with stdout and stderr apart."""

from __future__ import annotations

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
