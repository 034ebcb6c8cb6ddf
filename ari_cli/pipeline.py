"""One push run, stage by stage: read -> validate -> plan -> batch -> send -> attribute."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any, BinaryIO

from ari_cli.config.options import Connection
from ari_cli.exits import InputError
from ari_cli.inputs import ListedPart, ReadOptions, ReadResult, SourceRow, read_rows
from ari_cli.inputs.reader import read_objects
from ari_cli.operations import of
from ari_cli.planning.batch import DataForm, Envelope, build_body, make_batches, wire_value
from ari_cli.planning.changes import Acknowledged, Conflict, conflicts, keep_changed, without
from ari_cli.planning.plan import Plan, PlanOptions, plan
from ari_cli.records.check import check_rows
from ari_cli.records.named import load_policies, parse_policies
from ari_cli.records.rules import DateOptions
from ari_cli.records.table import RowTable
from ari_cli.results import Run, attribute
from ari_cli.send.exchange import Exchange, Route, SendOptions, Watcher
from ari_cli.wire.operations import Operation, path_segment, push_url

UNSENT_NOTE = "not sent: the input has invalid rows; fix them, or give --skip-invalid to send the valid ones"


@dataclass(frozen=True, slots=True)
class PushOptions:
    """Everything a push run needs besides the connection."""

    operation: Operation
    files: tuple[str, ...]
    today: dt.date
    read: ReadOptions = field(default_factory=ReadOptions)
    date_format: str | None = None
    policies: str | None = None  # a --policies TOML file of named policies
    merge: bool = True
    last_wins: bool = False
    batch_size: int = 50
    data_form: DataForm = DataForm.LIST
    skip_invalid: bool = False
    dry_run: bool = False
    changed_only: bool = False
    force: bool = False  # send an exported file's conflicting dates (`changes.conflicts`)
    send: SendOptions = field(default_factory=SendOptions)


@dataclass
class Prepared:
    """A run read, validated and planned: what --dry-run shows and what is sent."""

    rows: RowTable
    plan: Plan
    exchanges: list[Exchange]
    warnings: list[str]
    notes: list[str] = field(default_factory=list)
    """What was read that a user may like to know (a row skipped, the sheet read); --quiet hides them."""
    whole: Plan | None = None
    """With --changed-only, the plan before the unchanged dates were dropped (what the guards judge)."""
    ignored: list[tuple[str, str]] = field(default_factory=list)
    """(source, name) of each column left out."""
    exported_run: int | None = None
    """The run an exported file reflects, as its header names it (None: not an export)."""
    conflicts: list[Conflict] = field(default_factory=list)
    """An exported file's dates that a later push changed, still holding the exported value: not sent unless
    --force (and then the run exits as usual)."""
    held_back: bool = False
    """Whether the conflicts were left out (no --force): the run exits 1."""

    @property
    def invalid(self) -> bool:
        return bool(self.rows.errors or self.plan.invalid)


# What the service last acknowledged, per key, for some property ids (read from the journal).
Known = Callable[[set[str]], Acknowledged]
# What it held once a run (an export's) and those before it were acknowledged, for some property ids.
HeldAt = Callable[[set[str], int], Acknowledged]


def conflict_lines(found: Sequence[Conflict], held_back: bool) -> list[str]:
    """Each conflict said with both values: what the file holds (as exported) and what a later run set."""
    what = "not sent (--force sends it)" if held_back else "sent (--force)"
    return [
        f"conflict: {' '.join(c.key)} {c.start}..{c.end}: the file holds {c.exported} as exported, "
        f"the service holds {c.now} since run {c.run}: {what}"
        for c in found
    ]


def empty_sources(sources: Sequence[str], allowed: bool) -> list[str]:
    """The notes for files without rows, when --allow-empty says they may be empty; else the error."""
    messages = [f"{source} has no rows" for source in dict.fromkeys(sources)]
    if allowed:
        return messages
    raise InputError(
        "\n".join(messages),
        hint="check that the export wrote its rows; give --allow-empty if it may rightly be empty",
    )


def plan_input(
    options: PushOptions,
    stdin: BinaryIO | None = None,
    rows: Sequence[SourceRow] | None = None,
    objects: Iterable[Any] | None = None,
) -> Prepared:
    """Read (or take the given `rows`), validate and plan; nothing is batched (what a diff compares).

    `objects` are rows given from Python, read after the files as a JSON list of objects is.
    """
    if rows is None:
        read = read_rows(options.files, options.operation, options.read, stdin=stdin)
        if objects is not None:
            read = read_objects(objects, options.operation, options.read, read)
    else:
        read = ReadResult([ListedPart(rows[0].source, rows)] if rows else [])
    single = options.data_form is DataForm.OBJECT
    named = load_policies(options.policies) if options.policies else None
    if named is None and read.policies is not None:  # an exported workbook's own policies sheet
        named = parse_policies(*read.policies)
    dates = DateOptions(options.today, options.date_format)
    empty = list(read.empty)
    warnings = list(read.warnings)
    table, settings = check_rows(
        read.parts, options.operation, dates, single, named, empty if rows is None else None, warnings
    )
    notes = [*read.notes, *(note for part in read.parts for note in part.notes)]
    warnings.extend(warning for part in read.parts for warning in part.warnings)  # found as the rows were read
    if options.read.columns:
        mapped = ", ".join(f'{name} = "{header}"' for name, header in options.read.columns)
        notes.insert(0, f"columns mapped: {mapped}")
    if empty:
        notes.extend(empty_sources(empty, options.read.allow_empty))
    planned = plan(settings, table, PlanOptions(options.today, options.merge, options.last_wins))
    return Prepared(
        table, planned, [], warnings + planned.warnings, notes + planned.notes, ignored=read.ignored,
        exported_run=read.exported_run,
    )  # fmt: skip


def prepare(
    options: PushOptions,
    connection: Connection | None,
    stdin: BinaryIO | None = None,
    rows: Sequence[SourceRow] | None = None,
    known: Known | None = None,
    objects: Iterable[Any] | None = None,
    held_at: HeldAt | None = None,
) -> Prepared:
    """Read (or take the given `rows` or Python `objects`), validate, plan and batch; no network.

    `known` (with --changed-only) gives what the service last acknowledged, so that only changes are sent;
    `held_at` what it held at an exported file's run, so that the dates a later push changed are conflicts.
    """
    planned_input = plan_input(options, stdin, rows, objects)
    planned = planned_input.plan
    found: list[Conflict] = []
    warnings = planned_input.warnings
    if options.changed_only and known is not None:
        properties = {record.propertyid for record in planned.records}
        acknowledged = known(properties)
        value_of = partial(wire_value, options.operation)
        planned = keep_changed(planned, value_of, acknowledged)
        since = planned_input.exported_run
        if since is not None and held_at is not None:
            found = conflicts(planned, value_of, acknowledged, held_at(properties, since), since)
            warnings = [*warnings, *conflict_lines(found, not options.force)]
            if not options.force:
                planned = without(planned, found)
    exchanges = requests_for(options, connection, planned)
    return Prepared(planned_input.rows, planned, exchanges, warnings, planned_input.notes,
                    whole=planned_input.plan, ignored=planned_input.ignored, exported_run=planned_input.exported_run,
                    conflicts=found, held_back=bool(found) and not options.force)  # fmt: skip


def requests_for(options: PushOptions, connection: Connection | None, planned: Plan) -> list[Exchange]:
    """The plan's records batched into requests, bodies built, each aimed at its URL (placeholders without a
    connection); what a planned push and a revert's records go out as."""
    single = options.data_form is DataForm.OBJECT
    size = options.batch_size if of(options.operation).batched and not single else 1
    envelope = Envelope(connection.api_key, connection.source_id) if connection else Envelope()
    base = connection.base_url if connection else "<base_url>"
    source = connection.source_id if connection else envelope.sourceid
    template = connection.path_segment if connection else "{action}"
    # The body is made when it is sent or shown, not held from now until then.
    make = partial(body_of, options, envelope, planned)
    urls: dict[str, str] = {}  # a property's requests share its URL: a policy is a request of its own
    exchanges = []
    for number, batch in enumerate(make_batches(planned.records, size), start=1):
        url = urls.get(batch.propertyid)
        if url is None:
            segment = path_segment(template, options.operation.action, batch.propertyid)
            # Without configuration the spec's placeholders are shown, not URL-escaped.
            url = push_url(base, source, segment) if connection else f"{base}/v2/push_ari/{source}/{segment}"
            urls[batch.propertyid] = url
        exchanges.append(Exchange(number, batch.propertyid, batch.records, None, url, make=make))
    return exchanges


def body_of(options: PushOptions, envelope: Envelope, planned: Plan, indexes: Sequence[int]) -> dict[str, Any]:
    """The body of a request of some of the plan's records."""
    return build_body(options.operation, envelope, [planned.records[i] for i in indexes], options.data_form)


def execute(
    options: PushOptions,
    prepared: Prepared,
    connection: Connection | None,
    watch: Watcher | None = None,
    interruptible: bool = False,
    rebuild: Callable[[Sequence[int]], dict[str, Any]] | None = None,
) -> Run:
    """Send what was prepared (unless dry-run or invalid) and attribute the answers to rows.

    `rebuild` makes the body of some of a request's records when it is split (default: from the plan).
    """
    table, plan = prepared.rows, prepared.plan
    stop = prepared.invalid and not options.skip_invalid
    exchanges = prepared.exchanges
    interrupted = False
    if not options.dry_run and not stop and exchanges:
        assert connection is not None, "a run that sends has a connection"
        build = partial(body_of, options, Envelope(connection.api_key, connection.source_id), plan)

        # lazy: the HTTP client, loaded only by runs that send
        from ari_cli.send.http import send_all

        route = Route(build=rebuild or build, base_url=connection.base_url)
        exchanges, interrupted = send_all(exchanges, route, options.send, watch, interruptible=interruptible)
    if stop:
        rows = attribute(table, plan, [], dry_run=True).not_sent(UNSENT_NOTE)
        exchanges = []
    else:
        rows = attribute(table, plan, exchanges, options.dry_run)
    run = Run(options.operation, options.dry_run, rows, plan.records, exchanges, prepared.warnings, interrupted)
    run.ignored_columns = prepared.ignored
    run.held_back = len(prepared.conflicts) if prepared.held_back else 0
    return run
