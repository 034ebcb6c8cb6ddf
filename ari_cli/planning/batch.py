"""Batching planned records into requests, and building each request's body. Pure.

A property's records go out in ceil(records / batch size) requests, never in more, smaller ones,
and no request carries two records of one key whose dates overlap (the service answers 416).
"""

from __future__ import annotations

import datetime as dt
import functools
import json
import math
from array import array
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from itertools import groupby, pairwise
from operator import attrgetter
from typing import Any

from ari_cli.operations import of
from ari_cli.planning.plan import Record
from ari_cli.records.policy import Policy
from ari_cli.wire.models import BODY_MODELS, PolicyDetails, dump_body
from ari_cli.wire.operations import Operation

_DAY = dt.timedelta(days=1)
PLACEHOLDER_KEY = "<API_KEY>"
PLACEHOLDER_SOURCE = "<source_id>"


class DataForm(StrEnum):
    LIST = "list"
    OBJECT = "object"


@dataclass(frozen=True, slots=True)
class Envelope:
    """The credentials every body carries; placeholders when a dry run has no configuration."""

    sharepost: str = PLACEHOLDER_KEY
    sourceid: str = PLACEHOLDER_SOURCE


@dataclass(frozen=True, slots=True)
class Batch:
    """The records (indexes into the plan's records) of one request: in an array, not a tuple of ints (an int
    object a record: 48 MB of a run of 1.5 million records)."""

    propertyid: str
    records: Sequence[int]


def make_batches(records: Sequence[Record], size: int) -> list[Batch]:
    """Fill requests per property, in order of first appearance, without overlapping twins.

    A property's records are taken by key, then dates. A plan gives a key's records side by side, so
    the records are looked at as runs of one key, and a property's runs (a number each) are sorted by
    key: not a (key, start, end) tuple per record (1.7 million of them were a tenth of a big run's
    memory), nor a list per key (a file of a distinct room per row has as many keys as records).
    """
    runs_of: dict[str, array[int]] = {}  # per property, the first record of each run of one key
    key = None
    for index, record in enumerate(records):
        if record.key != key:
            key = record.key
            runs_of.setdefault(key[0], array("q")).append(index)

    def key_of(first: int) -> tuple[str, ...]:
        return records[first].key

    batches: list[Batch] = []
    for propertyid, runs in runs_of.items():
        # An array: a property's records in a list would be an int object each (60 MB of 1.5 million).
        ordered = array("q")
        # Sorted stably by key, a key's runs come together and in input order.
        for _, alike in groupby(sorted(runs, key=key_of), key_of):
            ordered.extend(_by_dates(records, [index for first in alike for index in _run(records, first)]))
        for group in _fill(records, ordered, size):
            batches.append(Batch(propertyid, array("q", group)))
    return batches


def _run(records: Sequence[Record], first: int) -> range:
    """The records of the run of one key that starts at `first`."""
    stop, key = first + 1, records[first].key
    while stop < len(records) and records[stop].key == key:
        stop += 1
    return range(first, stop)


_DATES = attrgetter("start", "end")


def _by_dates(records: Sequence[Record], indexes: list[int]) -> list[int]:
    """One key's records by dates, equal dates in input order (a plan gives them so already)."""
    return sorted(indexes, key=lambda index: _DATES(records[index]))


def _fill(records: Sequence[Record], ordered: Sequence[int], size: int) -> list[Sequence[int]]:
    """Cut sorted records into ceil(n / size) requests; open one more only when overlaps force it."""
    count = math.ceil(len(ordered) / size)
    if not _any_overlap(records, ordered):
        return [ordered[i * size : (i + 1) * size] for i in range(count)]
    groups: list[list[int]] = [[] for _ in range(count)]
    reach: list[dict[tuple[str, ...], dt.date]] = [{} for _ in range(count)]
    for index in ordered:
        record = records[index]
        fits = [
            g for g in range(len(groups))
            if len(groups[g]) < size and reach[g].get(record.key, record.start - _DAY) < record.start
        ]  # fmt: skip
        if not fits:
            groups.append([])
            reach.append({})
            fits = [len(groups) - 1]
        target = min(fits, key=lambda g: len(groups[g]))
        groups[target].append(index)
        reach[target][record.key] = max(reach[target].get(record.key, record.end), record.end)
    return [g for g in groups if g]


def _any_overlap(records: Sequence[Record], ordered: Sequence[int]) -> bool:
    return any(records[a].key == records[b].key and records[b].start <= records[a].end for a, b in pairwise(ordered))


def build_body(operation: Operation, envelope: Envelope, records: Sequence[Record], form: DataForm) -> dict[str, Any]:
    """The request body for some records of one property, as the wire models lay it out."""
    first = records[0]
    # The wire models check the source id's shape; a dry run without configuration validates with a
    # stand-in and shows the spec's placeholders instead.
    real = envelope.sourceid != PLACEHOLDER_SOURCE
    head = {
        "sharepost": envelope.sharepost,
        "sourceid": envelope.sourceid if real else "cpb00",
        "propertyid": first.propertyid,
    }
    layout = of(operation).layout
    if layout is None:  # a request is its one record's whole body: a policy's
        policy = first.value
        assert isinstance(policy, Policy)
        rules = list(policy.rules)
        details = PolicyDetails(cancellation=rules if form is DataForm.LIST else rules[0], deposit=policy.deposit)
        fields: dict[str, Any] = {
            **head,
            "roomid": first.key[1],
            "rateid": first.key[2],
            "startdate": first.start.isoformat(),
            "enddate": first.end.isoformat(),
            "refundable": policy.refundable,
            "policydetails": details,
        }
        body = dump_body(BODY_MODELS[operation](**fields))
    else:
        data = [layout(_iso(r.start), _iso(r.end), r.key, r.value) for r in records]
        # Laid out as the wire model dumps it, not built through it: validating a million-row run's
        # bodies again cost a tenth of its time, and every part was checked as its row was read (ids
        # not empty, plain ISO dates, values in range). Tests hold these bodies equal to the models'
        # dumps, and valid for them whatever rows are read.
        body = {**head, "action": operation.action, "data": data if form is DataForm.LIST else data[0]}
    if not real:
        body["sourceid"] = envelope.sourceid
    return body


@functools.lru_cache(maxsize=4096)
def _iso(day: dt.date) -> str:
    # A big run's records share a few hundred dates: each is written out once.
    return day.isoformat()


def policy_value(body: Mapping[str, Any]) -> str:
    """A policy as the service is told it, one text whatever the data form."""
    details = dict(body["policydetails"])
    cancellation = details.get("cancellation")
    if isinstance(cancellation, dict):
        details["cancellation"] = [cancellation]
    return json.dumps(
        {"refundable": body["refundable"], "policydetails": details},
        ensure_ascii=False,
        separators=(",", ":"),
        sort_keys=True,
    )


def wire_value(operation: Operation, record: Record) -> str:
    """The record's value as the body carries it: what the journal compares across runs."""
    if not of(operation).batched:
        return policy_value(build_body(operation, Envelope(), [record], DataForm.LIST))
    return str(record.value)
