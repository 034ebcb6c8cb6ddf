"""The options every command takes, declared once: `--color`, given before the command or after it.

The root declares `--color` in its callback (`Color`, defaulting to auto, so that every invocation starts from
it); every command and group registered with `cls=HelpCommand` or `HelpGroup` (cli/helptext.py) takes the same
option again (`COMMON`, defaulting to nothing given), handled by the same callback: `ari-cli --color never
history` and `ari-cli history --color never` are one thing. It is built once, from a function Typer turns into a
command as it turns any other (`typer.main.get_command`), and takes no part in the command's own parameters.
"""

from typing import Annotated, Any

import typer

from ari_cli.render.streams import COLOR_MODES, set_color

COLOR_METAVAR = "auto|always|never"


def _color(value: str | None) -> str | None:
    # Not called for --help and --version, which end before it.
    if value is None:
        return None  # not given after the command: what the root set stands

    if value not in COLOR_MODES:
        raise typer.BadParameter(f"{value!r} is not one of auto, always, never")
    set_color(value)
    return value


def _colors(incomplete: str) -> list[str]:
    """What TAB offers after --color."""
    return [mode for mode in COLOR_MODES if mode.startswith(incomplete)]


Color = Annotated[
    str | None,
    typer.Option(
        "--color",
        metavar=COLOR_METAVAR,
        callback=_color,
        autocompletion=_colors,
        help="Colour on standard output and error: auto (a terminal, unless NO_COLOR; FORCE_COLOR forces it), "
        "always or never.",
    ),
]


def _common(color: Color = None) -> None:
    """The options every command takes, as Typer makes them."""


def _built() -> list[Any]:
    holder = typer.Typer(add_completion=False, rich_markup_mode="rich")
    holder.command()(_common)
    made = typer.main.get_command(holder)
    params = [param for param in made.params if param.name == "color"]
    for param in params:
        # The command's function never sees it: its callback has done what it is for.
        param.expose_value = False
    return params


_COMMON: list[Any] = []


def common_params() -> list[Any]:
    """The shared options' parameters, built on first use (a command's help, parsing or completion)."""
    if not _COMMON:
        _COMMON.extend(_built())
    return _COMMON
