"""JSON and JSON Lines files: parsed with the line each object starts on, then turned into rows.

The stdlib parser keeps no positions, so the pure-Python scanner is rebuilt around wrapped
`parse_object` / `parse_array` hooks that note where each object and each list entry begins.
"""

from __future__ import annotations

import json
import json.decoder
import json.scanner
import re
from bisect import bisect_right
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from ari_cli.exits import InputError
from ari_cli.inputs.columns import Resolver
from ari_cli.inputs.model import ListedPart, Prepared, ReadMeter, SourceRow
from ari_cli.inputs.shapes import Flattener, Located, LocatedList, kind
from ari_cli.inputs.textio import Source, decode_all
from ari_cli.wire.operations import Operation

_JSON_OBJECT: Callable[..., tuple[dict[str, Any], int]] = json.decoder.JSONObject  # type: ignore[attr-defined]
_JSON_ARRAY: Callable[..., tuple[list[Any], int]] = json.decoder.JSONArray  # type: ignore[attr-defined]
_MAKE_SCANNER: Callable[[json.JSONDecoder], Any] = json.scanner.py_make_scanner  # type: ignore[attr-defined]
_NEWLINE = re.compile("\n")
# Python refuses to turn more digits than this into an int (sys.get_int_max_str_digits()).
_LONG_NUMBER = re.compile(r"\d{4301,}")
# A `\uD8xx`-`\uDFxx` escape: the only way a lone surrogate gets into parsed JSON; checked only when present.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")
_CONTAINER_TYPES = frozenset({dict, list, Located, LocatedList})
JSONL_HINT = "one JSON object per line is JSON Lines: name the file .jsonl, or give --format jsonl"


class _DuplicateKey(Exception):
    def __init__(self, key: str) -> None:
        self.key = key
        self.line: int | None = None  # set by the innermost object being parsed


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object's pairs as a dict; a key given twice raises, since JSON would silently keep the last."""
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _DuplicateKey(key)
            seen.add(key)
    return obj


def _duplicate_problem(name: str, line: int, key: str) -> InputError:
    return InputError(
        f"{name} line {line}: key {json.dumps(key)} is given twice in one object",
        hint="give each key once: JSON keeps only the last, which may not be the value you meant",
    )


def _long_number_problem(name: str, text: str, first_line: int = 1) -> InputError:
    found = _LONG_NUMBER.search(text)
    line = first_line + (text.count("\n", 0, found.start()) if found else 0)
    digits = f" of {len(found.group())} digits" if found else ""
    return InputError(f"{name} line {line}: a number{digits} is too long to be a value")


def surrogate_problem(name: str, text: str, document: Any, first_line: int = 1) -> InputError | None:
    """The error for a string or key holding half of a UTF-16 pair (`"\\ud800"`), which nothing can send."""
    if _SURROGATE_ESCAPE.search(text) is None:
        return None
    # Iterative: the document may be as deep as the parser allowed.
    stack: list[tuple[Any, int]] = [(document, first_line)]
    while stack:
        value, line = stack.pop()
        if isinstance(value, Located):
            line = value.line
        if isinstance(value, dict):
            stack.extend((key, line) for key in value)
            stack.extend((item, line) for item in value.values())
        elif isinstance(value, list):
            lines = value.lines if isinstance(value, LocatedList) else [line] * len(value)
            stack.extend(zip(value, lines, strict=True))
        elif isinstance(value, str) and not value.isascii():
            try:
                value.encode("utf-8")
            except UnicodeEncodeError as bad:
                half = f"\\u{ord(value[bad.start]):04x}"
                return InputError(
                    f"{name} line {line}: text holds {half}, half of a UTF-16 surrogate pair without its other half",
                    hint="write the character itself, or both halves of its pair",
                )
    return None


def _positional_decoder(text: str) -> json.JSONDecoder:
    newlines = [match.start() for match in _NEWLINE.finditer(text)]

    def line_at(position: int) -> int:
        return bisect_right(newlines, position) + 1

    def parse_object(
        s_and_end: tuple[str, int], strict: bool, scan_once: Any, hook: Any, pairs_hook: Any, *args: Any
    ) -> tuple[Located, int]:
        try:
            parsed, end = _JSON_OBJECT(s_and_end, strict, scan_once, hook, _unique_keys, *args)
        except _DuplicateKey as twice:
            if twice.line is None:
                twice.line = line_at(s_and_end[1] - 1)
            raise
        located = Located(parsed)
        located.line = line_at(s_and_end[1] - 1)
        return located, end

    def parse_array(s_and_end: tuple[str, int], scan_once: Callable[..., Any]) -> tuple[LocatedList, int]:
        lines: list[int] = []

        def noting(string: str, index: int) -> Any:
            result = scan_once(string, index)
            lines.append(line_at(index))
            return result

        values, end = _JSON_ARRAY(s_and_end, noting)
        located = LocatedList(values)
        located.lines = lines
        return located, end

    decoder = json.JSONDecoder()
    # The scanner reads its hooks from the decoder when it is made, so set them first.
    vars(decoder).update(parse_object=parse_object, parse_array=parse_array)
    vars(decoder)["scan_once"] = _MAKE_SCANNER(decoder)
    return decoder


def load_json(name: str, text: str) -> Any:
    """The parsed document, objects as `Located` and lists as `LocatedList`; None when empty."""
    if not text.strip():
        return None
    try:
        document = _positional_decoder(text).decode(text)
    except json.JSONDecodeError as problem:
        hint = JSONL_HINT if problem.msg == "Extra data" else None
        raise InputError(
            f"{name} line {problem.lineno} column {problem.colno}: not valid JSON: {problem.msg}", hint=hint
        ) from None
    except _DuplicateKey as twice:
        raise _duplicate_problem(name, twice.line or 1, twice.key) from None
    except RecursionError:
        raise InputError(f"{name}: the JSON is nested too deeply") from None
    except ValueError:
        raise _long_number_problem(name, text) from None
    surrogate = surrogate_problem(name, text, document)
    if surrogate is not None:
        raise surrogate
    return document


def load_jsonl(name: str, text: str) -> list[tuple[int, Any]]:
    """Each non-blank line's value, with its line number."""
    values: list[tuple[int, Any]] = []
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        try:
            value = json.loads(line, object_pairs_hook=_unique_keys)
        except json.JSONDecodeError as problem:
            raise InputError(
                f"{name} line {number} column {problem.colno}: not valid JSON: {problem.msg}",
                hint="in JSON Lines each line holds one whole JSON object",
            ) from None
        except _DuplicateKey as twice:
            raise _duplicate_problem(name, number, twice.key) from None
        except RecursionError:
            raise InputError(f"{name} line {number}: the JSON is nested too deeply") from None
        except ValueError:
            raise _long_number_problem(name, line, number) from None
        surrogate = surrogate_problem(name, line, value, number)
        if surrogate is not None:
            raise surrogate
        values.append((number, value))
    return values


def _plan(keys: tuple[str, ...], line: int, resolver: Resolver) -> list[tuple[str, str]]:
    """(key, canonical field) for the used keys of one shape of object; duplicates are recorded."""
    plan: list[tuple[str, str]] = []
    first: dict[str, str] = {}
    for key in keys:
        canonical = resolver.resolve(key)
        if canonical is None:
            continue
        if canonical in first:
            resolver.duplicate(first[canonical], key, canonical, f"line {line}")
            continue
        first[canonical] = key
        plan.append((key, canonical))
    return plan


def _nested(name: str, line: int, raw: dict[str, Any], plan: list[tuple[str, str]]) -> InputError:
    key = next(key for key, _ in plan if isinstance(raw[key], dict | list))
    return InputError(
        f'{name} line {line}: "{key}" holds {kind(raw[key])}; a value must be text, a number, true/false or null'
    )


def to_rows(name: str, items: Iterable[tuple[int, dict[str, Any]]], resolver: Resolver) -> list[SourceRow]:
    """Rows under canonical names; unknown and duplicate keys go to the resolver's problems."""
    rows: list[SourceRow] = []
    # Objects of a file mostly share their keys: resolve each distinct key order once.
    plans: dict[tuple[str, ...], list[tuple[str, str]]] = {}
    conflict = False  # objects differ in JSON: `date` with start/end is checked per object, named once
    dated: dict[bool, int] = {}  # whether an object gives a period -> the first line that does (or does not)
    for line, raw in items:
        keys = tuple(raw)
        plan = plans.get(keys)
        if plan is None:
            plan = plans[keys] = _plan(keys, line, resolver)
            if not conflict:
                conflict = resolver.date_conflict((c for _, c in plan), f"line {line}")
            given = {c for _, c in plan} & {"period", "date", "start", "end"}
            if given and not conflict:
                dated.setdefault("period" in given, line)
                # A file's rows are checked with one way of reading their dates when one of them is a period.
                if len(dated) == 2:
                    conflict = True
                    resolver.problems.append(
                        f"{name} line {max(dated.values())}: line {dated[True]} gives its dates as a period and "
                        f"line {dated[False]} as date or start and end: give them one way in a file"
                    )
        fields = {canonical: raw[key] for key, canonical in plan}
        if not _CONTAINER_TYPES.isdisjoint(map(type, fields.values())):
            raise _nested(name, line, raw, plan)
        rows.append(SourceRow(name, line, fields))
    return rows


def prepare_json(
    source: Source,
    operation: Operation,
    encoding: str | None,
    format_: str,
    mapping: Mapping[str, str] | None = None,
    meter: ReadMeter | None = None,
    ignore: tuple[str, ...] = (),
) -> Prepared:
    """Read a JSON or JSON Lines file whole: flat rows, API request bodies, or policies."""
    if meter is not None:
        meter.start(source.name, source.size())
    data = source.read()
    if meter is not None:
        meter.done = len(data)
    text = decode_all(source.name, data, encoding)
    flattener = Flattener(source.name, operation)
    if format_ == "jsonl":
        items = flattener.from_lines(load_jsonl(source.name, text))
    else:
        items = flattener.from_document(load_json(source.name, text))
    if meter is not None:
        meter.rows = len(items)
    return _prepared(source.name, items, operation, mapping, ignore)


def prepare_objects(
    name: str,
    objects: Iterable[Any],
    operation: Operation,
    mapping: Mapping[str, str] | None = None,
    ignore: tuple[str, ...] = (),
) -> Prepared:
    """Rows given as Python mappings (the API's `rows`), read as a JSON list of objects is: each one's
    line is its place in the list, from 1."""
    items: list[tuple[int, Any]] = []
    for line, item in enumerate(objects, start=1):
        if isinstance(item, Mapping):
            item = dict(item)
            odd = next((key for key in item if not isinstance(key, str)), None)
            if odd is not None:
                raise InputError(f"{name} line {line}: the key {odd!r} is not text; name each field by a string")
        items.append((line, item))
    return _prepared(name, Flattener(name, operation).from_lines(items), operation, mapping, ignore)


def _prepared(name: str, items: Iterable[tuple[int, dict[str, Any]]], operation: Operation,
              mapping: Mapping[str, str] | None, ignore: tuple[str, ...] = ()) -> Prepared:  # fmt: skip
    resolver = Resolver(operation, name, "key", mapping or {}, ignore=ignore)
    rows = to_rows(name, items, resolver)
    if rows:
        resolver.check_required()
    warning = resolver.warning()
    part = ListedPart(name, rows) if rows else None
    return Prepared(
        part=part, warnings=[warning] if warning else [], problems=resolver.problems, ignored=resolver.left_out(name)
    )
