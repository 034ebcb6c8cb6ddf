"""What a view at a given width must keep: every line within the width, unless it is one word too long for any
line (a long file path, as pytest-xdist's temporary paths are), printed whole for a reader to copy."""

from __future__ import annotations

import re

from rich.cells import cell_len


def within(shown: str, columns: int) -> None:
    """No line wider than `columns` but a single word too long for it; nothing cut with an ellipsis."""
    assert "…" not in shown.replace("sand…0001", "")  # the key is shown masked; nothing else is cut
    too_wide = [line for line in shown.splitlines() if cell_len(line) > columns and len(line.split()) > 1]
    assert not too_wide, too_wide


def whole(shown: str, word: str) -> bool:
    """Whether `word` (an id, a date, a value, `file:line`) appears whole on one line, not split nor cut."""
    return any(re.search(rf"(?<![^\s|]){re.escape(word)}(?![^\s|,;:)])", line) for line in shown.splitlines())


def row_with(shown: str, word: str, header: str) -> str:
    """The row that holds `word`: its line of a table, or its block (its lines up to a blank one) when the rows
    are shown as blocks, `word` on the line of `header`."""
    for paragraph in shown.split("\n\n"):
        for line in paragraph.splitlines():
            if whole(line, word):
                return paragraph if re.match(rf"{re.escape(header)}\s", line) else line
    raise AssertionError(f"{word} is not shown whole:\n{shown}")
