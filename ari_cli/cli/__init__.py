"""The Typer application: command groups, `--version`, and the one error boundary.

Command modules import only Typer at load time; the pipeline is imported when a command runs,
so `--help`, `--version` and completion stay fast.
"""

from __future__ import annotations

import importlib
from typing import Annotated, Any

import typer
import typer.main
from typer.core import TyperCommand, TyperGroup

from ari_cli import __version__

# The command tree is lazy: building a command makes Typer read every parameter of its function
# (string annotations included), which for all 18 commands cost more than the rest of start-up.
# So `--version` builds nothing, running a command builds only that one, and the root's help and
# completion list the names below without building anything.
#
# Name -> (module, attribute): a group's `typer.Typer`, or the module's `register(app)`.
LAZY: dict[str, tuple[str, str]] = {
    "replay": ("ari_cli.cli.support", "register"),
    "explain": ("ari_cli.cli.support", "register"),
    "errors": ("ari_cli.cli.support", "register"),
    "retry": ("ari_cli.cli.retry", "register"),
    "calendar": ("ari_cli.cli.calendar", "register"),
    "threshold": ("ari_cli.cli.threshold", "app"),
    "maxadv": ("ari_cli.cli.maxadv", "app"),
    "policy": ("ari_cli.cli.policy", "app"),
    "sandbox": ("ari_cli.cli.sandbox", "app"),
    "config": ("ari_cli.cli.config", "app"),
    "history": ("ari_cli.cli.history", "app"),
}

# Name -> (the first paragraph of its help, its rich help panel): what the root's --help and
# completion show, in their order. tests/test_help.py holds it equal to the built commands (names,
# order and text), so it cannot drift.
SHORT_HELP: dict[str, tuple[str, str | None]] = {
    "replay": ("Send exact API request bodies, as a partner sent them, and say what the answers mean.", None),
    "explain": ("Explain an HTTP status or a body code of the push service, from the spec's error table.", None),
    "errors": (
        "Print the spec's whole error table: status, body code, meaning, where it applies, retry, what to check.",
        None,
    ),
    "retry": (
        "Send again what a journaled run did not get acknowledged, and nothing else.",
        None,
    ),
    "calendar": ("Show a calendar of the values the service last acknowledged, per room (and rate) and date.", None),
    "threshold": ("Sell Threshold: the rooms that must stay unsold, per room and date range.", None),
    "maxadv": ("Max Advance Booking: how many nights ahead a rate plan can be booked.", None),
    "policy": ("Cancellation and Deposit: cancellation levels and deposit rules per room, rate and dates.", None),
    "sandbox": ("Run a local emulator of the push service on loopback, until Ctrl-C.", None),
    "config": ("Profiles: where to push, with which key, and how, saved in a config file.", None),
    "history": ("List the push runs the journal recorded, newest first; show, find and prune them.", None),
}


class _Stub(TyperCommand):
    """A command's name and short help, standing in for it until it is built."""


class _Boundary(TyperGroup):
    """The root group: builds its commands on first use, and turns every exception of a command into
    a message on stderr and the contract's exit code."""

    def __init__(self, **attrs: Any) -> None:
        super().__init__(**attrs)
        # Every name is in `commands` from the start, in order, so listing, Typer's "Did you mean"
        # and anything else reading the names see them all; a stub is replaced once built.
        for name, (short_help, panel) in SHORT_HELP.items():
            self.commands.setdefault(name, _Stub(name, help=short_help, rich_help_panel=panel))
        self._listing = False

    def invoke(self, ctx: Any) -> Any:
        from ari_cli.cli.boundary import guarded

        return guarded(lambda: super(_Boundary, self).invoke(ctx))

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        command = self.commands.get(cmd_name)
        if isinstance(command, _Stub) and not self._listing:  # listing only needs the name and short help
            command = self.commands[cmd_name] = self._build(cmd_name)
        return command

    def format_help(self, ctx: Any, formatter: Any) -> None:
        # Typer's help lists the commands through get_command: the stubs do for that.
        self._listing = True
        try:
            super().format_help(ctx, formatter)
        finally:
            self._listing = False

    def shell_complete(self, ctx: Any, incomplete: str) -> Any:
        # Completing at the root offers the command names with their short help: the stubs do too.
        # Completing inside a command resolves it first, through get_command, which builds it.
        self._listing = True
        try:
            return super().shell_complete(ctx, incomplete)
        finally:
            self._listing = False

    def build_all(self) -> None:
        """Build every command still a stub."""
        for name, command in self.commands.items():
            if isinstance(command, _Stub):
                self.commands[name] = self._build(name)

    def _build(self, name: str) -> Any:
        """Build one command as `app.add_typer(...)`/`register(app)` on the root would have: register
        it on a throwaway Typer, then build just that entry with the root's settings."""
        module, attribute = LAZY[name]
        target = getattr(importlib.import_module(module), attribute)
        holder = typer.Typer()
        if isinstance(target, typer.Typer):
            holder.add_typer(target)
            return typer.main.get_group_from_info(
                holder.registered_groups[0],
                pretty_exceptions_short=app.pretty_exceptions_short,
                suggest_commands=self.suggest_commands,
                rich_markup_mode=self.rich_markup_mode,
            )
        target(holder)
        (info,) = (info for info in holder.registered_commands if info.name == name)
        return typer.main.get_command_from_info(
            info, pretty_exceptions_short=app.pretty_exceptions_short, rich_markup_mode=self.rich_markup_mode
        )


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


def all_commands() -> TyperGroup:
    """The root group with every command built: the whole tree, for tests and tools that walk it."""
    root = typer.main.get_command(app)
    assert isinstance(root, _Boundary)
    root.build_all()
    return root


def main() -> None:
    """Console-script entry point."""
    app()
