"""A key's segments that share dates, made into pieces: grouped where they overlap, merged where one value
touches or overlaps itself, painted date by date where later rows win (`--overlaps last-wins`). Pure."""

from __future__ import annotations

from collections.abc import Callable

from ari_cli.records.table import Value

# A segment: (first day, setting, last day), days as ordinals. Sorted as tuples they are in date
# order, ties in setting (input) order; the setting gives the value and the rows.
Segment = tuple[int, int, int]

# A piece: (first day, last day, value, the settings it carries): what becomes a record.
Piece = tuple[int, int, Value, list[int]]


def clusters(segments: list[Segment]) -> list[list[Segment]]:
    """Groups of segments whose dates overlap (touching alone does not join a group); in date order."""
    clusters: list[list[Segment]] = []
    reach = -1
    for seg in segments:
        if seg[0] <= reach:
            clusters[-1].append(seg)
            reach = max(reach, seg[2])
        else:
            clusters.append([seg])
            reach = seg[2]
    return clusters


def merged(pieces: list[Piece]) -> list[Piece]:
    """Pieces of one value that touch or overlap, as one."""
    merged: list[Piece] = []
    for start, end, value, carried in pieces:
        if merged and merged[-1][2] == value and start <= merged[-1][1] + 1:
            first, last, _, rows = merged[-1]
            rows.extend(carried)
            merged[-1] = (first, max(last, end), value, rows)
        else:
            merged.append((start, end, value, list(carried)))
    return merged


def paint(cluster: list[Segment], value_of: Callable[[Segment], Value]) -> list[Piece]:
    """Later settings paint over earlier ones, date by date; equal values share the date."""
    first = cluster[0][0]
    # Per date, its value and the settings that last set it so, in input order: a list grown in place (a
    # set made afresh per date and setting took time in the square of the settings sharing dates).
    cells: list[tuple[Value, list[int]] | None] = [None] * (max(seg[2] for seg in cluster) - first + 1)
    for seg in sorted(cluster, key=lambda seg: seg[1]):
        value = value_of(seg)
        for i in range(seg[0] - first, seg[2] - first + 1):
            cell = cells[i]
            if cell is not None and cell[0] == value:
                cell[1].append(seg[1])
            else:
                cells[i] = (value, [seg[1]])
    pieces: list[Piece] = []
    last: tuple[Value, list[int]] | None = None
    for i, cell in enumerate(cells):
        assert cell is not None  # a cluster's segments cover every date of its span
        if last is not None and cell[0] == last[0] and cell[1] == last[1]:
            start, _, value, carried = pieces[-1]
            pieces[-1] = (start, first + i, value, carried)
        else:
            pieces.append((first + i, first + i, cell[0], list(cell[1])))
        last = cell
    return pieces


def conflicts(clusters: list[list[Segment]], value_of: Callable[[Segment], Value]) -> list[tuple[Segment, Segment]]:
    """(segment, the first of another value it overlaps) for each segment that overlaps another's dates with a
    different value, in date order of their clusters and input order within each.

    Each row is named once, with the first row of another value it conflicts with: a thousand rows of one date
    must give a thousand messages, not half a million.
    """
    found: list[tuple[Segment, Segment]] = []
    for cluster in clusters:
        if len({value_of(seg) for seg in cluster}) == 1:
            continue  # one value: nothing conflicts (and looking would take time in the square of its size)
        ordered = sorted(cluster, key=lambda seg: seg[1])
        # The first segment of each value, in input order: the first conflict is almost always one.
        firsts = list({value_of(seg): seg for seg in reversed(ordered)}.values())
        firsts.sort(key=lambda seg: seg[1])
        for mine in ordered:
            theirs = _first_conflict(mine, firsts, value_of) or _first_conflict(mine, ordered, value_of)
            if theirs is not None:
                found.append((mine, theirs))
    return found


def _first_conflict(mine: Segment, candidates: list[Segment], value_of: Callable[[Segment], Value]) -> Segment | None:
    value = value_of(mine)
    for other in candidates:
        if other[1] != mine[1] and other[0] <= mine[2] and mine[0] <= other[2] and value_of(other) != value:
            return other
    return None
