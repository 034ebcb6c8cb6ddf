"""An export written: a CSV file (the header as comment lines, then every property's rows under one header
row; named policies in a TOML file beside it), or a workbook (the header's sheet first, a sheet per property,
then the named policies' sheet), written with openpyxl.

openpyxl is imported here, at the top: only an export loads this module (`app/export.py`), so neither
`--help` nor a push pays for it."""

from __future__ import annotations

import csv
import os
from collections.abc import Sequence
from pathlib import Path

from openpyxl import Workbook

from ari_cli.exportfile.header import POLICIES_SHEET, SHEET, Header
from ari_cli.exportfile.tables import Table

_TITLE_BANNED = str.maketrans({c: "_" for c in "[]:*?/\\"})  # characters a sheet's title may not hold


def policies_path(path: Path) -> Path:
    """Where a CSV export's named policies go: beside it, its name ending in `.toml`."""
    return path.with_suffix(".toml")


def _replace(temporary: Path, path: Path) -> None:
    os.replace(temporary, path)  # a reader never sees half a file


def write_csv(path: Path, header: Header, tables: Sequence[Table], policies: str | None) -> None:
    temporary = path.with_name(f".{path.name}.part")
    with open(temporary, "w", encoding="utf-8", newline="") as stream:
        stream.writelines(line + "\n" for line in header.comments())
        writer = csv.writer(stream, lineterminator="\n")
        if tables:
            writer.writerow(tables[0].columns)
        for table in tables:
            writer.writerows(table.rows)
    _replace(temporary, path)
    if policies is not None:
        policies_path(path).write_text(policies, encoding="utf-8")


def _title(propertyid: str, taken: set[str]) -> str:
    """A sheet's title for a property: at most 31 characters, none that Excel refuses, unique (case folded)."""
    base = (propertyid.translate(_TITLE_BANNED).strip("'") or "property")[:31]
    title, number = base, 1
    while title.casefold() in taken:
        number += 1
        title = f"{base[: 31 - len(str(number)) - 1]}~{number}"
    taken.add(title.casefold())
    return title


def _cell(text: str) -> str | int | None:
    """A value's cell: a count as a number (as a person types it), blank as no cell at all."""
    if not text:
        return None
    return int(text) if text.isdigit() else text


def write_xlsx(path: Path, header: Header, tables: Sequence[Table], policies: str | None) -> None:
    book = Workbook()
    first = book.active
    assert first is not None, "a new workbook has a sheet"
    first.title = SHEET
    for label, value in header.lines():
        first.append([label, value])
    taken = {SHEET, POLICIES_SHEET}
    for table in tables:
        sheet = book.create_sheet(_title(table.propertyid, taken))
        sheet.append(list(table.columns))
        for row in table.rows:
            sheet.append([*row[: table.keys], *map(_cell, row[table.keys :])])
    if policies is not None:
        sheet = book.create_sheet(POLICIES_SHEET)
        for line in policies.splitlines():
            sheet.append([line])
    temporary = path.with_name(f".{path.name}.part")
    book.save(temporary)
    _replace(temporary, path)
