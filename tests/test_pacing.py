"""The budget per property (send/pacing.py) with a clock of the test's own, and the sender's bounds around an
injected httpx client (httpx.MockTransport): no sleeping on a budget, no real service needed for these units."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

import httpx
import pytest

from ari_cli.config.tuning import Budget, parse_budget
from ari_cli.send.exchange import Exchange, Route, SendOptions
from ari_cli.send.http import send_all
from ari_cli.send.pacing import JITTER_MARGIN, Windows


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_budget_is_n_per_second_or_per_minute() -> None:
    assert parse_budget("10/min") == Budget(10, 60.0)
    assert parse_budget(" 5 / s ") == Budget(5, 1.0)
    assert parse_budget("") is None
    for wrong in ("0/s", "10", "10/h", "ten/min", "10001/s", "-1/s", "1.5/s"):
        with pytest.raises(ValueError, match="N/s or N/min"):
            parse_budget(wrong)


def _go(windows: Windows, propertyid: str) -> float:
    """Claim a place and, when one is had, go on the wire at once (what a request on an open connection does)."""
    wait = windows.claim(propertyid)
    if wait == 0:
        windows.written(propertyid)
    return wait


def test_no_property_starts_more_than_n_in_any_window_and_others_go_on() -> None:
    clock = Clock()
    windows = Windows(Budget(2, 1.0), clock)
    length = 1.0 + JITTER_MARGIN
    assert [_go(windows, "A"), _go(windows, "A")] == [0.0, 0.0]
    assert _go(windows, "A") == pytest.approx(length)  # the third waits for the first to leave the window
    assert _go(windows, "B") == 0.0  # another property is not held up
    clock.now += 0.4
    assert _go(windows, "A") == pytest.approx(length - 0.4)
    clock.now += length - 0.4
    assert _go(windows, "A") == 0.0  # both earlier starts have left the window (with its margin, to the tick)
    clock.now += 0.5
    assert _go(windows, "A") == 0.0
    assert _go(windows, "A") == pytest.approx(length - 0.5)  # two within the window: wait for the older one


def test_the_starts_of_a_property_never_exceed_the_budget_in_any_window() -> None:
    clock = Clock()
    windows = Windows(Budget(3, 60.0), clock)
    starts: list[float] = []
    while len(starts) < 20:
        wait = _go(windows, "HTL001")
        if wait == 0:
            starts.append(clock.now)
        else:
            clock.now += wait
    for first, fourth in zip(starts, starts[3:], strict=False):
        assert fourth - first >= 60.0


def test_a_place_counts_from_when_its_request_goes_on_the_wire_not_from_its_claim() -> None:
    # A request that claimed its place, then took 5 s to connect, is counted from when it was written: the
    # service sees it then. Until written, a claim holds its place, so no other request of the property
    # overtakes the budget meanwhile.
    clock = Clock()
    windows = Windows(Budget(1, 1.0), clock)
    assert windows.claim("A") == 0.0
    assert windows.claim("A") == pytest.approx(1.0 + JITTER_MARGIN)  # held by a claim that is on its way
    clock.now += 5.0
    windows.written("A")
    clock.now += 0.5
    assert windows.claim("A") == pytest.approx(0.5 + JITTER_MARGIN)  # a window from the write, not the claim


def test_a_claim_that_never_went_on_the_wire_frees_its_place() -> None:
    clock = Clock()
    windows = Windows(Budget(1, 60.0), clock)
    assert windows.claim("A") == 0.0
    windows.release("A")  # its connection could not be made: the service never saw it
    assert windows.claim("A") == 0.0


def test_a_pause_holds_its_property_alone_and_a_shorter_one_does_not_cut_it() -> None:
    clock = Clock()
    windows = Windows(None, clock)
    windows.pause("A", 30.0)
    windows.pause("A", 5.0)
    assert windows.claim("A") == pytest.approx(30.0)
    assert windows.claim("B") == 0.0
    clock.now += 30.0
    assert windows.claim("A") == 0.0


def _exchanges(properties: Sequence[str]) -> list[Exchange]:
    return [Exchange(i, p, (i - 1,), {"propertyid": p}, f"http://push.test/v2/push_ari/S/{p}")
            for i, p in enumerate(properties, start=1)]  # fmt: skip


def _send(handler: Any, properties: Sequence[str], **options: Any) -> list[Exchange]:
    route = Route(build=lambda part: {}, base_url="http://push.test")
    transport = httpx.MockTransport(handler)

    async def go() -> httpx.AsyncClient:
        return httpx.AsyncClient(transport=transport)

    client = asyncio.run(go())
    sent, stopped = send_all(_exchanges(properties), route, SendOptions(**options), client=client)
    assert not stopped
    return sent


def test_an_injected_client_still_stops_reading_an_answer_past_one_mib() -> None:
    def huge(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, content=b"x" * 3_000_000)

    [exchange] = _send(huge, ["A"], retries=0)
    assert exchange.outcome is not None and not exchange.outcome.success
    assert "answer too large" in exchange.outcome.errors[0].message


def test_an_injected_client_still_has_the_whole_request_timeout() -> None:
    async def never(request: httpx.Request) -> httpx.Response:
        await asyncio.sleep(30)
        return httpx.Response(200)

    [exchange] = _send(never, ["A"], retries=0, timeout=0.2)
    assert exchange.outcome is not None
    assert exchange.outcome.errors[0].message == "no answer from http://push.test within 0.2 s"


def test_a_gateways_429_is_sent_again_after_its_retry_after_and_the_services_429_is_not() -> None:
    tries: dict[str, int] = {}

    def limited(request: httpx.Request) -> httpx.Response:
        prop = request.url.path.rsplit("/", 1)[1]
        tries[prop] = tries.get(prop, 0) + 1
        if prop == "G" and tries[prop] == 1:
            return httpx.Response(429, text="<html>slow down</html>", headers={"Retry-After": "0"})
        if prop == "S":
            body = {"success": False, "errors": [{"code": 452, "message": "invalid rate plan mapping"}]}
            return httpx.Response(429, json=body)
        return httpx.Response(200, json={"success": True, "trackingid": "T"})

    gateway, service = _send(limited, ["G", "S"], retries=2, wait_initial=0.01, wait_jitter=0.0)
    assert gateway.outcome is not None and gateway.outcome.success and gateway.attempts == 2
    assert service.outcome is not None and not service.outcome.success and service.attempts == 1
    assert service.outcome.errors[0].code == 452
