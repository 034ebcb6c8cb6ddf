"""Planning rules: past ranges, clipping, weekday runs, merging, overlaps, last-wins. Pure."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import hypothesis
import pytest
from hypothesis import strategies as st

from ari_cli.planning.plan import Plan, PlanOptions, Record, plan
from ari_cli.records.rules import RowView
from ari_cli.records.table import Kind, Settings, Value


@dataclass(frozen=True)
class Setting:
    """One row's request, as a test writes it."""

    refs: tuple[int, ...]
    key: tuple[str, ...]
    start: dt.date
    end: dt.date
    days: frozenset[int] | None
    value: Value


def plan_settings(rows: list[Setting], views: list[RowView], options: PlanOptions) -> Plan:
    kinds = [Kind(r.key, r.value, r.days, "", str(r.value)) for r in rows]
    settings = Settings(
        kinds=list(range(len(rows))),
        starts=[r.start.toordinal() for r in rows],
        ends=[r.end.toordinal() for r in rows],
        kind_list=kinds,
        refs=[r.refs for r in rows],
    )
    return plan(settings, views, options)


TODAY = dt.date(2027, 1, 10)
KEY = ("H1", "DBL")


def d(day: str) -> dt.date:
    return dt.date.fromisoformat(day)


def settings(*rows: tuple[str, str, str] | tuple[str, str, str, tuple[str, ...]]) -> list[Setting]:
    out = []
    for i, row in enumerate(rows):
        start, end, value = row[0], row[1], row[2]
        key = row[3] if len(row) > 3 else KEY  # type: ignore[misc]
        out.append(Setting((i,), tuple(key), d(start), d(end), None, value))
    return out


def views(n: int) -> list[RowView]:
    return [RowView("f.csv", i + 2) for i in range(n)]


def spans(records: list[Record]) -> list[tuple[str, str, object, tuple[int, ...]]]:
    return [(r.start.isoformat(), r.end.isoformat(), r.value, tuple(r.refs)) for r in records]


def run(rows: list[Setting], **options: bool) -> tuple[list[tuple[str, str, object, tuple[int, ...]]], object]:
    plan = plan_settings(rows, views(len(rows)), PlanOptions(TODAY, **options))
    return spans(plan.records), plan


def test_adjacent_equal_ranges_merge_and_carry_every_row() -> None:
    got, _ = run(settings(("2027-02-01", "2027-02-01", "2"), ("2027-02-02", "2027-02-02", "2"),
                          ("2027-02-03", "2027-02-05", "3")))  # fmt: skip
    assert got == [("2027-02-01", "2027-02-02", "2", (0, 1)), ("2027-02-03", "2027-02-05", "3", (2,))]


def test_no_merge_keeps_records_as_read() -> None:
    got, _ = run(settings(("2027-02-01", "2027-02-01", "2"), ("2027-02-02", "2027-02-02", "2")), merge=False)
    assert got == [("2027-02-01", "2027-02-01", "2", (0,)), ("2027-02-02", "2027-02-02", "2", (1,))]


def test_overlapping_equal_values_merge() -> None:
    got, _ = run(settings(("2027-02-01", "2027-02-10", "2"), ("2027-02-05", "2027-02-20", "2")))
    assert got == [("2027-02-01", "2027-02-20", "2", (0, 1))]


def test_gap_prevents_merge() -> None:
    got, _ = run(settings(("2027-02-01", "2027-02-03", "2"), ("2027-02-05", "2027-02-06", "2")))
    assert len(got) == 2


def test_different_keys_never_merge() -> None:
    got, _ = run(settings(("2027-02-01", "2027-02-03", "2", ("H1", "DBL")),
                          ("2027-02-04", "2027-02-06", "2", ("H1", "TWN"))))  # fmt: skip
    assert [g[3] for g in got] == [(0,), (1,)]


def test_overlap_with_different_values_is_invalid_naming_both_lines() -> None:
    got, plan = run(settings(("2027-02-01", "2027-02-10", "2"), ("2027-02-05", "2027-02-20", "3"),
                             ("2027-03-01", "2027-03-02", "1")))  # fmt: skip
    assert got == [("2027-03-01", "2027-03-02", "1", (2,))]
    assert set(plan.invalid) == {0, 1}  # type: ignore[attr-defined]
    first = plan.invalid[0][0]  # type: ignore[attr-defined]
    assert "f.csv line 2" in first and "f.csv line 3" in first and "2027-02-05..2027-02-10" in first
    assert "--overlaps last-wins" in first


def test_last_wins_paints_later_rows_over_earlier() -> None:
    got, plan = run(settings(("2027-02-01", "2027-02-10", "2"), ("2027-02-05", "2027-02-06", "3")), last_wins=True)
    assert got == [
        ("2027-02-01", "2027-02-04", "2", (0,)),
        ("2027-02-05", "2027-02-06", "3", (1,)),
        ("2027-02-07", "2027-02-10", "2", (0,)),
    ]
    assert not plan.invalid  # type: ignore[attr-defined]


def test_last_wins_row_wholly_painted_over_is_skipped_not_lost() -> None:
    got, plan = run(settings(("2027-02-05", "2027-02-06", "3"), ("2027-02-01", "2027-02-10", "2")), last_wins=True)
    assert got == [("2027-02-01", "2027-02-10", "2", (1,))]
    assert 0 in plan.skipped  # type: ignore[attr-defined]


def test_wholly_past_range_is_skipped_and_past_start_is_clipped_with_warning() -> None:
    got, plan = run(settings(("2027-01-01", "2027-01-09", "2"), ("2027-01-05", "2027-01-20", "3")))
    assert got == [("2027-01-10", "2027-01-20", "3", (1,))]
    assert "ends 2027-01-09" in plan.skipped[0]  # type: ignore[attr-defined]
    assert any("f.csv line 3" in w and "sending from 2027-01-10" in w for w in plan.warnings)  # type: ignore[attr-defined]


def test_range_ending_today_is_sent() -> None:
    got, _ = run(settings(("2027-01-01", "2027-01-10", "2")))
    assert got == [("2027-01-10", "2027-01-10", "2", (0,))]


def test_weekday_filter_expands_into_maximal_runs() -> None:
    # 2027-02-01 is a Monday.
    rows = [Setting((0,), KEY, d("2027-02-01"), d("2027-02-14"), frozenset({4, 5, 6}), "4"),
            Setting((1,), KEY, d("2027-02-01"), d("2027-02-14"), frozenset({0, 1, 2, 3}), "1")]  # fmt: skip
    plan = plan_settings(rows, views(2), PlanOptions(TODAY))
    assert spans(plan.records) == [
        ("2027-02-01", "2027-02-04", "1", (1,)),
        ("2027-02-05", "2027-02-07", "4", (0,)),
        ("2027-02-08", "2027-02-11", "1", (1,)),
        ("2027-02-12", "2027-02-14", "4", (0,)),
    ]


def test_weekday_filter_matching_no_date_is_skipped() -> None:
    rows = [Setting((0,), KEY, d("2027-02-01"), d("2027-02-02"), frozenset({5}), "4")]
    plan = plan_settings(rows, views(1), PlanOptions(TODAY))
    assert plan.records == [] and "Sat" in plan.skipped[0]


def test_duplicate_rows_become_one_record_for_both() -> None:
    got, _ = run(settings(("2027-02-01", "2027-02-03", "2"), ("2027-02-01", "2027-02-03", "2")))
    assert got == [("2027-02-01", "2027-02-03", "2", (0, 1))]


@pytest.mark.parametrize("merge", [True, False])
def test_planning_is_deterministic(merge: bool) -> None:
    rows = settings(
        ("2027-02-01", "2027-02-10", "2"),
        ("2027-02-11", "2027-02-12", "2"),
        ("2027-02-20", "2027-02-22", "5"),
    )
    assert run(rows, merge=merge)[0] == run(list(rows), merge=merge)[0]


def _painted(rows: list[tuple[int, int, str]]) -> list[tuple[int, int, str, tuple[int, ...]]]:
    """The plain reference: each date painted in input order (an equal value joins the rows that set it,
    another replaces them), then maximal runs of consecutive dates of one value, with every row they carry."""
    cells: dict[int, tuple[str, list[int]]] = {}
    for row, (start, end, value) in enumerate(rows):
        for day in range(start, end + 1):
            cell = cells.get(day)
            cells[day] = (value, [*cell[1], row]) if cell is not None and cell[0] == value else (value, [row])
    runs: list[tuple[int, int, str, tuple[int, ...]]] = []
    for day in sorted(cells):
        value, carried = cells[day]
        if runs and runs[-1][1] == day - 1 and runs[-1][2] == value:
            first, _, _, before = runs[-1]
            runs[-1] = (first, day, value, tuple(sorted({*before, *carried})))
        else:
            runs.append((day, day, value, tuple(carried)))
    return runs


@hypothesis.settings(max_examples=200, deadline=None)
@hypothesis.given(
    rows=st.lists(
        st.tuples(st.integers(0, 40), st.integers(0, 10), st.sampled_from(["1", "2", "3"])), min_size=1, max_size=40
    ),
    last_wins=st.booleans(),
)
def test_overlapping_rows_of_one_key_plan_as_painting_date_by_date(
    rows: list[tuple[int, int, str]], last_wins: bool
) -> None:
    base = TODAY.toordinal() + 1
    given = [(base + start, base + start + length, value) for start, length, value in rows]
    if not last_wins:  # without last-wins only one value may overlap itself
        given = [(start, end, "1") for start, end, _ in given]
    kinds = [Kind(KEY, value, None, "", value) for value in ("1", "2", "3")]
    settings_ = Settings(
        kinds=[int(value) - 1 for _, _, value in given],
        starts=[start for start, _, _ in given],
        ends=[end for _, end, _ in given],
        kind_list=kinds,
    )
    planned = plan(settings_, views(len(given)), PlanOptions(TODAY, merge=True, last_wins=last_wins))
    assert not planned.invalid
    got = [(r.start.toordinal(), r.end.toordinal(), r.value, tuple(r.refs)) for r in planned.records]
    assert got == _painted(given)
