"""The three push operations and their wire actions, with no heavy imports.

Kept apart from `protocol` (which needs pydantic) so that the command-line modules loaded for
`--help`, `--version` and completion stay light.
"""

from __future__ import annotations

from enum import StrEnum


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
