"""`ari-cli samples DIR`: write the sample files that the README and the help's examples use."""

from pathlib import Path
from typing import Annotated

import typer

from ari_cli.choices import ViewFormat
from ari_cli.cli.helptext import HelpCommand
from ari_cli.cli.values import choice

HELP = """Write the sample files (thresholds, max advance booking and policies, as CSV, JSON, JSONL and Excel) into DIR.

Every example that names samples/... runs once they are written: from an installed copy, write them first.

\f
[bold]Examples[/bold]:

  ari-cli samples samples
  ari-cli threshold push samples/threshold.csv --sandbox
"""


def samples(
    directory: Annotated[Path, typer.Argument(metavar="DIR", help="Folder to write them into (made if missing).", show_default=False)],
    force: Annotated[bool, typer.Option("--force", help="Overwrite sample files already in DIR.")] = False,
    output: Annotated[ViewFormat, typer.Option("--output", "-o", **choice(ViewFormat), help="The files written, a path a line, or one JSON document.")] = ViewFormat.TABLE,
) -> None:  # fmt: skip
    from ari_cli.cli.doing.samples import samples as do

    do(directory=directory, force=force, output=output)


# The command alone, as the root loads it when asked for it (cli/__init__.py).
app = typer.Typer(add_completion=False)
app.command("samples", help=HELP, cls=HelpCommand, no_args_is_help=True)(samples)
