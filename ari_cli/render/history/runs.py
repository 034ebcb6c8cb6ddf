"""Showing the journal: the list of runs, and the cells every journal view shares.

One run whole is `render/history/detail.py`, who set what (find) `render/history/finds.py`. The same rules as
for a push's output hold: results on stdout, plain text without a terminal or with NO_COLOR, every
text of outside origin made printable. The journal stores bodies with the key already masked.
"""

from __future__ import annotations

import datetime as dt
import json
import sys
from collections.abc import Iterable, Sequence
from typing import IO, Any

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from ari_cli.journal.queries import RequestInfo, RunInfo
from ari_cli.render.console import console as console  # the one console, re-exported for callers of this module
from ari_cli.render.console import fitted, styled_table, whole
from ari_cli.render.printable import echo_err
from ari_cli.render.values import lines_text as lines_text  # re-exported: the history views name it here
from ari_cli.render.values import runs_text as runs_text
from ari_cli.render.values import text as text

UNFINISHED = "unfinished (killed?)"
UNRECORDED = "not fully recorded"
UNFINISHED_BUT = "unfinished, finished by retry"
STATE_STYLE = {"ok": "green", "failed": "bold red", "not sent": "bold yellow", "invalid": "red", "skipped": "yellow",
                "planned": "yellow", "sending": "yellow", "split": "dim"}  # fmt: skip
STATE_TEXT = {"planned": "not sent", "sending": "sent, no answer", "split": "split in halves"}


def write_json(document: Any, stream: IO[str]) -> None:
    """One JSON document: indented for a person at a terminal, compact for a program."""
    stream.write(json.dumps(document, ensure_ascii=False, indent=2 if stream.isatty() else None))
    stream.write("\n")


def grid() -> Table:
    """History's tables, in every table's look (`render/console.py`)."""
    return styled_table()


def local_time(stamp: str | None) -> str:
    """A stored UTC time as the local time, to the second."""
    if not stamp:
        return "-"
    return dt.datetime.fromisoformat(stamp).astimezone().strftime("%Y-%m-%d %H:%M:%S")


def command_text(run: RunInfo) -> str:
    command = run.command.removeprefix("ari-cli ")
    if run.retry_of is not None:
        command = f"{command}, retry of {run.retry_of}"
    if run.options.get("reverts") is not None:
        command = f"{command}, reverts run {run.options['reverts']}"
    return f"{command} (sandbox)" if run.sandbox else command


def files_text(files: Sequence[tuple[str, str | None]], most: int = 2) -> str:
    names = ["stdin" if path == "-" else path for path, _ in files]
    if len(names) > most:
        return ", ".join(names[:most]) + f" +{len(names) - most} more"
    return ", ".join(names) or "-"


def exit_text(run: RunInfo) -> Text:
    if not run.finished:
        if run.finished_by is not None:
            return Text(f"{UNFINISHED_BUT} {run.finished_by}", style="yellow")
        return Text(UNRECORDED if run.unrecorded else UNFINISHED, style="bold yellow")
    labels = {0: "0", 1: "1 failed", 2: "2 usage", 3: "3 invalid input", 4: "4 configuration",
              130: "130 interrupted"}  # fmt: skip
    code = run.exit_code if run.exit_code is not None else -1
    if run.unrecorded:
        return Text(f"{labels.get(code, str(code))}, {UNRECORDED}", style="yellow")
    return Text(labels.get(code, str(code)), style="green" if code == 0 else "bold red")


def state_text(request: RequestInfo) -> Text:
    label = STATE_TEXT.get(request.state, request.state)
    if request.state == "failed" and request.transient:
        label = "failed (transient)"
    return Text(label, style=STATE_STYLE.get(request.state, ""))


def errors_text(errors: Iterable[dict[str, Any]]) -> str:
    parts = []
    for error in errors:
        code = f"{error['code']} " if error.get("code") is not None else ""
        status = f" (HTTP {error['http_status']})" if error.get("http_status") is not None else ""
        parts.append(f"{code}{error.get('message', '')}{status}")
    return "\n".join(parts)


# --- the runs ---------------------------------------------------------------------------------


def run_dict(run: RunInfo, states: dict[str, int] | None = None) -> dict[str, Any]:
    """One run as JSON; `requests` counts its final requests by state."""
    return {
        "id": run.id,
        "command": run.command,
        "operation": run.operation,
        "profile": run.profile,
        "base_url": run.base_url,
        "source_id": run.source_id,
        "retry_of": run.retry_of,
        "finished_by": run.finished_by,
        "reverts": run.options.get("reverts"),
        "sandbox": run.sandbox,
        "fully_recorded": not run.unrecorded,
        "started": run.started,
        "ended": run.ended,
        "finished": run.finished,
        "exit_code": run.exit_code,
        "summary": run.summary,
        "files": [{"path": path, "sha256": digest} for path, digest in run.files],
        "options": run.options,
        "requests": dict(sorted((states or {}).items())),
    }


def _requests_cell(run: RunInfo, states: dict[str, int]) -> str:
    total = sum(states.values())
    if run.finished and run.summary is not None and not run.unrecorded:
        return str(run.summary.get("requests", total))
    return f"{states.get('ok', 0)}/{total} acknowledged"


_RUN_COLUMNS = ("Run", "Started", "Command", "Operation", "Base URL", "Files", "OK", "Failed", "Invalid", "Skipped",
                "Requests", "Exit")  # fmt: skip


def runs_table(runs: Sequence[RunInfo], states: dict[int, dict[str, int]], out: Console) -> None:
    """The runs, newest first: one line each, or at a terminal too narrow for that, a short block each."""
    rows: list[list[Text]] = []
    for run in runs:
        summary = run.summary or {}
        counts = [str(summary.get(k, "-")) if run.finished else "-" for k in ("ok", "failed", "invalid", "skipped")]
        rows.append([
            text(run.id), text(local_time(run.started)), text(command_text(run)), text(run.operation),
            text(run.base_url), text(files_text(run.files)),
            *(text(c, "red" if c not in ("0", "-") and i in (1, 2) else "") for i, c in enumerate(counts)),
            text(_requests_cell(run, states.get(run.id, {}))), exit_text(run),
        ])  # fmt: skip
    table = grid()
    for name in _RUN_COLUMNS[:6]:
        table.add_column(name, no_wrap=name != "Files")
    for name in _RUN_COLUMNS[6:11]:
        table.add_column(name, justify="right", no_wrap=True)
    table.add_column("Exit", no_wrap=True)
    for row in rows:
        table.add_row(*row)
    # The run number must never be cut, nor any count: too narrow for that, each run is a block.
    fitted(table, out, lambda: _run_blocks(rows, out))


def _run_blocks(rows: list[list[Text]], out: Console) -> None:
    """Each run as a short block: `run 12  started  exit`, the command and where it went, the counts."""
    for number, started, command, _operation, base_url, files, ok, failed, invalid, skipped, requests, exit_ in rows:
        whole(out, Text.assemble("run ", number, "  ", started, "  exit ", exit_))
        whole(out, Text.assemble("  ", command, "  ", files))
        whole(out, Text.assemble("  to ", base_url))
        counts = Text.assemble("  ", ok, " ok, ", failed, " failed, ", invalid, " invalid, ", skipped, " skipped; ")
        whole(out, Text.assemble(counts, "requests ", requests))


def show_runs(
    runs: Sequence[RunInfo], states: dict[int, dict[str, int]], more: bool, limit: int, operation: str | None,
    journal: str, form: str, quiet: bool = False,
) -> None:  # fmt: skip
    """`history`: the runs as a table or one JSON document; on stderr (unless `quiet`), when there are none or more."""
    if form == "json":
        found = [run_dict(r, states.get(r.id, {})) for r in runs]
        write_json({"journal": journal, "runs": found, "more": more}, sys.stdout)
    elif runs:
        runs_table(runs, states, console())
    if quiet:
        return
    if not runs:
        which = f"no {operation} run" if operation else "no run"
        echo_err(f"{which} in the journal {journal}: every push that is not a dry run is recorded there")
    elif more:
        echo_err(f"showing the {limit} newest runs; --limit N shows more (0: all)")


def show_pruned(
    said: str, when: str, found: Sequence[RunInfo], states: dict[int, dict[str, int]], dry_run: bool,
    declined: bool, deleted: int, kept: Sequence[int], not_compacted: str | None, form: str = "table",
) -> None:  # fmt: skip
    """`history prune`: what went (or would go), and what was kept; as words or one JSON document."""
    if form == "json":
        runs_found = [run_dict(r, states.get(r.id)) for r in found]
        document = {"before": when, "dry_run": dry_run, "declined": declined, "deleted": deleted, "runs": runs_found,
                    "kept": list(kept)}  # fmt: skip
        write_json(document, sys.stdout)
    said_on = typer.echo if form != "json" else echo_err  # with JSON, stdout holds the document alone
    if dry_run:
        if found and form != "json":
            runs_table(found, states, console())
        said_on(f"would delete {said}; nothing deleted (--dry-run)")
        return
    if declined:
        said_on("nothing deleted")
        return
    if not_compacted is not None:
        echo_err(f"warning: the journal was not compacted ({not_compacted}); later runs reuse the space")
    runs = "run" if deleted == 1 else "runs"
    said_on(f"deleted {deleted} {runs} started before {when} (local time)")
    if kept:
        numbers = ", ".join(str(n) for n in kept[:10]) + (" ..." if len(kept) > 10 else "")
        echo_err(
            f"kept {len(kept)} unfinished {'run' if len(kept) == 1 else 'runs'} ({numbers}): killed or still running;"
            " `ari-cli retry RUN` finishes a killed one"
        )
