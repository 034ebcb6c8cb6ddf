"""A calendar of what the service last acknowledged: keys down, days across, one table per month.

Each cell is the value (a letter for a policy, explained below the tables), its background a step
of a small palette by value; `·` is a date nothing was acknowledged for, `n/a` a cleared value.
Without colours the same text stays readable.
"""

from __future__ import annotations

import calendar as months
import contextlib
import datetime as dt
import json
import sys
from collections.abc import Sequence
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from ari_cli.operations import of
from ari_cli.planning.changes import ONE_DAY, CalendarView, Key
from ari_cli.render.console import whole
from ari_cli.render.history import runs as render_history
from ari_cli.render.html.data import write_calendar
from ari_cli.render.printable import echo_err
from ari_cli.render.values import policy_words, text

UNKNOWN = "·"
CLEARED = "n/a"
WEEKDAYS = ("Mo", "Tu", "We", "Th", "Fr", "Sa", "Su")
# Light to dark, each with a text colour that reads on it.
PALETTE = (("black", "#fde725"), ("black", "#a0da39"), ("black", "#4ac16d"), ("black", "#1fa187"),
           ("white", "#277f8e"), ("white", "#365c8d"), ("white", "#46327e"))  # fmt: skip
CATEGORIES = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22",
              "#17becf")  # fmt: skip
UNKNOWN_STYLE = "bright_black"
CLEARED_STYLE = "italic bright_black"


def _letters(n: int) -> str:
    label = ""
    n += 1
    while n:
        n, rest = divmod(n - 1, 26)
        label = chr(ord("A") + rest) + label
    return label


class Scale:
    """Cell text and style for each value shown."""

    def __init__(self, view: CalendarView) -> None:
        self.policy = of(view.operation).structured  # a policy is a letter, a number a shade
        seen: dict[str, None] = {}
        for key in sorted(view.values):
            for day in sorted(view.shown(key)):
                seen.setdefault(view.values[key][day], None)
        self.letters = {value: _letters(n) for n, value in enumerate(seen)} if self.policy else {}
        numbers = sorted({int(v) for v in seen if v.isdigit()})
        steps = len(PALETTE)
        if len(numbers) <= 1:
            self.buckets = {n: 0 for n in numbers}
        elif len(numbers) <= steps:
            # Few values: spread over the whole palette, so that two values never look alike.
            self.buckets = {n: i * (steps - 1) // (len(numbers) - 1) for i, n in enumerate(numbers)}
        else:
            self.buckets = {n: i * steps // len(numbers) for i, n in enumerate(numbers)}

    def cell(self, value: str | None) -> Text:
        if value is None:
            return Text(UNKNOWN, style=UNKNOWN_STYLE)
        if self.policy:
            letter = self.letters.get(value, "?")
            color = CATEGORIES[(ord(letter[-1]) - ord("A")) % len(CATEGORIES)]
            return Text(letter, style=f"bold {color}")
        if value.isdigit() and int(value) in self.buckets:
            ink, paper = PALETTE[self.buckets[int(value)]]
            return Text(value, style=f"{ink} on {paper}")
        return Text(value, style=CLEARED_STYLE if value == CLEARED else "")

    def legend(self, out: Console) -> None:
        marks = Text()
        if self.buckets and out.color_system is not None and not out.no_color:
            spans: dict[int, list[int]] = {}
            for number, step in self.buckets.items():
                spans.setdefault(step, []).append(number)
            for step, numbers in sorted(spans.items()):
                ink, paper = PALETTE[step]
                label = str(numbers[0]) if len(numbers) == 1 else f"{numbers[0]}-{numbers[-1]}"
                marks.append(f" {label} ", style=f"{ink} on {paper}")
                marks.append(" ")
            marks.append("  ")
        marks.append(UNKNOWN, style=UNKNOWN_STYLE)
        marks.append(" nothing acknowledged")
        if not self.policy:
            marks.append("   ")
            marks.append(CLEARED, style=CLEARED_STYLE)
            marks.append(" cleared (no value)")
        out.print(marks)
        for value, letter in self.letters.items():
            line = Text()
            line.append(f"{letter:>3}", style=self.cell(value).style)
            line.append("  ")
            line.append_text(text(policy_words(value)))
            out.print(line)


def _chunks(days: Sequence[dt.date], size: int) -> list[list[dt.date]]:
    """The days cut at each month, and each month in even pieces of at most `size` days."""
    monthly: list[list[dt.date]] = []
    for day in days:
        if not monthly or day.month != monthly[-1][0].month:
            monthly.append([])
        monthly[-1].append(day)
    pieces: list[list[dt.date]] = []
    for month in monthly:
        count = -(-len(month) // size)
        step = -(-len(month) // count)
        pieces += [month[n : n + step] for n in range(0, len(month), step)]
    return pieces


def _cell_width(view: CalendarView, scale: Scale) -> int:
    return max([2, *(len(scale.cell(v).plain) for k in view.values for v in view.shown(k).values())])


def _labels(view: CalendarView) -> list[str]:
    return ["Room", "Rate"] if of(view.operation).has_rate else ["Room"]


def _month_tables(view: CalendarView, scale: Scale, keys: Sequence[Key], names: Sequence[str], size: int,
                  out: Console) -> None:  # fmt: skip
    """A table per month (or piece of one, at most `size` days): a row per key, labelled by `names`."""
    cell_width = _cell_width(view, scale)
    for piece in _chunks(view.days(), size):
        first, last = piece[0], piece[-1]
        full_month = first.day == 1 and (last + ONE_DAY).month != last.month
        span = "" if full_month else f" ({first.day}-{last.day})"
        table = Table(title=f"{months.month_name[first.month]} {first.year}{span}", title_justify="left",
                      box=None, padding=(0, 0, 0, 1), pad_edge=False, show_edge=False)  # fmt: skip
        for name in names:
            table.add_column(name, no_wrap=True, style="bold")
        for day in piece:
            weekend = day.weekday() >= 5
            table.add_column(f"{day.day}\n{WEEKDAYS[day.weekday()]}", justify="right", no_wrap=True,
                             min_width=cell_width, header_style="bold magenta" if weekend else "bold")  # fmt: skip
        for key in keys:
            values = view.values[key]
            labels = [text(part) for part in key[1 : 1 + len(names)]]
            table.add_row(*labels, *(scale.cell(values.get(day)) for day in piece))
        out.print()
        out.print(table)


def calendar(view: CalendarView, out: Console) -> None:
    """The month tables and the legend.

    At a terminal or in a pipe (see `console.piped_width`), each table holds as many days as fit its width.
    Where the keys' labels leave room for less than a week, each key is a short block instead: its labels on a
    line, then its own tables, days only. (The days across are counted here, not by `console.fits`: a calendar
    chooses how many columns it has.)
    """
    scale = Scale(view)
    keys = sorted(view.values)
    names = _labels(view)
    label_width = sum(max([len(n), *(len(k[i + 1]) for k in keys)]) + 2 for i, n in enumerate(names))
    days_across = (out.width - label_width) // (_cell_width(view, scale) + 1)
    out.print(
        text(f"{view.propertyid}: {of(view.operation).words.many} acknowledged by {view.base_url} "
             f"(source {view.source_id}), {view.start}..{view.end}"),
        style="bold",
    )  # fmt: skip
    if days_across >= len(WEEKDAYS):
        _month_tables(view, scale, keys, names, days_across, out)
    else:
        for key in keys:
            heading = Text()
            for name, part in zip(names, key[1:], strict=False):
                heading.append(f"{name} ", style="bold")
                heading.append_text(text(part))
                heading.append("  ")
            out.print()
            whole(out, heading)
            _month_tables(view, scale, [key], [], max(1, out.width // (_cell_width(view, scale) + 1)), out)
    out.print()
    scale.legend(out)


def calendar_dict(view: CalendarView) -> dict[str, Any]:
    """Per key, the acknowledged value of each date shown (dates without one are left out)."""
    keys = []
    for key in sorted(view.values):
        shown = view.shown(key)
        values: dict[str, Any] = {}
        for day in sorted(shown):
            value: Any = shown[day]
            if of(view.operation).structured:
                with contextlib.suppress(ValueError):
                    value = json.loads(value)
            values[day.isoformat()] = value
        keys.append({**dict(zip(("propertyid", "roomid", "rateid"), key, strict=False)), "values": values})
    return {
        "operation": view.operation,
        "propertyid": view.propertyid,
        "base_url": view.base_url,
        "source_id": view.source_id,
        "from": view.start.isoformat(),
        "to": view.end.isoformat(),
        "keys": keys,
    }


def show(view: CalendarView, known: tuple[dt.date, dt.date] | None, form: str, when: dt.datetime | None = None) -> None:
    """`calendar`: tables or one JSON document; on stderr, when no day shown holds a value, which days do."""
    if form == "json":
        render_history.write_json(calendar_dict(view), sys.stdout)
    elif form == "html":
        write_calendar(view, sys.stdout, when)
    else:
        calendar(view, render_history.console())
    if known is not None:
        echo_err(f"nothing acknowledged between {view.start} and {view.end}; the journal has values from {known[0]} to"
                 f" {known[1]}")  # fmt: skip
