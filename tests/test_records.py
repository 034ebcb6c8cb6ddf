"""Row validation: every message names its file, line and column in a revenue manager's words."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

import pytest

from ari_cli.inputs import ListedPart, SourceRow
from ari_cli.records.check import check_rows
from ari_cli.records.memo import MEMO_MOST
from ari_cli.records.policy import Policy
from ari_cli.records.rules import DateOptions, RowView
from ari_cli.records.table import Value
from ari_cli.wire.models import Operation

DATES = DateOptions(dt.date(2027, 1, 1))
POLICY = {
    "propertyid": "H1", "roomid": "DBL", "rateid": "BAR", "start": "2027-02-01", "end": "2027-02-10",
    "refundable": "true", "level": "1", "policyid": "2", "dayspriorcheckin": "7", "penaltytype": "3",
    "penaltyamount": "100", "penaltyapplied": "3", "depositpolicy": "not required", "deposittype": "3",
    "depositamount": "30", "depositapplied": "4", "depositintervalunits": "0", "deposittimeinterval": "",
}  # fmt: skip


@dataclass(frozen=True)
class Setting:
    refs: tuple[int, ...]
    key: tuple[str, ...]
    start: dt.date
    end: dt.date
    days: frozenset[int] | None
    value: Value


@dataclass
class Parsed:
    errors: dict[int, list[str]]
    settings: list[Setting]
    views: list[RowView]


def parse_rows(source: list[SourceRow], operation: Operation, dates: DateOptions, single: bool = False) -> Parsed:
    """Rows checked as a run checks them: the problems of each row, the settings, the views."""
    table, settings = check_rows([ListedPart(source[0].source, source)], operation, dates, single)
    found = [
        Setting(settings.rows(i), kind.key, dt.date.fromordinal(settings.starts[i]),
                dt.date.fromordinal(settings.ends[i]), kind.days, kind.value)
        for i, kind in ((i, settings.kind_list[k]) for i, k in enumerate(settings.kinds) if k >= 0)
    ]  # fmt: skip
    return Parsed(table.errors, found, list(table))


def rows(*changes: dict[str, Any], base: dict[str, Any] = POLICY) -> list[SourceRow]:
    return [SourceRow("p.csv", i + 2, {**base, **c}) for i, c in enumerate(changes)]


def errors(parsed_rows: list[SourceRow], operation: Operation = Operation.POLICY, single: bool = False) -> list[str]:
    parsed = parse_rows(parsed_rows, operation, DATES, single)
    return [m for i in sorted(parsed.errors) for m in parsed.errors[i]]


def test_two_levels_make_one_policy_sorted_by_level() -> None:
    parsed = parse_rows(rows({"level": "2", "dayspriorcheckin": "1"}, {"level": "1"}), Operation.POLICY, DATES)
    assert not parsed.errors
    (setting,) = parsed.settings
    assert isinstance(setting.value, Policy)
    assert [r.level for r in setting.value.rules] == [1, 2] and setting.refs == (0, 1)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"refundable": "maybe"}, "p.csv line 2, refundable: 'maybe' is not allowed; use true or false (or yes/no, ja/nein, oui/non, sí/no, sì/no, ja/nee, sim/não)"),
        ({"level": "3"}, "p.csv line 2, level: '3' is not allowed; use 1 (first level), 2 (second level)"),
        ({"policyid": "6"}, "p.csv line 2, policyid: 6 is above the maximum 5"),
        ({"penaltyamount": "0"}, "p.csv line 2, penaltyamount: 0 is below the minimum 1"),
        ({"penaltytype": "2"}, "p.csv line 2, penaltytype: '2' is not allowed; use 3 (percentage of the stay)"),
        ({"penaltyapplied": "5"}, "p.csv line 2, penaltyapplied: '5' is not allowed; use 3 (first night), 4 (full stay)"),
        ({"depositpolicy": "maybe"}, "p.csv line 2, depositpolicy: 'maybe' is not allowed; use required or not required"),
        ({"depositamount": "101"}, "p.csv line 2, depositamount: 101 is above the maximum 100"),
        ({"deposittimeinterval": "7"}, "p.csv line 2, deposittimeinterval: 7 is used only when depositintervalunits is 1"),
        ({"depositintervalunits": "1"}, "p.csv line 2, deposittimeinterval: is empty; with depositintervalunits 1"),
        ({"depositintervalunits": "1", "deposittimeinterval": "11"}, "deposittimeinterval: '11' is not allowed; use 1-10, 30, 45 or 60"),
        ({"refundable": "FALSE"}, "p.csv line 2, depositpolicy: must be required when refundable is false"),
        ({"dayspriorcheckin": "1.5"}, "p.csv line 2, dayspriorcheckin: '1.5' is not a whole number"),
    ],
)  # fmt: skip
def test_each_policy_value_problem_names_line_and_column(change: dict[str, str], message: str) -> None:
    assert any(message in m for m in errors(rows(change))), errors(rows(change))


@pytest.mark.parametrize(
    ("change", "ok"),
    [({"refundable": "TRUE"}, True), ({"refundable": "yes"}, True), ({"refundable": "No", "depositpolicy": "required"}, True),
     ({"penaltyamount": "100.0"}, True), ({"depositintervalunits": "1", "deposittimeinterval": "30"}, True),
     ({"deposittimeinterval": "0"}, True)],
)  # fmt: skip
def test_spreadsheet_spellings_are_accepted(change: dict[str, str], ok: bool) -> None:
    assert (errors(rows(change)) == []) is ok


def test_rows_of_one_policy_must_agree_and_levels_be_unique() -> None:
    found = errors(rows({}, {"level": "1"}))
    assert any("level 1 appears twice in one policy, also on p.csv line 2" in m for m in found)
    found = errors(rows({}, {"level": "2", "depositamount": "50"}))
    assert any("p.csv line 3, policy: deposit columns differ from p.csv line 2" in m for m in found)
    assert any("p.csv line 2, policy: another row of this policy is invalid" in m for m in found)
    found = errors(rows({}, {"level": "2", "refundable": "false", "depositpolicy": "required"}))
    assert any("refundable false differs from true on p.csv line 2" in m for m in found)


def test_object_form_cannot_carry_two_levels() -> None:
    found = errors(rows({}, {"level": "2"}), single=True)
    assert any("--data-form object" in m and "use --data-form list" in m for m in found)


def test_different_ranges_are_different_policies() -> None:
    parsed = parse_rows(rows({}, {"start": "2027-03-01", "end": "2027-03-02"}), Operation.POLICY, DATES)
    assert len(parsed.settings) == 2 and not parsed.errors


THRESHOLD = {"propertyid": "H1", "roomid": "DBL", "start": "2027-02-01", "end": "2027-02-10", "threshold": "3"}


@pytest.mark.parametrize(
    ("change", "value"),
    [({"threshold": "N/A"}, "n/a"), ({"threshold": "3.0"}, "3"), ({"threshold": 7}, "7"), ({"threshold": 0.0}, "0"),
     ({"threshold": " 12 "}, "12")],
)  # fmt: skip
def test_threshold_values_are_normalised(change: dict[str, Any], value: str) -> None:
    parsed = parse_rows(rows(change, base=THRESHOLD), Operation.THRESHOLD, DATES)
    assert not parsed.errors and parsed.settings[0].value == value


@pytest.mark.parametrize(
    ("change", "message"),
    [({"threshold": "1000"}, "threshold: 1000 is above the maximum 999"),
     ({"threshold": True}, "threshold: 'True' is not a whole number 0-999 or n/a to clear"),
     ({"start": "today+3", "end": "today+1"}, "end: 2027-01-02 is before the start 2027-01-04"),
     ({"days": "Funday"}, "p.csv line 2, days:")],
)  # fmt: skip
def test_threshold_problems(change: dict[str, Any], message: str) -> None:
    found = errors(rows(change, base=THRESHOLD), Operation.THRESHOLD)
    assert any(message in m for m in found), found


def test_equal_cells_of_other_types_are_judged_apart() -> None:
    # JSON's true, 1 and 1.0 are one key in a dict: what was made of one cell must not serve the others.
    checked = [{"threshold": 1}, {"threshold": True}, {"threshold": 1.0, "roomid": "TWN"}, {"threshold": True}]
    parsed = parse_rows(rows(*checked, base=THRESHOLD), Operation.THRESHOLD, DATES)
    assert parsed.errors == {
        1: ["p.csv line 3, threshold: 'True' is not a whole number 0-999 or n/a to clear"],
        3: ["p.csv line 5, threshold: 'True' is not a whole number 0-999 or n/a to clear"],
    }
    assert [(s.key, s.value) for s in parsed.settings] == [(("H1", "DBL"), "1"), (("H1", "TWN"), "1")]


def test_maxadv_time_range_starts_at_one() -> None:
    base = {**THRESHOLD, "rateid": "BAR", "time": "0"}
    del base["threshold"]
    found = errors(rows({}, base=base), Operation.MAXADV)
    assert any("time: 0 is below the minimum 1" in m for m in found)


def test_every_problem_of_a_row_is_reported_not_only_the_first() -> None:
    found = errors(rows({"threshold": "x", "roomid": "", "start": "soon"}, base=THRESHOLD), Operation.THRESHOLD)
    assert len(found) == 3


FAST_ROWS = [
    {"propertyid": "H1", "roomid": "DBL", "start": "2027-02-01", "end": "2027-02-10", "threshold": "3"},
    {"propertyid": "H1", "roomid": "DBL", "date": "2027-02-11", "threshold": "n/a"},
    {"propertyid": "H1", "roomid": "TWN", "start": "2027-02-01", "end": "2027-02-01", "threshold": "0"},
    {"propertyid": "H1", "roomid": "TWN", "start": "2027-02-02", "end": "2027-02-03", "threshold": "999"},
    {"propertyid": "H1", "roomid": "TWN", "start": "2027-02-04", "end": "2027-02-05", "threshold": "N/A"},
    {"propertyid": "H1", "roomid": "TWN", "start": "today", "end": "today+3", "threshold": "4"},
    {"propertyid": "H1", "roomid": "TWN", "start": "2027-03-01", "end": "2027-03-09", "threshold": "05"},
    {"propertyid": "H1", "roomid": "SGL", "start": "2027-03-01", "end": "2027-03-09", "threshold": "3", "days": "Sat"},
]


@pytest.mark.parametrize("operation", [Operation.THRESHOLD, Operation.MAXADV])
def test_a_date_format_that_iso_dates_fit_changes_nothing(operation: Operation) -> None:
    """With --date-format %Y-%m-%d every row, valid or not, is what it is without it."""
    if operation is Operation.MAXADV:
        base = [
            {**{k: v for k, v in r.items() if k != "threshold"}, "rateid": "BAR", "time": r["threshold"]}
            for r in FAST_ROWS
        ]
    else:
        base = FAST_ROWS
    source = [SourceRow("f.csv", i + 2, dict(r)) for i, r in enumerate(base)]
    fast = parse_rows(source, operation, DATES)
    precise = parse_rows(source, operation, DateOptions(DATES.today, "%Y-%m-%d"))
    assert fast.views == precise.views
    assert fast.settings == precise.settings
    assert fast.errors == precise.errors


def test_rooms_past_a_full_memo_keep_their_kind_and_their_key_its_rows() -> None:
    # A file of a distinct room per row fills the checker's memos, which start over: a room seen before then
    # is still one kind and one key, whose rows are planned together.
    count = MEMO_MOST + 10
    distinct = [{"roomid": f"R{i}", "threshold": str(i % 2)} for i in range(count)]
    again = [{"roomid": f"R{i}", "threshold": str(i % 2)} for i in range(5)]
    source = rows(*distinct, *again, base=THRESHOLD)
    table, settings = check_rows([ListedPart("p.csv", source)], Operation.THRESHOLD, DATES)
    assert [table.kinds[count + i] for i in range(5)] == [table.kinds[i] for i in range(5)]
    assert len(settings.kind_list) == count
    keys = [(key, found) for key, _, found in settings.by_key()]
    assert len(keys) == count
    assert keys[:2] == [(("H1", "R0"), [0, count]), (("H1", "R1"), [1, count + 1])]
    assert keys[-1] == ((("H1", f"R{count - 1}")), [count - 1])
