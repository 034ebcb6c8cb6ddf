"""Under `--output json`, every ending prints exactly one JSON document on stdout: usage errors (exit 2), a run
that does not exist, a retry with nothing left to send. When `--output` itself is the mistake, nothing is
known of what was asked, and the error goes to stderr alone."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import typer

from ari_cli.cli import app
from ari_cli.sandbox import Sandbox
from tests.conftest import PINNED_TODAY
from tests.helpers import subcommands

TIMEOUT = 120


def _commands() -> list[list[str]]:
    """Every command that takes --output, by its words (`history` included: the group itself lists runs)."""
    found: list[list[str]] = []

    def walk(command: Any, path: list[str]) -> None:
        if any("--output" in getattr(p, "opts", ()) for p in command.params):
            found.append(path)
        for name, sub in subcommands(command).items():
            walk(sub, [*path, name])

    walk(typer.main.get_command(app), [])
    return found


COMMANDS = _commands()


def ari(args: list[str], env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(Path(sys.executable).parent / "ari-cli"), *args],
        capture_output=True, text=True, timeout=TIMEOUT, stdin=subprocess.DEVNULL, env={**os.environ, **(env or {})},
    )  # fmt: skip


def one_document(stdout: str) -> dict[str, Any]:
    """stdout holds exactly one JSON document (json.loads refuses anything after it)."""
    document = json.loads(stdout)
    assert isinstance(document, dict)
    return document


def test_the_walk_finds_every_command_that_shows_json() -> None:
    names = {" ".join(c) for c in COMMANDS}
    assert {"threshold push", "policy send", "maxadv diff", "retry", "replay", "history", "history show"} <= names
    assert {"calendar", "config show", "config profiles", "explain", "errors", "history find"} <= names


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_an_unknown_option_under_output_json_is_one_document_and_exit_2(command: list[str]) -> None:
    result = ari([*command, "--output", "json", "--no-such-option"])
    assert result.returncode == 2, result.stderr
    assert result.stderr.startswith("error: No such option: --no-such-option\n")
    error = one_document(result.stdout)["error"]
    assert error["kind"] == "usage"
    assert error["message"] == "No such option: --no-such-option"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["threshold", "push", "x.csv", "-o", "json", "--batch-size", "0"],
            "Invalid value for '--batch-size': '0' is not a whole number from 1 to 1000",
        ),
        (
            ["threshold", "send", "--output=json", "--today", "soon"],
            "Invalid value for '--today': 'soon' is not a date of the form YYYY-MM-DD",
        ),
        (["retry", "-ojson", "x"], "RUN 'x': give a run number (see `ari-cli history`) or last"),
    ],
)
def test_a_bad_value_after_output_json_is_one_document(args: list[str], message: str) -> None:
    result = ari(args)
    assert result.returncode == 2
    assert result.stderr.startswith(f"error: {message}\n"), result.stderr
    document = one_document(result.stdout)
    assert document["error"]["kind"] == "usage" and document["error"]["message"] == message


@pytest.mark.parametrize(
    "args",
    [
        ["threshold", "push", "x.csv", "--output", "yaml"],
        ["history", "--output", "json", "--output", "csv"],
        ["retry", "1", "--output"],
    ],
)
def test_a_bad_output_itself_goes_to_stderr_alone(args: list[str]) -> None:
    result = ari(args)
    assert result.returncode == 2
    assert result.stdout == ""
    first = result.stderr.splitlines()[0]
    assert first.startswith("error: ") and "--output" in first


@pytest.mark.parametrize("command", [["retry", "7"], ["history", "show", "7"]], ids=" ".join)
def test_no_such_run_is_one_document(command: list[str]) -> None:
    result = ari([*command, "--output", "json"])
    assert result.returncode == 2
    assert result.stderr.startswith("error: no run 7 in the journal\n")
    error = one_document(result.stdout)["error"]
    assert error == {"kind": "usage", "message": "no run 7 in the journal", "hint": error["hint"]}
    assert "no runs yet" in error["hint"]


def test_a_retry_with_nothing_left_is_an_empty_run_document(tmp_path: Path) -> None:
    rooms = tmp_path / "rooms.csv"
    rooms.write_text("propertyid,roomid,date,threshold\nHTL001,DBL,2027-01-01,2\n")
    with Sandbox(today=PINNED_TODAY) as sandbox:
        env = {"ARI_BASE_URL": sandbox.base_url, "ARI_API_KEY": sandbox.api_key, "ARI_SOURCE_ID": sandbox.source_id}
        pushed = ari(["threshold", "push", str(rooms), "--today", PINNED_TODAY, "-q"], env)
        assert pushed.returncode == 0, pushed.stderr
        result = ari(["retry", "1", "--output", "json"], env)
    assert result.returncode == 0, result.stderr
    assert result.stderr == "run 1: nothing left to send\n"
    document = one_document(result.stdout)
    assert document["operation"] == "threshold" and document["dry_run"] is False
    assert document["rows"] == [] and document["requests"] == [] and document["summary"]["requests"] == 0
    assert "error" not in document


def test_a_retry_with_nothing_left_prints_nothing_on_stdout_as_a_table(tmp_path: Path) -> None:
    rooms = tmp_path / "rooms.csv"
    rooms.write_text("propertyid,roomid,date,threshold\nHTL001,DBL,2027-01-01,2\n")
    with Sandbox(today=PINNED_TODAY) as sandbox:
        env = {"ARI_BASE_URL": sandbox.base_url, "ARI_API_KEY": sandbox.api_key, "ARI_SOURCE_ID": sandbox.source_id}
        assert ari(["threshold", "push", str(rooms), "--today", PINNED_TODAY, "-q"], env).returncode == 0
        result = ari(["retry", "1"], env)
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "run 1: nothing left to send\n")


def test_a_push_that_stops_keeps_its_own_document_and_only_one(tmp_path: Path) -> None:
    env = {"ARI_BASE_URL": "", "ARI_API_KEY": "", "ARI_SOURCE_ID": ""}
    rooms = tmp_path / "rooms.csv"
    rooms.write_text("propertyid,roomid,date,threshold\nHTL001,DBL,2027-01-01,2\n")
    result = ari(["threshold", "push", str(rooms), "--output", "json"], env)
    assert result.returncode == 4
    document = one_document(result.stdout)
    assert document["operation"] == "threshold" and document["rows"] == []
    assert document["error"]["kind"] == "config"
