"""`ari_cli.export()`: write what the service acknowledged to this journal as a file push reads back, as
`ari-cli OPERATION export FILE` does. The use case is `app/export.py`; what it wrote is given as an `Export`."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from ari_cli.api import OperationName, PathArg, _choice, _path, _text, _world
from ari_cli.app.export import export as use_case
from ari_cli.app.options import ConnectionOptions, ExportRequest, Layout
from ari_cli.exits import UsageProblem
from ari_cli.render.terminal import Terminal
from ari_cli.wire.operations import Operation

LayoutName = Literal["dates-across", "rows"]


@dataclass(frozen=True, slots=True)
class Export:
    """An export written: the file (and a CSV export's policies file beside it), the service, properties and
    window it holds, the journal's last run it reflects, and how much it holds."""

    path: Path
    policies: Path | None
    operation: str
    base_url: str
    source_id: str
    properties: tuple[str, ...]
    start: dt.date
    end: dt.date
    run: int | None
    """The journal's last run whose acknowledgements the file reflects: a later push's dates are conflicts."""
    run_at: str | None
    exported: dt.datetime
    layout: str
    keys: int
    values: int
    """Dates with a value (or n/a) in the file."""


def export(
    operation: OperationName,
    path: PathArg,
    *,
    properties: Sequence[str] = (),
    start: dt.date | str | None = None,
    end: dt.date | str | None = None,
    layout: LayoutName = "dates-across",
    profile: str | None = None,
    config: PathArg | None = None,
    base_url: str | None = None,
    source_id: str | None = None,
) -> Export:
    """Write the export: the keyword arguments are `ari-cli OPERATION export`'s options. Raises an `AriError` as
    the command exits: nothing known in the window (1), a bad option (UsageProblem, 2), no service (ConfigError, 4)."""
    where = _path("path", path)
    assert where is not None
    request = ExportRequest(
        operation=_choice("operation", operation, Operation),
        path=where,
        properties=_properties(properties),
        start=_day("start", start),
        end=_day("end", end),
        layout=_choice("layout", layout, Layout),
        connection=ConnectionOptions(
            profile=_text("profile", profile), config=_path("config", config), base_url=_text("base_url", base_url),
            source_id=_text("source_id", source_id),
        ),
    )  # fmt: skip
    done = use_case(request, Terminal.silent(), _world())
    header = done.header
    return Export(
        done.path, done.policies, header.operation, header.base_url, header.source_id, header.properties,
        header.start, header.end, header.run, header.run_at, header.exported, done.layout.value, done.keys,
        done.values,
    )  # fmt: skip


def _day(name: str, value: dt.date | str | None) -> str | None:
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, dt.date) and not isinstance(value, dt.datetime):
        return value.isoformat()
    raise UsageProblem(f"{name}={value!r:.60}: give a date, or text such as 2027-01-01 or today+7")


def _properties(value: Sequence[str]) -> tuple[str, ...]:
    """Property ids (a lone string would be its letters)."""
    if isinstance(value, str) or not all(isinstance(item, str) for item in value):
        raise UsageProblem(f'properties={value!r:.60}: give a list of property ids, e.g. ["HTL001"]')
    return tuple(value)
