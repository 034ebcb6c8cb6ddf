"""Shared pytest fixtures."""

from __future__ import annotations

import shutil
import signal
import tempfile
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from ari_cli.sandbox import Sandbox

# A suite started in the background by a shell without job control (`pytest &` in a script, some CI runners)
# inherits SIGINT ignored, and so would every program a test starts: Python then lends its scripts no
# KeyboardInterrupt, and a test pressing Ctrl-C on a user's script hangs. At a terminal, where users press
# it, SIGINT is never ignored: the programs the tests start get it as a terminal gives it.
if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture
def sandbox() -> Iterator[Sandbox]:
    """A started sandbox: default fixtures, an ephemeral loopback port, today = the local date."""
    with Sandbox() as sb:
        yield sb


PINNED_TODAY = "2027-01-01"


@pytest.fixture
def sb() -> Iterator[Sandbox]:
    """A sandbox whose today is pinned, for tests that write fixed dates."""
    with Sandbox(today=PINNED_TODAY) as sandbox:
        yield sandbox


@pytest.fixture
def slow() -> Iterator[Sandbox]:
    """A pinned sandbox that answers in a quarter of a second: time to kill a run in the middle."""
    with Sandbox(today=PINNED_TODAY, latency=250) as sandbox:
        yield sandbox


@pytest.fixture
def client(sb: Sandbox) -> Iterator[httpx.Client]:
    """A plain HTTP client to the pinned sandbox."""
    with httpx.Client(base_url=sb.base_url, timeout=10) as http:
        yield http


@pytest.fixture(autouse=True)
def _no_backoff() -> Iterator[None]:
    """Retries keep their count but do not sleep between tries (stamina's test mode)."""
    import stamina

    with stamina.set_testing(True, attempts=1000, cap=True):
        yield


@pytest.fixture(autouse=True)
def journal_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Each test's runs go to a journal of its own, never the user's (subprocesses inherit ARI_HOME)."""
    home = tmp_path_factory.mktemp("ari-home")
    monkeypatch.setenv("ARI_HOME", str(home))
    return home


@pytest.fixture(autouse=True)
def _no_user_config(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The user's own config file never leaks into a test: the default place is an empty folder."""
    place = tmp_path_factory.mktemp("user-config") / "config.toml"
    monkeypatch.setattr("ari_cli.config.settings.default_config_path", lambda: place)
    return place


@pytest.fixture
def same_length_folder() -> Iterator[Path]:
    """A folder whose path is 64 characters long whoever runs the test: a pytest-xdist worker's `tmp_path` is longer
    than a lone pytest's, and tests of how wide a table is show the file's path in it."""
    base = Path(tempfile.mkdtemp(prefix="ari-"))
    try:
        folder = base / ("w" * max(1, 63 - len(str(base))))
        folder.mkdir()
        yield folder
    finally:
        shutil.rmtree(base)
