"""What `calendar`'s commands do once their options are parsed (the commands are declared in cli/calendar.py)."""

from __future__ import annotations

from ari_cli.app.calendar import calendar as calendar_of
from ari_cli.app.options import CalendarRequest, ConnectionOptions
from ari_cli.cli.history import Kind, PageOption
from ari_cli.cli.world import process_world
from ari_cli.render.calendar import show
from ari_cli.render.terminal import Terminal


def calendar(
    *,
    operation: Kind,
    propertyid: str,
    start: str | None,
    end: str | None,
    rooms: list[str] | None,
    rates: list[str] | None,
    output: PageOption,
    connection: ConnectionOptions,
    quiet: bool,
) -> None:
    request = CalendarRequest(
        operation, propertyid, start, end, tuple(rooms or ()), tuple(rates or ()), output, connection
    )

    world = process_world()
    found = calendar_of(request, Terminal(quiet=quiet), world)
    show(found.view, found.known, output.value, world.clock())
