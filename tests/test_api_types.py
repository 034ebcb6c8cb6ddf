"""The Python API is typed as the command line is: its choices are Literals a type checker holds callers to."""

from __future__ import annotations

import subprocess
import sys
import typing
from pathlib import Path

import pytest

from ari_cli import api
from ari_cli.choices import Form, InputFormat, OutputFormat, Overlaps, Show
from ari_cli.wire.operations import Operation

pytest.importorskip("mypy")


@pytest.mark.parametrize(
    ("literal", "enum"),
    [
        (api.OperationName, Operation),
        (api.InputFormatName, InputFormat),
        (api.OverlapsName, Overlaps),
        (api.DataFormName, Form),
        (api.OutputName, OutputFormat),
        (api.ShowName, Show),
    ],
)
def test_each_literal_offers_what_the_command_offers(literal: object, enum: type) -> None:
    assert set(typing.get_args(literal)) == {member.value for member in enum}


def _mypy(tmp_path: Path, source: str) -> subprocess.CompletedProcess[str]:
    snippet = tmp_path / "snippet.py"
    snippet.write_text(source, encoding="utf-8")
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--cache-dir", str(tmp_path / "cache"),
         str(snippet)],
        capture_output=True, text=True, check=False, cwd=tmp_path,
    )  # fmt: skip


def test_mypy_strict_rejects_a_misspelt_choice(tmp_path: Path) -> None:
    checked = _mypy(
        tmp_path,
        "import ari_cli\n"
        'ari_cli.push("thresholds", "a.csv", dry_run=True)\n'
        'ari_cli.push("threshold", "a.csv", overlaps="last_wins", output="yaml", data_form="dict")\n',
    )
    assert checked.returncode == 1, checked.stdout + checked.stderr
    out = checked.stdout
    assert 'snippet.py:2: error: Argument 1 to "push" has incompatible type "Literal[\'thresholds\']"' in out
    for name in ("overlaps", "output", "data_form"):
        assert f'Argument "{name}" to "push" has incompatible type' in out, out


def test_mypy_strict_accepts_the_choices_as_the_command_spells_them(tmp_path: Path) -> None:
    checked = _mypy(
        tmp_path,
        "import ari_cli\n"
        'run = ari_cli.push("threshold", "a.csv", dry_run=True, overlaps="last-wins", output="json",\n'
        '                   show="failed", data_form="object", input_format="jsonl")\n'
        "code: int = run.exit_code\n",
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
