"""The guards of a push (and of its dry run, and what `diff` says of them): the limits in effect (flags over the
profile), judged against `diff`'s comparison of the plan with what the journal says the service holds, before
anything is sent. Prints nothing: a tripped guard is `GuardTripped`; notes are returned."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from ari_cli.app.options import GuardOptions, PushRequest
from ari_cli.config.options import Connection
from ari_cli.config.settings import Settings
from ari_cli.exits import ConfigError, GuardTripped, UsageProblem
from ari_cli.journal.coverage import covered, last_push
from ari_cli.journal.queries import acknowledged
from ari_cli.journal.store import reading
from ari_cli.operations import STEPPED_SAID, of
from ari_cli.pipeline import Prepared
from ari_cli.planning.batch import wire_value
from ari_cli.planning.changes import Key, Span
from ari_cli.planning.diff import diff
from ari_cli.planning.guards import Guards, Known, Verdict, judge, known_dates, planned_ranges
from ari_cli.planning.plan import Plan
from ari_cli.wire.operations import Operation

if TYPE_CHECKING:
    from ari_cli.journal.database import OpenJournal


def limits(flags: GuardOptions, settings: Settings, operation: Operation, files: bool = True) -> Guards:
    """The guards in effect, as `config/settings.py` read them: each flag over the profile's setting; a flag's limit
    that could not be read is a usage error now (a profile's was refused with the file). Without `files` (a send
    command's one setting), the profile's --min-coverage is not among them: it compares the files of pushes."""
    values = dict(settings.guards)
    if not files and flags.min_coverage is None:
        values.pop("min_coverage", None)
    for guard in values.values():
        if guard.problem is not None:
            raise guard.problem
    if not of(operation).steps and "max_step" in values:
        if flags.max_step is not None:
            raise UsageProblem(f"--max-step is for {STEPPED_SAID}: a {operation.value} has no number to step")
        values.pop("max_step")  # a profile shared by every operation: the step is theirs
    return Guards(**{name: guard.value for name, guard in values.items()})


def _service(settings: Settings) -> tuple[str, str] | None:
    try:
        return settings.service()
    except ConfigError:
        return None  # a dry run without configuration: nothing is known, every date is new


def verdict(
    guards: Guards,
    operation: Operation,
    plan: Plan,
    service: tuple[str, str] | None,
    db: OpenJournal | None,
    today: dt.date,
) -> Verdict:
    """What the guards say of `plan` against what the journal knows of `service`."""
    keys = {record.key for record in plan.records}
    spans: Mapping[Key, Sequence[Span]] = {}
    known = Known(0)
    if db is not None and service is not None:
        base, source = service
        found = acknowledged(db, operation.value, base, source, {key[0] for key in keys})
        spans = found
        last = last_push(db, operation.value, base, source) if guards.min_coverage is not None else None
        known = Known(known_dates(found, keys, today), last, None if last is None else covered(db, last, today))
    changes = diff(plan, lambda record: wire_value(operation, record), spans)
    planned = planned_ranges((r.key, r.start, r.end) for r in plan.records)
    return judge(guards, changes, known, planned)


def check(
    flags: GuardOptions,
    settings: Settings,
    operation: Operation,
    plan: Plan,
    db: OpenJournal | None,
    today: dt.date,
    environ: Mapping[str, str],
    service: tuple[str, str] | None = None,
    files: bool = True,
) -> list[str]:
    """The notes of the guards in effect; `GuardTripped` (nothing sent) when one trips, unless overridden."""
    guards = limits(flags, settings, operation, files)
    if not guards:
        return []
    where = service or _service(settings)
    if db is None:
        with reading(environ) as journal:
            found = verdict(guards, operation, plan, where, journal, today)
    else:
        found = verdict(guards, operation, plan, where, db, today)
    if not found.trips:
        return found.notes
    if flags.override:
        names = ", ".join(trip.name for trip in found.trips)
        return [*found.notes, f"--override-guards: pushing although {names} tripped"]
    lines = []
    for trip in found.trips:
        lines.append(trip.said)
        lines.extend(f"  {where}" for where in trip.ranges)
    raise GuardTripped(
        "a guard tripped, nothing was sent:\n" + "\n".join(lines),
        "if the change is meant, raise the limit (the flag, or the profile's setting), or give --override-guards"
        " to push anyway (--yes never passes a guard)",
        [trip.as_dict() for trip in found.trips],
    )


def said(flags: GuardOptions, settings: Settings, operation: Operation, plan: Plan, db: OpenJournal | None,
         today: dt.date, service: tuple[str, str]) -> list[str]:  # fmt: skip
    """What `diff` says of the guards: which would trip (with figure and limit), and the notes."""
    guards = limits(flags, settings, operation)
    if not guards:
        return []
    found = verdict(guards, operation, plan, service, db, today)
    return [*found.notes, *(f"a push would trip {trip.said}" for trip in found.trips)]


def for_push(
    request: PushRequest, settings: Settings, prepared: Prepared, connection: Connection | None,
    db: OpenJournal | None, environ: Mapping[str, str],
) -> list[str]:  # fmt: skip
    """A push's or a send's guards, before anything is journaled or sent: their notes, or `GuardTripped`. No guard
    is on unless a flag or the profile sets one; a send's one setting is judged by all but --min-coverage.
    `retry`, `revert` and `replay` are not judged again (they do not come here)."""
    if request.guards == GuardOptions() and not settings.guards:
        return []
    service = (connection.base_url, connection.source_id) if connection is not None else None
    plan = prepared.whole or prepared.plan  # with --changed-only, the files' whole plan
    today = request.plan.today or dt.date.today()
    files = request.rows is None
    return check(request.guards, settings, request.operation, plan, db, today, environ, service, files)
