"""The parts of the wire format that need no pydantic: operations and actions, value limits, the URL.

Kept apart from `models.py` (the pydantic models) so that `--help`, `--version` and completion, which name
operations, load no pydantic.
"""

from __future__ import annotations

import re
from enum import StrEnum
from urllib.parse import quote


class Operation(StrEnum):
    """The three push operations, named as the CLI names them."""

    THRESHOLD = "threshold"
    POLICY = "policy"
    MAXADV = "maxadv"

    @property
    def action(self) -> str:
        return ACTIONS[self]

    @property
    def label(self) -> str:
        return LABELS[self]


ACTIONS: dict[Operation, str] = {
    Operation.THRESHOLD: "sellthresholdupdate",
    Operation.POLICY: "getcancellation",
    Operation.MAXADV: "setadvbookingcondrq",
}
LABELS: dict[Operation, str] = {
    Operation.THRESHOLD: "Sell Threshold",
    Operation.POLICY: "Cancellation and Deposit",
    Operation.MAXADV: "Max Advance Booking",
}
OPERATION_BY_ACTION: dict[str, Operation] = {action: op for op, action in ACTIONS.items()}
# The spec only says "cpb followed by two characters"; the id is assigned by the service, so any
# two are taken except whitespace and `/`, which would break the URL path it is placed in.
SOURCE_ID_PATTERN = r"^cpb[^\s/]{2}$"

CLEAR = "n/a"
THRESHOLD_MAX = 999
TIME_MIN, TIME_MAX = 1, 999
PERCENT_MIN, PERCENT_MAX = 1, 100
DEPOSIT_INTERVALS: tuple[int, ...] = (*range(1, 11), 30, 45, 60)
# Sent when depositintervalunits is 0: the field is required on the wire but only meaningful
# for units 1, and 0 can never be mistaken for a real interval (those start at 1).
UNUSED_DEPOSIT_INTERVAL = 0

REQUEST_HEADERS: dict[str, str] = {"accept": "application/json", "content-type": "application/json"}


PUSH_PATH = "/v2/push_ari/"


def push_url(base_url: str, source_id: str, segment: str) -> str:
    """The endpoint `{base_url}/v2/push_ari/{sourceid}/{segment}`."""
    return f"{base_url.rstrip('/')}{PUSH_PATH}{quote(source_id, safe='')}/{segment}"


def base_of(url: str) -> str:
    """The base URL an endpoint was made from by `push_url`."""
    return url.split(PUSH_PATH)[0]


PLACEHOLDERS = ("{action}", "{propertyid}")
_PLACEHOLDER = re.compile(r"\{[^{}]*\}")


def segment_problem(template: str) -> str | None:
    """Why a path segment template cannot be used: a placeholder other than {action} and {propertyid}
    (a typo would reach the service as literal text)."""
    unknown = [found for found in _PLACEHOLDER.findall(template) if found not in PLACEHOLDERS]
    if not unknown:
        return None
    return (
        f"unknown placeholder {', '.join(dict.fromkeys(unknown))} in the path segment; use {' and '.join(PLACEHOLDERS)}"
    )


def path_segment(template: str, action: str, propertyid: str) -> str:
    """Fill `{action}` and `{propertyid}` in the configured last path segment."""
    # Only the filled-in values are escaped: the template may hold slashes on purpose, but a
    # property id such as "H 1/2" must stay inside one path segment.
    return template.replace("{action}", quote(action, safe="")).replace("{propertyid}", quote(propertyid, safe=""))
