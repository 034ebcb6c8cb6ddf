"""Showing a diff: a table grouped by property and room, a summary line, the JSON and CSV documents, the page.

Values are shown as the service is told them; policies in words, and where two policies differ only
the part that differs (the cancellation, or the deposit). Lines name the input rows of each range.
"""

from __future__ import annotations

import datetime as dt
import json
import sys
from collections.abc import Iterable, Iterator, Sequence
from itertools import islice
from typing import IO, Any, TypeVar

from rich.console import Console
from rich.table import Table
from rich.text import Text

from ari_cli.config.secrets import scrub
from ari_cli.operations import of
from ari_cli.planning.diff import CHANGES, Change, DiffView, Kind, summary
from ari_cli.records.rules import shown_dates
from ari_cli.render.console import console, fitted, styled_table
from ari_cli.render.html.data import map_part
from ari_cli.render.html.page import SHOWN_WITHOUT_SCRIPT, About, MapData, who, write_page
from ari_cli.render.printable import json_printable, printable
from ari_cli.render.push.run import csv_line, neutral
from ari_cli.render.values import lines_text, plural, policy_parts, text

_STYLE = {Kind.NEW: "cyan", Kind.CHANGED: "bold yellow", Kind.CLEARED: "magenta", Kind.SAME: "dim"}
NOTHING = "-"  # a value the journal knows nothing of
T = TypeVar("T")
_AT_ONCE = 4096
CSV_FIELDS = ("propertyid", "roomid", "rateid", "start", "end", "kind", "before", "after", "lines")


def _chunks(items: Iterable[T], size: int) -> Iterator[list[T]]:
    """`items` a list of at most `size` at a time (itertools.batched, before Python 3.12)."""
    it = iter(items)
    while chunk := list(islice(it, size)):
        yield chunk


def values_text(operation: str, change: Change) -> tuple[str, str]:
    """Before and after as a person reads them: policies in words, only the part that differs when both are known."""
    if not of(operation).structured:
        return change.before if change.before is not None else NOTHING, change.after
    after = policy_parts(change.after)
    if change.before is None:
        return NOTHING, " ".join(after)
    before = policy_parts(change.before)
    if change.kind is Kind.SAME or len(before) != len(after):
        return " ".join(before), " ".join(after)
    differ = [n for n, (b, a) in enumerate(zip(before, after, strict=True)) if b != a] or list(range(len(after)))
    return " ".join(before[n] for n in differ), " ".join(after[n] for n in differ)


def summary_dict(changes: Sequence[Change], rows: int = 0, invalid: int = 0, skipped: int = 0) -> dict[str, Any]:
    """Rows read, and ranges and dates of each kind; `unknown_share`: how much of the plan the journal knows nothing
    of."""
    tallies = summary(changes)
    dates = sum(t.dates for t in tallies.values())
    return {
        "rows": rows,
        "invalid": invalid,
        "skipped": skipped,
        "ranges": sum(t.ranges for t in tallies.values()),
        "dates": dates,
        **{kind.value: {"ranges": t.ranges, "dates": t.dates} for kind, t in tallies.items()},
        "unknown_share": round(tallies[Kind.NEW].dates / dates, 4) if dates else 0.0,
    }


def summary_line(view: DiffView) -> str:
    """`4 ranges over 40 dates: 1 new (2 dates), 1 changed (5 dates), 0 cleared, 2 same (33 dates); the journal
    knows nothing of 2 of 40 dates (5%)`."""
    tallies = summary(view.changes)
    dates = sum(t.dates for t in tallies.values())
    if not dates:
        read = f"{plural(view.rows, 'row')} read, {view.skipped} skipped, {view.invalid} invalid"
        return f"nothing planned to compare ({read})"
    kinds = ", ".join(
        f"{t.ranges} {kind.value}" + (f" ({plural(t.dates, 'date')})" if t.ranges else "")
        for kind, t in tallies.items()
    )
    head = f"{plural(sum(t.ranges for t in tallies.values()), 'range')} over {plural(dates, 'date')}: {kinds}"
    unknown = tallies[Kind.NEW].dates
    if unknown == dates:
        known = "the journal knows nothing of any of these dates"
    else:
        known = f"the journal knows nothing of {unknown} of {plural(dates, 'date')} ({_percent(unknown, dates)})"
    return f"{head}; {known}"


def _percent(part: int, whole: int) -> str:
    """`16%`; a small share is not rounded to nothing: `0.3%`, `<0.1%`."""
    share = 100 * part / whole
    if share >= 1 or part == 0:
        return f"{share:.0f}%"
    return f"{share:.1f}%" if share >= 0.1 else "<0.1%"


def _heading(view: DiffView) -> str:
    return f"compared with what {view.base_url} (source {view.source_id}) acknowledged, as the journal says"


def _grid(view: DiffView, listed: list[Change]) -> Table:
    with_rate = of(view.operation).has_rate
    grid = styled_table()
    for name in ("Property", "Room", *(["Rate"] if with_rate else []), "Dates", "Change", "Before", "After", "Lines"):
        wraps = name in ("Before", "After") and of(view.operation).structured
        grid.add_column(name, no_wrap=not wraps, overflow="fold", ratio=1 if wraps else None)
    group: tuple[str, ...] | None = None
    for change in listed:
        if group is not None and change.key != group:
            grid.add_section()
        first = change.key != group
        group = change.key
        key = [text(part) if first else Text("") for part in change.key]
        if not with_rate:
            key = key[:2]
        before, after = values_text(view.operation, change)
        dates = shown_dates(change.start, change.end, "")
        grid.add_row(
            *key, text(f"{dates} ({plural(change.dates, 'day')})" if change.dates > 1 else dates),
            Text(change.kind.value, style=_STYLE[change.kind]), text(before), text(after),
            text(lines_text([(view.table.source(i), view.table.lines[i]) for i in view.rows_of(change)])),
        )  # fmt: skip
    return grid


def table(view: DiffView, out: Console, limit: int | None = None) -> None:
    """What would change, grouped by property and room (every range with --show all), then the summary line.

    With `limit`, the first ranges only, and how many more there are.
    """
    listed = list(view.listed())
    out.print(text(_heading(view)))
    if listed:
        fitted(_grid(view, listed[:limit]), out)
    elif view.changes:
        out.print("nothing would change: the service already has every value, as the journal says", markup=False)
    more = len(listed) - len(listed[:limit])
    if more:
        out.print(f"and {plural(more, 'more range')} that would change: `ari-cli {view.operation} diff` lists them all")
    hidden = [] if view.show_all else [c for c in view.changes if c.kind not in CHANGES]
    if hidden:
        dates = sum(c.dates for c in hidden)
        out.print(f"{plural(len(hidden), 'same range')} ({plural(dates, 'date')}) not shown; --show all lists them")
    out.print(summary_line(view), markup=False)


def change_dict(view: DiffView, change: Change) -> dict[str, Any]:
    """One range as the JSON document gives it; a policy as the service's own JSON."""
    key = change.key
    lines, sources = view.placed(change)
    return {
        "propertyid": key[0],
        "roomid": key[1],
        "rateid": key[2] if len(key) > 2 else None,
        "start": change.start.isoformat(),
        "end": change.end.isoformat(),
        "dates": change.dates,
        "kind": change.kind.value,
        "before": _value(view.operation, change.before),
        "after": _value(view.operation, change.after),
        "lines": lines,
        "sources": sources,
    }


def _value(operation: str, value: str | None) -> Any:
    if value is None or not of(operation).structured:
        return value
    try:
        return json.loads(value)
    except ValueError:
        return value


def _summary(view: DiffView) -> dict[str, Any]:
    return summary_dict(view.changes, view.rows, view.invalid, view.skipped)


def head(view: DiffView) -> dict[str, Any]:
    notes = {"notes": list(view.notes)} if view.notes else {}
    return {"operation": view.operation, "base_url": view.base_url, "source_id": view.source_id, **notes}


def write_json(view: DiffView, stream: IO[str]) -> None:
    """`{"operation", "base_url", "source_id", "summary", "changes": [...]}`: indented at a terminal, else compact,
    written a range at a time."""
    terminal = stream.isatty()
    if terminal:
        document = {**head(view), "summary": _summary(view), "changes": [change_dict(view, c) for c in view.listed()]}
        stream.write(json_printable(scrub(json.dumps(document, ensure_ascii=False, indent=2))) + "\n")
        return
    opening = {**head(view), "summary": _summary(view)}
    stream.write(json.dumps(opening, ensure_ascii=False)[:-1] + ', "changes": [')
    texts = (scrub(json.dumps(change_dict(view, change), ensure_ascii=False)) for change in view.listed())
    # A few thousand ranges a write: a big diff's document is never held whole, nor written a range at a time.
    for n, chunk in enumerate(_chunks(texts, _AT_ONCE)):
        stream.write((", " if n else "") + ", ".join(chunk))
    stream.write("]}\n")


def write_csv(view: DiffView, stream: IO[str]) -> None:
    """The listed ranges, one CSV line each; policies in words, lines separated by spaces."""
    escape = printable if stream.isatty() else str
    stream.write(csv_line(list(CSV_FIELDS)) + "\n")
    for chunk in _chunks(view.listed(), _AT_ONCE):
        stream.write("".join(escape(_csv_row(view, change)) + "\n" for change in chunk))


def _csv_row(view: DiffView, change: Change) -> str:
    before, after = values_text(view.operation, change)
    key = change.key
    cells = [
        *key[:2], key[2] if len(key) > 2 else "", change.start.isoformat(), change.end.isoformat(),
        change.kind.value, "" if change.before is None else before, after, " ".join(map(str, view.placed(change)[0])),
    ]  # fmt: skip
    return csv_line([neutral(scrub(cell)) for cell in cells])


def write_diff(view: DiffView, stream: IO[str], when: dt.datetime | None = None, files: Sequence[str] = ()) -> None:
    """A diff's page: the plan's values on the map, what would change outlined,
    and the ranges new, changed, cleared and same with before and after."""
    data = MapData()
    shown = []
    for change in view.changes:
        before, after = values_text(view.operation, change)
        data.add(change.key, change.start, change.end, after, int(change.kind in CHANGES))
        shown.append((change, before, after))
    page = map_part(data)
    origin = dt.date.fromisoformat(page["start"]).toordinal()
    listed = [
        [data.key(c.key), c.start.toordinal() - origin, c.end.toordinal() - origin, c.kind.value, before, after]
        for c, before, after in shown
    ]
    page.update(
        kind="diff",
        diff=listed,
        states=[["same", "same: the service has it"], ["changed", "would change (new, changed or cleared)"]],
    )
    user, host = who()
    about = About("a diff: what a push would change", view.operation, tuple(files), view.base_url, view.source_id,
                  when, user, host, summary_line(view))  # fmt: skip
    day = dt.date.fromordinal
    diff_rows = [
        {"key": page["keys"][k], "dates": shown_dates(day(a + origin), day(b + origin), ""), "kind": kind,
         "before": before, "after": after}
        for k, a, b, kind, before, after in page["diff"][:SHOWN_WITHOUT_SCRIPT]
    ]  # fmt: skip
    write_page(
        stream,
        about,
        page,
        {
            "ranges": [],
            "diff": diff_rows,
            "diffs": len(listed),
            "unknown": "not in the file",
        },
    )


def error_document(operation: str, kind: str, message: str, hint: str | None) -> dict[str, Any]:
    """The document of a diff that stopped before it compared anything."""
    return {
        "operation": operation,
        "error": {"kind": kind, "message": scrub(message), "hint": None if hint is None else scrub(hint)},
        "summary": summary_dict([]),
        "changes": [],
    }


def show(view: DiffView, form: str, when: dt.datetime | None = None, files: Sequence[str] = ()) -> None:
    """The diff on stdout: a table, one JSON document, CSV or a page (which says `when` and the `files`)."""
    if form == "json":
        write_json(view, sys.stdout)
    elif form == "csv":
        write_csv(view, sys.stdout)
    elif form == "html":
        write_diff(view, sys.stdout, when, files)
    else:
        table(view, console())
    sys.stdout.flush()
