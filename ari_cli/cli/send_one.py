"""`ari-cli OPERATION send`: one setting from flags, through the same pipeline as push.

The flags become one input row (a policy: one row per level) under the canonical column names, so
validation, output and exit codes are those of push. Values stay text, as a CSV cell would be.
"""

from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated

import typer

from ari_cli.cli.groups import only, takes
from ari_cli.cli.options import (
    DryRun,
    connection_options,
    guard_options,
    input_options,
    output_options,
    plan_options,
    send_tuning,
)
from ari_cli.exits import UsageProblem
from ari_cli.wire.operations import Operation

if TYPE_CHECKING:
    from ari_cli.app.options import (
        ConnectionOptions,
        GuardOptions,
        InputOptions,
        OutputOptions,
        PlanOptions,
        SendTuning,
    )

_ROW = "Setting"
_DEPOSIT = "Deposit"

Property = Annotated[str, typer.Option("--property", metavar="ID", help="Property id (propertyid).", show_default=False, rich_help_panel=_ROW)]  # fmt: skip
Room = Annotated[str, typer.Option("--room", metavar="ID", help="Room type id (roomid).", show_default=False, rich_help_panel=_ROW)]  # fmt: skip
Rate = Annotated[str, typer.Option("--rate", metavar="ID", help="Rate plan id (rateid).", show_default=False, rich_help_panel=_ROW)]  # fmt: skip
Start = Annotated[str | None, typer.Option("--start", metavar="DATE", help="First date: YYYY-MM-DD, today or today+N.", show_default=False, rich_help_panel=_ROW)]  # fmt: skip
End = Annotated[str | None, typer.Option("--end", metavar="DATE", help="Last date, included.", show_default=False, rich_help_panel=_ROW)]  # fmt: skip
Date = Annotated[str | None, typer.Option("--date", metavar="DATE", help="One day: instead of --start and --end.", show_default=False, rich_help_panel=_ROW)]  # fmt: skip
Days = Annotated[str | None, typer.Option("--days", metavar="DAYS", help="Only these weekdays: Mon-Fri, Sat,Sun, or a mask like 1111100.", show_default=False, rich_help_panel=_ROW)]  # fmt: skip


LEVEL_KEYS = {
    "level": "level", "policyid": "policyid", "policy": "policyid", "days": "dayspriorcheckin",
    "dayspriorcheckin": "dayspriorcheckin", "type": "penaltytype", "penaltytype": "penaltytype",
    "amount": "penaltyamount", "penaltyamount": "penaltyamount", "applied": "penaltyapplied",
    "penaltyapplied": "penaltyapplied",
}  # fmt: skip
LEVEL_EXAMPLE = "--level policyid=1,days=7,amount=50,applied=3"


def _dates(start: str | None, end: str | None, date: str | None, days: str | None) -> dict[str, str]:
    if date is not None:
        if start is not None or end is not None:
            raise UsageProblem("give --date for one day, or --start and --end, not both")
        fields = {"date": date}
    elif start is None or end is None:
        raise UsageProblem("give --start and --end, or --date for one day")
    else:
        fields = {"start": start, "end": end}
    return fields if days is None else {**fields, "days": days}


def send_command(operation: Operation, setting: Callable[..., list[dict[str, str]]]) -> Callable[..., None]:
    """The send command of one operation: `setting`'s flags give the rows, then push's options for one setting."""

    @takes(
        rows=setting,
        output=only(output_options, "output", "report", "curl", "quiet", "verbose"),
        inputs=only(input_options, "date_format"),
        plan=only(plan_options, "today", "data_form"),
        sending=only(send_tuning, "timeout", "retries", "rate_per_property"),
        connection=connection_options,
        # A setting pushed by hand is judged as a push's are; coverage is of files, which a send has none of.
        guards=only(guard_options, "max_changed", "max_cleared", "max_step", "override_guards"),
    )
    def send(
        ctx: typer.Context,
        *,
        rows: list[dict[str, str]],
        dry_run: DryRun = False,
        output: "OutputOptions",
        inputs: "InputOptions",
        plan: "PlanOptions",
        sending: "SendTuning",
        connection: "ConnectionOptions",
        guards: "GuardOptions",
    ) -> None:
        from ari_cli.cli import runs  # the work, loaded when the command runs

        request = runs.PushRequest(
            operation=operation,
            command=ctx.command_path,
            dry_run=dry_run,
            output=output,
            inputs=inputs,
            plan=plan,
            sending=sending,
            connection=connection,
            rows=tuple(rows),
            guards=guards,
        )
        raise typer.Exit(int(runs.push_and_show(request)))

    return send


def threshold_setting(
    property: Property,
    room: Room,
    threshold: Annotated[str, typer.Option("--threshold", metavar="N", help="Rooms to keep unsold: 0-999, or n/a to clear.", show_default=False, rich_help_panel=_ROW)],
    start: Start = None,
    end: End = None,
    date: Date = None,
    days: Days = None,
) -> list[dict[str, str]]:  # fmt: skip
    """A sell threshold's flags as its one row."""
    return [{"propertyid": property, "roomid": room, **_dates(start, end, date, days), "threshold": threshold}]


def maxadv_setting(
    property: Property,
    room: Room,
    rate: Rate,
    time: Annotated[str, typer.Option("--time", "--nights", metavar="N", help="Most nights ahead a booking can be made: 1-999, or n/a to clear.", show_default=False, rich_help_panel=_ROW)],
    start: Start = None,
    end: End = None,
    date: Date = None,
    days: Days = None,
) -> list[dict[str, str]]:  # fmt: skip
    """A max advance booking's flags as its one row."""
    key = {"propertyid": property, "roomid": room, "rateid": rate}
    return [{**key, **_dates(start, end, date, days), "time": time}]


def _level(text: str, position: int) -> dict[str, str]:
    """`policyid=1,days=7,amount=50,applied=3` as level columns; level by position, penaltytype 3."""
    fields = {"level": str(position), "penaltytype": "3"}
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, equals, value = part.partition("=")
        key = LEVEL_KEYS.get(name.strip().lower().replace("-", "").replace("_", ""))
        if not equals or key is None:
            raise UsageProblem(
                f"--level {text!r}: {part!r} is not KEY=VALUE with KEY one of policyid, days, amount, applied, "
                "type, level",
                f"for example {LEVEL_EXAMPLE}",
            )
        fields[key] = value.strip()
    return fields


def policy_setting(
    property: Property,
    room: Room,
    rate: Rate,
    refundable: Annotated[str, typer.Option("--refundable", metavar="true|false", help="Whether the rate is refundable (true/false, yes/no).", show_default=False, rich_help_panel=_ROW)],
    level: Annotated[list[str], typer.Option("--level", metavar="KEY=VALUE,...", help="One cancellation level (repeat for level 2): policyid (1-5), days (dayspriorcheckin), amount (penaltyamount 1-100), applied (penaltyapplied: 3 first night, 4 full stay); type (penaltytype) is 3 and level is the position unless given.", show_default=False, rich_help_panel=_ROW)],
    deposit_policy: Annotated[str, typer.Option("--deposit-policy", metavar="TEXT", help="required, or not required (required when not refundable).", show_default=False, rich_help_panel=_DEPOSIT)],
    deposit_amount: Annotated[str, typer.Option("--deposit-amount", metavar="N", help="Percent, 1-100 (depositamount).", show_default=False, rich_help_panel=_DEPOSIT)],
    deposit_applied: Annotated[str, typer.Option("--deposit-applied", metavar="N", help="3 first night, 4 full stay (depositapplied).", show_default=False, rich_help_panel=_DEPOSIT)],
    deposit_interval_units: Annotated[str, typer.Option("--deposit-interval-units", metavar="N", help="1 days before arrival, 0 at booking (depositintervalunits).", show_default=False, rich_help_panel=_DEPOSIT)],
    deposit_time_interval: Annotated[str | None, typer.Option("--deposit-time-interval", metavar="DAYS", help="Days before arrival, 1-10, 30, 45 or 60; only with units 1 (deposittimeinterval).", show_default=False, rich_help_panel=_DEPOSIT)] = None,
    deposit_type: Annotated[str, typer.Option("--deposit-type", metavar="N", help="3 = percentage (deposittype).", rich_help_panel=_DEPOSIT)] = "3",
    start: Start = None,
    end: End = None,
    date: Date = None,
    days: Days = None,
) -> list[dict[str, str]]:  # fmt: skip
    """A policy's flags as one row per cancellation level."""
    policy = {
        "propertyid": property, "roomid": room, "rateid": rate, **_dates(start, end, date, days),
        "refundable": refundable, "depositpolicy": deposit_policy, "deposittype": deposit_type,
        "depositamount": deposit_amount, "depositapplied": deposit_applied,
        "depositintervalunits": deposit_interval_units, "deposittimeinterval": deposit_time_interval or "",
    }  # fmt: skip
    return [{**policy, **_level(text, position)} for position, text in enumerate(level, start=1)]
