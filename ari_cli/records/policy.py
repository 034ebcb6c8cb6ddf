"""Cancellation and deposit policies: one row per cancellation level, grouped into whole policies.

Rows with the same property, room, rate, dates and weekday filter are one policy; their refundable
and deposit columns must agree. A row may instead name a policy of a --policies file.

An export repeats a few policy terms a million times: each distinct set of a level's cells, and of the
deposit's, is judged once a part (in a memo of bounded size, as `levels` judges its cells), and the rows
share the (immutable) model it makes; a row whose cells break a rule is checked again, so that its every
problem is worded with its line. A policy's words are made once per distinct policy.
"""

from __future__ import annotations

import datetime as dt
from array import array
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from ari_cli.exits import InputError
from ari_cli.inputs import Part
from ari_cli.inputs.languages import TRUTH_WORDS, YES_NO_SHOWN, fold
from ari_cli.inputs.looks import unseen
from ari_cli.inputs.names import NAMED_POLICY, POLICY_VALUES
from ari_cli.operations.policy import POLICY
from ari_cli.records.dates import LayoutTally
from ari_cli.records.memo import Judged
from ari_cli.records.rules import (
    DateOptions,
    RowErrors,
    choice,
    date_range,
    days_text,
    number,
    required_text,
    text,
    view,
    whole,
)
from ari_cli.records.strays import line_problems
from ari_cli.records.table import NO_KIND, Kind, RowTable, Settings
from ari_cli.records.words import describe_policy
from ari_cli.wire.models import CancellationRule, Deposit
from ari_cli.wire.operations import DEPOSIT_INTERVALS, PERCENT_MAX, PERCENT_MIN, UNUSED_DEPOSIT_INTERVAL


@dataclass(frozen=True, slots=True)
class Policy:
    """A cancellation and deposit policy: the value a policy row group sets."""

    refundable: str
    rules: tuple[CancellationRule, ...]
    deposit: Deposit

    def describe(self) -> str:
        """The policy in words: free cancellation, penalties, deposit."""
        return describe_policy(self.refundable, self.rules, self.deposit)


MAX_POLICY_ROWS = 300_000
"""The most policy rows a run reads. A policy is a request of its own (days of sending at a service's few
requests a second), and a row costs about a kilobyte while it is grouped, planned and sent, whether or not its
room is new: the bound on keys (`table.MAX_KEYS`) does not hold a file of many dates for one room."""

PERCENT_OF_STAY = 3
"""The only penalty and deposit type the service knows: an empty penaltytype or deposittype means it."""
# A deposit that is not required has no amount, share or moment; the wire still wants them, so these
# stand in (the service reads them only for a required deposit).
_NOT_REQUIRED = {"depositamount": 1, "depositapplied": 3, "depositintervalunits": 0}
_DEPOSIT_POLICIES = {"required": "required", "not required": "not required", "notrequired": "not required"}
_APPLIED = {3: "first night", 4: "full stay"}


def _with_defaults(fields: Mapping[str, Any], defaults: Mapping[str, Any]) -> Mapping[str, Any]:
    """`fields` with each empty field of `defaults` given its default."""
    empty = [name for name in defaults if not text(fields.get(name))]
    return {**fields, **{name: defaults[name] for name in empty}} if empty else fields


def _deposit(errs: RowErrors, fields: Mapping[str, Any], lacking: Collection[str] = ()) -> Deposit | None:
    """The deposit of a row's cells; `lacking`: the columns of a required deposit that its file does not have."""
    policy_text = " ".join(text(fields.get("depositpolicy")).lower().replace("_", " ").split())
    policy = _DEPOSIT_POLICIES.get(policy_text)
    if policy is None:
        errs.add("depositpolicy", f"{policy_text!r} is not allowed; use required or not required")
    if policy == "required" and lacking:
        # Said once for the row, naming the columns: each of them "is empty" would send the user looking for cells.
        names = ", ".join(lacking)
        errs.add(
            "depositpolicy",
            f"a required deposit needs the column{'s' if len(lacking) > 1 else ''} {names}, which the file does "
            "not have: add them, or write not required (which needs no other deposit column)",
        )
        return None
    fields = _with_defaults(fields, {"deposittype": PERCENT_OF_STAY})
    if policy == "not required":
        fields = _with_defaults(fields, _NOT_REQUIRED)
    kind = choice(errs, fields, "deposittype", {3: "percentage"})
    amount = number(errs, fields, "depositamount", PERCENT_MIN, PERCENT_MAX)
    applied = choice(errs, fields, "depositapplied", _APPLIED)
    units = choice(errs, fields, "depositintervalunits", {1: "days before arrival", 0: "at booking"})
    interval_text = text(fields.get("deposittimeinterval"))
    interval: int | None = UNUSED_DEPOSIT_INTERVAL
    if units == 1:
        interval = whole(fields.get("deposittimeinterval"))
        if interval not in DEPOSIT_INTERVALS:
            allowed = "1-10, 30, 45 or 60"
            errs.add(
                "deposittimeinterval",
                f"{interval_text!r} is not allowed; use {allowed} (days before arrival)"
                if interval_text
                else f"is empty; with depositintervalunits 1 give {allowed} days",
            )
            interval = None
    elif units == 0 and interval_text and whole(interval_text) != 0:
        errs.add(
            "deposittimeinterval",
            f"{interval_text} is used only when depositintervalunits is 1 (days before arrival); "
            "leave it empty when the deposit is charged at booking",
        )
        interval = None
    if None in (policy, kind, amount, applied, units, interval):
        return None
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


def _refundable(errs: RowErrors, fields: Mapping[str, Any]) -> str | None:
    written = text(fields.get("refundable"))  # a spreadsheet's TRUE arrives as "TRUE" or "true"
    said = TRUTH_WORDS.get(fold(written))
    if said is None:
        errs.add("refundable", f"{written!r} is not allowed; use {YES_NO_SHOWN}")
        return None
    return "true" if said else "false"


def _non_refundable_deposit(errs: RowErrors, refundable: str | None, deposit: Deposit | None) -> None:
    if refundable == "false" and deposit and deposit.depositpolicy != "required":
        errs.add("depositpolicy", "must be required when refundable is false")


def build_policy(
    where: str, refundable: Any, levels: Sequence[tuple[str, Mapping[str, Any]]], deposit: Mapping[str, Any]
) -> tuple[Policy | None, list[str]]:
    """A policy from fields named as the policy columns are, checked by the same rules as policy rows.

    `where` starts each message; each level comes with its own (`..., levels entry 2`).
    """
    errs = RowErrors(where)
    value = _refundable(errs, {"refundable": refundable})
    built = _deposit(errs, deposit)
    _non_refundable_deposit(errs, value, built)
    rules: list[CancellationRule] = []
    for level_where, fields in levels:
        level_errs = RowErrors(level_where)
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


def _rule(errs: RowErrors, fields: Mapping[str, Any]) -> CancellationRule | None:
    fields = _with_defaults(fields, {"penaltytype": PERCENT_OF_STAY})
    level = choice(errs, fields, "level", {1: "first level", 2: "second level"})
    policyid = number(errs, fields, "policyid", 1, 5)
    days = number(errs, fields, "dayspriorcheckin", 0, 10_000)
    kind = choice(errs, fields, "penaltytype", {3: "percentage of the stay"})
    amount = number(errs, fields, "penaltyamount", PERCENT_MIN, PERCENT_MAX)
    applied = choice(errs, fields, "penaltyapplied", _APPLIED)
    if None in (level, policyid, days, kind, amount, applied):
        return None
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


_RULE_FIELDS = ("level", "policyid", "dayspriorcheckin", "penaltytype", "penaltyamount", "penaltyapplied")
"""The fields `_rule` reads."""
_DEPOSIT_FIELDS = (
    "depositpolicy", "deposittype", "depositamount", "depositapplied", "depositintervalunits", "deposittimeinterval",
)  # fmt: skip
"""The fields `_deposit` reads."""

_Model = TypeVar("_Model", CancellationRule, Deposit)


def _sound(
    check: Callable[[RowErrors, Mapping[str, Any]], _Model | None], names: tuple[str, ...]
) -> Callable[[tuple[Any, ...]], _Model | None]:
    """A judge for a memo of `check`: the model that the cells of `names` make, or None when they break a rule
    (a row is then checked again by `check`, so that each problem is worded with the row's line)."""

    def judge(cells: tuple[Any, ...]) -> _Model | None:
        errs = RowErrors("")
        found = check(errs, dict(zip(names, cells, strict=True)))
        return None if errs.messages else found

    return judge


_judge_rule = _sound(_rule, _RULE_FIELDS)
_judge_deposit = _sound(_deposit, _DEPOSIT_FIELDS)


def _level_words(rule: CancellationRule) -> str:
    """A level in short, as its row shows it until its policy is whole."""
    return f"L{rule.level}: {rule.dayspriorcheckin}d, {rule.penaltyamount}% {_APPLIED[rule.penaltyapplied]}"


def _whole(terms: tuple[str, tuple[CancellationRule, ...], Deposit]) -> tuple[Policy, str, tuple[str, ...]]:
    """A policy of these terms (refundable, rules, deposit), its words and its warnings: what every group of
    rows with equal terms shares."""
    policy = Policy(*terms)
    return policy, policy.describe(), tuple(policy_warnings(policy))


@dataclass(frozen=True, slots=True)
class _PolicyRow:
    """A valid level row, kept until its policy is whole: its models are shared with the rows of equal terms,
    and its place is its index in the table (the line a message names is found there when one is made)."""

    index: int
    group: tuple[tuple[str, str, str], int, int, frozenset[int] | None]  # key, first and last day, days
    days_text: str
    refundable: str
    rule: CancellationRule
    deposit: Deposit


def _named(
    errs: RowErrors,
    where: str,
    fields: Mapping[str, Any],
    name: str,
    named: Mapping[str, Policy] | None,
    folded: Mapping[str, Policy],
) -> Policy | None:
    """The policy a row names; its own level and deposit columns must then be empty."""
    if named is None:
        # Raised, not kept per row: every row would say the same, and the fix is one option.
        raise InputError(
            f'{errs.places.get(NAMED_POLICY, where)}: the policy column names "{name}", but no --policies FILE was '
            "given",
            hint="define the named policies in a TOML file and give it with --policies FILE",
        )
    given = [k for k in fields if k in POLICY_VALUES and text(fields[k])]
    if given:
        errs.add(
            NAMED_POLICY,
            f'"{name}" is a named policy, so leave {", ".join(given)} empty; '
            "a row gives either a named policy or its own level and deposit",
        )
    policy = folded.get(name.casefold())
    hidden = unseen(name)
    if policy is None and hidden is not None:
        # "flex7" with a zero-width space after it looks like flex7 and is not it: name what does not show.
        errs.add(NAMED_POLICY, f"holds {hidden}: type the policy's name again without it")
    elif policy is None:
        errs.add(NAMED_POLICY, f'no policy named "{name}" in --policies; the names are {", ".join(named) or "none"}')
    return policy


class PolicyChecker:
    """Checks the rows of policy parts into a RowTable, and groups them into policies."""

    def __init__(
        self, dates: DateOptions, table: RowTable, single_level: bool, named: Mapping[str, Policy] | None
    ) -> None:
        self.dates = dates
        self.table = table
        self.single_level = single_level  # --data-form object: a policy of one level only
        self.named = named
        # Names are matched ignoring case, looked up once per row: thousands of policies by thousands of rows.
        self._folded = {key.casefold(): policy for key, policy in (named or {}).items()}
        self._named_shown: dict[str, str] = {}  # a named policy in words, made once per name as written
        # A file of a distinct room per row keeps a key per row: its property and rate ids and its days are
        # each one object, shared by the rows, not one per row.
        self._names: dict[str, str] = {}
        self._days: dict[int, int] = {}
        self._rows: list[_PolicyRow] = []
        self._settings: list[tuple[tuple[int, ...], Kind, int, int]] = []  # (rows, kind, first day, last day)
        self.tally = LayoutTally()
        self.warnings: list[str] = []  # policies that are valid but unlikely to mean what they say
        self._rules: Judged[CancellationRule | None] = Judged(_judge_rule)
        self._deposits: Judged[Deposit | None] = Judged(_judge_deposit)
        self._lacking: tuple[str, ...] = ()  # the columns of a required deposit that the part does not have

    def add_part(self, part: Part) -> None:
        """Check each row of one part and add it to the table."""
        self.table.start_source(part.source)
        self.tally = LayoutTally()
        # Each part's cells are judged afresh: whether they may be remembered as themselves is the part's.
        self._rules = Judged(_judge_rule, part.plain_cells)
        self._deposits = Judged(_judge_deposit, part.plain_cells)
        self._lacking = tuple(name for name in POLICY.needed_by if name not in part.columns)
        for line, values in part.rows():
            if len(self.table) == MAX_POLICY_ROWS:
                raise InputError(
                    f"{part.source} line {line}: a run reads at most {MAX_POLICY_ROWS:,} policy rows (each policy "
                    "is a request of its own); nothing was sent",
                    hint="split the file by property and give each part on its own",
                )
            fields = {name: value for name, value in part.fields(values).items() if value is not None}
            self._row(part.source, line, fields, part.places(values))

    def _where(self, index: int) -> str:
        """Where a row of the table is, as a message names it: `file line 5`."""
        return f"{self.table.source(index)} line {self.table.lines[index]}"

    def _row(self, source: str, line: int, f: dict[str, Any], places: Mapping[str, str]) -> None:
        where = f"{source} line {line}"
        errs = RowErrors(where, places)
        propertyid = required_text(errs, f, "propertyid")
        propertyid = self._names.setdefault(propertyid, propertyid)
        roomid = required_text(errs, f, "roomid")
        rateid = required_text(errs, f, "rateid")
        rateid = self._names.setdefault(rateid, rateid)
        start, end, days = date_range(errs, f, self.dates, self.tally)
        key = (propertyid, roomid, rateid)
        name = text(f.get(NAMED_POLICY))
        if name:
            policy = _named(errs, where, f, name, self.named, self._folded)
            if policy and self.single_level and len(policy.rules) > 1:
                errs.add(
                    NAMED_POLICY,
                    f'"{name}" has {len(policy.rules)} levels and cannot be sent with --data-form object, '
                    "which carries one cancellation rule; use --data-form list",
                )
            shown = self._named_words(name, policy) if policy else name
            if errs.messages or not policy or not start or not end:
                self.table.add_view(view(source, line, f, shown, start, end), line_problems(errs, f))
                return
            kind = Kind(key, shown, days, days_text(f.get("days")), shown)
            first, last = self._ordinals(start, end)
            self.table.add(line, self.table.kind(kind), first, last)
            self._settings.append(((len(self.table) - 1,), kind._replace(value=policy), first, last))
            return
        if NAMED_POLICY in f and not any(text(f.get(k)) for k in POLICY_VALUES):
            errs.add(
                NAMED_POLICY, "is empty; give the name of a policy of --policies, or the level and deposit columns"
            )
            self.table.add_view(view(source, line, f, "", start, end), line_problems(errs, f))
            return
        refundable = _refundable(errs, f)
        rule = self._rules[tuple(map(f.get, _RULE_FIELDS))]
        if rule is None:  # checked again, so that each problem is worded with the row's line
            rule = _rule(errs, f)
        deposit = self._deposits[tuple(map(f.get, _DEPOSIT_FIELDS))]
        if deposit is None:
            deposit = _deposit(errs, f, self._lacking)
        _non_refundable_deposit(errs, refundable, deposit)
        if errs.messages or not rule or not deposit or not refundable or not start or not end:
            shown = _level_words(rule) if rule else f"level {text(f.get('level'))}"
            self.table.add_view(view(source, line, f, shown, start, end), line_problems(errs, f))
            return
        # The row's kind is given by `_group`, once its policy is whole: the policy's words, or its own level.
        first, last = self._ordinals(start, end)
        self.table.add(line, NO_KIND, first, last)
        group = (key, first, last, days)
        self._rows.append(_PolicyRow(len(self.table) - 1, group, days_text(f.get("days")), refundable, rule, deposit))

    def _ordinals(self, start: dt.date, end: dt.date) -> tuple[int, int]:
        """A row's first and last day as ordinals, each day one int object that the rows share."""
        first, last = start.toordinal(), end.toordinal()
        return self._days.setdefault(first, first), self._days.setdefault(last, last)

    def _named_words(self, name: str, policy: Policy) -> str:
        """A named policy as its rows show it: its name as written and its words."""
        shown = self._named_shown.get(name)
        if shown is None:
            shown = self._named_shown[name] = f"{name}: {policy.describe()}"
        return shown

    def settings(self) -> Settings:
        """The policies the rows give: named ones in row order, then the grouped ones."""
        self._group()
        self.table.close()
        kinds: list[Kind] = []
        for _, kind, _, _ in self._settings:
            kinds.append(kind)
        return Settings(
            kinds=array("l", range(len(kinds))),
            starts=array("l", (start for _, _, start, _ in self._settings)),
            ends=array("l", (end for _, _, _, end in self._settings)),
            kind_list=kinds,
            refs=[rows for rows, _, _, _ in self._settings],
        )

    def _group(self) -> None:
        """One policy per (property, room, rate, start, end, days); its rows must agree."""
        table = self.table
        groups: dict[tuple[Any, ...], list[_PolicyRow]] = {}
        for row in self._rows:
            groups.setdefault(row.group, []).append(row)
        self._rows = []
        # Equal terms make one policy, described once (plain: its rules and deposit are models, not cells).
        wholes = Judged(_whole, plain=True)
        for (key, first_day, last_day, days), members in groups.items():
            problems = _problems(members, self.single_level, self._where)
            if problems:
                for member in members:  # each row shows its own level
                    shown = _level_words(member.rule)
                    table.kinds[member.index] = table.kind(Kind(key, shown, days, member.days_text, shown))
                for index, message in problems:
                    table.errors.setdefault(index, []).append(f"{self._where(index)}, policy: {message}")
                for member in members:
                    if member.index not in table.errors:
                        table.errors[member.index] = [
                            f"{self._where(member.index)}, policy: another row of this policy is invalid"
                        ]
                continue
            first = members[0]
            rules = tuple(sorted((m.rule for m in members), key=lambda r: r.level))
            policy, words, warnings = wholes[(first.refundable, rules, first.deposit)]
            self.warnings.extend(f"{self._where(first.index)}: {warning}" for warning in warnings)
            for member in members:  # each level row shows the whole policy it belongs to, in words
                table.kinds[member.index] = table.kind(Kind(key, words, days, member.days_text, words))
            kind = Kind(key, policy, days, first.days_text, words)
            self._settings.append((tuple(m.index for m in members), kind, first_day, last_day))


def policy_warnings(policy: Policy) -> list[str]:
    """What a valid policy says that a person rarely means: levels out of order, or free cancellation on a
    policy that is not refundable."""
    warnings: list[str] = []
    by_level = {rule.level: rule for rule in policy.rules}
    if 1 in by_level and 2 in by_level and by_level[2].dayspriorcheckin >= by_level[1].dayspriorcheckin:
        warnings.append(
            f"level 2's deadline ({by_level[2].dayspriorcheckin} days before arrival) is not nearer arrival than "
            f"level 1's ({by_level[1].dayspriorcheckin}); level 2 usually applies closer to arrival"
        )
    free = [rule for rule in policy.rules if rule.dayspriorcheckin > 0]
    if policy.refundable == "false" and free:
        warnings.append(
            f"refundable is false, yet level {free[0].level} allows free cancellation until "
            f"{free[0].dayspriorcheckin} days before arrival; both are sent as written"
        )
    return warnings


def _problems(members: list[_PolicyRow], single_level: bool, where: Callable[[int], str]) -> list[tuple[int, str]]:
    """What keeps the level rows of one policy from being one policy: (row, why); `where` names a row."""
    first = members[0]
    problems: list[tuple[int, str]] = []
    seen: dict[int, _PolicyRow] = {}
    for other in members:
        if other.refundable != first.refundable:
            why = (
                f"refundable {other.refundable} differs from {first.refundable} on {where(first.index)} "
                "of the same policy"
            )
            problems.append((other.index, why))
        if other.deposit != first.deposit:
            why = (
                f"deposit columns differ from {where(first.index)}; "
                "every level row of a policy carries the same deposit"
            )
            problems.append((other.index, why))
        twin = seen.get(other.rule.level)
        if twin is not None:
            why = f"level {other.rule.level} appears twice in one policy, also on {where(twin.index)}"
            problems.append((other.index, why))
        seen.setdefault(other.rule.level, other)
    if single_level and len(members) > 1:
        why = (
            f"a policy with {len(members)} levels cannot be sent with --data-form object, which carries one "
            "cancellation rule; use --data-form list"
        )
        problems.append((members[1].index, why))
    return problems
