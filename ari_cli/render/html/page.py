"""The HTML report: one self-contained page (styles and script inline, nothing fetched) made by Jinja2.

The page carries ranges, never a cell per date or a line per row: a key's dates as (first, last, value)
and the rows as runs of alike rows, in one JSON block that the page's script draws from. A million-row
night stays a few megabytes and is drawn in seconds; without scripts, the first ranges and rows show as
tables. Everything from files or the service is text to Jinja's autoescaping, and the JSON block is
escaped so that no value can end it (`data.py` makes the data of each kind of page).
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib.resources import files
from typing import IO, Any

from markupsafe import Markup

from ari_cli.config.secrets import scrub
from ari_cli.journal.entries import who as who  # the header's "run by" is what the journal records

CLEARED = "n/a"
SHOWN_WITHOUT_SCRIPT = 2000  # ranges and row groups listed when scripts are off; the rest are counted
# Viridis in seven steps, light to dark, each with the text colour that reads on it: told apart without hue
# (colour-blind readers) and in grey print by lightness alone.
STEPS = (("#fde725", "#000"), ("#a0da39", "#000"), ("#4ac16d", "#000"), ("#1fa187", "#000"),
         ("#277f8e", "#fff"), ("#365c8d", "#fff"), ("#46327e", "#fff"))  # fmt: skip
# Okabe and Ito's eight colours, safe for colour-blind readers, for values that are not numbers (policies).
CATEGORIES = ("#e69f00", "#56b4e9", "#009e73", "#f0e442", "#0072b2", "#d55e00", "#cc79a7", "#999999")
EXIT_WORDS = {
    0: "0: every row done",
    1: "1: some rows failed or were not sent",
    2: "2: a usage error",
    3: "3: the input has invalid rows",
    4: "4: a configuration error",
    130: "130: interrupted",
    141: "141: the output was closed",
}


@dataclass(frozen=True, slots=True)
class About:
    """The page's header: what the page is, what ran, on what, where, when and by whom. Never the key."""

    what: str  # what the page is: "a push", "a dry run", "a retry of run 1", "a diff", "run 4 from history"...
    operation: str
    files: Sequence[str] = ()
    base_url: str | None = None
    source_id: str | None = None
    when: dt.datetime | None = None  # the run's (or the page's) moment, shown in the local zone
    user: str = "unknown"
    host: str = "unknown"
    summary: str = ""
    exit_code: int | None = None

    @property
    def title(self) -> str:
        """`ari-cli threshold: a retry of run 1, rooms.csv`: the tab, the mail's attachment list and the heading."""
        named = f", {', '.join(self.files)}" if self.files else ""
        return f"ari-cli {self.operation}: {self.what}{named}"

    @property
    def exit_words(self) -> str:
        if self.exit_code is None:
            return ""
        return EXIT_WORDS.get(self.exit_code, str(self.exit_code))

    @property
    def local_time(self) -> str:
        return "" if self.when is None else local_time(self.when)

    @property
    def iso_time(self) -> str:
        return "" if self.when is None else self.when.isoformat(timespec="seconds")

    @property
    def service(self) -> str:
        """The base URL and source id (never the key: scrubbed of any known one all the same)."""
        return scrub(f"{self.base_url} (source {self.source_id})") if self.base_url else ""


def local_time(moment: dt.datetime) -> str:
    """`2027-01-01 09:14:54 CET (UTC+01:00)`: a moment in this machine's zone, named and with its offset, as a
    manager reading the page reads a clock. The moment is given (the use case's clock): render reads none."""
    local = moment.astimezone()
    offset = local.strftime("%z")
    return f"{local:%Y-%m-%d %H:%M:%S} {local.tzname() or ''} (UTC{offset[:3]}:{offset[3:]})".replace("  ", " ")


@dataclass
class MapData:
    """Per key, its ranges of one value; values and keys each stored once and referred to by number."""

    keys: list[tuple[str, ...]] = field(default_factory=list)
    values: list[str] = field(default_factory=list)
    ranges: list[list[int]] = field(default_factory=list)  # key, first, last (ordinals), value, state
    _key_ids: dict[tuple[str, ...], int] = field(default_factory=dict)
    _value_ids: dict[str, int] = field(default_factory=dict)

    def key(self, key: tuple[str, ...]) -> int:
        key = (*key, "", "", "")[:3] if len(key) < 3 else key  # a run's keys and its invalid rows' meet on one line
        found = self._key_ids.get(key)
        if found is None:
            found = self._key_ids[key] = len(self.keys)
            self.keys.append(key)
        return found

    def value(self, value: str) -> int:
        found = self._value_ids.get(value)
        if found is None:
            found = self._value_ids[value] = len(self.values)
            self.values.append(value)
        return found

    def add(self, key: tuple[str, ...], first: dt.date, last: dt.date, value: str, state: int = 0) -> None:
        """A range of one value; `state` is its place in the page's `states` (what the run did with it)."""
        self.ranges.append([self.key(key), first.toordinal(), last.toordinal(), self.value(value), state])


def _number(value: str) -> float | None:
    try:
        return float(value)
    except ValueError:
        return None


def palette(values: Sequence[str]) -> tuple[list[list[str]], list[list[str]]]:
    """Per value its background and text colour, and the legend's (background, text colour, label) steps.

    Numbers take viridis steps by rank (a few high values do not wash out the rest); anything else a
    category colour. The cleared value is drawn hatched by the page, not coloured here.
    """
    numbers = sorted({n for v in values if v != CLEARED and (n := _number(v)) is not None})
    colours: list[list[str]] = []
    legend: list[list[str]] = []
    if len(numbers) == sum(1 for v in set(values) if v != CLEARED):
        # 0 differs in kind (a threshold of 0 is no hold): it has the first step to itself, never a bin with others.
        zero = bool(numbers) and numbers[0] == 0
        rest = numbers[1:] if zero else numbers
        first = 1 if zero else 0
        steps = min(len(STEPS) - first, len(rest)) or 1
        rank = {n: first + i * steps // len(rest) for i, n in enumerate(rest)}
        if zero:
            rank[0.0] = 0
        for value in values:
            number = _number(value)
            colours.append(list(STEPS[rank[number]]) if number is not None and value != CLEARED else ["", ""])
        for step in range(first + steps):
            inside = [n for n in numbers if rank[n] == step]
            if inside:
                low, high = _shown(inside[0]), _shown(inside[-1])
                # A range of values written as the page writes a range of dates: first..last.
                legend.append([*STEPS[step], low if low == high else f"{low}..{high}"])
        return colours, legend
    order = sorted({v for v in values if v != CLEARED})
    category = {v: CATEGORIES[i % len(CATEGORIES)] for i, v in enumerate(order)}
    colours = [[category[v], "#000"] if v != CLEARED else ["", ""] for v in values]
    legend = [[category[v], "#000", v] for v in order]
    return colours, legend


def _shown(number: float) -> str:
    return str(int(number)) if number.is_integer() else str(number)


def script_json(data: Any) -> str:
    """`data` as JSON that can sit in a `<script>` block: no `<`, `>` or `&` in it can end the block or open
    a comment (each is written as its JSON escape, which JSON.parse reads back unchanged)."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), check_circular=False)
    return (
        text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")
        .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")
    )  # fmt: skip


@cache
def _environment() -> Any:
    import jinja2  # lazy: only a run that writes an HTML report needs the template engine

    # Autoescaping on for every template, whatever its name: the page is all HTML.
    return jinja2.Environment(
        loader=jinja2.PackageLoader("ari_cli.render.html", "templates"),
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=jinja2.StrictUndefined,
    )


def environment() -> Any:
    """The template engine, made once: for pages of their own (`why.py`)."""
    return _environment()


def _asset(name: str) -> str:
    return (files("ari_cli.render.html") / "templates" / name).read_text(encoding="utf-8")


def _packed_keys(keys: list[list[str]]) -> dict[str, Any]:
    """Keys as the script unpacks them: each property once, a key its property's number, room and rate (left out
    when there is none): 200,000 rooms' keys are a fifth of a big run's page."""
    numbers: dict[str, int] = {}
    packed = []
    for prop, room, rate in keys:
        number = numbers.setdefault(prop, len(numbers))
        packed.append([number, room, rate] if rate else [number, room])
    return {"properties": list(numbers), "keys": packed}


def write_page(stream: IO[str], about: About, data: dict[str, Any], tables: dict[str, Any]) -> None:
    """The page: `about` in the header, `data` in the JSON block the script draws, `tables` for readers
    without scripts (see `data.py`)."""
    template = _environment().get_template("report.html.j2")
    colours, legend = palette(data.get("values", []))
    data = {**data, "colours": colours, **_packed_keys(data.get("keys", []))}
    # The legend names each state a range of the page is in (what the run did with it), once.
    used = sorted({r[4] for r in data.get("ranges", [])})
    marks = list({tuple(data["states"][i]): None for i in used if data["states"][i][1]})
    for piece in template.generate(
        about=about,
        legend=legend,
        marks=marks,
        tables=tables,
        # The style and the script are the package's own files, and the data is escaped above: marked safe.
        style=Markup(_asset("report.css")),
        script=Markup(_asset("report.js")),
        data=Markup(script_json(data)),
        limit=SHOWN_WITHOUT_SCRIPT,
    ):
        stream.write(piece)
    stream.flush()
