"""`ari-cli threshold|maxadv|policy push`: the options every push takes, declared once.

Only Typer is imported here; the pipeline loads when a push actually runs.
"""

from __future__ import annotations

import datetime as dt
import functools
import inspect
from collections.abc import Callable
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer

from ari_cli.wire.operations import Operation


class OutputFormat(StrEnum):
    TABLE = "table"
    JSON = "json"
    CSV = "csv"


class InputFormat(StrEnum):
    CSV = "csv"
    JSON = "json"
    JSONL = "jsonl"


class Form(StrEnum):
    LIST = "list"
    OBJECT = "object"


class Overlaps(StrEnum):
    ERROR = "error"
    LAST_WINS = "last-wins"


class Show(StrEnum):
    ALL = "all"
    FAILED = "failed"


_IN = "Input"
_PLAN = "Planning"
_SEND = "Sending"
_CONN = "Connection"
_OUT = "Output"


def _date(text: str) -> dt.date:
    try:
        return dt.date.fromisoformat(text)
    except ValueError:
        raise typer.BadParameter(f"{text!r} is not a date of the form YYYY-MM-DD") from None


def push_command(operation: Operation) -> Callable[..., None]:
    """The push command of one operation: the options every push takes."""

    def push(
        files: Annotated[
            list[Path],
            typer.Argument(
                metavar="FILE", allow_dash=True, show_default=False,
                help="CSV, JSON, JSONL or XLSX files, or - for standard input. Several files are one run.",
            ),
        ],
        dry_run: Annotated[bool, typer.Option("--dry-run", help="Read, validate and plan; print what would be sent; send nothing.", rich_help_panel=_OUT)] = False,
        output: Annotated[OutputFormat, typer.Option("--output", "-o", help="What goes to standard output.", rich_help_panel=_OUT)] = OutputFormat.TABLE,
        report: Annotated[Path | None, typer.Option("--report", metavar="PATH", help="Also write per-row results to PATH (.csv or .json).", rich_help_panel=_OUT)] = None,
        show: Annotated[Show | None, typer.Option("--show", help="Rows the table lists. \\[default: failed over 50 rows, else all]", show_default=False, rich_help_panel=_OUT)] = None,
        curl: Annotated[bool, typer.Option("--curl", help="Print each request as a bash-ready curl command, $ARI_API_KEY standing for the key: on standard output before the table, or on standard error with --output json or csv.", rich_help_panel=_OUT)] = False,
        quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Only errors on standard error.", rich_help_panel=_OUT)] = False,
        verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Show each HTTP exchange on standard error: method, URL, headers, body, status, answer and time, key masked.", rich_help_panel=_OUT)] = False,
        no_journal: Annotated[bool, typer.Option("--no-journal", help="Do not record this run in the journal (what history, retry and --changed-only read).", rich_help_panel=_OUT)] = False,
        input_format: Annotated[InputFormat | None, typer.Option("--format", help="Format of standard input (sniffed if not given).", rich_help_panel=_IN)] = None,
        encoding: Annotated[str | None, typer.Option("--encoding", metavar="NAME", help="Encoding of files that are not UTF-8, e.g. cp1252.", rich_help_panel=_IN)] = None,
        date_format: Annotated[str | None, typer.Option("--date-format", metavar="FMT", help="Layout of dates that are not ISO, in strptime codes, e.g. %d/%m/%Y.", rich_help_panel=_IN)] = None,
        sheet: Annotated[str | None, typer.Option("--sheet", metavar="NAME", help="Worksheet of .xlsx workbooks. \\[default: the first]", show_default=False, rich_help_panel=_IN)] = None,
        header_row: Annotated[int | None, typer.Option("--header-row", min=1, metavar="N", help="Row that holds the column names, when titles sit above it. \\[default: the first row with values]", show_default=False, rich_help_panel=_IN)] = None,
        policies: Annotated[Path | None, typer.Option("--policies", metavar="FILE", help="TOML file of named policies, which a policy file's policy column may name (policy push).", show_default=False, rich_help_panel=_IN)] = None,
        skip_invalid: Annotated[bool, typer.Option("--skip-invalid", help="Send the valid rows and report the invalid ones, instead of sending nothing.", rich_help_panel=_IN)] = False,
        today: Annotated[dt.date | None, typer.Option("--today", metavar="YYYY-MM-DD", parser=_date, help="The date taken as today. \\[default: the local date]", show_default=False, rich_help_panel=_PLAN)] = None,
        no_merge: Annotated[bool, typer.Option("--no-merge", help="Send records as read: no merging of adjacent equal ranges.", rich_help_panel=_PLAN)] = False,
        overlaps: Annotated[Overlaps, typer.Option("--overlaps", help="What overlapping ranges of one key with different values do.", rich_help_panel=_PLAN)] = Overlaps.ERROR,
        batch_size: Annotated[int, typer.Option("--batch-size", min=1, metavar="N", help="Most records in one request.", rich_help_panel=_PLAN)] = 50,
        changed_only: Annotated[bool, typer.Option("--changed-only", help="Send only the dates whose value differs from what the service last accepted, as the journal says (same base URL and source id).", rich_help_panel=_PLAN)] = False,
        data_form: Annotated[Form, typer.Option("--data-form", help="data (and cancellation) as a list, or a single object, one record per request.", rich_help_panel=_PLAN)] = Form.LIST,
        concurrency: Annotated[int, typer.Option("--concurrency", min=1, max=64, metavar="N", help="Requests in flight at once.", rich_help_panel=_SEND)] = 4,
        rate: Annotated[float, typer.Option("--rate", min=0, metavar="R", help="At most R requests per second (0 = no limit).", rich_help_panel=_SEND)] = 0,
        timeout: Annotated[float, typer.Option("--timeout", min=0.1, metavar="S", help="Seconds for one request.", rich_help_panel=_SEND)] = 30,
        retries: Annotated[int, typer.Option("--retries", min=0, max=20, metavar="N", help="Further tries after a transient failure.", rich_help_panel=_SEND)] = 3,
        sandbox: Annotated[bool, typer.Option("--sandbox", help="Start the built-in emulator in-process and push to it.", rich_help_panel=_CONN)] = False,
        profile: Annotated[str | None, typer.Option("--profile", metavar="NAME", help="Profile of the config file. \\[env: ARI_PROFILE] \\[default: default]", show_default=False, rich_help_panel=_CONN)] = None,
        config: Annotated[Path | None, typer.Option("--config", metavar="PATH", help="Config file. \\[env: ARI_CONFIG] \\[default: the user config file]", show_default=False, rich_help_panel=_CONN)] = None,
        base_url: Annotated[str | None, typer.Option("--base-url", metavar="URL", help="Service base URL. \\[env: ARI_BASE_URL]", show_default=False, rich_help_panel=_CONN)] = None,
        source_id: Annotated[str | None, typer.Option("--source-id", metavar="ID", help="Partner source id (cpb + 2 characters). \\[env: ARI_SOURCE_ID]", show_default=False, rich_help_panel=_CONN)] = None,
        api_key_file: Annotated[Path | None, typer.Option("--api-key-file", metavar="PATH", help="File holding the API key (or set ARI_API_KEY to the key itself).", show_default=False, rich_help_panel=_CONN)] = None,
        path_segment: Annotated[str | None, typer.Option("--path-segment", metavar="TEXT", help="Last path segment; may hold {action} and {propertyid}. \\[env: ARI_PATH_SEGMENT] \\[default: {action}]", show_default=False, rich_help_panel=_CONN)] = None,
    ) -> None:  # fmt: skip
        from ari_cli.app.push import run_push

        run_push(operation, {k: v for k, v in locals().items() if k != "operation"})

    return push


F = TypeVar("F", bound=Callable[..., None])


@functools.cache
def _push_parameters() -> dict[str, inspect.Parameter]:
    return dict(inspect.signature(push_command(Operation.THRESHOLD), eval_str=True).parameters)


def _panel(parameter: inspect.Parameter) -> str | None:
    return next((getattr(m, "rich_help_panel", None) for m in getattr(parameter.annotation, "__metadata__", ())), None)


def with_push_options(*names: str) -> Callable[[F], F]:
    """Give a command the named push options and every connection option, as declared above.

    The command takes its own parameters and `**options`; Typer reads the combined signature.
    """

    def declare(command: F) -> F:
        keyword = inspect.Parameter.KEYWORD_ONLY
        own = inspect.signature(command, eval_str=True).parameters.values()
        shared = [p for p in _push_parameters().values() if p.name in names or _panel(p) == _CONN]
        # Keyword-only, so that required options of the command may follow options with defaults.
        parameters = [p.replace(kind=keyword) for p in own if p.kind is not p.VAR_KEYWORD]
        parameters += [p.replace(kind=keyword) for p in shared]
        command.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
        return command

    return declare


def push_defaults() -> dict[str, Any]:
    """Every push option at its default: what run_push reads for options a command does not take."""
    return {name: None if p.default is p.empty else p.default for name, p in _push_parameters().items()}
