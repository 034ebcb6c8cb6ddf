"""`ari-cli sandbox`: run the local emulator of the push service until Ctrl-C."""

from pathlib import Path
from typing import Annotated

import typer

from ari_cli.cli.helptext import HelpGroup
from ari_cli.cli.values import number, whole

app = typer.Typer(add_completion=False, name="sandbox", cls=HelpGroup, subcommand_metavar="")


SANDBOX_HELP = """Run a local emulator of the push service on loopback, until Ctrl-C.

It serves the three actions as the service does: keys, source ids, property, room and rate \
mappings from its fixtures (built in, or --fixtures FILE), date and overlap checks, and every \
error of the service's table. It keeps what it accepted, per date, at GET /_sandbox/state. \
On start it prints its base URL, a working key and source id, and a curl command to try.

Like a real service it guards itself: a body over 1 MiB is answered 413, and a client that \
stops sending for 10 seconds is disconnected. It listens on loopback unless --host says \
otherwise, and warns when it does.

--latency and --fail-rate make it slow or flaky, to see retries at work. To push to it from \
another terminal, point ari-cli at the printed URL (or use --sandbox on a push instead, which \
starts one in-process for that run).

--fault STATUS[:COUNT] answers the next COUNT push requests (no COUNT: every one) with that \
row of the error table, 408, 426, 428 and 500-504 included; several are answered in the order \
given. While it runs, faults are queued with POST /_sandbox/faults and a JSON body: \
{"kind": "error", "status": 503, "times": 2} (a row of the table), {"kind": "html", "status": 502} \
(a proxy's HTML page), {"kind": "drop"} (the connection closed), {"kind": "hang", "seconds": 30} \
(no answer), {"kind": "raw", "status": 429, "body": "slow down", "headers": {}} (exact bytes); \
"times" repeats one, a list queues several. GET /_sandbox/faults lists those pending and \
POST /_sandbox/reset forgets faults, state and requests.

The banner lists the properties with their rooms and rates and the test accounts with what a \
push with each gets (an inactive endpoint answers 418 with code 442, a blocked one 425 with \
code 471). --write-fixtures PATH writes the default fixtures as a starting point for --fixtures.

\f
[bold]Examples[/bold]:

  ari-cli sandbox
  ari-cli sandbox --fault 503:2 --fault 426
  ari-cli sandbox --write-fixtures my-world.toml
  ari-cli sandbox --port 9000 --latency 20-200 --fail-rate 0.1 --seed 7
  ARI_API_KEY=sandbox-key-0001 ari-cli threshold push rooms.csv --base-url http://127.0.0.1:8765 --source-id cpbA1
"""


@app.callback(invoke_without_command=True, help=SANDBOX_HELP)
def sandbox(
    host: Annotated[
        str, typer.Option(metavar="ADDRESS", help="Address to bind; anything but loopback exposes it.")
    ] = "127.0.0.1",
    port: Annotated[
        int, typer.Option(**whole(0, 65535, metavar="PORT"), help="Port to bind; 0 picks a free one.")
    ] = 8765,
    fixtures: Annotated[
        Path | None,
        typer.Option(
            metavar="FILE",
            exists=True,
            dir_okay=False,
            help="TOML file of accounts and properties (default: built-in).",
        ),
    ] = None,
    latency: Annotated[
        str | None, typer.Option(metavar="MS|MIN-MAX", help="Delay each push answer, in milliseconds.")
    ] = None,
    fail_rate: Annotated[
        float,
        typer.Option(
            **number(0.0, 1.0, metavar="SHARE"), help="Share of pushes answered 500/502/503/504/408 at random."
        ),
    ] = 0.0,
    seed: Annotated[int | None, typer.Option(**whole(), help="Seed for --latency and --fail-rate.")] = None,
    today: Annotated[
        str | None, typer.Option(metavar="YYYY-MM-DD", help="Date before which start dates are refused.")
    ] = None,
    fault: Annotated[
        list[str] | None,
        typer.Option(
            metavar="STATUS[:COUNT]",
            help="Answer the next COUNT pushes (no COUNT: all) with the error table's row for STATUS; repeatable.",
            show_default=False,
        ),
    ] = None,
    write_fixtures: Annotated[
        Path | None,
        typer.Option(
            metavar="PATH",
            dir_okay=False,
            help="Write the default fixtures to PATH, to edit, and exit.",
            show_default=False,
        ),
    ] = None,
    allow_remote_faults: Annotated[
        bool,
        typer.Option(
            "--allow-remote-faults",
            help="Let other machines queue faults at /_sandbox/faults (loopback only by default).",
        ),
    ] = False,
) -> None:
    from ari_cli.cli.doing.sandbox import sandbox as do

    do(
        host=host,
        port=port,
        fixtures=fixtures,
        latency=latency,
        fail_rate=fail_rate,
        seed=seed,
        today=today,
        fault=fault,
        write_fixtures=write_fixtures,
        allow_remote_faults=allow_remote_faults,
    )
