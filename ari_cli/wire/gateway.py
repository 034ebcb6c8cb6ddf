"""Answers that come from in front of the service: gateways, proxies, firewalls. Pure.

The spec's error table (`errors.py`) stays the one source for the service's own errors. These are
the answers support meets that the table does not hold: a gateway's 401, 403, 413 or 429, whose
body is its own text or HTML rather than the service's `{"success": false, "errors": [...]}`.
The sandbox answers 413 too, in the service's shape with code 413, as a real service's guard would.
"""

from __future__ import annotations

from dataclasses import dataclass

WHERE = "not the service: a gateway, proxy or firewall in front of it"


@dataclass(frozen=True, slots=True)
class GatewayAnswer:
    """An HTTP status a gateway answers, what it means for a push, and whether a retry helps."""

    http_status: int
    message: str
    hint: str
    retryable: bool


GATEWAY_ANSWERS: tuple[GatewayAnswer, ...] = (
    GatewayAnswer(401, "a gateway's own authentication failed",
                  "the service itself answers a rejected key with 415, never 401: a gateway or proxy wants its "
                  "own credentials; check the base URL points at the push service and ask who runs the gateway",
                  False),
    GatewayAnswer(403, "forbidden by a gateway, firewall or allow-list",
                  "the service itself never answers 403: your address or the request was blocked before it; "
                  "ask the service to allow your IP address, and check the base URL",
                  False),
    GatewayAnswer(413, "request body too large",
                  "the spec names no size limit, but gateways have one (the sandbox: 1 MiB); send smaller "
                  "requests with a lower --batch-size; the same request gets the same answer",
                  False),
    GatewayAnswer(429, "too many requests: a gateway's rate limit",
                  "only when the body is not the service's JSON: the service's own 429 carries code 452 (invalid "
                  "rate plan mapping); slow down with --rate or --concurrency, wait (Retry-After) and send again",
                  True),
)  # fmt: skip

BY_GATEWAY_STATUS: dict[int, GatewayAnswer] = {answer.http_status: answer for answer in GATEWAY_ANSWERS}


def gateway_answer(http_status: int | None, code: int | None) -> GatewayAnswer | None:
    """What an answer means when a gateway gave it: a listed status whose body carried no service code.

    A 413 with code 413 is the sandbox's (or a service's) size guard and means the same thing.
    """
    if http_status is None:
        return None
    if code is None or (code == http_status == 413):
        return BY_GATEWAY_STATUS.get(http_status)
    return None
