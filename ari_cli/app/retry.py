"""What `retry` does once its options are parsed: read the journal, re-send; the run, shown like a push's."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path

from ari_cli.app.history import run_number
from ari_cli.app.listener import Listener
from ari_cli.app.options import ConnectionOptions, InputOptions, PlanOptions, RetryRequest
from ari_cli.app.push import send_recorded
from ari_cli.app.push_journal import run_start
from ari_cli.app.push_settings import check_report, recorded_options, send_options
from ari_cli.app.world import World
from ari_cli.config.settings import check_base_url, check_source_id, refuse_identity, resolve
from ari_cli.exits import ConfigError, UsageProblem
from ari_cli.journal.place import journal_path
from ari_cli.journal.recorder import Recorder, open_journal
from ari_cli.journal.resend import RetryPlan, plan_retry, with_key
from ari_cli.journal.store import reading
from ari_cli.pipeline import Prepared, PushOptions
from ari_cli.records.table import RowTable
from ari_cli.results import Refused, Run
from ari_cli.send.transport import check_environment
from ari_cli.wire.operations import Operation, base_of
from ari_cli.wire.url import canonical_or_same


def _aimed(plan: RetryPlan, flags: ConnectionOptions, sending: bool) -> RetryPlan:
    """The retry's requests aimed where they go: where the run sent them, or where --base-url, --source-id and
    --path-segment say; a URL is checked as any given one is (plain http only to loopback), a stored one too."""
    if flags.sandbox:
        raise UsageProblem("a retry goes where its run went; --sandbox starts a new, empty emulator",
                           "give --base-url and --source-id to send elsewhere")  # fmt: skip
    run = plan.source.run
    if run.sandbox and not flags.base_url and sending:
        raise ConfigError(
            f"run {run.id} went to a sandbox started for it ({run.base_url}), which ended with it",
            "push the file again with --sandbox, or give --base-url and --source-id to send the rest elsewhere",
        )
    base_url = flags.base_url or run.base_url
    source_id = flags.source_id or run.source_id
    if flags.base_url:
        refuse_identity(flags.base_url, "flag --base-url")
    if sending:
        base_url = check_base_url(base_url, "flag --base-url" if flags.base_url else f"run {run.id}")
        source_id = check_source_id(source_id, "--source-id" if flags.source_id else f"run {run.id}")
    # --path-segment is checked with the options, as push's is.
    return plan.aimed(canonical_or_same(base_url), source_id, flags.path_segment)


def _planned(
    request: RetryRequest, path: Path, environ: Mapping[str, str]
) -> tuple[int, RetryPlan, dict[int, int], Refused | None]:
    """The run's number; what is left of it, aimed where the retry goes, without the dates a later run got
    acknowledged (unless --force); with those dates per later run, and the rows left refused for their own data."""
    with reading(environ) as db:
        if db is None:
            raise UsageProblem("the journal has no runs yet", f"runs are recorded in {path} (ARI_HOME moves it)")
        number = run_number(db, request.run, environ)
        plan = plan_retry(db, number, request.force)
        left: dict[int, int] = {}
        flags, run = request.connection, plan.source.run
        base_url = (flags.base_url or run.base_url).rstrip("/")
        if plan.exchanges:
            plan = _aimed(plan, flags, not request.dry_run)
            base_url = base_of(plan.exchanges[0].url)
            if not request.force:
                plan, left = plan.without_later(db)
        elif flags.source_id:
            plan = replace(plan, source_id=flags.source_id)
        refused = plan.refusals(db, base_url) if plan.refused else None
    return number, plan, left, refused


@dataclass(frozen=True, slots=True)
class Retried:
    """A retry done: its run, or None when the run had nothing left to send."""

    operation: Operation
    run: Run | None
    connected: bool
    number: int | None
    """The journal's number of the retry's own run; None when not journaled."""
    service: tuple[str, str] | None = None
    """Where it sent: (base URL, source id)."""
    refused: Refused | None = None
    """Rows of the run left refused for their own data (not sent again): while any is, the retry exits 1."""
    files: tuple[str, ...] = ()
    """The files the retried run read (an HTML report's header names them)."""


def _said(plan: RetryPlan, left: dict[int, int], number: int, quiet: bool, listener: Listener) -> None:
    source = plan.source.run
    if plan.followed and not quiet:
        chain = " -> ".join(str(n) for n in (*plan.followed, source.id))
        listener.say(f"run {number} was retried already ({chain}); retrying what run {source.id} left")
    for later, days in sorted(left.items()):
        # Said even with --quiet: values that would have overwritten newer ones were not sent.
        listener.say(f"left out: {days} date(s) whose value run {later} got acknowledged after run {source.id} started;"
                     " sending the older value would overwrite it (--force sends it anyway)")  # fmt: skip


def retry(request: RetryRequest, listener: Listener, world: World) -> Retried:
    """Re-send what run `request.run` (a number, or `last`; or its latest retry) left, as a run of its own."""
    if request.output.report is not None:
        check_report(request.output.report, (), request.connection, world.environ)
    settings = resolve(world.environ, request.connection, sending=request.sending)
    tuned = settings.tuned
    quiet = request.output.quiet
    listener.notices(list(settings.warnings))
    warn = lambda message: listener.notices([message])  # noqa: E731
    # Opened to write first: what runs could not write before (their notes) is folded in before it is read.
    store = open_journal(world.environ, warn) if request.output.journal and not request.dry_run else None
    recorder = Recorder(store, warn) if store is not None else None
    try:
        number, plan, left, refused = _planned(request, journal_path(world.environ), world.environ)
        source = plan.source.run
        _said(plan, left, number, quiet, listener)
        operation = Operation(source.operation)
        if not plan.exchanges:
            listener.say(f"run {source.id}: nothing left to send")
            return Retried(operation, None, False, None, refused=refused)
        where = base_of(plan.exchanges[0].url)
        connection = None if request.dry_run else settings.connection_at(where, plan.source_id)
        if connection is not None:
            # Certificates or a proxy that cannot be used: said before the retry is journaled as a run.

            check_environment(connection.base_url)
        if not quiet and (where, plan.source_id) != (canonical_or_same(source.base_url), source.source_id):
            listener.say(f"run {source.id} went to {source.base_url} (source {source.source_id}); this retry goes to"
                         f" {where} (source {plan.source_id})")  # fmt: skip
        key = connection.api_key if connection else "<API_KEY>"
        options = PushOptions(
            operation=operation, files=(), today=dt.date.today(), dry_run=request.dry_run, send=send_options(tuned),
        )  # fmt: skip
        prepared = Prepared(RowTable.of_views(plan.views), plan.plan, with_key(plan.exchanges, key), [])
        if recorder is not None and connection is not None:
            # A retry takes no planning or input options: the journal keeps them at their defaults.
            recorded = recorded_options(PlanOptions(), InputOptions(), request.connection, tuned, options.today)
            start = run_start(request.command, request.connection, recorded, options, connection, world.environ)
            recorder.start(start.retrying(source.id))
            recorder.plan(operation, prepared.rows, prepared.plan, prepared.exchanges, None, plan.held, plan.superseded)
        run = send_recorded(
            options, prepared, connection, recorder if connection is not None else None, request.output, listener,
            lambda part: plan.build(part, key), refused,
        )  # fmt: skip
        if recorder is not None and run.exit_code() == 0:
            # Nothing is left of the run and its earlier retries: each says which retry finished it.
            recorder.completes((*plan.followed, source.id))
    finally:
        if recorder is not None:
            recorder.close()
    service = None if connection is None else (connection.base_url, connection.source_id)
    files = tuple(path for path, _ in source.files)
    return Retried(operation, run, connection is not None, recorder.run if recorder else None, service, refused, files)
