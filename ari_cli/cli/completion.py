"""What TAB offers for profile names, setting names and run numbers: read when asked, never at start-up.

Annotations are not deferred here: Typer reads these functions' signatures for every option that offers them, on
every start, and deferred annotations would be evaluated each time.
"""

from pathlib import Path

import typer

from ari_cli import app as application


def complete_profile(ctx: typer.Context, incomplete: str) -> list[str]:
    """The profiles of the config file the command line names (`--config`), or of the usual one."""
    config = ctx.params.get("config")
    names = application.profile_names(config if isinstance(config, Path) else None)
    return [name for name in names if name.startswith(incomplete)]


def complete_setting(incomplete: str) -> list[str]:
    """The settings a profile takes."""
    return [key for key in application.setting_names() if key.startswith(incomplete)]


def complete_run(incomplete: str) -> list[tuple[str, str]]:
    """The journal's newest run numbers, each with what it was, and `last`."""
    return [(number, said) for number, said in application.run_choices() if number.startswith(incomplete)]
