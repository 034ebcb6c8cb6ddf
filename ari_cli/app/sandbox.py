"""What `ari-cli sandbox` does: build the emulator from the options, and say how to reach it.

Serving it until Ctrl-C or SIGTERM is the command's (cli/sandbox.py): only the command line owns the process."""

from __future__ import annotations

import datetime as dt
import json
import shlex
from importlib import resources
from pathlib import Path

from ari_cli.app.options import SandboxOptions
from ari_cli.config.settings import is_loopback
from ari_cli.exits import ConfigError, InputError, UsageProblem
from ari_cli.operations.threshold import THRESHOLD
from ari_cli.sandbox import FixtureError, Sandbox
from ari_cli.sandbox.fixtures import DEFAULT_FIXTURES, Account, Property
from ari_cli.sandbox.rules import account_refusal
from ari_cli.wire.errors import BY_STATUS, ERROR_TABLE
from ari_cli.wire.models import push_url

# A long-running sandbox keeps only the latest requests; the Python API keeps them all.
KEEP_RECEIVED = 1000
EXAMPLE_OFFSET_DAYS = 30


def emulator(options: SandboxOptions, day: dt.date | None, delay: tuple[float, float] | None) -> Sandbox:
    """The emulator the options ask for (`day` and `delay` parsed by the command), not yet started; bad fixtures
    are an input error, bad faults a usage error."""
    faults = parse_faults(options.faults)
    try:
        built = Sandbox(
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
    for status, count in faults:
        built.queue_error(status, count)
    return built


def exposed(emulator: Sandbox) -> str | None:
    """The warning a sandbox bound beyond loopback deserves."""
    if is_loopback(emulator.host):
        return None
    return (
        f"binding to {emulator.host} exposes the sandbox and its public test keys "
        "to the network; use --host 127.0.0.1 to keep it local"
    )


def start(emulator: Sandbox) -> None:
    """Start serving; a port that cannot be had is a configuration error (exit 4)."""
    try:
        emulator.start()
    except OSError as problem:
        # Where to listen is set up wrong, not a failed push: exit 4, as for other configuration.
        raise ConfigError(
            f"cannot listen on {emulator.host}:{emulator.port}: {problem.strerror or problem}",
            f"another program (perhaps another sandbox) uses port {emulator.port}; pick another with --port "
            "(--port 0 picks a free one)",
        ) from None


def parse_faults(values: tuple[str, ...]) -> list[tuple[int, int | None]]:
    """`STATUS[:COUNT]` each as (status, count); no COUNT (every request from then on) only last."""
    statuses = ", ".join(str(row.http_status) for row in ERROR_TABLE)
    how = "give --fault STATUS[:COUNT], e.g. --fault 503:2 (the next 2 pushes) or --fault 426 (every push)"
    faults: list[tuple[int, int | None]] = []
    for position, value in enumerate(values):
        status_text, colon, count_text = value.strip().partition(":")
        status = int(status_text) if status_text.isdigit() else None
        if status not in BY_STATUS:
            raise UsageProblem(f"--fault {value!r}: STATUS must be an HTTP status of the error table ({statuses})", how)
        count = int(count_text) if count_text.isdigit() else None
        if colon and (count is None or count < 1):
            raise UsageProblem(f"--fault {value!r}: COUNT must be a whole number of at least 1", how)
        if count is None and position != len(values) - 1:
            raise UsageProblem(
                f"--fault {value!r} answers every request, so a --fault after it would never apply",
                "give it a COUNT, or put it last",
            )
        faults.append((status, count))
    return faults


def write_fixtures(path: Path) -> str:
    """Copy the built-in fixtures (comments included) to `path` as a starting point; never overwrite. What to do
    next, in a sentence."""
    text = resources.files("ari_cli.sandbox").joinpath(DEFAULT_FIXTURES).read_text(encoding="utf-8")
    try:
        with path.open("x", encoding="utf-8") as out:
            out.write(text)
    except FileExistsError:
        raise UsageProblem(
            f"{path} already exists; --write-fixtures does not overwrite a file", "give a new path, or remove it first"
        ) from None
    except OSError as problem:
        raise UsageProblem(
            f"cannot write {path}: {problem.strerror or problem}", "give a path in a folder you can write"
        ) from None
    return f"wrote the default fixtures to {path}; edit them, then: ari-cli sandbox --fixtures {shlex.quote(str(path))}"


def banner(emulator: Sandbox) -> list[str]:
    """What `ari-cli sandbox` prints on start; the keys are the sandbox's own, not secrets."""
    props = emulator.fixtures.properties.values()
    active = ", ".join(p.id for p in props if p.active) or "none"
    inactive = ", ".join(p.id for p in props if not p.active)
    width = max(len(a.key) for a in emulator.fixtures.accounts)
    lines = [
        f"ari-cli sandbox listening on {emulator.base_url}",
        f"  api key:    {emulator.api_key}",
        f"  source id:  {emulator.source_id}",
        f"  properties: {active}" + (f" (inactive: {inactive})" if inactive else ""),
        *(f"    {line}" for p in props for line in _property_lines(p)),
        "  accounts (key, source id, what a push with it gets):",
        *(f"    {_account_line(a, emulator, width)}" for a in emulator.fixtures.accounts),
        f"  today:      {emulator.today.isoformat()}",
        f"  state:      GET {emulator.base_url}/_sandbox/state",
        f"  faults:     POST {emulator.base_url}/_sandbox/faults "
        """'{"kind": "error", "status": 503, "times": 2}' (see ari-cli sandbox --help)""",
    ]
    for fault in emulator.pending_faults():
        times = fault["times"]
        which = (
            "every push request"
            if times is None
            else "the next push request"
            if times == 1
            else f"the next {times} push requests"
        )
        row = BY_STATUS[fault["status"]]
        lines.append(f"  fault:      {which}: HTTP {row.http_status}, code {row.code}: {row.message}")
    example = _curl_example(emulator)
    if example:
        lines += ["", "Try it:", f"  {example}"]
    lines += ["", "Press Ctrl-C to stop."]
    return lines


def _listed(names: frozenset[str], off: frozenset[str]) -> str:
    return ", ".join(sorted(names)) + (f" (switched off: {', '.join(sorted(off))})" if off else "")


def _property_lines(prop: Property) -> list[str]:
    state = "" if prop.active else " (inactive: every push answers 423)"
    return [
        f"{prop.id}{state}",
        f"  rooms: {_listed(prop.rooms, prop.inactive_rooms)}",
        f"  rates: {_listed(prop.rates, prop.inactive_rates)}",
    ]


def _account_line(account: Account, emulator: Sandbox, width: int) -> str:
    refused = account_refusal(account)
    if refused is not None:
        gets = f"HTTP {refused.http_status}, code {refused.code}: {refused.message}"
    else:
        gets = "accepted" + (" (the default)" if account == emulator.default_account else "")
    return f"{account.key:<{width}}  {account.source_id}  {gets}"


def _curl_example(emulator: Sandbox) -> str | None:
    """A curl command that the sandbox answers with success (None if the fixtures allow none)."""
    prop = next((p for p in emulator.fixtures.properties.values() if p.active and p.rooms), None)
    if prop is None:
        return None
    start = emulator.today + dt.timedelta(days=EXAMPLE_OFFSET_DAYS)
    # A sell threshold of 5 for the property's first room over a week, laid out as a push lays it out.
    action, layout = THRESHOLD.action, THRESHOLD.layout
    assert layout is not None
    last = start + dt.timedelta(days=6)
    record = layout(start.isoformat(), last.isoformat(), (prop.id, sorted(prop.rooms)[0]), 5)
    body = {
        "sharepost": emulator.api_key,
        "sourceid": emulator.source_id,
        "propertyid": prop.id,
        "action": action,
        "data": [record],
    }
    url = push_url(emulator.base_url, emulator.source_id, action)
    payload = json.dumps(body, separators=(",", ":"))
    return (
        f"curl -sS {shlex.quote(url)} -H 'accept: application/json' "
        f"-H 'content-type: application/json' -d {shlex.quote(payload)}"
    )
