"""What a push command does once its options are parsed: configure, run the pipeline, render."""

from __future__ import annotations

import datetime as dt
import os
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import typer

from ari_cli.batch import DataForm
from ari_cli.config import Connection, ConnectionFlags, Settings, resolve_settings
from ari_cli.config_file import TUNING_DEFAULTS
from ari_cli.exits import ConfigError, UsageProblem
from ari_cli.inputs import ReadOptions, SourceRow
from ari_cli.pipeline import PushOptions, execute, prepare
from ari_cli.protocol import Operation
from ari_cli.send import SendOptions, encode


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


def _settings(a: dict[str, Any]) -> Settings:
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


def run_push(operation: Operation, a: dict[str, Any], rows: Sequence[SourceRow] | None = None) -> None:
    """Run one push command end to end and exit with the contract's code; `rows` instead of files (send)."""
    from ari_cli import render

    settings = _settings(a)
    a = {**a, **settings.tuning()}
    options = _options(operation, a)
    out, err = render.console(), render.console(stderr=True)
    quiet, output = a["quiet"], a["output"].value
    # Shown even with --quiet: the file may hold the key.
    render.notices(list(settings.warnings), err)
    with _connection(a, settings, needed=not options.dry_run) as connection:
        if a["sandbox"] and connection and not quiet:
            err.print(f"pushing to the built-in sandbox at {connection.base_url}", markup=False)
        prepared = prepare(options, connection, stdin=sys.stdin.buffer, rows=rows)
        if not quiet:
            render.notices(prepared.warnings, err)
        total = sum(len(e.records) for e in prepared.exchanges)
        with render.progress(total, err, enabled=not quiet) as advance:
            trace = (lambda t: render.trace(t, err)) if a["verbose"] else None
            run = execute(options, prepared, connection, on_final=lambda e: advance(len(e.records)), on_trace=trace)
    invalid = [m for r in run.rows for p in r.errors if r.status.value == "invalid" for m in [p.message]]
    render.notices(invalid, err, label="error")
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
    if prepared.invalid and not options.skip_invalid:
        # A send command has one setting and no --skip-invalid to offer.
        skip = ", or give --skip-invalid to send the valid ones" if rows is None else ""
        err.print(f"nothing was sent: fix the invalid rows above{skip}", markup=False)
    raise typer.Exit(int(run.exit_code()))
