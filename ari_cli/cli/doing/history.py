"""What `history`'s commands do once their options are parsed (the commands are declared in cli/history.py)."""

from __future__ import annotations

import typer

from ari_cli.app.history import TrackingFound, list_runs, opened_run, run_named
from ari_cli.app.history import find as find_in_journal
from ari_cli.app.history import prune as prune_journal
from ari_cli.app.options import FindRequest
from ari_cli.choices import PageFormat, Show, ViewFormat
from ari_cli.cli.world import process_world
from ari_cli.render.history.detail import show_detail
from ari_cli.render.history.finds import show_dates, show_tracking
from ari_cli.render.history.runs import show_pruned, show_runs
from ari_cli.render.terminal import Terminal
from ari_cli.wire.operations import Operation


def history(*, ctx: typer.Context, limit: int, operation: Operation | None, output: ViewFormat, quiet: bool) -> None:
    if ctx.invoked_subcommand is None:
        found = list_runs(limit, operation, process_world())
        label = found.operation and found.operation.value
        show_runs(found.runs, found.states, found.more, found.limit, label, found.journal, output.value, quiet)


def show_run(*, run: str, body: bool, rows: Show | None, output: PageFormat) -> None:
    with opened_run(run_named(run), process_world()) as opened:
        all_rows = None if rows is None else rows is Show.ALL
        show_detail(
            opened.whole, opened.rows, opened.records, opened.completed, output.value, body, all_rows, opened.ran_by
        )


def find(
    *,
    trackingid: str | None,
    propertyid: str | None,
    date: str | None,
    roomid: str | None,
    rateid: str | None,
    operation: Operation | None,
    body: bool,
    output: ViewFormat,
) -> None:
    found = find_in_journal(
        FindRequest(
            trackingid=trackingid,
            propertyid=propertyid,
            date=date,
            roomid=roomid,
            rateid=rateid,
            operation=operation,
            body=body,
            output=output,
        ),
        process_world(),
    )
    if isinstance(found, TrackingFound):
        show_tracking(found.trackingid, found.matches, output.value)
    else:
        show_dates(found.propertyid, found.day, found.roomid, found.rateid, found.operation, found.hits, found.body,
                   output.value)  # fmt: skip


def prune(*, older_than: str, dry_run: bool, yes: bool, output: ViewFormat) -> None:
    class _AskOnStdout(Terminal):
        # prune asks on standard output, where its answer ("deleted ...") goes, or on standard error beside a JSON
        # document; end of input is typer's Abort
        def ask(self, question: str) -> bool:
            return typer.confirm(question, default=False, err=output is ViewFormat.JSON)

    done = prune_journal(older_than, dry_run, yes, _AskOnStdout(), process_world())
    show_pruned(done.said, done.when, done.found, done.states, done.dry_run, done.declined, done.deleted, done.kept,
                done.not_compacted, output.value)  # fmt: skip
    if done.declined:
        raise typer.Exit(1)
