"""docs/reference.md and the man pages in docs/man are what scripts/reference.py makes from the commands now.

A command whose options or help changed without `python scripts/reference.py` run after it fails here, naming
the stale files.
"""

from __future__ import annotations

import importlib.util
import re
import shutil
import sys
from pathlib import Path
from types import ModuleType

import pytest

from tests.helpers import invoke

ROOT = Path(__file__).resolve().parent.parent


def load_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("reference_script", ROOT / "scripts" / "reference.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses and the like look their module up by name
    spec.loader.exec_module(module)
    return module


reference = load_script()
MADE: dict[Path, str] = reference.made()


def test_the_reference_and_the_man_pages_are_not_stale() -> None:
    assert reference.stale(MADE) == [], "run: python scripts/reference.py"


def test_check_names_a_stale_page_and_a_page_no_command_makes(tmp_path: Path) -> None:
    for path, text in MADE.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text, encoding="utf-8")
    assert reference.stale(MADE, tmp_path) == []
    page = tmp_path / "docs/man/ari-cli-threshold-push.1"
    page.write_text(page.read_text(encoding="utf-8").replace("\\-\\-dry\\-run", "\\-\\-dry\\-runs"), encoding="utf-8")
    (tmp_path / "docs/man/ari-cli-gone.1").write_text(".TH GONE 1\n", encoding="utf-8")
    (tmp_path / "docs/reference.md").unlink()
    assert reference.stale(MADE, tmp_path) == [
        "docs/reference.md",
        "docs/man/ari-cli-threshold-push.1",
        "docs/man/ari-cli-gone.1 (no command makes it)",
    ]


def test_check_mode_exits_1_when_stale(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shutil.copytree(ROOT / "docs", tmp_path / "docs")
    monkeypatch.setattr(reference, "ROOT", tmp_path)
    assert reference.main(["--check"]) == 0
    (tmp_path / "docs/man/ari-cli-errors.1").unlink()
    assert reference.main(["--check"]) == 1
    assert reference.main([]) == 0  # writes it again
    assert reference.main(["--check"]) == 0


def test_every_command_has_a_man_page_and_a_reference_section() -> None:
    text = MADE[reference.REFERENCE]
    for path in ("threshold push", "policy describe", "history prune", "config set", "retry", "completion"):
        assert f"# `ari-cli {path}`" in text, path
        assert reference.MAN / f"ari-cli-{path.replace(' ', '-')}.1" in MADE, path


@pytest.mark.parametrize("path", ["threshold push", "history find", "revert", ""])
def test_a_man_page_lists_every_option_its_help_shows(path: str) -> None:
    shown = invoke([*path.split(), "--help"], env={"COLUMNS": "200"})
    assert shown.exit_code == 0, shown.output
    options = set(re.findall(r"(?<![\w-])--[a-z][a-z-]+", shown.output.split("Exit codes:")[0]))
    page = MADE[reference.MAN / ("-".join(["ari-cli", *path.split()]) + ".1")].replace("\\-", "-")
    assert options and not {o for o in options if o not in page}
    assert ".SH EXIT STATUS" in page and ".SH NAME" in page


def test_making_the_pages_leaves_the_commands_as_they_were() -> None:
    """Click keeps the help option of the first context a command is shown in: the script's contexts carry the
    command's settings, so `-h` still works in this process after it ran."""
    reference.made()
    for args in (["-h"], ["threshold", "push", "-h"], ["history", "find", "-h"]):
        shown = invoke(args)
        assert shown.exit_code == 0 and "Usage:" in shown.output, (args, shown.output[-300:])
