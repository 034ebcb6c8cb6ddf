"""What `ari-cli sandbox` does: start the emulator, print how to reach it, serve until Ctrl-C or SIGTERM."""

from __future__ import annotations

import datetime as dt
import json
import shlex
import signal
import threading
from typing import Any

import typer

from ari_cli.app.options import SandboxOptions
from ari_cli.config.settings import is_loopback
from ari_cli.exits import AriError, InputError
from ari_cli.render.printable import echo_err, printable
from ari_cli.sandbox import FixtureError, Sandbox
from ari_cli.sandbox.faults import parse_latency
from ari_cli.wire.models import Operation, push_url

# A long-running sandbox keeps only the latest requests; the Python API keeps them all.
KEEP_RECEIVED = 1000
EXAMPLE_OFFSET_DAYS = 30


def serve(options: SandboxOptions) -> None:
    """Build the emulator from the options (bad ones are usage or input errors) and serve it."""
    today = options.today
    try:
        day = dt.date.fromisoformat(today) if today else None
    except ValueError:
        raise typer.BadParameter(f"{today!r} is not a date YYYY-MM-DD", param_hint="--today") from None
    try:
        delay = parse_latency(options.latency)
    except ValueError as problem:
        raise typer.BadParameter(str(problem), param_hint="--latency") from None
    try:
        emulator = Sandbox(
            fixtures=options.fixtures,
            latency=delay,
            fail_rate=options.fail_rate,
            seed=options.seed,
            today=day,
            host=options.host,
            port=options.port,
            max_received=KEEP_RECEIVED,
            remote_faults=options.remote_faults,
        )
    except FixtureError as problem:
        raise InputError(f"fixtures: {problem}", "see ari_cli/sandbox/fixtures.toml for the format") from None
    _serve(emulator)


def _serve(emulator: Sandbox) -> None:
    if not is_loopback(emulator.host):
        echo_err(
            f"warning: binding to {emulator.host} exposes the sandbox and its public test keys "
            "to the network; use --host 127.0.0.1 to keep it local"
        )
    try:
        emulator.start()
    except OSError as problem:
        raise AriError(
            f"cannot listen on {emulator.host}:{emulator.port}: {problem.strerror or problem}",
            "pick another port with --port (0 picks a free one)",
        ) from None
    # SIGTERM (systemd, docker stop, kill) ends the sandbox as cleanly as Ctrl-C; only the main
    # thread may install handlers, and an embedding caller in another thread keeps its own.
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _interrupt)
    try:
        for line in _banner(emulator):
            typer.echo(printable(line))
        while not emulator.stopping.wait(3600):
            pass
    except KeyboardInterrupt:
        pass
    finally:
        emulator.stop()
    echo_err("sandbox stopped")


def _interrupt(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


def _banner(emulator: Sandbox) -> list[str]:
    """What `ari-cli sandbox` prints on start; the keys are the sandbox's own, not secrets."""
    props = emulator.fixtures.properties.values()
    active = ", ".join(p.id for p in props if p.active) or "none"
    inactive = ", ".join(p.id for p in props if not p.active)
    lines = [
        f"ari-cli sandbox listening on {emulator.base_url}",
        f"  api key:    {emulator.api_key}",
        f"  source id:  {emulator.source_id}",
        f"  properties: {active}" + (f" (inactive: {inactive})" if inactive else ""),
        f"  today:      {emulator.today.isoformat()}",
        f"  state:      {emulator.base_url}/_sandbox/state",
    ]
    example = _curl_example(emulator)
    if example:
        lines += ["", "Try it:", f"  {example}"]
    lines += ["", "Press Ctrl-C to stop."]
    return lines


def _curl_example(emulator: Sandbox) -> str | None:
    """A curl command that the sandbox answers with success (None if the fixtures allow none)."""
    prop = next((p for p in emulator.fixtures.properties.values() if p.active and p.rooms), None)
    if prop is None:
        return None
    start = emulator.today + dt.timedelta(days=EXAMPLE_OFFSET_DAYS)
    action = Operation.THRESHOLD.action
    body = {
        "sharepost": emulator.api_key,
        "sourceid": emulator.source_id,
        "propertyid": prop.id,
        "action": action,
        "data": [
            {
                "startdateymd": start.isoformat(),
                "enddateymd": (start + dt.timedelta(days=6)).isoformat(),
                "roomid": sorted(prop.rooms)[0],
                "threshold": "5",
            }
        ],
    }
    url = push_url(emulator.base_url, emulator.source_id, action)
    payload = json.dumps(body, separators=(",", ":"))
    return (
        f"curl -sS {shlex.quote(url)} -H 'accept: application/json' "
        f"-H 'content-type: application/json' -d {shlex.quote(payload)}"
    )
