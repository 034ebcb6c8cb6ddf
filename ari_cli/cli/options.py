"""The options of the commands that read, plan and send, each declared once, and the groups they come in.

Each option is a typed alias below (one line each: a table of data). The options that make one option object
of `app/options.py` are a group: a function whose parameters declare them, as a command's would, and whose
body builds the object by keyword (`output_options`, `input_options`, `plan_options`, `send_tuning`,
`connection_options`, `guard_options`). A command takes a group as one parameter typed as the object, and
`@takes` puts the group's options in its place:

    @takes(connection=connection_options, sending=only(send_tuning, "timeout", "retries"))
    def command(ctx: typer.Context, sending: "SendTuning", connection: "ConnectionOptions") -> None: ...

The command sees the option objects; Typer and --help see the options. An option object holds what was given
and None for what was not: `config/settings.py` puts the flags over the environment, the profile and the defaults
(`config/tuning.py`), which --help shows as `[default: ...]` in the option's help.

Only Typer and light modules load here: the option objects are `config/options.py`'s and
`app/option_groups.py`'s, which load nothing of the use cases (tests/test_startup.py).
"""

import datetime as dt
from pathlib import Path
from typing import Annotated, Any

import typer

from ari_cli.app.option_groups import InputOptions, OutputOptions
from ari_cli.choices import Form, HiddenRows, InputFormat, Layout, OutputFormat, Overlaps, Show
from ari_cli.cli.completion import complete_profile
from ari_cli.cli.groups import shows
from ari_cli.cli.values import choice, number, whole
from ari_cli.config.options import ConnectionOptions, GuardOptions, PlanOptions, SendTuning
from ari_cli.config.tuning import TUNING_DEFAULTS, TUNING_RANGES, parse_budget
from ari_cli.exits import UsageProblem
from ari_cli.operations import DESCRIPTORS
from ari_cli.wire.operations import segment_problem

_RANGE = TUNING_RANGES
_IN = "Input"
_PLAN = "Planning"
_SEND = "Sending"
_CONN = "Connection"
_OUT = "Output"
_GUARD = "Guards"


def _date(text: str) -> dt.date:
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise typer.BadParameter(f"{text!r} is not a date of the form YYYY-MM-DD") from None


def _segment(value: str | None) -> str | None:
    if value is not None and (problem := segment_problem(value)) is not None:
        raise typer.BadParameter(problem)
    return value


# The sending and planning settings a profile may hold too: flag, metavar and help, each once.
_TUNING = {
    "batch_size": ("--batch-size", "N", "Most records in one request."),
    "concurrency": ("--concurrency", "N", "Requests in flight at once."),
    "rate": ("--rate", "R", "At most R requests per second (0 = no limit)."),
    "timeout": (
        "--timeout",
        "S",
        "Seconds for one whole request: connecting, sending, waiting and reading the answer.",
    ),
    "retries": ("--retries", "N", "Further tries after a transient failure."),
}


def tuning(key: str, panel: str) -> Any:
    """The option of a setting `key`, bounded as the config file bounds it, in the help's `panel`."""
    flag, metavar, help = _TUNING[key]
    low, high = _RANGE[key]
    # The range's type is the setting's: whole numbers for counts, decimals for seconds and rates.
    bounds = (
        whole(low, high, metavar=metavar)
        if isinstance(low, int) and isinstance(high, int)
        else number(low, high, metavar=metavar)
    )
    return typer.Option(flag, **bounds, help=help, rich_help_panel=panel)


# The defaults --help shows for the settings a profile may hold too (`config/tuning.py` declares them): the
# groups' own defaults are None, "not given", so that a flag left out does not hide the profile's value.
SHOWN = {key: int(value) if isinstance(value, float) and value.is_integer() else value
         for key, value in TUNING_DEFAULTS.items() if value != ""}  # fmt: skip


def budget(value: str | None) -> str | None:
    """`--rate-per-property`, checked as a profile's `rate_per_property` is."""
    if value is None:
        return None
    try:
        parse_budget(value)
    except ValueError as expected:
        raise typer.BadParameter(f"{value!r}: give {expected}") from None
    return value.replace(" ", "")


# One line each: a table of data.
# fmt: off
Files = Annotated[list[Path], typer.Argument(metavar="FILE", allow_dash=True, show_default=False, help="CSV, JSON, JSONL or spreadsheet (.xlsx, .xlsm, .xls, .xlsb, .ods) files, or - for standard input. Several files are one run.")]
DryRun = Annotated[bool, typer.Option("--dry-run", help="Read, validate and plan; print what would be sent; send nothing.", rich_help_panel=_OUT)]
Output = Annotated[OutputFormat, typer.Option("--output", "-o", **choice(OutputFormat), help="What goes to standard output.", rich_help_panel=_OUT)]
Report = Annotated[Path | None, typer.Option("--report", metavar="PATH", help="Also write per-row results to PATH (.csv or .json).", rich_help_panel=_OUT)]
ShowRows = Annotated[Show | None, typer.Option("--show", **choice(Show), help="Rows the table lists. \\[default: failed over 50 rows (over 50 failed, by cause with the first 3 of each), else all]", show_default=False, rich_help_panel=_OUT)]
Curl = Annotated[bool, typer.Option("--curl", help="Print each request as a bash-ready curl command, $ARI_API_KEY standing for the key: on standard output before the table, or on standard error with --output json or csv.", rich_help_panel=_OUT)]
Quiet = Annotated[bool, typer.Option("--quiet", "-q", help="Only errors and warnings about the data on standard error (no notes or progress).", rich_help_panel=_OUT)]
Verbose = Annotated[bool, typer.Option("--verbose", "-v", help="Show each HTTP exchange on standard error: method, URL, headers, body, status, answer and time, key masked.", rich_help_panel=_OUT)]
NoJournal = Annotated[bool, typer.Option("--no-journal", help="Do not record this run in the journal (what history, retry and --changed-only read).", rich_help_panel=_OUT)]
Format = Annotated[InputFormat | None, typer.Option("--format", **choice(InputFormat), help="Format of standard input (sniffed if not given).", rich_help_panel=_IN)]
Encoding = Annotated[str | None, typer.Option("--encoding", metavar="NAME", help="Encoding of files that are not UTF-8, e.g. cp1252.", rich_help_panel=_IN)]
DateFormat = Annotated[str | None, typer.Option("--date-format", metavar="FMT", help="Layout of dates that are not ISO, in strptime codes, e.g. %d/%m/%Y.", rich_help_panel=_IN)]
Sheet = Annotated[list[str] | None, typer.Option("--sheet", metavar="NAME", help="Worksheet of a workbook to read; repeatable. \\[default: the one visible sheet with the command's columns]", show_default=False, rich_help_panel=_IN)]
AllSheets = Annotated[bool, typer.Option("--all-sheets", help="Read every visible sheet of a workbook that has the command's columns (a sheet per hotel); the others are named in a note.", rich_help_panel=_IN)]
HeaderRow = Annotated[int | None, typer.Option("--header-row", **whole(1), help="Row that holds the column names, when titles sit above it. \\[default: the first row with values]", show_default=False, rich_help_panel=_IN)]
Policies = Annotated[Path | None, typer.Option("--policies", metavar="FILE", help="TOML file of named policies, which a policy file's policy column may name (policy push).", show_default=False, rich_help_panel=_IN)]
ColumnMap = Annotated[list[str] | None, typer.Option("--column", metavar="FIELD=HEADER", help='The column that gives FIELD, named as the file names it, e.g. --column threshold="Min Rooms Unsold" (repeatable; wins over names and aliases).', show_default=False, rich_help_panel=_IN)]
IgnoreColumn = Annotated[list[str] | None, typer.Option("--ignore-column", metavar="NAME", help="Leave the column NAME out with a warning, though it looks meaningful (a weekday, a range bound, an id the command does not use, a near-miss of a column name); repeatable.", show_default=False, rich_help_panel=_IN)]
LayoutOption = Annotated[Layout | None, typer.Option("--layout", **choice(Layout), help="How the files lay out their settings: rows (a row per setting), or a grid with a column per date (dates-across) or per room (rooms-across). \\[default: told from each file's header]", show_default=False, rich_help_panel=_IN)]
GridProperty = Annotated[str | None, typer.Option("--property", metavar="P", help="The property of a grid without a property column.", show_default=False, rich_help_panel=_IN)]
GridRate = Annotated[str | None, typer.Option("--rate-id", metavar="R", help="The rate of a grid without a rate column (maxadv, policy).", show_default=False, rich_help_panel=_IN)]
HiddenRowsOption = Annotated[HiddenRows | None, typer.Option("--hidden-rows", **choice(HiddenRows), help="A workbook's hidden or filtered-out rows (.xlsx, .xlsm, .ods): skip them, or include them. \\[default: an error naming them]", show_default=False, rich_help_panel=_IN)]
AllowEmpty = Annotated[bool, typer.Option("--allow-empty", help="A file with no rows is a note, not an error (for exports that may rightly be empty).", rich_help_panel=_IN)]
SkipInvalid = Annotated[bool, typer.Option("--skip-invalid", help="Send the valid rows and report the invalid ones, instead of sending nothing.", rich_help_panel=_IN)]
Today = Annotated[dt.date | None, typer.Option("--today", metavar="YYYY-MM-DD", parser=_date, help="The date taken as today. \\[default: the local date]", show_default=False, rich_help_panel=_PLAN)]
NoMerge = Annotated[bool, typer.Option("--no-merge", help="Send records as read: no merging of adjacent equal ranges.", rich_help_panel=_PLAN)]
OverlapsOption = Annotated[Overlaps, typer.Option("--overlaps", **choice(Overlaps), help="What overlapping ranges of one key with different values do.", rich_help_panel=_PLAN)]
BatchSize = Annotated[int | None, tuning("batch_size", _PLAN)]
Force = Annotated[bool, typer.Option("--force", help="With --changed-only, send an exported file's dates that still hold their exported value though a later push changed them (listed as conflicts, not sent, exit 1 without it).", rich_help_panel=_PLAN)]
ChangedOnly = Annotated[bool, typer.Option("--changed-only", help="Send only the dates whose value differs from what the service last accepted, as the journal says (same base URL and source id).", rich_help_panel=_PLAN)]
DataForm = Annotated[Form | None, typer.Option("--data-form", **choice(Form), help="data (and cancellation) as a list, or a single object, one record per request.", rich_help_panel=_PLAN)]
Concurrency = Annotated[int | None, tuning("concurrency", _SEND)]
Rate = Annotated[float | None, tuning("rate", _SEND)]
Timeout = Annotated[float | None, tuning("timeout", _SEND)]
Retries = Annotated[int | None, tuning("retries", _SEND)]
RatePerProperty = Annotated[str | None, typer.Option("--rate-per-property", metavar="N/s|N/min", callback=budget, show_default=False, help="At most N requests to each property in any second (N/s) or minute (N/min), retries and split requests included; other properties go on meanwhile. \\[default: no limit]", rich_help_panel=_SEND)]  # fmt: skip
Sandbox = Annotated[bool, typer.Option("--sandbox", help="Start the built-in emulator in-process and push to it.", rich_help_panel=_CONN)]
Profile = Annotated[str | None, typer.Option("--profile", metavar="NAME", help="Profile of the config file. \\[env: ARI_PROFILE] \\[default: default]", show_default=False, rich_help_panel=_CONN, autocompletion=complete_profile)]
Config = Annotated[Path | None, typer.Option("--config", metavar="PATH", help="Config file. \\[env: ARI_CONFIG] \\[default: the user config file]", show_default=False, rich_help_panel=_CONN)]
BaseUrl = Annotated[str | None, typer.Option("--base-url", metavar="URL", help="Service base URL. \\[env: ARI_BASE_URL]", show_default=False, rich_help_panel=_CONN)]
SourceId = Annotated[str | None, typer.Option("--source-id", metavar="ID", help="Partner source id (cpb + 2 characters). \\[env: ARI_SOURCE_ID]", show_default=False, rich_help_panel=_CONN)]
ApiKeyFile = Annotated[Path | None, typer.Option("--api-key-file", metavar="PATH", help="File holding the API key (or set ARI_API_KEY to the key itself).", show_default=False, rich_help_panel=_CONN)]
Confirm = Annotated[bool, typer.Option("--confirm", help="Show what the push would change at the service (as diff does) and ask before sending; without a terminal give --yes too.", rich_help_panel=_SEND)]
Yes = Annotated[bool, typer.Option("--yes", "-y", help="Answer yes to --confirm: show what would change, then send without asking (for scripts).", rich_help_panel=_SEND)]
MaxChanged = Annotated[str | None, typer.Option("--max-changed", metavar="N|P%", help="Guard: refuse (exit 5, nothing sent) when the push would change or clear more than N dates, or P% of the dates the journal knows for the files' keys (from today on). \\[profile: max_changed]", show_default=False, rich_help_panel=_GUARD)]
MaxCleared = Annotated[str | None, typer.Option("--max-cleared", metavar="N|P%", help="Guard: the same for dates the push would clear (n/a over a value). \\[profile: max_cleared]", show_default=False, rich_help_panel=_GUARD)]
MinCoverage = Annotated[str | None, typer.Option("--min-coverage", metavar="P%", help="Guard: refuse when the files cover less than P% of the keys and dates (from today on) that the last push of files to this service covered: an export cut short. \\[profile: min_coverage]", show_default=False, rich_help_panel=_GUARD)]
_STEPPED = ", ".join(d.name for d in DESCRIPTORS.values() if d.steps)  # the operations --max-step is for
MaxStep = Annotated[str | None, typer.Option("--max-step", metavar="N", help=f"Guard ({_STEPPED}): refuse when a date's value would move by more than N from what the service holds: a typo of 100 for 10. \\[profile: max_step]", show_default=False, rich_help_panel=_GUARD)]
OverrideGuards = Annotated[bool, typer.Option("--override-guards", help="Push although a guard trips (the guard is still said). --yes never passes a guard.", rich_help_panel=_GUARD)]
PathSegment = Annotated[str | None, typer.Option("--path-segment", metavar="TEXT", callback=_segment, help="Last path segment; may hold {action} and {propertyid}. \\[env: ARI_PATH_SEGMENT] \\[default: {action}]", show_default=False, rich_help_panel=_CONN)]
# fmt: on


# The groups. Each function's parameters are its options, in the order of --help; its defaults are the option
# object's, so a command that takes only some of a group's options gets the object's defaults for the rest.


def output_options(
    output: Output = OutputFormat.TABLE,
    report: Report = None,
    show: ShowRows = None,
    curl: Curl = False,
    quiet: Quiet = False,
    verbose: Verbose = False,
    no_journal: NoJournal = False,
) -> OutputOptions:
    """What a run shows, where, and whether the journal records it."""
    return OutputOptions(
        format=output, report=report, show=show, curl=curl, quiet=quiet, verbose=verbose, journal=not no_journal
    )


def input_options(
    input_format: Format = None,
    encoding: Encoding = None,
    date_format: DateFormat = None,
    sheet: Sheet = None,
    all_sheets: AllSheets = False,
    header_row: HeaderRow = None,
    policies: Policies = None,
    skip_invalid: SkipInvalid = False,
    allow_empty: AllowEmpty = False,
    column: ColumnMap = None,
    ignore_column: IgnoreColumn = None,
    hidden_rows: HiddenRowsOption = None,
    layout: LayoutOption = None,
    property_id: GridProperty = None,
    rate_id: GridRate = None,
) -> InputOptions:
    """How the files are read and what an invalid row does."""
    return InputOptions(
        format=input_format,
        encoding=encoding,
        date_format=date_format,
        sheets=tuple(sheet or ()),
        all_sheets=all_sheets,
        header_row=header_row,
        policies=policies,
        skip_invalid=skip_invalid,
        allow_empty=allow_empty,
        columns=tuple(column or ()),
        ignore_columns=tuple(ignore_column or ()),
        hidden_rows=hidden_rows,
        layout=layout,
        property_id=property_id,
        rate_id=rate_id,
    )


@shows(SHOWN)
def plan_options(
    today: Today = None,
    no_merge: NoMerge = False,
    overlaps: OverlapsOption = Overlaps.ERROR,
    batch_size: BatchSize = None,
    changed_only: ChangedOnly = False,
    data_form: DataForm = None,
    force: Force = False,
) -> PlanOptions:
    """How rows become records and requests."""
    return PlanOptions(
        today=today,
        merge=not no_merge,
        overlaps=overlaps,
        batch_size=batch_size,
        changed_only=changed_only,
        data_form=data_form,
        force=force,
    )


@shows(SHOWN)
def send_tuning(
    concurrency: Concurrency = None,
    rate: Rate = None,
    timeout: Timeout = None,
    retries: Retries = None,
    rate_per_property: RatePerProperty = None,
) -> SendTuning:
    """How requests are sent: in flight at once, per second, per property, how long, how many tries."""
    return SendTuning(
        concurrency=concurrency, rate=rate, timeout=timeout, retries=retries, rate_per_property=rate_per_property
    )


def connection_options(
    sandbox: Sandbox = False,
    profile: Profile = None,
    config: Config = None,
    base_url: BaseUrl = None,
    source_id: SourceId = None,
    api_key_file: ApiKeyFile = None,
    path_segment: PathSegment = None,
) -> ConnectionOptions:
    """Where to push: the built-in sandbox, or the flags over the environment over the profile."""
    connection = ConnectionOptions(
        sandbox=sandbox,
        profile=profile,
        config=config,
        base_url=base_url,
        source_id=source_id,
        api_key_file=api_key_file,
        path_segment=path_segment,
    )
    if given := connection.beside_sandbox():
        flags = " and ".join("--" + name.replace("_", "-") for name in given)
        raise UsageProblem(
            f"--sandbox pushes to the built-in sandbox, so {flags} would be ignored",
            "give --sandbox to try against the built-in sandbox, or the connection flags to push to a service; "
            "not both",
        )
    return connection


def guard_options(
    max_changed: MaxChanged = None,
    max_cleared: MaxCleared = None,
    min_coverage: MinCoverage = None,
    max_step: MaxStep = None,
    override_guards: OverrideGuards = False,
) -> GuardOptions:
    """Guards for unattended pushes (None: the profile's, if any), and whether to pass them all."""
    return GuardOptions(
        max_changed=max_changed,
        max_cleared=max_cleared,
        min_coverage=min_coverage,
        max_step=max_step,
        override=override_guards,
    )
