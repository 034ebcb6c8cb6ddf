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
    import datetime as dt
    from contextlib import AbstractContextManager

    from ari_cli.app.calendar import Calendar
    from ari_cli.app.config import Profiles, Saved, SettingsView
    from ari_cli.app.config_edit import Got
    from ari_cli.app.history import DateFound, OpenRun, Pruned, RunList, TrackingFound
    from ari_cli.app.listener import Listener, Questions
    from ari_cli.app.options import (
        CalendarRequest,
        ConfigEdit,
        ConfigInit,
        ConfigShow,
        FindRequest,
        ReplayRequest,
        SandboxOptions,
    )
    from ari_cli.app.replay_run import Replay
    from ari_cli.app.world import World
    from ari_cli.sandbox import Sandbox
    from ari_cli.wire.errors import ErrorRow
    from ari_cli.wire.explain import Explanation
    from ari_cli.wire.operations import Operation


def run_replay(request: ReplayRequest, listener: Listener, world: World) -> Replay:
    """Send a partner's exact request bodies; what came back."""
    from ari_cli.app.replay_run import replay

    return replay(request, listener, world)


def explain(codes: list[str]) -> list[Explanation]:
    """What HTTP statuses or body codes mean."""
    from ari_cli.app.support import explain_codes

    return explain_codes(codes)


def errors() -> list[ErrorRow]:
    """The spec's whole error table."""
    from ari_cli.app.support import error_table

    return error_table()


def describe_policies(policies: Path, name: str | None) -> list[str]:
    """Named policies in words, a line each."""
    from ari_cli.app.support import describe_policies as describe

    return describe(policies, name)


def build_sandbox(options: SandboxOptions, day: dt.date | None, delay: tuple[float, float] | None) -> Sandbox:
    """The emulator the options ask for, not yet started (the command serves it)."""
    from ari_cli.app.sandbox import emulator

    return emulator(options, day, delay)


def history_runs(limit: int, operation: Operation | None, world: World) -> RunList:
    """The runs the journal recorded, newest first."""
    from ari_cli.app.history import list_runs

    return list_runs(limit, operation, world)


def history_show(run: str, world: World) -> AbstractContextManager[OpenRun]:
    """One run of the journal in full, read while the context is open."""
    from ari_cli.app.history import opened_run

    return opened_run(run, world)


def history_find(request: FindRequest, world: World) -> TrackingFound | DateFound:
    """Who sent a tracking id, or which requests set a date."""
    from ari_cli.app.history import find

    return find(request, world)


def history_prune(older_than: str, dry_run: bool, yes: bool, listener: Listener, world: World) -> Pruned:
    """Delete the runs older than an age and compact the journal."""
    from ari_cli.app.history import prune

    return prune(older_than, dry_run, yes, listener, world)


def show_calendar(request: CalendarRequest, listener: Listener, world: World) -> Calendar:
    """The values the service last acknowledged, per key and date."""
    from ari_cli.app.calendar import calendar

    return calendar(request, listener, world)


def config_show(request: ConfigShow, listener: Listener, world: World) -> SettingsView:
    """The settings in effect and where each came from."""
    from ari_cli.app.config import show

    return show(request, listener, world)


def config_init(request: ConfigInit, questions: Questions, world: World) -> Saved:
    """Create or replace a profile, asking for what was not given."""
    from ari_cli.app.config import init

    return init(request, questions, world)


def config_set(request: ConfigEdit, questions: Questions, world: World) -> str:
    """Change one setting of a profile; what was set."""
    from ari_cli.app.config_edit import set_setting

    return set_setting(request, questions, world)


def config_get(request: ConfigEdit, world: World) -> Got:
    """One setting of a profile."""
    from ari_cli.app.config_edit import get_setting

    return get_setting(request, world)


def config_delete(request: ConfigEdit, world: World) -> str:
    """Remove a profile from the config file; what was done."""
    from ari_cli.app.config_edit import delete

    return delete(request, world)


def config_profiles(config: Path | None, profile: str | None, listener: Listener, world: World) -> Profiles:
    """The profiles of the config file."""
    from ari_cli.app.config import profiles

    return profiles(config, profile, listener, world)


def write_samples(directory: Path, force: bool) -> list[Path]:
    """Write the sample files into a folder; the files written."""
    from ari_cli.app.samples import write_samples as write

    return write(directory, force)


def profile_names(config: Path | None, world: World) -> list[str]:
    """The profiles of the config file, for completion: none when it cannot be read."""
    from ari_cli.config.settings import load_config
    from ari_cli.exits import AriError

    try:
        found, _, _ = load_config(config, world.environ)
    except AriError:
        return []  # a completion prints nothing: the command itself will say what is wrong
    return list(found.profiles) if found else []


def setting_names() -> list[str]:
    """The settings a profile takes, for completion."""
    from ari_cli.config.file import PROFILE_KEYS

    return list(PROFILE_KEYS)


def run_choices(world: World) -> list[tuple[str, str]]:
    """`last` and the newest run numbers of the journal with what each was, for completion."""
    from ari_cli.app.history import run_choices as choices

    return choices(world)
