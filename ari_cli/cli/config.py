"""`ari-cli config show|init|profiles`: the settings in effect, a new profile, the profiles there are.

Only Typer is imported here; the configuration modules load when a command runs.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer

if TYPE_CHECKING:
    from ari_cli.config.settings import Settings

T = TypeVar("T")

app = typer.Typer(
    name="config",
    help="""Profiles: where to push, with which key, and how, saved in a config file.

Settings come from the first of: a flag, an ARI_* environment variable, the profile, the default.

[bold]Examples[/bold]:

  ari-cli config init
  ari-cli config show --profile prod
  ari-cli config profiles
""",
    no_args_is_help=True,
)


class Output(StrEnum):
    TABLE = "table"
    JSON = "json"


_OVERRIDE = "Overrides (as for push)"

ProfileOption = Annotated[
    str | None,
    typer.Option(
        "--profile",
        metavar="NAME",
        help="Profile to use. \\[env: ARI_PROFILE] \\[default: default]",
        show_default=False,
    ),
]
ConfigOption = Annotated[
    Path | None,
    typer.Option(
        "--config",
        metavar="PATH",
        help="Config file. \\[env: ARI_CONFIG] \\[default: config.toml in the user config folder]",
        show_default=False,
    ),
]
OutputOption = Annotated[Output, typer.Option("--output", "-o", help="Plain text, or one JSON document.")]

FILE_EXAMPLE = """
  \\[profiles.default]
  base_url = "https://push.example.com"
  source_id = "cpbA1"
  api_key_file = "~/.ari-key"      # or api_key = "..." or api_key_env = "MY_VAR"

  \\[profiles.test]
  base_url = "http://127.0.0.1:8765"
  source_id = "cpbA1"
  api_key_env = "ARI_TEST_KEY"
  batch_size = 10                 # also: path_segment, data_form, concurrency,
                                  #       rate, timeout, retries
"""

SHOW_HELP = f"""Show the settings in effect and where each came from; the key is masked.

Each setting is taken from the first of: a flag, an ARI_* environment variable, the profile, the \
default. Exits 4, after the table, when a push could not connect with these settings (no base URL, \
key or source id, or a refused URL), and says why.

[bold]Example file[/bold] (config.toml):
{FILE_EXAMPLE}
[bold]Examples[/bold]:

  ari-cli config show
  ari-cli config show --profile test --output json
  ARI_BASE_URL=https://other.example.com ari-cli config show
"""

INIT_HELP = f"""Create a profile in the config file, asking for each setting.

Asks for the base URL, the source id and the API key (typed without echo; or leave it empty to \
name a key file or an environment variable instead), then the sending settings (Enter keeps the \
default). Writes the file readable by you alone (mode 600), in the user config folder unless --config \
or ARI_CONFIG names another. Other profiles and comments in the file are kept; an existing profile is \
replaced only with --force (otherwise exit 4). Given --base-url, --source-id and --api-key-file or \
--api-key-env, it asks nothing: for scripts.

[bold]The file it writes[/bold] (config.toml):
{FILE_EXAMPLE}
[bold]Examples[/bold]:

  ari-cli config init
  ari-cli config init --profile test --base-url http://127.0.0.1:8765 --source-id cpbA1 --api-key-env ARI_TEST_KEY
  ari-cli config init --force --base-url https://push.example.com --source-id cpbA1 --api-key-file ~/.ari-key
"""

PROFILES_HELP = """List the profiles of the config file; * marks the one in use.

Shows each profile's base URL, source id and where its key comes from (never the key).

[bold]Examples[/bold]:

  ari-cli config profiles
  ari-cli config profiles --config ./team.toml --output json
"""


def _flags(profile: str | None, config: Path | None, **connection: Any) -> Any:
    from ari_cli.config.settings import ConnectionFlags

    return ConnectionFlags(profile=profile, config=config, **connection)


def _shown(name: str, value: Any) -> Any:
    from ari_cli.config.secrets import mask

    if value is None:
        return None
    return mask(value) if name == "api_key" else value


def _describe(settings: Settings) -> dict[str, Any]:
    from ari_cli.config.file import display

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
            name: {"value": _shown(name, sourced.value), "source": sourced.source}
            for name, sourced in settings.values.items()
        },
    }


def _table(rows: list[list[str]]) -> str:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]) - 1)]
    return "\n".join("  ".join([*(c.ljust(w) for c, w in zip(r, widths, strict=False)), r[-1]]).rstrip() for r in rows)


def _text(value: Any) -> str:
    if value is None:
        return "-"
    return f"{value:g}" if isinstance(value, float) else str(value)


def _show_text(doc: dict[str, Any]) -> str:
    found = "" if doc["config_file_found"] else "; not found"
    where = "" if doc["profile_found"] else "; not in the file"
    head = [
        ["config file", f"{doc['config_file_shown']} ({doc['config_file_source']}{found})"],
        ["profile", f"{doc['profile']} ({doc['profile_source']}{where})"],
    ]
    rows = [["setting", "value", "source"]]
    rows += [[name, _text(s["value"]), s["source"]] for name, s in doc["settings"].items()]
    return _table(head) + "\n\n" + _table(rows)


def _say(text: str) -> None:
    from ari_cli.config.secrets import scrub

    typer.echo(scrub(text))


def _warn(settings_warnings: tuple[str, ...]) -> None:
    from ari_cli.cli.boundary import echo_err

    for warning in settings_warnings:
        echo_err(f"warning: {warning}")


@app.command("show", help=SHOW_HELP)
def show(
    profile: ProfileOption = None,
    config: ConfigOption = None,
    output: OutputOption = Output.TABLE,
    base_url: Annotated[
        str | None,
        typer.Option(
            "--base-url", metavar="URL", help="Service base URL. \\[env: ARI_BASE_URL]", rich_help_panel=_OVERRIDE
        ),
    ] = None,
    source_id: Annotated[
        str | None,
        typer.Option(
            "--source-id", metavar="ID", help="Partner source id. \\[env: ARI_SOURCE_ID]", rich_help_panel=_OVERRIDE
        ),
    ] = None,
    api_key_file: Annotated[
        Path | None,
        typer.Option(
            "--api-key-file",
            metavar="PATH",
            help="File holding the API key. \\[env: ARI_API_KEY holds the key itself]",
            rich_help_panel=_OVERRIDE,
        ),
    ] = None,
    path_segment: Annotated[
        str | None,
        typer.Option(
            "--path-segment",
            metavar="TEXT",
            help="Last path segment. \\[env: ARI_PATH_SEGMENT]",
            rich_help_panel=_OVERRIDE,
        ),
    ] = None,
    batch_size: Annotated[
        int | None,
        typer.Option(
            "--batch-size", min=1, metavar="N", help="Most records in one request.", rich_help_panel=_OVERRIDE
        ),
    ] = None,
    data_form: Annotated[
        str | None,
        typer.Option(
            "--data-form", metavar="list|object", help="data as a list or a single object.", rich_help_panel=_OVERRIDE
        ),
    ] = None,
    concurrency: Annotated[
        int | None,
        typer.Option(
            "--concurrency", min=1, max=64, metavar="N", help="Requests in flight at once.", rich_help_panel=_OVERRIDE
        ),
    ] = None,
    rate: Annotated[
        float | None,
        typer.Option("--rate", min=0, metavar="R", help="At most R requests per second.", rich_help_panel=_OVERRIDE),
    ] = None,
    timeout: Annotated[
        float | None,
        typer.Option("--timeout", min=0.1, metavar="S", help="Seconds for one request.", rich_help_panel=_OVERRIDE),
    ] = None,
    retries: Annotated[
        int | None,
        typer.Option(
            "--retries",
            min=0,
            max=20,
            metavar="N",
            help="Further tries after a transient failure.",
            rich_help_panel=_OVERRIDE,
        ),
    ] = None,
) -> None:
    import json
    import os

    from ari_cli.config.settings import resolve_settings
    from ari_cli.exits import ConfigError, UsageProblem

    if data_form not in (None, "list", "object"):
        raise UsageProblem(f"--data-form {data_form}: give list or object")
    given = {
        "batch_size": batch_size,
        "data_form": data_form,
        "concurrency": concurrency,
        "rate": rate,
        "timeout": timeout,
        "retries": retries,
    }
    flags = _flags(
        profile, config, base_url=base_url, source_id=source_id, api_key_file=api_key_file, path_segment=path_segment
    )
    settings = resolve_settings(flags, os.environ, {k: v for k, v in given.items() if v is not None})
    _warn(settings.warnings)
    doc = _describe(settings)
    problem: ConfigError | None = None
    try:
        settings.connection()
    except ConfigError as unusable:
        problem = unusable
    if output is Output.JSON:
        doc["problem"] = None if problem is None else {"message": problem.message, "hint": problem.hint}
        _say(json.dumps(doc, indent=2, ensure_ascii=False))
    else:
        _say(_show_text(doc))
    if problem is not None:
        raise problem


def _ask(question: str, check: Callable[[str], T], default: str | None = None) -> T:
    """Ask until the answer passes `check`; its error is shown and the question asked again."""
    from ari_cli.cli.boundary import echo_err
    from ari_cli.exits import AriError

    while True:
        answer: str = typer.prompt(question, default=default, show_default=default is not None)
        try:
            return check(answer.strip())
        except (AriError, ValueError) as problem:
            echo_err(f"error: {getattr(problem, 'message', problem)}")


def _tuning_check(key: str) -> Callable[[str], Any]:
    from ari_cli.config.file import TUNING_DEFAULTS, check_value

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


def _env_name(text: str) -> str:
    import re

    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", text):
        raise ValueError(f"{text!r} is not an environment variable name")
    return text


def _secret(question: str) -> str:
    """Ask without echo; a piped answer (scripts, tests) is read as it is, since getpass would warn."""
    import sys

    if sys.stdin.isatty():
        answer: str = typer.prompt(question, default="", show_default=False, hide_input=True)
        return answer.strip()
    typer.echo(f"{question}: ", nl=False)
    line = sys.stdin.readline()
    typer.echo()
    return line.strip()


def _key_source(values: dict[str, Any], api_key_file: Path | None, api_key_env: str | None) -> None:
    """Where the profile takes its key from; a typed key is the only one written into the file."""
    from ari_cli.config.secrets import remember

    if api_key_file is not None:
        values["api_key_file"] = str(api_key_file.expanduser().resolve())
        return
    if api_key_env is not None:
        values["api_key_env"] = _env_name(api_key_env)
        return
    key = _secret("API key (typing is hidden; leave empty to read it from a file or an environment variable)")
    remember(key)
    if key:
        values["api_key"] = key
        return
    path: str = typer.prompt("File holding the API key (leave empty to use an environment variable)", default="")
    if path.strip():
        values["api_key_file"] = str(Path(path.strip()).expanduser().resolve())
    else:
        values["api_key_env"] = _ask("Environment variable holding the API key", _env_name, "ARI_API_KEY")


@app.command("init", help=INIT_HELP)
def init(
    profile: Annotated[
        str, typer.Option("--profile", metavar="NAME", help="Profile to create or replace.")
    ] = "default",
    config: ConfigOption = None,
    force: Annotated[bool, typer.Option("--force", help="Replace the profile if it exists.")] = False,
    base_url: Annotated[
        str | None,
        typer.Option("--base-url", metavar="URL", help="Service base URL (https://, or http:// to loopback)."),
    ] = None,
    source_id: Annotated[
        str | None, typer.Option("--source-id", metavar="ID", help="Partner source id (cpb + 2 characters).")
    ] = None,
    api_key_file: Annotated[
        Path | None,
        typer.Option(
            "--api-key-file",
            metavar="PATH",
            help="Read the key from this file at each run; the file's path is saved, not the key.",
        ),
    ] = None,
    api_key_env: Annotated[
        str | None,
        typer.Option("--api-key-env", metavar="VAR", help="Read the key from this environment variable at each run."),
    ] = None,
    path_segment: Annotated[
        str | None,
        typer.Option("--path-segment", metavar="TEXT", help="Last path segment; may hold {action} and {propertyid}."),
    ] = None,
) -> None:
    import os

    from ari_cli.config.file import PROFILE_NAME, TUNING_DEFAULTS, display, save_profile
    from ari_cli.config.settings import DEFAULT_SEGMENT, check_base_url, check_source_id, config_location
    from ari_cli.exits import UsageProblem

    if not PROFILE_NAME.fullmatch(profile):
        raise UsageProblem(f"--profile {profile!r}: use letters, digits, _ and - only")
    if api_key_file is not None and api_key_env is not None:
        raise UsageProblem("give --api-key-file or --api-key-env, not both")
    path, _ = config_location(_flags(None, config), os.environ)
    quiet = bool(base_url and source_id and (api_key_file or api_key_env))
    values: dict[str, Any] = {
        "base_url": check_base_url(base_url) if base_url else _ask("Base URL of the push service", check_base_url),
        "source_id": check_source_id(source_id)
        if source_id
        else _ask("Source id (cpb + 2 characters)", check_source_id),
    }
    _key_source(values, api_key_file, api_key_env)
    if path_segment is None and not quiet:
        path_segment = _ask("Last path segment of the URL", _segment, DEFAULT_SEGMENT)
    if path_segment and path_segment != DEFAULT_SEGMENT:
        values["path_segment"] = path_segment
    for key, default in TUNING_DEFAULTS.items():
        if not quiet:
            answer = _ask(
                key.replace("_", " ").capitalize(),
                _tuning_check(key),
                f"{default:g}" if isinstance(default, float) else str(default),
            )
            if answer != default:
                values[key] = answer
    replaced = save_profile(path, profile, values, force)
    verb = "Replaced" if replaced else "Saved"
    typer.echo(f"{verb} profile {profile!r} in {display(path)} (readable only by you).")
    use = "" if profile == "default" else f" --profile {profile}"
    typer.echo(f"Check it with: ari-cli config show{use}")


@app.command("profiles", help=PROFILES_HELP)
def profiles(config: ConfigOption = None, profile: ProfileOption = None, output: OutputOption = Output.TABLE) -> None:
    import json
    import os

    from ari_cli.cli.boundary import echo_err
    from ari_cli.config.file import display
    from ari_cli.config.settings import load_config, profile_choice

    flags = _flags(profile, config)
    found, path, _ = load_config(flags, os.environ)
    if found is None:
        echo_err(f"no config file at {display(path)}; create one with: ari-cli config init")
    else:
        _warn(found.warnings)
    chosen, _ = profile_choice(flags, os.environ)
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
                "base_url": body.get("base_url"),
                "source_id": body.get("source_id"),
                "key": key,
            }
        )
    if output is Output.JSON:
        _say(json.dumps({"config_file": str(path), "profiles": listed}, indent=2, ensure_ascii=False))
    elif listed:
        rows = [["", "profile", "base_url", "source_id", "key"]]
        rows += [
            ["*" if p["in_use"] else "", p["name"], p["base_url"] or "-", p["source_id"] or "-", p["key"]]
            for p in listed
        ]
        _say(_table(rows))


def _segment(text: str) -> str:
    if not text.strip("/"):
        raise ValueError("the path segment is empty")
    return text
