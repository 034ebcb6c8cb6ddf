"""Weekdays as people write them, in any of the languages of `languages.py`: a word, a one-letter name, a set.

A word is read in every language at once; a set of words (a `days` value, a header's flag columns) is read
only when every reading of it that fits one language says the same days. `ma` is Monday in Dutch and Tuesday
in French, so `ma` alone is refused naming both readings, while `ma, di, wo` reads as Dutch.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence

from ari_cli.inputs.languages import DAY_NAMES, LANGUAGES, Language, fold


def _words(language: Language) -> dict[str, int]:
    """Every word (folded) naming exactly one day in `language`: the full names, the abbreviations, and the
    full names cut short to two letters or more (`donn`, `mercr`)."""
    heard: dict[str, set[int]] = {}
    for day, names in enumerate(language.days):
        for name in names:
            heard.setdefault(name, set()).add(day)
        full = names[0]
        for end in range(2, len(full)):
            heard.setdefault(full[:end], set()).add(day)
    for day, letter in enumerate(language.letters):
        heard.setdefault(letter.lower(), set()).add(day)
    return {word: days.pop() for word, days in heard.items() if len(days) == 1}


_DAY_OF: dict[str, dict[str, int]] = {language.name: _words(language) for language in LANGUAGES}


def day_in(language: Language, word: str) -> int | None:
    """The day (Monday = 0) `word` names in `language`, or None."""
    return _DAY_OF[language.name].get(fold(word))


def is_day_word(word: str) -> bool:
    """Whether `word` names a day in some language, in two letters or more (a one-letter name is a day only
    among seven such names)."""
    key = fold(word)
    return len(key) >= 2 and any(key in words for words in _DAY_OF.values())


_WORD = re.compile(r"[^\W\d_]+")
_BETWEEN = re.compile(r"[\s,;/.&+\-\u2013]*")
"""What may stand between the words of a `days` value: spaces, lists' commas, ranges' dashes, abbreviations' dots."""


def looks_like_days(value: str) -> bool:
    """Whether a cell holds nothing but weekdays of some language (`Mo-Fr`, `lun, mar`, `Sat`, `L-V`,
    `segunda-feira`): whether it is a `days` value, read or refused by the days rule. A one-letter name counts
    only beside another (`L-V`): a lone `M` or `S` is a size or a grade as often. A mask (`1111100`) is a
    number, which an id or a count column holds as well: it is not taken for weekdays here."""
    words = [word for word in _WORD.findall(value) if fold(word) != "feira"]  # `segunda-feira` is `segunda`
    if not words or not all(_BETWEEN.fullmatch(gap) for gap in _WORD.split(value)):
        return False
    if len(words) == 1:
        return is_day_word(words[0])
    return all(any(fold(word) in heard for heard in _DAY_OF.values()) for word in words)


Reading = tuple[int, ...]
"""The day each word of a set names, in the set's order."""


def readings(words: Sequence[str]) -> dict[Reading, list[str]]:
    """Each way `words` read as days of one language, with the languages that read them so."""
    found: dict[Reading, list[str]] = {}
    for language in LANGUAGES:
        days = [day_in(language, word) for word in words]
        if all(day is not None for day in days):
            found.setdefault(tuple(day for day in days if day is not None), []).append(language.name)
    return found


def letter_readings(letters: Sequence[str]) -> dict[Reading, list[str]]:
    """Each way seven one-letter names read as a week, Monday first (`M T W T F S S`) or Sunday first
    (`S M T W T F S`, `D S T Q Q S S`), with the languages and orders that read them so."""
    written = "".join(letter.strip().upper() for letter in letters)
    found: dict[Reading, list[str]] = {}
    for language in LANGUAGES:
        sunday_first = language.letters[6] + language.letters[:6]
        if written == language.letters:
            found.setdefault(tuple(range(7)), []).append(f"{language.name}, Monday first")
        if written == sunday_first:
            found.setdefault((6, 0, 1, 2, 3, 4, 5), []).append(f"{language.name}, Sunday first")
    return found


def shown_days(days: Iterable[int]) -> str:
    """Days as messages name them: `Monday`, `Monday, Tuesday`."""
    return ", ".join(DAY_NAMES[day] for day in days)


def told_apart(readings: Mapping[str, list[str]]) -> str:
    """Several readings as a message lists them: `Thursday (German, Dutch) or Sunday (Spanish, Italian)`."""
    return " or ".join(f"{shown} ({', '.join(languages)})" for shown, languages in readings.items())
