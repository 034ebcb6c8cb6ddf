"""`ari-cli threshold|maxadv|policy send`: one setting from flags, through the same pipeline as push.

The flags become one input row (a policy: one row per level) under the canonical column names, so
validation, output and exit codes are those of push. Values stay text, as a CSV cell would be.
"""

import datetime as dt
import functools
import inspect
from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Any, NamedTuple

import typer

from ari_cli.app.choices import Form, OutputFormat
from ari_cli.cli.push import (
    ApiKeyFile,
    BaseUrl,
    Config,
    Curl,
    DataForm,
    DateFormat,
    DryRun,
    Output,
    PathSegment,
    Profile,
    Quiet,
    RatePerProperty,
    Report,
    Retries,
    Sandbox,
    SourceId,
    Timeout,
    Today,
    Verbose,
    given,
)
from ari_cli.wire.operations import Operation

if TYPE_CHECKING:
    # Built when a command runs (the function imports them): declaring the commands does not need them.
    from ari_cli.app.options import ConnectionOptions, OutputOptions, SendTuning

_ROW = "Setting"
_DEPOSIT = "Deposit"

Property = Annotated[str, typer.Option("--property", metavar="ID", help="Property id (propertyid).", show_default=False, rich_help_panel=_ROW)]  # fmt: skip
Room = Annotated[str, typer.Option("--room", metavar="ID", help="Room type id (roomid).", show_default=False, rich_help_panel=_ROW)]  # fmt: skip
Rate = Annotated[str, typer.Option("--rate", metavar="ID", help="Rate plan id (rateid).", show_default=False, rich_help_panel=_ROW)]  # fmt: skip
Start = Annotated[str | None, typer.Option("--start", metavar="DATE", help="First date: YYYY-MM-DD, today or today+N.", show_default=False, rich_help_panel=_ROW)]  # fmt: skip
End = Annotated[str | None, typer.Option("--end", metavar="DATE", help="Last date, included.", show_default=False, rich_help_panel=_ROW)]  # fmt: skip
Date = Annotated[str | None, typer.Option("--date", metavar="DATE", help="One day: instead of --start and --end.", show_default=False, rich_help_panel=_ROW)]  # fmt: skip
Days = Annotated[str | None, typer.Option("--days", metavar="DAYS", help="Only these weekdays: Mon-Fri, Sat,Sun, or a mask like 1111100.", show_default=False, rich_help_panel=_ROW)]  # fmt: skip


class Shared(NamedTuple):
    """The push options every send command takes, gathered before the setting's own flags become rows."""

    dry_run: bool
    output: "OutputOptions"
    date_format: str | None
    today: dt.date | None
    data_form: Form
    sending: "SendTuning"
    connection: "ConnectionOptions"


# The push options every send command takes, declared once: (name, the option's alias, default), in the order of
# their --help. `with_shared` adds them to each command's parameters and hands the command one `Shared`.
SHARED: tuple[tuple[str, Any, Any], ...] = (
    ("dry_run", DryRun, False),
    ("output", Output, OutputFormat.TABLE),
    ("report", Report, None),
    ("curl", Curl, False),
    ("quiet", Quiet, False),
    ("verbose", Verbose, False),
    ("date_format", DateFormat, None),
    ("today", Today, None),
    ("data_form", DataForm, Form.LIST),
    ("timeout", Timeout, 30),
    ("retries", Retries, 3),
    ("rate_per_property", RatePerProperty, ""),
    ("sandbox", Sandbox, False),
    ("profile", Profile, None),
    ("config", Config, None),
    ("base_url", BaseUrl, None),
    ("source_id", SourceId, None),
    ("api_key_file", ApiKeyFile, None),
    ("path_segment", PathSegment, None),
)


def _shared(values: dict[str, Any]) -> Shared:
    """The shared options' values as the option objects a send builds its push from, each by keyword."""
    from ari_cli.app.options import ConnectionOptions, OutputOptions, SendTuning

    v = values
    return Shared(
        dry_run=v["dry_run"],
        output=OutputOptions(
            format=v["output"], report=v["report"], curl=v["curl"], quiet=v["quiet"], verbose=v["verbose"]
        ),
        date_format=v["date_format"],
        today=v["today"],
        data_form=v["data_form"],
        sending=SendTuning(timeout=v["timeout"], retries=v["retries"], rate_per_property=v["rate_per_property"]),
        connection=ConnectionOptions(
            sandbox=v["sandbox"], profile=v["profile"], config=v["config"], base_url=v["base_url"],
            source_id=v["source_id"], api_key_file=v["api_key_file"], path_segment=v["path_segment"],
        ),
    )  # fmt: skip


def with_shared(command: Callable[..., None]) -> Callable[..., None]:
    """`command` (whose last parameter is `shared: Shared`) with the shared options as parameters of its own.

    Typer reads a command's parameters from its signature (`inspect.signature`, which honours `__signature__`):
    the command's own, then SHARED's, every one keyword-only (Typer passes them by name).
    """
    own = [p for p in inspect.signature(command).parameters.values() if p.name != "shared"]
    added = [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, annotation=alias, default=default)
             for name, alias, default in SHARED]  # fmt: skip
    names = {name for name, _, _ in SHARED}

    @functools.wraps(command)
    def run(**values: Any) -> None:
        mine = {k: v for k, v in values.items() if k not in names}
        command(**mine, shared=_shared({k: v for k, v in values.items() if k in names}))

    parameters = [p.replace(kind=inspect.Parameter.KEYWORD_ONLY) for p in own] + added
    run.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    return run


LEVEL_KEYS = {
    "level": "level", "policyid": "policyid", "policy": "policyid", "days": "dayspriorcheckin",
    "dayspriorcheckin": "dayspriorcheckin", "type": "penaltytype", "penaltytype": "penaltytype",
    "amount": "penaltyamount", "penaltyamount": "penaltyamount", "applied": "penaltyapplied",
    "penaltyapplied": "penaltyapplied",
}  # fmt: skip
LEVEL_EXAMPLE = "--level policyid=1,days=7,amount=50,applied=3"


def _dates(start: str | None, end: str | None, date: str | None, days: str | None) -> dict[str, str]:
    from ari_cli.exits import UsageProblem

    if date is not None:
        if start is not None or end is not None:
            raise UsageProblem("give --date for one day, or --start and --end, not both")
        fields = {"date": date}
    elif start is None or end is None:
        raise UsageProblem("give --start and --end, or --date for one day")
    else:
        fields = {"start": start, "end": end}
    return fields if days is None else {**fields, "days": days}


def _send(ctx: typer.Context, operation: Operation, rows: list[dict[str, str]], shared: Shared) -> None:
    from ari_cli.app.options import InputOptions, PlanOptions, PushRequest
    from ari_cli.cli.runs import push_and_show

    code = push_and_show(
        PushRequest(
            operation=operation,
            command=ctx.command_path,
            dry_run=shared.dry_run,
            output=shared.output,
            inputs=InputOptions(date_format=shared.date_format),
            plan=PlanOptions(today=shared.today, data_form=shared.data_form),
            sending=shared.sending,
            connection=shared.connection,
            given=given(ctx),
            rows=tuple(rows),
        )
    )
    raise typer.Exit(int(code))


@with_shared
def threshold_send(
    ctx: typer.Context,
    *,
    property: Property,
    room: Room,
    threshold: Annotated[str, typer.Option("--threshold", metavar="N", help="Rooms to keep unsold: 0-999, or n/a to clear.", show_default=False, rich_help_panel=_ROW)],
    start: Start = None,
    end: End = None,
    date: Date = None,
    days: Days = None,
    shared: Shared,
) -> None:  # fmt: skip
    fields = {"propertyid": property, "roomid": room, **_dates(start, end, date, days), "threshold": threshold}
    _send(ctx, Operation.THRESHOLD, [fields], shared)


@with_shared
def maxadv_send(
    ctx: typer.Context,
    *,
    property: Property,
    room: Room,
    rate: Rate,
    time: Annotated[str, typer.Option("--time", "--nights", metavar="N", help="Most nights ahead a booking can be made: 1-999, or n/a to clear.", show_default=False, rich_help_panel=_ROW)],
    start: Start = None,
    end: End = None,
    date: Date = None,
    days: Days = None,
    shared: Shared,
) -> None:  # fmt: skip
    key = {"propertyid": property, "roomid": room, "rateid": rate}
    _send(ctx, Operation.MAXADV, [{**key, **_dates(start, end, date, days), "time": time}], shared)


def _level(text: str, position: int) -> dict[str, str]:
    """`policyid=1,days=7,amount=50,applied=3` as level columns; level by position, penaltytype 3."""
    from ari_cli.exits import UsageProblem

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


@with_shared
def policy_send(
    ctx: typer.Context,
    *,
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
    shared: Shared,
) -> None:  # fmt: skip
    policy = {
        "propertyid": property, "roomid": room, "rateid": rate, **_dates(start, end, date, days),
        "refundable": refundable, "depositpolicy": deposit_policy, "deposittype": deposit_type,
        "depositamount": deposit_amount, "depositapplied": deposit_applied,
        "depositintervalunits": deposit_interval_units, "deposittimeinterval": deposit_time_interval or "",
    }  # fmt: skip
    rows = [{**policy, **_level(text, position)} for position, text in enumerate(level, start=1)]
    _send(ctx, Operation.POLICY, rows, shared)
