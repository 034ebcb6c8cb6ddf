"""The Typer application: command groups, `--version`, and the one error boundary.

Command modules import only Typer at load time; the pipeline is imported when a command runs,
so `--help`, `--version` and completion stay fast.
"""

from __future__ import annotations

from typing import Annotated, Any

import typer
from typer.core import TyperGroup

from ari_cli import __version__


class _Boundary(TyperGroup):
    """Turns every exception of a command into a message on stderr and the contract's exit code."""

    def invoke(self, ctx: Any) -> Any:
        from ari_cli.cli.boundary import guarded

        return guarded(lambda: super(_Boundary, self).invoke(ctx))


app = typer.Typer(
    cls=_Boundary,
    name="ari-cli",
    help="""Push sell thresholds, cancellation/deposit policies and max advance booking to a hotel ARI service.

Reads CSV, Excel, JSON or JSONL files, checks every row, and shows a result per row. \
Each command's --help says which columns it takes. Set up where to push once with `ari-cli config init`.

[bold]Examples[/bold]:

  ari-cli threshold push samples/threshold.csv --sandbox
  ari-cli config init
  ari-cli policy push policy.csv --profile prod --output json --report results.csv
""",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode="rich",
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"ari-cli {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Show the version and exit."),
    ] = False,
) -> None:
    """Push hotel ARI settings from CSV, JSON or JSONL files, and show per-row results."""


def _register() -> None:
    from ari_cli.cli import calendar, config, history, maxadv, policy, retry, sandbox, support, threshold

    for group in (threshold, maxadv, policy, sandbox, config, history):
        app.add_typer(group.app)
    support.register(app)
    retry.register(app)
    calendar.register(app)


_register()


def main() -> None:
    """Console-script entry point."""
    app()
