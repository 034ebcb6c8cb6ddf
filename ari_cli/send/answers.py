"""What an HTTP answer of the push service means: success only when the service says so.

Reading the body (its code, message and tracking id), `Retry-After`, and the answers that are not
the service's. A key the service echoes back is masked here, before anything can show or keep it.
"""

from __future__ import annotations

import datetime as dt
import email.utils
import json
from dataclasses import replace

from pydantic import ValidationError

from ari_cli.config.secrets import scrub
from ari_cli.send.exchange import Outcome, Problem
from ari_cli.wire.errors import BY_STATUS, hint_for, is_retryable, lookup
from ari_cli.wire.gateway import gateway_answer
from ari_cli.wire.models import PushResponse

# The service asks for seconds at most; a longer `Retry-After` would hold a run (and cron) for hours.
RETRY_AFTER_CAP = 60.0
# The service answers a few hundred bytes per request; more than this is not its answer.
ANSWER_LIMIT = 1_048_576


def _retry_after(value: str | None) -> float | None:
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return min(float(value), RETRY_AFTER_CAP)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    delay = (when - dt.datetime.now(dt.UTC)).total_seconds()
    return min(max(delay, 0.0), RETRY_AFTER_CAP)


def _snippet(text: str) -> str:
    return " ".join(text[:120].split()) + ("…" if len(text) > 120 else "")


def _unworded(code: int | None, status: int) -> str:
    """What an error entry without a message means, from the spec's table where its code is there."""
    row = lookup(code, status)
    return f"{row.message} (the answer gave no message)" if row else "the answer gave no message"


def interpret(status: int, content: bytes, retry_after: str | None = None) -> Outcome:
    """Read an HTTP answer: meaning from the body code, the status beside it; never guess success.

    A key the service echoes (in a tracking id or a message) is masked here, before any output,
    report or journal row can hold it: the answer's text is masked before any of it is quoted (`repr`
    and JSON double a backslash, a spelling masking would no longer know), and what its JSON holds
    once decoded is masked again.
    """
    outcome = _meaning(status, content, scrub(content.decode("utf-8", "replace")), retry_after)
    trackingid = None if outcome.trackingid is None else scrub(outcome.trackingid)
    errors = tuple(replace(e, message=scrub(e.message)) for e in outcome.errors)
    return replace(outcome, trackingid=trackingid, errors=errors)


def _meaning(status: int, content: bytes, masked: str, retry_after: str | None) -> Outcome:
    """What the answer means, read from its bytes; every text it quotes comes from `masked`."""
    wait = _retry_after(retry_after)
    try:
        data = json.loads(content) if content.strip() else None
        response = PushResponse.model_validate(data) if isinstance(data, dict) else None
    except (ValueError, RecursionError, ValidationError):  # RecursionError: an answer nested too deeply
        response = None
    if response is not None and status == 200 and response.success is True:
        return Outcome(status, True, response.trackingid)
    row = BY_STATUS.get(status)
    if response is not None and response.errors:
        errors = tuple(
            Problem(e.code, e.message or _unworded(e.code, status), status, hint_for(e.code, status))
            for e in response.errors
        )
        trackingid = response.trackingid
    else:
        trackingid = response.trackingid if response is not None else None
        if response is not None:
            said = f"success {json.dumps(response.success)} and no errors"
        elif content.strip():
            said = f"a body that is not the service's JSON: {_snippet(masked)!r}"
        else:
            said = "an empty body"
        # Without the service's JSON, a 429 (or 401, 403, 413) is a gateway's answer, not the table's row.
        known = gateway_answer(status, None) or row
        meaning = f" ({known.message})" if known else ""
        message = f"HTTP {status}{meaning} with {said}; the push is not confirmed"
        errors = (Problem(None, message, status, known.hint if known else None),)
        if response is None and (gateway := gateway_answer(status, None)) is not None and gateway.retryable:
            # A gateway's rate limit (429 without the service's JSON): its Retry-After says when to send again.
            return Outcome(status, False, trackingid, errors, True, wait)
    transient = is_retryable(errors[0].code, status)
    return Outcome(status, False, trackingid, errors, transient, wait if transient else None)


def too_large(status: int, base_url: str) -> Outcome:
    message = f"answer too large: {base_url} sent more than {ANSWER_LIMIT // 1_048_576} MiB; the push is not confirmed"
    hint = "the service's answers are a few hundred bytes; check the base URL, or a proxy in front of the service"
    return Outcome(status, False, errors=(Problem(None, message, status, hint),))
