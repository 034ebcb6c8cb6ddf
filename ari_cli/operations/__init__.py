"""Each operation described once (`descriptor.py`), and the registry: `of(operation)` is its descriptor.

A new operation is its descriptor module here, added to `DESCRIPTORS`; its value rule in `records/` when it is
not a `Level`, its command group `cli/NAME.py` (the root finds it by the operation's name), its name in
`api.py`'s `OperationName`, a sample, and its tests.
"""

from __future__ import annotations

from collections.abc import Mapping

from ari_cli.operations.descriptor import Descriptor
from ari_cli.operations.maxadv import MAXADV
from ari_cli.operations.policy import POLICY
from ari_cli.operations.threshold import THRESHOLD
from ari_cli.wire.operations import Operation

DESCRIPTORS: Mapping[Operation, Descriptor] = {d.operation: d for d in (THRESHOLD, MAXADV, POLICY)}
"""Every operation's descriptor, in the order the tool presents them (the root's --help lists their commands so)."""
_BY_NAME: dict[str, Descriptor] = {d.name: d for d in DESCRIPTORS.values()}


def said(names: list[str], last: str = "or") -> str:
    """Names as a sentence lists them: `threshold, maxadv or policy`."""
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} {last} {names[-1]}"


ALL_SAID = said([d.name for d in DESCRIPTORS.values()])
"""Every operation's name, as help text lists them."""
STEPPED_SAID = said([d.name for d in DESCRIPTORS.values() if d.steps], "and")
"""The operations whose values are numbers a guard can step (`--max-step`)."""


def of(operation: Operation | str) -> Descriptor:
    """An operation's descriptor (by the operation or its name, as the journal stores it); KeyError for
    another name. A dict lookup: renderers ask it once a row."""
    return _BY_NAME[operation]


__all__ = ["ALL_SAID", "DESCRIPTORS", "STEPPED_SAID", "Descriptor", "of", "said"]
