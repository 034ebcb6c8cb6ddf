"""The report file (`--report`) and the document a stopped run still owes.

A report is checked before anything is sent (`check_report` in `app/push_settings.py`), so that a run never
sends and then finds it cannot say what it did; it is written to a temporary file beside the target and
renamed, so a reader never sees half of one and a failed write never destroys the previous report. A run that
stops before it has rows (a file that cannot be read, a configuration error, an interrupt) still gives
`--output json` and `--report` one document, with an `error` beside what is known.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable
from contextlib import suppress
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from ari_cli.config.secrets import scrub
from ari_cli.render.html.data import run_about, stopped_about, write_run, write_stopped
from ari_cli.render.push.run import csv_fields, csv_line, write_csv, write_json
from ari_cli.results import Run, summary
from ari_cli.wire.operations import Operation

if TYPE_CHECKING:
    from ari_cli.planning.changes import Acknowledged
    from ari_cli.render.html.page import About


def _mode(path: Path) -> int:
    """The permissions the report gets: the old report's, else what the umask gives a new file."""
    with suppress(OSError):
        return path.stat().st_mode & 0o777
    mask = os.umask(0o022)
    os.umask(mask)
    return 0o666 & ~mask


def write_atomically(path: Path, write: Callable[[IO[str]], object]) -> None:
    """`write` into a temporary file beside `path`, then rename it over `path`; nothing is left on failure."""
    descriptor, temporary = tempfile.mkstemp(dir=path.absolute().parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with open(descriptor, "w", encoding="utf-8", newline="") as stream:
            write(stream)
        os.chmod(temporary, _mode(path))
        os.replace(temporary, path)
    except BaseException:
        with suppress(OSError):
            os.unlink(temporary)
        raise


def write_report(run: Run, path: Path, about: About | None = None, before: Acknowledged | None = None) -> None:
    """The per-row results to a `.csv` or `.json` file, as `--output csv` or `--output json` writes them, or
    to an `.html` page (`render/html/data.py`) headed by `about`, marking what differs from `before`."""
    if _is_html(path):
        heading = about or run_about(run, (), None, None, None)
        write_atomically(path, lambda stream: write_run(run, heading, stream, before))
        return
    write_atomically(path, lambda stream: (write_json if _is_json(path) else write_csv)(run, stream))


def _is_html(path: Path) -> bool:
    return path.suffix.lower() == ".html"


def _is_json(path: Path) -> bool:
    return path.suffix.lower() == ".json"


def error_document(operation: Operation, dry_run: bool, kind: str, message: str, hint: str | None) -> dict[str, Any]:
    """The document of a run that stopped before it had rows: the error, and counts of nothing."""
    return {
        "operation": operation.value,
        "dry_run": dry_run,
        "error": {"kind": kind, "message": scrub(message), "hint": None if hint is None else scrub(hint)},
        "summary": summary(0, 0, 0),
        "rows": [],
        "requests": [],
    }


def write_error_document(document: dict[str, Any], stream: IO[str]) -> None:
    """The stopped run's document, indented for a person at a terminal, compact otherwise."""
    indent = 2 if stream.isatty() else None
    stream.write(json.dumps(document, ensure_ascii=False, indent=indent) + "\n")
    stream.flush()


def write_error_report(document: dict[str, Any], path: Path, about: About | None = None) -> None:
    """A stopped run's report: its document as JSON, a page headed by `about`, or the CSV header alone (there are
    no rows to list)."""
    if _is_json(path):
        write_atomically(path, lambda stream: write_error_document(document, stream))
    elif _is_html(path):
        heading = about or stopped_about(document, (), None, None, None)
        write_atomically(path, lambda stream: write_stopped(document, stream, heading))
    else:
        header = csv_fields(document["operation"])
        write_atomically(path, lambda stream: stream.write(csv_line(header) + "\n"))
