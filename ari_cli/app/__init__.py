"""The application layer, as the commands call it: one function per use case.

This is the one lazy step between the commands and the work. No function is named as a module
of this package: importing `ari_cli.app.push` sets the attribute `push` of the package. Each function imports the module
that does the work when it is called, so answering --help, --version or a completion loads no
HTTP client, pipeline, journal or spreadsheet reader; below this line modules import as usual.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ari_cli.app.options import (
        CalendarRequest,
        ConfigEdit,
        ConfigInit,
        ConfigShow,
        FindRequest,
        OutputFormat,
        ReplayRequest,
        SandboxOptions,
        ViewFormat,
    )
    from ari_cli.wire.operations import Operation


def run_replay(request: ReplayRequest) -> None:
    """Send a partner's exact request bodies and explain the answers."""
    from ari_cli.app.replay_run import replay

    replay(request)


def explain(codes: list[str], output: OutputFormat) -> None:
    """What HTTP statuses or body codes mean."""
    from ari_cli.app.support import explain_codes

    explain_codes(codes, output)


def errors(output: OutputFormat) -> None:
    """The spec's whole error table."""
    from ari_cli.app.support import error_table

    error_table(output)


def describe_policies(policies: Path, name: str | None) -> None:
    """Named policies in words."""
    from ari_cli.app.support import describe_policies as describe

    describe(policies, name)


def run_sandbox(options: SandboxOptions) -> None:
    """Serve the emulator until Ctrl-C."""
    from ari_cli.app.sandbox import serve

    serve(options)


def history_runs(limit: int, operation: Operation | None, output: ViewFormat) -> None:
    """The runs the journal recorded, newest first."""
    from ari_cli.app.history import list_runs

    list_runs(limit, operation, output)


def history_show(run: str, body: bool, all_rows: bool | None, output: ViewFormat) -> None:
    """One run of the journal in full."""
    from ari_cli.app.history import show_run

    show_run(run, body, all_rows, output)


def history_find(request: FindRequest) -> None:
    """Who sent a tracking id, or which requests set a date."""
    from ari_cli.app.history import find

    find(request)


def history_prune(older_than: str, dry_run: bool, yes: bool) -> None:
    """Delete the runs older than an age and compact the journal."""
    from ari_cli.app.history import prune

    prune(older_than, dry_run, yes)


def show_calendar(request: CalendarRequest) -> None:
    """The values the service last acknowledged, per key and date."""
    from ari_cli.app.calendar import calendar

    calendar(request)


def config_show(request: ConfigShow) -> None:
    """The settings in effect and where each came from."""
    from ari_cli.app.config import show

    show(request)


def config_init(request: ConfigInit) -> None:
    """Create or replace a profile, asking for what was not given."""
    from ari_cli.app.config import init

    init(request)


def config_set(request: ConfigEdit) -> None:
    """Change one setting of a profile."""
    from ari_cli.app.config_edit import set_setting

    set_setting(request)


def config_get(request: ConfigEdit) -> None:
    """Print one setting of a profile."""
    from ari_cli.app.config_edit import get_setting

    get_setting(request)


def config_delete(request: ConfigEdit) -> None:
    """Remove a profile from the config file."""
    from ari_cli.app.config_edit import delete

    delete(request)


def config_profiles(config: Path | None, profile: str | None, output: ViewFormat) -> None:
    """The profiles of the config file."""
    from ari_cli.app.config import profiles

    profiles(config, profile, output)


def write_samples(directory: Path, force: bool) -> None:
    """Write the sample files into a folder."""
    from ari_cli.app.samples import write_samples as write

    write(directory, force)


def profile_names(config: Path | None) -> list[str]:
    """The profiles of the config file, for completion: none when it cannot be read."""
    import os

    from ari_cli.config.settings import ConnectionFlags, load_config
    from ari_cli.exits import AriError

    try:
        found, _, _ = load_config(ConnectionFlags(config=config), os.environ)
    except AriError:
        return []  # a completion prints nothing: the command itself will say what is wrong
    return list(found.profiles) if found else []


def setting_names() -> list[str]:
    """The settings a profile takes, for completion."""
    from ari_cli.config.file import PROFILE_KEYS

    return list(PROFILE_KEYS)


def run_choices() -> list[tuple[str, str]]:
    """`last` and the newest run numbers of the journal with what each was, for completion."""
    from ari_cli.app.history import run_choices as choices

    return choices()
