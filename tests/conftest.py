"""Shared pytest fixtures."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ari_cli.sandbox import Sandbox


@pytest.fixture
def sandbox() -> Iterator[Sandbox]:
    """A started sandbox: default fixtures, an ephemeral loopback port, today = the local date."""
    with Sandbox() as sb:
        yield sb


@pytest.fixture(autouse=True)
def _no_backoff() -> Iterator[None]:
    """Retries keep their count but do not sleep between tries (stamina's test mode)."""
    import stamina

    with stamina.set_testing(True, attempts=1000, cap=True):
        yield
