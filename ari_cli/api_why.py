"""`ari_cli.why()`: what the service holds on one night for a room, as `ari-cli why` says it.

The use case is `app/why.py`; its typed result (`Why`: a `Setting` per operation and rate, each with the
`Held` value and who set it, or None for nothing known) is returned as it is. Nothing is printed.
"""

from __future__ import annotations

import datetime as dt

from ari_cli.api import PathArg, _path, _text, _world
from ari_cli.app.options import ConnectionOptions, WhyRequest
from ari_cli.app.why import why as use_case
from ari_cli.exits import UsageProblem
from ari_cli.journal.why import Held, SetBy, Setting, Why
from ari_cli.render.terminal import Terminal

__all__ = ["Held", "SetBy", "Setting", "Why", "why"]


def why(
    propertyid: str,
    roomid: str,
    date: dt.date | str,
    *,
    rateid: str | None = None,
    profile: str | None = None,
    config: PathArg | None = None,
    base_url: str | None = None,
    source_id: str | None = None,
) -> Why:
    """What the service holds on the night `date` (a date, or text as `--date` takes it) for the room: the keyword
    arguments are `ari-cli why`'s options. Raises an `AriError` as the command exits: a bad date (UsageProblem, 2),
    no service configured and none known for the property (1)."""
    for name, value in (("propertyid", propertyid), ("roomid", roomid)):
        if not isinstance(value, str):
            raise UsageProblem(f"{name}={value!r:.60}: give text")
    if isinstance(date, dt.datetime) or not isinstance(date, dt.date | str):
        raise UsageProblem(f"date={date!r:.60}: give a date, or text as --date takes it (YYYY-MM-DD, today+N)")
    night = date.isoformat() if isinstance(date, dt.date) else date
    request = WhyRequest(
        propertyid=propertyid,
        roomid=roomid,
        night=night,
        rateid=_text("rateid", rateid),
        connection=ConnectionOptions(
            profile=_text("profile", profile),
            config=_path("config", config),
            base_url=_text("base_url", base_url),
            source_id=_text("source_id", source_id),
        ),
    )
    return use_case(request, Terminal.silent(), _world())
