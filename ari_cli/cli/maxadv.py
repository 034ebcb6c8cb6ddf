"""`ari-cli maxadv`: Max Advance Booking pushes."""

import typer

from ari_cli.cli.push import push_command
from ari_cli.protocol import Operation

app = typer.Typer(
    name="maxadv",
    help="Max Advance Booking: how many nights ahead a rate plan can be booked.",
    no_args_is_help=True,
)

HELP = """Push maximum advance booking periods from CSV, JSON or JSONL files.

[bold]Columns[/bold] (header names ignore case, spaces, _ and -):

  [bold]propertyid[/bold] (property, hotel)  [bold]roomid[/bold] (room, roomtype)  [bold]rateid[/bold] (rate, rateplan)
  [bold]start[/bold] and [bold]end[/bold] (from, to), or [bold]date[/bold] for one day
  [bold]time[/bold] (nights, maxadv, max_advance): 1 to 999 nights, or n/a to clear
  [bold]days[/bold] (optional): Mon-Fri, Sat,Sun, or a mask like 1111100 (Monday first)

[bold]Example file[/bold]:

  propertyid,roomid,rateid,start,end,time
  HTL001,DBL,BAR,2027-01-01,2027-12-31,365

[bold]Examples[/bold]:

  ari-cli maxadv push maxadv.csv --sandbox
  ari-cli maxadv push maxadv.json --dry-run --output json
"""

app.command("push", help=HELP, no_args_is_help=True)(push_command(Operation.MAXADV))
