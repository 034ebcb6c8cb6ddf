"""`ari-cli sandbox`: run the local emulator of the push service until Ctrl-C."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

if TYPE_CHECKING:
    from ari_cli.sandbox import Sandbox

app = typer.Typer(name="sandbox", subcommand_metavar="")

# A long-running sandbox keeps only the latest requests; the Python API keeps them all.
KEEP_RECEIVED = 1000
EXAMPLE_OFFSET_DAYS = 30


@app.callback(invoke_without_command=True)
def sandbox(
    host: Annotated[str, typer.Option(help="Address to bind; anything but loopback exposes it.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=0, max=65535, help="Port to bind; 0 picks a free one.")] = 8765,
    fixtures: Annotated[
        Path | None,
        typer.Option(exists=True, dir_okay=False, help="TOML file of accounts and properties (default: built-in)."),
    ] = None,
    latency: Annotated[
        str | None, typer.Option(metavar="MS|MIN-MAX", help="Delay each push answer, in milliseconds.")
    ] = None,
    fail_rate: Annotated[
        float, typer.Option(min=0.0, max=1.0, help="Share of pushes answered 500/502/503/504/408 at random.")
    ] = 0.0,
    seed: Annotated[int | None, typer.Option(help="Seed for --latency and --fail-rate.")] = None,
    today: Annotated[
        str | None, typer.Option(metavar="YYYY-MM-DD", help="Date before which start dates are refused.")
    ] = None,
) -> None:
    """Run a local emulator of the push service on loopback, until Ctrl-C.

    It serves the three actions as the service does: keys, source ids, property, room and rate
    mappings from its fixtures (built in, or --fixtures FILE), date and overlap checks, and every
    error of the service's table. It keeps what it accepted, per date, at GET /_sandbox/state.
    On start it prints its base URL, a working key and source id, and a curl command to try.

    Like a real service it guards itself: a body over 1 MiB is answered 413, and a client that
    stops sending for 10 seconds is disconnected. It listens on loopback unless --host says
    otherwise, and warns when it does.

    --latency and --fail-rate make it slow or flaky, to see retries at work. To push to it from
    another terminal, point ari-cli at the printed URL (or use --sandbox on a push instead, which
    starts one in-process for that run).

    Examples:

        ari-cli sandbox

        ARI_API_KEY=sandbox-key-0001 ari-cli threshold push rooms.csv --base-url http://127.0.0.1:8765 --source-id cpbA1

        ari-cli sandbox --port 9000 --latency 20-200 --fail-rate 0.1 --seed 7
    """
    import datetime as dt

    from ari_cli.exits import InputError
    from ari_cli.sandbox import FixtureError, Sandbox
    from ari_cli.sandbox.faults import parse_latency

    try:
        day = dt.date.fromisoformat(today) if today else None
    except ValueError:
        raise typer.BadParameter(f"{today!r} is not a date YYYY-MM-DD", param_hint="--today") from None
    try:
        delay = parse_latency(latency)
    except ValueError as problem:
        raise typer.BadParameter(str(problem), param_hint="--latency") from None
    try:
        emulator = Sandbox(
            fixtures=fixtures,
            latency=delay,
            fail_rate=fail_rate,
            seed=seed,
            today=day,
            host=host,
            port=port,
            max_received=KEEP_RECEIVED,
        )
    except FixtureError as problem:
        raise InputError(f"fixtures: {problem}", "see ari_cli/sandbox/fixtures.toml for the format") from None
    _serve(emulator)


def _serve(emulator: Sandbox) -> None:
    import signal
    import threading

    from ari_cli.cli.boundary import echo_err
    from ari_cli.config.settings import is_loopback
    from ari_cli.exits import AriError
    from ari_cli.render.printable import printable

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
    import datetime as dt
    import json
    import shlex

    from ari_cli.wire.models import Operation, push_url

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
