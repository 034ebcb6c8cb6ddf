"""The journal's compact forms, pure: lines a record came from, and what the service holds per key."""

from __future__ import annotations

import datetime as dt
import random
from itertools import pairwise

import pytest

from ari_cli.journal.database import Unreadable
from ari_cli.journal.lines import count, decode, encode, joined, spans
from ari_cli.journal.spans import Span, SpanDates, paint

D = dt.date(2027, 1, 1)


def day(n: int) -> dt.date:
    return D + dt.timedelta(days=n)


@pytest.mark.parametrize(
    ("lines", "text"),
    [
        ([(0, n) for n in range(2, 41)], "2-40"),
        ([(0, 7)], "7"),
        ([(0, 7), (0, 9)], "7,9"),
        ([(0, 2), (0, 2742), (0, 5482), (0, 8222)], "2-8222/2740"),
        ([(0, 2), (0, 3), (0, 4), (0, 10), (0, 20), (0, 30), (0, 31)], "2-4,10-30/10,31"),
        ([(0, 3), (1, 5), (1, 6)], "3;@1:5-6"),
        ([(2, 9), (2, 4)], "@2:4,9"),
    ],
)
def test_lines_are_a_short_text_and_come_back_whole(lines: list[tuple[int, int]], text: str) -> None:
    assert encode(lines) == text
    assert sorted(decode(text)) == sorted(set(lines))
    assert count(text) == len(set(lines))


def test_any_lines_come_back_whole() -> None:
    rng = random.Random(5)
    for _ in range(200):
        lines = {(rng.randrange(3), rng.randrange(1, 60)) for _ in range(rng.randrange(1, 30))}
        text = encode(sorted(lines))
        assert set(decode(text)) == lines and count(text) == len(lines)


@pytest.mark.parametrize("text", ["2-x", "@a:3", "1-5/0-", "@1"])
def test_stored_lines_that_do_not_parse_are_unreadable(text: str) -> None:
    with pytest.raises(Unreadable):
        list(decode(text))


def test_a_requests_lines_are_its_records_runs_joined() -> None:
    assert joined(spans("2-10") + spans("11-20") + spans("30") + spans("@1:4-6")) == [(0, 2, 20, 1), (0, 30, 30, 1),
                                                                                     (1, 4, 6, 1)]  # fmt: skip


def test_painting_keeps_what_a_record_leaves_and_the_last_acknowledgement_wins() -> None:
    held = [Span(day(0), day(9), "2", 1, 0, 1)]
    after = paint(held, [Span(day(4), day(5), "3", 2, 0, 2)])
    assert after == [Span(day(0), day(3), "2", 1, 0, 1), Span(day(4), day(5), "3", 2, 0, 2),
                     Span(day(6), day(9), "2", 1, 0, 1)]  # fmt: skip
    again = paint(after, [Span(day(3), day(7), "4", 3, 5, 3), Span(day(12), day(12), "1", 3, 6, 3)])
    assert again == [Span(day(0), day(2), "2", 1, 0, 1), Span(day(3), day(7), "4", 3, 5, 3),
                     Span(day(8), day(9), "2", 1, 0, 1), Span(day(12), day(12), "1", 3, 6, 3)]  # fmt: skip
    dates = SpanDates(again)
    assert dates[day(5)] == "4" and dates.get(day(10)) is None and day(12) in dates and len(dates) == 11
    assert list(dates)[:3] == [day(0), day(1), day(2)]


def test_painting_agrees_with_a_date_by_date_model() -> None:
    rng = random.Random(9)
    for _ in range(100):
        held: list[Span] = []
        model: dict[dt.date, str] = {}
        for ack in range(1, 12):
            start = rng.randrange(30)
            end = start + rng.randrange(8)
            value = str(rng.randrange(5))
            held = paint(held, [Span(day(start), day(end), value, ack, ack, ack)])
            for n in range(start, end + 1):
                model[day(n)] = value
        assert all(a.end < b.start for a, b in pairwise(held))
        assert dict(SpanDates(held)) == model
