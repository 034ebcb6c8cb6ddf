"""What the commands hand the application layer: frozen, typed option objects, one per concern.

The commands build these from their parameters when they run, so that every option a use case reads is
named and typed here and mypy checks each read. The commands do not load this module to declare their
options (`--help` does not need these classes): the values the options offer are in `choices.py`.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from pathlib import Path
from typing import Any, NamedTuple

# The two groups that carry no setting (what a run shows, how its files are read), light as the four above.
from ari_cli.app.option_groups import InputOptions as InputOptions
from ari_cli.app.option_groups import OutputOptions as OutputOptions

# The values the options offer, importable from here too as the use cases always have.
from ari_cli.choices import MOST_DAYS as MOST_DAYS
from ari_cli.choices import DiffFormat as DiffFormat
from ari_cli.choices import DiffShow as DiffShow
from ari_cli.choices import Form as Form
from ari_cli.choices import HiddenRows as HiddenRows
from ari_cli.choices import InputFormat as InputFormat
from ari_cli.choices import Layout as Layout
from ari_cli.choices import OutputFormat as OutputFormat
from ari_cli.choices import Overlaps as Overlaps
from ari_cli.choices import PageFormat as PageFormat
from ari_cli.choices import Show as Show
from ari_cli.choices import ViewFormat as ViewFormat

# The option objects that carry settings (None: not given), which `config/settings.py` resolves.
from ari_cli.config.options import ConnectionOptions as ConnectionOptions
from ari_cli.config.options import GuardOptions as GuardOptions
from ari_cli.config.options import PlanOptions as PlanOptions
from ari_cli.config.options import SendTuning as SendTuning
from ari_cli.wire.operations import Operation


class PushRequest(NamedTuple):
    """One push, send or retry as the command line gave it.

    Each option object holds what was given (None: not given, so the environment's, the profile's or the
    default, as `config/settings.py` resolves them); `command` is the command as typed (or the Python call), for
    the journal; `rows` holds a send command's setting instead of files.
    """

    operation: Operation
    command: str
    files: tuple[Path, ...] = ()
    dry_run: bool = False
    output: OutputOptions = OutputOptions()
    inputs: InputOptions = InputOptions()
    plan: PlanOptions = PlanOptions()
    sending: SendTuning = SendTuning()
    connection: ConnectionOptions = ConnectionOptions()
    rows: tuple[Mapping[str, str], ...] | None = None
    confirm: bool = False
    """Show what would change and ask before sending (--confirm); `yes` answers for a script (--yes)."""
    yes: bool = False
    objects: tuple[Any, ...] | None = None
    """Rows given from Python (`ari_cli.push(rows=...)`), read after the files as a JSON list of objects."""
    guards: GuardOptions = GuardOptions()


class DiffRequest(NamedTuple):
    """`ari-cli OPERATION diff`: the files, read and planned as push would, and how to show what would change."""

    operation: Operation
    files: tuple[Path, ...] = ()
    output: DiffFormat = DiffFormat.TABLE
    show: DiffShow = DiffShow.CHANGES
    exit_code: bool = False
    """Exit 1 when anything would change (git diff's --exit-code)."""
    quiet: bool = False
    inputs: InputOptions = InputOptions()
    plan: PlanOptions = PlanOptions()
    connection: ConnectionOptions = ConnectionOptions()
    guards: GuardOptions = GuardOptions()
    """Which guards a push of the files would trip: said, not enforced."""


class RetryRequest(NamedTuple):
    """`ari-cli retry RUN`: which run, and how to send and show what it left."""

    run: int | str  # a run number, or `last` (app/history.py's `run_number`)
    command: str
    dry_run: bool = False
    output: OutputOptions = OutputOptions()
    sending: SendTuning = SendTuning()
    connection: ConnectionOptions = ConnectionOptions()
    force: bool = False  # send dates whose value a later run got acknowledged, too


class RevertRequest(NamedTuple):
    """`ari-cli revert RUN`: which run, what to do with dates left alone, and how to ask, send and show."""

    run: int | str  # a run number, or `last` (app/history.py's `run_number`)
    command: str
    dry_run: bool = False
    yes: bool = False
    clear_unknown: bool = False  # send n/a for dates whose earlier value the journal never saw
    force: bool = False  # put back dates a later run changed again, too
    today: dt.date | None = None  # dates before it are past: left alone
    output: OutputOptions = OutputOptions()
    sending: SendTuning = SendTuning()
    connection: ConnectionOptions = ConnectionOptions()


class ReplayRequest(NamedTuple):
    """`ari-cli replay`: the files of request bodies, whether to fill them, and how to send and show."""

    files: tuple[Path, ...]
    fill: bool
    dry_run: bool = False
    today: dt.date | None = None
    output: OutputOptions = OutputOptions()
    sending: SendTuning = SendTuning()
    connection: ConnectionOptions = ConnectionOptions()


class SandboxOptions(NamedTuple):
    """`ari-cli sandbox`: where to listen, which fixtures, and how slow or flaky to be."""

    host: str = "127.0.0.1"
    port: int = 8765
    fixtures: Path | None = None
    latency: str | None = None
    fail_rate: float = 0.0
    seed: int | None = None
    today: str | None = None
    faults: tuple[str, ...] = ()
    """`STATUS[:COUNT]`, in the order given: the next COUNT pushes (no COUNT: every one) get that row."""
    write_fixtures: Path | None = None
    """Write the built-in fixtures there and stop, instead of serving."""
    remote_faults: bool = False


class FindRequest(NamedTuple):
    """`ari-cli history find`: a tracking id, or a property and date narrowed by room, rate and operation."""

    trackingid: str | None = None
    propertyid: str | None = None
    date: str | None = None
    roomid: str | None = None
    rateid: str | None = None
    operation: Operation | None = None
    body: bool = False
    output: ViewFormat = ViewFormat.TABLE


class CalendarRequest(NamedTuple):
    """`ari-cli calendar`: which operation, property, dates, rooms and rates, and which service's values."""

    operation: Operation
    propertyid: str
    start: str | None = None
    end: str | None = None
    rooms: tuple[str, ...] = ()
    rates: tuple[str, ...] = ()
    output: PageFormat = PageFormat.TABLE
    connection: ConnectionOptions = ConnectionOptions()


class WhyRequest(NamedTuple):
    """`ari-cli why`: which property, room (and rate) and night, and which service's values."""

    propertyid: str
    roomid: str
    night: str
    rateid: str | None = None
    output: PageFormat = PageFormat.TABLE
    connection: ConnectionOptions = ConnectionOptions()


class ExportRequest(NamedTuple):
    """`ari-cli OPERATION export`: what the service holds, as the journal says, written to `path`."""

    operation: Operation
    path: Path
    properties: tuple[str, ...] = ()
    start: str | None = None
    end: str | None = None
    layout: Layout = Layout.DATES_ACROSS
    connection: ConnectionOptions = ConnectionOptions()


class ConfigShow(NamedTuple):
    """`ari-cli config show`: the profile, the overrides as push takes them, and the output."""

    connection: ConnectionOptions = ConnectionOptions()
    output: ViewFormat = ViewFormat.TABLE
    plan: PlanOptions = PlanOptions()
    sending: SendTuning = SendTuning()


class ConfigEdit(NamedTuple):
    """`ari-cli config set|get|delete`: which profile of which file, and the setting (and value) if any."""

    profile: str | None = None
    config: Path | None = None
    key: str | None = None
    value: str | None = None


class ConfigInit(NamedTuple):
    """`ari-cli config init`: the profile to write and what was given; the rest is asked."""

    profile: str = "default"
    config: Path | None = None
    force: bool = False
    base_url: str | None = None
    source_id: str | None = None
    api_key_file: Path | None = None
    api_key_env: str | None = None
    path_segment: str | None = None
