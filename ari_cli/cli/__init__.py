"""The Typer application: the root, `--version`, and the one error boundary; each command loads when asked for.

The root is a Typer group (`_Boundary`, a `typer.core.TyperGroup`) that knows its commands by name
(`COMMANDS`) and imports a command's module only when that command is run, its help shown, or completed: the
way Click documents for lazily loaded subcommands (a group's `list_commands` and `get_command`). So
`--version` loads no command module, and `ari-cli threshold push` loads threshold's alone. The root's own
`--help` and the completion of a command name list every command with its help, so they load them all.
"""

import importlib
from collections.abc import Iterator, MutableMapping
from typing import Annotated, Any

import typer
from typer.completion import show_callback

from ari_cli import __version__
from ari_cli.cli.common import Color
from ari_cli.cli.helptext import HelpGroup
from ari_cli.cli.usage import is_usage_error
from ari_cli.operations import DESCRIPTORS

# Each command, in the order of the root's --help and of completions: the module that declares it and the
# Typer app there that holds it (a group of subcommands, or the one command).
COMMANDS = {
    # An operation's command group is the module named as the operation (`cli/threshold.py`): a new operation
    # needs no line here.
    **{name: (f"ari_cli.cli.{name}", "app") for name in (d.name for d in DESCRIPTORS.values())},
    "replay": ("ari_cli.cli.support", "replay_app"),
    "explain": ("ari_cli.cli.support", "explain_app"),
    "errors": ("ari_cli.cli.support", "errors_app"),
    "retry": ("ari_cli.cli.retry", "app"),
    "revert": ("ari_cli.cli.revert", "app"),
    "calendar": ("ari_cli.cli.calendar", "app"),
    "why": ("ari_cli.cli.why", "app"),
    "samples": ("ari_cli.cli.samples", "app"),
    "completion": ("ari_cli.cli.completion", "completion_app"),
    "sandbox": ("ari_cli.cli.sandbox", "app"),
    "config": ("ari_cli.cli.config", "app"),
    "history": ("ari_cli.cli.history", "app"),
}
_BUILT: dict[str, Any] = {}
WORDS = "ari_cli.words"  # the invocation's words, in the context's `meta` (shared by every command's context)
# Typer's shells; `pwsh` is PowerShell 7's own name for itself.
SHELLS = ("bash", "zsh", "fish", "powershell", "pwsh")


class _Loaded(MutableMapping[str, Any]):
    """The root's commands by name (`COMMANDS`), each loaded when it is looked up: Typer reads the names of a group's
    `commands` to suggest one for a misspelt command (`ari-cli treshold`: did you mean 'threshold'?), as it does
    for a group's subcommands (`ari-cli threshold psuh`)."""

    def __init__(self, group: "_Boundary") -> None:
        self._group = group

    def __getitem__(self, name: str) -> Any:
        command = self._group.get_command(None, name)
        if command is None:
            raise KeyError(name)
        return command

    def __iter__(self) -> Iterator[str]:
        return iter(COMMANDS)

    def __len__(self) -> int:
        return len(COMMANDS)

    def __setitem__(self, name: str, command: Any) -> None:
        raise TypeError(f"the root's commands are cli/__init__.py's COMMANDS: add {name} there")

    def __delitem__(self, name: str) -> None:
        raise TypeError("the root's commands are cli/__init__.py's COMMANDS")


class _Boundary(HelpGroup):
    """The root group: every exception of a command becomes a message on stderr and the contract's exit code."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.commands = _Loaded(self)

    def invoke(self, ctx: Any) -> Any:
        # Only a command that runs gets here (--help, --version and completion end while parsing): the boundary,
        # and what it shows errors with, load for it alone.
        from ari_cli.cli.boundary import guarded, started

        started(ctx.meta.get(WORDS, ()))
        return guarded(lambda: super(_Boundary, self).invoke(ctx))

    def get_params(self, ctx: Any) -> list[Any]:
        params: list[Any] = super().get_params(ctx)
        for param in params:
            # Typer's own completion options keep working (the contract lists them) but leave the help page to
            # the `completion` command, which says how to install the script for each shell.
            if {"--install-completion", "--show-completion"} & set(param.opts):
                param.hidden = True
        return params

    def list_commands(self, ctx: Any) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        """The command `cmd_name`, its module imported now (once: Python keeps it), or None for no such command."""
        where = COMMANDS.get(cmd_name)
        if where is None:
            return None
        # Built once per process: --help and completion ask for each command more than once.
        if cmd_name not in _BUILT:
            module, name = where
            command = typer.main.get_command(getattr(importlib.import_module(module), name))
            command.name = cmd_name
            _BUILT[cmd_name] = command
        return _BUILT[cmd_name]

    def make_context(self, info_name: str | None, args: list[str], parent: Any = None, **extra: Any) -> Any:
        shell = None if extra.get("resilient_parsing") else _named_shell(args)
        if shell is not None:
            # Typer's own --show-completion, told the shell rather than left to detect it: prints and exits.
            option = next(param for param in self.params if "--show-completion" in param.opts)
            show_callback(typer.Context(self, info_name=info_name or "ari-cli"), option, shell)
        # The root's own options (`ari-cli --bogus`) are parsed before any command runs: their errors too are ours.
        words = tuple(args)  # parsing consumes `args`; `--output json` among them asks for a JSON document of an error
        try:
            ctx = super().make_context(info_name, args, parent, **extra)
        except typer.TyperException as error:
            if is_usage_error(error):
                from ari_cli.cli.boundary import started, usage_error

                started(words)
                raise usage_error(error) from None
            raise
        ctx.meta[WORDS] = words
        return ctx


app = typer.Typer(
    cls=_Boundary,
    name="ari-cli",
    help="""Push sell thresholds, cancellation/deposit policies and max advance booking to a hotel ARI service.

Reads CSV, Excel, JSON or JSONL files, checks every row, and shows a result per row. \
Each command's --help says which columns it takes. Set up where to push once with `ari-cli config init`.

\f
[bold]Examples[/bold]:

  ari-cli samples samples                                  # from an installed copy: the sample files first
  ari-cli threshold push samples/threshold.csv --sandbox
  ari-cli config init
  ari-cli policy push policy.csv --profile prod --output json --report results.csv
""",
    no_args_is_help=True,
    context_settings={"help_option_names": ["-h", "--help"]},
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
        typer.Option("--version", "-V", callback=_version, is_eager=True, help="Show the version and exit."),
    ] = False,
    color: Color = "auto",
) -> None:
    """Push hotel ARI settings from CSV, JSON or JSONL files, and show per-row results."""


# `--show-completion` is Typer's flag for the shell it detects; a shell named after it (the contract's
# `--show-completion SHELL`) would be taken for a command, so the root shows that shell's script itself.
_VALUED_ROOT_OPTIONS = ("--color",)


def _named_shell(args: list[str]) -> str | None:
    """The shell named after the root's `--show-completion` (`ari-cli [--color X] --show-completion zsh`)."""
    words = iter(args)
    for word in words:
        if word == "--show-completion":
            shell = next(words, None)
            return shell if shell in SHELLS else None
        if word in _VALUED_ROOT_OPTIONS:
            next(words, None)
        elif not word.startswith("-"):
            return None  # a command: what follows are its own options
    return None


def main() -> None:
    """Console-script entry point."""
    app()
