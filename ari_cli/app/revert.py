"""`revert RUN`: put back, for every key and date RUN (with its retries) got acknowledged, the value the service
held just before, as the journal knows it; pushed through the pipeline as a run of its own that reverts RUN.

The use case prints nothing: it returns what it found and did (`Reverted`), and shows what would change, asks
and hears progress through its `Listener` (the preview and question, the sender's progress bar and trace), as
`push --confirm` does; whether there is a terminal to ask at it learns from its `World`.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ari_cli.app.diff import PREVIEW
from ari_cli.app.history import run_number
from ari_cli.app.listener import Listener
from ari_cli.app.options import InputOptions, PlanOptions, RevertRequest
from ari_cli.app.push import send_recorded
from ari_cli.app.push_journal import run_start
from ari_cli.app.push_settings import check_report, recorded_options, send_options
from ari_cli.app.world import World
from ari_cli.config.options import Connection
from ari_cli.config.settings import Settings, Tuned, check_base_url, resolve
from ari_cli.exits import ConfigError, Declined, UsageProblem
from ari_cli.journal.before import family, held_before, reverted
from ari_cli.journal.place import journal_path
from ari_cli.journal.queries import RunInfo, acknowledged
from ari_cli.journal.recorder import Recorder, open_journal
from ari_cli.journal.store import reading
from ari_cli.operations import of
from ari_cli.pipeline import Prepared, PushOptions, requests_for
from ari_cli.planning.batch import DataForm, wire_value
from ari_cli.planning.changes import Key, Span
from ari_cli.planning.diff import Change, Kind, diff
from ari_cli.planning.plan import Plan, Record
from ari_cli.planning.undo import Choices, Piece, Reverted, Undo, undo
from ari_cli.records.policy import Policy
from ari_cli.records.rules import RowView, shown_dates
from ari_cli.records.table import RowTable
from ari_cli.wire.models import CancellationRule, Deposit
from ari_cli.wire.operations import Operation

NOTHING_TO_PUT_BACK = "the service already holds this earlier value, as the journal says"


def _value(operation: Operation, text: str) -> Any:
    """A value as the journal keeps it, as a record carries it: a policy's JSON becomes the policy again."""
    if not of(operation).structured:
        return text

    found = json.loads(text)
    details = found["policydetails"]
    rules = tuple(CancellationRule.model_validate(rule) for rule in details["cancellation"])
    return Policy(found["refundable"], rules, Deposit.model_validate(details["deposit"]))


def _rows(operation: Operation, source: RunInfo, back: Sequence[Piece]) -> tuple[RowTable, list[Record]]:
    """A row for each range put back ("revert of run N", numbered), and its record."""
    name = f"revert of run {source.id}"
    views, records = [], []
    for line, piece in enumerate(back, start=1):
        assert piece.value is not None
        key = (*piece.key, "")[:3]
        value = _value(operation, piece.value)
        # A policy is shown in words, as a push's rows show it.
        shown = value.describe() if of(operation).structured else piece.value
        views.append(RowView(name, line, key[0], key[1], key[2], shown_dates(piece.start, piece.end, ""), shown))
        records.append(Record(piece.key, piece.start, piece.end, value, (line - 1,)))
    return RowTable.of_views(views), records


def _sent(changes: Sequence[Change], records: Sequence[Record], rows: int) -> Plan:
    """The records of the ranges that change something; rows left with nothing to send are skipped, saying why."""
    by_row = {record.refs[0]: record for record in records}
    kept: list[Record] = []
    sending: set[int] = set()
    for change in changes:
        if change.kind is Kind.SAME:
            continue
        row = change.rows()[0]
        kept.append(Record(change.key, change.start, change.end, by_row[row].value, tuple(change.rows())))
        sending.update(change.rows())
    return Plan(kept, {row: NOTHING_TO_PUT_BACK for row in range(rows) if row not in sending})


def _found(
    request: RevertRequest, environ: Mapping[str, str]
) -> tuple[RunInfo, tuple[int, ...], Undo, dict[Key, list[Span]]]:
    with reading(environ) as db:
        if db is None:
            path = journal_path(environ)
            raise UsageProblem("the journal has no runs yet", f"runs are recorded in {path} (ARI_HOME moves it)")
        source, runs = family(db, run_number(db, request.run, environ))
        if source.retry_of is not None:
            raise UsageProblem(
                f"run {source.id} is a retry of run {source.retry_of}",
                f"revert the run it retried: `ari-cli revert {source.retry_of}` reverts it with its retries",
            )
        done, first = reverted(db, source, runs)
        properties = {key[0] for key in done}
        before = held_before(db, source, runs, first, properties) if first is not None else {}
        now = acknowledged(db, source.operation, source.base_url, source.source_id, properties)
    operation = Operation(source.operation)
    today = request.today or dt.date.today()
    choices = Choices(request.clear_unknown, of(operation).clearable, request.force, today)
    return source, runs, undo(done, before, now, runs, choices), now


def _reachable(source: RunInfo) -> None:
    """A sandbox started for a run ended with it: nothing is there to revert."""
    if source.sandbox:
        raise ConfigError(
            f"run {source.id} went to a sandbox started for it ({source.base_url}), which ended with it",
            "there is nothing there to revert",
        )


def _connection(source: RunInfo, settings: Settings, segment: str) -> Connection:
    """Where RUN sent, as `retry` sends."""
    _reachable(source)
    return settings.connection_at(
        check_base_url(source.base_url, f"run {source.id}"), source.source_id, path_segment=segment
    )


def check_ask(request: RevertRequest, world: World) -> None:
    """A revert asks at a terminal; without one it needs `--yes` (or `--dry-run`).

    Checked before the journal is read, so that a script learns at once that it cannot be asked.
    """
    if request.dry_run or request.yes or (world.stdin_is_terminal and world.stderr_is_terminal):
        return
    raise UsageProblem(
        "a revert asks before sending, and there is no terminal to ask at",
        "give --yes to be shown what would change and send without being asked; --dry-run to only see it",
    )


def _confirmed(request: RevertRequest, reverted: Reverted, question: str, listener: Listener) -> bool:
    """Show what the revert would change and ask; --yes answers (the change is still shown, unless --quiet)."""
    quiet, source = request.output.quiet, reverted.source
    if not (quiet and request.yes):
        listener.preview(reverted.view(False), PREVIEW, f"revert of run {source.id} ({source.command})")
    if request.yes:
        if not quiet:
            listener.say(f"{question} yes (--yes)")
        return True
    return listener.ask(question)


def revert(request: RevertRequest, listener: Listener, world: World) -> Reverted:
    """Find what RUN changed and what to put back; unless a dry run, ask (unless --yes) and push it."""
    check_ask(request, world)
    if request.connection.sandbox:
        raise UsageProblem("a revert goes where its run went; --sandbox starts a new, empty emulator")
    if request.output.report is not None:
        # Before anything is read or sent, as a push checks it.
        check_report(request.output.report, (), request.connection, world.environ)
    settings = resolve(world.environ, request.connection, sending=request.sending)
    tuned = settings.tuned
    source, runs, found, now = _found(request, world.environ)
    if not request.dry_run:
        _reachable(source)  # said before anything else
    operation = Operation(source.operation)
    table, records = _rows(operation, source, found.back)
    value_of: Callable[[Record], str] = lambda record: wire_value(operation, record)  # noqa: E731
    changes = diff(Plan(records), value_of, now)
    plan = _sent(changes, records, len(table))
    reverted = Reverted(source, runs, operation, found, changes, table, plan, warnings=list(settings.warnings))
    if request.dry_run or not plan.records:
        return reverted
    segment = request.connection.path_segment or source.options.get("path_segment") or settings.value("path_segment")
    connection = _connection(source, settings, segment)
    options = PushOptions(
        operation=operation, files=(), today=request.today or dt.date.today(), batch_size=tuned.batch_size,
        data_form=DataForm(tuned.data_form), send=send_options(tuned),
    )  # fmt: skip
    prepared = Prepared(table, plan, requests_for(options, connection, plan), [])
    reverted.prepared, reverted.options, reverted.connection = prepared, options, connection
    question = (
        f"Put back {sum(r.end.toordinal() - r.start.toordinal() + 1 for r in plan.records)} date(s) in "
        f"{len(prepared.exchanges)} request(s) at {connection.base_url} (source {connection.source_id})?"
    )
    if not _confirmed(request, reverted, question, listener):
        raise Declined("not confirmed: nothing was sent", f"`ari-cli revert {source.id} --dry-run` shows it again")
    _push(request, reverted, tuned, listener, world.environ)
    return reverted


def _push(
    request: RevertRequest, reverted: Reverted, tuned: Tuned, listener: Listener, environ: Mapping[str, str]
) -> None:
    assert reverted.prepared is not None and reverted.options is not None and reverted.connection is not None
    prepared, options, connection = reverted.prepared, reverted.options, reverted.connection
    warn = reverted.warnings.append
    store = open_journal(environ, warn) if request.output.journal else None
    recorder = Recorder(store, warn) if store is not None else None
    try:
        if recorder is not None:
            # A revert takes no planning or input options: the journal keeps them at their defaults.
            recorded = recorded_options(PlanOptions(), InputOptions(), request.connection, tuned, options.today)
            recorded["reverts"] = reverted.source.id
            recorder.start(run_start(request.command, request.connection, recorded, options, connection, environ))
            recorder.plan(reverted.operation, prepared.rows, prepared.plan, prepared.exchanges)
        reverted.run = send_recorded(options, prepared, connection, recorder, request.output, listener)
    finally:
        if recorder is not None:
            recorder.close()
    reverted.number = recorder.run if recorder is not None else None
