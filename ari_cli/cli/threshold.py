"""`ari-cli threshold`: Sell Threshold pushes."""

import typer

from ari_cli.cli.diff import diff_command, diff_help
from ari_cli.cli.export import export_command, export_help
from ari_cli.cli.helptext import HelpCommand, HelpGroup
from ari_cli.cli.push import push_command
from ari_cli.cli.send_one import send_command, threshold_setting
from ari_cli.wire.operations import Operation

app = typer.Typer(
    add_completion=False,
    name="threshold",
    cls=HelpGroup,
    help="""Sell Threshold: the rooms that must stay unsold, per room and date range.

push sends a file of thresholds; its --help says how to write the file.

\f

[bold]Examples[/bold]:

  ari-cli threshold push rooms.csv --dry-run
  ari-cli threshold push rooms.csv --sandbox
  ari-cli threshold push --help
""",
    no_args_is_help=True,
)

HELP = """Push sell thresholds from CSV, Excel, JSON or JSONL files.

The sell threshold is the number of rooms of a room type that must stay unsold: when only that many are left, sales stop. 0 means no restriction; n/a clears the value.

[bold]How to write the file[/bold]: one row per room and date range, under a header row that names the columns. Keep it as .xlsx (a sheet per hotel: --all-sheets), or save it from the spreadsheet as CSV (comma, semicolon or tab; UTF-8 with or without BOM). Header names ignore case, spaces, _ and -, so "Property ID" is propertyid. Other columns, such as Notes, are ignored with a warning.

[bold]Columns[/bold]:

  [bold]propertyid[/bold] (or property, hotel, hotelid): the hotel's id, e.g. HTL001
  [bold]roomid[/bold] (or room, roomtype): the room type's id, e.g. DBL
  [bold]start[/bold] and [bold]end[/bold] (or from and to, startdate and enddate): the first and the last date, both included
    or [bold]date[/bold] for a single date
  [bold]threshold[/bold] (or sellthreshold): 0 to 999, or n/a to clear
  [bold]days[/bold] (optional): these weekdays only: Mon-Fri, Fri-Sun, "Sat,Sun" or 1111100 (Monday first)

Dates are YYYY-MM-DD, or today, today+N and today-N; other layouts only with --date-format (e.g. %d/%m/%Y). Rows of one room with the same value that touch or overlap are merged into one range; the same dates with two different values are an error naming both lines. A range already past is skipped; one that starts in the past starts today.

JSON takes a list of objects with the columns' names as keys (see below); JSONL one object per line. A partner's exact API request body is accepted too.

Every problem names its file and line; if any row is invalid nothing is sent (exit 3) unless --skip-invalid.

\f
[bold]Example file[/bold] (rooms.csv):

  propertyid,roomid,start,end,threshold,days
  HTL001,DBL,2027-01-01,2027-01-31,3,
  HTL001,STE,today,today+30,n/a,
  HTL002,TWN,2027-06-01,2027-06-30,2,Fri-Sun

[bold]The same in JSON[/bold] (rooms.json), one object per row:

  \\[{"propertyid": "HTL001", "roomid": "DBL", "date": "2027-01-01", "threshold": 3}]

[bold]Examples[/bold]:

  ari-cli threshold push rooms.csv --dry-run        # check the file; send nothing
  ari-cli threshold push rooms.csv --sandbox        # push to the built-in emulator
  ari-cli threshold push rooms.xlsx --profile prod --output json --report results.csv
"""

app.command("push", help=HELP, cls=HelpCommand)(push_command(Operation.THRESHOLD))
app.command("diff", help=diff_help(Operation.THRESHOLD, "sell thresholds", "rooms.csv"), cls=HelpCommand)(
    diff_command(Operation.THRESHOLD)
)

SEND_HELP = """Push one sell threshold given as flags: the same checks, output and exit codes as push.

\f

[bold]Examples[/bold]:

  ari-cli threshold send --property HTL001 --room DBL --start 2027-01-01 --end 2027-01-31 --threshold 3 --sandbox
  ari-cli threshold send --property HTL001 --room STE --date today --threshold n/a --dry-run --curl
  ari-cli threshold send --property HTL001 --room DBL --start today --end today+90 --days Sat,Sun --threshold 2
"""

app.command("send", help=SEND_HELP, cls=HelpCommand)(send_command(Operation.THRESHOLD, threshold_setting))

app.command("export", help=export_help(Operation.THRESHOLD), cls=HelpCommand, no_args_is_help=True)(
    export_command(Operation.THRESHOLD)
)
