"""What `sandbox`'s commands do once their options are parsed (the commands are declared in cli/sandbox.py)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import typer

from ari_cli.app import sandbox as use_case
from ari_cli.app.options import SandboxOptions
from ari_cli.app.sandbox import emulator
from ari_cli.render.printable import echo_err, printable
from ari_cli.sandbox.faults import parse_latency


def sandbox(
    *,
    host: str,
    port: int,
    fixtures: Path | None,
    latency: str | None,
    fail_rate: float,
    seed: int | None,
    today: str | None,
    fault: list[str] | None,
    write_fixtures: Path | None,
    allow_remote_faults: bool,
) -> None:
    if write_fixtures is not None:
        echo_err(use_case.write_fixtures(write_fixtures))
        return
    try:
        day = dt.date.fromisoformat(today) if today else None
    except ValueError:
        raise typer.BadParameter(f"{today!r} is not a date YYYY-MM-DD", param_hint="--today") from None
    try:
        delay = parse_latency(latency)
    except ValueError as problem:
        raise typer.BadParameter(str(problem), param_hint="--latency") from None
    faults = tuple(fault or ())
    options = SandboxOptions(
        host=host,
        port=port,
        fixtures=fixtures,
        latency=latency,
        fail_rate=fail_rate,
        seed=seed,
        today=today,
        faults=faults,
        write_fixtures=write_fixtures,
        remote_faults=allow_remote_faults,
    )
    _serve(emulator(options, day, delay))


def _serve(emulator: Any) -> None:
    """Serve until Ctrl-C or SIGTERM, with how to reach it on stdout."""
    warning = use_case.exposed(emulator)
    if warning is not None:
        echo_err(f"warning: {warning}")
    use_case.start(emulator)
    # SIGTERM (systemd, docker stop, kill) ends the sandbox as cleanly as Ctrl-C: the command line's
    # handlers (cli/signals.py) raise KeyboardInterrupt for both.
    try:
        for line in use_case.banner(emulator):
            typer.echo(printable(line))
        while not emulator.stopping.wait(3600):
            pass
    except KeyboardInterrupt:
        pass
    finally:
        emulator.stop()
    echo_err("sandbox stopped")
