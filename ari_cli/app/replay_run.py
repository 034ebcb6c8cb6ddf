"""What `ari-cli replay` does once its options are parsed: read, fill, send once each, explain."""

from __future__ import annotations

import sys

import typer

from ari_cli.app.options import ReplayRequest
from ari_cli.app.push import Tuned, connected, settings_for
from ari_cli.app.replay import Replayed, load, prepare
from ari_cli.config.secrets import keys_in, remember
from ari_cli.exits import ExitCode, UsageProblem
from ari_cli.render import run as render
from ari_cli.render import support as render_support
from ari_cli.send.exchange import SendOptions
from ari_cli.send.http import send_raw

# Shorter strings are no keys the service issues, and hiding them would mangle unrelated text.
SHORTEST_KEY = 8


def replay(request: ReplayRequest) -> None:
    """Replay every body of the files and exit 0 when the service accepted them all, else 1."""
    files = [str(f) for f in request.files]
    if files.count("-") > 1:
        raise UsageProblem("standard input (-) can be read only once")
    bodies = load(files, sys.stdin.buffer)
    for body in bodies:
        for key in keys_in(body.text[body.start : body.end].encode()):
            # A partner's key in the file is as secret as ours: nothing may print it.
            if len(key) >= SHORTEST_KEY:
                remember(key)
    settings = settings_for(request.connection, request.given_tuning())
    tuned = Tuned.of(settings)
    out, err = render.console(), render.console(stderr=True)
    output, dry_run, shown = request.output.format.value, request.dry_run, request.output
    render.notices(list(settings.warnings), err)
    with connected(request.connection, request.today, settings, needed=not dry_run) as connection:
        if connection is not None:
            remember(connection.api_key)
        if request.connection.sandbox and connection and not shown.quiet:
            err.print(f"replaying to the built-in sandbox at {connection.base_url}", markup=False)
        ready = prepare(bodies, connection, request.fill)
        if dry_run:
            results = [Replayed(r, None) for r in ready]
        else:
            trace = (lambda t: render.trace(t, err)) if shown.verbose else None
            posts = [(r.url, r.content) for r in ready]
            sent = send_raw(posts, SendOptions(timeout=tuned.timeout), on_trace=trace)
            results = [Replayed(r, s) for r, s in zip(ready, sent, strict=True)]
    # `--curl --dry-run` makes a script (`> calls.sh; bash calls.sh`): stdout holds the commands only.
    script = shown.curl and dry_run and output == "table"
    if shown.curl:
        requests = [(f"{r.body.source}:{r.body.line} {r.body.operation.action}", r.url, r.content) for r in ready]
        render.curl_commands(requests, connection is not None, (out if output == "table" else err).file)
    if output == "json":
        render_support.write_replay_json(results, dry_run, sys.stdout)
    elif output == "csv":
        render_support.write_replay_csv(results, sys.stdout)
    else:
        render_support.replay_text(results, dry_run, err if script else out)
    failed = not dry_run and not all(r.ok for r in results)
    raise typer.Exit(int(ExitCode.FAILED if failed else ExitCode.OK))
