"""A range of dates written in one cell, cut as text into its first and last day: `2026-12-01..2026-12-31`,
`01.12.2026 - 31.12.2026`, `1.12.` en dash `31.12.2026`, `du 1 au 31 décembre 2026`.

Text only: each end is read by the one date rule (`records/dates.py`), which is also what tells a cell that is
one date from a range. The header's hints ask `looks_like_range` of the cells of a column not read.
"""

from __future__ import annotations

import re

from ari_cli.inputs.languages import MONTH_OF, RANGE_WORDS, fold

PERIOD_EXAMPLE = "2026-12-01..2026-12-31"

_JOINS = sorted({word for _, joins in RANGE_WORDS.values() for word in joins}, key=len, reverse=True)
_OPENS = sorted({word for opens, _ in RANGE_WORDS.values() for word in opens}, key=len, reverse=True)
# What joins a range's two dates: `..`, an en or em dash, a hyphen between spaces, or a word (`to`, `bis`, `au`).
_JOIN = re.compile(r"\s*(?:\.\.|[\u2013\u2014]|\s-\s)\s*|\s+(?:" + "|".join(map(re.escape, _JOINS)) + r")\s+", re.I)
_OPEN = re.compile(r"(?:" + "|".join(map(re.escape, _OPENS)) + r")\s+", re.I)
_PIECE = re.compile(r"[^\s.,/-]+")


def cut_range(value: str) -> tuple[str, str] | None:
    """The texts of a range's first and last day, or None when nothing joins two dates in `value`. A first
    day that leaves out what the last one gives (`1.12.`, `1`) takes it from it: `1.12.2026`, `1 Dec 2026`.

    Raises ValueError when `value` joins more than two dates, or a join has no date on one side.
    """
    joins = list(_JOIN.finditer(value))
    if len(joins) > 1:
        raise ValueError(f'"{value}" holds more than one range; give one, as {PERIOD_EXAMPLE}')
    if joins:
        # `du 1 au 31 décembre 2026`: the word that opens the range is not part of its first day.
        first, last = value[: joins[0].start()], value[joins[0].end() :]
        if (opened := _OPEN.match(first)) is not None:
            first = first[opened.end() :]
    else:
        # A hyphen alone joins two dates too, and dates hold hyphens themselves (`2026-12-01-2026-12-31`): the
        # middle one of an odd count joins them; with an even count (`01-12-2026`) the cell is one date.
        hyphens = [at for at, c in enumerate(value) if c == "-"]
        if len(hyphens) % 2 == 0:
            return None
        middle = hyphens[len(hyphens) // 2]
        first, last = value[:middle], value[middle + 1 :]
    first, last = first.strip(), last.strip()
    if not first or not last:
        raise ValueError(f'"{value}" is not one range of two dates; give it as {PERIOD_EXAMPLE}')
    return _borrowed(first, last), last


def _borrowed(first: str, last: str) -> str:
    """The first day of a range completed with what it leaves out of the last: `1.12.` and `31.12.2026` give
    `1.12.2026`; `1` and `31 Dec 2026` give `1 Dec 2026`."""
    have = _PIECE.findall(first)
    pieces = list(_PIECE.finditer(last))
    if not have or len(have) >= len(pieces):
        return first
    return first.rstrip(" .,/-") + last[pieces[len(have) - 1].end() :]


def _dated(text: str) -> bool:
    """Whether `text` is made of a date's pieces only (numbers, a month's name), a year among them."""
    pieces = [fold(piece) for piece in _PIECE.findall(text)]
    return any(len(p) == 4 and p.isdigit() for p in pieces) and all(p.isdigit() or p in MONTH_OF for p in pieces)


def looks_like_range(value: str) -> bool:
    """Whether a cell looks like two dates joined as a range: a hint's guess, which names the column, never
    reads it."""
    try:
        found = cut_range(value.strip())
    except ValueError:
        return False
    return found is not None and _dated(found[0]) and _dated(found[1])
