"""`ari-cli policy`: Cancellation and Deposit pushes."""

from pathlib import Path
from typing import Annotated

import typer

from ari_cli.choices import ViewFormat
from ari_cli.cli.diff import diff_command, diff_help
from ari_cli.cli.export import export_command, export_help
from ari_cli.cli.helptext import HelpCommand, HelpGroup
from ari_cli.cli.push import push_command
from ari_cli.cli.send_one import policy_setting, send_command
from ari_cli.cli.values import choice
from ari_cli.wire.operations import Operation

app = typer.Typer(
    add_completion=False,
    name="policy",
    cls=HelpGroup,
    help="""Cancellation and Deposit: cancellation levels and deposit rules per room, rate and dates.

push sends a file of policies; its --help says how to write the file.

\f

[bold]Examples[/bold]:

  ari-cli policy push policy.csv --dry-run
  ari-cli policy push policy.csv --sandbox
  ari-cli policy push --help
""",
    no_args_is_help=True,
)

HELP = """Push cancellation and deposit policies from CSV, Excel, JSON or JSONL files.

A policy says, for a room, a rate plan and a range of dates, whether the rate is refundable, up to when a guest may cancel and what it costs after that (one or two levels), and what deposit is taken.

[bold]How to write the file[/bold]: one row per cancellation level, under a header row that names the columns. Rows with the same propertyid, roomid, rateid, start and end are one policy: a two-level policy is two rows, and their refundable and deposit columns must agree. Keep it as .xlsx (a sheet per hotel: --all-sheets), or save it as CSV (UTF-8). Header names ignore case, spaces, _ and -.

[bold]Columns[/bold]:

  [bold]propertyid, roomid, rateid[/bold]: the hotel, room type and rate plan ids
  [bold]start[/bold] and [bold]end[/bold] (or [bold]date[/bold] for a single date): YYYY-MM-DD, today or today+N
  [bold]refundable[/bold]: true or false (yes/no, any case)
  a level: [bold]level[/bold] 1 or 2; [bold]policyid[/bold] 1 standard, 2-5 flexible 1-4;
    [bold]dayspriorcheckin[/bold] free cancellation up to this many days before arrival (0 = 18:00 on the day);
    [bold]penaltytype[/bold] 3 (percent); [bold]penaltyamount[/bold] 1-100; [bold]penaltyapplied[/bold] 3 first night, 4 full stay
  the deposit: [bold]depositpolicy[/bold] required or not required (always required when not refundable);
    [bold]deposittype[/bold] 3 (percent); [bold]depositamount[/bold] 1-100; [bold]depositapplied[/bold] 3 first night, 4 full stay;
    [bold]depositintervalunits[/bold] 0 at booking, 1 days before arrival;
    [bold]deposittimeinterval[/bold] 1-10, 30, 45 or 60 days, only with units 1 (else leave it empty)

Or name policies once in a TOML file and give a [bold]policy[/bold] column instead (see ari-cli policy describe --help). JSON may also give policies in the API's own shape (with policydetails), or a partner's exact request body.

\f
[bold]Example file[/bold] (policy.csv): a two-level refundable rate and a non-refundable one:

  propertyid,roomid,rateid,start,end,refundable,level,policyid,dayspriorcheckin,penaltytype,penaltyamount,penaltyapplied,depositpolicy,deposittype,depositamount,depositapplied,depositintervalunits,deposittimeinterval
  HTL001,DBL,BAR,2027-01-01,2027-06-30,true,1,2,7,3,100,3,not required,3,30,4,0,
  HTL001,DBL,BAR,2027-01-01,2027-06-30,true,2,2,1,3,100,4,not required,3,30,4,0,
  HTL001,DBL,NRF,2027-01-01,2027-06-30,false,1,1,0,3,100,4,required,3,100,4,0,

[bold]Examples[/bold]:

  ari-cli policy push policy.csv --dry-run        # check the file; send nothing
  ari-cli policy push policy.csv --sandbox        # push to the built-in emulator
  ari-cli policy push rates.csv --policies policies.toml --profile prod
"""

app.command("push", help=HELP, cls=HelpCommand)(push_command(Operation.POLICY))
_COMPARED = "Policies compare as whole policies, in words; a policy cannot be cleared."
app.command("diff", help=diff_help(Operation.POLICY, "policies", "policy.csv", _COMPARED), cls=HelpCommand)(
    diff_command(Operation.POLICY)
)


# `policy describe`: named policies in words.

DESCRIBE_HELP = """Say named policies in words, as a policy push sends them.

NAME is a policy of the --policies file (case does not matter); without NAME every policy of the file is described, one per line.

A policies file is TOML, its fields named as the policy columns (see the example below). A policy file may then give [bold]propertyid, roomid, rateid, start, end, policy[/bold] (the name) instead of the refundable, level and deposit columns, and is pushed with --policies.

\f
[bold]A policies file[/bold] (policies.toml):

  \\[policies.flex7]
  refundable = true
  levels = \\[{ policyid = 2, dayspriorcheckin = 7, penaltyamount = 100, penaltyapplied = 3 }]
  deposit = { policy = "required", amount = 30, applied = 4, intervalunits = 0 }

[bold]Examples[/bold]:

  ari-cli policy describe flex7 --policies policies.toml
  ari-cli policy describe --policies policies.toml
  ari-cli policy describe --policies policies.toml --output json
  ari-cli policy push rates.csv --policies policies.toml      # rates.csv has a policy column
"""


@app.command("describe", help=DESCRIBE_HELP, cls=HelpCommand, no_args_is_help=True)
def describe(
    policies: Annotated[Path, typer.Option("--policies", metavar="FILE", help="TOML file of named policies.", show_default=False)],
    name: Annotated[str | None, typer.Argument(metavar="NAME", help="The policy to describe. \\[default: all of them]", show_default=False)] = None,
    output: Annotated[ViewFormat, typer.Option("--output", "-o", **choice(ViewFormat), help="Lines of words, or one JSON document.")] = ViewFormat.TABLE,
) -> None:  # fmt: skip
    """Print named policies in words."""
    from ari_cli.cli.doing.policy import describe as do

    do(policies=policies, name=name, output=output)


SEND_HELP = """Push one cancellation and deposit policy given as flags: the same checks, output and exit codes as push.

Each --level is one cancellation level, as KEY=VALUE pairs: policyid (1-5), days (days prior to check-in), amount (penalty percent 1-100), applied (3 first night, 4 full stay); repeat --level for a second level.

\f

[bold]Examples[/bold]:

  ari-cli policy send --property HTL001 --room DBL --rate BAR --start 2027-01-01 --end 2027-03-31 --refundable true \\
    --level policyid=2,days=7,amount=50,applied=3 --level policyid=2,days=1,amount=100,applied=4 \\
    --deposit-policy "not required" --deposit-amount 10 --deposit-applied 3 --deposit-interval-units 0 --sandbox
  ari-cli policy send --property HTL001 --room DBL --rate NRF --date today --refundable false \\
    --level policyid=1,days=0,amount=100,applied=4 --deposit-policy required --deposit-amount 100 \\
    --deposit-applied 4 --deposit-interval-units 1 --deposit-time-interval 30 --dry-run
"""

app.command("send", help=SEND_HELP, cls=HelpCommand)(send_command(Operation.POLICY, policy_setting))

app.command("export", help=export_help(Operation.POLICY), cls=HelpCommand, no_args_is_help=True)(
    export_command(Operation.POLICY)
)
