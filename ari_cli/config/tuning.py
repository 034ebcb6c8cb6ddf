"""The sending and planning settings a profile may hold, given as flags too: their defaults and bounds.

Next to nothing is imported here: every command's options read the bounds on each start, `--help` included.
"""

import re
from dataclasses import dataclass
from typing import Any, NamedTuple

# The defaults the push options declare, by setting.
TUNING_DEFAULTS: dict[str, Any] = {
    "batch_size": 50,
    "data_form": "list",
    "concurrency": 4,
    "rate": 0.0,
    "timeout": 30.0,
    "retries": 3,
    "rate_per_property": "",  # N/s or N/min; empty: no budget per property
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


class Budget(NamedTuple):
    """At most `requests` request starts per property in any window of `seconds`."""

    requests: int
    seconds: float


BUDGET_WINDOWS = {"s": 1.0, "min": 60.0}
BUDGET_MAX = 10_000
_BUDGET = re.compile(r"\s*(\d+)\s*/\s*(s|min)\s*")


def parse_budget(text: str | None) -> Budget | None:
    """`N/s` or `N/min` (N from 1 to 10,000); None for none; ValueError saying what is wanted otherwise."""
    if text is None or not text.strip():
        return None
    match = _BUDGET.fullmatch(text)
    if match is None or not 1 <= int(match[1]) <= BUDGET_MAX:
        raise ValueError(f"N/s or N/min, N from 1 to {BUDGET_MAX:,} (for example 10/min)")
    return Budget(int(match[1]), BUDGET_WINDOWS[match[2]])


# The guards for unattended pushes (`guards.py`), a profile's settings and push's flags alike (`max_changed` is
# --max-changed): what each takes, a count of dates (N), a percentage (P%), or either. None is on unless set.
GUARD_LIMITS: dict[str, str] = {
    "max_changed": "either",
    "max_cleared": "either",
    "min_coverage": "percent",
    "max_step": "count",
}


@dataclass(frozen=True, slots=True)
class Limit:
    """A guard's limit: a count of dates (or a step), or a percentage."""

    value: float
    percent: bool

    def __str__(self) -> str:
        number = f"{self.value:g}"
        return f"{number}%" if self.percent else number


def parse_limit(name: str, given: object) -> Limit:
    """A guard's limit as a flag or a profile gives it (`10`, `5%`); ValueError says what is expected."""
    kind = GUARD_LIMITS[name]
    text = str(given).strip() if not isinstance(given, bool) else ""
    percent = text.endswith("%")
    number = text[:-1].strip() if percent else text
    expected = {
        "either": "a whole number of dates (10) or a percentage (5%)",
        "percent": "a percentage (90%)",
        "count": "a whole number (20)",
    }[kind]
    try:
        value = float(number) if percent else int(number)
    except ValueError:
        raise ValueError(expected) from None
    if (kind == "count" and percent) or value < 0 or (percent and value > 100):
        raise ValueError(expected)
    if kind == "percent" and not percent:
        if not 0 <= value <= 100:
            raise ValueError(expected)
        percent = True  # `--min-coverage 90` means 90%
    return Limit(float(value), percent)
