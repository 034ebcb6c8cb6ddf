"""Validated settings per operation, built from input rows, with every error tied to its line.

A `Setting` is what one row (or, for policies, one group of level rows) asks for: a value for a
key (property, room[, rate]) over a date range, optionally filtered to some weekdays.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from ari_cli.exits import InputError
from ari_cli.fastpath import quick
from ari_cli.inputs import SourceRow
from ari_cli.inputs.columns import NAMED_POLICY, POLICY_VALUES
from ari_cli.records.dates import parse_date, parse_days
from ari_cli.records.words import describe_policy
from ari_cli.wire.operations import (
    CLEAR,
    DEPOSIT_INTERVALS,
    PERCENT_MAX,
    PERCENT_MIN,
    THRESHOLD_MAX,
    TIME_MAX,
    TIME_MIN,
    UNUSED_DEPOSIT_INTERVAL,
    Operation,
)

if TYPE_CHECKING:
    # The policy models need pydantic, loaded when a policy row is read: threshold and maxadv runs never need it.
    from ari_cli.wire.models import CancellationRule, Deposit


@dataclass(frozen=True, slots=True)
class RowView:
    """What the results table shows of an input row, valid or not."""

    source: str
    line: int
    propertyid: str = ""
    roomid: str = ""
    rateid: str = ""
    dates: str = ""
    value: str = ""


@dataclass(frozen=True, slots=True)
class Policy:
    """A cancellation and deposit policy: the value a policy row group sets."""

    refundable: str
    rules: tuple[CancellationRule, ...]
    deposit: Deposit

    def describe(self) -> str:
        """The policy in words: free cancellation, penalties, deposit."""
        return describe_policy(self.refundable, self.rules, self.deposit)


Value = Hashable


@dataclass(frozen=True, slots=True)
class Setting:
    """One row's (or policy group's) request: a value for a key over [start, end] on some weekdays."""

    refs: tuple[int, ...]
    key: tuple[str, ...]
    start: dt.date
    end: dt.date
    days: frozenset[int] | None
    value: Value


@dataclass
class Parsed:
    """The outcome of validating all rows: views, settings, and the errors of each invalid row."""

    views: Sequence[RowView] = field(default_factory=list)
    settings: list[Setting] = field(default_factory=list)
    errors: dict[int, list[str]] = field(default_factory=dict)


class _RowErrors:
    def __init__(self, where: str) -> None:
        self.where = where  # `file line 5`, or a place in a --policies file
        self.messages: list[str] = []

    def add(self, name: str, problem: str) -> None:
        self.messages.append(f"{self.where}, {name}: {problem}")


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value).strip()


def _whole(value: Any) -> int | None:
    """Spreadsheets write 3 as `3.0`; accept that, refuse fractions and words."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    text = _text(value)
    if text.endswith(".0"):
        text = text[:-2]
    if text.lstrip("-").isdigit() and text.isascii():
        try:
            return int(text)
        except ValueError:  # more digits than Python converts (4300): no number of ours is that long
            return None
    return None


def _number(errs: _RowErrors, fields: Mapping[str, Any], name: str, low: int, high: int, also: str = "") -> int | None:
    raw = fields.get(name)
    text = _text(raw)
    if not text:
        errs.add(name, f"is empty; give a whole number {low}-{high}{also}")
        return None
    number = _whole(raw)
    if number is None:
        errs.add(name, f"{text!r} is not a whole number {low}-{high}{also}")
    elif number < low:
        errs.add(name, f"{number} is below the minimum {low}")
    elif number > high:
        errs.add(name, f"{number} is above the maximum {high}")
    else:
        return number
    return None


def _choice(errs: _RowErrors, fields: Mapping[str, Any], name: str, allowed: dict[int, str]) -> int | None:
    raw = fields.get(name)
    number = _whole(raw)
    if number in allowed:
        return number
    options = ", ".join(f"{k} ({v})" for k, v in allowed.items())
    shown = _text(raw)
    errs.add(name, f"{shown!r} is not allowed; use {options}" if shown else f"is empty; use {options}")
    return None


def _level_value(errs: _RowErrors, fields: dict[str, Any], name: str, low: int, high: int) -> str | None:
    """A threshold or time: a whole number in range, or `n/a` to clear."""
    text = _text(fields.get(name))
    if text.lower() == CLEAR:
        return CLEAR
    number = _number(errs, fields, name, low, high, also=f" or {CLEAR} to clear")
    return None if number is None else str(number)


def _required_text(errs: _RowErrors, fields: dict[str, Any], name: str) -> str:
    text = _text(fields.get(name))
    if not text:
        errs.add(name, "is empty")
    return text


@dataclass(frozen=True, slots=True)
class DateOptions:
    """How dates are read: today's date and an optional strptime layout."""

    today: dt.date
    date_format: str | None = None


def _range(
    errs: _RowErrors, fields: dict[str, Any], dates: DateOptions
) -> tuple[dt.date | None, dt.date | None, frozenset[int] | None]:
    def one(name: str) -> dt.date | None:
        raw = fields.get(name)
        if isinstance(raw, dt.date):
            return raw
        text = _text(raw)
        if not text:
            errs.add(name, "is empty; give a date YYYY-MM-DD, today or today+N")
            return None
        try:
            return parse_date(text, dates.today, dates.date_format)
        except ValueError as problem:
            errs.add(name, str(problem))
            return None

    if "date" in fields:
        start = end = one("date")
    else:
        start, end = one("start"), one("end")
    if start and end and end < start:
        errs.add("end", f"{end.isoformat()} is before the start {start.isoformat()}")
    days: frozenset[int] | None = None
    days_text = _text(fields.get("days"))
    if days_text:
        try:
            days = parse_days(days_text)
        except ValueError as problem:
            errs.add("days", str(problem))
    return start, end, days


def _view(row: SourceRow, value: str, start: dt.date | None, end: dt.date | None) -> RowView:
    """The row as the table shows it: resolved dates where they parsed, the text otherwise."""
    f = row.fields
    if start and end:
        dates = start.isoformat() if start == end else f"{start.isoformat()}..{end.isoformat()}"
    elif "date" in f:
        dates = _text(f.get("date"))
    else:
        dates = f"{_text(f.get('start'))}..{_text(f.get('end'))}"
    if _text(f.get("days")):
        dates += f" ({_text(f.get('days'))})"
    return RowView(
        row.source, row.line, _text(f.get("propertyid")), _text(f.get("roomid")), _text(f.get("rateid")),
        dates, value,
    )  # fmt: skip


_REFUNDABLE = {"true": "true", "yes": "true", "false": "false", "no": "false"}
_DEPOSIT_POLICIES = {"required": "required", "not required": "not required", "notrequired": "not required"}
_APPLIED = {3: "first night", 4: "full stay"}


def _deposit(errs: _RowErrors, fields: Mapping[str, Any]) -> Deposit | None:
    policy_text = " ".join(_text(fields.get("depositpolicy")).lower().replace("_", " ").split())
    policy = _DEPOSIT_POLICIES.get(policy_text)
    if policy is None:
        errs.add("depositpolicy", f"{policy_text!r} is not allowed; use required or not required")
    kind = _choice(errs, fields, "deposittype", {3: "percentage"})
    amount = _number(errs, fields, "depositamount", PERCENT_MIN, PERCENT_MAX)
    applied = _choice(errs, fields, "depositapplied", _APPLIED)
    units = _choice(errs, fields, "depositintervalunits", {1: "days before arrival", 0: "at booking"})
    interval_text = _text(fields.get("deposittimeinterval"))
    interval: int | None = UNUSED_DEPOSIT_INTERVAL
    if units == 1:
        interval = _whole(fields.get("deposittimeinterval"))
        if interval not in DEPOSIT_INTERVALS:
            allowed = "1-10, 30, 45 or 60"
            errs.add(
                "deposittimeinterval",
                f"{interval_text!r} is not allowed; use {allowed} (days before arrival)"
                if interval_text
                else f"is empty; with depositintervalunits 1 give {allowed} days",
            )
            interval = None
    elif units == 0 and interval_text and _whole(interval_text) != 0:
        errs.add(
            "deposittimeinterval",
            f"{interval_text} is used only when depositintervalunits is 1 (days before arrival); "
            "leave it empty when the deposit is charged at booking",
        )
        interval = None
    if None in (policy, kind, amount, applied, units, interval):
        return None
    from ari_cli.wire.models import Deposit

    return Deposit.model_validate(
        {
            "depositpolicy": policy,
            "deposittype": kind,
            "depositamount": amount,
            "depositapplied": applied,
            "depositintervalunits": units,
            "deposittimeinterval": interval,
        }
    )


def _refundable(errs: _RowErrors, fields: Mapping[str, Any]) -> str | None:
    text = _text(fields.get("refundable"))  # a spreadsheet's TRUE arrives as "TRUE" or "true"
    refundable = _REFUNDABLE.get(text.lower())
    if refundable is None:
        errs.add("refundable", f"{text!r} is not allowed; use true or false")
    return refundable


def _non_refundable_deposit(errs: _RowErrors, refundable: str | None, deposit: Deposit | None) -> None:
    if refundable == "false" and deposit and deposit.depositpolicy != "required":
        errs.add("depositpolicy", "must be required when refundable is false")


def build_policy(
    where: str, refundable: Any, levels: Sequence[tuple[str, Mapping[str, Any]]], deposit: Mapping[str, Any]
) -> tuple[Policy | None, list[str]]:
    """A policy from fields named as the policy columns are, checked by the same rules as policy rows.

    `where` starts each message; each level comes with its own (`..., levels entry 2`).
    """
    errs = _RowErrors(where)
    value = _refundable(errs, {"refundable": refundable})
    built = _deposit(errs, deposit)
    _non_refundable_deposit(errs, value, built)
    rules: list[CancellationRule] = []
    for level_where, fields in levels:
        level_errs = _RowErrors(level_where)
        rule = _rule(level_errs, fields)
        if rule and any(other.level == rule.level for other in rules):
            level_errs.add("level", f"level {rule.level} appears twice in one policy")
        errs.messages += level_errs.messages
        if rule:
            rules.append(rule)
    if not levels:
        errs.add("levels", "none given; a policy has one or two cancellation levels")
    if errs.messages or value is None or built is None:
        return None, errs.messages
    return Policy(value, tuple(sorted(rules, key=lambda r: r.level)), built), []


def _rule(errs: _RowErrors, fields: Mapping[str, Any]) -> CancellationRule | None:
    level = _choice(errs, fields, "level", {1: "first level", 2: "second level"})
    policyid = _number(errs, fields, "policyid", 1, 5)
    days = _number(errs, fields, "dayspriorcheckin", 0, 10_000)
    kind = _choice(errs, fields, "penaltytype", {3: "percentage of the stay"})
    amount = _number(errs, fields, "penaltyamount", PERCENT_MIN, PERCENT_MAX)
    applied = _choice(errs, fields, "penaltyapplied", _APPLIED)
    if None in (level, policyid, days, kind, amount, applied):
        return None
    from ari_cli.wire.models import CancellationRule

    return CancellationRule.model_validate(
        {
            "policyid": policyid,
            "dayspriorcheckin": days,
            "penaltytype": kind,
            "penaltyamount": amount,
            "penaltyapplied": applied,
            "level": level,
        }
    )


@dataclass(frozen=True, slots=True)
class _PolicyRow:
    index: int
    line: str
    group: tuple[Any, ...]
    refundable: str
    rule: CancellationRule
    deposit: Deposit


def _named(errs: _RowErrors, row: SourceRow, name: str, named: Mapping[str, Policy] | None) -> Policy | None:
    """The policy a row names; its own level and deposit columns must then be empty."""
    if named is None:
        # Raised, not kept per row: every row would say the same, and the fix is one option.
        raise InputError(
            f'{row.source} line {row.line}: the policy column names "{name}", but no --policies FILE was given',
            hint="define the named policies in a TOML file and give it with --policies FILE",
        )
    given = [k for k in row.fields if k in POLICY_VALUES and _text(row.fields[k])]
    if given:
        errs.add(
            NAMED_POLICY,
            f'"{name}" is a named policy, so leave {", ".join(given)} empty; '
            "a row gives either a named policy or its own level and deposit",
        )
    policy = next((p for key, p in named.items() if key.casefold() == name.casefold()), None)
    if policy is None:
        errs.add(NAMED_POLICY, f'no policy named "{name}" in --policies; the names are {", ".join(named) or "none"}')
    return policy


def parse_level_row(
    index: int, row: SourceRow, operation: Operation, dates: DateOptions
) -> tuple[RowView, Setting | None, list[str]]:
    """A threshold or maxadv row, the `index`-th of the run, checked in full: its view, its setting
    when valid, and every problem it has."""
    f = row.fields
    errs = _RowErrors(f"{row.source} line {row.line}")
    propertyid = _required_text(errs, f, "propertyid")
    roomid = _required_text(errs, f, "roomid")
    rateid = _required_text(errs, f, "rateid") if operation is not Operation.THRESHOLD else ""
    start, end, days = _range(errs, f, dates)
    name = "threshold" if operation is Operation.THRESHOLD else "time"
    low, high = (0, THRESHOLD_MAX) if operation is Operation.THRESHOLD else (TIME_MIN, TIME_MAX)
    value = _level_value(errs, f, name, low, high)
    view = _view(row, _text(f.get(name)), start, end)
    if errs.messages or value is None or not start or not end:
        return view, None, errs.messages
    key = (propertyid, roomid, rateid) if rateid else (propertyid, roomid)
    return view, Setting((index,), key, start, end, days, value), []


def parse_rows(
    rows: Iterable[SourceRow],
    operation: Operation,
    dates: DateOptions,
    single_level: bool = False,
    named: Mapping[str, Policy] | None = None,
) -> Parsed:
    """Validate rows into settings; every problem of every row is kept, tied to its line.

    `named` holds the policies of --policies, which a policy row may give by name.
    """
    views: list[RowView] = []
    parsed = Parsed(views)
    policy_rows: list[_PolicyRow] = []
    levels = operation is not Operation.POLICY
    fast = levels and dates.date_format is None
    for index, row in enumerate(rows):
        f = row.fields
        hit = quick(f, operation) if fast else None
        if hit is not None:
            key, first, last, level, shown = hit
            view = RowView(row.source, row.line, key[0], key[1], key[2] if len(key) > 2 else "", shown, level)
            views.append(view)
            parsed.settings.append(Setting((index,), key, first, last, None, level))
            continue
        if levels:
            view, setting, messages = parse_level_row(index, row, operation, dates)
            views.append(view)
            if setting is not None:
                parsed.settings.append(setting)
            if messages:
                parsed.errors[index] = messages
            continue
        errs = _RowErrors(f"{row.source} line {row.line}")
        propertyid = _required_text(errs, f, "propertyid")
        roomid = _required_text(errs, f, "roomid")
        rateid = _required_text(errs, f, "rateid")
        start, end, days = _range(errs, f, dates)
        name = _text(f.get(NAMED_POLICY))
        if name:
            policy = _named(errs, row, name, named)
            if policy and single_level and len(policy.rules) > 1:
                errs.add(
                    NAMED_POLICY,
                    f'"{name}" has {len(policy.rules)} levels and cannot be sent with --data-form object, '
                    "which carries one cancellation rule; use --data-form list",
                )
            views.append(_view(row, f"{name}: {policy.describe()}" if policy else name, start, end))
            if not errs.messages and policy and start and end:
                parsed.settings.append(Setting((index,), (propertyid, roomid, rateid), start, end, days, policy))
        elif NAMED_POLICY in f and not any(_text(f.get(k)) for k in POLICY_VALUES):
            errs.add(
                NAMED_POLICY, "is empty; give the name of a policy of --policies, or the level and deposit columns"
            )
            views.append(_view(row, "", start, end))
        else:
            refundable = _refundable(errs, f)
            rule, deposit = _rule(errs, f), _deposit(errs, f)
            _non_refundable_deposit(errs, refundable, deposit)
            shown = f"level {_text(f.get('level'))}"
            if rule:
                applied = _APPLIED[rule.penaltyapplied]
                shown = f"L{rule.level}: {rule.dayspriorcheckin}d, {rule.penaltyamount}% {applied}"
            views.append(_view(row, shown, start, end))
            if not errs.messages and rule and deposit and refundable and start and end:
                group = (propertyid, roomid, rateid, start, end, days)
                where = f"{row.source} line {row.line}"
                policy_rows.append(_PolicyRow(index, where, group, refundable, rule, deposit))
        if errs.messages:
            parsed.errors[index] = errs.messages
    if policy_rows:
        _group_policies(policy_rows, views, parsed, single_level)
    return parsed


def _group_policies(rows: list[_PolicyRow], views: list[RowView], parsed: Parsed, single_level: bool) -> None:
    """One policy per (property, room, rate, start, end, days); its rows must agree."""
    groups: dict[tuple[Any, ...], list[_PolicyRow]] = {}
    for row in rows:
        groups.setdefault(row.group, []).append(row)
    for (propertyid, roomid, rateid, start, end, days), members in groups.items():
        first = members[0]
        problems: list[tuple[int, str]] = []
        seen: dict[int, _PolicyRow] = {}
        for other in members:
            if other.refundable != first.refundable:
                why = (
                    f"refundable {other.refundable} differs from {first.refundable} on {first.line} of the same policy"
                )
                problems.append((other.index, why))
            if other.deposit != first.deposit:
                why = f"deposit columns differ from {first.line}; every level row of a policy carries the same deposit"
                problems.append((other.index, why))
            twin = seen.get(other.rule.level)
            if twin is not None:
                problems.append(
                    (other.index, f"level {other.rule.level} appears twice in one policy, also on {twin.line}")
                )
            seen.setdefault(other.rule.level, other)
        if single_level and len(members) > 1:
            why = (
                f"a policy with {len(members)} levels cannot be sent with --data-form object, which carries one "
                "cancellation rule; use --data-form list"
            )
            problems.append((members[1].index, why))
        if problems:
            for index, message in problems:
                view = views[index]
                parsed.errors.setdefault(index, []).append(f"{view.source} line {view.line}, policy: {message}")
            for member in members:
                if member.index not in parsed.errors:
                    parsed.errors[member.index] = [
                        f"{views[member.index].source} line {views[member.index].line}, "
                        "policy: another row of this policy is invalid"
                    ]
            continue
        rules = tuple(sorted((m.rule for m in members), key=lambda r: r.level))
        policy = Policy(first.refundable, rules, first.deposit)
        refs = tuple(m.index for m in members)
        words = policy.describe()
        for member in members:  # each level row shows the whole policy it belongs to, in words
            views[member.index] = replace(views[member.index], value=words)
        parsed.settings.append(Setting(refs, (propertyid, roomid, rateid), start, end, days, policy))
