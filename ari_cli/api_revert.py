"""`ari_cli.revert()`: put back what the service held before a journaled run, as `ari-cli revert RUN --yes` does.

The call is the consent: nothing is asked. The use case is `app/revert.py`; what it returns is given as a
`Revert`, with the run it made (a `Run`, as `ari_cli.push()` returns) when it sent something.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from ari_cli.api import PathArg, _flags, _key, _path, _segment, _text, _today, _world
from ari_cli.api_run import Run
from ari_cli.app.options import ConnectionOptions, OutputOptions, RevertRequest, SendTuning
from ari_cli.app.push import Pushed
from ari_cli.app.revert import revert as use_case
from ari_cli.exits import ExitCode, UsageProblem
from ari_cli.render.changes.revert import document
from ari_cli.render.terminal import Terminal


@dataclass(frozen=True, slots=True)
class Revert:
    """A revert: the run it reverts (with its retries), the ranges it puts back (as `diff` gives them, `before` the
    value the service holds now and `after` the one put back), the dates it left alone, and the run it made."""

    reverts: int
    runs: tuple[int, ...]
    changes: tuple[dict[str, Any], ...]
    unknown: tuple[dict[str, Any], ...]
    """Dates whose earlier value the journal never saw: left alone, or cleared with `clear_unknown`."""
    later: tuple[dict[str, Any], ...]
    """Dates a later run (`run`) changed again: left alone unless `force`."""
    run: Run | None
    """The revert's own run; None for a dry run, or when there was nothing to put back."""

    @property
    def exit_code(self) -> ExitCode:
        return ExitCode.OK if self.run is None else self.run.exit_code


def revert(
    run: int,
    *,
    dry_run: bool = False,
    clear_unknown: bool = False,
    force: bool = False,
    today: dt.date | str | None = None,
    profile: str | None = None,
    config: PathArg | None = None,
    api_key: str | None = None,
    api_key_file: PathArg | None = None,
    path_segment: str | None = None,
    journal: bool = True,
    concurrency: int | None = None,
    rate: float | None = None,
    timeout: float | None = None,
    retries: int | None = None,
) -> Revert:
    """Revert journaled run `run`: the keyword arguments are `ari-cli revert`'s options. Raises an `AriError` as the
    command exits: no such run (UsageProblem, 2), no key (ConfigError, 4). Guards do not apply to a revert."""
    if isinstance(run, bool) or not isinstance(run, int) or run < 1:
        raise UsageProblem(f"run {run!r}: give a run number, as `ari-cli history` lists it")
    _flags(dry_run=dry_run, clear_unknown=clear_unknown, force=force, journal=journal)
    request = RevertRequest(
        run=run,
        command=f"ari_cli.revert({run})",
        dry_run=dry_run,
        yes=True,
        clear_unknown=clear_unknown,
        force=force,
        today=_today(today),
        output=OutputOptions(journal=journal),
        sending=SendTuning(concurrency=concurrency, rate=rate, timeout=timeout, retries=retries),
        connection=ConnectionOptions(
            profile=_text("profile", profile),
            config=_path("config", config),
            api_key_file=_path("api_key_file", api_key_file),
            path_segment=_segment(path_segment),
            api_key=_key(api_key, api_key_file),
        ),
    )
    done = use_case(request, Terminal.silent(), _world())
    shown = document(done, show_all=False)
    made = None
    if done.run is not None and done.options is not None:
        pushed = Pushed(done.run, done.options, done.connection, False, done.number, done.warnings, [])
        made = Run.of(pushed, done.run.exit_code())
    return Revert(done.source.id, done.runs, tuple(shown["changes"]), tuple(shown["unknown"]), tuple(shown["later"]),
                  made)  # fmt: skip
