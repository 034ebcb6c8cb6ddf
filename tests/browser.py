"""Headless Chromium for the HTML report's tests: the page as a person's browser draws it.

Where Chromium is missing the tests that need it skip, saying so; they never pass without it.
"""

from __future__ import annotations

import re
import shutil
import struct
import subprocess
import sys
import zlib
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

import pytest

BIN = Path(sys.executable).parent
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
needs_browser = pytest.mark.skipif(
    CHROMIUM is None, reason="no chromium on PATH (apt-get install chromium): the page cannot be drawn"
)
# --no-sandbox: CI runs as root in a container; the page is our own file.
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions"]


def ari(*args: str, env: dict[str, str] | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """The console script, as a user runs it."""
    return subprocess.run([str(BIN / "ari-cli"), *args], capture_output=True, text=True, env=env, cwd=cwd, timeout=120)


def dom(page: Path, query: str = "", size: str = "1400,900") -> str:
    """The page's DOM after its script ran, as Chromium serializes it, drawn in a window of `size` pixels."""
    assert CHROMIUM is not None
    done = subprocess.run([CHROMIUM, *FLAGS, f"--window-size={size}", "--hide-scrollbars", "--dump-dom",
                           page.resolve().as_uri() + query], capture_output=True, text=True, timeout=180)  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


_FRAME = """<!DOCTYPE html><html><body><iframe id="page" src="{src}" style="width:{width}px;height:900px;border:0">
</iframe><script>
var frame = document.getElementById("page");
frame.addEventListener("load", function () {{
  var body = frame.contentDocument.body;
  Object.keys(body.dataset).forEach(function (name) {{ document.body.dataset[name] = body.dataset[name]; }});
  document.body.dataset.viewport = String(frame.contentWindow.innerWidth);
}});
</script></body></html>"""


def narrow(page: Path, width: int) -> dict[str, str]:
    """The page's body attributes (its marker, width and blocks that scroll) drawn `width` CSS pixels wide.

    Headless Chromium's window is never narrower than 500 pixels: the page is drawn in a frame of that width
    instead, and the frame's page is read through the file's access to its neighbours."""
    assert CHROMIUM is not None
    frame = page.with_name(f"frame-{width}-{page.name}")
    frame.write_text(_FRAME.format(src=page.name, width=width), encoding="utf-8")
    done = subprocess.run([CHROMIUM, *FLAGS, "--allow-file-access-from-files", "--dump-dom", frame.resolve().as_uri()],
                          capture_output=True, text=True, timeout=180)  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    return drawn(done.stdout).body


def screenshot(page: Path, target: Path, size: str = "1400,900") -> bytes:
    assert CHROMIUM is not None
    done = subprocess.run([CHROMIUM, *FLAGS, f"--window-size={size}", "--hide-scrollbars",
                           f"--screenshot={target}", page.resolve().as_uri()],
                          capture_output=True, text=True, timeout=180)  # fmt: skip
    assert done.returncode == 0 and target.exists(), done.stderr[-2000:]
    return target.read_bytes()


def pdf_pages(page: Path, target: Path) -> list[tuple[float, float]]:
    """Chromium's print of the page: the width and height of each page, in points."""
    assert CHROMIUM is not None
    done = subprocess.run([CHROMIUM, *FLAGS, "--no-pdf-header-footer", f"--print-to-pdf={target}",
                           page.resolve().as_uri()], capture_output=True, text=True, timeout=180)  # fmt: skip
    assert done.returncode == 0 and target.exists(), done.stderr[-2000:]
    boxes = re.findall(rb"/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]", target.read_bytes())
    return [(float(w), float(h)) for w, h in boxes]


def png_colours(png: bytes) -> set[tuple[int, ...]]:
    """The distinct pixels of an 8-bit RGB or RGBA PNG (what Chromium writes), its filters undone."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    at, idat, width, height, channels = 8, b"", 0, 0, 0
    while at < len(png):
        length, kind = struct.unpack(">I4s", png[at : at + 8])
        chunk = png[at + 8 : at + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", chunk[:10])
            assert depth == 8 and colour in (2, 6)
            channels = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += chunk
        at += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    previous = bytearray(stride)
    colours: set[tuple[int, ...]] = set()
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)])
        for x in range(stride):
            a = line[x - channels] if x >= channels else 0
            b = previous[x]
            c = previous[x - channels] if x >= channels else 0
            if kind == 1:
                line[x] = (line[x] + a) & 255
            elif kind == 2:
                line[x] = (line[x] + b) & 255
            elif kind == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        if y % 8 == 0:  # every eighth line is plenty to tell a drawn page from a blank one
            colours.update(tuple(line[x : x + channels]) for x in range(0, stride, channels * 4))
        previous = line
    return colours


@dataclass
class Cell:
    """A range of the map as drawn: the line it is on, its dates, value, title, label and classes."""

    property: str
    room: str
    rate: str
    first: str
    last: str
    value: str
    title: str
    label: str
    classes: set[str]
    style: str = ""


@dataclass
class Drawn:
    """What the DOM shows: the map's lines and cells, the hidden lines, the rows tables' lines."""

    lines: list[tuple[str, str, str, bool]] = field(default_factory=list)  # property, room, rate, hidden: a month's
    months: list[tuple[str, str]] = field(default_factory=list)  # each month block: its property and month (2027-01)
    glances: list[tuple[str, str]] = field(default_factory=list)  # each key's year at a glance: property, room
    cells: list[Cell] = field(default_factory=list)
    rows: dict[str, list[list[str]]] = field(default_factory=dict)  # table id: its body rows' cells
    body: dict[str, str] = field(default_factory=dict)
    weekends: list[int] = field(default_factory=list)  # the shaded columns of the first property, 1 = its first date

    def cell(self, room: str, day: str, property: str = "HTL001") -> Cell:
        found = [c for c in self.cells if (c.property, c.room) == (property, room) and c.first <= day <= c.last]
        assert len(found) == 1, f"{len(found)} cells of {property} {room} on {day}"
        return found[0]

    def visible_rooms(self) -> list[str]:
        return [room for _, room, _, hidden in self.lines if not hidden]


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.drawn = Drawn()
        self.line: dict[str, str] | None = None
        self.table: str | None = None
        self.row: list[str] | None = None
        self.text: list[str] | None = None
        self.weekends = False
        self.property = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        classes = set(a.get("class", "").split())
        if tag == "body":
            self.drawn.body = a
        if tag == "div" and "weekends" in classes:
            self.weekends = not self.drawn.weekends
        elif tag == "div":
            self.weekends = False
        if tag == "span" and self.weekends:
            self.drawn.weekends.append(int(re.search(r"grid-column: (\d+)", a["style"]).group(1)))  # type: ignore[union-attr]
        if tag == "section" and "property" in classes:
            self.property = a["data-property"]
        if tag == "section" and "month" in classes:
            self.drawn.months.append((self.property, a["data-month"]))
        if tag == "figure" and "room" in classes:
            self.drawn.glances.append((a["data-property"], a["data-room"]))
        if tag == "div" and "line" in classes and "head" not in classes:
            self.line = a
            # A key has a line in every month block: the lines of the first month are the page's list of them.
            # (A big run's page draws a key's own months, a line each.)
            if not self.drawn.months or a["data-month"] == self.drawn.months[0][1]:
                self.drawn.lines.append((a["data-property"], a["data-room"], a["data-rate"], "hidden" in classes))
        if tag == "span" and "r" in classes and self.line is not None:
            self.drawn.cells.append(Cell(self.line["data-property"], self.line["data-room"], self.line["data-rate"],
                                         a["data-from"], a["data-to"], a["data-value"], a["title"], a["aria-label"],
                                         classes, a.get("style", "")))  # fmt: skip
        if tag == "div" and a.get("id") in ("rows-table", "diff-table"):
            self.table = a["id"]
            self.drawn.rows[self.table] = []
        if tag == "tr" and self.table is not None:
            self.row = []
        if tag == "td" and self.row is not None:
            self.text = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "td" and self.row is not None and self.text is not None:
            self.row.append("".join(self.text).strip())
            self.text = None
        if tag == "tr" and self.row is not None and self.table is not None:
            if self.row:
                self.drawn.rows[self.table].append(self.row)
            self.row = None
        if tag == "table":
            self.table = None

    def handle_data(self, data: str) -> None:
        if self.text is not None:
            self.text.append(data)


def drawn(html: str) -> Drawn:
    reader = _Reader()
    reader.feed(html)
    return reader.drawn
