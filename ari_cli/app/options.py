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

# The values the options offer, importable from here too as the use cases always have.
from ari_cli.app.choices import MOST_DAYS as MOST_DAYS
from ari_cli.app.choices import DiffFormat as DiffFormat
from ari_cli.app.choices import DiffShow as DiffShow
from ari_cli.app.choices import Form as Form
from ari_cli.app.choices import HiddenRows as HiddenRows
from ari_cli.app.choices import InputFormat as InputFormat
from ari_cli.app.choices import OutputFormat as OutputFormat
from ari_cli.app.choices import Overlaps as Overlaps
from ari_cli.app.choices import PageFormat as PageFormat
from ari_cli.app.choices import Show as Show
from ari_cli.app.choices import ViewFormat as ViewFormat
from ari_cli.config.tuning import TUNING_DEFAULTS
from ari_cli.wire.operations import Operation

# The options a profile may set too: given on the command line they win, left at their default
# they must not hide the profile's value.
TUNING_NAMES = tuple(TUNING_DEFAULTS)


class OutputOptions(NamedTuple):
    """What a run shows, where, and whether the journal records it."""

    format: OutputFormat = OutputFormat.TABLE
    report: Path | None = None
    show: Show | None = None
    curl: bool = False
    quiet: bool = False
    verbose: bool = False
    journal: bool = True


class ConnectionOptions(NamedTuple):
    """Where to push: the built-in sandbox, or the flags over the environment over the profile."""

    sandbox: bool = False
    profile: str | None = None
    config: Path | None = None
    base_url: str | None = None
    source_id: str | None = None
    api_key_file: Path | None = None
    path_segment: str | None = None
    api_key: str | None = None
    """The key itself, from Python (`ari_cli.push(api_key=...)`): never shown, never journaled."""

    def __repr__(self) -> str:
        shown = self._replace(api_key=None if self.api_key is None else "<masked>")
        return "ConnectionOptions(" + ", ".join(f"{k}={v!r}" for k, v in shown._asdict().items()) + ")"

    def beside_sandbox(self) -> tuple[str, ...]:
        """The fields naming another service given with `sandbox`, which would be dropped without a word (the
        environment and the profile, set for every run, stay quietly unused)."""
        if not self.sandbox:
            return ()
        named = ("base_url", "source_id", "api_key_file", "path_segment", "api_key")
        return tuple(name for name in named if getattr(self, name) is not None)


class InputOptions(NamedTuple):
    """How the files are read and what an invalid row does."""

    format: InputFormat | None = None
    encoding: str | None = None
    date_format: str | None = None
    sheet: str | None = None
    header_row: int | None = None
    policies: Path | None = None
    skip_invalid: bool = False
    allow_empty: bool = False
    columns: tuple[str, ...] = ()
    """--column FIELD=HEADER, as given."""
    ignore_columns: tuple[str, ...] = ()
    """--ignore-column NAME: columns left out with a warning, however meaningful they look."""
    hidden_rows: HiddenRows | None = None
    """--hidden-rows: a workbook's hidden or filtered-out rows skipped or read; None: an error."""


class PlanOptions(NamedTuple):
    """How rows become records and requests."""

    today: dt.date | None = None
    merge: bool = True
    overlaps: Overlaps = Overlaps.ERROR
    batch_size: int = 50
    changed_only: bool = False
    data_form: Form = Form.LIST


class SendTuning(NamedTuple):
    """How requests are sent: in flight at once, per second, how long, how many tries."""

    concurrency: int = 4
    rate: float = 0
    timeout: float = 30
    retries: int = 3
    rate_per_property: str = ""  # N/s or N/min per property; empty: none


class GuardOptions(NamedTuple):
    """Guards for unattended pushes as flags (None: the profile's, if any), and whether to pass them all."""

    max_changed: str | None = None
    max_cleared: str | None = None
    min_coverage: str | None = None
    max_step: str | None = None
    override: bool = False

    def given(self) -> dict[str, str]:
        """The limits given as flags, by setting name: they win over the profile's."""
        return {name: value for name, value in self._asdict().items() if name != "override" and value is not None}


class PushRequest(NamedTuple):
    """One push, send or retry as the command line gave it.

    `given` names the options given on the command line (not left at their default); `command`
    is the command as typed (or the Python call), for the journal; `rows` holds a send command's setting
    instead of files.
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
    given: frozenset[str] = frozenset()
    rows: tuple[Mapping[str, str], ...] | None = None
    confirm: bool = False
    """Show what would change and ask before sending (--confirm); `yes` answers for a script (--yes)."""
    yes: bool = False
    objects: tuple[Any, ...] | None = None
    """Rows given from Python (`ari_cli.push(rows=...)`), read after the files as a JSON list of objects."""
    guards: GuardOptions = GuardOptions()

    def given_tuning(self) -> dict[str, Any]:
        """The tuning options given on the command line, by name: they win over the profile."""
        return given_tuning(self.given, self.plan, self.sending)


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

    run: int
    command: str
    dry_run: bool = False
    output: OutputOptions = OutputOptions()
    sending: SendTuning = SendTuning()
    connection: ConnectionOptions = ConnectionOptions()
    given: frozenset[str] = frozenset()
    force: bool = False  # send dates whose value a later run got acknowledged, too

    def given_tuning(self) -> dict[str, Any]:
        """The tuning options given on the command line, by name: they win over the profile."""
        return given_tuning(self.given, PlanOptions(), self.sending)


class RevertRequest(NamedTuple):
    """`ari-cli revert RUN`: which run, what to do with dates left alone, and how to ask, send and show."""

    run: int
    command: str
    dry_run: bool = False
    yes: bool = False
    clear_unknown: bool = False  # send n/a for dates whose earlier value the journal never saw
    force: bool = False  # put back dates a later run changed again, too
    today: dt.date | None = None  # dates before it are past: left alone
    output: OutputOptions = OutputOptions()
    sending: SendTuning = SendTuning()
    connection: ConnectionOptions = ConnectionOptions()
    given: frozenset[str] = frozenset()

    def given_tuning(self) -> dict[str, Any]:
        """The tuning options given on the command line, by name: they win over the profile."""
        return given_tuning(self.given, PlanOptions(), self.sending)


class ReplayRequest(NamedTuple):
    """`ari-cli replay`: the files of request bodies, whether to fill them, and how to send and show."""

    files: tuple[Path, ...]
    fill: bool
    dry_run: bool = False
    today: dt.date | None = None
    output: OutputOptions = OutputOptions()
    sending: SendTuning = SendTuning()
    connection: ConnectionOptions = ConnectionOptions()
    given: frozenset[str] = frozenset()

    def given_tuning(self) -> dict[str, Any]:
        """The tuning options replay takes that were given on the command line."""
        return given_tuning(self.given, PlanOptions(), self.sending)


def given_tuning(given: frozenset[str], plan: PlanOptions, sending: SendTuning) -> dict[str, Any]:
    """Of the tuning options, those named in `given`, with their values."""
    values: dict[str, Any] = {
        "batch_size": plan.batch_size,
        "data_form": plan.data_form,
        "concurrency": sending.concurrency,
        "rate": sending.rate,
        "timeout": sending.timeout,
        "retries": sending.retries,
        "rate_per_property": sending.rate_per_property,
    }
    return {name: values[name] for name in TUNING_NAMES if name in given}


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


class ConfigShow(NamedTuple):
    """`ari-cli config show`: the profile, the overrides as push takes them, and the output."""

    connection: ConnectionOptions = ConnectionOptions()
    output: ViewFormat = ViewFormat.TABLE
    batch_size: int | None = None
    data_form: str | None = None
    concurrency: int | None = None
    rate: float | None = None
    timeout: float | None = None
    retries: int | None = None


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
