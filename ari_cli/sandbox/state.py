"""What the sandbox has accepted: one value per operation, key and date, as `GET /_sandbox/state` shows it."""

from __future__ import annotations

import copy
import datetime as dt
import threading
from collections.abc import Iterable
from typing import Any

from ari_cli.sandbox.rules import Change, Key
from ari_cli.wire.operations import CLEAR, Operation

ONE_DAY = dt.timedelta(days=1)


class PushState:
    """Accepted values per operation, key ((property, room) or (property, room, rate)) and date."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._values: dict[Operation, dict[Key, dict[dt.date, Any]]] = {op: {} for op in Operation}

    def apply(self, changes: Iterable[Change]) -> None:
        """Apply one accepted request's changes at once; `n/a` removes the dates it covers."""
        with self._lock:
            for change in changes:
                dates = self._values[change.operation].setdefault(change.key, {})
                day = change.start
                while day <= change.end:
                    if change.value == CLEAR:
                        dates.pop(day, None)
                    else:
                        dates[day] = change.value
                    day += ONE_DAY
                if not dates:
                    del self._values[change.operation][change.key]

    def clear(self) -> None:
        """Forget everything accepted."""
        with self._lock:
            for by_key in self._values.values():
                by_key.clear()

    def snapshot(self) -> dict[str, Any]:
        """Nested JSON-ready copy: operation, property, room, (rate,) then ISO date, all sorted."""
        result: dict[str, Any] = {}
        with self._lock:
            for op in (Operation.THRESHOLD, Operation.MAXADV, Operation.POLICY):
                tree: dict[str, Any] = {}
                for key, dates in sorted(self._values[op].items()):
                    node = tree
                    for part in key[:-1]:
                        node = node.setdefault(part, {})
                    node[key[-1]] = {day.isoformat(): copy.deepcopy(dates[day]) for day in sorted(dates)}
                result[op.value] = tree
        return result
