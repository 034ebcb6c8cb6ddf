"""What a push command does once its options are parsed: configure, run the pipeline, render."""

from __future__ import annotations

import datetime as dt
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from ari_cli.app.options import (
    ConnectionOptions,
    OutputFormat,
    OutputOptions,
    PushRequest,
)
from ari_cli.app.push_settings import Tuned, protected_files, push_options, recorded_options, settings_for
from ari_cli.config.settings import Connection, Settings
from ari_cli.exits import AriError, ConfigError, ExitCode, Interrupted, UsageProblem
from ari_cli.inputs import SourceRow
from ari_cli.inputs.model import ReadMeter
from ari_cli.pipeline import UNSENT_NOTE, Known, Prepared, PushOptions, execute, prepare
from ari_cli.render import run as render
from ari_cli.render.reading import sign_of_life
from ari_cli.render.report import check_report, error_document, write_error_document, write_error_report, write_report
from ari_cli.render.runtable import table
from ari_cli.render.streams import discard, stdout_failure
from ari_cli.results import Run, Status
from ari_cli.send.exchange import Exchange, Tee, Trace, Watcher, encode
from ari_cli.wire.operations import Operation

if TYPE_CHECKING:
    from ari_cli.journal.recorder import Recorder
    from ari_cli.journal.store import Journal, RunStart

# Where a send command's rows say they came from.
FLAGS_SOURCE = "<flags>"


@contextmanager
def connected(
    connection: ConnectionOptions, today: dt.date | None, settings: Settings, needed: bool
) -> Iterator[Connection | None]:
    """The configured connection, or a sandbox started for this run and stopped after it."""
    if connection.sandbox:
        # The emulator (and its HTTP server) loads only for runs that ask for it.
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
        # A proxy that cannot be used is said before anything is read, journaled or sent.
        from ari_cli.send.transport import proxy_for

        proxy_for(configured.base_url)
    yield configured


class Screen(Watcher):
    """What the terminal hears while sending: progress, the --verbose trace, an interrupt."""

    def __init__(self, advance: Callable[[int], None], err: Any, verbose: bool) -> None:
        self.advance, self.err, self.verbose = advance, err, verbose

    def final(self, exchange: Exchange) -> None:
        self.advance(len(exchange.records))

    def trace(self, trace: Trace) -> None:
        if self.verbose:
            render.trace(trace, self.err)

    def interrupted(self, in_flight: int) -> None:
        abandoned = f"; {in_flight} request(s) in flight abandoned, not confirmed" if in_flight else ""
        self.err.print(f"interrupted: sending nothing more{abandoned}", markup=False)


def run_start(
    command: str, flags: ConnectionOptions, recorded: dict[str, Any], options: PushOptions, connection: Connection
) -> RunStart:
    """What the journal keeps of a run as it starts."""
    # sqlite and the journal load only for runs that record: a dry run never does.
    from ari_cli.config.secrets import mask
    from ari_cli.journal.store import RunStart

    operation = options.operation.value
    profile = flags.profile or os.environ.get("ARI_PROFILE") or None
    return RunStart(command or f"ari-cli {operation} push", operation, profile, connection.base_url,
                    connection.source_id, recorded, options.files, sandbox=flags.sandbox,
                    sharepost=mask(connection.api_key))  # fmt: skip


def _rows(request: PushRequest) -> list[SourceRow] | None:
    if request.rows is None:
        return None
    return [SourceRow(FLAGS_SOURCE, line, dict(fields)) for line, fields in enumerate(request.rows, start=1)]


def _open(journal_wanted: bool, warn: Callable[[str], None]) -> tuple[Journal | None, Recorder | None]:
    """The journal and its recorder, or none when the run is not recorded or the journal cannot be opened."""
    if not journal_wanted:
        return None, None
    # sqlite and the journal load only for runs that record: a dry run never does.
    from ari_cli.journal.recorder import Recorder, open_journal

    journal = open_journal(os.environ, warn)
    return journal, None if journal is None else Recorder(journal, warn)


@contextmanager
def nothing_sent_on_interrupt() -> Iterator[None]:
    """Ctrl-C or SIGTERM while reading and planning: say that nothing was sent, and exit 130.

    SIGTERM would otherwise end the process without a word; the sender sets its own handlers.
    """
    main = threading.current_thread() is threading.main_thread()
    before = signal.signal(signal.SIGTERM, signal.default_int_handler) if main else None
    try:
        yield
    except KeyboardInterrupt:
        raise Interrupted("interrupted; nothing was sent") from None
    finally:
        if main:
            signal.signal(signal.SIGTERM, before)


def push(request: PushRequest) -> None:
    """Run one push (or send) command end to end and exit with the contract's code."""
    pushed = attempt(request, render.console(stderr=True))
    run, options, connection = pushed.run, pushed.options, pushed.connection
    show(run, request.output, options, connection, pushed.invalid, request.rows is not None, pushed.number)


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


def attempt(request: PushRequest, err: Any) -> Pushed:
    """Check the report, read, plan, send and journal; `err` hears notes, progress and traces.

    Whatever stops the run once its options are parsed, `--output json` and `--report` still get their one
    document (with the error), and the exception goes on to say what went wrong.
    """
    report = request.output.report
    writable = False
    try:
        if report is not None:
            # Before anything is read or sent: a run must never send and then find it cannot say what it did.
            inputs = [str(f) for f in (*request.files, *filter(None, [request.inputs.policies]))]
            check_report(report, inputs, protected_files(request.connection))
            writable = True
        return _push(request, err)
    except AriError as problem:
        _stopped(request, writable, problem.kind, problem.message, problem.hint)
        raise
    except KeyboardInterrupt:
        _stopped(request, writable, "interrupted", "interrupted before anything was sent", None)
        raise


def _stopped(request: PushRequest, writable: bool, kind: str, message: str, hint: str | None) -> None:
    """The document of a run that stopped before it had rows, on stdout (`--output json`) and in the report."""
    document = error_document(request.operation, request.dry_run, kind, message, hint)
    if request.output.format is OutputFormat.JSON:
        _to_stdout(lambda: write_error_document(document, sys.stdout), render.console(stderr=True))
    if request.output.report is not None and writable:
        _write_report(lambda path: write_error_report(document, path), request.output.report)


def _write_report(write: Callable[[Path], None], path: Path) -> bool:
    """Write the report; a failure (a full disk, a folder removed meanwhile) is said, and is not the run's."""
    try:
        write(path)
    except OSError as problem:
        err = render.console(stderr=True)
        render.notices([f"the report {path} could not be written: {problem.strerror or problem}"], err, "error")
        return False
    return True


def _push(request: PushRequest, err: Any) -> Pushed:
    settings = settings_for(request.connection, request.given_tuning())
    tuned = Tuned.of(settings)
    options = push_options(request, settings)
    quiet, journaled = request.output.quiet, request.output.journal
    # Shown even with --quiet: the file may hold the key.
    warnings = list(settings.warnings)
    render.notices(warnings, err)
    if options.changed_only and not journaled:
        raise UsageProblem("--changed-only reads the journal, which --no-journal turns off: give one of them")

    def warn(message: str) -> None:
        warnings.append(message)
        render.notices([message], err)

    journal, recorder = _open(journaled and (not options.dry_run or options.changed_only), warn)
    if options.changed_only and journal is None:
        raise ConfigError(
            "--changed-only needs the journal, which cannot be opened", "set ARI_HOME to a writable folder"
        )
    if request.confirm:
        # The diff's code loads only for runs that confirm; it imports this module, so here.
        from ari_cli.app.diff import check_confirm

        check_confirm(request)
    rows = _rows(request)
    try:
        with connected(request.connection, request.plan.today, settings, needed=not options.dry_run) as connection:
            if request.connection.sandbox and connection and not quiet:
                err.print(f"pushing to the built-in sandbox at {connection.base_url}", markup=False)
            with nothing_sent_on_interrupt():
                known = _known(journal, request.operation, connection) if options.changed_only else None
                stdin = sys.stdin.buffer if "-" in options.files else None
                with sign_of_life(options.read.meter or ReadMeter(), err, enabled=not quiet):
                    prepared = prepare(options, connection, stdin, rows, known, request.objects)
                # Warnings are about the data (a column ignored, a range clipped): --quiet keeps them; notes it hides.
                render.notices(prepared.warnings, err)
                if not quiet:
                    render.notices(prepared.notes, err, label="note")
                if request.confirm:
                    from ari_cli.app.diff import confirm_push

                    confirm_push(request, prepared, connection, journal.db if journal else None)
                if recorder is not None and connection is not None and not options.dry_run:
                    recorded = recorded_options(request.plan, request.inputs, request.connection, tuned, options.today)
                    recorder.start(run_start(request.command, request.connection, recorded, options, connection))
                    sending = not prepared.invalid or options.skip_invalid
                    exchanges = prepared.exchanges if sending else []
                    unsent = None if sending else UNSENT_NOTE
                    recorder.plan(request.operation, prepared.rows, prepared.plan, exchanges, unsent)
            run = send_recorded(options, prepared, connection, recorder, request.output, err)
    finally:
        if recorder is not None:
            recorder.close()
        elif journal is not None:
            journal.close()
    number = recorder.run if recorder else None
    warnings.extend(prepared.warnings)
    return Pushed(run, options, connection, prepared.invalid, number, warnings, prepared.notes)


def send_recorded(
    options: PushOptions,
    prepared: Prepared,
    connection: Connection | None,
    recorder: Recorder | None,
    output: OutputOptions,
    err: Any,
    rebuild: Callable[[Sequence[int]], dict[str, Any]] | None = None,
) -> Run:
    """Send with the progress bar, the --verbose trace and the journal listening; then record the rows' results."""
    total = sum(len(e.records) for e in prepared.exchanges)
    # A dry run sends nothing: no "sending" bar.
    with render.progress(total, err, enabled=not output.quiet and not options.dry_run) as advance:
        screen = Screen(advance, err, output.verbose)
        watch = Tee(screen, recorder) if recorder is not None else screen
        run = execute(options, prepared, connection, watch, interruptible=True, rebuild=rebuild)
    if recorder is not None:
        recorder.finish(run.summary(), int(run.exit_code()))
    return run


def _known(journal: Journal | None, operation: Operation, connection: Connection | None) -> Known | None:
    if journal is None or connection is None:
        return None
    # Loaded already with the journal.
    from ari_cli.journal.queries import acknowledged

    db, base, source = journal.db, connection.base_url, connection.source_id
    return lambda properties: acknowledged(db, operation.value, base, source, properties)


def show(
    run: Run,
    output: OutputOptions,
    options: PushOptions,
    connection: Connection | None,
    invalid_input: bool,
    send: bool,
    number: int | None,
) -> None:
    """Print the run as asked, write the report, say what to do next, and exit with the run's code."""
    raise typer.Exit(int(shown(run, output, options, connection, invalid_input, send, number)))


def shown(
    run: Run,
    output: OutputOptions,
    options: PushOptions,
    connection: Connection | None,
    invalid_input: bool,
    send: bool,
    number: int | None,
) -> ExitCode:
    """Print the run as asked, write the report and say what to do next; the run's exit code."""
    err = render.console(stderr=True)
    render.notices(run.rows.invalid_messages(), err, label="error")
    code = run.exit_code()
    if not _to_stdout(lambda: _print(run, output, options, connection, err), err) and code is ExitCode.OK:
        # The results asked for were lost (a full disk): a script must not take the run for a clean one.
        code = ExitCode.FAILED
    write_run_report(run, output)
    if invalid_input and not options.skip_invalid:
        # A send command has one setting and no --skip-invalid to offer.
        skip = "" if send else ", or give --skip-invalid to send the valid ones"
        err.print(f"nothing was sent: fix the invalid rows above{skip}", markup=False)
    _next_step(run, number, err, output.quiet)
    return code


def write_run_report(run: Run, output: OutputOptions) -> None:
    """Write the run's report file, if one is asked for."""
    if output.report is not None:
        _write_report(lambda path: write_report(run, path), output.report)


def _print(run: Run, output: OutputOptions, options: PushOptions, connection: Connection | None, err: Any) -> None:
    """The run on stdout, as `--output` asks (and `--curl` commands before a table)."""
    out = render.console()
    form = output.format.value
    if output.curl:
        requests = [(render.exchange_label(e), e.url, encode(e.body)) for e in run.exchanges]
        render.curl_commands(requests, connection is not None, (out if form == "table" else err).file)
    if form == "json":
        render.write_json(run, sys.stdout)
    elif form == "csv":
        render.write_csv(run, sys.stdout)
    else:
        if options.dry_run:
            render.planned_requests(run, out)
        table(run, None if output.show is None else output.show.value == "all", out)
    sys.stdout.flush()


def _to_stdout(write: Callable[[], None], err: Any) -> bool:
    """Run `write`; a reader that went away (`| head`) ends it quietly, a full disk is said. False when output was lost
    for a reason other than the reader's choice."""
    try:
        write()
    except OSError as problem:
        failure = stdout_failure(problem)
        if failure is None:
            raise
        discard(sys.stdout)
        if isinstance(failure, BrokenPipeError):
            return True
        render.notices([f"cannot write to standard output: {failure.strerror or failure}"], err, "error")
        return False
    return True


def _next_step(run: Run, number: int | None, err: Any, quiet: bool) -> None:
    """After an interrupted or partly failed run, say how to finish it."""
    if number is None:
        return
    counts = run.rows.counts()
    unsent = counts[Status.FAILED] + counts[Status.NOT_SENT]
    if run.interrupted:
        left = f"interrupted: {unsent} row(s) not sent or not confirmed"
        err.print(f"{left}; `ari-cli retry {number}` sends what is left", markup=False)
    elif unsent and not quiet and any(_retryable(e) for e in run.exchanges):
        err.print(f"run {number}: `ari-cli retry {number}` re-sends what failed for a passing reason", markup=False)


def _retryable(exchange: Exchange) -> bool:
    outcome = exchange.outcome
    return exchange.final and outcome is not None and not outcome.success and (outcome.transient or not outcome.sent)
