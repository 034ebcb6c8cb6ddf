"""The option objects that carry settings: what was given, and nothing else (None: not given).

A flag, an `ARI_*` variable, a profile and a default may each give these; `settings.resolve` puts them in that
order, once. The command line, `config show`, `ari_cli.push()` and `ari_cli.revert()` build these same objects,
and `app/options.py` offers them beside the commands' other option objects. Light: no parsing here.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from ari_cli.choices import Overlaps

DEFAULT_SEGMENT = "{action}"

# The connection settings a flag, an `ARI_*` variable and a profile key (of the same name) may each give, in
# `config show`'s order, with the variable and the default. A new one is a line here and a field of
# `ConnectionOptions` and of `Connection` below; its flag is in cli/options.py and its keyword of `ari_cli.push()`
# in api.py. `Settings.connection()` fills every field of `Connection` from here.
# The key is resolved on its own (`settings.py`): its flag names a file, its profile key a file or a variable.
CONNECTION_SETTINGS: dict[str, tuple[str, str | None]] = {
    "base_url": ("ARI_BASE_URL", None),
    "source_id": ("ARI_SOURCE_ID", None),
    "api_key": ("ARI_API_KEY", None),
    "path_segment": ("ARI_PATH_SEGMENT", DEFAULT_SEGMENT),
}


@dataclass(frozen=True, slots=True)
class Connection:
    """A usable endpoint: base URL, key, source id and the last path segment's template (its fields are the
    names of `CONNECTION_SETTINGS`). Its repr leaves the key out."""

    base_url: str
    api_key: str = field(repr=False)
    source_id: str
    path_segment: str = DEFAULT_SEGMENT


class ConnectionOptions(NamedTuple):
    """Where to push: the built-in sandbox, or the flags over the environment over the profile."""

    sandbox: bool = False
    profile: str | None = None
    config: Path | None = None
    base_url: str | None = None
    source_id: str | None = None
    api_key_file: Path | None = None
    path_segment: str | None = None
    api_key: str | None = None
    """The key itself, from Python (`ari_cli.push(api_key=...)`): never shown, never journaled."""

    def __repr__(self) -> str:
        shown = self._replace(api_key=None if self.api_key is None else "<masked>")
        return "ConnectionOptions(" + ", ".join(f"{k}={v!r}" for k, v in shown._asdict().items()) + ")"

    def beside_sandbox(self) -> tuple[str, ...]:
        """The fields naming another service given with `sandbox`, which would be dropped without a word (the
        environment and the profile, set for every run, stay quietly unused)."""
        if not self.sandbox:
            return ()
        # Every field but the choice of sandbox and of profile and config file names a service: a new one too.
        named = [name for name in self._fields if name not in ("sandbox", "profile", "config")]
        return tuple(name for name in named if getattr(self, name) is not None)


class PlanOptions(NamedTuple):
    """How rows become records and requests; `batch_size` and `data_form` None: the profile's, else the default."""

    today: dt.date | None = None
    merge: bool = True
    overlaps: Overlaps = Overlaps.ERROR
    batch_size: int | None = None
    changed_only: bool = False
    data_form: str | None = None
    force: bool = False
    """Send the dates of an exported file that conflict with a later push (`planning/changes.py`)."""
    """"list" or "object" (a `Form` from the command line), checked where settings are resolved."""


class SendTuning(NamedTuple):
    """How requests are sent: in flight at once, per second, how long, how many tries, per property (N/s or
    N/min). None: not given, so the profile's value, else the default (`tuning.py`)."""

    concurrency: int | None = None
    rate: float | None = None
    timeout: float | None = None
    retries: int | None = None
    rate_per_property: str | None = None


class GuardOptions(NamedTuple):
    """Guards for unattended pushes as given (None: the profile's, if any), and whether to pass them all."""

    max_changed: str | None = None
    max_cleared: str | None = None
    min_coverage: str | None = None
    max_step: str | None = None
    override: bool = False
