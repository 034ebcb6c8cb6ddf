"""What `why` does once its options are parsed (the command is declared in cli/why.py)."""

from __future__ import annotations

from ari_cli.app.options import ConnectionOptions, WhyRequest
from ari_cli.app.why import why as why_of
from ari_cli.cli.history import PageOption
from ari_cli.cli.world import process_world
from ari_cli.render.terminal import Terminal
from ari_cli.render.why import show


def why(
    *,
    propertyid: str,
    roomid: str,
    rateid: str | None,
    night: str,
    output: PageOption,
    connection: ConnectionOptions,
    quiet: bool,
) -> None:
    request = WhyRequest(propertyid, roomid, night, rateid, output, connection)
    world = process_world()
    show(why_of(request, Terminal(quiet=quiet), world), output.value, world.clock())
