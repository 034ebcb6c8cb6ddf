"""What ari-cli takes from Typer beyond its public API (cli/typer_internals.py) still works as that module says.

Each test builds a small Typer app of its own, so a failure here means Typer changed, not ari-cli.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated

import pytest
import typer
import typer.main

from ari_cli.cli import typer_internals
from tests.helpers import invoke

ROOT = Path(__file__).resolve().parent.parent
CHANGED = "Typer changed what ari_cli/cli/typer_internals.py relies on"

probe = typer.Typer(name="probe", no_args_is_help=True, rich_markup_mode="rich")


@probe.command()
def push(
    files: Annotated[list[Path], typer.Argument(metavar="FILE", help="The files.")],
    batch: Annotated[int, typer.Option("--batch", min=1, help="Records per request.")] = 50,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Send nothing.")] = False,
) -> None:
    """Push files."""


@probe.command()
def other() -> None:
    """Another command, so that the probe is a group."""


def _raised(args: list[str]) -> typer.TyperException:
    with pytest.raises(typer.TyperException) as caught:
        typer.main.get_command(probe).main(args, prog_name="probe", standalone_mode=False)
    return caught.value


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["push"], "missing FILE: give at least one"),
        (["push", "f.csv", "--bach", "2"], "no such option: --bach (did you mean --batch?)"),
        (["push", "f.csv", "--batch", "0"], "--batch: must be at least 1"),
        (["push", "f.csv", "--batch", "x"], "--batch: give a whole number"),
    ],
)
def test_usage_errors_carry_what_the_tools_words_are_made_of(args: list[str], said: str) -> None:
    error = _raised(args)
    assert typer_internals.is_usage_error(error), f"{CHANGED}: {type(error).__name__} is no usage error"
    assert error.exit_code == 2
    assert typer_internals.usage_message(error) == said, CHANGED
    assert typer_internals.usage_line(error) == "probe push [OPTIONS] FILE...", CHANGED


def test_a_bare_group_is_a_help_request_not_a_usage_error() -> None:
    error = _raised([])
    assert typer_internals.is_help_request(error), f"{CHANGED}: {type(error).__name__}"
    assert not typer_internals.is_usage_error(error)


def test_help_shows_no_python_types_where_typer_would() -> None:
    typer_internals.hide_python_types_in_help()
    help_text = typer.testing.CliRunner().invoke(probe, ["push", "--help"], env={"COLUMNS": "120"}).stdout
    assert "FILE" in help_text and "BATCH" in help_text
    types = re.findall(r"<[a-z]+(?:\[[A-Za-z]+\])?>", help_text)
    assert not types, f"{CHANGED}: help shows {types}"


def test_no_other_module_reaches_into_typer() -> None:
    reaches = re.compile(r"typer\._|_TYPER_")
    found = [
        str(path.relative_to(ROOT))
        for path in sorted((ROOT / "ari_cli").rglob("*.py"))
        if path.name != "typer_internals.py" and reaches.search(path.read_text(encoding="utf-8"))
    ]
    assert found == [], "Typer's private names belong in ari_cli/cli/typer_internals.py only"


@pytest.mark.parametrize(("shell", "first"), [("bash", "_probe_completion() {"), ("zsh", "#compdef probe")])
def test_a_named_shells_script_is_typers(shell: str, first: str) -> None:
    script = typer_internals.completion_script("probe", shell)
    assert script.startswith(first) and "_PROBE_COMPLETE=complete_" in script, CHANGED


def test_a_named_shell_is_found_among_the_roots_options_only() -> None:
    assert invoke(["--color", "never", "--show-completion", "fish"]).stdout.startswith("complete --command ari-cli")
    result = invoke(["threshold", "push", "--show-completion", "fish"])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith("error: no such option: --show-completion\n")
