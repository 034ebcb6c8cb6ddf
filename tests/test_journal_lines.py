"""The lines a record came from, as the journal keeps them: a short text that comes back whole. Pure."""

from __future__ import annotations

import datetime as dt
import random

import pytest

from ari_cli.journal.database import Unreadable
from ari_cli.journal.lines import count, decode, encode, joined, spans

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
