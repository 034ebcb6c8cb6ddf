"""What TAB offers for profile names, setting names and run numbers (the completers are in cli/completion.py)."""

from __future__ import annotations

from pathlib import Path

from ari_cli.app.config import profile_names, setting_names
from ari_cli.app.history import run_choices
from ari_cli.cli.world import process_world
from ari_cli.render.printable import printable


def profiles(config: Path | None, incomplete: str) -> list[str]:
    names = profile_names(config, process_world())
    # A name with a control character is not offered: the shell would show it raw (`\e[2J` clears the screen).
    return [name for name in names if name.startswith(incomplete) and printable(name) == name]


def settings(incomplete: str) -> list[str]:
    return [key for key in setting_names() if key.startswith(incomplete)]


def runs(incomplete: str) -> list[tuple[str, str]]:
    return [(number, said) for number, said in run_choices(process_world()) if number.startswith(incomplete)]
