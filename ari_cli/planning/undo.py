"""What `revert RUN` puts back, per key and dates. Pure.

Given the dates RUN (with its retries) got acknowledged, what the service held on them just before, and
what it holds now (all as the journal's spans), each date gets one of three fates: its earlier value is
put back; it is left alone because the journal never saw an earlier value (unless clearing is asked
for, where the operation can be cleared); or it is left alone because a later run changed it again
(unless forced). Touching ranges of a key with the same fate and value are one range.

`Reverted`, a revert's result, lives here too: `app/revert.py` makes it and `render/changes/revert.py` shows it,
and render/ imports nothing of app/.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ari_cli.planning.changes import ONE_DAY, Key, Span, against
from ari_cli.planning.diff import Change, DiffView
from ari_cli.wire.operations import CLEAR, Operation

if TYPE_CHECKING:
    # Only named in `Reverted`'s fields: this module runs without them.
    from ari_cli.config.options import Connection
    from ari_cli.journal.queries import RunInfo
    from ari_cli.pipeline import Prepared, PushOptions
    from ari_cli.planning.plan import Plan
    from ari_cli.records.table import RowTable
    from ari_cli.results import Run


@dataclass(frozen=True, slots=True)
class Piece:
    """Dates of a key: the value to put back (None: left alone), and the later run that changed them, if any."""

    key: Key
    start: dt.date
    end: dt.date
    value: str | None = None
    later: int | None = None

    @property
    def dates(self) -> int:
        return (self.end - self.start).days + 1


@dataclass
class Undo:
    """The ranges to put back, and those left alone: never seen before the run, or changed by a later run."""

    back: list[Piece] = field(default_factory=list)
    unknown: list[Piece] = field(default_factory=list)
    later: list[Piece] = field(default_factory=list)
    cleared_unknown: bool = False  # the unknown dates are in `back`, as CLEAR

    def later_runs(self) -> dict[int, int]:
        """Dates left alone per later run."""
        runs: dict[int, int] = {}
        for piece in self.later:
            assert piece.later is not None
            runs[piece.later] = runs.get(piece.later, 0) + piece.dates
        return runs


@dataclass(frozen=True, slots=True)
class Choices:
    clear_unknown: bool = False  # send CLEAR for dates whose earlier value is unknown
    clearable: bool = True  # the operation has a clearing value (threshold and maxadv; a policy has none)
    force: bool = False  # put back dates a later run changed, too
    today: dt.date | None = None  # dates before it are past: the service takes no change to them


def _add(pieces: list[Piece], piece: Piece) -> None:
    last = pieces[-1] if pieces else None
    if (
        last is not None
        and last.key == piece.key
        and last.end + ONE_DAY == piece.start
        and (last.value, last.later) == (piece.value, piece.later)
    ):
        pieces[-1] = Piece(last.key, last.start, piece.end, last.value, last.later)
    else:
        pieces.append(piece)


def undo(
    reverted: Mapping[Key, Sequence[Span]],
    before: Mapping[Key, Sequence[Span]],
    now: Mapping[Key, Sequence[Span]],
    runs: Collection[int],
    choices: Choices,
) -> Undo:
    """For every date of `reverted` (what `runs` set), what to put back and what to leave alone."""
    found = Undo(cleared_unknown=choices.clear_unknown and choices.clearable)
    for key in sorted(reverted):
        for span in reverted[key]:
            if choices.today is not None and span.end < choices.today:
                continue
            first_day = span.start if choices.today is None else max(span.start, choices.today)
            for start, end, held in against(now.get(key, ()), first_day, span.end):
                later = held.run if held is not None and held.run not in runs else None
                if later is not None and not choices.force:
                    _add(found.later, Piece(key, start, end, later=later))
                    continue
                for first, last, earlier in against(before.get(key, ()), start, end):
                    if earlier is not None:
                        _add(found.back, Piece(key, first, last, earlier.value))
                    elif found.cleared_unknown:
                        _add(found.back, Piece(key, first, last, CLEAR))
                        _add(found.unknown, Piece(key, first, last, CLEAR))
                    else:
                        _add(found.unknown, Piece(key, first, last))
    return found


@dataclass
class Reverted:
    """A revert: the run reverted, what would change (or changed), what was left alone, and the run it made."""

    source: RunInfo
    runs: tuple[int, ...]  # the run and its retries
    operation: Operation
    undo: Undo
    changes: list[Change]
    table: RowTable
    plan: Plan
    prepared: Prepared | None = None
    options: PushOptions | None = None
    connection: Connection | None = None
    run: Run | None = None  # None: nothing was sent (a dry run, or nothing to put back)
    number: int | None = None  # the revert's own run in the journal
    warnings: list[str] = field(default_factory=list)

    @property
    def to_send(self) -> int:
        return len(self.plan.records)

    def view(self, show_all: bool) -> DiffView:
        """The revert's ranges as `diff` shows a plan: before (now) and after (the value put back); the preview
        before the question and the dry run's table, JSON and CSV all show this."""
        source = self.source
        return DiffView(
            source.operation, source.base_url, source.source_id, self.changes, self.table, show_all,
            len(self.table), 0, len(self.plan.skipped),
        )  # fmt: skip
