"""Start-up: answering --version, --help and completion loads no HTTP, wire-model or sandbox code.

Each request runs in a fresh interpreter and reports the modules it ended with. Timing is the
benchmark's business; this test only keeps the heavy imports off these paths.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

# Never needed to print help, the version or completions.
HEAVY = ("httpx", "httpcore", "stamina", "sqlite3", "openpyxl", "rich.progress", "ari_cli.sandbox", "ari_cli.wire.models",
         "ari_cli.pipeline", "ari_cli.send.http", "ari_cli.journal", "ari_cli.inputs", "ari_cli.config.settings",
         "ari_cli.config.file", "ari_cli.app.options")  # fmt: skip
COMPLETE = {"_ARI_CLI_COMPLETE": "complete_bash", "COMP_WORDS": "ari-cli thr", "COMP_CWORD": "1"}

RUN = """
import json, os, sys
sys.argv = ["ari-cli", *json.loads(os.environ["STARTUP_ARGS"])]
try:
    {call}
except SystemExit:
    pass
finally:
    with open(os.environ["STARTUP_OUT"], "w") as out:
        json.dump(sorted(sys.modules), out)
"""

# A Typer app of the same shape with nothing of ari-cli in it: what Typer itself imports.
BASELINE = """
from pathlib import Path
import typer

app = typer.Typer(name="ari-cli", rich_markup_mode="rich")
group = typer.Typer(name="threshold")
app.add_typer(group)

def version(value: bool) -> None:
    if value:
        raise typer.Exit()

@app.callback()
def root(v: bool = typer.Option(False, "--version", callback=version, is_eager=True)) -> None:
    "Root."

@group.command()
def push(files: list[Path], batch_size: int = 50) -> None:
    "Push."

app()
"""

CASES = {
    "version": (["--version"], {}),
    "help": (["--help"], {}),
    "push help": (["threshold", "push", "--help"], {}),
    "config help": (["config", "show", "--help"], {}),
    "completion": ([], COMPLETE),
}


def _modules(call: str, args: list[str], extra_env: dict[str, str], tmp_path: Path) -> set[str]:
    out = tmp_path / "modules.json"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ARI_", "_ARI_", "COMP_"))}
    env.update(extra_env, STARTUP_ARGS=json.dumps(args), STARTUP_OUT=str(out))
    code = RUN.format(call=call)
    subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, timeout=120, check=False)
    return set(json.loads(out.read_text()))


@pytest.mark.parametrize("case", sorted(CASES))
def test_light_paths_import_no_heavy_module(case: str, tmp_path: Path) -> None:
    args, env = CASES[case]
    loaded = _modules("from ari_cli.cli import main; main()", args, env, tmp_path)
    assert "ari_cli.cli" in loaded
    assert sorted(m for m in loaded if any(m == h or m.startswith(h + ".") for h in HEAVY)) == []
    # Typer 0.29 itself loads pydantic to parse the options of a subcommand: allowed only where a
    # bare Typer app of the same shape does so too.
    (tmp_path / "baseline.py").write_text(BASELINE)
    typer_alone = _modules(f"exec(open({str(tmp_path / 'baseline.py')!r}).read())", args, env, tmp_path)
    if "pydantic" not in typer_alone:
        assert "pydantic" not in loaded


# The use cases behind the commands: loaded through `ari_cli.app` only when a command runs.
APP_MODULES = {f"ari_cli.app.{name}" for name in ("calendar", "config", "config_edit", "diff", "history", "push",
                                                  "replay_run", "retry", "sandbox", "support")}  # fmt: skip
APP_MODULES |= {"ari_cli.replay.bodies", "ari_cli.replay.hints", "ari_cli.pushing", "ari_cli.cli.runs"}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_light_request_loads_no_use_case(case: str, tmp_path: Path) -> None:
    args, env = CASES[case]
    loaded = _modules("from ari_cli.cli import main; main()", args, env, tmp_path)
    assert loaded & APP_MODULES == set()


@pytest.mark.parametrize("case", ["version", "help", "completion"])
def test_what_ends_while_parsing_loads_no_error_boundary(case: str, tmp_path: Path) -> None:
    # The root's --help and --version, and a completion, end before any command runs: the boundary and what it
    # shows errors with load when one does (a command's own --help runs the root, so it loads them).
    args, env = CASES[case]
    loaded = _modules("from ari_cli.cli import main; main()", args, env, tmp_path)
    assert "ari_cli.cli" in loaded
    assert sorted(loaded & {"ari_cli.cli.boundary", "ari_cli.render.printable", "ari_cli.config.secrets"}) == []


SAMPLE = Path(__file__).resolve().parent.parent / "samples" / "threshold.csv"


@pytest.mark.parametrize("output", ["json", "table"])
def test_a_dry_run_loads_no_http_client_and_no_journal(output: str, tmp_path: Path) -> None:
    # A dry run sends nothing and records nothing: the HTTP client and sqlite are for runs that do.
    args = ["threshold", "push", str(SAMPLE), "--dry-run", "--output", output]
    loaded = _modules("from ari_cli.cli import main; main()", args, {}, tmp_path)
    assert "ari_cli.pipeline" in loaded  # it did run
    heavy = (
        "httpx",
        "httpcore",
        "stamina",
        "sqlite3",
        "ari_cli.send.http",
        "ari_cli.send.transport",
        "ari_cli.journal.store",
        "ari_cli.journal.recorder",
        "ari_cli.sandbox",
    )
    assert sorted(m for m in loaded if any(m == h or m.startswith(h + ".") for h in heavy)) == []


# Each command's module, which the root imports when that command is asked for (cli/__init__.py's COMMANDS).
COMMAND_MODULES = {f"ari_cli.cli.{name}" for name in ("threshold", "maxadv", "policy", "support", "retry", "calendar",
                                                      "samples", "sandbox", "config", "history", "push", "send_one",
                                                      "diff", "options")}  # fmt: skip


def test_version_loads_no_command_module(tmp_path: Path) -> None:
    loaded = _modules("from ari_cli.cli import main; main()", ["--version"], {}, tmp_path)
    assert "ari_cli.cli" in loaded
    assert sorted(loaded & COMMAND_MODULES) == []


@pytest.mark.parametrize(
    ("args", "wanted"),
    [
        (["config", "show", "--help"], {"ari_cli.cli.config", "ari_cli.cli.options"}),  # the tuning options
        (["history", "--help"], {"ari_cli.cli.history"}),
        (["retry", "--help"], {"ari_cli.cli.retry", "ari_cli.cli.options"}),  # retry takes the option groups
    ],
)
def test_a_command_loads_its_own_module_only(args: list[str], wanted: set[str], tmp_path: Path) -> None:
    loaded = _modules("from ari_cli.cli import main; main()", args, {}, tmp_path)
    assert loaded & COMMAND_MODULES == wanted
