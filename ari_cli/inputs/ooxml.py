"""What an Office Open XML workbook (.xlsx, .xlsm) holds around its sheets' cells: its parts and their
relationships, the sheets' names and order, the 1904 date system, the cell styles that show dates, and the
shared strings (the only part held whole).

No part may declare a DOCTYPE (`refuse_doctypes`, before any reader opens the workbook): a workbook has
none, and its entities could expand without bound.
"""

from __future__ import annotations

import csv
import io
import posixpath
import zipfile
import zlib
from collections.abc import Callable
from typing import IO, Any
from xml.parsers import expat

from ari_cli.exits import InputError
from ari_cli.inputs.cells import builtin_kind, format_kind
from ari_cli.inputs.textio import Source

RESAVE_HINT = "open it in the spreadsheet program and save it again (Excel Workbook .xlsx), or save the sheet as CSV"
MAX_SHARED_STRINGS = 64 * 2**20
"""The shared strings are held whole (a cell names one by its number): a part of at most this many bytes,
about three times as much in memory for short texts, is read."""
BLOCK = 1 << 16
_HIDDEN = {"hidden": "hidden", "veryHidden": "very hidden"}
_OFFICE_DOCUMENT = "/officeDocument"
DAMAGED = (zipfile.BadZipFile, zlib.error, OSError, EOFError)  # what unpacking a damaged part raises


class _Refused(Exception):
    """A part declares a DOCTYPE."""


class _Prolog(Exception):
    """A part's root element begins: its prolog, where a DOCTYPE would be, is over."""


def _refuse(*_: Any) -> None:
    raise _Refused


def _prolog_over(*_: Any) -> None:
    raise _Prolog


def refuse_doctypes(archive: zipfile.ZipFile, name: str) -> None:
    """Refuse a workbook any part of which declares a DOCTYPE, before any part is read: its prolog is parsed
    up to the root element. A workbook has none, and its entities could expand without bound (python-calamine
    ignores them; this reader would expand them)."""
    for info in archive.infolist():
        parser = expat.ParserCreate()
        parser.StartDoctypeDeclHandler = _refuse
        parser.StartElementHandler = _prolog_over
        try:
            with archive.open(info) as part:
                while block := part.read(BLOCK):
                    parser.Parse(block, False)
        except _Refused:
            raise InputError(
                f"{name}: its part {info.filename} declares a DOCTYPE, which a workbook never has; refused",
                hint=RESAVE_HINT,
            ) from None
        except (_Prolog, expat.ExpatError, *DAMAGED):
            continue  # its root began, or it is not XML (a picture): nothing is declared


def xml_parser() -> Any:
    """An expat parser for a part whose prolog `refuse_doctypes` has read: it declares no entity."""
    parser = expat.ParserCreate()
    parser.buffer_text = True
    return parser


def prefixed(root: str, *names: str) -> tuple[str, ...]:
    """`names` as a part whose root element is named `root` writes them: with the prefix its root has, if
    any (`<x:worksheet>`: `x:row`), which is the one of the part's own namespace."""
    prefix = root[: root.index(":") + 1] if ":" in root else ""
    return tuple(prefix + name for name in names)


def _local(name: str) -> str:
    """An element's or attribute's name without its prefix (`x:row` is `row`)."""
    return name.rpartition(":")[2]


class Package:
    """An Office Open XML workbook's parts: its sheets' names in order, their parts, what their cells need."""

    def __init__(self, source: Source) -> None:
        self.name = source.name
        file: str | IO[bytes] | None = source.path if source.data is None else io.BytesIO(source.data)
        assert file is not None, "a source is a path or its bytes"
        # From its path, so that closing the archive closes the file (once the rows begun are spent).
        self._archive = zipfile.ZipFile(file)
        try:
            package = self._relations("_rels/.rels", "")
            main = next((t for kind, t in package.values() if kind.endswith(_OFFICE_DOCUMENT)), "xl/workbook.xml")
            self._parts = self._relations(
                posixpath.join(posixpath.dirname(main), "_rels", posixpath.basename(main) + ".rels"),
                posixpath.dirname(main),
            )
            self.sheets: dict[str, str] = {}
            self.hidden: dict[str, str] = {}
            """A hidden sheet's name -> how it is hidden ("hidden", "very hidden")."""
            self.date1904 = False
            self._read(main, self._workbook)
        except BaseException:
            self._archive.close()
            raise

    def _read(
        self,
        part: str,
        start: Callable[[str, dict[str, str]], None],
        text: Callable[[str], None] | None = None,
        end: Callable[[str], None] | None = None,
    ) -> None:
        """Parse a whole part with these handlers (names without their prefix)."""
        parser = xml_parser()
        parser.StartElementHandler = lambda name, attrs: start(_local(name), attrs)
        if text is not None:
            parser.CharacterDataHandler = text
        if end is not None:
            parser.EndElementHandler = lambda name: end(_local(name))
        try:
            with self._open(part) as stream:
                parser.ParseFile(stream)
        except (*DAMAGED, expat.ExpatError) as problem:
            raise InputError(f"{self.name}: cannot read the workbook: {part}: {problem}", hint=RESAVE_HINT) from None

    def _open(self, part: str) -> IO[bytes]:
        try:
            return self._archive.open(part)
        except KeyError:
            raise InputError(
                f"{self.name}: cannot read the workbook: it has no part {part}", hint=RESAVE_HINT
            ) from None

    def _relations(self, part: str, folder: str) -> dict[str, tuple[str, str]]:
        """A relationships part: id -> (type, the target's path in the archive)."""
        found: dict[str, tuple[str, str]] = {}

        def start(name: str, attrs: dict[str, str]) -> None:
            if name == "Relationship" and attrs.get("TargetMode") != "External":
                target = attrs.get("Target", "")
                path = (
                    target.lstrip("/") if target.startswith("/") else posixpath.normpath(posixpath.join(folder, target))
                )
                found[attrs.get("Id", "")] = (attrs.get("Type", ""), path)

        if part in self._archive.NameToInfo:
            self._read(part, start)
        return found

    def _workbook(self, name: str, attrs: dict[str, str]) -> None:
        if name == "workbookPr":
            self.date1904 = attrs.get("date1904", "0").lower() in ("1", "true")
        elif name == "sheet":
            relation = next((value for key, value in attrs.items() if ":" in key and _local(key) == "id"), "")
            name = attrs.get("name", "")
            self.sheets[name] = self._parts.get(relation, ("", ""))[1]
            state = attrs.get("state", "visible")
            if state in _HIDDEN:
                self.hidden[name] = _HIDDEN[state]

    @property
    def sheet_names(self) -> list[str]:
        return list(self.sheets)

    def _part_of(self, kind: str) -> str | None:
        return next((path for type_, path in self._parts.values() if type_.endswith(kind)), None)

    def strings(self) -> list[str]:
        """The shared strings, each the text of its runs (its phonetic guide left out)."""
        part = self._part_of("/sharedStrings")
        if part is None or part not in self._archive.NameToInfo:
            return []
        unpacked = self._archive.getinfo(part).file_size
        if unpacked > MAX_SHARED_STRINGS:
            raise InputError(
                f"{self.name}: its shared strings ({part}) unpack to {unpacked:,} bytes; "
                f"at most {MAX_SHARED_STRINGS // 2**20} MiB are read, as they are held in memory",
                hint="save the sheet as CSV (UTF-8), which is streamed whatever its size",
            )
        strings: list[str] = []
        pieces: list[str] = []
        state = {"text": False, "phonetic": 0}

        def start(name: str, attrs: dict[str, str]) -> None:
            if name == "si":
                pieces.clear()
            elif name == "rPh":
                state["phonetic"] += 1
            elif name == "t":
                state["text"] = not state["phonetic"]

        def text(data: str) -> None:
            if state["text"]:
                pieces.append(data)

        def end(name: str) -> None:
            if name == "t":
                state["text"] = False
            elif name == "rPh":
                state["phonetic"] -= 1
            elif name == "si":
                strings.append(_bounded(self.name, part, "".join(pieces)))

        self._read(part, start, text, end)
        return strings

    def styles(self) -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
        """The cell styles (`s=`) whose number format is a date or time, those of an elapsed time, and those of
        a percentage."""
        part = self._part_of("/styles")
        custom: dict[str, str] = {}
        formats: list[str] = []  # each cell style's number format, in order
        inside = {"cellXfs": False}

        def start(name: str, attrs: dict[str, str]) -> None:
            if name == "numFmt":
                custom[attrs.get("numFmtId", "")] = attrs.get("formatCode", "")
            elif name == "cellXfs":
                inside["cellXfs"] = True
            elif name == "xf" and inside["cellXfs"]:
                formats.append(attrs.get("numFmtId", "0"))

        def end(name: str) -> None:
            if name == "cellXfs":
                inside["cellXfs"] = False

        if part is not None and part in self._archive.NameToInfo:
            self._read(part, start, end=end)
        kinds = [format_kind(custom[f]) if f in custom else builtin_kind(f) for f in formats]
        return (
            frozenset(str(i) for i, kind in enumerate(kinds) if kind == "date"),
            frozenset(str(i) for i, kind in enumerate(kinds) if kind == "duration"),
            frozenset(str(i) for i, kind in enumerate(kinds) if kind == "percent"),
        )

    def sheet_part(self, sheet: str, where: str) -> IO[bytes]:
        """The part of a sheet, open: it outlives `close()`."""
        part = self.sheets[sheet]
        if part not in self._archive.NameToInfo:
            raise InputError(f"{where}: cannot read the sheet: the workbook has no part for it", hint=RESAVE_HINT)
        return self._archive.open(part)

    def close(self) -> None:
        self._archive.close()


def _bounded(where: str, part: str, text: str) -> str:
    limit = csv.field_size_limit()
    if len(text) > limit:
        raise InputError(f"{where}: {part}: a cell's text is longer than {limit} characters", hint=RESAVE_HINT)
    return text
