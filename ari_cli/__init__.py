"""ari-cli: push hotel ARI settings (sell threshold, policies, max advance booking) from files.

Use from Python (see README, "Use from Python")::

    import ari_cli

    with ari_cli.Sandbox() as sandbox:
        run = ari_cli.push("threshold", "samples/threshold.csv", base_url=sandbox.base_url, ...)
    run.exit_code, run.summary.ok, run.rows[0].status

- `push(operation, files=None, rows=None, *, dry_run=False, sandbox=False, profile=None, journal=True, ...)`
  runs a push as `ari-cli OPERATION push` does, with its options as keyword arguments, and returns a `Run`
  (`.rows`, `.summary`, `.requests`, `.exit_code`). It prints nothing unless `output=` asks for it.
- `revert(run, *, dry_run=False, clear_unknown=False, force=False, ...)` puts back what the service held
  before a journaled run, as `ari-cli revert RUN --yes` does, and returns a `Revert` (`.changes`, `.unknown`,
  `.later`, `.run`, `.exit_code`).
- `why(propertyid, roomid, date, *, rateid=None, profile=None, ...)` says what the service holds on that night
  for the room, as `ari-cli why` does, and returns a `Why` (`.settings`: per operation and rate the value held,
  or None for nothing known, and who set it; `.last_run`), as acknowledged to this journal.
- `export(operation, path, *, properties=(), start=None, end=None, layout="dates-across", ...)` writes what
  the service acknowledged to this journal as a file push reads back, as `ari-cli OPERATION export` does, and
  returns an `Export` (`.path`, `.run`, `.properties`, `.start`, `.end`, `.keys`, `.values`).
- `AriError` (`.exit_code`, `.message`, `.hint`) and its kinds `InputError` (3), `ConfigError` (4),
  `UsageProblem` (2), `GuardTripped` (5: `.guard`), `Interrupted` (130) and `RunFailed`
  (`Run.raise_for_status()`) are what it raises.
- `Sandbox()` is the emulated push service on a loopback port: a context manager with `base_url`,
  `api_key` and `source_id`.

Every command imports this module: the names above load on first use (PEP 562), not here.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.2.0"

if TYPE_CHECKING:
    from ari_cli.api import push
    from ari_cli.api_export import Export, export
    from ari_cli.api_revert import Revert, revert
    from ari_cli.api_run import Error, Request, Row, Rows, Run, RunFailed, Summary
    from ari_cli.api_why import Why, why
    from ari_cli.exits import (
        AriError,
        ConfigError,
        ExitCode,
        GuardTripped,
        InputError,
        Interrupted,
        UsageProblem,
    )
    from ari_cli.results import Status
    from ari_cli.sandbox import Sandbox

# Each public name and the module that holds it.
_LAZY = {
    "push": "ari_cli.api",
    "revert": "ari_cli.api_revert",
    "export": "ari_cli.api_export",
    "Export": "ari_cli.api_export",
    "Revert": "ari_cli.api_revert",
    "why": "ari_cli.api_why",
    "Why": "ari_cli.api_why",
    "Run": "ari_cli.api_run",
    "Rows": "ari_cli.api_run",
    "Row": "ari_cli.api_run",
    "Request": "ari_cli.api_run",
    "Summary": "ari_cli.api_run",
    "Error": "ari_cli.api_run",
    "Status": "ari_cli.results",
    "AriError": "ari_cli.exits",
    "InputError": "ari_cli.exits",
    "ConfigError": "ari_cli.exits",
    "UsageProblem": "ari_cli.exits",
    "GuardTripped": "ari_cli.exits",
    "Interrupted": "ari_cli.exits",
    "RunFailed": "ari_cli.api_run",
    "ExitCode": "ari_cli.exits",
    "Sandbox": "ari_cli.sandbox",
}

# Spelled out, for type checkers and linters: the same names as _LAZY.
__all__ = [
    "AriError",
    "ConfigError",
    "Error",
    "ExitCode",
    "Export",
    "GuardTripped",
    "InputError",
    "Interrupted",
    "Request",
    "Revert",
    "Row",
    "Rows",
    "Run",
    "RunFailed",
    "Sandbox",
    "Status",
    "Summary",
    "UsageProblem",
    "Why",
    "__version__",
    "export",
    "push",
    "revert",
    "why",
]


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'ari_cli' has no attribute {name!r}")

    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # found once; later reads do not come here
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})
