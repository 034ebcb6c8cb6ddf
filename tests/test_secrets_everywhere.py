"""One distinctive key through every command path: found in no output, report, journal row or crash text."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from ari_cli.sandbox import Sandbox
from ari_cli.wire.errors import ERROR_TABLE
from tests.conftest import PINNED_TODAY
from tests.helpers import invoke

KEY = "zq-DISTINCT-key-5e1f0c9a7b3d-never-shown"
FIXTURES = Path(__file__).parent.parent / "ari_cli" / "sandbox" / "fixtures.toml"
TODAY = ["--today", PINNED_TODAY]
GOOD = "propertyid,roomid,start,end,threshold\nHTL001,DBL,2027-01-01,2027-01-05,3\nHTL001,XXX,2027-01-01,2027-01-05,4\n"


@pytest.fixture
def keyed(tmp_path: Path) -> Iterator[Sandbox]:
    fixtures = tmp_path / "fixtures.toml"
    fixtures.write_text(FIXTURES.read_text().replace("sandbox-key-0001", KEY))
    with Sandbox(fixtures=fixtures, today=PINNED_TODAY) as sandbox:
        yield sandbox


class Seen:
    """Every text a user or a later reader could see, gathered to be searched for the key."""

    def __init__(self) -> None:
        self.texts: list[tuple[str, str]] = []

    def run(self, label: str, args: list[str], env: dict[str, str], input: str | None = None) -> int:
        result = invoke(args, env=env, input=input)
        self.texts.append((f"{label} stdout", result.stdout))
        self.texts.append((f"{label} stderr", result.stderr))
        return result.exit_code

    def file(self, path: Path) -> None:
        self.texts.append((str(path), path.read_bytes().decode("utf-8", "replace")))

    def assert_clean(self) -> None:
        leaks = [label for label, text in self.texts if KEY in text or KEY[4:-4] in text]
        assert not leaks, f"the key appears in: {leaks}"


def test_the_key_appears_nowhere(keyed: Sandbox, tmp_path: Path, journal_home: Path) -> None:
    env = {"ARI_BASE_URL": keyed.base_url, "ARI_API_KEY": KEY, "ARI_SOURCE_ID": keyed.source_id}
    seen = Seen()
    data = tmp_path / "rooms.csv"
    data.write_text(GOOD)
    one = tmp_path / "one.csv"
    one.write_text(GOOD.splitlines()[0] + "\n" + GOOD.splitlines()[1] + "\n")
    push = ["threshold", "push", str(data), *TODAY]

    # Success and a row failure, every output form, verbose, curl, reports.
    for output in ("table", "json", "csv"):
        report = tmp_path / f"report-{output}.{'csv' if output == 'csv' else 'json'}"
        code = seen.run(
            f"push {output}", [*push, "--output", output, "--verbose", "--curl", "--report", str(report)], env
        )
        assert code == 1
        seen.file(report)
    assert seen.run("push ok", ["threshold", "push", str(one), *TODAY, "-v"], env) == 0
    # Dry runs, with and without configuration.
    assert seen.run("dry run", [*push, "--dry-run", "--verbose", "--curl", "--output", "json"], env) == 0
    assert seen.run("dry run table", [*push, "--dry-run", "--curl"], env) == 0
    # Every error of the spec's table, answered by the service.
    for row in ERROR_TABLE:
        keyed.queue_error(row.http_status)
        seen.run(f"error {row.code}", ["threshold", "push", str(one), *TODAY, "--retries", "0", "-v"], env)
    # Transport failures.
    keyed.queue_html(502)
    keyed.queue_drop()
    seen.run("faults", ["threshold", "push", str(one), *TODAY, "--retries", "1", "-v"], env)
    refused = {**env, "ARI_BASE_URL": "http://127.0.0.1:9"}
    assert seen.run("refused", ["threshold", "push", str(one), *TODAY, "--retries", "0"], refused) == 1
    # A send command, replay (the body carries the key), replay's curl.
    assert seen.run("send", ["threshold", "send", "--property", "HTL001", "--room", "DBL", "--date", "2027-01-02",
                             "--threshold", "4", *TODAY, "-v", "--curl"], env) == 0  # fmt: skip
    body = tmp_path / "call.json"
    body.write_text(json.dumps({"sharepost": KEY, "sourceid": keyed.source_id, "propertyid": "HTL001",
                                "action": "sellthresholdupdate", "data": [{"startdateymd": "2027-01-03",
                                "enddateymd": "2027-01-04", "roomid": "DBL", "threshold": "2"}]}))  # fmt: skip
    assert seen.run("replay", ["replay", str(body), "--no-fill", "-v", "--curl"], env) == 0
    assert seen.run("replay json", ["replay", str(body), "--output", "json"], env) == 0
    # A wrong source id for the key, and a key file.
    key_file = tmp_path / "key.txt"
    key_file.write_text(KEY + "\n")
    wrong = {"ARI_BASE_URL": keyed.base_url, "ARI_SOURCE_ID": "cpbZ9"}
    seen.run("wrong source", ["threshold", "push", str(one), *TODAY, "--api-key-file", str(key_file)], wrong)
    # Configuration.
    config = tmp_path / "config.toml"
    config.write_text(f'[profiles.default]\nbase_url = "{keyed.base_url}"\nsource_id = "cpbA1"\napi_key = "{KEY}"\n')
    config.chmod(0o600)
    for output in ("table", "json"):
        assert seen.run(f"config show {output}", ["config", "show", "--config", str(config), "--output", output],
                        {}) == 0  # fmt: skip
    assert seen.run("config show env", ["config", "show"], env) == 0
    made = tmp_path / "made.toml"
    seen.run("config init", ["config", "init", "--config", str(made), "--base-url", "https://push.example.com",
                             "--source-id", "cpbA1"], {}, input=f"{KEY}\n\n\n\n\n\n\n\n\n")  # fmt: skip
    # The journal's readers, and retry.
    assert seen.run("history", ["history"], env) == 0
    assert seen.run("history json", ["history", "--output", "json"], env) == 0
    for run in ("1", "3"):
        seen.run(f"history show {run}", ["history", "show", run, "--body"], env)
        seen.run(f"history show {run} json", ["history", "show", run, "--output", "json"], env)
    seen.run("history find", ["history", "find", "--property", "HTL001", "--room", "DBL", "--date", "2027-01-02",
                              "--body"], env)  # fmt: skip
    seen.run("calendar", ["calendar", "threshold", "--property", "HTL001", "--from", "2027-01-01"], env)
    seen.run("retry", ["retry", "1", "-v", "--curl"], env)
    # Everything the journal holds, byte for byte.
    for name in ("journal.sqlite3", "journal.sqlite3-wal"):
        if (journal_home / name).exists():
            seen.file(journal_home / name)
    with sqlite3.connect(journal_home / "journal.sqlite3") as db:
        for (table,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall():
            for row in db.execute(f"SELECT * FROM {table}"):
                seen.texts.append((f"journal {table}", repr(row)))
    seen.assert_clean()
    assert keyed.received, "the pushes reached the sandbox"


CRASH = """
import os
import httpcore
from ari_cli.cli import main

async def explode(self, *args, **kwargs):
    raise RuntimeError("unexpected failure holding " + os.environ["ARI_API_KEY"])

httpcore.AsyncConnectionPool.handle_async_request = explode
main()
"""


@pytest.mark.parametrize("traceback", ["", "1"])
def test_a_crash_shows_no_key_even_with_the_traceback(keyed: Sandbox, tmp_path: Path, traceback: str) -> None:
    data = tmp_path / "one.csv"
    data.write_text(GOOD.splitlines()[0] + "\n" + GOOD.splitlines()[1] + "\n")
    env = {**os.environ, "ARI_BASE_URL": keyed.base_url, "ARI_API_KEY": KEY, "ARI_SOURCE_ID": keyed.source_id,
           "ARI_TRACEBACK": traceback}  # fmt: skip
    # The fault is an HTTP library failure no socket can make: an exception whose text holds the key.
    result = subprocess.run(
        [sys.executable, "-c", CRASH, "threshold", "push", str(data), *TODAY],
        env=env, capture_output=True, text=True, timeout=60, cwd=tmp_path,
    )  # fmt: skip
    assert result.returncode == 1
    assert "internal error: RuntimeError: unexpected failure holding zq-D…hown" in result.stderr
    assert ("Traceback" in result.stderr) is bool(traceback)
    assert KEY not in result.stdout + result.stderr
