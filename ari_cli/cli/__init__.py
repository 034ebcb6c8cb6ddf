"""The Typer application: every command group and command, `--version`, and the one error boundary."""

import os
import sys
from typing import Annotated, Any

import typer
from typer._click.exceptions import NoArgsIsHelpError, UsageError
from typer.core import TyperArgument, TyperGroup, TyperOption

from ari_cli import __version__
from ari_cli.cli import calendar, config, history, maxadv, policy, retry, samples, sandbox, support, threshold
from ari_cli.cli.boundary import guarded, usage_error
from ari_cli.render.streams import COLOR_MODES, set_color

PUSH_FIRST = ("threshold", "maxadv", "policy")


def _shown_type(param: Any, ctx: Any) -> str | None:
    """What --help shows beside an option: its metavar or its choices, never a Python type (`<bool>`, `<int>`)."""
    if param.param_type_name == "argument" or getattr(param, "is_flag", False):
        return None  # an argument's name is shown already; a flag takes no value
    if param.metavar is not None:
        return str(param.metavar)
    if param.type_descriptor.is_choice:
        shown = param.display_type(ctx)
        return str(shown).strip("<>") if shown else None
    return str(param.name).upper()


# Typer builds its parameter classes itself: the way to change how they are shown is their method.
setattr(TyperOption, "display_type_rich", _shown_type)  # noqa: B010
setattr(TyperArgument, "display_type_rich", _shown_type)  # noqa: B010


class _Boundary(TyperGroup):
    """The root group: every exception of a command becomes a message on stderr and the contract's exit code."""

    def invoke(self, ctx: Any) -> Any:
        return guarded(lambda: super(_Boundary, self).invoke(ctx))

    def list_commands(self, ctx: Any) -> list[str]:
        # Typer lists single commands before groups; the push commands, what users come for, go first.
        names = super().list_commands(ctx)
        return [*(n for n in PUSH_FIRST if n in names), *(n for n in names if n not in PUSH_FIRST)]

    def make_context(self, info_name: str | None, args: list[str], parent: Any = None, **extra: Any) -> Any:
        # The root's own options (`ari-cli --bogus`) are parsed before any command runs: their errors too are ours.
        try:
            return super().make_context(info_name, args, parent, **extra)
        except NoArgsIsHelpError:
            raise
        except UsageError as error:
            raise usage_error(error) from None


app = typer.Typer(
    cls=_Boundary,
    name="ari-cli",
    help="""Push sell thresholds, cancellation/deposit policies and max advance booking to a hotel ARI service.

Reads CSV, Excel, JSON or JSONL files, checks every row, and shows a result per row. \
Each command's --help says which columns it takes. Set up where to push once with `ari-cli config init`.

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

# The order of the root's --help and of completions (after PUSH_FIRST).
support.register(app)
retry.register(app)
calendar.register(app)
app.add_typer(threshold.app)
app.add_typer(maxadv.app)
app.add_typer(policy.app)
app.add_typer(sandbox.app)
app.add_typer(config.app)
app.add_typer(history.app)
samples.register(app)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"ari-cli {__version__}")
        raise typer.Exit()


def _color(value: str) -> str:
    if value not in COLOR_MODES:
        raise typer.BadParameter(f"{value!r} is not one of auto, always, never")
    set_color(value)
    return value


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Show the version and exit."),
    ] = False,
    color: Annotated[
        str,
        typer.Option(
            "--color",
            metavar="auto|always|never",
            callback=_color,
            help="Colour on standard output and error: auto (a terminal, unless NO_COLOR; FORCE_COLOR forces it), "
            "always or never.",
        ),
    ] = "auto",
) -> None:
    """Push hotel ARI settings from CSV, JSON or JSONL files, and show per-row results."""


_SHELLS = ("bash", "zsh", "fish", "powershell", "pwsh")


def _completion_for_the_shell_named(args: list[str]) -> None:
    """Make `--show-completion SHELL` show SHELL's script.

    Typer reads `--show-completion` as a flag for the shell it detects and ignores a shell named after it; its
    switch to the form that takes a shell is this variable, set only when a shell is named.
    """
    if "--show-completion" in args:
        after = args.index("--show-completion") + 1
        if after < len(args) and args[after] in _SHELLS:
            os.environ["_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION"] = "1"


def main() -> None:
    """Console-script entry point."""
    _completion_for_the_shell_named(sys.argv[1:])
    app()
