"""`ari-cli replay`, `explain` and `errors`: tools for support staff who reproduce a partner's call.

Only Typer is imported here; the work loads when a command runs.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from ari_cli.cli.push import OutputFormat, with_push_options

REPLAY_SHARED = ("dry_run", "output", "curl", "quiet", "verbose", "today", "timeout")

REPLAY_HELP = """Send exact API request bodies, as a partner sent them, and say what the answers mean.

A FILE holds one request body (a JSON object), a list of them, or one per line. The operation comes from each body's [bold]action[/bold]. A missing [bold]sharepost[/bold] or [bold]sourceid[/bold], or the spec's placeholders <API_KEY> and <source_id>, are filled from the configuration, the rest of the body is sent exactly as written; --no-fill sends the file byte for byte. The bodies are not checked first: a broken body gets the service's own answer.

Each body is sent once (no retries). For each: the URL, the HTTP status, the raw answer, and its meaning from the spec's error table with what to check and whether a retry helps.

Exit codes: 0 every body accepted, 1 any failure, 3 a file that is not request bodies, 4 no configuration.

[bold]Examples[/bold]:

  ari-cli replay partner-call.json --sandbox
  ari-cli replay partner-call.json --no-fill --verbose
  ari-cli replay calls.jsonl --curl --dry-run
  ari-cli replay partner-call.json --output json
"""

EXPLAIN_HELP = """Explain an HTTP status or a body code of the push service, from the spec's error table.

The status only labels a failure; the body code says what failed. Some statuses carry another code (417 carries 440, 429 carries 452), and two codes come with two statuses each (453 with 423 and 426, 454 with 424 and 428).

[bold]Examples[/bold]:

  ari-cli explain 417
  ari-cli explain 453
  ari-cli explain 429 --output json
"""

ERRORS_HELP = """Print the spec's whole error table: status, body code, meaning, where it applies, retry, what to check.

[bold]Examples[/bold]:

  ari-cli errors
  ari-cli errors --output csv
"""

Output = Annotated[OutputFormat, typer.Option("--output", "-o", help="What goes to standard output.")]


@with_push_options(*REPLAY_SHARED)
def replay(
    files: Annotated[list[Path], typer.Argument(metavar="FILE", allow_dash=True, show_default=False, help="JSON files of request bodies (an object, a list, or one per line), or - for standard input.")],
    no_fill: Annotated[bool, typer.Option("--no-fill", help="Send each body byte for byte: no key or source id from the configuration.", rich_help_panel="Input")] = False,
    **options: Any,
) -> None:  # fmt: skip
    from ari_cli.app.replay_run import run_replay

    run_replay([str(f) for f in files], not no_fill, options)


def explain(
    codes: Annotated[list[str], typer.Argument(metavar="CODE", show_default=False, help="HTTP status or body code, e.g. 417 or 440; several may be given.")],
    output: Output = OutputFormat.TABLE,
) -> None:  # fmt: skip
    import json
    import sys

    from ari_cli.exits import UsageProblem
    from ari_cli.render import run as render
    from ari_cli.render import support as render_support
    from ari_cli.wire.explain import explain as explain_number
    from ari_cli.wire.explain import unknown_message

    items = []
    for text in codes:
        found = explain_number(int(text.strip())) if text.strip().isdigit() else None
        if found is None:
            raise UsageProblem(unknown_message(text), "ari-cli errors prints the whole table")
        items.append(found)
    if output is OutputFormat.TABLE:
        render_support.explanations(items, render.console())
    elif output is OutputFormat.JSON:
        json.dump(render_support.explanation_dicts(items), sys.stdout, ensure_ascii=False, indent=2)
        sys.stdout.write("\n")
    else:
        render_support.write_error_rows([row for item in items for row in item.rows], sys.stdout, "csv")


def errors(output: Output = OutputFormat.TABLE) -> None:
    import sys

    from ari_cli.render import run as render
    from ari_cli.render import support as render_support
    from ari_cli.wire.errors import ERROR_TABLE
    from ari_cli.wire.explain import SUCCESS_NOTE

    if output is OutputFormat.TABLE:
        out = render.console()
        render_support.error_table(ERROR_TABLE, out)
        out.print(SUCCESS_NOTE, markup=False)
    else:
        render_support.write_error_rows(ERROR_TABLE, sys.stdout, output.value)


def register(app: typer.Typer) -> None:
    """Add the support commands to the application."""
    app.command("replay", help=REPLAY_HELP, no_args_is_help=True)(replay)
    app.command("explain", help=EXPLAIN_HELP, no_args_is_help=True)(explain)
    app.command("errors", help=ERRORS_HELP)(errors)
