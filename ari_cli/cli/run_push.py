"""What a push command does once its options are parsed: configure, run the pipeline, render."""

from __future__ import annotations

import datetime as dt
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import typer

from ari_cli.batch import DataForm
from ari_cli.config import Connection, ConnectionFlags, resolve_connection
from ari_cli.exits import ConfigError, UsageProblem
from ari_cli.inputs import ReadOptions
from ari_cli.pipeline import PushOptions, execute, prepare
from ari_cli.protocol import Operation
from ari_cli.send import SendOptions


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
        read=ReadOptions(format=a["input_format"].value if a["input_format"] else None, encoding=a["encoding"]),
        date_format=a["date_format"],
        merge=not a["no_merge"],
        last_wins=a["overlaps"].value == "last-wins",
        batch_size=a["batch_size"],
        data_form=DataForm(a["data_form"].value),
        skip_invalid=a["skip_invalid"],
        dry_run=a["dry_run"],
        send=SendOptions(concurrency=a["concurrency"], rate=a["rate"], timeout=a["timeout"], retries=a["retries"]),
    )


@contextmanager
def _connection(a: dict[str, Any], needed: bool) -> Iterator[Connection | None]:
    """The configured connection, or a sandbox started for this run and stopped after it."""
    if a["sandbox"]:
        from ari_cli.sandbox import Sandbox

        # The emulator's "before today" must agree with the run's --today.
        with Sandbox(today=a["today"]) as sandbox:
            yield Connection(sandbox.base_url, sandbox.api_key, sandbox.source_id)
        return
    flags = ConnectionFlags(a["base_url"], a["source_id"], a["api_key_file"], a["path_segment"])
    connection: Connection | None = None
    try:
        connection = resolve_connection(flags, os.environ)
    except ConfigError:
        # A dry run shows the spec's placeholders when nothing is configured.
        if needed:
            raise
    yield connection


def run_push(operation: Operation, a: dict[str, Any]) -> None:
    """Run one push command end to end and exit with the contract's code."""
    from ari_cli import render

    options = _options(operation, a)
    out, err = render.console(), render.console(stderr=True)
    quiet, output = a["quiet"], a["output"].value
    with _connection(a, needed=not options.dry_run) as connection:
        if a["sandbox"] and connection and not quiet:
            err.print(f"pushing to the built-in sandbox at {connection.base_url}", markup=False)
        prepared = prepare(options, connection, stdin=sys.stdin.buffer)
        if not quiet:
            render.notices(prepared.warnings, err)
        total = sum(len(e.records) for e in prepared.exchanges)
        with render.progress(total, err, enabled=not quiet) as advance:
            run = execute(options, prepared, connection, on_final=lambda e: advance(len(e.records)))
    invalid = [m for r in run.rows for p in r.errors if r.status.value == "invalid" for m in [p.message]]
    render.notices(invalid, err, label="error")
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
    if prepared.invalid and not options.skip_invalid:
        err.print(
            "nothing was sent: fix the invalid rows above, or give --skip-invalid to send the valid ones",
            markup=False,
        )
    raise typer.Exit(int(run.exit_code()))
