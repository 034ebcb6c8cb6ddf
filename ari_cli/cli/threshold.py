"""`ari-cli threshold`: Sell Threshold pushes."""

import typer

from ari_cli.cli.push import push_command
from ari_cli.protocol import Operation

app = typer.Typer(
    name="threshold",
    help="Sell Threshold: the rooms that must stay unsold, per room and date range.",
    no_args_is_help=True,
)

HELP = """Push sell thresholds from CSV, JSON or JSONL files.

The threshold is the number of rooms that must remain unsold; when it is reached, sales stop.
0 means no restriction, n/a clears the value.

[bold]Columns[/bold] (header names ignore case, spaces, _ and -):

  [bold]propertyid[/bold] (property, hotel, hotelid)  [bold]roomid[/bold] (room, roomtype)
  [bold]start[/bold] and [bold]end[/bold] (from, to, startdate, enddate), or [bold]date[/bold] for one day
  [bold]threshold[/bold] (sellthreshold): 0 to 999, or n/a to clear
  [bold]days[/bold] (optional): Mon-Fri, Sat,Sun, or a mask like 1111100 (Monday first)

Dates are YYYY-MM-DD, today, today+N or today-N. Rows of one room with the same value that touch or
overlap are merged; ranges already past are skipped; ranges starting in the past start today.

[bold]Example file[/bold]:

  propertyid,roomid,start,end,threshold
  HTL001,DBL,2027-01-01,2027-01-31,3
  HTL001,STE,today,today+30,n/a

[bold]Examples[/bold]:

  ari-cli threshold push rooms.csv --sandbox
  ari-cli threshold push rooms.csv --dry-run
  ari-cli threshold push rooms.csv --output json --report results.csv
"""

app.command("push", help=HELP, no_args_is_help=True)(push_command(Operation.THRESHOLD))
