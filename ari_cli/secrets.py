"""Masking of the API key: the one helper every output path uses."""

from __future__ import annotations

from typing import Any

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


def remember(secret: str | None) -> None:
    """Note a key in use, so that `scrub` can hide it from any text, exceptions included."""
    if secret:
        _known.add(secret)


def scrub(text: str) -> str:
    """Text with every known key replaced by its mask."""
    for secret in _known:
        text = text.replace(secret, mask(secret))
    return text
