"""A push's ending as shown: the run on stdout as `--output` asks, the report, what to do next; or, for a run
that stopped before it had rows, its one document.

The push and send commands, `retry` and `ari_cli.push(output=...)` show a run through here; what they pass
is plain values (`Shown`), as render/ imports nothing of the use cases.
"""

from __future__ import annotations

import datetime as dt
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.text import Text

from ari_cli.exits import ExitCode
from ari_cli.render.console import whole
from ari_cli.render.html.data import run_about, stopped_about
from ari_cli.render.push import run as render
from ari_cli.render.push.report import error_document, write_error_document, write_error_report, write_report
from ari_cli.render.push.table import table
from ari_cli.render.streams import discard, stdout_failure
from ari_cli.results import Refused, Run, Status, summary
from ari_cli.send.exchange import Exchange, encode
from ari_cli.wire.errors import WHOLE, reach
from ari_cli.wire.operations import Operation

if TYPE_CHECKING:
    from ari_cli.planning.changes import Acknowledged


@dataclass(frozen=True, slots=True, kw_only=True)
class Shown:
    """How a run is shown: the output options, and what the run knows of itself."""

    form: str  # table, json or csv
    report: Path | None = None
    show_all: bool | None = None  # --show all / failed; None: by the number of rows
    curl: bool = False
    quiet: bool = False
    verbose: bool = False
    connected: bool = True  # a connection was configured (curl commands name it, else placeholders)
    skip_invalid: bool = False
    send: bool = False  # a send command: one setting, no --skip-invalid to offer
    # What an HTML report's header names: the files read and the service sent to (never the key).
    files: tuple[str, ...] = ()
    base_url: str | None = None
    source_id: str | None = None
    before: Acknowledged | None = None  # what the service had before the run: the page marks only what differs
    when: dt.datetime | None = None  # when the run started (the use case's clock), for the page's header
    what: str | None = None  # what the page is when not a push or dry run: "a retry of run 1", "a revert of run 3"


def show_run(run: Run, shown: Shown, invalid_input: bool, number: int | None, err: Any) -> ExitCode:
    """Print the run as asked, write the report and say what to do next; the run's exit code."""
    render.notices(run.rows.invalid_messages(), err, label="error")
    code = run.exit_code()
    if not to_stdout(lambda: _print(run, shown, err), err) and code is ExitCode.OK:
        # The results asked for were lost (a full disk): a script must not take the run for a clean one.
        code = ExitCode.FAILED
    write_run_report(run, shown, err)
    if invalid_input and not shown.skip_invalid:
        # A send command has one setting and no --skip-invalid to offer.
        skip = "" if shown.send else ", or give --skip-invalid to send the valid ones"
        err.print(f"nothing was sent: fix the invalid rows above{skip}", markup=False)
    _next_step(run, number, err, shown.quiet)
    if run.refused is not None:
        # Said under --quiet too: it is about the data, and why the retry exits 1.
        show_refused(run.refused, err)
    return code


def show_stopped(
    operation: Operation,
    dry_run: bool,
    problem: tuple[str, str, str | None],
    shown: Shown,
    report_writable: bool,
    err: Any,
    details: dict[str, Any] | None = None,
    on_stdout: bool = True,
) -> None:
    """The document of a run that stopped before it had rows (kind, message, hint, and `details` beside them: a
    guard's figures), on stdout (`--output json`; not `on_stdout` when the error boundary writes it) and in the
    report."""
    document = error_document(operation, dry_run, *problem)
    document["error"].update(details or {})
    if on_stdout:
        to_stdout(lambda: _print(None, shown, err, document), err)
    if shown.report is not None and report_writable:
        about = stopped_about(document, shown.files, shown.base_url, shown.source_id, shown.when, shown.what)
        _write_report(lambda path: write_error_report(document, path, about), shown.report, err)


def show_empty(operation: Operation, dry_run: bool, shown: Shown, err: Any, refused: Refused | None = None) -> None:
    """A run with nothing to send (a retry of a finished run, or of one whose rows stay refused): `--output json`
    still gets its one document."""
    document: dict[str, Any] = {"operation": operation.value, "dry_run": dry_run, "summary": summary(0, 0, 0)}
    if refused is not None:
        document["refused"] = render.refused_dict(refused)
    document.update(rows=[], requests=[])
    to_stdout(lambda: _print(None, shown, err, document), err)
    if refused is not None:
        show_refused(refused, err)


def show_refused(refused: Refused, err: Any) -> None:
    """What a retry left refused for the rows' own data, on stderr."""
    for line in render.refused_lines(refused):
        err.print(line, markup=False)


def write_run_report(run: Run, shown: Shown, err: Any) -> None:
    """Write the run's report file, if one is asked for (an HTML page headed by the files and the service)."""
    if shown.report is None:
        return
    about = None
    if shown.report.suffix.lower() == ".html":
        about = run_about(run, shown.files, shown.base_url, shown.source_id, shown.when, shown.what)
    _write_report(lambda path: write_report(run, path, about, shown.before), shown.report, err)


def _write_report(write: Callable[[Path], None], path: Path, err: Any) -> bool:
    """Write the report; a failure (a full disk, a folder removed meanwhile) is said, and is not the run's."""
    try:
        write(path)
    except OSError as problem:
        render.notices([f"the report {path} could not be written: {problem.strerror or problem}"], err, "error")
        return False
    return True


def _print(run: Run | None, shown: Shown, err: Any, document: dict[str, Any] | None = None) -> None:
    """A push's one dispatch on `--output`: the run on stdout as a table (after its `--curl` commands), one JSON
    document or CSV (the commands then on stderr). A run that never had rows is its `document` under JSON, and
    nothing on stdout otherwise."""
    if shown.form == "json":
        _curl(run, shown, err)
        if run is not None:
            render.write_json(run, sys.stdout)
        elif document is not None:
            write_error_document(document, sys.stdout)
    elif shown.form == "csv":
        _curl(run, shown, err)
        if run is not None:
            render.write_csv(run, sys.stdout)
    elif run is not None:
        out = render.console()
        _curl(run, shown, out)
        if run.dry_run:
            render.planned_requests(run, out)
        table(run, shown.show_all, out)
    if run is not None:
        sys.stdout.flush()


def _curl(run: Run | None, shown: Shown, where: Any) -> None:
    """`--curl`: each request of the run as a curl command, on `where` (stdout before a table, else stderr)."""
    if run is None or not shown.curl:
        return
    requests = ((render.exchange_label(e), e.url, encode(e.body)) for e in run.exchanges)  # each made as written
    render.curl_commands(requests, shown.connected, where.file)


def to_stdout(write: Callable[[], None], err: Any) -> bool:
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
    elif unsent and not quiet and any(_beyond_data(e) for e in run.exchanges):
        # First: the requests such a refusal held back are not sent, but no passing reason will send them.
        # Wrapped at spaces, at a terminal and in a pipe alike: a sentence a narrow terminal would cut.
        whole(err, Text(f"run {number}: once the service has put right the property, endpoint or account it refused,"
                        f" `ari-cli retry {number}` re-sends those rows"))  # fmt: skip
    elif unsent and not quiet and any(_retryable(e) for e in run.exchanges):
        err.print(f"run {number}: `ari-cli retry {number}` re-sends what failed for a passing reason", markup=False)


def _retryable(exchange: Exchange) -> bool:
    outcome = exchange.outcome
    return exchange.final and outcome is not None and not outcome.success and (outcome.transient or not outcome.sent)


def _beyond_data(exchange: Exchange) -> bool:
    """Refused for the property, endpoint or account (`wire.errors.reach`), not the rows' data: `retry` re-sends."""
    outcome = exchange.outcome
    if not exchange.final or outcome is None or outcome.success or not outcome.errors:
        return False
    problem = outcome.errors[0]
    return reach(problem.code, problem.http_status) in WHOLE
