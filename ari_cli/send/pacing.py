"""A budget per property: at most N request starts in any window of W seconds, and pauses a gateway asks for.

Real push services limit each property (say 10 calls a minute), not the client as a whole, so one
property waiting for its window must not hold up the others. A sliding window: each property keeps the
times of its starts within the last W seconds; a start is allowed while fewer than N are there. Plain
and synchronous, with the clock given, so that it is tested without sleeping; the sender sleeps.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable

from ari_cli.config.tuning import Budget


class Windows:
    """When each property may start its next request; `budget` None: no limit, pauses only."""

    def __init__(self, budget: Budget | None, clock: Callable[[], float] = time.monotonic) -> None:
        self.budget = budget
        self.clock = clock
        self.starts: dict[str, deque[float]] = {}
        self.paused: dict[str, float] = {}  # property: the clock's time its pause ends

    def reserve(self, propertyid: str) -> float:
        """Take a start for `propertyid` now and return 0.0; or, when it must wait, how long (nothing is taken)."""
        now = self.clock()
        wait = self.paused.get(propertyid, now) - now
        if wait > 0:
            return wait
        if self.budget is None:
            return 0.0
        starts = self.starts.setdefault(propertyid, deque())
        while starts and starts[0] <= now - self.budget.seconds:
            starts.popleft()
        if len(starts) >= self.budget.requests:
            return starts[0] + self.budget.seconds - now
        starts.append(now)
        return 0.0

    def pause(self, propertyid: str, seconds: float) -> None:
        """Start nothing for `propertyid` for `seconds` (a gateway's Retry-After); a longer pause already set stays."""
        until = self.clock() + seconds
        self.paused[propertyid] = max(self.paused.get(propertyid, until), until)
