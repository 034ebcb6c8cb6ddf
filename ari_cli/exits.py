"""Exit codes of the contract, and the exceptions that carry them to the one error boundary.

`AriError` and its kinds are also what `ari_cli.push()` raises: one family, each with its `exit_code`.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Any


class ExitCode(IntEnum):
    OK = 0
    FAILED = 1
    USAGE = 2
    INVALID_INPUT = 3
    CONFIG = 4
    GUARD = 5  # a guard for unattended pushes tripped: nothing was sent
    INTERRUPTED = 130
    PIPE_CLOSED = 141  # as a shell reports a process ended by SIGPIPE


class AriError(Exception):
    """A failure the user can act on: a message, an optional hint, and the exit code."""

    exit_code: ExitCode = ExitCode.FAILED
    kind = "failed"  # what `--output json` calls it: `{"error": {"kind": ...}}`

    def __init__(self, message: str, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def details(self) -> dict[str, Any]:
        """What `--output json`'s `error` object holds beside kind, message and hint (a guard's figures)."""
        return {}


class InputError(AriError):
    """The input cannot be read or is invalid; nothing is sent."""

    exit_code = ExitCode.INVALID_INPUT
    kind = "input"


class ConfigError(AriError):
    """Base URL, key or source id missing or unusable."""

    exit_code = ExitCode.CONFIG
    kind = "config"


class UsageProblem(AriError):
    """Options that contradict each other or cannot be honoured."""

    exit_code = ExitCode.USAGE
    kind = "usage"


class ReportRefused(UsageProblem):
    """`--report` names a path that cannot be written: a run that stops for it has no report to write either."""


class Declined(AriError):
    """The answer to `--confirm` was no: nothing was sent."""

    exit_code = ExitCode.FAILED
    kind = "declined"


class Interrupted(AriError):
    """Ctrl-C or SIGTERM; the message says what was and was not sent."""

    exit_code = ExitCode.INTERRUPTED
    kind = "interrupted"
    # Raised before anything was sent: a run stopped while sending says what it sent in its rows instead.
    HINT = "nothing to retry: run the same command again to push"
    # Typed loosely so that this module imports nothing of the tool (everything imports it).
    run: Any = None
    """From `ari_cli.push()`: the run (`ari_cli.Run`) as far as it went, once sending had begun."""

    def __init__(self, message: str, hint: str | None = HINT) -> None:
        super().__init__(message, hint)


class GuardTripped(AriError):
    """A guard (--max-changed, --max-cleared, --min-coverage, --max-step) tripped: nothing was sent.

    `guard` is the first guard that tripped as `--output json` gives it (name, figure, limit); `guards` all of them.
    """

    exit_code = ExitCode.GUARD
    kind = "guard"

    def __init__(self, message: str, hint: str | None, guards: list[dict[str, str]]) -> None:
        super().__init__(message, hint)
        self.guards = guards
        self.guard = guards[0]

    def details(self) -> dict[str, Any]:
        return {"guard": self.guard}
