"""Changing one setting of a profile, or deleting a profile, keeping the rest of the file.

Both re-read what they wrote before replacing the file: a profile written some other way (inline,
dotted keys) is not rewritten by guess.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from ari_cli.config.file import (
    KEY_KEYS,
    ConfigFile,
    display,
    read_config,
    save_profile,
    without_profile,
    write_private,
)
from ari_cli.exits import ConfigError


def existing_profile(path: Path, name: str) -> tuple[ConfigFile, dict[str, Any]]:
    """The file and the profile's settings; a ConfigError naming the profiles there are when it lacks it."""
    found = read_config(path) if path.exists() else None
    if found is None:
        raise ConfigError(f"no config file at {display(path)}", "create one with: ari-cli config init")
    if name not in found.profiles:
        there = f"it has {', '.join(found.profiles)}" if found.profiles else "it has none"
        raise ConfigError(
            f"no profile {name!r} in {display(path)}: {there}", f"create it with: ari-cli config init --profile {name}"
        )
    return found, dict(found.profiles[name])


def set_value(path: Path, name: str, key: str, value: Any) -> dict[str, Any]:
    """Set one setting of an existing profile; a new way of giving the key replaces the old one.

    Returns the settings it replaced or dropped, with their values.
    """
    _, values = existing_profile(path, name)
    replaced = {k: values.pop(k) for k in (KEY_KEYS if key in KEY_KEYS else (key,)) if k in values}
    values[key] = value
    save_profile(path, name, values, force=True)
    return replaced


def delete_profile(path: Path, name: str) -> None:
    """Remove a profile's section; the other profiles and the comments are kept."""
    found, _ = existing_profile(path, name)
    text = without_profile(found.text, name)
    try:
        left = set(tomllib.loads(text).get("profiles", {}))
    except tomllib.TOMLDecodeError:
        left = None
    if left != set(found.profiles) - {name}:
        raise ConfigError(f"cannot remove profile {name!r} from {display(path)} automatically", "edit the file by hand")
    write_private(path, text)
