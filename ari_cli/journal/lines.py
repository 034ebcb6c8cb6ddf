"""The lines a record came from, as the journal keeps them: a short text, not a row per line. Pure.

`2-40` is lines 2 to 40 of the run's first source; `7,9,15` single lines; `2-27402/2740` every 2740th
line from 2 to 27402 (an export sorted by date puts a room's days that far apart); `@1:5-9` switches
to the run's second source. A nightly export's record of forty days is five characters, whatever
the order of its rows.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import TypeVar

from ari_cli.journal.database import Unreadable

# (source position, line) pairs, in the order the record's rows came.
Line = tuple[int, int]


def encode(lines: Iterable[Line]) -> str:
    """The compact text of some lines (each once), grouped by source in order of appearance."""
    by_source: dict[int, list[int]] = {}
    for source, line in lines:
        by_source.setdefault(source, []).append(line)
    parts: list[str] = []
    for source, numbers in by_source.items():
        spans = ",".join(_spans(sorted(set(numbers))))
        parts.append(spans if source == 0 and not parts else f"@{source}:{spans}")
    return ";".join(parts)


def _spans(numbers: list[int]) -> Iterator[str]:
    """Runs of equal steps: `a-b` (step 1), `a-b/s` (three or more lines s apart), else single lines."""
    at = 0
    while at < len(numbers):
        first = numbers[at]
        if at + 1 == len(numbers):
            yield str(first)
            return
        step = numbers[at + 1] - first
        stop = at + 1
        while stop + 1 < len(numbers) and numbers[stop + 1] - numbers[stop] == step:
            stop += 1
        if step == 1 and stop > at:
            yield f"{first}-{numbers[stop]}"
        elif stop - at >= 2:
            yield f"{first}-{numbers[stop]}/{step}"
        else:
            yield str(first)
            stop = at
        at = stop + 1


def decode(text: str) -> Iterator[Line]:
    """Every (source, line) of a compact text, in its order; `Unreadable` when it is not one."""
    for source, first, last, step in spans(text):
        for line in range(first, last + 1, step):
            yield source, line


def count(text: str) -> int:
    """How many lines a compact text names, without listing them."""
    return sum(len(range(first, last + 1, step)) for _, first, last, step in spans(text))


# A run of lines of one source: first, last, step (first == last: one line).
Span = tuple[int, int, int, int]  # source, first, last, step


def spans(text: str) -> list[Span]:
    """The runs of lines of a compact text, without listing the lines; `Unreadable` when it is not one."""
    if text.isdecimal():  # one line of the first source: most records' text
        line = int(text)
        return [(0, line, line, 1)]
    found: list[Span] = []
    try:
        for part in filter(None, text.split(";")):
            source = 0
            if part.startswith("@"):
                head, part = part[1:].split(":", 1)
                source = int(head)
            for piece in part.split(","):
                first, _, rest = piece.partition("-")
                last, _, step = rest.partition("/")
                found.append((source, int(first), int(last or first), int(step or 1)))
    except ValueError:
        raise Unreadable(f"stored lines {text[:40]!r} cannot be read") from None
    return found


Source = TypeVar("Source", int, str)  # a source's position, or its name as shown


def joined(runs: Sequence[tuple[Source, int, int, int]]) -> list[tuple[Source, int, int, int]]:
    """Runs sorted, and those of step 1 that touch or overlap merged: what a request's records came from (or a
    group of requests)."""
    if len(runs) < 2:
        return list(runs)
    merged: list[tuple[Source, int, int, int]] = []
    for run in sorted(runs):
        if merged:
            source, first, last, step = merged[-1]
            if step == 1 == run[3] and source == run[0] and run[1] <= last + 1:
                merged[-1] = (source, first, max(last, run[2]), 1)
                continue
        merged.append(run)
    return merged
