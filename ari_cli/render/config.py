"""Showing the configuration: the settings in effect with their sources, and the profiles of a config file.

Aligned columns, as plain text for pipes and files; at a terminal too narrow for a row of them, each row is a
short block instead (`console.blocks`), so that a long URL or path is never broken across the columns.
Everything shown comes from a file the user may not have written (a profile's name is any TOML key): its control
characters are shown escaped (`printable`), as in every table.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import Any

import typer
from rich.cells import cell_len
from rich.console import Console
from rich.text import Text

from ari_cli.config.secrets import scrub
from ari_cli.render.console import blocks, console, fits_text
from ari_cli.render.printable import json_printable, printable


def aligned(rows: Sequence[Sequence[str]]) -> str:
    """Rows as columns two spaces apart, the last column ragged."""
    widths = [max(cell_len(row[i]) for row in rows) for i in range(len(rows[0]) - 1)]
    lines = ("  ".join([*(c + " " * (w - cell_len(c)) for c, w in zip(r, widths, strict=False)), r[-1]]) for r in rows)
    return "\n".join(line.rstrip() for line in lines)


def _labelled(pairs: Sequence[tuple[str, str]], out: Console) -> None:
    """`label  value` lines, aligned; where one would not fit, the same as one block whose values wrap."""
    pairs = [(label, printable(scrub(value))) for label, value in pairs]
    text = aligned(pairs)
    if fits_text(text, out.width):
        out.print(text, markup=False, highlight=False)
    else:
        blocks([label for label, _ in pairs], [[Text(value) for _, value in pairs]], out)


def _text(value: Any) -> str:
    if value is None:
        return "-"
    return f"{value:g}" if isinstance(value, float) else str(value)


def settings(doc: dict[str, Any], out: Console) -> None:
    """`config show`: the config file and profile, each setting with its value and source, the column mapping."""
    found = "" if doc["config_file_found"] else "; not found"
    where = "" if doc["profile_found"] else "; not in the file"
    file = f"{doc['config_file_shown']} ({doc['config_file_source']}{found})"
    profile = f"{doc['profile']} ({doc['profile_source']}{where})"
    _labelled([("config file", file), ("profile", profile)], out)
    out.print()
    values = {n: (printable(scrub(_text(s["value"]))), printable(s["source"])) for n, s in doc["settings"].items()}
    text = aligned([["setting", "value", "source"], *([name, *shown] for name, shown in values.items())])
    if fits_text(text, out.width):
        out.print(text, markup=False, highlight=False)
    else:  # each setting on a line of its own, its source beside the value, as the file and profile are shown
        blocks(list(values), [[Text(f"{value} ({source})") for value, source in values.values()]], out)
    if doc["columns"]:
        out.print()
        mapped = [(printable(name), printable(f'"{header}"')) for name, header in doc["columns"].items()]
        text = aligned([("column", "header"), *mapped])
        if fits_text(text, out.width):
            out.print(text, markup=False, highlight=False)
        else:
            blocks([name for name, _ in mapped], [[Text(header) for _, header in mapped]], out)


def profiles(listed: Sequence[dict[str, Any]], out: Console) -> None:
    """`config profiles`: each profile's base URL, source id and where its key comes from; `*` the one in use."""
    rows = [
        [printable(scrub(cell or "-")) for cell in (p["name"], p["base_url"], p["source_id"], p["key"])] for p in listed
    ]
    text = aligned(
        [
            ["", "profile", "base_url", "source_id", "key"],
            *(["*" if p["in_use"] else "", *row] for p, row in zip(listed, rows, strict=True)),
        ]
    )
    if fits_text(text, out.width):
        out.print(text, markup=False, highlight=False)
    else:
        headers = ["profile", "base_url", "source_id", "key"]
        blocks(
            headers,
            [
                [Text(name + (" (in use)" if p["in_use"] else "")), *map(Text, rest)]
                for p, (name, *rest) in zip(listed, rows, strict=True)
            ],
            out,
        )


def show_settings(document: dict[str, Any], form: str) -> None:
    """`config show`: the settings in effect as a table, or one JSON document (with `problem`)."""
    if form == "json":
        _json(document)
    else:
        settings({k: v for k, v in document.items() if k != "problem"}, console())


def show_profiles(path: str, listed: list[dict[str, Any]], form: str) -> None:
    """`config profiles`: the profiles as a table, or one JSON document."""
    if form == "json":
        _json({"config_file": path, "profiles": listed})
    elif listed:
        profiles(listed, console())


def show_saved(profile: str, path: str, replaced: bool) -> None:
    """`config init`: what was saved, and how to check it."""
    verb = "Replaced" if replaced else "Saved"
    typer.echo(f"{verb} profile {profile!r} in {path} (readable only by you).")
    use = "" if profile == "default" else f" --profile {profile}"
    typer.echo(f"Check it with: ari-cli config show{use}")


def _json(document: dict[str, Any]) -> None:
    text = scrub(json.dumps(document, indent=2, ensure_ascii=False))
    # At a terminal, the characters JSON leaves raw (DEL, C1, bidi) as JSON escapes: the same document.
    typer.echo(json_printable(text) if sys.stdout.isatty() else text)
