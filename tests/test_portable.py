"""The package runs where Unix-only modules are missing (Windows): a push without `fcntl` goes through."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from ari_cli.sandbox import Sandbox
from tests.helpers import sandbox_env

ROOT = Path(__file__).resolve().parent.parent

# The console script's entry point, in a process where `import fcntl` fails as it does on Windows, and where the
# calls Windows lacks (pwrite, posix_fallocate) are gone too.
WITHOUT_UNIX = """
import os, sys
sys.modules["fcntl"] = None
for name in ("pwrite", "posix_fallocate"):
    if hasattr(os, name):
        delattr(os, name)
sys.argv[0] = "ari-cli"
from ari_cli.cli import main
main()
"""


def _run(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", WITHOUT_UNIX, *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "COLUMNS": "200", **env},
        cwd=ROOT,
    )


def test_the_wrapper_makes_fcntl_unimportable() -> None:
    done = _run(["--version"], {})
    assert done.returncode == 0, done.stderr
    probe = subprocess.run(
        [sys.executable, "-c", WITHOUT_UNIX.replace("from ari_cli.cli import main\nmain()", "import fcntl")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert probe.returncode == 1 and "ModuleNotFoundError: import of fcntl halted" in probe.stderr


def test_a_push_without_fcntl_goes_through_and_is_journaled(sandbox: Sandbox, journal_home: Path) -> None:
    done = _run(["threshold", "push", "samples/threshold.csv", "--output", "json"], sandbox_env(sandbox))
    assert done.returncode == 0, done.stderr
    assert "internal error" not in done.stderr and "Traceback" not in done.stderr
    document = json.loads(done.stdout)
    assert document["summary"]["failed"] == 0 and document["summary"]["ok"] > 0
    assert sandbox.state()["threshold"]["HTL001"]["DBL"]  # the service holds what was pushed
    # The run's note was made, locked and deleted at the end: nothing is left beside the journal.
    assert list(journal_home.glob("*.pending")) == []
    history = _run(["history", "--output", "json"], sandbox_env(sandbox))
    assert history.returncode == 0, history.stderr
    assert json.loads(history.stdout)["runs"][0]["exit_code"] == 0
