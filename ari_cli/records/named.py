"""Named policies: a TOML file that defines each cancellation and deposit policy once, under a name.

```toml
[policies.flex7]
refundable = true
levels = [{ policyid = 2, dayspriorcheckin = 7, penaltyamount = 100, penaltyapplied = 3 }]
deposit = { policy = "required", amount = 30, applied = 4, intervalunits = 0 }
```

Fields are named as the policy columns are (the deposit's with or without their `deposit` prefix)
and checked by the very rules that check policy rows. `level` defaults to the entry's place in
`levels`, and the two type fields to 3, their only allowed value.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from typing import Any

from ari_cli.exits import InputError
from ari_cli.inputs.looks import unseen, without_unseen
from ari_cli.inputs.names import DEPOSIT_FIELDS, LEVEL_FIELDS, normalize
from ari_cli.records.policy import Policy, build_policy

POLICY_KEYS = ("refundable", "levels", "deposit")
_TOML_POSITION = re.compile(r"\s*\(at (?:line (\d+), column (\d+)|end of document)\)$")
_HINT = "see `ari-cli policy describe --help` for the layout of a policies file"


def _kind(value: Any) -> str:
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return "a list"
    return "a single value"


class _Lines:
    """Best-effort line numbers of `[policies.NAME]` and `[[policies.NAME.levels]]` headers, found in one
    pass over the text (a pass per policy took time in the square of the policies).

    tomllib keeps no positions; a policy written as an inline table simply gets no line.
    """

    _HEADER = re.compile(
        r"""^\s*(\[\[?)\s*policies\s*\.\s*(?:"([^"]*)"|'([^']*)'|([A-Za-z0-9_-]+))\s*(\.\s*levels\s*)?\]"""
    )

    def __init__(self, text: str) -> None:
        self._policies: dict[str, int] = {}
        self._levels: dict[str, list[int]] = {}
        for number, line in enumerate(text.splitlines(), start=1):
            found = self._HEADER.match(line)
            if found is None:
                continue
            name = next(group for group in found.group(2, 3, 4) if group is not None)
            if found[1] == "[[" and found[5]:
                self._levels.setdefault(name, []).append(number)
            elif found[1] == "[" and not found[5]:
                self._policies.setdefault(name, number)

    def policy(self, name: str) -> int | None:
        return self._policies.get(name)

    def levels(self, name: str) -> list[int]:
        return self._levels.get(name, [])


def _fields(
    where: str, table: Any, known: tuple[str, ...], prefix: str, what: str, problems: list[str]
) -> dict[str, Any]:
    """A TOML table's keys as the policy columns name them; unknown keys are problems."""
    if not isinstance(table, dict):
        problems.append(f"{where}: {what} must be a table, not {_kind(table)}")
        return {}
    fields: dict[str, Any] = {}
    for key, value in table.items():
        name = normalize(key)
        if prefix and not name.startswith(prefix):
            name = prefix + name
        if name not in known:
            names = ", ".join(k.removeprefix(prefix) for k in known)
            problems.append(f'{where}: unknown key "{key}" in {what}; the keys are {names}')
        elif isinstance(value, dict | list):
            problems.append(f'{where}: "{key}" in {what} must be a single value, not {_kind(value)}')
        else:
            fields[name] = value
    return fields


def _policy(path: str, name: str, table: Any, lines: _Lines) -> tuple[Policy | None, list[str]]:
    line = lines.policy(name)
    where = f"{path} line {line}, policy {name}" if line else f"{path}, policy {name}"
    if not isinstance(table, dict):
        return None, [f"{where}: must be a table of {', '.join(POLICY_KEYS)}, not {_kind(table)}"]
    problems = [
        f'{where}: unknown key "{key}"; a policy has {", ".join(POLICY_KEYS)}'
        for key in table
        if normalize(key) not in POLICY_KEYS
    ]
    keys = {normalize(key): value for key, value in table.items()}
    deposit = _fields(where, keys.get("deposit", {}), DEPOSIT_FIELDS, "deposit", "deposit", problems)
    raw_levels = keys.get("levels", [])
    if not isinstance(raw_levels, list):
        raw_levels = [raw_levels]  # `[policies.x.levels]` written once, as a table: one level
    level_lines = lines.levels(name)
    levels: list[tuple[str, dict[str, Any]]] = []
    for number, entry in enumerate(raw_levels, start=1):
        at = f"{path} line {level_lines[number - 1]}" if len(level_lines) == len(raw_levels) else path
        level_where = f"{at}, policy {name}, levels entry {number}"
        fields = _fields(level_where, entry, LEVEL_FIELDS, "", "a level", problems)
        fields.setdefault("level", number)
        levels.append((level_where, fields))
    policy, messages = build_policy(where, keys.get("refundable", ""), levels, deposit)
    return policy, problems + messages


def parse_policies(path: str, text: str) -> dict[str, Policy]:
    """The policies a TOML text defines, by name; every problem of the file in one InputError."""
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as problem:
        message = str(problem)
        found = _TOML_POSITION.search(message)
        if found and found[1]:
            place = f"{path} line {found[1]} column {found[2]}"
        elif found:  # something left open: the reader only noticed at the end
            place = f"{path} line {max(1, len(text.splitlines()))} (the end)"
        else:
            place = path
        reason = _TOML_POSITION.sub("", message)
        raise InputError(f"{place}: not valid TOML: {reason}", hint=_HINT) from None
    tables = document.get("policies")
    if not isinstance(tables, dict) or not tables:
        raise InputError(f"{path}: defines no policy; give each as a [policies.NAME] table", hint=_HINT)
    lines = _Lines(text)
    policies: dict[str, Policy] = {}
    problems: list[str] = []
    folded: dict[str, str] = {}
    for name, table in tables.items():
        twin = folded.setdefault(name.casefold(), name)
        if twin != name:
            # Rows name policies ignoring case, so these two could not be told apart.
            problems.append(f'{path}: policies "{twin}" and "{name}" differ only in case')
        hidden = unseen(name)
        if hidden is not None:  # a row would have to hold the same invisible character to name it
            seen = without_unseen(name)
            problems.append(f'{path}: the name "{seen}" holds {hidden}: type it again')
        policy, messages = _policy(path, name, table, lines)
        problems += messages
        if policy is not None:
            policies[name] = policy
    if problems:
        raise InputError("\n".join(problems), hint=_HINT)
    return policies


def load_policies(path: str) -> dict[str, Policy]:
    """The policies of a --policies file, by name, in the file's order."""
    try:
        with open(path, "rb") as stream:
            raw = stream.read()
    except FileNotFoundError:
        raise InputError(f"cannot read {path}: no such file") from None
    except IsADirectoryError:
        raise InputError(f"cannot read {path}: it is a directory, not a file") from None
    except OSError as problem:
        raise InputError(f"cannot read {path}: {problem.strerror or problem}") from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InputError(f"{path}: not UTF-8 text; TOML files are UTF-8") from None
    return parse_policies(path, text)


def find(policies: Mapping[str, Policy], name: str) -> tuple[str, Policy] | None:
    """The policy of that name, ignoring case (as policy rows name them)."""
    return next(((key, p) for key, p in policies.items() if key.casefold() == name.strip().casefold()), None)
