"""A newcomer's first minutes, as the README says them: from a clean checkout, into a fresh virtual environment.

The repository's committed tree (`git archive HEAD`, what a clone gives) is unpacked in a temporary folder, and
the README's two set-up commands run there in bash, as written, with the system's `python3` and no virtual
environment active: the first installs the package and pushes the sample file to the sandbox (exit 0); the
second installs the test extras and runs `pytest`, here `pytest --collect-only -q`, since this suite is what
runs it (the whole suite again would take minutes for nothing new). pip reads the package index as pip is set
up on this machine, as .ci/run's installs do.

It takes one to two minutes (two installs, from pip's cache once it holds them); `pytest -m "not install"` leaves
it out.
"""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

from tests.test_docs_commands import README_COMMANDS, Command

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.install


def set_up(ending: str) -> Command:
    """The README's set-up command that ends so (an install, then what to run)."""
    (found,) = [
        c for c in README_COMMANDS if c.text.startswith("python3 -m venv .venv && ") and c.text.endswith(ending)
    ]
    return found


def clean_checkout(into: Path) -> Path:
    """The committed tree of the repository, as a clone has it: nothing built, no virtual environment."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout (an sdist): nothing to clone")
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", "HEAD"], capture_output=True)
    assert archive.returncode == 0, archive.stderr.decode()
    checkout = into / "ari-cli"
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        tar.extractall(checkout, filter="data")
    return checkout


def newcomer(home: Path) -> dict[str, str]:
    """A shell as a newcomer has it: no virtual environment active (this suite's left off PATH), a fresh home
    for ari-cli's config and journal; pip's own settings and cache as the machine has them."""
    ours = str(Path(sys.executable).parent)
    path = os.pathsep.join(p for p in os.environ.get("PATH", "").split(os.pathsep) if p and p != ours)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ARI_", "PYTEST", "VIRTUAL_ENV", "PYTHON"))}
    env.update(
        PATH=path,
        XDG_CONFIG_HOME=str(home / ".config"),
        XDG_DATA_HOME=str(home / ".local" / "share"),
        PIP_DISABLE_PIP_VERSION_CHECK="1",
        PIP_PROGRESS_BAR="off",
    )
    return env


def run(command: str, checkout: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", "-c", command], cwd=checkout, env=env, capture_output=True, text=True, timeout=900, check=False
    )


def test_the_readme_installs_from_a_clean_checkout_pushes_and_collects_the_tests(tmp_path: Path) -> None:
    if shutil.which("python3") is None:
        pytest.skip("no python3 on PATH")
    checkout = clean_checkout(tmp_path)
    env = newcomer(tmp_path / "home")
    assert not (checkout / ".venv").exists()

    first = set_up(" && ari-cli threshold push samples/threshold.csv --sandbox")
    pushed = run(first.text, checkout, env)
    assert pushed.returncode == 0, f"{first.text}\n{pushed.stdout[-2000:]}\n{pushed.stderr[-2000:]}"
    assert "ok" in pushed.stdout and "Traceback" not in pushed.stderr
    # The console script came from the fresh environment, not from this suite's.
    assert (checkout / ".venv" / "bin" / "ari-cli").exists()

    tests = set_up(" && pytest")
    collect = tests.text.removesuffix("pytest") + "pytest --collect-only -q"
    collected = run(collect, checkout, env)
    assert collected.returncode == 0, f"{collect}\n{collected.stdout[-2000:]}\n{collected.stderr[-2000:]}"
    assert " tests collected" in collected.stdout, collected.stdout[-2000:]
