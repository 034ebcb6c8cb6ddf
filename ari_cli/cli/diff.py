"""`ari-cli OPERATION diff`: what a push of the files would change, with the input options of push."""

from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated

import typer

from ari_cli.choices import DiffFormat, DiffShow
from ari_cli.cli.groups import only, takes
from ari_cli.cli.options import (
    Files,
    Quiet,
    connection_options,
    guard_options,
    input_options,
    plan_options,
)
from ari_cli.cli.values import choice
from ari_cli.wire.operations import Operation

if TYPE_CHECKING:
    from ari_cli.app.options import ConnectionOptions, GuardOptions, InputOptions, PlanOptions

# fmt: off
Output = Annotated[DiffFormat, typer.Option("--output", "-o", **choice(DiffFormat), help="What goes to standard output: html is one page with a calendar of the changes.", rich_help_panel="Output")]
ShowRanges = Annotated[DiffShow, typer.Option("--show", **choice(DiffShow), help="Ranges listed: those that would change (new, changed, cleared), or all of them (same too).", rich_help_panel="Output")]
ExitCodeFlag = Annotated[bool, typer.Option("--exit-code", help="Exit 1 when anything would change, 0 when nothing would (as git diff --exit-code).", rich_help_panel="Output")]
# fmt: on

CLEARED = "A value the file sets to n/a over a known value is cleared."


def diff_help(operation: Operation, name: str, example: str, cleared: str = CLEARED) -> str:
    """The diff command's help, with examples for the operation: its values `name`d in the plural, its example
    file, and how its values compare and clear (each command group says its own)."""
    op = operation.value
    return f"""Show what a push of the files would change at the service: the {name} of each property, room and dates, against what the service last acknowledged from this machine (the journal).

The files are read, checked and planned as push does them (the same input options, --today and today+N dates). Each planned range of dates is new (the journal knows nothing of it: never pushed from here, or only by pushes that failed), changed (before -> after), cleared or same. {cleared} Nothing is sent, and no key is needed: the base URL and source id (flags, environment or profile) say which service's acknowledgements to compare with.

--output json gives {{"operation", "summary", "changes": [{{"propertyid", "roomid", "rateid", "start", "end", "kind", "before", "after", "lines"}}]}}; --output csv the same ranges, one line each.

Guards (--max-changed, --max-cleared, --min-coverage, --max-step, or the profile's) are judged as a push would judge them: those that would trip are said on standard error, with their figure and limit; a diff still exits as it would.

\f

[bold]Examples[/bold]:

  ari-cli {op} diff {example} --profile prod
  ari-cli {op} diff {example} --profile prod --show all --output json
  ari-cli {op} diff {example} --profile prod --exit-code --output json > changes.json   # exit 1: something would change
"""


def diff_command(operation: Operation) -> Callable[..., None]:
    """The diff command of one operation: the input and planning options of push, and where to compare."""

    @takes(
        inputs=input_options,
        plan=only(plan_options, "today", "no_merge", "overlaps"),
        connection=only(connection_options, "profile", "config", "base_url", "source_id"),
        guards=only(guard_options, "max_changed", "max_cleared", "min_coverage", "max_step"),
    )
    def diff(
        files: Files,
        *,
        output: Output = DiffFormat.TABLE,
        show: ShowRanges = DiffShow.CHANGES,
        exit_code: ExitCodeFlag = False,
        quiet: Quiet = False,
        inputs: "InputOptions",
        plan: "PlanOptions",
        connection: "ConnectionOptions",
        guards: "GuardOptions",
    ) -> None:
        from ari_cli.cli.doing.diff import diff as do

        do(
            files=files,
            output=output,
            show=show,
            exit_code=exit_code,
            quiet=quiet,
            inputs=inputs,
            plan=plan,
            connection=connection,
            guards=guards,
            operation=operation,
        )

    return diff
