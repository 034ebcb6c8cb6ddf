"""Values in words, as every view of a run shows them: a cell, lines as ranges, a policy's JSON as its rules.

Below the views (history, diff, the HTML report), so that each reaches it without loading the others.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from rich.text import Text

from ari_cli.config.secrets import scrub
from ari_cli.operations import of
from ari_cli.records.words import cancellation_words, deposit_words
from ari_cli.render.printable import printable
from ari_cli.wire.models import CancellationRule, Deposit


def policy_parts(value: str) -> tuple[str, ...]:
    """A stored policy (the service's JSON) in words: its cancellation, then its deposit; the JSON itself if it
    cannot be read."""
    try:
        document = json.loads(value)
        details = document["policydetails"]
        rules = [CancellationRule.model_validate(r) for r in details.get("cancellation") or []]
        deposit = Deposit.model_validate(details["deposit"])
        return cancellation_words(document["refundable"], rules), deposit_words(deposit)
    except (ValueError, KeyError, TypeError):
        return (value,)


def policy_words(value: str) -> str:
    """A stored policy (the service's JSON) in words; the JSON itself if it cannot be read."""
    return " ".join(policy_parts(value))


def value_text(operation: str, value: str) -> str:
    return policy_words(value) if of(operation).structured else value


def text(value: object, style: str = "") -> Text:
    """A cell of outside origin: never markup, no control character, no known key."""
    return Text(printable(scrub(str(value))), style=style)


def runs_text(runs: Sequence[tuple[str, int, int, int]]) -> str:
    """`rooms.csv:2-4,7`: each file once, runs of lines as ranges (`2-98/8`: every 8th line)."""
    by_source: dict[str, list[str]] = {}
    for source, first, last, step in runs:
        span = str(first) if first == last else f"{first}-{last}" + (f"/{step}" if step != 1 else "")
        by_source.setdefault(source, []).append(span)
    return " ".join(f"{'stdin' if source == '-' else source}:{','.join(spans)}" for source, spans in by_source.items())


def lines_text(lines: Sequence[tuple[str, int]]) -> str:
    """Lines given one by one, as `runs_text` shows them: consecutive ones as ranges."""
    runs: list[tuple[str, int, int, int]] = []
    order = {source: at for at, source in enumerate(dict.fromkeys(s for s, _ in lines))}  # files as they come
    for source, line in sorted(set(lines), key=lambda sl: (order[sl[0]], sl[1])):
        if runs and runs[-1][0] == source and runs[-1][2] + 1 == line:
            runs[-1] = (source, runs[-1][1], line, 1)
        else:
            runs.append((source, line, line, 1))
    return runs_text(runs)


def plural(count: int, noun: str) -> str:
    """`1 row`, `2 rows`."""
    return f"{count} {noun}{'' if count == 1 else 's'}"
