"""What an export holds, as tables of text: per property, a row per key and a column per date (a grid), or a
row per run of equal values (rows). Pure: given the spans the journal read, the window and the layout.

A cell holds the value the service acknowledged, `n/a` where it was cleared, and nothing where nothing is
known. A policy is a whole structure: its cell names it, and `named` gives each distinct policy a name and
its definition in the --policies file's own form (TOML), which `records/named.py` reads back."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ari_cli.choices import Layout
from ari_cli.operations.descriptor import Descriptor
from ari_cli.planning.changes import ONE_DAY, Key, Span, against


@dataclass(frozen=True, slots=True)
class Table:
    """One property's values: a sheet of a workbook, or its part of a CSV file."""

    propertyid: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    keys: int
    """How many columns at the left are ids (text as written, never a number)."""


def runs_of(spans: Sequence[Span], start: dt.date, end: dt.date) -> list[tuple[dt.date, dt.date, str]]:
    """The known dates of `start`..`end`, as runs of one value (neighbours set by different runs joined)."""
    found: list[tuple[dt.date, dt.date, str]] = []
    for first, last, span in against(spans, start, end):
        if span is None:
            continue
        if found and found[-1][1] + ONE_DAY == first and found[-1][2] == span.value:
            found[-1] = (found[-1][0], last, span.value)
        else:
            found.append((first, last, span.value))
    return found


def named(values: Sequence[str]) -> dict[str, str]:
    """Each distinct policy (the service's JSON, as the journal keeps it), in order, with its name."""
    return {value: f"policy{number}" for number, value in enumerate(dict.fromkeys(values), start=1)}


def tables(
    descriptor: Descriptor,
    spans: Mapping[Key, Sequence[Span]],
    start: dt.date,
    end: dt.date,
    layout: Layout,
    names: Mapping[str, str],
) -> list[Table]:
    """A table per property, keys in order; a key with nothing known in the window has no row."""
    keys = descriptor.key_fields
    days = [start + n * ONE_DAY for n in range((end - start).days + 1)]
    by_property: dict[str, list[tuple[str, ...]]] = {}
    for key in sorted(spans):
        runs = runs_of(spans[key], start, end)
        if not runs:
            continue
        rows = by_property.setdefault(key[0], [])
        if layout is Layout.ROWS:
            rows.extend((*key, a.isoformat(), b.isoformat(), names.get(v, v)) for a, b, v in runs)
            continue
        cells = dict.fromkeys((d.isoformat() for d in days), "")
        for a, b, value in runs:
            for n in range((b - a).days + 1):
                cells[(a + n * ONE_DAY).isoformat()] = names.get(value, value)
        rows.append((*key, *cells.values()))
    if layout is Layout.ROWS:
        columns: tuple[str, ...] = (*keys, "start", "end", descriptor.cell)
    else:
        columns = (*keys, *(d.isoformat() for d in days))
    return [Table(p, columns, tuple(rows), len(keys)) for p, rows in by_property.items()]


_LEVEL = ("policyid", "dayspriorcheckin", "penaltyamount", "penaltyapplied")
_DEPOSIT = ("policy", "amount", "applied", "intervalunits", "timeinterval")


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return str(value)
    return json.dumps(str(value), ensure_ascii=False)  # a TOML basic string is a JSON string


def _inline(fields: Mapping[str, Any]) -> str:
    return "{ " + ", ".join(f"{name} = {_toml(value)}" for name, value in fields.items()) + " }"


def policies_toml(names: Mapping[str, str]) -> str:
    """The named policies as a --policies file defines them: `[policies.NAME]` with refundable, levels, deposit."""
    out = ["# The policies this export's cells name: push it back with --policies naming this file."]
    for value, name in names.items():
        document = json.loads(value)
        details = document["policydetails"]
        refundable = str(document["refundable"]).strip().lower() == "true"
        levels = [{k: level[k] for k in _LEVEL if k in level} for level in details.get("cancellation") or []]
        deposit = {k: details["deposit"][f"deposit{k}"] for k in _DEPOSIT if f"deposit{k}" in details["deposit"]}
        if deposit.get("intervalunits") != 1:
            deposit.pop("timeinterval", None)  # only with units 1, as the policy rules say
        out += ["", f"[policies.{name}]", f"refundable = {_toml(refundable)}"]
        out.append("levels = [" + ", ".join(_inline(level) for level in levels) + "]")
        out.append(f"deposit = {_inline(deposit)}")
    return "\n".join(out) + "\n"
