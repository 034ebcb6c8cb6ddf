"""What `ari-cli OPERATION diff` does, and what `push --confirm` shows and asks: a file's plan against what the
service last acknowledged, as the journal says.

The file is read, checked and planned as push would (the same input and planning options, `--today`
and relative dates included); nothing is sent and the journal is only read. What was acknowledged is
looked up under the base URL and source id of the configuration: the key is not needed.
"""

from __future__ import annotations

import os
import sqlite3
import sys

import typer

from ari_cli.app.listener import Listener
from ari_cli.app.options import DiffRequest, DiffShow, OutputFormat, PushRequest
from ari_cli.app.push import nothing_sent_on_interrupt
from ari_cli.app.push_settings import push_options, settings_for
from ari_cli.batch import wire_value
from ari_cli.config.settings import Connection
from ari_cli.diff import Change, diff, would_change
from ari_cli.exits import AriError, Declined, ExitCode, InputError, UsageProblem
from ari_cli.journal.queries import acknowledged
from ari_cli.journal.store import reading
from ari_cli.pipeline import Prepared, plan_input
from ari_cli.render import diff as render_diff
from ari_cli.render.console import console
from ari_cli.render.report import write_error_document
from ari_cli.render.run import notices, plural
from ari_cli.results import Status, attribute
from ari_cli.wire.operations import Operation

PREVIEW = 10  # ranges `push --confirm` shows before asking


def compare(
    prepared: Prepared, operation: Operation, db: sqlite3.Connection | None, base: str, source: str
) -> list[Change]:
    """The plan's ranges against what `base` (source `source`) acknowledged; all new without a journal."""
    plan = prepared.plan
    properties = {record.propertyid for record in plan.records}
    known = {} if db is None else acknowledged(db, operation.value, base, source, properties)
    return diff(plan, lambda record: wire_value(operation, record), known)


def view(
    prepared: Prepared, operation: Operation, changes: list[Change], base: str, source: str, show_all: bool
) -> render_diff.DiffView:
    """The diff as shown, with the counts of rows read, invalid and skipped."""
    counts = attribute(prepared.rows, prepared.plan, [], dry_run=True).counts()
    return render_diff.DiffView(
        operation.value, base, source, changes, prepared.rows, show_all, len(prepared.rows),
        counts[Status.INVALID], counts[Status.SKIPPED],
    )  # fmt: skip


def run_diff(request: DiffRequest) -> None:
    """Compare, show, and exit: 0, or 1 with --exit-code when anything would change; 3 invalid input; 4 config."""
    try:
        # Ctrl-C or SIGTERM while reading: said, exit 130, and still one JSON document with --output json.
        with nothing_sent_on_interrupt():
            code = _diff(request)
    except AriError as problem:
        if request.output is OutputFormat.JSON:
            document = render_diff.error_document(request.operation.value, problem.kind, problem.message, problem.hint)
            write_error_document(document, sys.stdout)
        raise
    raise typer.Exit(int(code))


def _diff(request: DiffRequest) -> ExitCode:
    settings = settings_for(request.connection, {})
    err = console(stderr=True)
    notices(list(settings.warnings), err)
    base, source = settings.service()
    as_push = PushRequest(
        request.operation, "", request.files, dry_run=True, inputs=request.inputs, plan=request.plan,
        connection=request.connection,
    )  # fmt: skip
    options = push_options(as_push, settings)
    prepared = plan_input(options, stdin=sys.stdin.buffer)
    notices(prepared.warnings, err)
    if not request.quiet:
        notices(prepared.notes, err, label="note")
    if prepared.invalid:
        notices(attribute(prepared.rows, prepared.plan, [], dry_run=True).invalid_messages(), err, label="error")
        if not request.inputs.skip_invalid:
            raise InputError(
                "the input has invalid rows: nothing was compared",
                "fix the rows above, or give --skip-invalid to compare the valid ones",
            )
    with reading(os.environ) as db:
        if db is None and not request.quiet:
            notices(["the journal is empty: every date is new"], err, label="note")
        changes = compare(prepared, request.operation, db, base, source)
    shown = view(prepared, request.operation, changes, base, source, request.show is DiffShow.ALL)
    if request.output is OutputFormat.JSON:
        render_diff.write_json(shown, sys.stdout)
    elif request.output is OutputFormat.CSV:
        render_diff.write_csv(shown, sys.stdout)
    else:
        render_diff.table(shown, console())
    sys.stdout.flush()
    return ExitCode.FAILED if request.exit_code and would_change(changes) else ExitCode.OK


def check_confirm(request: PushRequest) -> None:
    """`--confirm` asks at a terminal; without one (cron, a pipe, data on standard input) it needs `--yes`.

    Checked before anything is read, so that a script learns at once that it cannot be asked.
    """
    if not request.confirm or request.yes or request.dry_run:
        return
    if not (sys.stdin.isatty() and sys.stderr.isatty()) or "-" in (str(f) for f in request.files):
        raise UsageProblem(
            "--confirm asks before sending, and there is no terminal to ask at",
            "give --yes too, to be shown what would change and send without being asked; or leave out --confirm",
        )


def confirm_push(
    request: PushRequest,
    prepared: Prepared,
    connection: Connection | None,
    db: sqlite3.Connection | None,
    listener: Listener,
) -> None:
    """Show on standard error what the push would change, and ask (unless --yes); Declined on any answer but yes."""
    if not request.confirm or request.dry_run or connection is None or not prepared.exchanges:
        return
    if prepared.invalid and not request.inputs.skip_invalid:
        return  # nothing will be sent: the run says why
    operation = request.operation
    if db is None:  # --no-journal: the journal is still read, to compare
        with reading(os.environ) as journal:
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
