"""The checked rows of a run, in input order, kept in columns.

A million-row export must fit in memory with room to spare, so a row is not an object: it is its
line, the id of its kind (the ids, value and weekday filter it shares with other rows) and its first
and last day. A row that breaks a rule keeps its view as written and its problems instead. A row's
view for the results table is made only when it is shown.
"""

from __future__ import annotations

import bisect
import datetime as dt
from array import array
from collections.abc import Hashable, Iterator, Sequence
from dataclasses import dataclass
from itertools import accumulate
from typing import NamedTuple, overload

from ari_cli.exits import InputError
from ari_cli.records.rules import RowView, shown_dates

Value = Hashable
NO_KIND = -1  # the row broke a rule

MAX_KEYS = 500_000
"""The most keys (property, room[, rate]) a run may name. A run holds each key's ids, settings and records while
it plans and sends, about 600 bytes a key: a file's size does not bound its keys (a workbook whose cells leave out
their optional references packs two million rows of distinct rooms into 6 MB), this does. A nightly export names a
few thousand; a 10 MB CSV of a distinct room per row, about 460,000."""


class Kind(NamedTuple):
    """What rows may share: a key (property, room[, rate]), a value, a weekday filter, and how each was written.

    A tuple: made and hashed in C (a big run has tens of thousands).
    """

    key: tuple[str, ...]
    value: Value
    days: frozenset[int] | None
    days_text: str
    shown: str


@dataclass(frozen=True, slots=True)
class Settings:
    """What rows ask for, in columns: setting i sets its kind's value for its key from day starts[i] to
    ends[i] (ordinals). `refs` gives each setting's rows; None when setting i is row i (threshold, maxadv)."""

    kinds: Sequence[int]
    starts: Sequence[int]
    ends: Sequence[int]
    kind_list: Sequence[Kind]
    refs: Sequence[tuple[int, ...]] | None = None
    key_of: Sequence[int] | None = None
    """Per kind, the number of its key (the kinds of a key share one), when known."""

    def rows(self, setting: int) -> tuple[int, ...]:
        return (setting,) if self.refs is None else self.refs[setting]

    def by_key(self) -> Iterator[tuple[tuple[str, ...], list[int], list[int]]]:
        """Each key with the kinds of its settings and its settings in input order; keys in the order of
        their first setting.

        The settings are grouped by key number in one counting sort, in arrays (a key's settings stay in
        input order): a file of a distinct room per row has a key per row, and a list or an array per key
        would cost over a hundred bytes a row while it is planned.
        """
        kinds, kind_list = self.kinds, self.kind_list
        key_of = self.key_of if self.key_of is not None else key_numbers(kind_list)
        counts = array("q", bytes(8 * (max(key_of, default=-1) + 1)))
        for kind in kinds:
            if kind >= 0:
                counts[key_of[kind]] += 1
        begins = array("q", accumulate(counts, initial=0))  # key k's settings are grouped[begins[k]:begins[k + 1]]
        grouped, placed = array("q", bytes(8 * begins[-1])), begins[:-1]
        for setting, kind in enumerate(kinds):
            if kind >= 0:
                key = key_of[kind]
                grouped[placed[key]] = setting
                placed[key] += 1
        for setting, kind in enumerate(kinds):
            if kind >= 0 and grouped[begins[key_of[kind]]] == setting:  # its key's first setting names the key
                key = key_of[kind]
                settings = list(grouped[begins[key] : begins[key + 1]])
                yield kind_list[kind].key, sorted(set(map(kinds.__getitem__, settings))), settings


def key_numbers(kind_list: Sequence[Kind]) -> array[int]:
    """Per kind, the number of its key: keys numbered in the order of their first kind."""
    numbers: dict[tuple[str, ...], int] = {}
    return array("q", (numbers.setdefault(kind.key, len(numbers)) for kind in kind_list))


class RowTable(Sequence[RowView]):
    """Every row of a run: its source and line, and its kind and days or its view and problems."""

    def __init__(self) -> None:
        self.lines = array("l")
        # Kind ids and day ordinals are a few thousand int objects, shared by the rows (the checks hand
        # out the ones they remember): a list of them costs what an array does, and is faster to use.
        self.kinds: list[int] = []
        self.starts: list[int] = []
        self.ends: list[int] = []
        self.kind_list: list[Kind] = []
        self.key_of = array("q")  # per kind, the number of its key (the kinds of a key share one)
        self._key_ids: dict[tuple[str, ...], int] = {}
        self._kind_ids: dict[Kind, int] = {}
        self._whole = False  # settings() was called: no row is added after it
        self._firsts: list[int] = []  # the first row of each source run
        self._names: list[str] = []
        self.errors: dict[int, list[str]] = {}
        self.views: dict[int, RowView] = {}  # rows shown as written: the invalid ones, and a retry's

    @classmethod
    def of_views(cls, views: Sequence[RowView]) -> RowTable:
        """A table of rows known only by their views (a retry's, from the journal)."""
        table = cls()
        for view in views:
            table.add_view(view)
        return table

    def start_source(self, name: str) -> None:
        """The rows added next come from `name`."""
        if self._firsts and self._firsts[-1] == len(self.lines):
            self._names[-1] = name
        else:
            self._firsts.append(len(self.lines))
            self._names.append(name)

    def kind(self, kind: Kind) -> int:
        """The id of a kind, the same for equal kinds."""
        found = self._kind_ids.get(kind)
        if found is None:
            if self._whole:  # its index is gone: an equal kind would get a second id, its key a second number
                raise RuntimeError("a row's kind added after the table's settings were taken")
            key = self._key_ids.get(kind.key)
            if key is None:
                key = self._new_key(kind.key)
            found = self._kind_ids[kind] = len(self.kind_list)
            self.kind_list.append(kind)
            self.key_of.append(key)
        return found

    def _new_key(self, key: tuple[str, ...]) -> int:
        if len(self._key_ids) == MAX_KEYS:
            ids = zip(("property", "room", "rate"), key, strict=False)
            named = ", ".join(f'{name} "{value}"' for name, value in ids)
            raise InputError(
                f"{self._names[-1]}: {named} is one key too many: a run names at most {MAX_KEYS:,} keys (property, "
                "room and, for maxadv and policies, rate); nothing was sent",
                hint="split the file by property and give each part on its own",
            )
        number = self._key_ids[key] = len(self._key_ids)
        return number

    def add(self, line: int, kind: int, start: int, end: int) -> None:
        """A valid row: its kind and its first and last day (ordinals)."""
        self.lines.append(line)
        self.kinds.append(kind)
        self.starts.append(start)
        self.ends.append(end)

    def add_view(self, view: RowView, messages: Sequence[str] = ()) -> int:
        """A row known by its view: one that broke a rule (with its problems), or a retry's row."""
        index = len(self.lines)
        if not self._names or self._names[-1] != view.source:
            self.start_source(view.source)
        self.add(view.line, NO_KIND, 0, 0)
        self.views[index] = view
        if messages:
            self.errors[index] = list(messages)
        return index

    def close(self) -> None:
        """The table is whole: the indexes that gave equal kinds one id are let go (a file of a distinct room
        per row holds one entry per row), and no kind is added after."""
        self._whole = True
        self._kind_ids.clear()
        self._key_ids.clear()

    def settings(self) -> Settings:
        """The table's rows as the settings they ask for (NO_KIND: none); the table is whole (`close`)."""
        self.close()
        return Settings(self.kinds, self.starts, self.ends, self.kind_list, key_of=self.key_of)

    def source(self, index: int) -> str:
        return self._names[bisect.bisect_right(self._firsts, index) - 1]

    def source_runs(self) -> list[tuple[int, int, str]]:
        """(first row, row after the last, source) of each run of rows of one source."""
        stops = [*self._firsts[1:], len(self)] if self._firsts else []
        return [(first, stop, name) for first, stop, name in zip(self._firsts, stops, self._names, strict=True)]

    def __len__(self) -> int:
        return len(self.lines)

    @overload
    def __getitem__(self, index: int) -> RowView: ...

    @overload
    def __getitem__(self, index: slice) -> list[RowView]: ...

    def __getitem__(self, index: int | slice) -> RowView | list[RowView]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        index = range(len(self))[index]  # negative from the end; IndexError past either end
        found = self.views.get(index)
        if found is not None:
            return found
        kind = self.kind_list[self.kinds[index]]
        key = kind.key
        start, end = dt.date.fromordinal(self.starts[index]), dt.date.fromordinal(self.ends[index])
        rateid = key[2] if len(key) > 2 else ""
        dates = shown_dates(start, end, kind.days_text)
        return RowView(self.source(index), self.lines[index], key[0], key[1], rateid, dates, kind.shown)

    def __iter__(self) -> Iterator[RowView]:
        for index in range(len(self)):
            yield self[index]


def joined(table: RowTable, settings: Settings, pieces: Sequence[tuple[int, int]]) -> tuple[RowTable, Settings]:
    """The table with the pieces of each grid row (consecutive rows of one line, within the spans `pieces`
    gives) as one row, and the settings, each carrying the rows it now belongs to. A grid row one of whose
    pieces broke a rule is invalid whole, with every piece's problems, and sets nothing."""
    table.close()
    lines = table.lines
    cuts: list[tuple[int, int]] = []  # (first, stop) of the old rows of each new row
    at = 0
    for first, stop in pieces:
        cuts.extend((index, index + 1) for index in range(at, first))
        index = first
        while index < stop:
            end = index + 1
            while end < stop and lines[end] == lines[index]:
                end += 1
            cuts.append((index, end))
            index = end
        at = stop
    cuts.extend((index, index + 1) for index in range(at, len(table)))
    out = RowTable()
    out.kind_list, out.key_of = table.kind_list, table.key_of  # shared: the rows' kinds, and those joined rows show
    new_of = array("q", bytes(8 * len(table)))
    dead: set[int] = set()  # the old rows of an invalid joined row: their settings set nothing
    for number, (first, stop) in enumerate(cuts):
        for index in range(first, stop):
            new_of[index] = number
        source = table.source(first)
        if not out._names or out._names[-1] != source:
            out.start_source(source)
        members = range(first, stop)
        errors = list(dict.fromkeys(message for index in members for message in table.errors.get(index, ())))
        if stop - first == 1 and first not in table.views:
            out.add(lines[first], table.kinds[first], table.starts[first], table.ends[first])
            if errors:
                out.errors[number] = errors
        elif stop - first == 1:
            out.add_view(table.views[first], errors)
        elif errors or any(index in table.views for index in members):
            out.add_view(_joined_view([table[index] for index in members]), errors)
            dead.update(members)
        else:
            out.add(
                lines[first], _joined_kind(table, members), min(table.starts[first:stop]), max(table.ends[first:stop])
            )
    out.close()
    kinds = [NO_KIND if dead and dead.intersection(settings.rows(s)) else kind for s, kind in enumerate(settings.kinds)]
    refs = [tuple(sorted({new_of[row] for row in settings.rows(s)})) for s in range(len(settings.kinds))]
    return out, Settings(kinds, settings.starts, settings.ends, settings.kind_list, refs, settings.key_of)


def _said(values: Iterator[str]) -> str:
    """Each distinct value once, in order, as one text: `5, 7`."""
    return ", ".join(dict.fromkeys(value for value in values if value))


def _joined_kind(table: RowTable, members: range) -> int:
    """The kind a joined grid row shows (never sent: its pieces' settings are): its ids and values, and its
    dates from the first piece's to the last's, saying how many of them are set when some are not."""
    kinds = [table.kind_list[table.kinds[index]] for index in members]
    key = tuple(_said(iter(part)) for part in zip(*(kind.key for kind in kinds), strict=True))
    shown = _said(kind.shown for kind in kinds)
    first, last = min(table.starts[members.start : members.stop]), max(table.ends[members.start : members.stop])
    set_days = sum(table.ends[index] - table.starts[index] + 1 for index in members)
    days = "" if set_days >= last - first + 1 else f"{set_days} of {last - first + 1} days"
    table.kind_list.append(Kind(key, shown, None, days, shown))
    table.key_of.append(table.key_of[table.kinds[members.start]])
    return len(table.kind_list) - 1


def _joined_view(views: Sequence[RowView]) -> RowView:
    """A grid row as its pieces' views show it together: ids and values each once, dates first to last."""
    first, last = views[0].dates.partition("..")[0], views[-1].dates.rpartition("..")[2]
    dates = first if first == last else f"{first}..{last}"
    return RowView(
        views[0].source,
        views[0].line,
        _said(view.propertyid for view in views),
        _said(view.roomid for view in views),
        _said(view.rateid for view in views),
        dates,
        _said(view.value for view in views),
    )
