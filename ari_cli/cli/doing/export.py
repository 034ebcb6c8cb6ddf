"""What `export`'s commands do once their options are parsed (the commands are declared in cli/export.py)."""

from __future__ import annotations

from pathlib import Path

from ari_cli.app.export import export as export_of
from ari_cli.app.options import ConnectionOptions, ExportRequest, Layout
from ari_cli.cli.world import process_world
from ari_cli.render.export import said
from ari_cli.render.terminal import Terminal
from ari_cli.wire.operations import Operation


def export(
    *,
    operation: Operation,
    path: Path,
    properties: list[str] | None,
    start: str | None,
    end: str | None,
    layout: Layout,
    connection: ConnectionOptions,
    quiet: bool,
) -> None:
    request = ExportRequest(operation, path, tuple(properties or ()), start, end, layout, connection)
    terminal = Terminal(quiet=quiet)
    terminal.say(said(export_of(request, terminal, process_world())))
