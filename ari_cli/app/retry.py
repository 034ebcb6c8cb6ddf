"""What `retry` does once its options are parsed: read the journal, re-send, render like a push."""

from __future__ import annotations

import datetime as dt
import os
from typing import Any

import typer

from ari_cli.app.push import run_start, send_recorded, settings_for, show
from ari_cli.cli.history import journal
from ari_cli.cli.push import push_defaults
from ari_cli.config.settings import Connection
from ari_cli.exits import UsageProblem
from ari_cli.journal.recorder import Recorder
from ari_cli.journal.resend import RetryPlan, plan_retry, with_key
from ari_cli.journal.store import Journal, journal_path
from ari_cli.pipeline import Prepared, PushOptions
from ari_cli.records.table import RowTable
from ari_cli.send.exchange import SendOptions
from ari_cli.wire.operations import Operation


def _where(plan: RetryPlan, a: dict[str, Any], key: str) -> Connection:
    if a["sandbox"]:
        raise UsageProblem("a retry goes where its run went; --sandbox starts a new, empty emulator")
    run = plan.source.run
    return Connection(a["base_url"] or run.base_url, key, a["source_id"] or run.source_id)


def run_retry(number: int, given: dict[str, Any]) -> None:
    from ari_cli.render import run as render

    a = {**push_defaults(), **given}
    settings = settings_for(a)
    a = {**a, **settings.tuning()}
    err = render.console(stderr=True)
    quiet = a["quiet"]
    render.notices(list(settings.warnings), err)
    path = journal_path(os.environ)
    with journal() as db:
        if db is None:
            raise UsageProblem("the journal has no runs yet", f"runs are recorded in {path} (ARI_HOME moves it)")
        store = Journal(path, db)
        plan = plan_retry(db, number)
        source = plan.source.run
        if plan.followed and not quiet:
            chain = " -> ".join(str(n) for n in (*plan.followed, source.id))
            err.print(f"run {number} was retried already ({chain}); retrying what run {source.id} left", markup=False)
        for request in plan.refused:
            if not quiet:
                problem = request.errors[0]["message"] if request.errors else request.state
                err.print(f"not re-sent: request {request.id} was refused ({problem}); fix the file and push again",
                          markup=False)  # fmt: skip
        if not plan.exchanges:
            err.print(f"run {source.id}: nothing left to send", markup=False)
            raise typer.Exit(0)
        operation = Operation(source.operation)
        connection = _where(plan, a, settings.api_key()) if not a["dry_run"] else None
        key = connection.api_key if connection else "<API_KEY>"
        options = PushOptions(
            operation=operation, files=(), today=dt.date.today(), dry_run=a["dry_run"],
            send=SendOptions(concurrency=a["concurrency"], rate=a["rate"], timeout=a["timeout"], retries=a["retries"]),
        )  # fmt: skip
        prepared = Prepared(RowTable.of_views(plan.views), plan.plan, with_key(plan.exchanges, key), [])
        recorder = (
            None if a["no_journal"] or connection is None else Recorder(store, lambda m: render.notices([m], err))
        )
        if recorder is not None and connection is not None:
            start = run_start(operation, a, options, connection)
            recorder.start(start.retrying(source.id))
            recorder.plan(operation, prepared.rows, prepared.plan.records, prepared.exchanges)
        run = send_recorded(options, prepared, connection, recorder, a, err, lambda part: plan.build(part, key))
    show(run, a, options, connection, False, False, recorder.run if recorder else None)
