"""`ari-cli policy`: Cancellation and Deposit pushes."""

import typer

from ari_cli.cli.push import push_command
from ari_cli.protocol import Operation

app = typer.Typer(
    name="policy",
    help="Cancellation and Deposit: cancellation levels and deposit rules per room, rate and dates.",
    no_args_is_help=True,
)

HELP = """Push cancellation and deposit policies from CSV, JSON or JSONL files.

One row per cancellation level; rows with the same propertyid, roomid, rateid, start and end are
one policy, and their refundable and deposit columns must agree.

[bold]Columns[/bold]:

  [bold]propertyid, roomid, rateid, start, end[/bold] (or [bold]date[/bold]), [bold]refundable[/bold] (true/false, yes/no)
  level: [bold]level[/bold] (1 or 2), [bold]policyid[/bold] (1-5), [bold]dayspriorcheckin[/bold] (0 = 18:00 on arrival day),
    [bold]penaltytype[/bold] (3 = percent), [bold]penaltyamount[/bold] (1-100), [bold]penaltyapplied[/bold] (3 first night, 4 full stay)
  deposit: [bold]depositpolicy[/bold] (required / not required; required when not refundable),
    [bold]deposittype[/bold] (3), [bold]depositamount[/bold] (1-100), [bold]depositapplied[/bold] (3 or 4),
    [bold]depositintervalunits[/bold] (1 days before arrival, 0 at booking),
    [bold]deposittimeinterval[/bold] (1-10, 30, 45 or 60 days; only with units 1, else leave empty)

JSON may also give policies in the API's own shape (with policydetails).

[bold]Examples[/bold]:

  ari-cli policy push policies.csv --sandbox
  ari-cli policy push policies.json --dry-run
"""

app.command("push", help=HELP, no_args_is_help=True)(push_command(Operation.POLICY))
