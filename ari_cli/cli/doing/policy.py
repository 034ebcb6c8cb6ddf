"""What `policy`'s commands do once their options are parsed (the commands are declared in cli/policy.py)."""

from __future__ import annotations

from pathlib import Path

from ari_cli.app.support import describe_policies
from ari_cli.choices import ViewFormat
from ari_cli.render.support import show_described


def describe(*, policies: Path, name: str | None, output: ViewFormat) -> None:
    described = describe_policies(policies, name)
    show_described(described.policies, described.one, output.value)
