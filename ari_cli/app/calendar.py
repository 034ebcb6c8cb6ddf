"""What `ari-cli calendar` does: per key and date, the value the service last acknowledged, as the journal says."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ari_cli.app.history import journal_place, parse_day
from ari_cli.app.listener import Listener
from ari_cli.app.options import MOST_DAYS, CalendarRequest
from ari_cli.app.world import World
from ari_cli.config.settings import resolve
from ari_cli.exits import AriError, UsageProblem
from ari_cli.journal import queries as read
from ari_cli.journal.database import OpenJournal
from ari_cli.journal.queries import Key, Span
from ari_cli.journal.store import reading
from ari_cli.operations import of, said
from ari_cli.planning.changes import CalendarView


def _end_of_next_month(day: dt.date) -> dt.date:
    first_after = (day.replace(day=1) + dt.timedelta(days=32)).replace(day=1)
    return (first_after + dt.timedelta(days=32)).replace(day=1) - dt.timedelta(days=1)


def _window(start_text: str | None, end_text: str | None) -> tuple[dt.date, dt.date]:
    start = parse_day(start_text, "--from") if start_text else dt.date.today()
    end = parse_day(end_text, "--to") if end_text else _end_of_next_month(start)
    if end < start:
        raise UsageProblem(f"--to {end} is before --from {start}")
    if (end - start).days >= MOST_DAYS:
        raise UsageProblem(f"{start}..{end} is more than {MOST_DAYS} days", "show a year at most at a time")
    return start, end


def service(
    db: OpenJournal,
    operations: Sequence[str],
    propertyid: str,
    base_url: str | None,
    source_id: str | None,
    listener: Listener,
    hint: str,
) -> tuple[str, str]:
    """The configured base URL and source id, or those of the latest run that pushed to the property values of
    one of `operations` (`calendar` asks of one, `why` of all)."""

    if base_url and source_id:
        return base_url.rstrip("/"), source_id
    known = sorted(
        (
            (run, base, source, operation)
            for operation in operations
            for base, source, run in read.services(db, operation, propertyid)
            if base_url in (None, "", base) and source_id in (None, "", source)
        ),
        reverse=True,
    )
    pushed = said(list(operations))
    if not known:
        raise AriError(f"the journal holds no {pushed} value acknowledged for property {propertyid}", hint)
    run, base, source, _ = known[0]
    listener.say(
        f"no base URL and source id configured: showing {base} (source {source}), "
        f"where run {run}, the latest to push {pushed} values of {propertyid}, went"
    )
    return base, source


def journal_hint(environ: Mapping[str, str]) -> str:
    """Where the journal is and how to list what it holds: the hint of a reader that found nothing."""
    return f"the journal is {journal_place(environ)}; `ari-cli history` lists the runs it holds"


def _elsewhere(db: OpenJournal, operation: str, propertyid: str, base_url: str, source_id: str, hint: str) -> str:
    others = [(b, s) for b, s, _ in read.services(db, operation, propertyid) if (b, s) != (base_url, source_id)]
    if not others:
        return hint
    base, source = others[0]
    return f"the journal has values from {base} (source {source}): give --base-url {base} --source-id {source}"


def _chosen(spans: dict[Key, list[Span]], rooms: tuple[str, ...], rates: tuple[str, ...]) -> dict[Key, list[Span]]:
    return {
        key: found
        for key, found in spans.items()
        if (not rooms or key[1] in rooms) and (not rates or (len(key) > 2 and key[2] in rates))
    }


def _days(spans: list[Span], first: dt.date, last: dt.date) -> dict[dt.date, str]:
    """Each date between `first` and `last` that a span covers, with its value: a year at most."""
    values: dict[dt.date, str] = {}
    for span in spans:
        day = max(span.start, first)
        while day <= min(span.end, last):
            values[day] = span.value
            day += dt.timedelta(days=1)
    return values


@dataclass(frozen=True, slots=True)
class Calendar:
    """The calendar of one property; when none of its days holds a value, the days the journal has values for."""

    view: CalendarView
    known: tuple[dt.date, dt.date] | None


def calendar(request: CalendarRequest, listener: Listener, world: World) -> Calendar:
    """The calendar of one property (render/calendar.py shows it); AriError (exit 1) when nothing is known."""
    operation, propertyid, rooms, rates = request.operation, request.propertyid, request.rooms, request.rates
    if rates and not of(operation).has_rate:
        raise UsageProblem(f"--rate: {of(operation).words.many} are per room, not per rate")
    first, last = _window(request.start, request.end)
    settings = resolve(world.environ, request.connection)
    listener.notices(list(settings.warnings))
    hint = journal_hint(world.environ)
    with reading(world.environ) as db:
        if db is None:
            raise AriError(f"the journal holds no {operation.value} value: it has no runs yet", hint)
        base, source = service(
            db, (operation.value,), propertyid, settings.value("base_url"), settings.value("source_id"), listener, hint
        )
        spans = read.acknowledged(db, operation.value, base, source, [propertyid])
        if not spans:
            raise AriError(
                f"the journal holds no {operation.value} value that {base} (source {source}) acknowledged for "
                f"property {propertyid}",
                _elsewhere(db, operation.value, propertyid, base, source, hint),
            )
    chosen = _chosen(spans, rooms, rates)
    if not chosen:
        names = ", ".join(sorted({k[1] if not rates else " ".join(k[1:]) for k in spans}))
        raise AriError(f"no value of property {propertyid} for the rooms and rates given", f"known: {names}")
    values = {key: _days(found, first, last) for key, found in chosen.items()}
    view = CalendarView(operation.value, propertyid, base, source, first, last, values)
    if any(view.shown(key) for key in chosen):
        return Calendar(view, None)
    since = min(span.start for found in chosen.values() for span in found)
    until = max(span.end for found in chosen.values() for span in found)
    return Calendar(view, (since, until))
