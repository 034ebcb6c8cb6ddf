"""What the service already has: spans painted in acknowledgement order, cut against a planned range, and read
from a real journal."""

from __future__ import annotations

import datetime as dt
import random
import sqlite3
from itertools import pairwise
from pathlib import Path

import pytest

from ari_cli.journal.queries import acknowledged
from ari_cli.planning.changes import UNCHANGED, Span, against, keep_changed, paint
from ari_cli.planning.plan import Plan, Record
from ari_cli.sandbox import Sandbox
from tests.test_history import push

D = dt.date(2027, 1, 1)


def day(n: int) -> dt.date:
    return D + dt.timedelta(days=n)


def span(first: int, last: int, value: str, run: int = 1) -> Span:
    return Span(day(first), day(last), value, run)


def painted(*news: Span) -> list[Span]:
    spans: list[Span] = []
    for new in news:
        paint(spans, new)
    return spans


@pytest.mark.parametrize(
    ("news", "expected"),
    [
        ([span(0, 9, "3")], [span(0, 9, "3")]),
        # A later value over the middle cuts the earlier in two.
        ([span(0, 9, "3"), span(3, 4, "5", 2)], [span(0, 2, "3"), span(3, 4, "5", 2), span(5, 9, "3")]),
        # Over the whole, and beyond both ends.
        ([span(2, 4, "3"), span(6, 7, "4"), span(0, 9, "1", 2)], [span(0, 9, "1", 2)]),
        # Touching with the same value and run: one span; the same value from another run stays apart.
        ([span(0, 4, "3"), span(5, 9, "3")], [span(0, 9, "3")]),
        ([span(0, 4, "3"), span(5, 9, "3", 2)], [span(0, 4, "3"), span(5, 9, "3", 2)]),
        # A repaint that gives the old value back joins its neighbours again.
        ([span(0, 9, "3"), span(3, 4, "5", 1), span(3, 4, "3", 1)], [span(0, 9, "3")]),
        # Apart, in any order.
        ([span(8, 9, "1"), span(0, 1, "2")], [span(0, 1, "2"), span(8, 9, "1")]),
        # Overlapping the end of one and the start of the next.
        (
            [span(0, 4, "1"), span(5, 9, "2"), span(3, 6, "7", 2)],
            [span(0, 2, "1"), span(3, 6, "7", 2), span(7, 9, "2")],
        ),
    ],
)
def test_paint_lays_the_later_acknowledgement_over_the_earlier(news: list[Span], expected: list[Span]) -> None:
    assert painted(*news) == expected


def by_date(news: list[Span]) -> dict[dt.date, tuple[str, int]]:
    """The plain rule, one date at a time: the last acknowledgement of a date is what the service holds."""
    held: dict[dt.date, tuple[str, int]] = {}
    for new in news:
        current = new.start
        while current <= new.end:
            held[current] = (new.value, new.run)
            current += dt.timedelta(days=1)
    return held


@pytest.mark.parametrize("seed", range(30))
def test_paint_agrees_with_painting_date_by_date_and_keeps_spans_maximal(seed: int) -> None:
    rng = random.Random(seed)
    news = []
    for _ in range(rng.randint(1, 40)):
        first = rng.randint(0, 60)
        news.append(span(first, first + rng.randint(0, 15), rng.choice("123"), rng.randint(1, 3)))
    spans = painted(*news)

    assert by_date(spans) == by_date(news)
    for left, right in pairwise(spans):
        assert left.end < right.start
        touching = left.end + dt.timedelta(days=1) == right.start
        assert not (touching and (left.value, left.run) == (right.value, right.run))


def test_against_cuts_a_range_where_what_is_known_changes() -> None:
    spans = [span(2, 4, "3"), span(5, 6, "4", 2), span(9, 12, "5")]

    pieces = list(against(spans, day(0), day(10)))

    assert pieces == [
        (day(0), day(1), None),
        (day(2), day(4), spans[0]),
        (day(5), day(6), spans[1]),
        (day(7), day(8), None),
        (day(9), day(10), spans[2]),
    ]
    assert list(against(spans, day(3), day(3))) == [(day(3), day(3), spans[0])]
    assert list(against([], day(3), day(5))) == [(day(3), day(5), None)]
    assert list(against(spans, day(20), day(21))) == [(day(20), day(21), None)]


def test_acknowledged_reads_spans_of_the_journal_last_acknowledgement_winning(
    sb: Sandbox, tmp_path: Path, journal_home: Path
) -> None:
    first = push(sb, tmp_path, "a.csv", "HTL001,DBL,2027-01-01,2027-01-10,2", "HTL001,TWN,2027-01-03,2027-01-04,n/a")
    assert first.exit_code == 0
    assert push(sb, tmp_path, "b.csv", "HTL001,DBL,2027-01-05,2027-01-06,3").exit_code == 0
    sb.queue_error(503, times=1)
    refused = push(sb, tmp_path, "c.csv", "HTL001,DBL,2027-01-01,2027-01-10,9", extra=("--retries", "0"))
    assert refused.exit_code == 1
    assert push(sb, tmp_path, "d.csv", "HTL002,DBL,2027-01-01,2027-01-02,1").exit_code == 0

    with sqlite3.connect(journal_home / "journal.sqlite3") as db:
        held = acknowledged(db, "threshold", sb.base_url, sb.source_id, ["HTL001"])
        elsewhere = acknowledged(db, "threshold", "http://127.0.0.1:1", sb.source_id, ["HTL001"])
        everywhere = acknowledged(db, "threshold", sb.base_url, sb.source_id)
        nothing = acknowledged(db, "threshold", sb.base_url, sb.source_id, [])

    assert held == {
        ("HTL001", "DBL"): [
            Span(day(0), day(3), "2", 1), Span(day(4), day(5), "3", 2), Span(day(6), day(9), "2", 1)
        ],
        ("HTL001", "TWN"): [Span(day(2), day(3), "n/a", 1)],
    }  # fmt: skip
    assert everywhere == {**held, ("HTL002", "DBL"): [Span(day(0), day(1), "1", 4)]}
    assert elsewhere == {} and nothing == {}


def test_keep_changed_keeps_the_dates_that_differ_and_skips_rows_with_nothing_left() -> None:
    dbl, twn = ("HTL001", "DBL"), ("HTL001", "TWN")
    records = [
        Record(dbl, day(0), day(9), "3", range(0, 3)),  # all known as 3: sends nothing
        Record(twn, day(0), day(9), "4", (2, 3)),  # row 2 is in both: this record still sends
        Record(("HTL002", "DBL"), day(0), day(1), "1", (4,)),  # nothing known
    ]
    plan = Plan(records, skipped={5: "ends before today"})
    known = {dbl: [span(0, 9, "3")], twn: [span(0, 2, "4"), span(3, 3, "5"), span(4, 6, "4"), span(8, 12, "4", 2)]}

    kept = keep_changed(plan, lambda record: str(record.value), known)

    assert [(r.key, r.start, r.end) for r in kept.records] == [
        (twn, day(3), day(3)),
        (twn, day(7), day(7)),
        (("HTL002", "DBL"), day(0), day(1)),
    ]
    assert kept.skipped == {5: "ends before today", 0: UNCHANGED, 1: UNCHANGED}


@pytest.mark.parametrize("seed", range(30))
def test_keep_changed_agrees_with_comparing_date_by_date(seed: int) -> None:
    """Records inside one span, across several, before, after and between them: the dates kept are those whose
    value the service does not hold, and a record kept whole is the planned one."""
    rng = random.Random(seed)
    key = ("HTL001", "DBL")
    news = []
    for _ in range(rng.randint(0, 12)):
        first = rng.randint(0, 60)
        news.append(span(first, first + rng.randint(0, 15), rng.choice("123")))
    held = {date: value for date, (value, _) in by_date(news).items()}
    records, first = [], rng.randint(0, 5)
    while first < 80:
        last = first + rng.randint(0, 12)
        records.append(Record(key, day(first), day(last), rng.choice("123"), (len(records),)))
        first = last + 1 + rng.randint(0, 3)

    kept = keep_changed(Plan(list(records)), lambda record: str(record.value), {key: painted(*news)})

    wanted = {
        (date, record.value)
        for record in records
        for date in (record.start + dt.timedelta(days=n) for n in range((record.end - record.start).days + 1))
        if held.get(date) != record.value
    }
    sent = {
        (record.start + dt.timedelta(days=n), record.value)
        for record in kept.records
        for n in range((record.end - record.start).days + 1)
    }
    assert sent == wanted
    for record in kept.records:
        whole = [r for r in records if (r.start, r.end) == (record.start, record.end)]
        assert not whole or whole[0] is record
    unchanged = {
        number for number, record in enumerate(records) if not any(r.refs == record.refs for r in kept.records)
    }
    assert kept.skipped == dict.fromkeys(sorted(unchanged), UNCHANGED)
