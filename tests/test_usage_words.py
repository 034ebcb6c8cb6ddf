"""ari-cli uses Typer's public API only, and shows Typer's usage errors and help as Typer words them.

Each test builds a small Typer app of its own, so a failure here means Typer changed, not ari-cli.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated

import pytest
import typer
import typer.main

import ari_cli.cli
from ari_cli.cli import usage
from ari_cli.cli.helptext import HelpCommand, HelpGroup
from tests.helpers import invoke

ROOT = Path(__file__).resolve().parent.parent
CHANGED = "Typer changed the words ari-cli passes on (README, CHANGELOG and the usage tests show them)"

probe = typer.Typer(name="probe", cls=HelpGroup, no_args_is_help=True, rich_markup_mode="rich")


@probe.command(cls=HelpCommand)
def push(
    files: Annotated[list[Path], typer.Argument(metavar="FILE", help="The files.")],
    batch: Annotated[int, typer.Option("--batch", min=1, metavar="N", help="Records per request.")] = 50,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Send nothing.")] = False,
) -> None:
    """Push files."""


@probe.command(cls=HelpCommand, no_args_is_help=True)
def other(name: Annotated[str, typer.Argument(metavar="NAME")]) -> None:
    """Another command, so that the probe is a group; called bare, it shows its help."""


def _raised(args: list[str]) -> typer.TyperException:
    with pytest.raises(typer.TyperException) as caught:
        typer.main.get_command(probe).main(args, prog_name="probe", standalone_mode=False)
    return caught.value


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["push"], "Missing argument 'FILE'."),
        (["push", "f.csv", "--bach", "2"], "No such option: --bach (Possible options: --batch)"),
        (["push", "f.csv", "--batch", "0"], "Invalid value for '--batch': Input should be greater than or equal to 1"),
        (
            ["push", "f.csv", "--batch", "x"],
            "Invalid value for '--batch': Input should be a valid integer, unable to parse string as an integer",
        ),
    ],
)
def test_usage_errors_are_passed_on_in_typers_words(args: list[str], said: str) -> None:
    error = _raised(args)
    assert usage.is_usage_error(error), f"{CHANGED}: {type(error).__name__} is no usage error"
    assert error.exit_code == 2
    assert usage.usage_message(error) == said, CHANGED
    assert usage.usage_line(error) == "Usage: probe push [OPTIONS] {FILE}...", CHANGED


@pytest.mark.parametrize("args", [[], ["other"]], ids=["group", "command"])
def test_a_bare_call_shows_help_and_raises_no_error(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    # `other` alone would be a missing NAME, but it was registered to show its help when called bare. Typer
    # would raise an error carrying the help, which the boundary would take for a usage error.
    code = typer.main.get_command(probe).main(args, prog_name="probe", standalone_mode=False)
    assert code == 2
    assert "Usage: probe" in capsys.readouterr().out


@pytest.mark.parametrize("args", [[], ["threshold"], ["calendar"], ["history", "show"]], ids=" ".join)
def test_a_bare_command_shows_its_help_not_an_error(args: list[str]) -> None:
    result = invoke(args)
    assert result.exit_code == 2
    assert "Usage: ari-cli" in result.stdout
    assert result.stderr == ""


def test_an_options_metavar_is_what_help_shows_beside_it() -> None:
    # The documented way to name an option's value in help (cli/ gives one to every option taking a value).
    help_text = typer.testing.CliRunner().invoke(probe, ["push", "--help"], env={"COLUMNS": "120"}).stdout
    batch = next(line for line in help_text.splitlines() if "--batch" in line)
    assert re.search(r"--batch\s+N\b", batch) and "<int>" not in batch, f"{CHANGED}: {batch}"


def test_typers_own_classes_are_left_as_they_are() -> None:
    # Integrators may import ari_cli beside Typer apps of their own: their help is Typer's, untouched.
    assert ari_cli.cli.app is not None
    for kind in (typer.core.TyperOption, typer.core.TyperArgument):
        assert kind.display_type_rich.__module__ == "typer.core", f"{kind.__name__} was patched"


def test_no_module_reaches_into_typer() -> None:
    reaches = re.compile(r"typer\._|_TYPER_|\bclick\b")
    found = [
        str(path.relative_to(ROOT))
        for path in sorted((ROOT / "ari_cli").rglob("*.py"))
        if reaches.search(path.read_text(encoding="utf-8"))
    ]
    assert found == [], "ari-cli uses Typer's public API only (typer, typer.core, typer.completion)"


@pytest.mark.parametrize(("shell", "first"), [("bash", "_ari_cli_completion() {"), ("zsh", "#compdef ari-cli")])
def test_a_named_shells_script_is_typers(shell: str, first: str) -> None:
    result = invoke(["--show-completion", shell])
    assert result.exit_code == 0 and result.stderr == ""
    assert result.stdout.startswith(first) and "_ARI_CLI_COMPLETE=complete_" in result.stdout, CHANGED


def test_a_named_shell_is_found_among_the_roots_options_only() -> None:
    assert invoke(["--color", "never", "--show-completion", "fish"]).stdout.startswith("complete --command ari-cli")
    result = invoke(["threshold", "push", "--show-completion", "fish"])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr.startswith("error: No such option: --show-completion\n")
