"""What a push command does once its options are parsed: configure, read, plan, send, journal; the run.

It returns what happened (`Pushed`); a `Listener` hears its notices and progress on the way. Showing the run
is `render/push/outcome.py`'s, called by the command (`cli/runs.py`) and by `ari_cli.push()` alike.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ari_cli.app.listener import Listener
from ari_cli.app.options import ConnectionOptions, GuardOptions, OutputOptions, PushRequest
from ari_cli.app.push_settings import check_report, push_options, recorded_options
from ari_cli.app.world import World
from ari_cli.config.options import Connection
from ari_cli.config.settings import Settings, resolve
from ari_cli.exits import ConfigError, Interrupted, UsageProblem
from ari_cli.inputs import SourceRow
from ari_cli.inputs.model import ReadMeter
from ari_cli.pipeline import UNSENT_NOTE, Prepared, PushOptions, execute, prepare
from ari_cli.results import Refused, Run
from ari_cli.send.exchange import Exchange, Tee, Trace, Watcher

if TYPE_CHECKING:
    from ari_cli.journal.recorder import Recorder
    from ari_cli.journal.store import Journal
    from ari_cli.planning.changes import Acknowledged

# Where a send command's rows say they came from.
FLAGS_SOURCE = "<flags>"


@contextmanager
def connected(
    connection: ConnectionOptions, today: dt.date | None, settings: Settings, needed: bool
) -> Iterator[Connection | None]:
    """The configured connection, or a sandbox started for this run and stopped after it."""
    if connection.sandbox:
        # lazy: the emulator (and its HTTP server) loads only for runs that ask for it.
        from ari_cli.sandbox import Sandbox

        # The emulator's "before today" must agree with the run's --today.
        with Sandbox(today=today) as sandbox:
            yield Connection(sandbox.base_url, sandbox.api_key, sandbox.source_id)
        return
    configured: Connection | None = None
    try:
        configured = settings.connection()
    except ConfigError:
        # A dry run shows the spec's placeholders when nothing is configured.
        if needed:
            raise
    if needed and configured is not None:
        # Certificates or a proxy that cannot be used: said before anything is read, journaled or sent.
        from ari_cli.send.transport import check_environment  # lazy: httpx, for runs that send

        check_environment(configured.base_url)
    yield configured


class Screen(Watcher):
    """What the terminal hears while sending: progress, the --verbose trace, an interrupt."""

    def __init__(self, advance: Callable[[int], None], listener: Listener, verbose: bool) -> None:
        self.advance, self.listener, self.verbose = advance, listener, verbose

    def final(self, exchange: Exchange) -> None:
        self.advance(len(exchange.records))

    def trace(self, trace: Trace) -> None:
        if self.verbose:
            self.listener.trace(trace)

    def interrupted(self, in_flight: int) -> None:
        abandoned = f"; {in_flight} request(s) in flight abandoned, not confirmed" if in_flight else ""
        self.listener.say(f"interrupted: sending nothing more{abandoned}")


def _rows(request: PushRequest) -> list[SourceRow] | None:
    if request.rows is None:
        return None
    return [SourceRow(FLAGS_SOURCE, line, dict(fields)) for line, fields in enumerate(request.rows, start=1)]


@contextmanager
def nothing_sent_on_interrupt() -> Iterator[None]:
    """Ctrl-C while reading and planning (or SIGTERM, which the command line turns into it): nothing was sent."""
    try:
        yield
    except KeyboardInterrupt:
        raise Interrupted("interrupted; nothing was sent") from None


@dataclass(frozen=True, slots=True)
class Pushed:
    """A run done: its results, and what showing them needs."""

    run: Run
    options: PushOptions
    connection: Connection | None
    invalid: bool
    """The input had invalid rows."""
    number: int | None
    """The journal's number of the run; None when not journaled."""
    warnings: list[str]
    """What was said on stderr as warnings: the settings' and the data's."""
    notes: list[str]
    started: dt.datetime | None = None
    """When the run started, by the world's clock (an HTML report says it)."""
    before: Acknowledged | None = None
    """What the service had of the plan's keys before the run (read for an HTML report only)."""


def push(request: PushRequest, listener: Listener, world: World) -> Pushed:
    """Check the report's path, read, plan, send and journal; `listener` hears notices, progress and traces.

    The one push use case: the push and send commands and `ari_cli.push()` all call it.
    """
    started = world.clock()
    report = request.output.report
    if report is not None:
        # Before anything is read or sent: a run must never send and then find it cannot say what it did.
        inputs = [str(f) for f in (*request.files, *filter(None, [request.inputs.policies]))]
        check_report(report, inputs, request.connection, world.environ)
    settings = resolve(world.environ, request.connection, request.plan, request.sending, request.guards)
    tuned = settings.tuned
    options = push_options(request, settings)
    quiet, journaled = request.output.quiet, request.output.journal
    # Shown even with --quiet: the file may hold the key.
    warnings = list(settings.warnings)
    listener.notices(warnings)
    if options.changed_only and not journaled:
        raise UsageProblem("--changed-only reads the journal, which --no-journal turns off: give one of them")

    def warn(message: str) -> None:
        warnings.append(message)
        listener.notices([message])

    records = journaled and (not options.dry_run or options.changed_only)
    guarded = request.guards != GuardOptions() or bool(settings.guards)
    journal: Journal | None = None
    recorder: Recorder | None = None
    # An HTML report marks what would change against what the service had: it reads the journal too (not with
    # --no-journal: then, as `diff` without a journal, every date is new).
    compared = journaled and report is not None and report.suffix.lower() == ".html"
    if records or guarded or request.confirm or compared:
        # lazy: sqlite3 and the journal (and the guards and --confirm's diff, which read it) load only for a run
        # that records or reads it; a plain dry run does neither (tests/test_startup.py).
        from ari_cli.app.push_journal import (
            check_confirm,
            confirm_push,
            elsewhere_notes,
            for_push,
            held_before,
            held_for,
            known_for,
            open_for_run,
            run_start,
        )
    if records:
        journal, recorder = open_for_run(warn, world.environ)
    if options.changed_only and journal is None:
        raise ConfigError(
            "--changed-only needs the journal, which cannot be opened", "set ARI_HOME to a writable folder"
        )
    if request.confirm:
        check_confirm(request, world)
    rows = _rows(request)
    journal_notes: list[str] = []  # what the journal says of the service: on stderr and in the JSON document
    before: Acknowledged | None = None
    try:
        with connected(request.connection, request.plan.today, settings, needed=not options.dry_run) as connection:
            if request.connection.sandbox and connection and not quiet:
                listener.say(f"pushing to the built-in sandbox at {connection.base_url}")
            with nothing_sent_on_interrupt():
                known = known_for(journal, request.operation, connection) if options.changed_only else None
                stdin = world.stdin if "-" in options.files else None
                with listener.reading(options.read.meter or ReadMeter(), enabled=not quiet):
                    held = held_for(journal, request.operation, connection) if options.changed_only else None
                    prepared = prepare(options, connection, stdin, rows, known, request.objects, held)
                # Warnings are about the data (a column ignored, a range clipped): --quiet keeps them; notes it hides.
                listener.notices(prepared.warnings)
                if not quiet:
                    listener.notices(prepared.notes, label="note")
                if options.changed_only or guarded:
                    # Said even with --quiet: a comparison with nothing may not be what was meant.
                    journal_notes = elsewhere_notes(journal, request.operation, connection, prepared, world.environ)
                    listener.notices(journal_notes)
                if guarded and (not prepared.invalid or options.skip_invalid):
                    guards_said = for_push(
                        request, settings, prepared, connection, journal.db if journal else None, world.environ
                    )
                    if not quiet:
                        listener.notices(guards_said, label="note")
                if request.confirm:
                    confirm_push(request, prepared, connection, journal.db if journal else None, listener, world)
                if compared:
                    properties = {record.propertyid for record in prepared.plan.records}
                    before = held_before(journal, request.operation, connection, properties, world.environ)
                if recorder is not None and connection is not None and not options.dry_run:
                    recorded = recorded_options(request.plan, request.inputs, request.connection, tuned, options.today)
                    recorder.start(
                        run_start(request.command, request.connection, recorded, options, connection, world.environ)
                    )
                    sending = not prepared.invalid or options.skip_invalid
                    exchanges = prepared.exchanges if sending else []
                    unsent = None if sending else UNSENT_NOTE
                    recorder.plan(request.operation, prepared.rows, prepared.plan, exchanges, unsent)
            run = send_recorded(options, prepared, connection, recorder, request.output, listener)
    finally:
        if recorder is not None:
            recorder.close()
        elif journal is not None:
            journal.close()
    number = recorder.run if recorder else None
    run.notes.extend(journal_notes)
    warnings.extend(prepared.warnings)
    return Pushed(run, options, connection, prepared.invalid, number, warnings, prepared.notes, started, before)


def send_recorded(
    options: PushOptions,
    prepared: Prepared,
    connection: Connection | None,
    recorder: Recorder | None,
    output: OutputOptions,
    listener: Listener,
    rebuild: Callable[[Sequence[int]], dict[str, Any]] | None = None,
    refused: Refused | None = None,
) -> Run:
    """Send with the progress bar, the --verbose trace and the journal listening; then record the rows' results
    (with, for a retry, the rows it leaves `refused`, which its exit code counts)."""
    total = sum(len(e.records) for e in prepared.exchanges)
    # A dry run sends nothing: no "sending" bar.
    with listener.progress(total, enabled=not output.quiet and not options.dry_run) as advance:
        screen = Screen(advance, listener, output.verbose)
        watch = Tee(screen, recorder) if recorder is not None else screen
        run = execute(options, prepared, connection, watch, interruptible=True, rebuild=rebuild)
    run.refused = refused
    if recorder is not None:
        recorder.finish(run.summary(), int(run.exit_code()))
    return run
