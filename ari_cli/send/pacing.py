"""A budget per property, held where the service counts it: at most N requests in any window of W seconds.

Real push services limit each property (say 10 calls a minute), not the client as a whole, and they count a
request when it reaches them. So a request takes its place in its property's window in two steps: `claim`
before it goes (a place held, counted as if it were sent now, for as long as it is on its way), then
`written` when its first byte is about to go on its connection, which is when the window starts counting it;
or `release` when it never went (its connection could not be made). A request that waits for a connection,
or connects slowly, thus never uses up its window before it is on the wire: any W seconds of the service's
clock see at most N of a property's requests, retries and split requests included, within the jitter of
the network (`JITTER_MARGIN`, kept as a margin on every window).

Plain and synchronous, with the clock given, so that it is tested without sleeping; the sender sleeps.
A gateway's pause (`Retry-After` on its 429) holds a property whatever its budget.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from ari_cli.config.tuning import Budget

# How much later than the window's end a property's next request goes, in seconds: two requests written W
# seconds apart may arrive closer together when the first took longer on its way (a retransmitted packet, a
# busy server slow to read it), and the service counts arrivals. On a loaded two-core machine a loopback
# server's reads lagged by up to 0.12 s; a quarter second costs a budget counted per minute nothing.
JITTER_MARGIN = 0.25


@dataclass(slots=True)
class _Window:
    written: deque[float] = field(default_factory=deque)  # when its requests went on the wire, oldest first
    claimed: int = 0  # requests on their way that have not gone on the wire yet


class Windows:
    """When each property may send its next request; `budget` None: no limit, pauses only."""

    def __init__(self, budget: Budget | None, clock: Callable[[], float] = time.monotonic) -> None:
        self.budget = budget
        self.clock = clock
        self.length = budget.seconds + JITTER_MARGIN if budget is not None else 0.0
        self.windows: dict[str, _Window] = {}
        self.paused: dict[str, float] = {}  # property: the clock's time its pause ends

    def claim(self, propertyid: str) -> float:
        """Hold a place for a request of `propertyid` and return 0.0; or, when it must wait, how long (nothing held).

        Every claim is later either `written` or `released`.
        """
        now = self.clock()
        wait = self.paused.get(propertyid, now) - now
        if wait > 0:
            return wait
        if self.budget is None:
            return 0.0
        window = self.windows.setdefault(propertyid, _Window())
        written = window.written
        while written and written[0] + self.length <= now:  # the same sum as the wait below: never a wait of 0
            written.popleft()
        if window.claimed + len(written) < self.budget.requests:
            window.claimed += 1
            return 0.0
        # Full: the oldest written request leaves the window first; a claim not yet written leaves it no
        # sooner than a whole window after it is written, which is no sooner than now.
        return (written[0] + self.length - now) if written else self.length

    def written(self, propertyid: str) -> None:
        """A claimed request of `propertyid` goes on the wire now: the window counts it from here."""
        window = self.windows.get(propertyid)
        if window is None or not window.claimed:
            return  # no budget, so nothing was claimed
        window.claimed -= 1
        window.written.append(self.clock())

    def release(self, propertyid: str) -> None:
        """A claimed request of `propertyid` never went on the wire: its place is free again."""
        window = self.windows.get(propertyid)
        if window is not None and window.claimed:
            window.claimed -= 1

    def pause(self, propertyid: str, seconds: float) -> None:
        """Start nothing for `propertyid` for `seconds` (a gateway's Retry-After); a longer pause already set stays."""
        until = self.clock() + seconds
        self.paused[propertyid] = max(self.paused.get(propertyid, until), until)
