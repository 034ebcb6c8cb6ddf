"""The command line without rough edges (issue 45, point 4), each as the user meets it at the console script.

Usage errors in the tool's words; help without type labels; `last` for retry and revert; --output json on
policy describe, history prune and samples; completion of --color and of shells; Typer's completion options out of
the help; a suggestion for a misspelt command; `explain "HTTP 416"`; "retried" only when a request was; one look for
a table, at a terminal or in a pipe.
"""

from __future__ import annotations

import datetime as dt
import json
import re
import socket
import sqlite3
from enum import Enum
from pathlib import Path
from typing import Any

import pytest
import typer
import typer.main
from typer.testing import CliRunner

from ari_cli.cli import app
from ari_cli.sandbox import Sandbox
from tests.helpers import invoke, row_of, sandbox_env, subcommands, table_rows
from tests.test_terminal_output import at_a_terminal

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"
# What pydantic says of a value (Typer reads values with it): never shown to a user.
PYDANTIC = re.compile(r"Input should|Value error|valid integer|valid number|unable to parse|than or equal", re.I)


def _commands(command: Any = None, path: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], Any]]:
    command = command or typer.main.get_command(app)
    found = [(path, command)]
    for name, sub in sorted(subcommands(command).items()):
        found += _commands(sub, (*path, name))
    return found


# --- usage errors in the tool's words --------------------------------------------------------------------


def _read_by_type(param: Any) -> bool:
    """Whether Typer would read the parameter's value by its type: a choice, a whole number or a number."""
    annotation = param.type_descriptor.annotation
    inner = getattr(annotation, "__args__", (annotation,))[0] if hasattr(annotation, "__origin__") else annotation
    flag = getattr(param, "is_flag", False)
    return isinstance(inner, type) and (issubclass(inner, Enum) or inner in (int, float)) and not flag


def test_every_choice_and_number_of_every_command_is_read_in_the_tools_words() -> None:
    # Typer reads such a value with pydantic, and says a wrong one in its words, unless a parser reads it
    # (cli/values.py): a command added without one fails here.
    unread = [
        (" ".join(path), param.name)
        for path, command in _commands()
        for param in command.params
        if _read_by_type(param) and param.type_descriptor.parameter_info.parser is None
    ]
    assert unread == []


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["history", "--operation", "rates"], "Invalid value for '--operation': 'rates' is not one of threshold, policy, maxadv"),
        (["history", "--limit", "ten"], "Invalid value for '--limit' / '-n': 'ten' is not a whole number of 0 or more"),
        (["history", "show", "1", "--output", "pdf"], "Invalid value for '--output' / '-o': 'pdf' is not one of table, json, html"),
        (["calendar", "rates", "--property", "HTL001"], "Invalid value for 'OPERATION': 'rates' is not one of threshold, policy, maxadv"),
        (["sandbox", "--port", "http"], "Invalid value for '--port': 'http' is not a whole number from 0 to 65535"),
        (["sandbox", "--fail-rate", "2"], "Invalid value for '--fail-rate': '2' is not a number from 0 to 1"),
        (["errors", "--output", "xml"], "Invalid value for '--output' / '-o': 'xml' is not one of table, json, csv"),
        (["config", "show", "--retries", "-1"], "Invalid value for '--retries': '-1' is not a whole number from 0 to 20"),
    ],
)  # fmt: skip
def test_a_wrong_value_is_said_in_the_tools_words(args: list[str], said: str) -> None:
    result = invoke(args)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.startswith(f"error: {said}\nUsage: ari-cli ")
    assert not PYDANTIC.search(result.stderr)


# --- help without type labels ------------------------------------------------------------------------------


def test_no_help_page_shows_a_python_type() -> None:
    for path, _command in _commands():
        page = invoke([*path, "--help"], env={"COLUMNS": "200"})
        assert page.exit_code == 0, path
        panels = [line for line in page.stdout.splitlines() if line.startswith("│")]
        labels = [re.findall(r"<[a-zA-Z_][\w\[\]|, .-]*>", line) for line in panels]
        assert not any(labels), (path, [label for label in labels if label])


def test_a_flag_shows_nothing_beside_it_and_a_choice_its_values() -> None:
    page = invoke(["threshold", "push", "--help"], env={"COLUMNS": "200"}).stdout
    assert re.search(r"│ --dry-run +Read, validate and plan", page)
    assert re.search(r"│ --overlaps +error\|last-wins +What overlapping", page)
    assert re.search(r"│ \* +FILE +CSV, JSON, JSONL", page)
    assert re.search(r"│ --help +-h +Show this message", page)


def test_typers_completion_options_leave_the_help_to_the_completion_command() -> None:
    page = invoke(["--help"], env={"COLUMNS": "200"}).stdout
    assert "--install-completion" not in page and "--show-completion" not in page
    assert re.search(r"│ completion +Print the shell completion script", page)
    shown = invoke(["--show-completion", "bash"])  # still there, as the contract lists it
    assert shown.exit_code == 0 and shown.stdout.startswith("_ari_cli_completion() {")


# --- retry last, revert last ---------------------------------------------------------------------------------


def _pushed(sb: Sandbox, tmp_path: Path) -> None:
    rooms = tmp_path / "rooms.csv"
    rooms.write_text("propertyid,roomid,start,end,threshold\nHTL001,DBL,2027-01-05,2027-01-06,3\n", encoding="utf-8")
    pushed = invoke(["threshold", "push", str(rooms), "--today", "2027-01-01"], env=sandbox_env(sb))
    assert pushed.exit_code == 0, pushed.stderr


def test_retry_and_revert_take_last_as_history_show_does(sb: Sandbox, tmp_path: Path) -> None:
    _pushed(sb, tmp_path)
    _pushed(sb, tmp_path)
    retried = invoke(["retry", "last", "--dry-run"], env=sandbox_env(sb))
    assert (retried.exit_code, retried.stderr) == (0, "run 2: nothing left to send\n")
    reverted = invoke(["revert", "last", "--dry-run", "-o", "json"], env=sandbox_env(sb))
    assert reverted.exit_code == 0, reverted.stderr
    assert json.loads(reverted.stdout)["reverts"] == 2
    assert json.loads(invoke(["history", "show", "last", "-o", "json"]).stdout)["run"]["id"] == 2


@pytest.mark.parametrize("word", ["newest", "1.5", "#3"])  # 0 is a number of no run (tests/test_journal_access.py)
@pytest.mark.parametrize("command", ["retry", "revert", "history show"])
def test_a_run_that_is_no_number_nor_last_is_a_usage_error(command: str, word: str) -> None:
    result = invoke([*command.split(), word])
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"error: RUN {word!r}: give a run number (see `ari-cli history`) or last\n"


def test_last_in_an_empty_journal_says_there_is_no_run() -> None:
    result = invoke(["retry", "last"])
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.startswith("error: no run in the journal yet\n")


# --- --output json on every command that prints a result ------------------------------------------------------


def test_policy_describe_gives_one_json_document() -> None:
    policies = str(SAMPLES / "policies.toml")
    every = invoke(["policy", "describe", "--policies", policies, "--output", "json"])
    assert (every.exit_code, every.stderr) == (0, "")
    lines = invoke(["policy", "describe", "--policies", policies]).stdout.splitlines()
    assert [f"{p['name']}: {p['description']}" for p in json.loads(every.stdout)["policies"]] == lines
    one = invoke(["policy", "describe", "FLEX7", "--policies", policies, "-o", "json"])
    assert [p["name"] for p in json.loads(one.stdout)["policies"]] == ["flex7"]


def test_history_prune_gives_one_json_document(sb: Sandbox, tmp_path: Path, journal_home: Path) -> None:
    _pushed(sb, tmp_path)
    _pushed(sb, tmp_path)
    old = (dt.datetime.now(dt.UTC) - dt.timedelta(days=100)).isoformat(timespec="milliseconds")
    with sqlite3.connect(journal_home / "journal.sqlite3") as db:
        db.execute("UPDATE runs SET started = ? WHERE id = 1", (old,))
    planned = invoke(["history", "prune", "--older-than", "90d", "--dry-run", "-o", "json"])
    assert planned.exit_code == 0
    assert planned.stderr.startswith("would delete 1 finished run started before ")
    document = json.loads(planned.stdout)
    assert (document["dry_run"], document["deleted"], [r["id"] for r in document["runs"]]) == (True, 0, [1])
    done = json.loads(invoke(["history", "prune", "--older-than", "90d", "-o", "json"]).stdout)
    assert (done["dry_run"], done["deleted"], [r["id"] for r in done["runs"]], done["kept"]) == (False, 1, [1], [])


def test_samples_gives_one_json_document(tmp_path: Path) -> None:
    result = invoke(["samples", str(tmp_path / "s"), "--output", "json"])
    assert (result.exit_code, result.stderr) == (0, "")
    document = json.loads(result.stdout)
    assert document["directory"] == str(tmp_path / "s")
    assert sorted(Path(f).name for f in document["files"]) == sorted(p.name for p in (tmp_path / "s").iterdir())
    assert str(tmp_path / "s" / "threshold.csv") in document["files"]


# --- completion -------------------------------------------------------------------------------------------------


def _completed(line: str) -> list[str]:
    """What TAB offers for the last word of `line`, asked of the app as bash asks it."""
    words = line.split(" ")
    env = {"_ARI_CLI_COMPLETE": "complete_bash", "COMP_WORDS": line, "COMP_CWORD": str(len(words) - 1)}
    result = CliRunner().invoke(app, [], env=env, prog_name="ari-cli")
    return result.stdout.split()


def test_tab_offers_the_colours_and_the_shells() -> None:
    assert _completed("ari-cli --color ") == ["auto", "always", "never"]
    assert _completed("ari-cli history --color n") == ["never"]
    assert _completed("ari-cli completion ") == ["bash", "zsh", "fish", "powershell", "pwsh"]
    assert _completed("ari-cli completion z") == ["zsh"]


# --- a misspelt command ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "meant"), [("treshold", "threshold"), ("hstory", "history"), ("calender", "calendar")]
)
def test_a_misspelt_command_gets_a_suggestion(typed: str, meant: str) -> None:
    result = invoke([typed, "push"])
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == (
        f"error: No such command '{typed}'. Did you mean '{meant}'?\nUsage: ari-cli [OPTIONS] COMMAND [ARGS]...   (-h for help)\n"
    )  # fmt: skip


def test_a_word_like_no_command_gets_none() -> None:
    result = invoke(["zzz"])
    assert result.exit_code == 2 and result.stderr.startswith("error: No such command 'zzz'.\n")


# --- explain takes a code as it is quoted -----------------------------------------------------------------------


@pytest.mark.parametrize("quoted", ["HTTP 416", "http416", "HTTP/1.1 416", "Http-416", " 416 "])
def test_explain_takes_a_status_as_partners_quote_it(quoted: str) -> None:
    plain = invoke(["explain", "416"])
    said = invoke(["explain", quoted])
    assert (said.exit_code, said.stdout, said.stderr) == (0, plain.stdout, "")


@pytest.mark.parametrize("quoted", ["code 440", "error:440"])
def test_explain_takes_a_body_code_as_logs_quote_it(quoted: str) -> None:
    assert invoke(["explain", quoted]).stdout == invoke(["explain", "440"]).stdout


@pytest.mark.parametrize("quoted", ["HTTP", "416x", "HTTP 4 16"])
def test_explain_refuses_what_holds_no_code(quoted: str) -> None:
    result = invoke(["explain", quoted])
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.startswith(f"error: {quoted!r} is not an HTTP status or a body code; known HTTP statuses: ")


# --- "retried" only when a request was ---------------------------------------------------------------------------


def _refusing_port() -> int:
    """A loopback port nothing listens on: a connection to it is refused."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.mark.parametrize(("retries", "said"), [("0", ""), ("2", "; the request was retried")])
def test_a_refused_connection_says_retried_only_when_it_was(tmp_path: Path, retries: str, said: str) -> None:
    rooms = tmp_path / "rooms.csv"
    rooms.write_text("propertyid,roomid,start,end,threshold\nHTL001,DBL,2027-01-05,2027-01-06,3\n", encoding="utf-8")
    env = {"ARI_BASE_URL": f"http://127.0.0.1:{_refusing_port()}", "ARI_SOURCE_ID": "cpbA1", "ARI_API_KEY": "k" * 16}
    result = invoke(["threshold", "push", str(rooms), "--today", "2027-01-01", "--retries", retries], env=env)
    assert result.exit_code == 1
    assert f"What to check:\n  error: check the base URL and your network{said}\n" in result.stdout
    tries = json.loads(invoke(["history", "show", "last", "-o", "json"]).stdout)["requests"][0]["attempts"]
    assert tries == int(retries) + 1


# --- one look for a table ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("columns", [80, 200])
def test_a_piped_table_is_the_terminals_of_its_width_without_colour(
    sandbox: Sandbox, tmp_path: Path, columns: int
) -> None:
    day = dt.date.today() + dt.timedelta(days=3)
    rooms = tmp_path / "rooms.csv"
    rooms.write_text(f"propertyid,roomid,start,end,threshold\nHTL001,DBL,{day},{day},2\n", encoding="utf-8")
    assert invoke(["threshold", "push", str(rooms)], env=sandbox_env(sandbox)).exit_code == 0
    for args in (["history"], ["history", "show", "1"], ["explain", "416"], ["errors"]):
        piped = invoke(args, env={"COLUMNS": str(columns)})
        code, terminal, _ = at_a_terminal(args, {"NO_COLOR": "1"}, columns)
        assert code == piped.exit_code == 0
        assert terminal == piped.stdout, args
        assert "\x1b" not in piped.stdout and "|" not in piped.stdout and "+--" not in piped.stdout


def test_a_pipe_keeps_to_80_columns_unless_columns_says_otherwise(sandbox: Sandbox, tmp_path: Path) -> None:
    rooms = tmp_path / "rooms.csv"
    day = dt.date.today() + dt.timedelta(days=3)
    rooms.write_text(f"propertyid,roomid,start,end,threshold\nHTL001,DBL,{day},{day},2\n", encoding="utf-8")
    narrow = invoke(["threshold", "push", str(rooms), "--dry-run"], env={"COLUMNS": ""})
    assert narrow.exit_code == 0
    assert table_rows(narrow.stdout) == []  # too narrow for the table: a block a row, as at a terminal of 80
    assert f"\n  HTL001 DBL  {day}  threshold 2\n" in narrow.stdout
    wide = invoke(["threshold", "push", str(rooms), "--dry-run"], env={"COLUMNS": "200"})
    assert row_of(wide.stdout, f"{rooms}:2")[1:6] == ["HTL001", "DBL", f"{day}", "2", "planned"]
