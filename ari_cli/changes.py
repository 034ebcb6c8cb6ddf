"""`--changed-only`: keep the dates whose planned value differs from what the service last accepted. Pure.

The caller reads the accepted values from the journal; here a record becomes the runs of its dates
that still differ, and a row none of whose dates differ is skipped with a note saying so.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping
from dataclasses import replace

from ari_cli.plan import Plan, Record

ONE_DAY = dt.timedelta(days=1)
UNCHANGED = "unchanged: the journal says the service already has these values (--changed-only)"

Accepted = Mapping[tuple[str, ...], Mapping[dt.date, str]]


def _changed_runs(record: Record, value: str, known: Mapping[dt.date, str]) -> list[tuple[dt.date, dt.date]]:
    runs: list[tuple[dt.date, dt.date]] = []
    start: dt.date | None = None
    day = record.start
    while day <= record.end:
        if known.get(day) != value:
            start = day if start is None else start
        elif start is not None:
            runs.append((start, day - ONE_DAY))
            start = None
        day += ONE_DAY
    if start is not None:
        runs.append((start, record.end))
    return runs


def keep_changed(plan: Plan, value_of: Callable[[Record], str], accepted: Accepted) -> Plan:
    """The plan with only the dates that differ from `accepted`; rows left with nothing to send are skipped."""
    records: list[Record] = []
    sending: set[int] = set()
    for record in plan.records:
        known = accepted.get(record.key)
        runs = _changed_runs(record, value_of(record), known) if known else [(record.start, record.end)]
        for start, end in runs:
            records.append(replace(record, start=start, end=end))
        if runs:
            sending.update(record.refs)
    planned = {ref for record in plan.records for ref in record.refs}
    skipped = dict(plan.skipped)
    for ref in sorted(planned - sending):
        skipped[ref] = UNCHANGED
    return Plan(records, skipped, plan.invalid, plan.warnings, plan.notes, plan.row_notes)
