"""Replaying exact request bodies: reading them with their exact text, filling key and source id.

Bodies are not checked against the wire models: support must be able to send a broken body and
see what the service answers. Only what sending needs is checked: UTF-8 JSON, objects, a known
`action`. Filling edits the text in place, so everything else goes out exactly as written.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO
from urllib.parse import quote

from ari_cli.config.options import Connection
from ari_cli.config.secrets import is_placeholder
from ari_cli.exits import InputError
from ari_cli.inputs.jsonfile import surrogate_problem
from ari_cli.planning.batch import PLACEHOLDER_KEY, PLACEHOLDER_SOURCE
from ari_cli.send.exchange import Sent
from ari_cli.wire.operations import ACTIONS, OPERATION_BY_ACTION, Operation, path_segment, push_url

_WHITESPACE = " \t\n\r"
_DECODER = json.JSONDecoder()
FILLED = {"sharepost": PLACEHOLDER_KEY, "sourceid": PLACEHOLDER_SOURCE}
HOW_TO = (
    "give exact API request bodies: a JSON object with an action such as sellthresholdupdate, a list of them, "
    "or one per line"
)


@dataclass(frozen=True, slots=True)
class Member:
    """One top-level `"key": value` of a body, with where its key and value sit in the text."""

    key: str
    key_start: int
    colon: str
    value_start: int
    value_end: int
    value: Any


@dataclass(frozen=True, slots=True)
class Body:
    """One request body as found in a file: its exact text span and its operation."""

    source: str
    line: int
    text: str
    """The whole file's text; the body is `text[start:end]`."""
    start: int
    end: int
    members: tuple[Member, ...]
    operation: Operation
    raw: bytes | None = None
    """The file's bytes, when the body is the whole file: `--no-fill` sends exactly these."""


@dataclass(frozen=True, slots=True)
class Ready:
    """A body ready to go: where to, the exact bytes, and what filling changed."""

    body: Body
    url: str
    content: bytes
    filled: tuple[str, ...]
    """What was filled from the configuration."""
    document: dict[str, Any]
    unfilled: tuple[str, ...] = ()
    """What a dry run without configuration left as the spec's placeholders, for `$ARI_API_KEY` and
    `$ARI_SOURCE_ID` to fill in the curl commands: nothing was filled then, and nothing is said to be."""

    @property
    def partner_key(self) -> str | None:
        """The partner's own key, when the body carries one (not filled, not empty, not a placeholder)."""
        key = self.document.get("sharepost")
        if "sharepost" in self.filled or not isinstance(key, str) or not key or is_placeholder(key):
            return None
        return key


def _skip(text: str, at: int) -> int:
    while at < len(text) and text[at] in _WHITESPACE:
        at += 1
    return at


def _value(text: str, at: int) -> tuple[Any, int]:
    return _DECODER.raw_decode(text, at)


def _members(text: str, start: int) -> tuple[Member, ...]:
    """The members of the (valid) object whose `{` is at `start`."""
    members: list[Member] = []
    at = _skip(text, start + 1)
    while text[at] != "}":
        key, key_end = _value(text, at)
        value_start = _skip(text, _skip(text, key_end) + 1)
        value, value_end = _value(text, value_start)
        members.append(Member(key, at, text[key_end:value_start], value_start, value_end, value))
        at = _skip(text, value_end)
        if text[at] == ",":
            at = _skip(text, at + 1)
    return tuple(members)


def _elements(text: str, start: int) -> list[tuple[int, int, Any]]:
    """(start, end, value) of each element of the (valid) list whose `[` is at `start`."""
    elements: list[tuple[int, int, Any]] = []
    at = _skip(text, start + 1)
    while text[at] != "]":
        value, end = _value(text, at)
        elements.append((at, end, value))
        at = _skip(text, end)
        if text[at] == ",":
            at = _skip(text, at + 1)
    return elements


def _kind(value: Any) -> str:
    names = {dict: "an object", list: "a list", str: "text", bool: "true/false", type(None): "null"}
    return names.get(type(value), "a number")


def _line(text: str, at: int) -> int:
    return text.count("\n", 0, at) + 1


def _operation(name: str, line: int, value: Any, problems: list[str]) -> Operation | None:
    known = ", ".join(ACTIONS.values())
    if not isinstance(value, dict):
        problems.append(f"{name} line {line}: expected a request body (an object), found {_kind(value)}")
        return None
    action = value.get("action")
    if "action" not in value:
        problems.append(f'{name} line {line}: the body has no "action"; it must be one of {known}')
        return None
    found = OPERATION_BY_ACTION.get(action.strip().lower()) if isinstance(action, str) else None
    if found is None:
        problems.append(f"{name} line {line}: unknown action {json.dumps(action)}; it must be one of {known}")
    return found


def _spans(name: str, text: str, at: int) -> list[tuple[int, int, Any]] | str:
    """Where the bodies of a file are: one JSON document (object or list), or JSON Lines."""
    try:
        document, end = _value(text, at)
        if _skip(text, end) == len(text):
            return _elements(text, at) if isinstance(document, list) else [(at, end, document)]
        extra: str | None = f"line {_line(text, end)}: more than one JSON document"
    except json.JSONDecodeError as problem:
        extra = f"line {problem.lineno}: not JSON ({problem.msg})"
    # One body per line, as logs keep them.
    lines: list[tuple[int, int, Any]] = []
    offset = 0
    for row in text.splitlines(keepends=True):
        first = _skip(row, 0)
        if first < len(row):
            try:
                value, end = _value(row, first)
            except json.JSONDecodeError:
                return f"{name} {extra}"
            if _skip(row, end) != len(row):
                return f"{name} {extra}"
            lines.append((offset + first, offset + end, value))
        offset += len(row)
    return lines if len(lines) > 1 else f"{name} {extra}"


def parse_file(name: str, data: bytes) -> tuple[list[Body], list[str]]:
    """The bodies of one file (an object, a list of objects, or JSON Lines), and its problems."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as problem:
        return [], [f"{name}: not UTF-8 text (byte {problem.start}); request bodies are UTF-8 JSON"]
    at = _skip(text, 1 if text.startswith("\ufeff") else 0)
    if at == len(text):
        return [], [f"{name}: the file is empty; give a request body (a JSON object) or a list of them"]
    try:
        spans = _spans(name, text, at)
    except RecursionError:
        return [], [f"{name}: the JSON is nested too deeply to read"]
    except ValueError:  # not a JSONDecodeError (those are caught): an int of more digits than Python reads
        return [], [f"{name}: a number is too long to read (over 4300 digits)"]
    if isinstance(spans, str):
        return [], [spans]
    if not spans:
        return [], [f"{name}: the list holds no request bodies"]
    whole = len(spans) == 1 and spans[0][0] == at and isinstance(spans[0][2], dict) and text[at] == "{"
    bodies: list[Body] = []
    problems: list[str] = []

    for start, end, value in spans:
        line = _line(text, start)
        operation = _operation(name, line, value, problems)
        if operation is None:
            continue
        # Half a UTF-16 pair (`"\\ud800"`) cannot be encoded, so it could be neither sent nor shown.
        half = surrogate_problem(name, text[start:end], value, line)
        if half is not None:
            problems.append(half.message)
            continue
        if whole:
            # The whole file is the body: --no-fill sends its bytes, BOM and final newline included.
            bodies.append(Body(name, line, text, 0, len(text), _members(text, start), operation, data))
        else:
            bodies.append(Body(name, line, text, start, end, _members(text, start), operation))
    return bodies, problems


def read_bodies(files: Sequence[tuple[str, bytes]]) -> list[Body]:
    """Every body of every file; the problems of all files in one InputError."""
    bodies: list[Body] = []
    problems: list[str] = []
    for name, data in files:
        found, wrong = parse_file(name, data)
        bodies += found
        problems += wrong
    if problems:
        raise InputError("\n".join(problems), HOW_TO)
    return bodies


def _placeholder(name: str, value: Any) -> bool:
    return isinstance(value, str) and value.strip().lower() == FILLED[name].lower()


def fill(body: Body, api_key: str, source_id: str) -> tuple[str, tuple[str, ...]]:
    """The body's text with a missing or placeholder `sharepost` and `sourceid` filled in."""
    edits: list[tuple[int, int, str]] = []
    missing: list[tuple[str, str]] = []
    filled: list[str] = []
    for name, value in (("sharepost", api_key), ("sourceid", source_id)):
        found = [m for m in body.members if m.key == name]
        if not found:
            missing.append((name, value))
            filled.append(name)
        for member in found:
            if _placeholder(name, member.value):
                edits.append((member.value_start, member.value_end, json.dumps(value, ensure_ascii=False)))
                filled.append(name)
    if missing:
        # Added first, as the spec orders them, in the body's own spacing.
        opening = body.text.index("{", body.start)
        members = body.members
        first = members[0] if members else None
        gap = body.text[opening + 1 : first.key_start] if first else ""
        colon = first.colon if first else ": "
        if len(members) > 1:
            separator = body.text[members[0].value_end : members[1].key_start]
        else:
            separator = "," + (gap if "\n" in gap else " " if colon.endswith(" ") else "")
        added = [f"{json.dumps(name)}{colon}{json.dumps(value, ensure_ascii=False)}" for name, value in missing]
        text = separator.join(added) + (separator if first else "")
        at = first.key_start if first else opening + 1
        edits.append((at, at, text))
    out = body.text
    for start, end, replacement in sorted(edits, reverse=True):
        out = out[:start] + replacement + out[end:]
    growth = len(out) - len(body.text)
    return out[body.start : body.end + growth], tuple(dict.fromkeys(filled))


def prepare(bodies: Sequence[Body], connection: Connection | None, fill_in: bool) -> list[Ready]:
    """Each body's URL and exact bytes; without a connection (a dry run), the spec's placeholders."""
    base = connection.base_url if connection else "<base_url>"
    key = connection.api_key if connection else PLACEHOLDER_KEY
    configured_source = connection.source_id if connection else PLACEHOLDER_SOURCE
    template = connection.path_segment if connection else "{action}"
    ready: list[Ready] = []
    for body in bodies:
        filled: tuple[str, ...] = ()
        if fill_in:
            text, filled = fill(body, key, configured_source)
            content = text.encode("utf-8")
        else:
            text = body.text[body.start : body.end]
            content = body.raw if body.raw is not None else text.encode("utf-8")
        document: dict[str, Any] = json.loads(text.lstrip("\ufeff"))
        # The URL names the partner the body names, as the partner's own call did.
        source = document.get("sourceid")
        if not isinstance(source, str) or not source.strip() or _placeholder("sourceid", source):
            source = configured_source
        propertyid = document.get("propertyid")
        segment = path_segment(template, body.operation.action, propertyid if isinstance(propertyid, str) else "")
        url = push_url(base, source, segment)
        if connection is None:
            # Shown as the placeholder it is, not URL-escaped (`%3Csource_id%3E`), and filled by nothing.
            url = url.replace(quote(PLACEHOLDER_SOURCE, safe=""), PLACEHOLDER_SOURCE)
            ready.append(Ready(body, url, content, (), document, unfilled=filled))
        else:
            ready.append(Ready(body, url, content, filled, document))
    return ready


@dataclass(frozen=True, slots=True)
class Replayed:
    """A body and what came back; `sent` is None on a dry run."""

    ready: Ready
    sent: Sent | None

    @property
    def ok(self) -> bool:
        return self.sent is not None and self.sent.outcome.success


def load(paths: Sequence[str], stdin: BinaryIO | None) -> list[Body]:
    """The bodies of every path (`-`: standard input); unreadable files and bad bodies in one InputError."""
    files: list[tuple[str, bytes]] = []
    problems: list[str] = []
    for path in paths:
        try:
            if path == "-":
                files.append(("<stdin>", stdin.read() if stdin is not None else b""))
            else:
                files.append((path, Path(path).read_bytes()))
        except OSError as problem:
            problems.append(f"cannot read {path}: {problem.strerror or problem}")
    try:
        bodies = read_bodies(files)
    except InputError as wrong:
        problems.append(wrong.message)
    if problems:
        raise InputError("\n".join(problems), HOW_TO)
    return bodies
