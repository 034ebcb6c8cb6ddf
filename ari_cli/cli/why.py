"""`ari-cli why`: what the service holds on one night for a room, every setting with who set it."""

# Option declarations read best as one line each, as in calendar.py: a table of data.
# ruff: noqa: E501

from typing import TYPE_CHECKING, Annotated

import typer

from ari_cli.choices import PageFormat
from ari_cli.cli.groups import only, takes
from ari_cli.cli.helptext import HelpCommand
from ari_cli.cli.history import WHERE, PageOption
from ari_cli.cli.options import connection_options

if TYPE_CHECKING:
    from ari_cli.app.options import ConnectionOptions

HELP = f"""Say what the service holds on one night for a room, and who set it: why a guest can or cannot book it.

Read from the journal, as acknowledged to it (the push API has no read call: changes made in an extranet, \
by another partner or from another machine are not known): the sell threshold; the max advance booking of \
each rate, and so the first day a guest can book the night; the cancellation and deposit policy of each rate, \
in words. Each with the run, file and line, user and time that set it, or "nothing known". Without --rate, \
every rate the journal knows for the room is listed.

The service is the base URL and source id in effect (flags, ARI_* variables, the profile, as for push; no key \
is needed); with none configured, the latest the property's values were pushed to, and standard error says \
so. A property or room the journal knows nothing of is answered "nothing known", with a warning naming those \
it knows. --output json gives one document, --output html a small page. {WHERE}

\f
[bold]Examples[/bold]:

  ari-cli why --property HTL001 --room DBL --date 2027-12-24
  ari-cli why --property HTL001 --room DBL --rate BAR --date today+30
  ari-cli why --property HTL001 --room DBL --date 2027-12-24 --output json
"""


@takes(connection=only(connection_options, "profile", "config", "base_url", "source_id"))
def why(
    *,
    propertyid: Annotated[str, typer.Option("--property", metavar="P", help="The property.", show_default=False)],
    roomid: Annotated[str, typer.Option("--room", metavar="R", help="The room.", show_default=False)],
    rateid: Annotated[str | None, typer.Option("--rate", metavar="X", help="Only this rate. \\[default: every rate known for the room]", show_default=False)] = None,
    night: Annotated[str, typer.Option("--date", metavar="YYYY-MM-DD", help="The night (also today, today+N).", show_default=False)],
    output: PageOption = PageFormat.TABLE,
    connection: "ConnectionOptions",
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Only errors and warnings on standard error (not which service is shown).")] = False,
) -> None:  # fmt: skip
    from ari_cli.cli.doing.why import why as do

    do(propertyid=propertyid, roomid=roomid, rateid=rateid, night=night, output=output, connection=connection,
       quiet=quiet)  # fmt: skip


# The command alone, as the root loads it when asked for it (cli/__init__.py).
app = typer.Typer(add_completion=False)
app.command("why", help=HELP, cls=HelpCommand, no_args_is_help=True)(why)
