"""The journal's part in a push: opened to record the run, read for --changed-only, by the guards and by
--confirm's diff (which this module offers too, as they read it).

`app/push.py` imports this module only for a run that records or reads the journal: a plain dry run loads no
sqlite3 (tests/test_startup.py). `retry` and `revert` start their runs with `run_start` as a push does.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ari_cli.app.diff import check_confirm as check_confirm
from ari_cli.app.diff import confirm_push as confirm_push
from ari_cli.app.elsewhere import note
from ari_cli.app.guards import for_push as for_push
from ari_cli.app.options import ConnectionOptions
from ari_cli.config.options import Connection
from ari_cli.config.secrets import mask
from ari_cli.journal.before import held_at
from ari_cli.journal.database import read_through
from ari_cli.journal.queries import acknowledged
from ari_cli.journal.recorder import Recorder, open_journal
from ari_cli.journal.store import Journal, RunStart, reading
from ari_cli.pipeline import HeldAt, Known, Prepared, PushOptions
from ari_cli.planning.changes import Acknowledged
from ari_cli.wire.operations import Operation


def run_start(
    command: str,
    flags: ConnectionOptions,
    recorded: dict[str, Any],
    options: PushOptions,
    connection: Connection,
    environ: Mapping[str, str],
) -> RunStart:
    """What the journal keeps of a run as it starts."""
    operation = options.operation.value
    profile = flags.profile or environ.get("ARI_PROFILE") or None
    return RunStart(command or f"ari-cli {operation} push", operation, profile, connection.base_url,
                    connection.source_id, recorded, options.files, sandbox=flags.sandbox,
                    sharepost=mask(connection.api_key))  # fmt: skip


def open_for_run(warn: Callable[[str], None], environ: Mapping[str, str]) -> tuple[Journal | None, Recorder | None]:
    """The journal and its recorder, or none when the journal cannot be opened."""
    journal = open_journal(environ, warn)
    return journal, None if journal is None else Recorder(journal, warn)


def elsewhere_notes(
    journal: Journal | None,
    operation: Operation,
    connection: Connection | None,
    prepared: Prepared,
    environ: Mapping[str, str],
) -> list[str]:
    """Whether the journal holds nothing of the files' properties for this service but some for another base URL
    with the same source id (`app/elsewhere.py`): the sentence, or nothing. Read as the guards read it: through
    the run's journal, or (a dry run, --no-journal) the journal opened to read."""
    if connection is None:
        return []

    properties = {record.propertyid for record in (prepared.whole or prepared.plan).records}
    if journal is None:
        with reading(environ) as db:
            said = note(db, operation.value, connection.base_url, connection.source_id, properties)
        return [said] if said else []
    with read_through(journal.path):
        said = note(journal.db, operation.value, connection.base_url, connection.source_id, properties)
    return [said] if said else []


def held_for(journal: Journal | None, operation: Operation, connection: Connection | None) -> HeldAt | None:
    """What the service held at an exported file's run (`before.held_at`), for its conflicts."""
    if journal is None or connection is None:
        return None
    db, base, source = journal.db, connection.base_url, connection.source_id

    def held(properties: set[str], run: int) -> Acknowledged:
        with read_through(journal.path):
            return held_at(db, operation.value, base, source, run, properties)

    return held


def known_for(journal: Journal | None, operation: Operation, connection: Connection | None) -> Known | None:
    if journal is None or connection is None:
        return None

    db, base, source = journal.db, connection.base_url, connection.source_id

    def known(properties: set[str]) -> Acknowledged:
        with read_through(journal.path):
            return acknowledged(db, operation.value, base, source, properties)

    return known


def held_before(
    journal: Journal | None,
    operation: Operation,
    connection: Connection | None,
    properties: set[str],
    environ: Mapping[str, str],
) -> Acknowledged:
    """What the service last acknowledged for `properties`, read before anything is sent: an HTML report marks
    as changing only what differs from it. Through the run's journal, or (a dry run, --no-journal) the journal
    opened to read; nothing without a connection or a journal (all then new, as `diff` says)."""
    if connection is None:
        return {}
    if journal is not None:
        with read_through(journal.path):
            return acknowledged(journal.db, operation.value, connection.base_url, connection.source_id, properties)
    with reading(environ) as db:
        if db is None:
            return {}
        return acknowledged(db, operation.value, connection.base_url, connection.source_id, properties)
