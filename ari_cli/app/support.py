"""What `explain`, `errors` and `policy describe` find: the spec's error table and named policies, in words.

Each returns what it found; render/support.py shows it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ari_cli.exits import InputError, UsageProblem
from ari_cli.records.named import find, load_policies
from ari_cli.wire.errors import ERROR_TABLE, ErrorRow
from ari_cli.wire.explain import Explanation, unknown_message
from ari_cli.wire.explain import explain as explain_number

# A status or code as partners and logs quote it: 416, "HTTP 416", HTTP/1.1 416, http416, "code 440", error:440.
_QUOTED = re.compile(r"(?:(?:http(?:/[\d.]+)?|code|error)[\s:#-]*)?(\d+)", re.IGNORECASE)


def explain_codes(codes: list[str]) -> list[Explanation]:
    """Each status or code's meaning; an unknown one is a usage error that points at the whole table."""
    items = []
    for text in codes:
        quoted = _QUOTED.fullmatch(text.strip())
        found = explain_number(int(quoted.group(1))) if quoted else None
        if found is None:
            raise UsageProblem(unknown_message(text), "ari-cli errors prints the whole table")
        items.append(found)
    return items


def error_table() -> list[ErrorRow]:
    """The spec's error table."""
    return list(ERROR_TABLE)


@dataclass(frozen=True, slots=True)
class Described:
    """`policy describe`: named policies in words, in the file's order; `one` when a single name was asked for."""

    policies: list[tuple[str, str]]
    one: bool


def describe_policies(policies: Path, name: str | None) -> Described:
    """One named policy in words, or every policy of the file."""
    defined = load_policies(str(policies))
    if name is None:
        return Described([(key, policy.describe()) for key, policy in defined.items()], one=False)
    found = find(defined, name)
    if found is None:
        raise InputError(f'{policies}: no policy named "{name}"; the names are {", ".join(defined)}')
    return Described([(found[0], found[1].describe())], one=True)
