"""What `ari-cli OPERATION diff` does, and what `push --confirm` shows and asks: a file's plan against what the
service last acknowledged, as the journal says.

The file is read, checked and planned as push would (the same input and planning options, `--today`
and relative dates included); nothing is sent and the journal is only read. What was acknowledged is
looked up under the base URL and source id of the configuration: the key is not needed.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import partial

from ari_cli.app.elsewhere import note as elsewhere_note
from ari_cli.app.guards import said
from ari_cli.app.listener import Listener
from ari_cli.app.options import DiffRequest, DiffShow, GuardOptions, PushRequest
from ari_cli.app.push_settings import push_options
from ari_cli.app.world import World
from ari_cli.config.options import Connection
from ari_cli.config.settings import resolve
from ari_cli.exits import Declined, ExitCode, InputError, UsageProblem
from ari_cli.journal.before import held_at
from ari_cli.journal.database import OpenJournal
from ari_cli.journal.queries import acknowledged
from ari_cli.journal.store import reading
from ari_cli.pipeline import Prepared, conflict_lines, plan_input
from ari_cli.planning.batch import wire_value
from ari_cli.planning.changes import conflicts, keep_changed
from ari_cli.planning.diff import Change, DiffView, diff, would_change
from ari_cli.render.values import plural
from ari_cli.results import Status, attribute
from ari_cli.wire.operations import Operation

PREVIEW = 10  # ranges `push --confirm` shows before asking


def compare(prepared: Prepared, operation: Operation, db: OpenJournal | None, base: str, source: str) -> list[Change]:
    """The plan's ranges against what `base` (source `source`) acknowledged; all new without a journal."""
    plan = prepared.plan
    properties = {record.propertyid for record in plan.records}
    known = {} if db is None else acknowledged(db, operation.value, base, source, properties)
    return diff(plan, lambda record: wire_value(operation, record), known)


def said_conflicts(
    prepared: Prepared, operation: Operation, db: OpenJournal | None, base: str, source: str
) -> list[str]:
    """An exported file's conflicts (`changes.conflicts`), said as a push with --changed-only says them."""
    since = prepared.exported_run
    if db is None or since is None:
        return []
    plan = prepared.plan
    properties = {record.propertyid for record in plan.records}
    value_of = partial(wire_value, operation)
    now = acknowledged(db, operation.value, base, source, properties)
    then = held_at(db, operation.value, base, source, since, properties)
    return conflict_lines(conflicts(keep_changed(plan, value_of, now), value_of, now, then, since), True)


def view(
    prepared: Prepared, operation: Operation, changes: list[Change], base: str, source: str, show_all: bool
) -> DiffView:
    """The diff as shown, with the counts of rows read, invalid and skipped."""
    counts = attribute(prepared.rows, prepared.plan, [], dry_run=True).counts()
    return DiffView(
        operation.value, base, source, changes, prepared.rows, show_all, len(prepared.rows),
        counts[Status.INVALID], counts[Status.SKIPPED],
    )  # fmt: skip


def run_diff(request: DiffRequest, listener: Listener, world: World) -> Diffed:
    """The file's plan against what the service last acknowledged; raises InputError (3) on invalid rows unless
    --skip-invalid, ConfigError (4) without a base URL or source id."""
    settings = resolve(world.environ, request.connection, request.plan, guards=request.guards)
    listener.notices(list(settings.warnings))
    base, source = settings.service()
    as_push = PushRequest(
        operation=request.operation, command="", files=request.files, dry_run=True, inputs=request.inputs,
        plan=request.plan, connection=request.connection,
    )  # fmt: skip
    options = push_options(as_push, settings)
    prepared = plan_input(options, stdin=world.stdin)
    listener.notices(prepared.warnings)
    if not request.quiet:
        listener.notices(prepared.notes, label="note")
    if prepared.invalid:
        listener.notices(attribute(prepared.rows, prepared.plan, [], dry_run=True).invalid_messages(), label="error")
        if not request.inputs.skip_invalid:
            raise InputError(
                "the input has invalid rows: nothing was compared",
                "fix the rows above, or give --skip-invalid to compare the valid ones",
            )
    with reading(world.environ) as db:
        if db is None and not request.quiet:
            listener.notices(["the journal is empty: every date is new"], label="note")
        changes = compare(prepared, request.operation, db, base, source)
        properties = {record.propertyid for record in prepared.plan.records}
        elsewhere = elsewhere_note(db, request.operation.value, base, source, properties)
        notes = (elsewhere,) if elsewhere else ()
        listener.notices(notes)  # even with --quiet: a comparison with nothing may not be what was meant
        conflicted = said_conflicts(prepared, request.operation, db, base, source)
        listener.notices(conflicted)
        notes = (*notes, *conflicted)
        if request.guards != GuardOptions() or settings.guards:
            # Which guards a push of the files would trip: said, as a push would say it, not enforced.

            where = (base, source)
            guarded = said(request.guards, settings, request.operation, prepared.plan, db, options.today, where)
            listener.notices(guarded, label="guard")
    shown = replace(view(prepared, request.operation, changes, base, source, request.show is DiffShow.ALL), notes=notes)
    code = ExitCode.FAILED if request.exit_code and would_change(changes) else ExitCode.OK
    return Diffed(shown, code)


@dataclass(frozen=True, slots=True)
class Diffed:
    """A diff as shown, and the exit code it asks for (1 with --exit-code when anything would change)."""

    view: DiffView
    exit_code: ExitCode


def check_confirm(request: PushRequest, world: World) -> None:
    """`--confirm` asks at a terminal; without one (cron, a pipe, data on standard input) it needs `--yes`.

    Checked before anything is read, so that a script learns at once that it cannot be asked.
    """
    if not request.confirm or request.yes or request.dry_run:
        return
    if not (world.stdin_is_terminal and world.stderr_is_terminal) or "-" in (str(f) for f in request.files):
        raise UsageProblem(
            "--confirm asks before sending, and there is no terminal to ask at",
            "give --yes too, to be shown what would change and send without being asked; or leave out --confirm",
        )


def confirm_push(
    request: PushRequest,
    prepared: Prepared,
    connection: Connection | None,
    db: OpenJournal | None,
    listener: Listener,
    world: World,
) -> None:
    """Show on standard error what the push would change, and ask (unless --yes); Declined on any answer but yes."""
    if not request.confirm or request.dry_run or connection is None or not prepared.exchanges:
        return
    if prepared.invalid and not request.inputs.skip_invalid:
        return  # nothing will be sent: the run says why
    operation = request.operation
    if db is None:  # --no-journal: the journal is still read, to compare
        with reading(world.environ) as journal:
            changes = compare(prepared, operation, journal, connection.base_url, connection.source_id)
    else:
        changes = compare(prepared, operation, db, connection.base_url, connection.source_id)
    listener.preview(view(prepared, operation, changes, connection.base_url, connection.source_id, False), PREVIEW)
    records = sum(len(e.records) for e in prepared.exchanges)
    question = (
        f"Push {plural(records, 'record')} in {plural(len(prepared.exchanges), 'request')} "
        f"to {connection.base_url} (source {connection.source_id})?"
    )
    if request.yes:
        listener.say(f"{question} yes (--yes)")
        return
    if not listener.ask(question):
        raise Declined("not confirmed: nothing was sent", f"`ari-cli {operation.value} diff` shows the changes again")
