"""`ari-cli maxadv`: Max Advance Booking pushes."""

import typer

from ari_cli.cli.diff import diff_command, diff_help
from ari_cli.cli.export import export_command, export_help
from ari_cli.cli.helptext import HelpCommand, HelpGroup
from ari_cli.cli.push import push_command
from ari_cli.cli.send_one import maxadv_setting, send_command
from ari_cli.wire.operations import Operation

app = typer.Typer(
    add_completion=False,
    name="maxadv",
    cls=HelpGroup,
    help="""Max Advance Booking: how many nights ahead a rate plan can be booked.

push sends a file of booking limits; its --help says how to write the file.

\f

[bold]Examples[/bold]:

  ari-cli maxadv push maxadv.csv --dry-run
  ari-cli maxadv push maxadv.csv --sandbox
  ari-cli maxadv push --help
""",
    no_args_is_help=True,
)

HELP = """Push maximum advance booking periods from CSV, Excel, JSON or JSONL files.

For the dates of each row, a rate plan of a room can be booked at most TIME nights ahead of arrival; n/a clears the limit.

[bold]How to write the file[/bold]: one row per room, rate plan and date range, under a header row that names the columns. Keep it as .xlsx (a sheet per hotel: --all-sheets), or save it from the spreadsheet as CSV (comma, semicolon or tab; UTF-8). Header names ignore case, spaces, _ and -. Other columns, such as Notes, are ignored with a warning.

[bold]Columns[/bold]:

  [bold]propertyid[/bold] (or property, hotel, hotelid): the hotel's id, e.g. HTL001
  [bold]roomid[/bold] (or room, roomtype): the room type's id, e.g. DBL
  [bold]rateid[/bold] (or rate, rateplan): the rate plan's id, e.g. BAR
  [bold]start[/bold] and [bold]end[/bold] (or from and to): the first and the last date, both included
    or [bold]date[/bold] for a single date
  [bold]time[/bold] (or nights, maxadv, max_advance): 1 to 999 nights, or n/a to clear
  [bold]days[/bold] (optional): these weekdays only: Mon-Fri, Fri-Sun, "Sat,Sun" or 1111100 (Monday first)

Dates are YYYY-MM-DD, or today, today+N and today-N; other layouts only with --date-format. Rows of one room and rate with the same value that touch or overlap are merged; different values on the same dates are an error naming both lines. Ranges already past are skipped.

JSON takes a list of objects with the columns' names as keys; JSONL: one object per line. A partner's exact API request body (action setadvbookingcondrq) is accepted too, with sharepost and sourceid taken from the configuration.

\f
[bold]Example file[/bold] (maxadv.csv):

  propertyid,roomid,rateid,start,end,time
  HTL001,DBL,BAR,2027-01-01,2027-12-31,365
  HTL001,DBL,NRF,today,today+180,90

[bold]Examples[/bold]:

  ari-cli maxadv push maxadv.csv --dry-run        # check the file; send nothing
  ari-cli maxadv push maxadv.csv --sandbox        # push to the built-in emulator
  ari-cli maxadv push partner-call.json --profile prod --output json
"""

app.command("push", help=HELP, cls=HelpCommand)(push_command(Operation.MAXADV))
app.command("diff", help=diff_help(Operation.MAXADV, "max advance booking", "maxadv.csv"), cls=HelpCommand)(
    diff_command(Operation.MAXADV)
)

SEND_HELP = """Push one max advance booking period given as flags: the same checks, output and exit codes as push.

\f

[bold]Examples[/bold]:

  ari-cli maxadv send --property HTL001 --room DBL --rate BAR --start 2027-01-01 --end 2027-12-31 --time 365 --sandbox
  ari-cli maxadv send --property HTL001 --room DBL --rate NRF --date today --time n/a --dry-run --curl
"""

app.command("send", help=SEND_HELP, cls=HelpCommand)(send_command(Operation.MAXADV, maxadv_setting))

app.command("export", help=export_help(Operation.MAXADV), cls=HelpCommand, no_args_is_help=True)(
    export_command(Operation.MAXADV)
)
