"""`ari_cli.push()`: a push from Python, through the same use case as `ari-cli OPERATION push`.

The keyword arguments are the command's options, checked as the command line checks them, and become the
same typed option objects (`app/options.py`); the run goes through `app/push.py` and the one pipeline. Nothing
is printed unless `output` asks for the run to be shown as the command shows it.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import os
import sys
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from enum import StrEnum
from pathlib import Path
from typing import Any, Literal, TypeVar

from ari_cli.api_run import Run
from ari_cli.app.options import (
    ConnectionOptions,
    GuardOptions,
    HiddenRows,
    InputFormat,
    InputOptions,
    Layout,
    OutputFormat,
    OutputOptions,
    Overlaps,
    PlanOptions,
    PushRequest,
    SendTuning,
    Show,
)
from ari_cli.app.world import World
from ari_cli.exits import AriError, Interrupted, UsageProblem
from ari_cli.pushing import pushed_or_stopped, show_pushed, shown_pushed
from ari_cli.render.push import run as render
from ari_cli.render.push.outcome import write_run_report
from ari_cli.render.terminal import Terminal
from ari_cli.wire.operations import Operation, segment_problem

PathArg = str | os.PathLike[str]
E = TypeVar("E", bound=StrEnum)

# The choices, spelled as the command line spells them, so a type checker rejects what the command would
# (`tests/test_api_types.py` holds them equal to the enums the commands offer).
OperationName = Literal["threshold", "maxadv", "policy"]
InputFormatName = Literal["csv", "json", "jsonl"]
OverlapsName = Literal["error", "last-wins"]
DataFormName = Literal["list", "object"]
OutputName = Literal["table", "json", "csv"]
ShowName = Literal["all", "failed"]
HiddenRowsName = Literal["skip", "include"]
LayoutName = Literal["rows", "dates-across", "rooms-across"]


def push(
    operation: OperationName,
    files: PathArg | Iterable[PathArg] | None = None,
    rows: Iterable[Mapping[str, Any]] | None = None,
    *,
    dry_run: bool = False,
    sandbox: bool = False,
    profile: str | None = None,
    journal: bool = True,
    config: PathArg | None = None,
    base_url: str | None = None,
    source_id: str | None = None,
    api_key: str | None = None,
    api_key_file: PathArg | None = None,
    path_segment: str | None = None,
    input_format: InputFormatName | None = None,
    encoding: str | None = None,
    date_format: str | None = None,
    sheet: str | Sequence[str] | None = None,
    all_sheets: bool = False,
    header_row: int | None = None,
    policies: PathArg | None = None,
    columns: Mapping[str, str] | None = None,
    ignore_columns: Sequence[str] = (),
    hidden_rows: HiddenRowsName | None = None,
    layout: LayoutName | None = None,
    property_id: str | None = None,
    rate_id: str | None = None,
    allow_empty: bool = False,
    skip_invalid: bool = False,
    today: dt.date | str | None = None,
    merge: bool = True,
    overlaps: OverlapsName = "error",
    changed_only: bool = False,
    force: bool = False,
    batch_size: int | None = None,
    data_form: DataFormName | None = None,
    concurrency: int | None = None,
    rate: float | None = None,
    timeout: float | None = None,
    retries: int | None = None,
    rate_per_property: str | None = None,
    report: PathArg | None = None,
    output: OutputName | None = None,
    show: ShowName | None = None,
    curl: bool = False,
    quiet: bool = False,
    verbose: bool = False,
    max_changed: int | str | None = None,
    max_cleared: int | str | None = None,
    min_coverage: float | str | None = None,
    max_step: int | str | None = None,
    override_guards: bool = False,
) -> Run:
    """Push `files` and/or `rows` for `operation` ("threshold", "maxadv" or "policy"); the run's results.

    Each keyword is the push command's option of that name (`--no-merge` is `merge=False`, `--no-journal`
    is `journal=False`, `--format` is `input_format`, `--column F=H` is `columns={"F": "H"}`, `--sheet A
    --sheet B` is `sheet=["A", "B"]`, `--property P` is `property_id="P"`, `--rate-id R` is `rate_id="R"`);
    `api_key` gives the key itself, over ARI_API_KEY and the profile.
    Tuning left at None takes the profile's value, else the command's default. `rows` are mappings read as
    a JSON list of objects is (names, aliases and API bodies alike), after the files; a row's `line` is its
    place in the list, from 1.

    Returns the Run, whose `exit_code` is the command's: 0 all ok, 1 a row failed, 3 invalid rows (nothing
    sent). Raises an `AriError` (`.exit_code`, `.message`, `.hint`) when the run stops before it has
    results: unreadable input (InputError, 3), configuration (ConfigError, 4), options (UsageProblem, 2),
    an interrupt (Interrupted, 130; with `.run` once sending began), a guard that tripped (GuardTripped, 5:
    `max_changed=10` or `"5%"`, `max_cleared`, `min_coverage="90%"`, `max_step=20`, as the flags and the
    profile's settings; `override_guards=True` pushes anyway).

    Nothing is printed unless `output` ("table", "json" or "csv") asks for the run on stdout as the
    command shows it, with its messages on stderr (`show`, `curl`, `quiet` and `verbose` apply to it).
    """
    _flags(dry_run=dry_run, sandbox=sandbox, journal=journal, allow_empty=allow_empty, skip_invalid=skip_invalid,
           all_sheets=all_sheets,
           merge=merge, changed_only=changed_only, curl=curl, quiet=quiet, verbose=verbose,
           override_guards=override_guards)  # fmt: skip
    request = PushRequest(
        operation=_choice("operation", operation, Operation),
        command=f"ari_cli.push({str(operation)!r})",
        files=_files(files),
        dry_run=dry_run,
        output=_output(output, report, show, curl, quiet, verbose, journal),
        inputs=InputOptions(
            format=None if input_format is None else _choice("input_format", input_format, InputFormat),
            encoding=_text("encoding", encoding),
            date_format=_text("date_format", date_format),
            sheets=_sheets(sheet),
            all_sheets=all_sheets,
            header_row=_header_row(header_row),
            policies=_path("policies", policies),
            skip_invalid=skip_invalid,
            allow_empty=allow_empty,
            columns=_columns(columns),
            ignore_columns=_names("ignore_columns", ignore_columns),
            hidden_rows=None if hidden_rows is None else _choice("hidden_rows", hidden_rows, HiddenRows),
            layout=None if layout is None else _choice("layout", layout, Layout),
            property_id=_text("property_id", property_id),
            rate_id=_text("rate_id", rate_id),
        ),
        plan=PlanOptions(
            today=_today(today),
            merge=merge,
            overlaps=_choice("overlaps", overlaps, Overlaps),
            batch_size=batch_size,
            changed_only=changed_only,
            data_form=data_form,
            force=force,
        ),
        sending=SendTuning(
            concurrency=concurrency,
            rate=rate,
            timeout=timeout,
            retries=retries,
            rate_per_property=_text("rate_per_property", rate_per_property),
        ),
        connection=ConnectionOptions(
            sandbox=sandbox,
            profile=_text("profile", profile),
            config=_path("config", config),
            base_url=_text("base_url", base_url),
            source_id=_text("source_id", source_id),
            api_key_file=_path("api_key_file", api_key_file),
            path_segment=_segment(path_segment),
            api_key=_key(api_key, api_key_file),
        ),
        objects=None if rows is None else _objects(rows),
        guards=_guards(max_changed, max_cleared, min_coverage, max_step, override=override_guards),
    )
    if not request.files and request.objects is None:
        raise UsageProblem("nothing to push: give files, rows, or both")
    if given := request.connection.beside_sandbox():
        named = " and ".join(f"{name}=" for name in given)
        raise UsageProblem(f"sandbox=True pushes to the built-in sandbox, so {named} would be ignored: give one")
    return _in_own_loop(lambda: _run(request, shown=output is not None))


def _run(request: PushRequest, shown: bool) -> Run:
    # The same steps as the command's (pushing.py), shown only when `output` asks.
    terminal = Terminal() if shown else Terminal.silent()
    pushed = pushed_or_stopped(request, terminal, _world(), terminal.err, to_stdout=shown)
    internal = pushed.run
    if shown:
        code = show_pushed(pushed, request, terminal.err)
    else:
        write_run_report(internal, shown_pushed(pushed, request), terminal.err)
        code = internal.exit_code()
    run = Run.of(pushed, code)
    stopped = render.stopped(internal)
    if stopped is not None:
        problem = Interrupted(stopped["message"], stopped["hint"])
        problem.run = run
        raise problem
    return run


def _in_own_loop(call: Callable[[], Run]) -> Run:
    """Run `call` here, or on a thread of its own when this thread runs an event loop (a notebook, an async
    program): sending runs a loop of its own, and a thread holds one loop at a time."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        looping = False
    else:
        looping = True
    if not looping:
        return call()
    outcome: list[Run] = []
    failure: list[BaseException] = []

    def work() -> None:
        try:
            outcome.append(call())
        except BaseException as problem:  # handed to the caller's thread as it is
            failure.append(problem)

    worker = threading.Thread(target=work, name="ari-cli-push")
    worker.start()
    worker.join()
    if failure:
        raise failure[0]
    return outcome[0]


def _choice(name: str, value: object, kind: type[E]) -> E:
    """`value` as one of `kind`'s values, or the UsageProblem that lists them."""
    if isinstance(value, str):
        try:
            return kind(value)
        except ValueError:
            pass
    allowed = ", ".join(repr(member.value) for member in kind)
    raise UsageProblem(f"{name}={value!r}: use one of {allowed}")


def _path(name: str, value: PathArg | None) -> Path | None:
    """A path keyword as a Path; anything but text or a path is a UsageProblem, not our traceback."""
    if value is None:
        return None
    if not isinstance(value, str | os.PathLike):
        raise UsageProblem(f"{name}={value!r:.60}: give a path, as text or a pathlib.Path")
    return Path(value)


def _text(name: str, value: str | None) -> str | None:
    """A text keyword; anything but text (or None) is a UsageProblem, not our traceback or a value taken as text."""
    if value is not None and not isinstance(value, str):
        raise UsageProblem(f"{name}={value!r:.60}: give text")
    return value


def _world() -> World:
    """The integrator's process as a use case sees it: its environment, its standard input (for a file `-`),
    and no terminal (a script's run never asks, whatever its streams are)."""
    return World(environ=os.environ, stdin=getattr(sys.stdin, "buffer", None))


def _files(files: PathArg | Iterable[PathArg] | None) -> tuple[Path, ...]:
    """The paths to read: one path, or several; `-` is standard input."""
    if files is None:
        return ()
    if isinstance(files, bytes):
        raise UsageProblem("files: give paths as text or Path objects, not bytes")
    if isinstance(files, str | os.PathLike):
        return (Path(files),)
    if not isinstance(files, Iterable):
        raise UsageProblem(f"files={files!r:.60}: give a path, or a list of paths")
    paths = tuple(files)
    odd = next((f for f in paths if not isinstance(f, str | os.PathLike)), None)
    if odd is not None:
        raise UsageProblem(f"files: {type(odd).__name__} {odd!r:.60} is not a path", "give rows as rows=[...]")
    return tuple(map(Path, paths))


def _objects(rows: Iterable[Mapping[str, Any]]) -> tuple[Any, ...]:
    if isinstance(rows, Mapping | str | bytes):
        raise UsageProblem("rows: give a list of rows (mappings of field to value), not one row")
    return tuple(rows)


def _output(
    output: str | None, report: PathArg | None, show: str | None, curl: bool, quiet: bool, verbose: bool, journal: bool
) -> OutputOptions:
    shown = None if output is None else _choice("output", output, OutputFormat)
    if shown is None and (show is not None or curl or verbose):
        raise UsageProblem(
            "show, curl and verbose say how a shown run looks: give output='table', 'json' or 'csv' too",
            "without output nothing is printed; the returned Run holds the rows, requests and summary",
        )
    return OutputOptions(
        format=shown or OutputFormat.TABLE,
        report=_path("report", report),
        show=None if show is None else _choice("show", show, Show),
        curl=curl,
        quiet=quiet,
        verbose=verbose,
        journal=journal,
    )


def _guards(*limits: float | str | None, override: bool) -> GuardOptions:
    """The guard arguments as the flags give them (`10`, `"5%"`), checked when the push runs."""
    changed, cleared, coverage, step = (None if limit is None else str(limit) for limit in limits)
    return GuardOptions(changed, cleared, coverage, step, override)


def _key(key: str | None, key_file: PathArg | None) -> str | None:
    if key is not None and key_file is not None:
        raise UsageProblem("give api_key or api_key_file, not both")
    if key is not None and not isinstance(key, str):
        raise UsageProblem("api_key: give the key as text")
    return key


def _flags(**given: object) -> None:
    """Each on/off argument is True or False: a truthy "no" would turn a push into a dry run, or not."""
    for name, value in given.items():
        if not isinstance(value, bool):
            raise UsageProblem(f"{name}={value!r:.60}: give True or False")


def _columns(value: Mapping[str, str] | None) -> tuple[str, ...]:
    """--column FIELD=HEADER from a mapping of field to the header that gives it."""
    if value is None:
        return ()
    if not isinstance(value, Mapping) or not all(isinstance(k, str) and isinstance(v, str) for k, v in value.items()):
        raise UsageProblem(f'columns={value!r:.60}: give a mapping of field to column name, e.g. {{"end": "Until"}}')
    return tuple(f"{name}={header}" for name, header in value.items())


def _names(name: str, value: Sequence[str]) -> tuple[str, ...]:
    """A sequence of column names (a lone string would be its letters)."""
    if isinstance(value, str) or not all(isinstance(item, str) for item in value):
        raise UsageProblem(f'{name}={value!r}: give a list of column names, e.g. ["Departure"]')
    return tuple(value)


def _sheets(value: str | Sequence[str] | None) -> tuple[str, ...]:
    """--sheet NAME, repeatable: one name, or a list of them."""
    if value is None:
        return ()
    if isinstance(value, str):
        return (value,)
    if not isinstance(value, Sequence) or not all(isinstance(item, str) for item in value):
        raise UsageProblem(f'sheet={value!r:.60}: give a sheet\'s name or a list of them, e.g. ["Hotel A", "Hotel B"]')
    return tuple(value)


def _header_row(value: int | None) -> int | None:
    if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
        raise UsageProblem(f"header_row={value!r}: give the row number of the column names, from 1")
    return value


def _today(value: dt.date | str | None) -> dt.date | None:
    if value is None or (isinstance(value, dt.date) and not isinstance(value, dt.datetime)):
        return value
    if isinstance(value, str):
        try:
            return dt.date.fromisoformat(value)
        except ValueError:
            pass
    raise UsageProblem(f"today={value!r}: give a date, or text of the form YYYY-MM-DD")


def _segment(value: str | None) -> str | None:
    _text("path_segment", value)
    if value is not None and (problem := segment_problem(value)) is not None:
        raise UsageProblem(f"path_segment: {problem}")
    return value


__all__ = ["AriError", "Run", "push"]
