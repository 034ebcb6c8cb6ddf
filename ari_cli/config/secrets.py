"""Masking of the API key: the one helper every output path uses."""

from __future__ import annotations

import json
from typing import Any

MASK = "…"
MIN_SCRUBBED = 6


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


def remember(secret: str | None) -> None:
    """Note a key in use, so that `scrub` can hide it from any text, exceptions included."""
    # Scrubbing a very short key would blank that text everywhere; such keys are masked, not scrubbed.
    if secret and len(secret) >= MIN_SCRUBBED:
        _known.add(secret)


def scrub(text: str) -> str:
    """Text with every known key replaced by its mask."""
    for secret in _known:
        text = text.replace(secret, mask(secret))
    return text


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
