"""`ari-cli replay`, `explain` and `errors`: tools for support staff who reproduce a partner's call."""

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from ari_cli.choices import OutputFormat
from ari_cli.cli.groups import only, takes
from ari_cli.cli.helptext import HelpCommand
from ari_cli.cli.options import DryRun, connection_options, output_options, plan_options, send_tuning
from ari_cli.cli.values import choice

if TYPE_CHECKING:
    from ari_cli.app.options import ConnectionOptions, OutputOptions, PlanOptions, SendTuning

REPLAY_HELP = """Send exact API request bodies, as a partner sent them, and say what the answers mean.

A FILE holds one request body (a JSON object), a list of them, or one per line. The operation comes from each body's [bold]action[/bold]. A missing [bold]sharepost[/bold] or [bold]sourceid[/bold], or the spec's placeholders <API_KEY> and <source_id>, are filled from the configuration, the rest of the body is sent exactly as written; --no-fill sends the file byte for byte. The bodies are not checked first: a broken body gets the service's own answer.

Each body is sent once (no retries). For each: the URL, the HTTP status, the raw answer, and its meaning from the spec's error table with what to check and whether a retry helps.

A replay is journaled as a push is (--no-journal: not): each body, its answer and the dates it set, so `ari-cli calendar`, `history find` and `--changed-only` know what it changed.

\f
[bold]Examples[/bold]:

  ari-cli replay partner-call.json --sandbox
  ari-cli replay partner-call.json --no-fill --verbose
  ari-cli replay calls.jsonl --curl --dry-run
  ari-cli replay partner-call.json --output json
"""

EXPLAIN_HELP = """Explain an HTTP status or a body code of the push service, from the spec's error table.

The status only labels a failure; the body code says what failed. Some statuses carry another code (417 carries 440, 429 carries 452), and two codes come with two statuses each (453 with 423 and 426, 454 with 424 and 428).

Gateways in front of the service answer 401, 403, 413 and 429 with bodies that are not the service's JSON; those are explained apart from the spec's table.

A code may be given as it is quoted: 416, "HTTP 416", HTTP/1.1 416, "code 440".

\f
[bold]Examples[/bold]:

  ari-cli explain 417
  ari-cli explain 453
  ari-cli explain 429 --output json
  ari-cli explain 413
  ari-cli explain "HTTP 416"
"""

ERRORS_HELP = """Print the spec's whole error table: status, body code, meaning, where it applies, retry, what to check.

\f
[bold]Examples[/bold]:

  ari-cli errors
  ari-cli errors --output csv
"""

Output = Annotated[
    OutputFormat, typer.Option("--output", "-o", **choice(OutputFormat), help="What goes to standard output.")
]


@takes(
    output=only(output_options, "output", "curl", "quiet", "verbose", "no_journal"),
    plan=only(plan_options, "today"),
    sending=only(send_tuning, "timeout", "rate_per_property"),
    connection=connection_options,
)
def replay(
    ctx: typer.Context,
    files: Annotated[list[Path], typer.Argument(metavar="FILE", allow_dash=True, show_default=False, help="JSON files of request bodies (an object, a list, or one per line), or - for standard input.")],
    *,
    no_fill: Annotated[bool, typer.Option("--no-fill", help="Send each body byte for byte: no key or source id from the configuration.", rich_help_panel="Input")] = False,
    dry_run: DryRun = False,
    output: "OutputOptions",
    plan: "PlanOptions",
    sending: "SendTuning",
    connection: "ConnectionOptions",
) -> None:  # fmt: skip
    from ari_cli.cli.doing.support import replay as do

    do(
        ctx=ctx,
        files=files,
        no_fill=no_fill,
        dry_run=dry_run,
        output=output,
        plan=plan,
        sending=sending,
        connection=connection,
    )


def explain(
    codes: Annotated[list[str], typer.Argument(metavar="CODE", show_default=False, help="HTTP status or body code, e.g. 417, 440 or \"HTTP 416\"; several may be given.")],
    output: Output = OutputFormat.TABLE,
) -> None:  # fmt: skip
    from ari_cli.cli.doing.support import explain as do

    do(codes=codes, output=output)


def errors(output: Output = OutputFormat.TABLE) -> None:
    from ari_cli.cli.doing.support import errors as do

    do(output=output)


# Each command alone, as the root loads it when asked for it (cli/__init__.py).
replay_app = typer.Typer(add_completion=False)
replay_app.command("replay", help=REPLAY_HELP, cls=HelpCommand, no_args_is_help=True)(replay)
explain_app = typer.Typer(add_completion=False)
explain_app.command("explain", help=EXPLAIN_HELP, cls=HelpCommand, no_args_is_help=True)(explain)
errors_app = typer.Typer(add_completion=False)
errors_app.command("errors", help=ERRORS_HELP, cls=HelpCommand)(errors)
