"""What `ari-cli why` does: what the service holds on one night for a room, for every operation, and who set it.

From the journal alone (the push API has no read call): each operation's value for the room (and each rate),
the run, file and lines, user and time that set it, or nothing known. The service is the configured one, else
the latest the property's values were pushed to, as `calendar` chooses it.
"""

from __future__ import annotations

import datetime as dt

from ari_cli.app.calendar import journal_hint, service
from ari_cli.app.history import parse_day
from ari_cli.app.listener import Listener
from ari_cli.app.options import WhyRequest
from ari_cli.app.world import World
from ari_cli.config.settings import resolve
from ari_cli.exits import AriError, UsageProblem
from ari_cli.journal import why as read
from ari_cli.journal.database import OpenJournal
from ari_cli.journal.store import reading
from ari_cli.journal.why import Held, Setting, Why
from ari_cli.operations import DESCRIPTORS
from ari_cli.operations.descriptor import Descriptor
from ari_cli.wire.url import canonical_or_same

# More days ahead than this is no date a guest can book from (a foreign value in the journal, not ours: 1-999).
_MOST_AHEAD = 100_000


def _bookable_from(descriptor: Descriptor, held: Held | None, night: dt.date) -> dt.date | None:
    if held is None or not descriptor.books_ahead or not held.value.isdigit():
        return None  # nothing known, cleared (n/a), or not a number of days
    days = int(held.value)
    return night - dt.timedelta(days=days) if days <= _MOST_AHEAD else None


def _settings(db: OpenJournal, base: str, source: str, request: WhyRequest, night: dt.date) -> list[Setting]:
    found: list[Setting] = []
    # The rate asked about, even when nothing is known of it; else every rate the journal knows for the room, in
    # any operation set per rate (a rate with a policy but no max advance booking is asked about both); none
    # known: one line of nothing known, for the room.
    chosen: list[str | None] = [request.rateid]
    if request.rateid is None:
        known = {
            rateid
            for d in DESCRIPTORS.values()
            if d.has_rate
            for rateid in read.rates(db, d.name, base, source, request.propertyid, request.roomid)
        }
        chosen = [*sorted(known)] or [None]
    for descriptor in DESCRIPTORS.values():
        held = read.held_on(db, descriptor.name, base, source, request.propertyid, request.roomid, night)
        if not descriptor.has_rate:
            one = held.get("")
            found.append(Setting(descriptor.name, None, one, _bookable_from(descriptor, one, night)))
            continue
        for rateid in chosen:
            value = None if rateid is None else held.get(rateid)
            found.append(Setting(descriptor.name, rateid, value, _bookable_from(descriptor, value, night)))
    return found


def _unknown(db: OpenJournal, base: str, source: str, request: WhyRequest) -> str | None:
    """What to say when the journal holds nothing of the property or room at this service: what it does hold
    (a typo is the likeliest cause)."""
    properties = read.known(db, base, source)
    where = f"{base} (source {source})"
    if request.propertyid not in properties:
        listed = ", ".join(properties) if properties else "none"
        return f"the journal holds no value of property {request.propertyid} acknowledged by {where}; " + (
            f"properties it knows there: {listed}"
        )
    rooms = read.known(db, base, source, request.propertyid)
    if request.roomid not in rooms:
        return (
            f"the journal holds no value of room {request.roomid} of property {request.propertyid} acknowledged by "
            f"{where}; rooms it knows there: {', '.join(rooms)}"
        )
    return None


def why(request: WhyRequest, listener: Listener, world: World) -> Why:
    """What the service holds on the night for the room (render/why.py shows it). A property, room or rate the
    journal knows nothing of is an answer (nothing known, and a warning naming what it does know), not an error;
    with no service configured and none known for the property, AriError (exit 1), as `calendar`."""
    if not request.propertyid or not request.roomid:
        raise UsageProblem("--property and --room need an id each", "give the ids as the files you push give them")
    if request.rateid is not None and not request.rateid:
        raise UsageProblem("--rate needs a rate id", "leave --rate out to list every rate the room has")
    night = parse_day(request.night, "--date")
    settings = resolve(world.environ, request.connection)
    listener.notices(list(settings.warnings))
    hint = journal_hint(world.environ)
    base_url, source_id = settings.value("base_url"), settings.value("source_id")
    names = [d.name for d in DESCRIPTORS.values()]
    with reading(world.environ) as db:
        if db is None:
            if not (base_url and source_id):
                raise AriError("the journal holds no value: it has no runs yet", hint)
            base = canonical_or_same(base_url)
            return Why(request.propertyid, request.roomid, night, request.rateid, base, source_id, None,
                       tuple(Setting(d.name, request.rateid if d.has_rate else None, None)
                             for d in DESCRIPTORS.values()))  # fmt: skip
        base, source = service(db, names, request.propertyid, base_url, source_id, listener, hint)
        base = canonical_or_same(base)
        found = _settings(db, base, source, request, night)
        unknown = _unknown(db, base, source, request)
        last = read.last_run(db, base, source)
    if unknown is not None:
        listener.notices([unknown])
    return Why(request.propertyid, request.roomid, night, request.rateid, base, source, last, tuple(found))
