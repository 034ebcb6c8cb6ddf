"""`threshold`: the sell threshold of a room, the rooms left unsold below which it is closed."""

from __future__ import annotations

from ari_cli.operations.descriptor import Descriptor, Level, Words
from ari_cli.wire.operations import THRESHOLD_MAX, Operation


def _record(start: str, end: str, key: tuple[str, ...], value: object) -> dict[str, str]:
    return {"startdateymd": start, "enddateymd": end, "roomid": key[1], "threshold": str(value)}


THRESHOLD = Descriptor(
    operation=Operation.THRESHOLD,
    key_fields=("propertyid", "roomid"),
    rule=Level("threshold", 0, THRESHOLD_MAX),
    own_columns=("threshold",),
    aliases={"threshold": ("sellthreshold",)},
    optional=frozenset(),
    body_keys=frozenset({"threshold", "sellthreshold"}),
    layout=_record,
    clearable=True,
    words=Words(heading="Threshold", many="sell thresholds"),
    abroad={
        "threshold": (
            "Schwelle",
            "Verkaufsschwelle",
            "seuil",
            "seuil de vente",
            "umbral",
            "soglia",
            "drempel",
            "limiar",
        )
    },
)
