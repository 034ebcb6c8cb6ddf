"""Workbooks written by hand as the XML a spreadsheet program writes, for what openpyxl cannot make:
inline strings, sparse cells, gaps between rows, the 1904 date system, any number format, a DOCTYPE.

The benchmarks write their million-row sheet with it too: rows go to the archive as they are made.
"""

from __future__ import annotations

import datetime as dt
import zipfile
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from xml.sax.saxutils import escape

MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
RELS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PACKAGE_RELS = "http://schemas.openxmlformats.org/package/2006/relationships"
OFFICE = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
EPOCH_1900 = dt.date(1899, 12, 30)  # Excel's day 0 (its day 60 is the 29 February 1900 that never was)
EPOCH_1904 = dt.date(1904, 1, 1)
WORKBOOK_1904 = ' date1904="1"'
DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>'
DOCTYPE = '<!DOCTYPE x [<!ENTITY a "aaaaaaaaaa">]>'


def inline(ref: str, text: str) -> str:
    return f'<c r="{ref}" t="inlineStr"><is><t>{escape(text)}</t></is></c>'


def shared(ref: str, index: int) -> str:
    return f'<c r="{ref}" t="s"><v>{index}</v></c>'


def number(ref: str, value: float | int | str, style: int | None = None) -> str:
    styled = "" if style is None else f' s="{style}"'
    return f'<c r="{ref}"{styled}><v>{value}</v></c>'


def date(ref: str, day: dt.date, style: int = 1, epoch: dt.date = EPOCH_1900) -> str:
    """A date cell: its serial number, shown through a style whose format is a date format."""
    return number(ref, (day - epoch).days, style)


def row(number_: int | None, *cells: str) -> str:
    at = "" if number_ is None else f' r="{number_}"'
    return f"<row{at}>{''.join(cells)}</row>"


def _styles(formats: Mapping[int, str], cell_formats: Sequence[int]) -> str:
    custom = "".join(
        f'<numFmt numFmtId="{i}" formatCode="{escape(code, {chr(34): "&quot;"})}"/>' for i, code in formats.items()
    )
    xfs = "".join(
        f'<xf numFmtId="{i}" fontId="0" fillId="0" borderId="0" applyNumberFormat="1"/>' for i in cell_formats
    )
    return (
        f'{DECLARATION}<styleSheet xmlns="{MAIN}">'
        f'<numFmts count="{len(formats)}">{custom}</numFmts>'
        '<fonts count="1"><font/></fonts><fills count="1"><fill/></fills><borders count="1"><border/></borders>'
        f'<cellXfs count="{len(cell_formats)}">{xfs}</cellXfs></styleSheet>'
    )


def write_workbook(
    path: Path,
    sheets: Mapping[str, Iterable[str]],
    *,
    strings: Sequence[str] = (),
    formats: Mapping[int, str] | None = None,
    cell_formats: Sequence[int] = (0, 164),
    date1904: bool = False,
    doctype: str | None = None,
    pictures: Mapping[str, bytes] | None = None,
    states: Mapping[str, str] | None = None,
    heads: Mapping[str, str] | None = None,
) -> Path:
    """A workbook of these sheets, in order, each the `<row>` elements given (written as they come).

    `cell_formats` are the styles' number format ids, in the order cells name them by `s=`: by default
    style 1 is the custom format 164, `yyyy-mm-dd`. `doctype` names a part that gets a DOCTYPE. `pictures`
    are parts under xl/media/, stored as they are (a picture packs no further), as an image pasted in adds.
    `states` gives a sheet's `state=` ("hidden", "veryHidden"); `heads` what a sheet declares before its rows
    (`<cols>`).
    """
    formats = {164: "yyyy-mm-dd"} if formats is None else formats
    names = list(sheets)
    types = "".join(
        f'<Override PartName="/xl/worksheets/sheet{i}.xml" '
        'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
        for i in range(1, len(names) + 1)
    )
    parts = {
        "[Content_Types].xml": (
            f"{DECLARATION}"
            '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
            '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
            '<Default Extension="xml" ContentType="application/xml"/>'
            '<Override PartName="/xl/workbook.xml" '
            'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
            '<Override PartName="/xl/styles.xml" '
            'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>'
            '<Override PartName="/xl/sharedStrings.xml" '
            'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>'
            f"{types}</Types>"
        ),
        "_rels/.rels": (
            f'{DECLARATION}<Relationships xmlns="{PACKAGE_RELS}">'
            f'<Relationship Id="rId1" Type="{OFFICE}/officeDocument" Target="xl/workbook.xml"/></Relationships>'
        ),
        "xl/workbook.xml": (
            f'{DECLARATION}<workbook xmlns="{MAIN}" xmlns:r="{RELS}">'
            f"<workbookPr{WORKBOOK_1904 if date1904 else ''}/><sheets>"
            + "".join(
                f'<sheet name="{escape(name, {chr(34): "&quot;"})}" sheetId="{i}" r:id="rId{i}"'
                + (f' state="{states[name]}"/>' if states and name in states else "/>")
                for i, name in enumerate(names, start=1)
            )
            + "</sheets></workbook>"
        ),
        "xl/_rels/workbook.xml.rels": (
            f'{DECLARATION}<Relationships xmlns="{PACKAGE_RELS}">'
            + "".join(
                f'<Relationship Id="rId{i}" Type="{OFFICE}/worksheet" Target="worksheets/sheet{i}.xml"/>'
                for i in range(1, len(names) + 1)
            )
            + f'<Relationship Id="rId{len(names) + 1}" Type="{OFFICE}/styles" Target="styles.xml"/>'
            f'<Relationship Id="rId{len(names) + 2}" Type="{OFFICE}/sharedStrings" Target="sharedStrings.xml"/>'
            "</Relationships>"
        ),
        "xl/styles.xml": _styles(formats, cell_formats),
        "xl/sharedStrings.xml": (
            f'{DECLARATION}<sst xmlns="{MAIN}" count="{len(strings)}" '
            f'uniqueCount="{len(strings)}">' + "".join(f"<si><t>{escape(s)}</t></si>" for s in strings) + "</sst>"
        ),
    }
    if doctype in parts:
        parts[doctype] = parts[doctype].replace(DECLARATION, DECLARATION + DOCTYPE, 1)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, text in parts.items():
            archive.writestr(name, text)
        for name, data in (pictures or {}).items():
            archive.writestr(f"xl/media/{name}", data, zipfile.ZIP_STORED)
        for i, (title, rows) in enumerate(sheets.items(), start=1):
            part = f"xl/worksheets/sheet{i}.xml"
            head = f'{DECLARATION}{DOCTYPE if doctype == part else ""}<worksheet xmlns="{MAIN}" xmlns:r="{RELS}">'
            head += (heads or {}).get(title, "")
            with archive.open(part, "w") as out:
                out.write(f"{head}<sheetData>".encode())
                chunk: list[str] = []
                for text in rows:
                    chunk.append(text)
                    if len(chunk) == 4096:
                        out.write("".join(chunk).encode())
                        chunk.clear()
                out.write(("".join(chunk) + "</sheetData></worksheet>").encode())
    return path
