"""Lines of a table that are not rows of it: a note or a total under the data, the column names again (a second
table). Such a line breaks the rules as a row; it is named for what it is, instead of with a problem per field
(`Note: approved by J. Smith` is not a property whose room is empty).

Only a line that is already refused is looked at, so real data is never called a note: a valid row is a row,
whatever it holds. A refused line is a note or a total only when it lacks its property or room and its first
filled cell says so (`Total`, `Summe`, `Note:`; with its property and room, only that word alone), or it holds
one cell of prose and nothing else; it repeats the column names when most of its filled cells (two at least) are
names of the columns they stand in.
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from collections.abc import Mapping
from typing import Any

from ari_cli.exits import InputError
from ari_cli.inputs.names import CANONICAL, normalize
from ari_cli.inputs.weekdays import WeekdayFlags
from ari_cli.records.dates import parse_date
from ari_cli.records.rules import RowErrors, text

# The words a total's or a note's first cell begins with, in the languages of `inputs/languages.py`, as `_plain`
# writes them.
_TOTALS = ("total", "totals", "grand total", "sum", "summe", "gesamt", "gesamtsumme", "insgesamt", "zwischensumme",
           "endsumme", "subtotal", "sub total", "totaux", "total general", "somme", "sous total", "totale", "somma",
           "totaal", "subtotaal", "som", "suma", "soma", "total geral")  # fmt: skip
_NOTES = ("note", "notes", "nb", "comment", "comments", "remark", "remarks", "anmerkung", "anmerkungen",
          "hinweis", "bemerkung", "bemerkungen", "kommentar", "remarque", "remarques", "commentaire", "nota",
          "notas", "observacion", "observaciones", "observacao", "observacoes", "opmerking", "opmerkingen")  # fmt: skip
_STARTS = re.compile(
    r"(?:(?P<total>{})|(?P<note>{}))(?:$|[\s:,;(])".format(*("|".join(map(re.escape, w)) for w in (_TOTALS, _NOTES)))
)
_IDS = ("propertyid", "roomid", "rateid")
_ANY_DAY = dt.date(2000, 1, 1)  # `today` for the date rule: no header date is relative
_DATES = ("start", "date", "period")
_PROSE = re.compile(r"[^\W\d_]{2,}.*\s")  # a word of letters, then a space: `approved by J. Smith`


def stray(fields: Mapping[str, Any]) -> str | None:
    """What a refused line is when it is no row of the table: "a note", "a total", "names" (the column names
    again); None for a row (worded field by field)."""
    cells = [(name, text(value)) for name, value in fields.items() if not isinstance(value, WeekdayFlags)]
    filled = [(name, written) for name, written in cells if written]
    if not filled:
        return None
    named = sum(CANONICAL.get(normalize(written)) == name for name, written in filled)
    # A grid's line is read as pieces, each with its header's date beside the cell: ids naming their columns
    # (`property`, `room`) beside cells that are all dates are the column names again, a second grid's header.
    ids = [CANONICAL.get(normalize(written)) == name for name, written in filled if name in _IDS]
    dated = all(_a_date(fields[name]) for name, _ in filled if name not in _IDS)
    # A grid with rooms across: its date column's name again, in the one cell that gives both ends of the piece.
    day = text(fields.get("start"))
    again = CANONICAL.get(normalize(day)) in _DATES and day == text(fields.get("end"))
    # A grid's header gives its cells their meaning (the dates or rooms across): under a second one, the lines are
    # read with the first one's, so a second grid's header is told apart from a rows table's repeated header.
    if len(ids) >= 2 and all(ids) and dated:
        return "grid names"
    if again and CANONICAL.get(normalize(text(fields.get("roomid")))) != "roomid":
        return "grid names"
    if again or (named >= 2 and 2 * named > len(filled)):
        return "names"
    for name in _DATES:
        # A date cell that says Total or Note (a grid's date column) is that, whatever the key beside it.
        said = _STARTS.match(_plain(text(fields.get(name))))
        if said is not None:
            return "a total" if said.group("total") else "a note"
    first = _plain(filled[0][1])
    starts = _STARTS.match(first)
    if text(fields.get("propertyid")) and text(fields.get("roomid")):
        # A row with its key has its fields' problems, unless its first cell is that word alone (`Total`, `Note:`
        # beside the note's text): a property called `Total Hotel` is a property.
        if starts is None or starts.end() < len(first.rstrip(":").rstrip()):
            return None
    elif starts is None:
        return "a note" if len(filled) == 1 and _PROSE.match(filled[0][1]) else None
    return "a total" if starts.group("total") else "a note"


def _a_date(cell: Any) -> bool:
    """Whether a cell is a date (a grid header's cell), by the one date rule."""
    if isinstance(cell, dt.date):
        return True
    try:
        parse_date(text(cell), _ANY_DAY)
    except ValueError:
        return False
    return True


def _plain(written: str) -> str:
    """A cell's text as the words above are written: lower case, without accents or dots, `-` and `_` as spaces
    (`Total général` is total general, `N.B.:` is nb:, `Sous-total` is sous total)."""
    plain = unicodedata.normalize("NFKD", written.lower().replace(".", ""))
    return re.sub(r"[\s_\-]+", " ", "".join(c for c in plain if not unicodedata.combining(c))).strip()


def line_problems(errs: RowErrors, fields: Mapping[str, Any]) -> list[str]:
    """A refused line's problems: each field's (`errs`), or the one that says it is no row (`stray`)."""
    found = stray(fields)
    if found is None:
        return errs.messages
    if found == "grid names":
        # Not a refused row that --skip-invalid could leave out: the lines under it would be sent to the first
        # grid's dates or rooms.
        raise InputError(
            f"{errs.where} repeats a grid's column names: a second grid under the first, whose lines would be read "
            "with the first one's dates or rooms; nothing was sent",
            hint="give each grid a file (or a sheet) of its own",
        )
    if found == "names":
        return [f"{errs.where} repeats the column names: a second table? Give each table a file (or a sheet) of "
                "its own, or remove the line"]  # fmt: skip
    return [f"{errs.where} looks like {found}: remove it or end the table above it"]
