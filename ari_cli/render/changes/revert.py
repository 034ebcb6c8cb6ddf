"""Showing a revert: its plan in `diff`'s views (table, JSON, CSV), and the dates it leaves alone, and why; or the
run it made, as a push's is shown. `show` is the revert's one dispatch on `--output`."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from dataclasses import replace
from typing import IO, TYPE_CHECKING, Any

from rich.console import Console

from ari_cli.config.secrets import scrub
from ari_cli.exits import ExitCode
from ari_cli.operations import of
from ari_cli.records.rules import shown_dates
from ari_cli.render.changes import diff as render_diff
from ari_cli.render.printable import json_printable
from ari_cli.render.push import run as render
from ari_cli.render.push.outcome import Shown, show_run
from ari_cli.render.values import plural

if TYPE_CHECKING:
    from ari_cli.planning.undo import Piece, Reverted

MOST_NAMED = 10  # ranges named on standard error per reason; the JSON document lists them all


def _where(piece: Piece) -> str:
    return f"{' '.join(piece.key)} {shown_dates(piece.start, piece.end, '')}"


def _named(pieces: Sequence[Piece]) -> str:
    named = ", ".join(_where(p) for p in pieces[:MOST_NAMED])
    more = len(pieces) - MOST_NAMED
    return named + (f" and {plural(more, 'more range')}" if more > 0 else "")


def left_alone(reverted: Reverted) -> list[str]:
    """What the revert leaves alone (or clears), said on standard error even with --quiet: the user asked for
    these dates back and does not get them."""
    found, said = reverted.undo, []
    unknown = found.unknown
    if unknown and found.cleared_unknown:
        dates = sum(p.dates for p in unknown)
        said.append(f"cleared (n/a, --clear-unknown): {plural(dates, 'date')} whose earlier value the journal never"
                    f" saw: {_named(unknown)}")  # fmt: skip
    elif unknown:
        dates = sum(p.dates for p in unknown)
        clear = " (--clear-unknown sends n/a for them)" if of(reverted.operation).clearable else ""
        said.append(f"left alone: {plural(dates, 'date')} whose earlier value the journal never saw (never pushed from"
                    f" here, or by runs since pruned): {_named(unknown)}{clear}")  # fmt: skip
    for run, dates in sorted(found.later_runs().items()):
        pieces = [p for p in found.later if p.later == run]
        said.append(f"left alone: {plural(dates, 'date')} that run {run} changed again after run {reverted.source.id}:"
                    f" {_named(pieces)} (--force puts them back anyway)")  # fmt: skip
    return said


def _piece_dict(piece: Piece) -> dict[str, Any]:
    key = piece.key
    found: dict[str, Any] = {
        "propertyid": key[0], "roomid": key[1], "rateid": key[2] if len(key) > 2 else None,
        "start": piece.start.isoformat(), "end": piece.end.isoformat(), "dates": piece.dates,
    }  # fmt: skip
    if piece.later is not None:
        found["run"] = piece.later
    return found


def document(reverted: Reverted, show_all: bool) -> dict[str, Any]:
    """The diff document of the revert, with the run it reverts and the dates it leaves alone."""
    shown = reverted.view(show_all)
    found = reverted.undo
    return {
        **render_diff.head(shown),
        "reverts": reverted.source.id,
        "runs": list(reverted.runs),
        "dry_run": True,
        "summary": render_diff.summary_dict(shown.changes, shown.rows, shown.invalid, shown.skipped),
        "changes": [render_diff.change_dict(shown, change) for change in shown.listed()],
        "unknown": [_piece_dict(p) for p in found.unknown],
        "cleared_unknown": found.cleared_unknown,
        "later": [_piece_dict(p) for p in found.later],
    }


def write_json(reverted: Reverted, show_all: bool, stream: IO[str]) -> None:
    indent = 2 if stream.isatty() else None
    text = scrub(json.dumps(document(reverted, show_all), ensure_ascii=False, indent=indent))
    stream.write((json_printable(text) if stream.isatty() else text) + "\n")


def write_csv(reverted: Reverted, show_all: bool, stream: IO[str]) -> None:
    render_diff.write_csv(reverted.view(show_all), stream)


def table(reverted: Reverted, show_all: bool, out: Console) -> None:
    out.print(f"revert of run {reverted.source.id} ({reverted.source.command})", markup=False)
    render_diff.table(reverted.view(show_all), out)


def error_document(run: int | str, kind: str, message: str, hint: str | None) -> dict[str, Any]:
    """The document of a revert that stopped before it had a plan."""
    return {
        "reverts": run,
        "error": {"kind": kind, "message": scrub(message), "hint": None if hint is None else scrub(hint)},
        "summary": render_diff.summary_dict([]),
        "changes": [],
    }


def show(reverted: Reverted, shown: Shown, dry_run: bool, err: Console) -> ExitCode:
    """`revert`: its warnings and the dates it leaves alone on stderr; then the plan (a dry run, or nothing to put
    back) as a table, one JSON document or CSV, or the run it made as a push's; the exit code."""
    render.notices(reverted.warnings, err)
    render.notices(left_alone(reverted), err, label="note")
    if reverted.run is not None and reverted.options is not None:
        if reverted.connection is not None:  # the page names where the revert sent, as a push's does
            connection = reverted.connection
            shown = replace(shown, base_url=connection.base_url, source_id=connection.source_id)
        code = show_run(reverted.run, shown, False, reverted.number, err)
        if reverted.number is not None and not shown.quiet:
            err.print(f"run {reverted.number} reverts run {reverted.source.id}; `ari-cli revert {reverted.number}`"
                      " undoes it", markup=False)  # fmt: skip
        return code
    if not dry_run and not shown.quiet:
        err.print(f"run {reverted.source.id}: nothing to put back", markup=False)
    show_all = bool(shown.show_all)
    if shown.form == "json":
        write_json(reverted, show_all, sys.stdout)
    elif shown.form == "csv":
        write_csv(reverted, show_all, sys.stdout)
    else:
        table(reverted, show_all, render.console())
    return ExitCode.OK
