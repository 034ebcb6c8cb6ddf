"""What `ari-cli replay` does once its options are parsed: read, fill, send once each; what came back.

The result (`Replay`) is shown by render/support.py (`show_replay`), where each answer is explained."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote

from ari_cli.app.listener import Listener
from ari_cli.app.options import ReplayRequest
from ari_cli.app.push import connected
from ari_cli.app.world import World
from ari_cli.config.options import Connection
from ari_cli.config.secrets import keys_in, mask, remember
from ari_cli.config.settings import resolve
from ari_cli.exits import ExitCode, UsageProblem
from ari_cli.journal.recorder import open_journal
from ari_cli.journal.replays import Replayed as BodySent
from ari_cli.journal.replays import ReplayRecord
from ari_cli.journal.store import RunStart
from ari_cli.replay.bodies import Ready, Replayed, load, prepare
from ari_cli.results import Status
from ari_cli.results import summary as summarize
from ari_cli.send.exchange import SendOptions, Sent
from ari_cli.send.http import send_raw
from ari_cli.wire.operations import Operation

# Shorter strings are no keys the service issues, and hiding them would mangle unrelated text.
SHORTEST_KEY = 8


@dataclass(frozen=True, slots=True)
class Replay:
    """A replay done: each body as sent (or, in a dry run, as it would be) and its answer."""

    ready: list[Ready]
    results: list[Replayed]
    dry_run: bool
    connected: bool
    partner_keys: frozenset[str] = frozenset()
    """The partners' own keys the bodies carry (not ours): a curl leaves them to $PARTNER_API_KEY."""

    @property
    def exit_code(self) -> ExitCode:
        """0 when the service accepted every body (or nothing was sent), else 1."""
        failed = not self.dry_run and not all(r.ok for r in self.results)
        return ExitCode.FAILED if failed else ExitCode.OK


def replay(request: ReplayRequest, listener: Listener, world: World) -> Replay:
    """Replay every body of the files."""
    files = [str(f) for f in request.files]
    if files.count("-") > 1:
        raise UsageProblem("standard input (-) can be read only once")
    bodies = load(files, world.stdin)
    for body in bodies:
        for key in keys_in(body.text[body.start : body.end].encode()):
            # A partner's key in the file is as secret as ours: nothing may print it.
            if len(key) >= SHORTEST_KEY:
                remember(key)
    settings = resolve(world.environ, request.connection, sending=request.sending)
    tuned = settings.tuned
    dry_run, shown = request.dry_run, request.output
    listener.notices(list(settings.warnings))
    with connected(request.connection, request.today, settings, needed=not dry_run) as connection:
        if connection is not None:
            remember(connection.api_key)
        if request.connection.sandbox and connection and not shown.quiet:
            listener.say(f"replaying to the built-in sandbox at {connection.base_url}")
        ready = prepare(bodies, connection, request.fill)
        if dry_run:
            results = [Replayed(r, None) for r in ready]
        else:
            assert connection is not None
            trace = listener.trace if shown.verbose else None
            with _journaled(request, connection, ready, tuned.timeout, listener, world.environ) as answered:
                posts = [(r.url, r.content) for r in ready]
                sent = send_raw(
                    posts,
                    SendOptions(timeout=tuned.timeout, per_property=tuned.per_property),
                    on_trace=trace,
                )
                answered(sent)
            results = [Replayed(r, s) for r, s in zip(ready, sent, strict=True)]
    # The partner's own keys are theirs to send: the curl leaves them to $PARTNER_API_KEY, not to ours.
    partner = frozenset({r.partner_key for r in ready if r.partner_key} - {connection.api_key if connection else ""})
    return Replay(list(ready), results, dry_run, connection is not None, partner)


@contextmanager
def _journaled(
    request: ReplayRequest,
    connection: Connection,
    ready: Sequence[Ready],
    timeout: float,
    listener: Listener,
    environ: Mapping[str, str],
) -> Iterator[Callable[[Sequence[Sent]], None]]:
    """The replay journaled like a push: a run per operation and source id, planned before the bodies go;
    `answered(sent)` writes what came back. Without a journal (--no-journal, or one that cannot be opened),
    nothing is written."""
    warn = lambda message: listener.notices([message])  # noqa: E731
    journal = open_journal(environ, warn) if request.output.journal else None
    groups: dict[tuple[Operation, str], list[int]] = {}
    for number, item in enumerate(ready):
        source = item.url.split("/v2/push_ari/", 1)[-1].split("/", 1)[0]
        groups.setdefault((item.body.operation, unquote(source)), []).append(number)
    records: list[tuple[Any, list[int]]] = []
    try:
        for (operation, source), numbers in groups.items() if journal is not None else ():
            assert journal is not None
            start = RunStart(
                "ari-cli replay", operation.value, request.connection.profile or environ.get("ARI_PROFILE") or None,
                connection.base_url, source, {"fill": request.fill, "timeout": timeout},
                tuple(dict.fromkeys(ready[n].body.source for n in numbers)), sandbox=request.connection.sandbox,
                sharepost=mask(connection.api_key),
            )  # fmt: skip
            bodies = [BodySent(ready[n].body.source, ready[n].body.line, ready[n].url, ready[n].document)
                      for n in numbers]  # fmt: skip
            records.append((ReplayRecord(journal, warn, start, bodies), numbers))

        def answered(sent: Sequence[Sent]) -> None:
            for record, numbers in records:
                mine = [sent[n] for n in numbers]
                ok = sum(1 for s in mine if s.outcome.success)
                summary = summarize(len(mine), sum(len(e.records) for e in record.exchanges), len(mine),
                                    {Status.OK: ok, Status.FAILED: len(mine) - ok})  # fmt: skip
                record.answered(mine, summary, int(ExitCode.OK if ok == len(mine) else ExitCode.FAILED))

        yield answered
    finally:
        for record, _ in records:
            record.drain()
        if journal is not None:
            journal.close()
