"""`ari-cli calendar`: per room (and rate) and date, the value the service last acknowledged."""

# Option declarations read best as one line each, as in push.py: a table of data.
# ruff: noqa: E501

from typing import TYPE_CHECKING, Annotated

import typer

from ari_cli.choices import MOST_DAYS, PageFormat
from ari_cli.cli.groups import only, takes
from ari_cli.cli.helptext import HelpCommand
from ari_cli.cli.history import WHERE, Kind, PageOption
from ari_cli.cli.options import connection_options
from ari_cli.cli.values import choice
from ari_cli.operations import ALL_SAID

if TYPE_CHECKING:
    from ari_cli.app.options import ConnectionOptions

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

--from defaults to today, --to to the last day of the month after --from's (at most {MOST_DAYS} days). {WHERE}

\f
[bold]Examples[/bold]:

  ari-cli calendar threshold --property HTL001
  ari-cli calendar maxadv --property HTL001 --room DBL --from 2027-01-01 --to 2027-03-31
  ari-cli calendar policy --property HTL002 --profile prod
  ari-cli calendar threshold --property HTL001 --output json
"""


@takes(connection=only(connection_options, "profile", "config", "base_url", "source_id"))
def calendar(
    operation: Annotated[Kind, typer.Argument(**choice(Kind, metavar="OPERATION"), help=f"{ALL_SAID}.", show_default=False)],
    *,
    propertyid: Annotated[str, typer.Option("--property", metavar="P", help="The property to show.", show_default=False)],
    start: Annotated[str | None, typer.Option("--from", metavar="YYYY-MM-DD", help="First date (also today, today+N). \\[default: today]", show_default=False)] = None,
    end: Annotated[str | None, typer.Option("--to", metavar="YYYY-MM-DD", help="Last date. \\[default: the end of the month after --from's]", show_default=False)] = None,
    rooms: Annotated[list[str] | None, typer.Option("--room", metavar="R", help="Only this room; may be repeated.", show_default=False)] = None,
    rates: Annotated[list[str] | None, typer.Option("--rate", metavar="R", help="Only this rate (maxadv, policy); may be repeated.", show_default=False)] = None,
    output: PageOption = PageFormat.TABLE,
    connection: "ConnectionOptions",
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Only errors and warnings on standard error (not which service is shown).")] = False,
) -> None:  # fmt: skip
    from ari_cli.cli.doing.calendar import calendar as do

    do(
        operation=operation,
        propertyid=propertyid,
        start=start,
        end=end,
        rooms=rooms,
        rates=rates,
        output=output,
        connection=connection,
        quiet=quiet,
    )


# The command alone, as the root loads it when asked for it (cli/__init__.py).
app = typer.Typer(add_completion=False)
app.command("calendar", help=HELP, cls=HelpCommand, no_args_is_help=True)(calendar)
