"""The sending and planning settings a profile may hold, given as flags too: their defaults and bounds.

Nothing is imported here: every command's options read the bounds on each start, `--help` included.
"""

from typing import Any

# The defaults the push options declare, by setting.
TUNING_DEFAULTS: dict[str, Any] = {
    "batch_size": 50,
    "data_form": "list",
    "concurrency": 4,
    "rate": 0.0,
    "timeout": 30.0,
    "retries": 3,
}
# The range of each tuning number, for flags and profiles alike: finite, so that no run goes unbounded
# (no timeout at all, a pool of 10**26 connections). The service states no limits of its own.
TUNING_RANGES: dict[str, tuple[int, int] | tuple[float, float]] = {
    "batch_size": (1, 1000),
    "concurrency": (1, 64),
    "rate": (0.0, 1000.0),
    "timeout": (0.1, 600.0),
    "retries": (0, 20),
}

# The guards for unattended pushes (`guards.py`), a profile's settings and push's flags alike (`max_changed` is
# --max-changed): what each takes, a count of dates (N), a percentage (P%), or either. None is on unless set.
GUARD_LIMITS: dict[str, str] = {
    "max_changed": "either",
    "max_cleared": "either",
    "min_coverage": "percent",
    "max_step": "count",
}
