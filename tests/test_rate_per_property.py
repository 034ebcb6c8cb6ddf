"""`--rate-per-property`: the sandbox sees no property receive more than N requests in any window, while the
other properties go on; a gateway's 429 is sent again after its Retry-After. Times are the sandbox's side,
with wide margins: the budget is checked as "never faster than", never as "within so many seconds"."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from ari_cli.sandbox.emulator import Sandbox
from tests.conftest import PINNED_TODAY
from tests.test_faults import clean_env

SCRIPT = str(Path(sys.executable).parent / "ari-cli")
PROPERTIES = ("HTL001", "HTL002", "HTL003")


@contextmanager
def arrivals(sandbox: Sandbox) -> Iterator[list[tuple[float, str]]]:
    """(when, propertyid) of each request, as the sandbox noted it when it handled the request."""
    seen: list[tuple[float, str]] = []
    try:
        yield seen
    finally:
        seen.extend((received.at, received.json["propertyid"]) for received in sandbox.received)


def _rows(tmp_path: Path, per_property: int) -> Path:
    lines = [
        f"{p},DBL,2027-02-{day:02d},2027-02-{day:02d},{day}" for p in PROPERTIES for day in range(1, per_property + 1)
    ]
    path = tmp_path / "rooms.csv"
    path.write_text("propertyid,roomid,start,end,threshold\n" + "\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_no_property_receives_more_than_its_budget_in_any_second_while_the_others_go_on(tmp_path: Path) -> None:
    with Sandbox(today=PINNED_TODAY) as sandbox, arrivals(sandbox) as seen:
        env = clean_env(tmp_path, ARI_BASE_URL=sandbox.base_url, ARI_API_KEY=sandbox.api_key,
                        ARI_SOURCE_ID=sandbox.source_id, ARI_HOME=str(tmp_path / "ari"))  # fmt: skip
        args = ["threshold", "push", str(_rows(tmp_path, 5)), "--today", PINNED_TODAY, "--no-merge",
                "--batch-size", "1", "--concurrency", "8", "--rate-per-property", "2/s", "--output", "json"]  # fmt: skip
        done = subprocess.run([SCRIPT, *args], capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["summary"]["ok"] == 15
    assert sorted(p for _, p in seen) == sorted(PROPERTIES * 5)
    for prop in PROPERTIES:
        times = [when for when, p in seen if p == prop]
        # Two per second: a third comes a second after the first. Allow half of it for jitter on the way.
        for first, third in zip(times, times[2:], strict=False):
            assert third - first > 0.5, (prop, times)
    # The properties went side by side: the first six requests the sandbox saw were two of each.
    assert sorted(p for _, p in seen[:6]) == sorted(PROPERTIES * 2), seen[:6]


def test_a_gateways_rate_limit_is_waited_out_and_sent_again_counted_as_a_retry(tmp_path: Path) -> None:
    with Sandbox(today=PINNED_TODAY) as sandbox, arrivals(sandbox) as seen:
        sandbox.queue_raw(429, b"<html>Too Many Requests</html>", {"content-type": "text/html", "retry-after": "2"},
                          times=1)  # fmt: skip
        env = clean_env(tmp_path, ARI_BASE_URL=sandbox.base_url, ARI_API_KEY=sandbox.api_key,
                        ARI_SOURCE_ID=sandbox.source_id, ARI_HOME=str(tmp_path / "ari"))  # fmt: skip
        args = ["threshold", "push", str(_rows(tmp_path, 1)), "--today", PINNED_TODAY, "--concurrency", "1",
                "--output", "json"]  # fmt: skip
        done = subprocess.run([SCRIPT, *args], capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout)
    assert document["summary"]["ok"] == 3
    limited = next(r for r in document["requests"] if r["attempts"] == 2)
    again = [when for when, p in seen if p == limited["propertyid"]]
    assert len(again) == 2 and again[1] - again[0] > 1.0, again  # Retry-After: 2, with room for jitter
    # A refusal a retry would meet again: with --retries 0 the gateway's 429 is the row's answer.
    sandbox_args = [*args, "--retries", "0"]
    with Sandbox(today=PINNED_TODAY) as sandbox:
        sandbox.queue_raw(429, b"<html>Too Many Requests</html>", {"retry-after": "1"}, times=1)
        env.update(ARI_BASE_URL=sandbox.base_url)
        done = subprocess.run([SCRIPT, *sandbox_args], capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 1, done.stderr
    assert "too many requests: a gateway's rate limit" in done.stdout
