"""What `explain`, `errors` and `policy describe` do: the spec's error table and named policies, in words."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import typer

from ari_cli.app.options import OutputFormat
from ari_cli.exits import InputError, UsageProblem
from ari_cli.records.named import find, load_policies
from ari_cli.render import run as render
from ari_cli.render import support as render_support
from ari_cli.wire.errors import ERROR_TABLE
from ari_cli.wire.explain import SUCCESS_NOTE, unknown_message
from ari_cli.wire.explain import explain as explain_number


def explain_codes(codes: list[str], output: OutputFormat) -> None:
    """Each status or code's meaning; an unknown one is a usage error that points at the whole table."""
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
        rows = [row for item in items for row in item.rows]
        gateway = [item.gateway for item in items if item.gateway is not None]
        render_support.write_error_rows(rows, sys.stdout, "csv", gateway)


def error_table(output: OutputFormat) -> None:
    """The spec's error table as a table, JSON or CSV."""
    if output is OutputFormat.TABLE:
        out = render.console()
        render_support.error_table(ERROR_TABLE, out)
        out.print(SUCCESS_NOTE, markup=False)
    else:
        render_support.write_error_rows(ERROR_TABLE, sys.stdout, output.value)


def describe_policies(policies: Path, name: str | None) -> None:
    """One named policy in words, or every policy of the file, one per line."""
    defined = load_policies(str(policies))
    if name is None:
        for key, policy in defined.items():
            typer.echo(f"{key}: {policy.describe()}")
        return
    found = find(defined, name)
    if found is None:
        raise InputError(f'{policies}: no policy named "{name}"; the names are {", ".join(defined)}')
    typer.echo(found[1].describe())
