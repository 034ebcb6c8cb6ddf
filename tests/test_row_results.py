"""A run's rows are kept per record and walked in runs of alike rows: whatever the order the plan noted its
skipped rows in, walking the runs gives every row the result it has when asked for on its own."""

from __future__ import annotations

import datetime as dt
import random
from collections import Counter

import pytest

from ari_cli.planning.plan import Plan, Record
from ari_cli.records.rules import RowView
from ari_cli.records.table import RowTable
from ari_cli.results import RowResult, RowResults, Status, answered, attribute
from ari_cli.send.exchange import Exchange, Outcome, Problem

D = dt.date(2027, 1, 1)
NOTES = ("unchanged: the journal says so", "ends before today", "every date set by a later row")


def seen(row: RowResult) -> tuple[object, ...]:
    return row.index, row.view, row.status, row.trackingids, row.errors, row.note


def one_by_one(rows: RowResults) -> list[tuple[object, ...]]:
    return [seen(rows[index]) for index in range(len(rows))]


def a_run(rng: random.Random) -> tuple[RowTable, Plan, list[Exchange]]:
    """Rows of a few sources; some invalid, some skipped (noted in any order, for a few reasons, often in long
    runs), the rest carried by records (a range of rows, or rows here and there, some by two records)."""
    size = rng.randint(1, 80)
    views: list[RowView] = []
    source = "a.csv"
    for line in range(size):
        if rng.random() < 0.05:
            source = rng.choice(["a.csv", "b.csv", "c.csv"])
        views.append(RowView(source, line + 2))
    table = RowTable.of_views(views)
    invalid = {index: ["bad date"] for index in rng.sample(range(size), rng.randint(0, min(3, size)))}
    skipped: dict[int, str] = {}
    index = 0
    while index < size:
        length = rng.randint(1, 12)
        if rng.random() < 0.6:
            note = rng.choice(NOTES)
            skipped.update(dict.fromkeys(range(index, min(index + length, size)), note))
        index += length
    noted = list(skipped.items())
    if rng.random() < 0.5:
        rng.shuffle(noted)
    rest = [index for index in range(size) if index not in skipped and index not in invalid]
    records: list[Record] = []
    while rest:
        take = rest[: rng.randint(1, 6)]
        rest = rest[len(take) :]
        if rng.random() < 0.2 and records:
            take = sorted({*take, *records[-1].refs[-1:]})  # a row carried by two records
        refs = range(take[0], take[-1] + 1) if take[-1] - take[0] == len(take) - 1 else tuple(take)
        records.append(Record(("H1", "R1"), D, D, "1", refs))
    row_notes = {index: "clipped to today" for index in range(size) if rng.random() < 0.05}
    plan = Plan(records, skipped=dict(noted), invalid={}, row_notes=row_notes)
    table.errors.update(invalid)
    outcomes = [
        Outcome(200, True, "sbx-1"),
        Outcome(200, True, "sbx-2"),
        Outcome(400, False, "sbx-3", (Problem(451, "invalid room mapping", 400),)),
        Outcome(None, False, None, (), sent=False),
    ]
    # Requests of a few records each; some split (the parent is not final), some records sent twice (the later
    # answer counts), some never answered.
    exchanges: list[Exchange] = []
    number = 0
    while number < len(records):
        carried = tuple(range(number, min(number + rng.randint(1, 4), len(records))))
        number += len(carried)
        if rng.random() < 0.15:
            continue  # never answered
        if len(carried) > 1 and rng.random() < 0.2:
            exchanges.append(Exchange(len(exchanges) + 1, "H1", carried, {}, "u", outcome=outcomes[2], children=(0,)))
            exchanges += [Exchange(len(exchanges) + 1, "H1", carried[:1], {}, "u", outcome=rng.choice(outcomes)),
                          Exchange(len(exchanges) + 2, "H1", carried[1:], {}, "u", outcome=rng.choice(outcomes))]  # fmt: skip
        else:
            exchanges.append(Exchange(len(exchanges) + 1, "H1", carried, {}, "u", outcome=rng.choice(outcomes)))
        if rng.random() < 0.1:
            exchanges.append(Exchange(len(exchanges) + 1, "H1", carried[-1:], {}, "u", outcome=rng.choice(outcomes)))
    return table, plan, exchanges


def by_record(plan: Plan, exchanges: list[Exchange]) -> dict[int, list[Outcome]]:
    """The plain rule: a record's answer is the last final request's that carried it."""
    answers: dict[int, list[Outcome]] = {}
    for exchange in exchanges:
        if exchange.final and exchange.outcome is not None:
            for record in exchange.records:
                answers[record] = [exchange.outcome]
    return answers


@pytest.mark.parametrize("seed", range(60))
@pytest.mark.parametrize("dry_run", [True, False])
def test_walking_the_runs_gives_each_row_its_own_result(seed: int, dry_run: bool) -> None:
    table, plan, exchanges = a_run(random.Random(seed))

    rows = attribute(table, plan, exchanges, dry_run)

    assert [seen(row) for row in rows] == one_by_one(rows)
    assert rows.counts() == {**dict.fromkeys(rows.counts(), 0), **Counter(rows[i].status for i in range(len(rows)))}
    covered = [index for first, stop, _ in rows.runs() for index in range(first, stop)]
    assert covered == list(range(len(rows)))
    unsent = rows.not_sent("not sent: the input has invalid rows")
    assert [seen(row) for row in unsent] == one_by_one(unsent)
    if not dry_run:
        answers = by_record(plan, exchanges)
        carriers: dict[int, list[int]] = {}
        for number, record in enumerate(plan.records):
            for ref in record.refs:
                carriers.setdefault(ref, []).append(number)
        for index, numbers in carriers.items():
            if len(numbers) == 1 and index not in table.errors and index not in plan.row_notes:
                alone = answered(
                    RowResult(index, table[index], Status.OK), [0], dict(enumerate(answers.get(numbers[0], [])))
                )
                assert seen(rows[index]) == seen(alone)
