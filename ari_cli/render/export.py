"""An export written, said in one line on standard error (the file is the output)."""

from __future__ import annotations

from ari_cli.exportfile.exported import Exported
from ari_cli.operations import of
from ari_cli.render.values import plural


def said(exported: Exported) -> str:
    header = exported.header
    what = f"{of(header.operation).words.many} of {' '.join(header.properties)}"
    beside = f" (its policies in {exported.policies})" if exported.policies else ""
    reflects = dict(header.lines())["values"]
    return (
        f"wrote {exported.path}{beside}: {what}, {header.start} to {header.end}, "
        f"{plural(exported.keys, 'key')} with {plural(exported.values, 'known date')} ({reflects})"
    )
