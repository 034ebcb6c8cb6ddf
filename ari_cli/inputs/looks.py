"""What an unknown column name looks like: a range's bound, a weekday, an id, a near-miss of a known name.

`columns.Resolver` asks these of a name the operation does not use, so that a column that looks meaningful
is an error (its values would be lost without a word) rather than a warning.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Literal

from ari_cli.inputs.daywords import is_day_word

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
# Words a range bound's name may carry beside it (`End Night`, `Stay Through`, `Arrival Date`): they say what
# the bound counts, never which bound it is.
_ALONGSIDE = re.compile(r"(?:stay|nights?|valid|period)+")
IDS = ("propertyid", "roomid", "rateid")
# An id by the words exports spell it with: `Rate Plan ID`, `RatePlanID`, `Rate Code`, `Rateplan Code`.
_ID_FAMILIES = {
    "rateid": re.compile(r"rate(?:plan)?(?:code|number|no|key)?(?:id)?"),
    "roomid": re.compile(r"room(?:type)?(?:code|number|no|key)?(?:id)?"),
    "propertyid": re.compile(r"(?:property|hotel)(?:code|number|no|key)?(?:id)?"),
}
_LETTERS = re.compile(r"[^a-z]+")


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
    letters = _LETTERS.sub("", key).replace("date", "")
    found = _RANGE_WORDS.get(letters)
    if found is not None:
        return found
    # A bound word with words that only say what it counts before or after it: `End Night`, `Stay Through`.
    heard: list[Bound] = []
    for word, bound in _RANGE_WORDS.items():
        for rest in (letters.removeprefix(word), letters.removesuffix(word)):
            if rest != letters and _ALONGSIDE.fullmatch(rest):
                heard.append(bound)
    return next((b for b in heard if b != "either"), heard[0] if heard else None)


def id_field(key: str) -> str | None:
    """The id a normalized name spells another way than its aliases (`Rate Plan ID` is rateid), or None."""
    letters = _LETTERS.sub("", key)
    return next((name for name, family in _ID_FAMILIES.items() if family.fullmatch(letters)), None)


def weekday_like(key: str) -> bool:
    """Whether a normalized name reads as a weekday (`Sat.`, `Weds`, `Mondays`, `Mi`) that is not a flag column's."""
    letters = _LETTERS.sub("", key)
    stem = letters.removesuffix("s")  # `Weds`, `Mondays`
    return is_day_word(key) or (len(stem) >= 2 and is_day_word(stem))


# Line breaks a reader may leave inside a value (a CSV quote left open takes the next line in), by name:
# Python has no names for the C0 and C1 controls.
_LINE_BREAKS = {"\n": "line feed", "\r": "carriage return", "\x0b": "vertical tab", "\x0c": "form feed",
                "\x1c": "file separator", "\x1d": "group separator", "\x1e": "record separator",
                "\x85": "next line", "\u2028": "line separator", "\u2029": "paragraph separator"}  # fmt: skip
# Default-ignorable characters that are not format characters (Cf): the combining grapheme joiner, the Hangul
# fillers and the variation selectors draw nothing, as a zero-width space does.
_IGNORABLE = frozenset((0x034F, 0x115F, 0x1160, 0x3164, 0xFFA0, *range(0xFE00, 0xFE10), *range(0x180B, 0x1810)))


def _kind(c: str) -> str | None:
    """How a character that makes a name or an id another one than it looks is named to the user, or None for
    a character that shows as itself. A name or an id that holds one looks like another and is not it."""
    if c in _LINE_BREAKS:
        return "line break"
    category = unicodedata.category(c)
    if c == "\t":
        return "tab"
    if category == "Cc":
        return "control"
    if category == "Zs" and c != " ":
        return "space"
    if category == "Cf" or ord(c) in _IGNORABLE:
        return "unseen"
    return None


def _invisible(c: str) -> bool:
    return _kind(c) is not None


def unseen(text: str) -> str | None:
    """The first character of `text` that is not what it looks, named with what it is:
    `U+200B (zero width space), which does not show`, `U+0009, a tab`, `U+000A (line feed), a line break`;
    None when every character is what it looks."""
    found = next(((c, kind) for c in text if (kind := _kind(c)) is not None), None)
    if found is None:
        return None
    c, kind = found
    code = f"U+{ord(c):04X}"
    if kind == "line break":
        return f"{code} ({_LINE_BREAKS[c]}), a line break"
    if kind == "tab":
        return f"{code}, a tab"
    if kind == "control":
        return f"{code}, a control character"
    name = unicodedata.name(c, "a format character").lower()
    if kind == "space":
        return f"{code} ({name}), which looks like a plain space and is not one"
    return f"{code} ({name}), which does not show"


def breaks_line(text: str) -> bool:
    """Whether the character `unseen` names is a line feed or carriage return: in a CSV, the sign of a quote
    left open."""
    return next((c for c in text if _invisible(c)), "") in ("\n", "\r")


def without_unseen(text: str) -> str:
    """`text` without the characters that are not what they look."""
    return "".join(c for c in text if not _invisible(c))
