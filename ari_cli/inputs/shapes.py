"""The shapes a JSON input may take, flattened to one raw dict per row with the line it starts on.

A JSON input is a flat row object, a list of them, an API request body (threshold/maxadv with
`data`, policy with `policydetails`), or a list of bodies. Keys keep their spelling here; the
column resolver maps them to canonical names afterwards.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any

from ari_cli.exits import InputError
from ari_cli.inputs.names import normalize
from ari_cli.operations import DESCRIPTORS, of
from ari_cli.operations.maxadv import MESSAGE_TYPE
from ari_cli.wire.operations import OPERATION_BY_ACTION, Operation

# Taken from the configuration, never from a file: dropped without a word.
ENVELOPE = frozenset({"action", "sharepost", "sourceid"})
CONTAINERS = frozenset({"data", "policydetails"})
BODY_MARKERS = frozenset({"action", *CONTAINERS})

Raw = tuple[int, dict[str, Any]]


class Located(dict[str, Any]):
    """A parsed JSON object that knows the line its `{` is on."""

    __slots__ = ("line",)
    line: int


class LocatedList(list[Any]):
    """A parsed JSON list that knows the line each entry starts on."""

    __slots__ = ("lines",)
    lines: list[int]


def kind(value: Any) -> str:
    """What a JSON (or Python) value is, in words for an error message."""
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "text"
    if value is None:
        return "null"
    return f"a {type(value).__name__}"  # rows given from Python may hold anything


def _line(value: Any, default: int) -> int:
    return value.line if isinstance(value, Located) else default


class _Names(dict[str, str]):
    """Key -> normalized key, computed once per distinct key of a file."""

    def __missing__(self, key: str) -> str:
        value = self[key] = normalize(key)
        return value


class Flattener:
    """Turns the parsed JSON of one file into raw rows, checking the API shapes on the way."""

    def __init__(self, name: str, operation: Operation) -> None:
        self.name = name
        self.operation = operation
        self._norm = _Names()
        self._flat: set[tuple[str, ...]] = set()  # key orders already seen on flat rows

    def from_document(self, document: Any) -> list[Raw]:
        """Raw rows of a JSON document: an object, or a list of objects."""
        if document is None:
            return []
        if isinstance(document, dict):
            return list(self._rows_of(document, _line(document, 1)))
        if not isinstance(document, list):
            raise InputError(
                f"{self.name} line 1: expected a list of row objects or one object, found {kind(document)}"
            )
        lines = document.lines if isinstance(document, LocatedList) else [1] * len(document)
        return self.from_lines(zip(lines, document, strict=True))

    def from_lines(self, values: Iterable[tuple[int, Any]]) -> list[Raw]:
        """Raw rows of top-level values, each an object (a row or a request body)."""
        rows: list[Raw] = []
        for line, value in values:
            if not isinstance(value, dict):
                raise InputError(
                    f"{self.name} line {line}: expected an object (a row or a request body), found {kind(value)}"
                )
            rows.extend(self._rows_of(value, _line(value, line)))
        return rows

    def _rows_of(self, obj: dict[str, Any], line: int) -> Iterator[Raw]:
        norm = self._norm
        shape = tuple(obj)
        if shape in self._flat:
            yield line, obj
            return
        keys = {norm[key]: key for key in obj}
        if not keys.keys() & BODY_MARKERS:
            self._flat.add(shape)
            yield line, obj
            return
        operation = self._body_operation(obj, keys, line)
        if operation is not self.operation:
            raise InputError(
                f"{self.name} line {line}: this file holds {operation.action} bodies; "
                f'use "ari-cli {operation.value} push"'
            )
        head = {k: v for k, v in obj.items() if norm[k] not in ENVELOPE and norm[k] not in CONTAINERS}
        if of(operation).batched:
            yield from self._data(obj, keys, head, line)
        else:
            yield from self._policy(obj, keys, head, line)

    def _body_operation(self, obj: dict[str, Any], keys: dict[str, str], line: int) -> Operation:
        if "action" in keys:
            action = obj[keys["action"]]
            found = OPERATION_BY_ACTION.get(action.strip().lower()) if isinstance(action, str) else None
            if found is None:
                raise InputError(
                    f"{self.name} line {line}: unknown action {json.dumps(action)}; "
                    f'a {self.operation.value} body has action "{self.operation.action}"'
                )
            return found
        batched = [d for d in DESCRIPTORS.values() if d.batched]
        for whole in DESCRIPTORS.values():
            if not whole.batched and keys.keys() & whole.body_keys:
                return whole.operation
        records = obj[keys["data"]]
        first = records[0] if isinstance(records, list) and records else records
        names = {self._norm[k] for k in first} if isinstance(first, dict) else set()
        marked = [d for d in batched if names & d.body_keys]
        if marked:
            return marked[-1].operation  # a record naming two operations' values is the later one's (maxadv's)
        # A record naming no value is the operation's being pushed, or (pushing whole bodies) the first one's.
        return self.operation if of(self.operation).batched else batched[0].operation

    def _entries(self, value: Any, line: int, what: str) -> list[Raw]:
        """The objects of a container that may be one object or a list of them."""
        if isinstance(value, dict):
            return [(_line(value, line), value)]
        if not isinstance(value, list):
            raise InputError(
                f"{self.name} line {line}: {what} must be an object or a list of objects, found {kind(value)}"
            )
        lines = value.lines if isinstance(value, LocatedList) else [line] * len(value)
        entries: list[Raw] = []
        for entry_line, entry in zip(lines, value, strict=True):
            if not isinstance(entry, dict):
                raise InputError(
                    f"{self.name} line {entry_line}: each entry of {what} must be an object, found {kind(entry)}"
                )
            entries.append((_line(entry, entry_line), entry))
        if not entries:
            raise InputError(f"{self.name} line {line}: {what} is empty")
        return entries

    def _data(self, obj: dict[str, Any], keys: dict[str, str], head: dict[str, Any], line: int) -> Iterator[Raw]:
        if "data" not in keys:
            raise InputError(f'{self.name} line {line}: a {self.operation.action} body needs "data"')
        for record_line, record in self._entries(obj[keys["data"]], line, '"data"'):
            row = dict(head)
            for key, value in record.items():
                if self._norm[key] == "minmaxmessagetype":
                    if not (isinstance(value, str) and value.strip().lower() == MESSAGE_TYPE):
                        raise InputError(
                            f'{self.name} line {record_line}: minmaxmessagetype must be "{MESSAGE_TYPE}", '
                            f"not {json.dumps(value)}"
                        )
                    continue
                row[key] = value
            yield record_line, row

    def _policy(self, obj: dict[str, Any], keys: dict[str, str], head: dict[str, Any], line: int) -> Iterator[Raw]:
        if "policydetails" not in keys:
            raise InputError(f'{self.name} line {line}: a getcancellation body needs "policydetails"')
        details = obj[keys["policydetails"]]
        if not isinstance(details, dict):
            raise InputError(f'{self.name} line {line}: "policydetails" must be an object, found {kind(details)}')
        details_line = _line(details, line)
        parts = {self._norm[k]: k for k in details}
        if "cancellation" not in parts or "deposit" not in parts:
            raise InputError(f'{self.name} line {details_line}: "policydetails" needs "cancellation" and "deposit"')
        deposit = details[parts["deposit"]]
        if not isinstance(deposit, dict):
            raise InputError(f'{self.name} line {details_line}: "deposit" must be an object, found {kind(deposit)}')
        # Anything else inside policydetails is passed on, so the unused-key warning names it.
        extra = {k: v for k, v in details.items() if k not in (parts["cancellation"], parts["deposit"])}
        for rule_line, rule in self._entries(details[parts["cancellation"]], details_line, '"cancellation"'):
            yield rule_line, {**head, **extra, **deposit, **rule}
