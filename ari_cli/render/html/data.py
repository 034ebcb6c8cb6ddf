"""The data of each HTML page (`page.py` writes it): a run's, a diff's and a calendar's (a diff's is written by
`diff.py`, with the rest of a diff's documents, from `map_part`).

A run's map is its records (the dates it sends, outlined when the service took them, or would on a dry
run); a diff's is its ranges, the new, changed and cleared outlined; a calendar's the journal's spans.
The rows go as the JSON document writes them, runs of alike rows, further cut where the key changes so
that the page can filter them by property and room.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator, Mapping, Sequence
from contextlib import suppress
from typing import IO, TYPE_CHECKING, Any

from ari_cli.planning.batch import wire_value
from ari_cli.planning.diff import CHANGES, kinds
from ari_cli.records.rules import shown_dates
from ari_cli.render.history.groups import bounds
from ari_cli.render.html.page import SHOWN_WITHOUT_SCRIPT, About, MapData, who, write_page
from ari_cli.render.push.run import problem_text
from ari_cli.render.push.table import summary_line
from ari_cli.render.values import value_text as text
from ari_cli.results import Run, Shared, Status
from ari_cli.send.exchange import Problem
from ari_cli.wire.errors import hint_for

if TYPE_CHECKING:
    from ari_cli.planning.changes import Acknowledged, CalendarView

Key = tuple[str, ...]


def _month_bounds(data: MapData) -> tuple[dt.date, dt.date]:
    """From the first of the first month the ranges touch to the last of the last."""
    if not data.ranges:
        today = dt.date.today()
        return today.replace(day=1), today
    first = dt.date.fromordinal(min(r[1] for r in data.ranges)).replace(day=1)
    last = dt.date.fromordinal(max(r[2] for r in data.ranges))
    after = (last.replace(day=1) + dt.timedelta(days=32)).replace(day=1)
    return first, after - dt.timedelta(days=1)


def map_part(data: MapData, start: dt.date | None = None, end: dt.date | None = None) -> dict[str, Any]:
    """The map's part of the page's data: dates as day numbers from `start`, which the script counts from."""
    if start is None or end is None:
        start, end = _month_bounds(data)
    origin = start.toordinal()
    ranges = [[k, max(a, origin) - origin, b - origin, v, c] for k, a, b, v, c in data.ranges if b >= origin]
    return {
        "start": start.isoformat(),
        "days": (end - start).days + 1,
        "keys": [list(key) + [""] * (3 - len(key)) for key in data.keys],
        "values": data.values,
        "ranges": ranges,
    }


def ranges_table(page: dict[str, Any]) -> list[dict[str, Any]]:
    """The first ranges as rows of the table shown without scripts."""
    start = dt.date.fromisoformat(page["start"])
    keys, values, states = page["keys"], page["values"], page["states"]
    shown = []
    for k, a, b, v, c in page["ranges"][:SHOWN_WITHOUT_SCRIPT]:
        first, last = start + dt.timedelta(days=a), start + dt.timedelta(days=b)
        shown.append({"key": keys[k], "dates": shown_dates(first, last, ""), "value": values[v],
                      "state": states[c][1]})  # fmt: skip
    return shown


def lines_text(lines: Sequence[int]) -> str:
    """`2-40, 45, 47-50`: consecutive lines as one range."""
    parts: list[str] = []
    begin = previous = None
    for line in lines:
        if previous is not None and line == previous + 1:
            previous = line
            continue
        if begin is not None:
            parts.append(str(begin) if begin == previous else f"{begin}-{previous}")
        begin = previous = line
    if begin is not None:
        parts.append(str(begin) if begin == previous else f"{begin}-{previous}")
    return ", ".join(parts)


class _Errors:
    """Each distinct error once, with what to check from the spec's error table."""

    def __init__(self) -> None:
        self.items: list[list[str]] = []
        self._ids: dict[Problem, int] = {}

    def id(self, problem: Problem) -> int:
        found = self._ids.get(problem)
        if found is None:
            hint = problem.hint or hint_for(problem.code, problem.http_status) or ""
            found = self._ids[problem] = len(self.items)
            self.items.append([problem_text(problem), hint])
        return found


def _groups(run: Run, errors: _Errors) -> Iterator[list[Any]]:
    """The rows as runs of alike rows of one key: source, lines, count, status, property, room, rate, dates,
    value, tracking ids, errors, note."""
    rows = run.rows
    table = rows.table
    kinds, kind_list = table.kinds, table.kind_list
    for first, stop, shared in rows.runs():
        common = _common(shared, errors)
        at = first
        while at < stop:
            kind = kinds[at]
            end = at + 1
            if kind < 0:  # a row known by its view: invalid, or a retry's
                view = table[at]
                key: Key = (view.propertyid, view.roomid, view.rateid)
                dates, value = view.dates, view.value
            else:
                key = kind_list[kind].key
                same_value = True
                while end < stop and kinds[end] >= 0 and (kinds[end] == kind or kind_list[kinds[end]].key == key):
                    same_value = same_value and kinds[end] == kind
                    end += 1
                if end - at == 1:
                    view = table[at]
                    dates, value = view.dates, view.value
                else:
                    low = dt.date.fromordinal(min(table.starts[at:end]))
                    high = dt.date.fromordinal(max(table.ends[at:end]))
                    dates = shown_dates(low, high, "")
                    value = kind_list[kind].shown if same_value else "(several)"
            padded = list(key) + [""] * (3 - len(key))
            yield [table.source(at), lines_text(table.lines[at:end]), end - at, *common[:1], *padded[:3],
                   dates, value, *common[1:]]  # fmt: skip
            at = end


def _common(shared: Shared, errors: _Errors) -> list[Any]:
    return [shared.status.value, " ".join(shared.trackingids), [errors.id(p) for p in shared.errors], shared.note]


def compact_rows(groups: list[list[Any]], data: MapData, page: dict[str, Any]) -> None:
    """The row groups into `page` as the script reads them, small enough for 200,000 rows of as many keys.

    Each is `[key, status, lines, dates, value, count, source, note, tracking ids, errors]`: its key a number of
    the map's keys; status, value, source and note numbers of their own lists; dates the map's day numbers
    `[first, last]` when they are plain dates; lines a number when one line. Trailing fields at their default
    (1 row, the first source, no note, ids or errors) are left out."""
    origin = dt.date.fromisoformat(page["start"]).toordinal()
    lists: dict[str, dict[str, int]] = {"sources": {}, "statuses": {}, "notes": {"": 0}, "texts": {}}
    rows: list[list[Any]] = []
    for source, lines, count, status, prop, room, rate, dates, value, ids, problems, note in groups:
        key = data.key((prop, room, rate))
        found = bounds(dates) if " " not in dates else None
        if found is not None:
            with suppress(ValueError):
                first, last = dt.date.fromisoformat(found[0]), dt.date.fromisoformat(found[1])
                if shown_dates(first, last, "") == dates:
                    dates = [first.toordinal() - origin, last.toordinal() - origin]
        numbered = [lists[name].setdefault(text, len(lists[name])) for name, text in
                    (("statuses", status), ("sources", source), ("notes", note))]  # fmt: skip
        text = lists["texts"].setdefault(value, len(lists["texts"]))
        row = [key, numbered[0], int(lines) if lines.isdigit() else lines, dates, text, count, numbered[1],
               numbered[2], ids, problems]  # fmt: skip
        defaults: tuple[Any, ...] = (1, 0, 0, "", [])
        trimmed = len(row)
        while trimmed > 5 and row[trimmed - 1] == defaults[trimmed - 6]:
            trimmed -= 1
        rows.append(row[:trimmed])
    page["keys"] = [list(key) + [""] * (3 - len(key)) for key in data.keys]  # the rows' keys may add some
    page.update(rows=rows, **{name: list(texts) for name, texts in lists.items()})


def rows_tables(groups: list[list[Any]], errors: _Errors | list[list[str]]) -> dict[str, list[dict[str, Any]]]:
    """The first row groups per status, for the `<details>` shown without scripts."""
    items = errors.items if isinstance(errors, _Errors) else errors
    by_status: dict[str, list[dict[str, Any]]] = {}
    for group in groups[:SHOWN_WITHOUT_SCRIPT]:
        source, lines, count, status, prop, room, rate, dates, value, ids, problems, note = group
        by_status.setdefault(status, []).append({
            "source": source, "lines": lines, "count": count, "key": [prop, room, rate], "dates": dates,
            "value": value, "trackingids": ids, "errors": [items[e] for e in problems], "note": note,
        })  # fmt: skip
    return by_status


def run_about(
    run: Run,
    files: Sequence[str],
    base_url: str | None,
    source_id: str | None,
    when: dt.datetime | None,
    what: str | None = None,
) -> About:
    """The header of a run that this process made: a push or a dry run unless `what` says (a retry of run N)."""
    user, host = who()
    what = what or ("a dry run" if run.dry_run else "a push")
    return About(what, run.operation.value, tuple(files), base_url, source_id, when, user, host, summary_line(run),
                 int(run.exit_code()))  # fmt: skip


# What a run did with each range, as the page marks it: a class of the stylesheet and the words said of it.
SAME, CHANGING, NOT_APPLIED = "same", "changed", "notapplied"


def run_states(dry_run: bool) -> list[list[str]]:
    """The states a run's ranges take, in the order `write_run` numbers them."""
    unapplied = [[NOT_APPLIED, "not applied: invalid"], [NOT_APPLIED, "not applied: failed"],
                 [NOT_APPLIED, "not applied: not sent"]]  # fmt: skip
    if dry_run:
        return [[SAME, "same: the service has it"], [CHANGING, "would change (new, changed or cleared)"], *unapplied]
    return [[SAME, "same: the service had it"], [CHANGING, "changed by this run (new, changed or cleared)"], *unapplied]


def write_run(run: Run, about: About, stream: IO[str], before: Acknowledged | None = None) -> None:
    """A run's page: its records on the map, and its rows.

    A record the service took (or would, on a dry run) is marked as changing only where `diff` would call it
    new, changed or cleared against `before` (what the service had, read before sending; None or empty: nothing
    known, so all new); the rest is "same". A record not taken, and an invalid row, is drawn as not applied."""
    taken: set[int] = set()
    failed: set[int] = set()
    for exchange in run.exchanges:
        outcome = exchange.outcome
        if run.dry_run or (outcome is not None and outcome.success):
            taken.update(exchange.records)
        elif exchange.final and outcome is not None and outcome.sent:
            failed.update(exchange.records)
    data = MapData()
    operation = run.operation.value
    known = before or {}
    for index, record in enumerate(run.records):
        after = wire_value(run.operation, record)
        shown = text(operation, after)
        if index not in taken:
            data.add(record.key, record.start, record.end, shown, 3 if index in failed else 4)
            continue
        for first, last, kind, _ in kinds(known.get(record.key, ()), record.start, record.end, after):
            data.add(record.key, first, last, shown, 1 if kind in CHANGES else 0)
    for row in run.rows.with_status({Status.INVALID}):
        view = row.view
        dates = bounds(view.dates)
        if dates is not None and view.propertyid and view.roomid:
            with suppress(ValueError):
                first, last = dt.date.fromisoformat(dates[0]), dt.date.fromisoformat(dates[1])
                data.add((view.propertyid, view.roomid, view.rateid), first, last, view.value or "?", 2)
    page = map_part(data)
    errors = _Errors()
    groups = list(_groups(run, errors))
    compact_rows(groups, data, page)
    page.update(kind="run", errors=errors.items, states=run_states(run.dry_run))
    tables = {"ranges": ranges_table(page), "rows": rows_tables(groups, errors), "groups": len(groups),
              "unknown": "not set by this run"}  # fmt: skip
    write_page(stream, about, page, tables)


def write_calendar(view: CalendarView, stream: IO[str], when: dt.datetime | None) -> None:
    """A calendar's page: what the service last acknowledged, per date."""
    data = MapData()
    one = dt.timedelta(days=1)
    for key in sorted(view.values):
        days: Mapping[dt.date, str] = view.shown(key)
        data.key(key)
        run: list[Any] = []  # first, last, value of the range being gathered
        for day in sorted(days):
            value = text(view.operation, days[day])
            if run and run[1] + one == day and run[2] == value:
                run[1] = day
                continue
            if run:
                data.add(key, run[0], run[1], run[2])
            run = [day, day, value]
        if run:
            data.add(key, run[0], run[1], run[2])
    page = map_part(data, view.start, view.end)
    page.update(kind="calendar", states=[["", ""]])
    user, host = who()
    dates = shown_dates(view.start, view.end, "")
    said = f"what {view.base_url} (source {view.source_id}) last acknowledged, {dates}"
    about = About(f"a calendar of property {view.propertyid}, {dates}", view.operation, (), view.base_url,
                  view.source_id, when, user, host, said)  # fmt: skip
    write_page(stream, about, page, {"ranges": ranges_table(page), "unknown": "nothing acknowledged"})


def stopped_about(
    document: dict[str, Any],
    files: Sequence[str],
    base_url: str | None,
    source_id: str | None,
    when: dt.datetime | None,
    what: str | None = None,
) -> About:
    """The header of a run that stopped before it had rows: its error as the summary."""
    error = document["error"]
    user, host = who()
    said = error["message"] + (f" ({error['hint']})" if error.get("hint") else "")
    what = what or ("a dry run" if document.get("dry_run") else "a push")
    return About(what, document["operation"], tuple(files), base_url, source_id, when, user, host, f"stopped: {said}")


def write_stopped(document: dict[str, Any], stream: IO[str], about: About) -> None:
    """The page of a run that stopped before it had rows: the error in the header (`about`'s summary), an empty
    map."""
    page = map_part(MapData())
    compact_rows([], MapData(), page)
    page.update(kind="run", errors=[], states=run_states(bool(document.get("dry_run"))))
    write_page(stream, about, page, {"ranges": [], "rows": {}, "groups": 0, "unknown": "nothing set"})
