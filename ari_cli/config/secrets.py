"""Masking of the API key: the one helper every output path uses."""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import quote, quote_plus

MASK = "…"


def mask(secret: str | None) -> str:
    """`sandbox-key-0001` -> `sand…0001`; short keys are hidden whole."""
    if not secret:
        return ""
    if len(secret) < 12:
        return MASK * 3
    return f"{secret[:4]}{MASK}{secret[-4:]}"


def masked_body(body: dict[str, Any]) -> dict[str, Any]:
    """A copy of a request body with `sharepost` masked."""
    key = body.get("sharepost")
    # `<API_KEY>` is the spec's placeholder, shown as is when nothing is configured.
    if not isinstance(key, str) or (key.startswith("<") and key.endswith(">")):
        return dict(body)
    return {**body, "sharepost": mask(body["sharepost"])}


_known: set[str] = set()
_pattern: re.Pattern[str] | None = None  # every known key in every spelling; rebuilt when one is added
_by_group: dict[str, str] = {}  # the pattern's group name -> the mask of its key

_JSON_ESCAPES = {'"': '\\"', "\\": "\\\\", "/": "\\/", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def remember(secret: str | None) -> None:
    """Note a key in use, so that `scrub` can hide it from any text, exceptions included."""
    global _pattern
    # Whatever its length: a short key echoed by the service is still the key.
    if secret and secret not in _known:
        _known.add(secret)
        _pattern = None


def _char(c: str) -> str:
    """A regex for one character of a key as JSON text may spell it: as is, escaped, or \\uXXXX (any case)."""
    units = c.encode("utf-16-be")
    escaped = "".join(f"\\\\u{units[i]:02x}{units[i + 1]:02x}" for i in range(0, len(units), 2))
    spellings = [re.escape(c), re.sub(r"[a-f]", lambda m: f"[{m.group()}{m.group().upper()}]", escaped)]
    if c in _JSON_ESCAPES:
        spellings.append(re.escape(_JSON_ESCAPES[c]))
    return "(?:" + "|".join(spellings) + ")"


def _spelled(secret: str) -> str:
    return "".join(_char(c) for c in secret)


def _escaped(text: str) -> set[str]:
    """One layer of the escapes a service may put a key through: JSON (as is or to ASCII, `/` as `\\/`) and URL."""
    inner = json.dumps(text)[1:-1]
    return {json.dumps(text, ensure_ascii=False)[1:-1], inner, inner.replace("/", "\\/"), quote(text, safe=""),
            quote_plus(text, safe="")}  # fmt: skip


def _forms(secret: str) -> list[str]:
    """The key and every spelling of up to two layers of escapes (a JSON string inside a JSON string, a URL
    parameter inside JSON): an echo that escaped it twice is still the key."""
    forms, layer = {secret}, {secret}
    for _ in range(2):
        layer = {form for text in layer for form in _escaped(text)} - forms
        forms |= layer
    return sorted(forms, key=len, reverse=True)


def _any_spelling(secret: str) -> str:
    # Each escaped form literally, and the key character by character as JSON may spell each one.
    return "|".join([*(re.escape(form) for form in _forms(secret)), _spelled(secret)])


def scrub(text: str) -> str:
    """Text with every known key replaced by its mask: in any case (a service may upper-case what it echoes), in
    any spelling JSON allows, URL-encoded, and escaped twice."""
    global _pattern
    if not _known:
        return text
    if _pattern is None:
        # Longest first, so that a key inside another is not masked half.
        ordered = sorted(_known, key=len, reverse=True)
        _pattern = re.compile("|".join(f"(?P<k{i}>{_any_spelling(k)})" for i, k in enumerate(ordered)), re.IGNORECASE)
        _by_group.clear()
        _by_group.update({f"k{i}": mask(k) for i, k in enumerate(ordered)})
    return _pattern.sub(lambda m: _by_group[m.lastgroup or ""], text)


# The spec's placeholder for the key: not a secret, shown and sent as written.
KEY_PLACEHOLDER = "<API_KEY>"


def is_placeholder(value: str) -> bool:
    """Whether a `sharepost` value is the spec's `<API_KEY>` placeholder (any case)."""
    return value.strip().lower() == KEY_PLACEHOLDER.lower()


def keys_in(content: bytes) -> list[str]:
    """The `sharepost` values of a JSON body (an object or a list of them), placeholders left out."""
    try:
        document = json.loads(content)
    except (ValueError, RecursionError):
        return []
    bodies = document if isinstance(document, list) else [document]
    found = [b.get("sharepost") for b in bodies if isinstance(b, dict)]
    return list(dict.fromkeys(k for k in found if isinstance(k, str) and k and not is_placeholder(k)))


def spellings(secret: str) -> list[str]:
    """How a string can appear inside JSON text: as is, escaped, escaped to ASCII."""
    inner = json.dumps(secret, ensure_ascii=False)[1:-1]
    return list(dict.fromkeys((secret, inner, json.dumps(secret)[1:-1])))


def masked_text(content: bytes) -> str:
    """A request body as text, every key it carries (and every known key) masked."""
    text = content.decode("utf-8", "replace")
    for secret in keys_in(content):
        for spelling in spellings(secret):
            text = text.replace(spelling, mask(secret))
    return scrub(text)
