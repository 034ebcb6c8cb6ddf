"""`ari-cli config show|init|profiles`: the settings in effect, a new profile, the profiles there are."""

from pathlib import Path
from typing import Annotated

import typer

from ari_cli.choices import ViewFormat
from ari_cli.cli.completion import complete_profile, complete_setting
from ari_cli.cli.helptext import HelpCommand, HelpGroup
from ari_cli.cli.options import tuning
from ari_cli.cli.values import choice

app = typer.Typer(
    add_completion=False,
    name="config",
    cls=HelpGroup,
    help="""Profiles: where to push, with which key, and how, saved in a config file.

Settings come from the first of: a flag, an ARI_* environment variable, the profile, the default.

\f
[bold]Examples[/bold]:

  ari-cli config init
  ari-cli config show --profile prod
  ari-cli config set batch_size 20 --profile prod
  ari-cli config get base_url
  ari-cli config delete staging
  ari-cli config profiles
""",
    no_args_is_help=True,
)


Output = ViewFormat

_OVERRIDE = "Overrides (as for push)"

ProfileOption = Annotated[
    str | None,
    typer.Option(
        "--profile",
        metavar="NAME",
        help="Profile to use. \\[env: ARI_PROFILE] \\[default: default]",
        show_default=False,
        autocompletion=complete_profile,
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
OutputOption = Annotated[
    Output, typer.Option("--output", "-o", **choice(Output), help="Plain text, or one JSON document.")
]

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

\f
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
replaced only with --force (otherwise exit 4, before anything is asked). Given --base-url, --source-id \
and --api-key-file or --api-key-env, it asks nothing: for scripts. Without a terminal it never asks: a \
missing value is a usage error naming its option (exit 2). A key file must exist and hold a key.

\f
[bold]The file it writes[/bold] (config.toml):
{FILE_EXAMPLE}
[bold]Examples[/bold]:

  ari-cli config init
  ari-cli config init --profile test --base-url http://127.0.0.1:8765 --source-id cpbA1 --api-key-env ARI_TEST_KEY
  ari-cli config init --force --base-url https://push.example.com --source-id cpbA1 --api-key-file ~/.ari-key
"""

PROFILES_HELP = """List the profiles of the config file; * marks the one in use.

Shows each profile's base URL, source id and where its key comes from (never the key).

\f
[bold]Examples[/bold]:

  ari-cli config profiles
  ari-cli config profiles --config ./team.toml --output json
"""


@app.command("show", help=SHOW_HELP, cls=HelpCommand)
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
    batch_size: Annotated[int | None, tuning("batch_size", _OVERRIDE)] = None,
    data_form: Annotated[
        str | None,
        typer.Option(
            "--data-form", metavar="list|object", help="data as a list or a single object.", rich_help_panel=_OVERRIDE
        ),
    ] = None,
    concurrency: Annotated[int | None, tuning("concurrency", _OVERRIDE)] = None,
    rate: Annotated[float | None, tuning("rate", _OVERRIDE)] = None,
    timeout: Annotated[float | None, tuning("timeout", _OVERRIDE)] = None,
    retries: Annotated[int | None, tuning("retries", _OVERRIDE)] = None,
) -> None:
    from ari_cli.cli.doing.config import show as do

    do(
        profile=profile,
        config=config,
        output=output,
        base_url=base_url,
        source_id=source_id,
        api_key_file=api_key_file,
        path_segment=path_segment,
        batch_size=batch_size,
        data_form=data_form,
        concurrency=concurrency,
        rate=rate,
        timeout=timeout,
        retries=retries,
    )


@app.command("init", help=INIT_HELP, cls=HelpCommand)
def init(
    profile: Annotated[
        str,
        typer.Option(
            "--profile", metavar="NAME", help="Profile to create or replace.", autocompletion=complete_profile
        ),
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
    from ari_cli.cli.doing.config import init as do

    do(
        profile=profile,
        config=config,
        force=force,
        base_url=base_url,
        source_id=source_id,
        api_key_file=api_key_file,
        api_key_env=api_key_env,
        path_segment=path_segment,
    )


SET_HELP = """Change one setting of a profile; the rest of the profile and the file are kept.

KEY is a setting of the profile: base_url, source_id, api_key_file, api_key_env, path_segment, \
batch_size, data_form, concurrency, rate, timeout, retries, or api_key. The value is checked as \
`config init` checks it (a key file must exist and hold a key). The key itself is never given on the \
command line: `config set api_key` asks for it at a terminal, typed without echo. Giving the key \
one way (api_key, api_key_file or api_key_env) drops the other ways from the profile.

\f
[bold]Examples[/bold]:

  ari-cli config set base_url https://push.example.com
  ari-cli config set batch_size 20 --profile staging
  ari-cli config set api_key_file ~/.ari-key
  ari-cli config set api_key
"""

GET_HELP = """Print one setting of a profile (the key masked); a tuning setting it lacks prints its default.

Exits 4 when the profile, or a setting without a default, is not there.

\f
[bold]Examples[/bold]:

  ari-cli config get base_url
  ari-cli config get retries --profile ci
"""

DELETE_HELP = """Remove a profile from the config file; the other profiles and the comments are kept.

At a terminal it asks first; without one (a script), give --yes.

\f
[bold]Examples[/bold]:

  ari-cli config delete staging
  ari-cli config delete old --config ./team.toml
"""

SettingKey = Annotated[
    str,
    typer.Argument(metavar="KEY", help="A setting of the profile, e.g. base_url.", autocompletion=complete_setting),
]


@app.command("set", help=SET_HELP, cls=HelpCommand)
def set_(
    key: SettingKey,
    value: Annotated[
        str | None, typer.Argument(metavar="VALUE", help="The new value (none for api_key: it is asked).")
    ] = None,
    profile: ProfileOption = None,
    config: ConfigOption = None,
) -> None:
    from ari_cli.cli.doing.config import set_ as do

    do(key=key, value=value, profile=profile, config=config)


@app.command("get", help=GET_HELP, cls=HelpCommand)
def get(
    key: SettingKey,
    profile: ProfileOption = None,
    config: ConfigOption = None,
    quiet: Annotated[
        bool, typer.Option("--quiet", "-q", help="The value alone: no note that it is the default.")
    ] = False,
) -> None:
    from ari_cli.cli.doing.config import get as do

    do(key=key, profile=profile, config=config, quiet=quiet)


@app.command("delete", help=DELETE_HELP, cls=HelpCommand)
def delete(
    name: Annotated[
        str, typer.Argument(metavar="PROFILE", help="The profile to remove.", autocompletion=complete_profile)
    ],
    config: ConfigOption = None,
    yes: Annotated[
        bool, typer.Option("--yes", "-y", help="Delete without asking (needed without a terminal).")
    ] = False,
) -> None:
    from ari_cli.cli.doing.config import delete as do

    do(name=name, config=config, yes=yes)


@app.command("profiles", help=PROFILES_HELP, cls=HelpCommand)
def profiles(
    config: ConfigOption = None,
    profile: ProfileOption = None,
    output: OutputOption = Output.TABLE,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Only errors and warnings on standard error.")] = False,
) -> None:
    from ari_cli.cli.doing.config import profiles as do

    do(config=config, profile=profile, output=output, quiet=quiet)
