"""`maxadv`: how many nights ahead a room and rate may be booked."""

from __future__ import annotations

from ari_cli.operations.descriptor import Descriptor, Level, Words
from ari_cli.wire.operations import TIME_MAX, TIME_MIN, Operation

MESSAGE_TYPE = "maxadvbooking"
"""The one `minmaxmessagetype` a maxadv record carries."""


def _record(start: str, end: str, key: tuple[str, ...], value: object) -> dict[str, str]:
    return {
        "startdateymd": start, "enddateymd": end, "roomid": key[1], "rateid": key[2],
        "minmaxmessagetype": MESSAGE_TYPE, "time": str(value),
    }  # fmt: skip


MAXADV = Descriptor(
    operation=Operation.MAXADV,
    key_fields=("propertyid", "roomid", "rateid"),
    rule=Level("time", TIME_MIN, TIME_MAX),
    own_columns=("time",),
    aliases={"time": ("nights", "maxadv", "max_advance")},
    optional=frozenset(),
    body_keys=frozenset({"time", "nights", "maxadv", "maxadvance", "minmaxmessagetype"}),
    layout=_record,
    clearable=True,
    words=Words(heading="Nights", many="max advance booking (nights)"),
    books_ahead=True,
    abroad={
        "time": (
            "Nächte",
            "Vorausbuchung",
            "nuits",
            "jours d'avance",
            "noches",
            "antelación",
            "notti",
            "anticipo",
            "nachten",
            "antecedência",
        )
    },
)
