"""What an unknown column name looks like: a range's bound, a weekday, an id, a near-miss of a known name.

`columns.Resolver` asks these of a name the operation does not use, so that a column that looks meaningful
is an error (its values would be lost without a word) rather than a warning.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Literal

# A range's bound by a name not taken for start or end (with or without "date"): which day it means (the
# day after? the last night?) would be a guess, so the user maps it; the hint names the likelier side.
_FIRST = ("arrival", "arrive", "checkin", "firstday", "startday", "start", "begin", "from", "stayfrom", "nightfrom")
_LAST = ("stop", "until", "till", "til", "through", "thru", "lastday", "endday", "end", "to", "validtill",
         "validthrough", "stayto", "nightto")  # fmt: skip
_AFTER = ("departure", "depart", "checkout")  # the day after the last night: end is the last night set
_EITHER = ("night", "valid")
Bound = Literal["start", "end", "after", "either"]
_RANGE_WORDS: dict[str, Bound] = {
    **dict.fromkeys(_FIRST, "start"),
    **dict.fromkeys(_LAST, "end"),
    **dict.fromkeys(_AFTER, "after"),
    **dict.fromkeys(_EITHER, "either"),
}
IDS = ("propertyid", "roomid", "rateid")
_LETTERS = re.compile(r"[^a-z]+")
_DAY_NAMES = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")


def edits(a: str, b: str, most: int) -> int:
    """The edit distance of two short names, or most + 1 when it is more than `most`."""
    if abs(len(a) - len(b)) > most:
        return most + 1
    previous = list(range(len(b) + 1))
    for i, x in enumerate(a, start=1):
        current = [i]
        for j, y in enumerate(b, start=1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x != y)))
        if min(current) > most:
            return most + 1
        previous = current
    return previous[-1]


def range_bound(key: str) -> Bound | None:
    """Which bound of a range a normalized name reads as, by a name not accepted for either: the first day,
    the last, the day after the last (a departure), either; None when it reads as neither."""
    letters = _LETTERS.sub("", key)
    return _RANGE_WORDS.get(letters.replace("date", ""))


def weekday_like(key: str) -> bool:
    """Whether a normalized name reads as a weekday (`Sat.`, `Weds`, `Mondays`) that is not a flag column's."""
    letters = _LETTERS.sub("", key)
    stem = letters.removesuffix("s")  # `Weds`, `Mondays`
    return len(stem) >= 2 and any(day.startswith(stem) for day in _DAY_NAMES)


def _invisible(c: str) -> bool:
    # Format characters (zero-width spaces and joiners, U+2060, U+FEFF, the bidirectional controls) and no-break
    # spaces: a name or an id that holds one looks like another and is not it.
    return unicodedata.category(c) == "Cf" or c in "\u00a0\u202f\u2007"


def unseen(text: str) -> str | None:
    """The first character of `text` that does not show, named as `U+200B (zero width space)`; None when every
    character shows."""
    hidden = next((c for c in text if _invisible(c)), None)
    if hidden is None:
        return None
    return f"U+{ord(hidden):04X} ({unicodedata.name(hidden, 'a format character').lower()})"


def without_unseen(text: str) -> str:
    """`text` without the characters that do not show."""
    return "".join(c for c in text if not _invisible(c))
