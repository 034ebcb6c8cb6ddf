"""`ari-cli calendar`: per room (and rate) and date, the value the service last acknowledged.

Only Typer is imported here; the journal and the renderers load when the command runs.
"""

# Option declarations read best as one line each, as in push.py: a table of data.
# ruff: noqa: E501

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from ari_cli.cli.history import WHERE, Kind, Output, OutputOption

if TYPE_CHECKING:
    import sqlite3

    from ari_cli.journal.queries import Key

MOST_DAYS = 366
_CONN = "Connection (which service's values)"

HELP = f"""Show a calendar of the values the service last acknowledged, per room (and rate) and date.

Read from the journal: for each date, the value of the last request the service acknowledged, for \
the base URL and source id in effect (flags, ARI_* variables, the profile, as for push; no key is \
needed). With none configured, the service of the latest run that pushed to the property is shown, \
and standard error says so. Values set by other systems, or by runs with --no-journal, are not known.

Rooms (threshold) or room and rate (maxadv, policy) go down, dates across, one table per month, \
with the weekday under each day. Each value has its colour; · is a date with nothing acknowledged, \
n/a a value cleared. A policy is too long for a cell: it shows as a letter, said in words below the \
tables. Without a terminal, or with NO_COLOR, the same as plain text. --output json gives the values \
per key and date.

--from defaults to today, --to to the last day of the month after --from's (at most {MOST_DAYS} days). \
Exit codes: 0 shown, 1 nothing acknowledged for the property, 2 bad dates, 4 the journal or config \
file unreadable. {WHERE}

[bold]Examples[/bold]:

  ari-cli calendar threshold --property HTL001
  ari-cli calendar maxadv --property HTL001 --room DBL --from 2027-01-01 --to 2027-03-31
  ari-cli calendar policy --property HTL002 --profile prod
  ari-cli calendar threshold --property HTL001 --output json
"""


def _end_of_next_month(day: dt.date) -> dt.date:
    first_after = (day.replace(day=1) + dt.timedelta(days=32)).replace(day=1)
    return (first_after + dt.timedelta(days=32)).replace(day=1) - dt.timedelta(days=1)


def _window(start_text: str | None, end_text: str | None) -> tuple[dt.date, dt.date]:
    from ari_cli.cli.history import parse_day
    from ari_cli.exits import UsageProblem

    start = parse_day(start_text, "--from") if start_text else dt.date.today()
    end = parse_day(end_text, "--to") if end_text else _end_of_next_month(start)
    if end < start:
        raise UsageProblem(f"--to {end} is before --from {start}")
    if (end - start).days >= MOST_DAYS:
        raise UsageProblem(f"{start}..{end} is more than {MOST_DAYS} days", "show a year at most at a time")
    return start, end


def _service(
    db: sqlite3.Connection, operation: str, propertyid: str, base_url: str | None, source_id: str | None
) -> tuple[str, str]:
    """The configured base URL and source id, or those of the latest run that pushed to the property."""
    from ari_cli.cli.boundary import echo_err
    from ari_cli.exits import AriError
    from ari_cli.journal import queries as read

    if base_url and source_id:
        return base_url.rstrip("/"), source_id
    known = [
        (base, source, run)
        for base, source, run in read.services(db, operation, propertyid)
        if base_url in (None, "", base) and source_id in (None, "", source)
    ]
    if not known:
        raise AriError(f"the journal holds no {operation} value acknowledged for property {propertyid}", _hint())
    base, source, run = known[0]
    echo_err(
        f"no base URL and source id configured: showing {base} (source {source}), "
        f"where run {run}, the latest to push {operation} values of {propertyid}, went"
    )
    return base, source


def _hint() -> str:
    from ari_cli.cli.history import journal_place

    return f"the journal is {journal_place()}; `ari-cli history` lists the runs it holds"


def _elsewhere(db: sqlite3.Connection, operation: str, propertyid: str, base_url: str, source_id: str) -> str:
    from ari_cli.journal import queries as read

    others = [(b, s) for b, s, _ in read.services(db, operation, propertyid) if (b, s) != (base_url, source_id)]
    if not others:
        return _hint()
    base, source = others[0]
    return f"the journal has values from {base} (source {source}): give --base-url {base} --source-id {source}"


def _chosen(values: dict[Key, dict[dt.date, str]], rooms: list[str], rates: list[str]) -> dict[Key, dict[dt.date, str]]:
    return {
        key: dates
        for key, dates in values.items()
        if (not rooms or key[1] in rooms) and (not rates or (len(key) > 2 and key[2] in rates))
    }


def calendar(
    operation: Annotated[Kind, typer.Argument(metavar="OPERATION", help="threshold, maxadv or policy.", show_default=False)],
    propertyid: Annotated[str, typer.Option("--property", metavar="P", help="The property to show.", show_default=False)],
    start: Annotated[str | None, typer.Option("--from", metavar="YYYY-MM-DD", help="First date (also today, today+N). \\[default: today]", show_default=False)] = None,
    end: Annotated[str | None, typer.Option("--to", metavar="YYYY-MM-DD", help="Last date. \\[default: the end of the month after --from's]", show_default=False)] = None,
    rooms: Annotated[list[str] | None, typer.Option("--room", metavar="R", help="Only this room; may be repeated.", show_default=False)] = None,
    rates: Annotated[list[str] | None, typer.Option("--rate", metavar="R", help="Only this rate (maxadv, policy); may be repeated.", show_default=False)] = None,
    output: OutputOption = Output.TABLE,
    profile: Annotated[str | None, typer.Option("--profile", metavar="NAME", help="Profile of the config file. \\[env: ARI_PROFILE] \\[default: default]", show_default=False, rich_help_panel=_CONN)] = None,
    config: Annotated[Path | None, typer.Option("--config", metavar="PATH", help="Config file. \\[env: ARI_CONFIG] \\[default: the user config file]", show_default=False, rich_help_panel=_CONN)] = None,
    base_url: Annotated[str | None, typer.Option("--base-url", metavar="URL", help="Service base URL. \\[env: ARI_BASE_URL]", show_default=False, rich_help_panel=_CONN)] = None,
    source_id: Annotated[str | None, typer.Option("--source-id", metavar="ID", help="Partner source id. \\[env: ARI_SOURCE_ID]", show_default=False, rich_help_panel=_CONN)] = None,
) -> None:  # fmt: skip
    import os
    import sys

    from ari_cli.cli.boundary import echo_err
    from ari_cli.cli.history import journal
    from ari_cli.config.settings import ConnectionFlags, resolve_settings
    from ari_cli.exits import AriError, UsageProblem
    from ari_cli.journal import queries as read
    from ari_cli.render import calendar as render_calendar
    from ari_cli.render import history as render_history

    if rates and operation is Kind.THRESHOLD:
        raise UsageProblem("--rate: sell thresholds are per room, not per rate")
    first, last = _window(start, end)
    settings = resolve_settings(
        ConnectionFlags(base_url=base_url, source_id=source_id, profile=profile, config=config), os.environ
    )
    for warning in settings.warnings:
        echo_err(f"warning: {warning}")
    with journal() as db:
        if db is None:
            raise AriError(f"the journal holds no {operation.value} value: it has no runs yet", _hint())
        base, source = _service(
            db, operation.value, propertyid, settings.value("base_url"), settings.value("source_id")
        )
        values = read.accepted(db, operation.value, base, source, [propertyid])
        if not values:
            raise AriError(
                f"the journal holds no {operation.value} value that {base} (source {source}) acknowledged for "
                f"property {propertyid}",
                _elsewhere(db, operation.value, propertyid, base, source),
            )
    chosen = _chosen(values, rooms or [], rates or [])
    if not chosen:
        names = ", ".join(sorted({k[1] if not rates else " ".join(k[1:]) for k in values}))
        raise AriError(f"no value of property {propertyid} for the rooms and rates given", f"known: {names}")
    view = render_calendar.CalendarView(operation.value, propertyid, base, source, first, last, chosen)
    if output is Output.JSON:
        render_history.write_json(render_calendar.calendar_dict(view), sys.stdout)
    else:
        render_calendar.calendar(view, render_history.console())
    if not any(view.shown(key) for key in chosen):
        days = sorted(day for dates in chosen.values() for day in dates)
        echo_err(
            f"nothing acknowledged between {first} and {last}; the journal has values from {days[0]} to {days[-1]}"
        )


def register(app: typer.Typer) -> None:
    """Add the calendar command to the application."""
    app.command("calendar", help=HELP, no_args_is_help=True)(calendar)
