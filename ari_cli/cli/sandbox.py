"""`ari-cli sandbox`: run the local emulator of the push service until Ctrl-C."""

from pathlib import Path
from typing import Annotated

import typer

from ari_cli import app as application
from ari_cli.app.options import SandboxOptions

app = typer.Typer(name="sandbox", subcommand_metavar="")


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
    allow_remote_faults: Annotated[
        bool,
        typer.Option(
            "--allow-remote-faults",
            help="Let other machines queue faults at /_sandbox/faults (loopback only by default).",
        ),
    ] = False,
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
    options = SandboxOptions(host, port, fixtures, latency, fail_rate, seed, today, allow_remote_faults)
    application.run_sandbox(options)
