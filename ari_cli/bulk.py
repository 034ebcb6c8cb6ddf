"""Bulk work with the cyclic garbage collector paused, and a big heap's end.

Preparing a million-row run allocates millions of small objects (lists, records, bodies), none of
them in reference cycles. Each collection the allocations trigger walks all that are alive, again
and again: a tenth of a big dry run's time, for nothing. Reference counting still frees what dies.

What a big preparation made lives until the process ends, so it is then frozen: later collections
(the first one alone walked the whole heap, another tenth) skip it, and at exit there is nothing
left to do but free it object by object, which `end_fast` spares.
"""

from __future__ import annotations

import functools
import gc
import os
import sys
from collections.abc import Callable
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
T = TypeVar("T")

# Allocations of tracked objects (less those freed) past which a preparation counts as big: a few
# thousand rows' worth. Small runs, and the test suite's thousands of them, keep the usual collector.
BIG_HEAP = 100_000


def gc_paused(function: Callable[P, T]) -> Callable[P, T]:
    """`function`, run with the cyclic collector paused (unless it already was); what a big one made is frozen."""

    @functools.wraps(function)
    def paused(*args: P.args, **kwargs: P.kwargs) -> T:
        if not gc.isenabled():
            return function(*args, **kwargs)
        gc.disable()
        try:
            return function(*args, **kwargs)
        finally:
            if gc.get_count()[0] > BIG_HEAP:
                gc.freeze()
            gc.enable()

    return paused


def end_fast(code: object) -> None:
    """After a big run, end the process without freeing its heap object by object; returns otherwise.

    Only for the console script's last step: output is flushed first, and nothing else is left to run.
    """
    if not gc.get_freeze_count() or not isinstance(code, int | None):
        return
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        return  # the usual exit words a closed or broken stream
    os._exit(code or 0)
