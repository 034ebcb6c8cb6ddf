"""OpenDocument spreadsheets written by hand as LibreOffice writes them: `content.xml` from the cells and rows
below, zipped with its mimetype and manifest. Cells are XML text, so that a test writes what openpyxl and
odfpy would not: error cells, formulas with no saved value, covered cells holding a value, repeats.
"""

from __future__ import annotations

import zipfile
from collections.abc import Iterable, Mapping
from pathlib import Path
from xml.sax.saxutils import escape

NAMESPACES = (
    'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
    'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
    'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
    'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" '
    'xmlns:of="urn:oasis:names:tc:opendocument:xmlns:of:1.2" '
    'xmlns:calcext="urn:org:documentfoundation:names:experimental:calc:xmlns:calcext:1.0" office:version="1.3"'
)
MIMETYPE = "application/vnd.oasis.opendocument.spreadsheet"
TAIL = '<table:table-cell table:number-columns-repeated="1020"/>'
"""How LibreOffice ends a row: the empty cells to its last column, in one element."""
END = '<table:table-row table:number-rows-repeated="1048570"><table:table-cell table:number-columns-repeated="1024"/></table:table-row>'
"""How LibreOffice ends a sheet: its empty rows to the last, in one element."""


def text(value: str, extra: str = "") -> str:
    return f'<table:table-cell office:value-type="string" calcext:value-type="string"{extra}><text:p>{escape(value)}</text:p></table:table-cell>'


def number(value: float | int, extra: str = "") -> str:
    return f'<table:table-cell office:value-type="float" office:value="{value}" calcext:value-type="float"{extra}><text:p>{value}</text:p></table:table-cell>'


def empty(repeated: int = 1) -> str:
    return "<table:table-cell/>" if repeated == 1 else f'<table:table-cell table:number-columns-repeated="{repeated}"/>'


def error(formula: str, shown: str, value: str = 'office:value-type="string" office:string-value=""') -> str:
    """A formula whose result is an error, as LibreOffice saves it: its text is the error's name."""
    return f'<table:table-cell table:formula="of:={escape(formula)}" {value} calcext:value-type="error"><text:p>{shown}</text:p></table:table-cell>'


def unsaved(formula: str) -> str:
    """A formula with no saved value, as a program that computes nothing writes it."""
    return f'<table:table-cell table:formula="of:={escape(formula)}"/>'


def row(*cells: str, extra: str = "") -> str:
    return f"<table:table-row{extra}>{''.join(cells)}</table:table-row>"


def columns(*spans: tuple[int, bool]) -> str:
    """Column declarations: (how many, hidden) each, as LibreOffice groups equal columns."""
    return "".join(
        f'<table:table-column table:number-columns-repeated="{count}"'
        + (' table:visibility="collapse"' if hidden else "")
        + "/>"
        for count, hidden in spans
    )


def write_ods(
    path: Path,
    sheets: Mapping[str, Iterable[str]],
    heads: Mapping[str, str] | None = None,
    comment: bool = False,
    styles: str = "",
) -> Path:
    """An .ods with these sheets in order, each its rows' XML (`heads` gives a sheet's column declarations).
    `comment` writes one in content.xml, as spreadsheet programs do not; `styles` are its automatic styles."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("mimetype", MIMETYPE, zipfile.ZIP_STORED)
        with archive.open("content.xml", "w") as content:
            content.write(
                f'<?xml version="1.0" encoding="UTF-8"?><office:document-content {NAMESPACES}>'
                f"{'<!-- by hand -->' if comment else ''}"
                f"{f'<office:automatic-styles>{styles}</office:automatic-styles>' if styles else ''}"
                "<office:body><office:spreadsheet>".encode()
            )
            for name, rows in sheets.items():
                head = (heads or {}).get(name, "")
                content.write(f'<table:table table:name="{escape(name)}">{head}'.encode())
                for piece in rows:  # written as made: a long sheet is never held whole
                    content.write(piece.encode())
                content.write(b"</table:table>")
            content.write(b"</office:spreadsheet></office:body></office:document-content>")
        archive.writestr(
            "META-INF/manifest.xml",
            '<?xml version="1.0" encoding="UTF-8"?><manifest:manifest '
            'xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.3">'
            f'<manifest:file-entry manifest:full-path="/" manifest:media-type="{MIMETYPE}"/>'
            '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>'
            "</manifest:manifest>",
        )
    return path
