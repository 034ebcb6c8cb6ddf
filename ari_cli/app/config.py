"""What `ari-cli config show|init|profiles` do: resolve, describe, ask for and save the settings.

Each returns what it found or saved; render/config.py shows it. `init` asks through a `Questions` it is given."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from ari_cli.app.listener import Listener, Questions
from ari_cli.app.options import ConfigInit, ConfigShow
from ari_cli.app.world import World
from ari_cli.config.edit import save_profile
from ari_cli.config.file import (
    PROFILE_KEYS,
    PROFILE_NAME,
    check_new_profile,
    check_value,
    display,
)
from ari_cli.config.options import DEFAULT_SEGMENT
from ari_cli.config.secrets import mask, remember
from ari_cli.config.settings import (
    Settings,
    Sourced,
    check_base_url,
    check_source_id,
    config_location,
    load_config,
    profile_choice,
    read_key_file,
    resolve,
)
from ari_cli.config.tuning import TUNING_DEFAULTS
from ari_cli.exits import AriError, ConfigError, UsageProblem
from ari_cli.wire.url import canonical_or_same, identity_problem

T = TypeVar("T")


def _shown(name: str, value: Any) -> Any:
    if value is None:
        return None
    return mask(value) if name == "api_key" else value


def _limit(guard: Sourced) -> dict[str, Any]:
    """A guard's limit as the profile writes it (`5%`, `10`)."""
    return {"value": None if guard.value is None else str(guard.value), "source": guard.source}


def _describe(settings: Settings) -> dict[str, Any]:
    return {
        "config_file": str(settings.path.absolute()),
        "config_file_shown": display(settings.path),
        "config_file_source": settings.path_source,
        "config_file_found": settings.found,
        "profile": settings.profile,
        "profile_source": settings.profile_source,
        "profile_found": settings.profile in settings.profiles,
        "profiles": list(settings.profiles),
        "settings": {
            **{
                name: {"value": _shown(name, sourced.value), "source": sourced.source}
                for name, sourced in settings.values.items()
            },
            # A guard is shown only when the profile sets one: none is on otherwise.
            **{name: _limit(guard) for name, guard in settings.guards.items()},
        },
        "columns": dict(settings.columns),
    }


@dataclass(frozen=True, slots=True)
class SettingsView:
    """`config show`: the settings in effect and their sources, and why a push could not connect, if it could not."""

    document: dict[str, Any]
    problem: ConfigError | None


def show(request: ConfigShow, listener: Listener, world: World) -> SettingsView:
    """The settings in effect and their sources (the command exits 4 after them when a push could not connect)."""
    data_form = request.plan.data_form
    if data_form not in (None, "list", "object"):
        raise UsageProblem(f"--data-form {data_form}: give list or object")
    settings = resolve(world.environ, request.connection, request.plan, request.sending)
    listener.notices(list(settings.warnings))
    doc = _describe(settings)
    problem: ConfigError | None = None
    try:
        settings.connection()
    except ConfigError as unusable:
        problem = unusable
    doc["problem"] = None if problem is None else {"message": problem.message, "hint": problem.hint}
    return SettingsView(doc, problem)


def _ask(questions: Questions, question: str, check: Callable[[str], T], default: str | None = None) -> T:
    """Ask until the answer passes `check`; its error is shown and the question asked again."""
    while True:
        answer = questions.ask(question, default)
        try:
            return check(answer.strip())
        except (AriError, ValueError) as problem:
            questions.wrong(f"error: {getattr(problem, 'message', problem)}")


def tuning_check(key: str) -> Callable[[str], Any]:
    kind = type(TUNING_DEFAULTS[key])

    def check(text: str) -> Any:
        try:
            value = kind(text)
        except ValueError:
            value = text
        try:
            return check_value(key, value)
        except ValueError as expected:
            raise ValueError(f"{key} must be {expected}") from None

    return check


def env_name(text: str) -> str:
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", text):
        raise ValueError(f"{text!r} is not an environment variable name")
    return text


KEY_HOW = (
    "the key itself is never given on the command line: save it in a file (--api-key-file, readable only "
    "by you) or name an environment variable that holds it (--api-key-env)"
)


def key_file(text: str | Path) -> Path:
    """A key file that can be read now and holds a key, as its absolute path (the key is not kept)."""
    path = Path(text).expanduser()
    read_key_file(path)
    return path.resolve()


def _key_source(
    values: dict[str, Any], api_key_file: Path | None, api_key_env: str | None, questions: Questions
) -> None:
    """Where the profile takes its key from; a typed key is the only one written into the file."""
    if api_key_file is not None:
        values["api_key_file"] = str(api_key_file)
        return
    if api_key_env is not None:
        values["api_key_env"] = env_name(api_key_env)
        return
    key = questions.ask_secret(
        "API key (typing is hidden; leave empty to read it from a file or an environment variable)"
    ).strip()
    remember(key)
    if key:
        values["api_key"] = key
        return
    path = _ask(
        questions, "File holding the API key (leave empty to use an environment variable)", _optional_key_file, ""
    )
    if path is not None:
        values["api_key_file"] = str(path)
    else:
        values["api_key_env"] = _ask(questions, "Environment variable holding the API key", env_name, "ARI_API_KEY")


def _optional_key_file(text: str) -> Path | None:
    return key_file(text) if text else None


def _joined(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _given_key_file(api_key_file: Path | None) -> Path | None:
    if api_key_file is None:
        return None
    try:
        return key_file(api_key_file)
    except ConfigError as problem:
        raise UsageProblem(f"--api-key-file: {problem.message}", "give the path of a file that holds the key") from None


@dataclass(frozen=True, slots=True)
class Saved:
    """`config init`: the profile written, where, and whether it replaced one."""

    profile: str
    path: str
    """The config file, as messages show it."""
    replaced: bool


def init(request: ConfigInit, questions: Questions, world: World) -> Saved:
    """Write a profile from what was given, asking for the rest at a terminal (and nothing without one)."""
    profile, config, force, path_segment = request.profile, request.config, request.force, request.path_segment
    base_url, source_id, api_key_env = request.base_url, request.source_id, request.api_key_env
    if not PROFILE_NAME.fullmatch(profile):
        raise UsageProblem(f"--profile {profile!r}: use letters, digits, _ and - only")
    if request.api_key_file is not None and api_key_env is not None:
        raise UsageProblem("give --api-key-file or --api-key-env, not both")
    path, _ = config_location(config, world.environ)
    # Refused before anything is asked, so nobody types a key only to be told the profile exists.
    check_new_profile(path, profile, force)
    api_key_file = _given_key_file(request.api_key_file)
    given = {
        "--base-url": base_url,
        "--source-id": source_id,
        "--api-key-file or --api-key-env": api_key_file or api_key_env,
    }
    missing = [option for option, value in given.items() if not value]
    if missing and not world.stdin_is_terminal:
        raise UsageProblem(
            f"no terminal to ask at: give {_joined(missing)}", KEY_HOW if missing[-1].startswith("--api") else None
        )
    quiet = not missing or not world.stdin_is_terminal
    values: dict[str, Any] = {
        "base_url": check_base_url(base_url)
        if base_url
        else _ask(questions, "Base URL of the push service", check_base_url),
        "source_id": check_source_id(source_id)
        if source_id
        else _ask(questions, "Source id (cpb + 2 characters)", check_source_id),
    }
    _key_source(values, api_key_file, api_key_env, questions)
    if path_segment is None and not quiet:
        path_segment = _ask(questions, "Last path segment of the URL", segment, DEFAULT_SEGMENT)
    if path_segment and path_segment != DEFAULT_SEGMENT:
        values["path_segment"] = path_segment
    for key, default in TUNING_DEFAULTS.items():
        # A budget per property is the service's to state, not a setting every profile needs: `config set` it.
        if not quiet and key != "rate_per_property":
            answer = _ask(
                questions,
                key.replace("_", " ").capitalize(),
                tuning_check(key),
                f"{default:g}" if isinstance(default, float) else str(default),
            )
            if answer != default:
                values[key] = answer

    replaced = save_profile(path, profile, values, force)
    return Saved(profile, display(path), replaced)


@dataclass(frozen=True, slots=True)
class Profiles:
    """`config profiles`: the config file and its profiles, each a dict of name, in_use, base_url, source_id, key."""

    path: Path
    profiles: list[dict[str, Any]]


def profiles(config: Path | None, profile: str | None, listener: Listener, world: World) -> Profiles:
    """The profiles of the config file, the one in use marked."""
    found, path, _ = load_config(config, world.environ)
    if found is None:
        listener.say(f"no config file at {display(path)}; create one with: ari-cli config init")
    else:
        listener.notices(list(found.warnings))
    chosen, _ = profile_choice(profile, world.environ)
    listed: list[dict[str, Any]] = []
    for name, body in (found.profiles if found else {}).items():
        key = next(
            (f"{k} {body[k]}" if k != "api_key" else "api_key (in the file)" for k in body if k.startswith("api_key")),
            "-",
        )
        listed.append(
            {
                "name": name,
                "in_use": name == chosen,
                "base_url": _listed_url(body.get("base_url")),
                "source_id": body.get("source_id"),
                "key": key,
            }
        )
    return Profiles(path, listed)


def _listed_url(url: Any) -> Any:
    """A profile's base URL as listed: in its service's one spelling; one that a command refuses is not shown (it
    may hold a password), only why it is refused."""
    if not isinstance(url, str):
        return url
    problem = identity_problem(url)
    return f"(refused: it {problem})" if problem else canonical_or_same(url)


def segment(text: str) -> str:
    if not text.strip("/"):
        raise ValueError("the path segment is empty")
    return text


def profile_names(config: Path | None, world: World) -> list[str]:
    """The profiles of a config file, for completion: none when it cannot be read."""
    try:
        found, _, _ = load_config(config, world.environ)
    except AriError:
        return []  # a completion prints nothing: the command itself will say what is wrong
    return list(found.profiles) if found else []


def setting_names() -> list[str]:
    """The settings a profile takes, for completion."""
    return list(PROFILE_KEYS)
