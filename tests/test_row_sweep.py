"""The sweep that finds, for each line of a journaled run, the records and notes that cover it (`journal/rows.py`):
lines that the same segments cover come as one run, and the runs, line by line, are what a sweep of one line at a
time finds, in the same order. Pure."""

from __future__ import annotations

import heapq
from collections.abc import Iterator

from hypothesis import given, settings
from hypothesis import strategies as st

from ari_cli.journal.rows import Segment, _sweep


def per_line(segments: list[Segment]) -> Iterator[tuple[int, int, list[tuple[int, int]]]]:
    """The sweep as it was before it made runs: one line at a time, every segment through a heap."""
    segments = sorted(segments)
    waiting: list[tuple[int, int, int, Segment]] = []
    at = order = 0
    while at < len(segments) or waiting:
        if waiting and (at == len(segments) or waiting[0][:2] <= segments[at][:2]):
            here = waiting[0][:2]
        else:
            here = segments[at][:2]
        while at < len(segments) and segments[at][:2] == here:
            heapq.heappush(waiting, (here[0], here[1], order, segments[at]))
            order += 1
            at += 1
        parts: list[tuple[int, int]] = []
        while waiting and waiting[0][:2] == here:
            source, line, _, segment = heapq.heappop(waiting)
            parts.append((segment[4], segment[5]))
            if line + segment[3] <= segment[2]:
                heapq.heappush(waiting, (source, line + segment[3], order, segment))
                order += 1
        yield here[0], here[1], parts


def expanded(segments: list[Segment]) -> list[tuple[int, int, list[tuple[int, int]]]]:
    return [
        (source, line, parts)
        for source, first, last, step, parts in _sweep(list(segments))
        for line in range(first, last + 1, step)
    ]


@st.composite
def segments(draw: st.DrawFn) -> list[Segment]:
    found: list[Segment] = []
    for which in range(draw(st.integers(0, 12))):
        first = draw(st.integers(1, 40))
        step = draw(st.sampled_from([1, 1, 2, 3, 7]))
        last = first + step * draw(st.integers(0, 6))
        found.append((draw(st.integers(0, 1)), first, last, step, draw(st.integers(0, 1)), which))
    return found


@settings(max_examples=400, deadline=None)
@given(segments())
def test_the_runs_line_by_line_are_the_sweep_of_one_line_at_a_time(found: list[Segment]) -> None:
    assert expanded(found) == list(per_line(found))


def test_a_record_of_many_lines_that_nothing_else_covers_is_one_run() -> None:
    # A request's fifty lines in a row, then every 2740th line of an export sorted by date, then a note on one line.
    found: list[Segment] = [(0, 2, 51, 1, 0, 0), (0, 100, 27500, 2740, 0, 1), (1, 5, 5, 1, 1, 0)]
    assert list(_sweep(list(found))) == [
        (0, 2, 51, 1, [(0, 0)]),
        (0, 100, 27500, 2740, [(0, 1)]),
        (1, 5, 5, 1, [(1, 0)]),
    ]


def test_a_run_ends_where_another_segment_begins() -> None:
    runs = list(_sweep([(0, 1, 10, 1, 0, 0), (0, 4, 5, 1, 1, 0)]))
    assert runs[0] == (0, 1, 3, 1, [(0, 0)])
    assert (0, 4, 4, 1, [(0, 0), (1, 0)]) in runs
    assert [line for _, first, last, step, _ in runs for line in range(first, last + 1, step)] == list(range(1, 11))
