"""What `ari-cli config set|get|delete` do: change one setting of a profile without retyping the rest.

Each returns what it did, in a sentence, or the value asked for; the command prints it."""

from __future__ import annotations

import json
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ari_cli.app.config import env_name, key_file, segment, tuning_check
from ari_cli.app.listener import Questions
from ari_cli.app.options import ConfigEdit
from ari_cli.app.world import World
from ari_cli.config.edit import delete_profile, existing_profile, set_value
from ari_cli.config.file import COLUMNS_KEY, IGNORE_KEY, PROFILE_KEYS, check_value, display
from ari_cli.config.options import CONNECTION_SETTINGS, DEFAULT_SEGMENT
from ari_cli.config.secrets import mask, remember
from ari_cli.config.settings import check_base_url, check_source_id, config_location
from ari_cli.config.settings import profile_choice as chosen_profile
from ari_cli.config.tuning import GUARD_LIMITS, TUNING_DEFAULTS
from ari_cli.exits import AriError, ConfigError, UsageProblem


def _ignore_columns(text: str) -> list[str]:
    """One column name (`Departure`), or a TOML list (`["Departure", "Notes"]`) or string: the columns a push
    leaves out with a warning. A bare name with a comma is refused: two names were likely meant."""
    how = (
        "a list of column names: one name (ari-cli config set ignore_columns Departure), or a TOML list "
        """in quotes (ari-cli config set ignore_columns '["Departure", "Notes"]')"""
    )
    value: Any = [text]
    if text[:1] in ("[", "{", '"', "'"):  # TOML, as the file would hold it
        try:
            value = tomllib.loads(f"value = {text}")["value"]
        except tomllib.TOMLDecodeError:
            raise ValueError(f"ignore_columns must be {how}") from None
        value = [value] if isinstance(value, str) else value
    elif "," in text:
        raise ValueError(f"ignore_columns must be {how}")
    try:
        return list(check_value(IGNORE_KEY, value))
    except ValueError:
        raise ValueError(f"ignore_columns must be {how}") from None


def _guard_limit(key: str) -> Callable[[str], Any]:
    def check(text: str) -> Any:
        try:
            checked = str(check_value(key, text))  # the limit as the profile writes it
        except ValueError as expected:
            raise ValueError(f"{key} must be {expected}") from None
        # A count is a number in the file (max_step = 5); a percentage is text ("5%"), which TOML has no number for.
        return int(checked) if isinstance(checked, str) and checked.isdigit() else checked

    return check


def _text(text: str) -> str:
    """A connection setting with no rule of its own: any text but none."""
    if not text:
        raise ValueError("give a value")
    return text


CHECKS: dict[str, Callable[[str], Any]] = {
    # Every connection setting (a new one too) can be set; those with a rule of their own check it below.
    **{key: _text for key in CONNECTION_SETTINGS if key != "api_key"},
    "base_url": check_base_url,
    "source_id": check_source_id,
    "api_key_file": key_file,
    "api_key_env": env_name,
    "path_segment": segment,
    **{key: tuning_check(key) for key in TUNING_DEFAULTS},
    **{key: _guard_limit(key) for key in GUARD_LIMITS},
    IGNORE_KEY: _ignore_columns,
}
"""How `config set KEY VALUE` reads each value given as text (api_key and columns are never given so)."""
DEFAULTS: dict[str, Any] = {"path_segment": DEFAULT_SEGMENT, **TUNING_DEFAULTS}


def _where(request: ConfigEdit, environ: Mapping[str, str]) -> tuple[Path, str]:
    path, _ = config_location(request.config, environ)
    return path, chosen_profile(request.profile, environ)[0]


def _known(key: str | None) -> str:
    if key not in PROFILE_KEYS:
        raise UsageProblem(f"{key!r} is not a setting of a profile", f"a profile takes: {', '.join(PROFILE_KEYS)}")
    return key


def _new_key(questions: Questions, world: World) -> str:
    """The key, typed at a terminal without echo: it never comes from the command line."""
    if not world.stdin_is_terminal:
        raise UsageProblem(
            "no terminal to ask for the key at",
            "point the profile at a file or a variable instead: ari-cli config set api_key_file PATH, "
            "or ari-cli config set api_key_env VAR",
        )
    key = questions.ask_secret("API key (typing is hidden)").strip()
    remember(key)
    if not key:
        raise UsageProblem("no key was typed; nothing was changed")
    return key


def set_setting(request: ConfigEdit, questions: Questions, world: World) -> str:
    """Check the value as `config init` would, then write it into the profile; what was set, in a sentence."""
    key = _known(request.key)
    path, profile = _where(request, world.environ)
    existing_profile(path, profile)  # before the key is asked for
    if key == "api_key":
        if request.value is not None:
            raise UsageProblem(
                "the key is never given on the command line, where shells keep it in their history",
                "run `ari-cli config set api_key` at a terminal to type it hidden, "
                "or `ari-cli config set api_key_file PATH` to read it from a file",
            )
        value: Any = _new_key(questions, world)
    elif key == COLUMNS_KEY:
        raise UsageProblem(
            'columns is a table of FIELD = "HEADER" lines, not one value',
            f"write it in the config file under [profiles.{profile}.columns] ({display(path)}), "
            "or give --column FIELD=HEADER to a push",
        )
    elif request.value is None:
        raise UsageProblem(f"give the value: ari-cli config set {key} VALUE")
    else:
        try:
            value = CHECKS[key](request.value.strip())
        except (AriError, ValueError) as problem:
            said = str(getattr(problem, "message", problem))
            raise UsageProblem(said if said.startswith(key) else f"{key}: {said}") from None
        value = str(value) if isinstance(value, Path) else value
    replaced = set_value(path, profile, key, value)
    was = ", ".join(f"{k} = {_shown(k, v)}" for k, v in replaced.items())
    return f"Set {key} = {_shown(key, value)} in profile {profile!r} of {display(path)}" + (
        f" (was {was})." if was else "."
    )


def _shown(key: str, value: Any) -> Any:
    if isinstance(value, list):  # as TOML writes it, which `config set` takes back
        return "[" + ", ".join(json.dumps(item, ensure_ascii=False) for item in value) + "]"
    return mask(value) if key == "api_key" else f"{value:g}" if isinstance(value, float) else value


@dataclass(frozen=True, slots=True)
class Got:
    """`config get`: the value as shown (the key masked); `default` says it is the default, not the profile's."""

    value: Any
    default: str | None = None


def get_setting(request: ConfigEdit, world: World) -> Got:
    """The profile's value (the key masked), or the default; ConfigError (exit 4) when it has neither."""
    key = _known(request.key)
    path, profile = _where(request, world.environ)
    _, values = existing_profile(path, profile)
    if key in values:
        return Got(_shown(key, values[key]))
    if key in DEFAULTS:
        return Got(_shown(key, DEFAULTS[key]), f"{key} is not set in profile {profile!r}; its default:")
    # The key is never given on the command line: it is typed hidden at a terminal instead.
    how = (
        f"config set {key} --profile {profile} (typed hidden)"
        if key == "api_key"
        else f"config set {key} VALUE --profile {profile}"
    )
    raise ConfigError(f"{key} is not set in profile {profile!r} of {display(path)}", f"set it with: ari-cli {how}")


def delete(request: ConfigEdit, world: World) -> str:
    """Remove the profile named by `request.key`, keeping the rest of the file; what was done, in a sentence."""
    path, _ = _where(request, world.environ)
    name = request.key or ""
    delete_profile(path, name)
    return f"Deleted profile {name!r} from {display(path)}."
