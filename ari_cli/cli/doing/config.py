"""What `config`'s commands do once their options are parsed (the commands are declared in cli/config.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import typer

from ari_cli.app.config import init as init_profile
from ari_cli.app.config import profiles as profiles_in
from ari_cli.app.config import show as settings_view
from ari_cli.app.config_edit import delete as delete_profile
from ari_cli.app.config_edit import get_setting, set_setting
from ari_cli.app.options import ConfigEdit, ConfigInit, ConfigShow, PlanOptions, SendTuning
from ari_cli.choices import ViewFormat
from ari_cli.cli.options import connection_options
from ari_cli.cli.prompts import Prompts
from ari_cli.cli.world import process_world
from ari_cli.exits import UsageProblem
from ari_cli.render.config import show_profiles, show_saved, show_settings
from ari_cli.render.printable import echo_err
from ari_cli.render.terminal import Terminal


def show(
    *,
    profile: str | None,
    config: Path | None,
    output: ViewFormat,
    base_url: str | None,
    source_id: str | None,
    api_key_file: Path | None,
    path_segment: str | None,
    batch_size: int | None,
    data_form: str | None,
    concurrency: int | None,
    rate: float | None,
    timeout: float | None,
    retries: int | None,
) -> None:
    connection = connection_options(
        profile=profile,
        config=config,
        base_url=base_url,
        source_id=source_id,
        api_key_file=api_key_file,
        path_segment=path_segment,
    )

    request = ConfigShow(
        connection=connection,
        output=output,
        plan=PlanOptions(batch_size=batch_size, data_form=data_form),
        sending=SendTuning(concurrency=concurrency, rate=rate, timeout=timeout, retries=retries),
    )
    found = settings_view(request, Terminal(), process_world())
    show_settings(found.document, output.value)
    if found.problem is not None:
        raise found.problem


def init(
    *,
    profile: str,
    config: Path | None,
    force: bool,
    base_url: str | None,
    source_id: str | None,
    api_key_file: Path | None,
    api_key_env: str | None,
    path_segment: str | None,
) -> None:
    saved = init_profile(
        ConfigInit(
            profile=profile,
            config=config,
            force=force,
            base_url=base_url,
            source_id=source_id,
            api_key_file=api_key_file,
            api_key_env=api_key_env,
            path_segment=path_segment,
        ),
        Prompts(),
        process_world(),
    )
    show_saved(saved.profile, saved.path, saved.replaced)


def set_(*, key: str, value: str | None, profile: str | None, config: Path | None) -> None:
    edit = ConfigEdit(profile=profile, config=config, key=key, value=value)
    typer.echo(set_setting(edit, Prompts(), process_world()))


def get(*, key: str, profile: str | None, config: Path | None, quiet: bool) -> None:
    got = get_setting(ConfigEdit(profile=profile, config=config, key=key), process_world())
    if got.default is not None and not quiet:
        echo_err(got.default)
    typer.echo(got.value)


def delete(*, name: str, config: Path | None, yes: bool) -> None:
    if not yes:
        if not (sys.stdin.isatty() and sys.stderr.isatty()):
            raise UsageProblem(
                "config delete asks before deleting, and there is no terminal to ask at",
                f"give --yes to delete profile {name!r} without being asked",
            )
        try:
            sure = typer.confirm(f"Delete profile {name!r}?", default=False, err=True)
        except typer.Abort:  # end of input at the question
            sure = False
        if not sure:
            typer.echo("nothing deleted", err=True)
            raise typer.Exit(1)
    typer.echo(delete_profile(ConfigEdit(profile=None, config=config, key=name), process_world()))


def profiles(*, config: Path | None, profile: str | None, output: ViewFormat, quiet: bool) -> None:
    found = profiles_in(config, profile, Terminal(quiet=quiet), process_world())
    show_profiles(str(found.path), found.profiles, output.value)
