"""What `--changed-only`, `diff` and the guards say when the journal holds nothing for this service but holds
values of the same source id at another base URL. `http://localhost:8080` and `http://127.0.0.1:8080` may be
other machines, so they stay two services (`wire/url.py`); but a user who pushed under one and compares under
the other would otherwise be told, without a word, that every date is new."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from ari_cli.journal.queries import elsewhere, holds_any

if TYPE_CHECKING:
    from ari_cli.journal.database import OpenJournal


def note(
    db: OpenJournal | None, operation: str, base_url: str, source_id: str, properties: Iterable[str]
) -> str | None:
    """The sentence naming the other base URL, or None (the service has values, none is elsewhere, no journal)."""
    wanted = set(properties)
    if db is None or not wanted:
        return None

    if holds_any(db, operation, base_url, source_id, wanted):
        return None
    others = elsewhere(db, operation, base_url, source_id, wanted)
    if not others:
        return None
    named = " and ".join(others[:3]) + (f" (and {len(others) - 3} more)" if len(others) > 3 else "")
    return (
        f"the journal holds no {operation} value of these properties that {base_url} (source {source_id}) "
        f"acknowledged, but holds some from {named} with that source id: compared with {base_url}, every date "
        f"is new; if {others[0]} is the same service, give --base-url {others[0]}"
    )
