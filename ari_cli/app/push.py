"""What a push command does once its options are parsed: configure, run the pipeline, render."""

from __future__ import annotations

import datetime as dt
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from ari_cli.batch import DataForm
from ari_cli.config.file import TUNING_DEFAULTS
from ari_cli.config.settings import Connection, ConnectionFlags, Settings, resolve_settings
from ari_cli.exits import ConfigError, UsageProblem
from ari_cli.inputs import ReadOptions, SourceRow
from ari_cli.pipeline import Known, Prepared, PushOptions, execute, prepare
from ari_cli.results import Run
from ari_cli.send.exchange import Exchange, SendOptions, Tee, Trace, Watcher, encode
from ari_cli.wire.operations import Operation

if TYPE_CHECKING:  # the journal (sqlite) is loaded only by runs it hears of
    from ari_cli.journal.recorder import Recorder
    from ari_cli.journal.store import Journal, RunStart


def _policies(operation: Operation, path: Path | None) -> str | None:
    if path is not None and operation is not Operation.POLICY:
        raise UsageProblem(f"--policies {path}: named policies are for policy push only")
    return None if path is None else str(path)


def _options(operation: Operation, a: dict[str, Any]) -> PushOptions:
    report: Path | None = a["report"]
    if report is not None and report.suffix.lower() not in (".csv", ".json"):
        raise UsageProblem(f"--report {report}: give a path ending in .csv or .json")
    files = tuple(str(f) for f in a["files"])
    if files.count("-") > 1:
        raise UsageProblem("standard input (-) can be read only once")
    return PushOptions(
        operation=operation,
        files=files,
        today=a["today"] or dt.date.today(),
        read=ReadOptions(
            format=a["input_format"].value if a["input_format"] else None,
            encoding=a["encoding"],
            sheet=a.get("sheet"),
            header_row=a.get("header_row"),
        ),
        date_format=a["date_format"],
        policies=_policies(operation, a.get("policies")),
        merge=not a["no_merge"],
        last_wins=a["overlaps"].value == "last-wins",
        batch_size=a["batch_size"],
        data_form=DataForm(a["data_form"]),
        skip_invalid=a["skip_invalid"],
        changed_only=a["changed_only"],
        dry_run=a["dry_run"],
        send=SendOptions(concurrency=a["concurrency"], rate=a["rate"], timeout=a["timeout"], retries=a["retries"]),
    )


def _current_context() -> Any:
    """The running command's Click context (Typer 0.29 vendors Click and does not export the getter)."""
    import importlib

    for module in ("typer._click.globals", "click"):
        try:
            return importlib.import_module(module).get_current_context(silent=True)
        except (ImportError, AttributeError):
            continue
    return None


def settings_for(a: dict[str, Any]) -> Settings:
    """Flags over environment over the profile over defaults, for the connection and the tuning options."""
    flags = ConnectionFlags(
        a["base_url"], a["source_id"], a["api_key_file"], a["path_segment"], a.get("profile"), a.get("config")
    )
    ctx = _current_context()

    def given(name: str) -> bool:
        # An option left at its default must not hide the profile's value.
        source = ctx.get_parameter_source(name) if ctx is not None else "no context"
        return source is not None and getattr(source, "name", "") != "DEFAULT"

    return resolve_settings(flags, os.environ, {name: a[name] for name in TUNING_DEFAULTS if given(name)})


@contextmanager
def _connection(a: dict[str, Any], settings: Settings, needed: bool) -> Iterator[Connection | None]:
    """The configured connection, or a sandbox started for this run and stopped after it."""
    if a["sandbox"]:
        from ari_cli.sandbox import Sandbox

        # The emulator's "before today" must agree with the run's --today.
        with Sandbox(today=a["today"]) as sandbox:
            yield Connection(sandbox.base_url, sandbox.api_key, sandbox.source_id)
        return
    connection: Connection | None = None
    try:
        connection = settings.connection()
    except ConfigError:
        # A dry run shows the spec's placeholders when nothing is configured.
        if needed:
            raise
    yield connection


class Screen(Watcher):
    """What the terminal hears while sending: progress, the --verbose trace, an interrupt."""

    def __init__(self, advance: Callable[[int], None], err: Any, verbose: bool) -> None:
        self.advance, self.err, self.verbose = advance, err, verbose

    def final(self, exchange: Exchange) -> None:
        self.advance(len(exchange.records))

    def trace(self, trace: Trace) -> None:
        if self.verbose:
            from ari_cli.render import run as render

            render.trace(trace, self.err)

    def interrupted(self, in_flight: int) -> None:
        waiting = f"; waiting for {in_flight} request(s) in flight" if in_flight else ""
        self.err.print(f"interrupted: sending nothing more{waiting}; press Ctrl-C again to stop at once", markup=False)


def run_start(operation: Operation, a: dict[str, Any], options: PushOptions, connection: Connection) -> RunStart:
    from ari_cli.journal.store import RunStart

    ctx = _current_context()
    command = getattr(ctx, "command_path", "") or f"ari-cli {operation.value} push"
    kept = ("batch_size", "data_form", "no_merge", "overlaps", "skip_invalid", "changed_only", "concurrency", "rate",
            "timeout", "retries", "sandbox", "path_segment", "date_format", "encoding")  # fmt: skip
    recorded = {name: a.get(name) for name in kept} | {"today": options.today.isoformat()}
    recorded = {k: (v.value if hasattr(v, "value") else v) for k, v in recorded.items() if v is not None}
    profile = a.get("profile") or os.environ.get("ARI_PROFILE") or None
    return RunStart(command, operation.value, profile, connection.base_url, connection.source_id,
                    recorded, options.files)  # fmt: skip


def run_push(operation: Operation, a: dict[str, Any], rows: Sequence[SourceRow] | None = None) -> None:
    """Run one push command end to end and exit with the contract's code; `rows` instead of files (send)."""
    from ari_cli.render import run as render

    settings = settings_for(a)
    a = {**a, **settings.tuning()}
    options = _options(operation, a)
    err = render.console(stderr=True)
    quiet = a["quiet"]
    # Shown even with --quiet: the file may hold the key.
    render.notices(list(settings.warnings), err)
    if options.changed_only and a["no_journal"]:
        raise UsageProblem("--changed-only reads the journal, which --no-journal turns off: give one of them")
    warn = lambda message: render.notices([message], err)  # noqa: E731
    journal = None
    if not a["no_journal"] and (not options.dry_run or options.changed_only):
        from ari_cli.journal.recorder import open_journal

        journal = open_journal(os.environ, warn)
    if options.changed_only and journal is None:
        raise ConfigError(
            "--changed-only needs the journal, which cannot be opened", "set ARI_HOME to a writable folder"
        )
    recorder = None
    if journal is not None:
        from ari_cli.journal.recorder import Recorder

        recorder = Recorder(journal, warn)
    try:
        with _connection(a, settings, needed=not options.dry_run) as connection:
            if a["sandbox"] and connection and not quiet:
                err.print(f"pushing to the built-in sandbox at {connection.base_url}", markup=False)
            known = _known(journal, operation, connection) if options.changed_only else None
            prepared = prepare(options, connection, stdin=sys.stdin.buffer, rows=rows, known=known)
            if not quiet:
                render.notices(prepared.warnings, err)
            if recorder is not None and connection is not None and not options.dry_run:
                recorder.start(run_start(operation, a, options, connection))
                sending = not prepared.invalid or options.skip_invalid
                exchanges = prepared.exchanges if sending else []
                recorder.plan(operation, prepared.rows, prepared.plan.records, exchanges)
            run = send_recorded(options, prepared, connection, recorder, a, err)
    finally:
        if journal is not None:
            journal.close()
    show(run, a, options, connection, prepared.invalid, rows is not None, recorder.run if recorder else None)


def send_recorded(
    options: PushOptions,
    prepared: Prepared,
    connection: Connection | None,
    recorder: Recorder | None,
    a: dict[str, Any],
    err: Any,
    rebuild: Callable[[Sequence[int]], dict[str, Any]] | None = None,
) -> Run:
    """Send with the progress bar, the --verbose trace and the journal listening; then record the rows' results."""
    from ari_cli.render import run as render

    total = sum(len(e.records) for e in prepared.exchanges)
    with render.progress(total, err, enabled=not a["quiet"]) as advance:
        screen = Screen(advance, err, a["verbose"])
        watch = Tee(screen, recorder) if recorder is not None else screen
        run = execute(options, prepared, connection, watch, interruptible=True, rebuild=rebuild)
    if recorder is not None:
        from ari_cli.journal.recorder import row_outcomes

        recorder.finish(row_outcomes(run.rows), run.summary(), int(run.exit_code()))
    return run


def _known(journal: Journal | None, operation: Operation, connection: Connection | None) -> Known | None:
    if journal is None or connection is None:
        return None
    from ari_cli.journal.queries import accepted

    db, base, source = journal.db, connection.base_url, connection.source_id
    return lambda properties: accepted(db, operation.value, base, source, properties)


def show(
    run: Run,
    a: dict[str, Any],
    options: PushOptions,
    connection: Connection | None,
    invalid_input: bool,
    send: bool,
    number: int | None,
) -> None:
    from ari_cli.render import run as render

    out, err = render.console(), render.console(stderr=True)
    output = a["output"].value
    render.notices(run.rows.invalid_messages(), err, label="error")
    if a["curl"]:
        requests = [(render.exchange_label(e), e.url, encode(e.body)) for e in run.exchanges]
        render.curl_commands(requests, connection is not None, (out if output == "table" else err).file)
    if output == "json":
        render.write_json(run, sys.stdout)
    elif output == "csv":
        render.write_csv(run, sys.stdout)
    else:
        if options.dry_run:
            render.planned_requests(run, out)
        render.table(run, None if a["show"] is None else a["show"].value == "all", out)
    if a["report"] is not None:
        render.write_report(run, a["report"])
    if invalid_input and not options.skip_invalid:
        # A send command has one setting and no --skip-invalid to offer.
        skip = "" if send else ", or give --skip-invalid to send the valid ones"
        err.print(f"nothing was sent: fix the invalid rows above{skip}", markup=False)
    _next_step(run, number, err, a["quiet"])
    raise typer.Exit(int(run.exit_code()))


def _next_step(run: Run, number: int | None, err: Any, quiet: bool) -> None:
    """After an interrupted or partly failed run, say how to finish it."""
    if number is None:
        return
    unsent = sum(1 for r in run.rows if r.status.value == "failed")
    if run.interrupted:
        left = f"interrupted: {unsent} row(s) not sent or not confirmed"
        err.print(f"{left}; `ari-cli retry {number}` sends what is left", markup=False)
    elif unsent and not quiet and any(_retryable(e) for e in run.exchanges):
        err.print(f"run {number}: `ari-cli retry {number}` re-sends what failed for a passing reason", markup=False)


def _retryable(exchange: Exchange) -> bool:
    outcome = exchange.outcome
    return exchange.final and outcome is not None and not outcome.success and (outcome.transient or not outcome.sent)
