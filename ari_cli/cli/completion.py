"""What TAB offers for profile names, setting names and run numbers: read when asked, never at start-up.

Annotations are not deferred here: Typer reads these functions' signatures for every option that offers them, on
every start, and deferred annotations would be evaluated each time.
"""

from pathlib import Path
from typing import Annotated

import typer
from typer.completion import show_callback

from ari_cli.cli import SHELLS
from ari_cli.cli.helptext import HelpCommand


def complete_profile(ctx: typer.Context, incomplete: str) -> list[str]:
    """The profiles of the config file the command line names (`--config`), or of the usual one."""
    from ari_cli.cli.doing.completion import profiles  # only when TAB is pressed

    config = ctx.params.get("config")
    return profiles(config if isinstance(config, Path) else None, incomplete)


def complete_setting(incomplete: str) -> list[str]:
    """The settings a profile takes."""
    from ari_cli.cli.doing.completion import settings  # only when TAB is pressed

    return settings(incomplete)


def complete_run(incomplete: str) -> list[tuple[str, str]]:
    """The journal's newest run numbers, each with what it was, and `last`."""
    from ari_cli.cli.doing.completion import runs  # only when TAB is pressed

    return runs(incomplete)


# --- `ari-cli completion SHELL`: the script, as gh and uv print theirs ---------------------------------

PROG_NAME = "ari-cli"


def _shell(value: str) -> str:
    if value not in SHELLS:
        raise typer.BadParameter(f"{value!r} is not one of bash, zsh, fish, powershell")
    return value


def _shells(incomplete: str) -> list[str]:
    """What TAB offers after `completion`."""
    return [shell for shell in SHELLS if shell.startswith(incomplete)]


COMPLETION_HELP = """Print the shell completion script for SHELL (bash, zsh, fish or powershell).

Install it with one line, however ari-cli was installed (pipx, uv tool, pip): the script only calls ari-cli back.

\f
[bold]Examples[/bold]:

  ari-cli completion bash > ~/.ari-cli.bash && echo 'source ~/.ari-cli.bash' >> ~/.bashrc
  ari-cli completion zsh > ~/.ari-cli.zsh && echo 'source ~/.ari-cli.zsh' >> ~/.zshrc   # after compinit
  ari-cli completion fish > ~/.config/fish/completions/ari-cli.fish
  ari-cli completion powershell >> $PROFILE
"""


def completion(
    ctx: typer.Context,
    shell: Annotated[
        str,
        typer.Argument(
            metavar="SHELL",
            callback=_shell,
            autocompletion=_shells,
            help="bash, zsh, fish or powershell.",
            show_default=False,
        ),
    ],
) -> None:
    # Typer's own `--show-completion SHELL`, given the shell: the same script, printed, and the exit.
    root = ctx.find_root().command
    option = next(param for param in root.params if "--show-completion" in param.opts)
    show_callback(typer.Context(root, info_name=PROG_NAME), option, shell)


# The `completion` command, which the root loads when asked for it (cli/__init__.py's COMMANDS).
completion_app = typer.Typer(add_completion=False)
completion_app.command("completion", help=COMPLETION_HELP, cls=HelpCommand, no_args_is_help=True)(completion)
