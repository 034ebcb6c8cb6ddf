"""What a push's options come to: the settings in effect (flags over environment over profile over
defaults), the tuning options, the column mapping, and the pipeline's options built from them."""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Mapping, Sequence
from contextlib import suppress
from pathlib import Path
from typing import Any

from ari_cli.app.options import ConnectionOptions, InputOptions, PlanOptions, PushRequest
from ari_cli.choices import Layout
from ari_cli.config.file import read_config
from ari_cli.config.settings import Settings, Tuned, config_location, profile_key_file
from ari_cli.exits import AriError, ConfigError, ReportRefused, UsageProblem
from ari_cli.inputs import ReadOptions
from ari_cli.inputs.model import GridOptions, ReadMeter
from ari_cli.inputs.names import column_mapping
from ari_cli.journal.place import journal_path
from ari_cli.operations import DESCRIPTORS, of
from ari_cli.pipeline import PushOptions
from ari_cli.planning.batch import DataForm
from ari_cli.send.exchange import SendOptions
from ari_cli.wire.operations import Operation


def send_options(tuned: Tuned) -> SendOptions:
    """How the sender sends, from the tuning in effect."""
    return SendOptions(concurrency=tuned.concurrency, rate=tuned.rate, timeout=tuned.timeout, retries=tuned.retries,
                       per_property=tuned.per_property)  # fmt: skip


def protected_files(connection: ConnectionOptions, environ: Mapping[str, str]) -> list[tuple[str, Path]]:
    """The files a run reads or keeps, which `--report` must never overwrite: the key file, the config file
    (and the key file its profile names), the journal and everything beside it named after it (its notes)."""
    config, _ = config_location(connection.config, environ)
    protected = [("the config file", config)]
    if connection.api_key_file is not None:
        protected.append(("the key file", connection.api_key_file.expanduser()))
    with suppress(AriError, OSError, ValueError):
        if config.exists():
            profiles = read_config(config).profiles
            for profile in profiles.values():
                if "api_key_file" in profile:
                    protected.append(("a key file of the config", profile_key_file(profile, config.parent)))
    journal = journal_path(environ)
    protected.append(("the journal or a note beside it", journal.with_name(journal.name + "*")))
    return protected


def _policies(operation: Operation, request: PushRequest) -> str | None:
    path = request.inputs.policies
    if path is not None and not of(operation).takes_named:
        named = " and ".join(d.name for d in DESCRIPTORS.values() if d.takes_named)
        raise UsageProblem(f"--policies {path}: named policies are for {named} push only")
    return None if path is None else str(path)


def _grid(operation: Operation, inputs: InputOptions) -> GridOptions:
    """How the files' grids are read; --property and --rate-id refused where no grid can take them."""
    given = [flag for flag, value in (("--property", inputs.property_id), ("--rate-id", inputs.rate_id)) if value]
    if given and inputs.layout is Layout.ROWS:
        raise UsageProblem(
            f"{' and '.join(given)} cannot be given with --layout rows: they give what a grid has no column for",
            hint="give the property (and rate) in a column of each row, or read the file as a grid",
        )
    if inputs.rate_id and not of(operation).has_rate:
        raise UsageProblem(f"--rate-id {inputs.rate_id}: {operation.value} is set per room, not per rate")
    return GridOptions(
        layout=None if inputs.layout is None else inputs.layout.value,
        property_id=inputs.property_id,
        rate_id=inputs.rate_id,
        date_format=inputs.date_format,
    )


def _options(
    request: PushRequest, tuned: Tuned, profile_columns: Mapping[str, str], profile_ignored: tuple[str, ...] = ()
) -> PushOptions:
    files = tuple(str(f) for f in request.files)
    if files.count("-") > 1:
        raise UsageProblem("standard input (-) can be read only once")
    inputs, plan = request.inputs, request.plan
    if inputs.sheets and inputs.all_sheets:
        raise UsageProblem(
            "--sheet and --all-sheets cannot be given together",
            hint="give --sheet NAME for each sheet, or --all-sheets",
        )
    grid = _grid(request.operation, inputs)
    return PushOptions(
        operation=request.operation,
        files=files,
        today=plan.today or dt.date.today(),
        read=ReadOptions(
            format=inputs.format.value if inputs.format else None,
            encoding=inputs.encoding,
            sheets=inputs.sheets,
            all_sheets=inputs.all_sheets,
            header_row=inputs.header_row,
            allow_empty=inputs.allow_empty,
            columns=_mapping(request.operation, inputs.columns, profile_columns),
            ignore_columns=(*profile_ignored, *inputs.ignore_columns),
            ignore_named=tuple(inputs.ignore_columns),
            hidden_rows=None if inputs.hidden_rows is None else inputs.hidden_rows.value,
            grid=grid,
            meter=ReadMeter(),
        ),
        date_format=inputs.date_format,
        policies=_policies(request.operation, request),
        merge=plan.merge,
        last_wins=plan.overlaps.value == "last-wins",
        batch_size=tuned.batch_size,
        data_form=DataForm(tuned.data_form),
        skip_invalid=inputs.skip_invalid,
        changed_only=plan.changed_only,
        force=plan.force,
        dry_run=request.dry_run,
        send=send_options(tuned),
    )


def push_options(request: PushRequest, settings: Settings) -> PushOptions:
    """The pipeline's options of a push (or of a diff of one), as the command line and the settings give them."""
    return _options(request, settings.tuned, settings.columns, settings.ignore_columns)


def _mapping(operation: Operation, given: tuple[str, ...], profile: Mapping[str, str]) -> tuple[tuple[str, str], ...]:
    """The profile's columns, then --column flags over them field by field."""
    try:
        from_profile = column_mapping(operation, [f"{name}={header}" for name, header in profile.items()])
    except ValueError as problem:
        raise ConfigError(
            f"the profile's columns: {problem}", "fix [profiles.NAME.columns] in the config file"
        ) from None
    try:
        return tuple({**from_profile, **column_mapping(operation, given)}.items())
    except ValueError as problem:
        raise UsageProblem(f"--column: {problem}") from None


def recorded_options(
    plan: PlanOptions, inputs: InputOptions, connection: ConnectionOptions, tuned: Tuned, today: dt.date
) -> dict[str, Any]:
    """The options a run's journal entry keeps (those left unset are left out)."""
    kept: dict[str, Any] = {
        "batch_size": tuned.batch_size, "data_form": tuned.data_form, "no_merge": not plan.merge,
        "overlaps": plan.overlaps, "skip_invalid": inputs.skip_invalid, "changed_only": plan.changed_only,
        "concurrency": tuned.concurrency, "rate": tuned.rate, "timeout": tuned.timeout, "retries": tuned.retries,
        "rate_per_property": tuned.rate_per_property or None,
        "sandbox": connection.sandbox, "path_segment": connection.path_segment,
        "date_format": inputs.date_format, "encoding": inputs.encoding, "today": today.isoformat(),
    }  # fmt: skip
    return {k: (v.value if hasattr(v, "value") else v) for k, v in kept.items() if v is not None}


SUFFIXES = (".csv", ".json", ".html")


def check_report(path: Path, files: Sequence[str], connection: ConnectionOptions, environ: Mapping[str, str]) -> None:
    """Refuse, before anything is read or sent, a report path that cannot be written or would overwrite a file
    the run needs: an input, or one of `protected_files`: the key file, the config, the journal.

    Through links and other spellings of a path: the same file on disk, or the same path once resolved (for a
    report that does not exist yet, or a link to where a protected file would be)."""
    if path.is_dir():
        raise ReportRefused(f"--report {path}: is a folder", f"name a file in it, e.g. {path / 'report.csv'}")
    if path.suffix.lower() not in SUFFIXES:
        raise ReportRefused(f"--report {path}: give a path ending in .csv, .json or .html")
    folder = path.absolute().parent
    if not folder.is_dir():
        raise ReportRefused(
            f"--report {path}: the folder {folder} does not exist", "create the folder, or choose another path"
        )
    if not os.access(folder, os.W_OK | os.X_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise ReportRefused(f"--report {path}: permission denied", "choose a path you can write to")
    named = [("one of the input files", Path(name)) for name in files if name != "-"]
    for what, other in [*named, *protected_files(connection, environ)]:
        if _same(path, other):
            raise ReportRefused(
                f"--report {path} is {what} ({other}): the report would overwrite it",
                "choose another path for the report",
            )


def _same(report: Path, other: Path) -> bool:
    with suppress(OSError):
        if report.exists() and other.exists() and os.path.samefile(report, other):
            return True
    resolved = os.path.normcase(os.path.realpath(report))
    if other.name.endswith("*"):  # a family of files beside each other (the journal and its notes)
        where = os.path.normcase(os.path.realpath(other.parent))
        return os.path.dirname(resolved) == where and os.path.basename(resolved).startswith(other.name[:-1])
    return resolved == os.path.normcase(os.path.realpath(other))
