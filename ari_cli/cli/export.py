"""`ari-cli OPERATION export`: what the service holds, as the journal says, as a file push reads back."""

# Option declarations read best as one line each, as in push.py: a table of data.
# ruff: noqa: E501

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from ari_cli.choices import Layout
from ari_cli.cli.groups import only, takes
from ari_cli.cli.options import connection_options
from ari_cli.cli.values import choice
from ari_cli.operations import of
from ari_cli.wire.operations import Operation

if TYPE_CHECKING:
    from ari_cli.app.options import ConnectionOptions


def export_help(operation: Operation) -> str:
    """The export command's help, for the operation (its values named by its descriptor)."""
    descriptor = of(operation)
    op, many = descriptor.name, descriptor.words.many
    keys = "room and rate" if descriptor.has_rate else "room"
    named = (
        " A cell names a policy; a workbook defines every name in its policies sheet, a CSV file in a TOML file beside it (FILE.toml), in the --policies file's own form."
        if descriptor.structured
        else ""
    )
    back = (
        f"ari-cli {op} push export.csv --policies export.toml --changed-only"
        if descriptor.structured
        else f"ari-cli {op} push export.xlsx --changed-only"
    )
    return f"""Write the {many} the service acknowledged to this journal as a file to edit and push back.

The push API has no read call: the file holds what was acknowledged to this journal (the base URL and source id in effect, as for diff), never changes made elsewhere. Every {keys} of the properties given (all the journal knows for the service without --property), from --from (default today) to --to (default the last acknowledged date).

By default a grid: a row per {keys}, a column per date (a sheet per property in a workbook); --layout rows gives a row per run of equal values. A cell holds the value, n/a where it was cleared, and stays blank where nothing is known.{named}

The first sheet of a workbook (a CSV file's # lines) says which service, properties and window, when it was exported and the last run it reflects; push reads the file whole and skips it.

\f
[bold]Examples[/bold]:

  ari-cli {op} export export.xlsx --profile prod
  ari-cli {op} export export.csv --property HTL001 --from 2027-01-01 --to 2027-03-31 --layout rows
  {back}
"""


def export_command(operation: Operation) -> Callable[..., None]:
    """The export command of one operation: where to write, which properties and dates, and which service."""

    @takes(connection=only(connection_options, "profile", "config", "base_url", "source_id"))
    def export(
        path: Annotated[Path, typer.Argument(metavar="FILE.xlsx|FILE.csv", help="The file to write (replaced if it exists).", show_default=False)],
        *,
        properties: Annotated[list[str] | None, typer.Option("--property", metavar="P", help="Only this property; may be repeated. \\[default: every property the journal knows]", show_default=False)] = None,
        start: Annotated[str | None, typer.Option("--from", metavar="YYYY-MM-DD", help="First date (also today, today+N). \\[default: today]", show_default=False)] = None,
        end: Annotated[str | None, typer.Option("--to", metavar="YYYY-MM-DD", help="Last date. \\[default: the last acknowledged date]", show_default=False)] = None,
        layout: Annotated[Layout, typer.Option("--layout", **choice(Layout, metavar="dates-across|rows"), help="dates-across: a grid, a column per date; rows: a row per run of equal values.")] = Layout.DATES_ACROSS,
        connection: "ConnectionOptions",
        quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Nothing on standard error but errors and warnings.")] = False,
    ) -> None:  # fmt: skip
        from ari_cli.cli.doing.export import export as do

        do(
            operation=operation, path=path, properties=properties, start=start, end=end, layout=layout,
            connection=connection, quiet=quiet,
        )  # fmt: skip

    return export
