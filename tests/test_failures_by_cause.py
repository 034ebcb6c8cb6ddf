"""Over 50 failed rows, without --show, a run's table (a push's, `history show`'s) lists them by cause and
property: a line each with its count, and its first three rows, at a terminal and in a pipe alike (cron mails
it). `--show failed` lists every failed row, `--output json` and `csv` keep every row."""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from ari_cli.sandbox import Sandbox
from tests.helpers import invoke, sandbox_env
from tests.misbehaving import misbehaving, stall
from tests.test_faults import clean_env, run_cli
from tests.test_terminal_output import at_a_terminal
from tests.widths import whole, within

TODAY = dt.date.today()
HEADER = "propertyid,roomid,start,end,threshold\n"
UNKNOWN_ROOM = "451 invalid room mapping (HTTP 422)"
HINT = "--show failed lists every failed row, --show all every row"


def day(offset: int) -> str:
    return (TODAY + dt.timedelta(days=offset)).isoformat()


def unknown_rooms(folder: Path) -> Path:
    """3,000 rows of ten rooms HTL001 does not have, the rooms taking turns (row i: room i % 10, its day i // 10):
    no two rows in a row are alike, and each room's 300 days are one record."""
    path = folder / "rooms.csv"
    rows = [f"HTL001,NOPE{i % 10},{day(1 + i // 10)},{day(1 + i // 10)},2\n" for i in range(3000)]
    path.write_text(HEADER + "".join(rows), encoding="utf-8")
    return path


def words(text: str) -> str:
    """`text` with its lines joined: a sentence wrapped at the width reads as one line."""
    return " ".join(text.split())


def lines_shown(stdout: str, path: Path) -> list[int]:
    return [int(n) for n in re.findall(rf"{re.escape(str(path))}:(\d+)\b", stdout)]


def push(path: Path, sandbox: Sandbox, *extra: str, columns: int = 1000) -> Any:
    env = {**sandbox_env(sandbox), "COLUMNS": str(columns)}
    return invoke(["threshold", "push", str(path), *extra], env=env)


@pytest.mark.parametrize("columns", [80, 1000])
def test_three_thousand_rows_refused_for_one_cause_are_a_few_lines_in_a_pipe(
    tmp_path: Path, sandbox: Sandbox, columns: int
) -> None:
    path = unknown_rooms(tmp_path)
    result = push(path, sandbox, columns=columns)
    assert result.exit_code == 1, result.stdout + result.stderr
    sent = {record["roomid"] for r in sandbox.received for record in r.json["data"]}
    assert sent == {f"NOPE{n}" for n in range(10)}  # every room was sent, and refused
    lines = result.stdout.splitlines()
    assert len(lines) < 100, result.stdout
    assert f"3000 rows failed, property HTL001: {UNKNOWN_ROOM}" in lines
    assert f"3000 failed rows by cause and property: the first 3 of each above; {HINT}" in words(result.stdout)
    assert lines_shown(result.stdout, path) == [2, 3, 4]  # the first three rows, each whole
    assert {"NOPE0", "NOPE1", "NOPE2"} <= set(result.stdout.split())
    assert "What to check:" in lines and "not shown" not in result.stdout
    # One request of 10 records, split within its property's budget (8: halving 10 records to one), not 18 times.
    assert lines[-1] == "3000 rows: 0 ok, 3000 failed, 0 invalid, 0 skipped; 10 records, sent 9 of 9 requests"
    assert result.stderr == ""


@pytest.mark.parametrize("columns", [80, 200])
def test_at_a_terminal_the_same_groups(same_length_folder: Path, sandbox: Sandbox, columns: int) -> None:
    path = unknown_rooms(same_length_folder)
    code, shown, stderr = at_a_terminal(
        ["threshold", "push", str(path)], {**sandbox_env(sandbox), "NO_COLOR": "1"}, columns
    )
    assert code == 1, stderr
    assert len(shown.splitlines()) < 100, shown
    assert f"3000 rows failed, property HTL001: {UNKNOWN_ROOM}" in words(shown)
    assert f"3000 failed rows by cause and property: the first 3 of each above; {HINT}" in words(shown)
    assert all(whole(shown, f"{path}:{line}") for line in (2, 3, 4)) and f"{path}:5" not in shown
    within(shown, columns)


def test_show_failed_lists_every_row_and_json_and_csv_keep_every_row(tmp_path: Path, sandbox: Sandbox) -> None:
    path = unknown_rooms(tmp_path)
    listed = push(path, sandbox, "--show", "failed")
    assert listed.exit_code == 1, listed.stderr
    assert lines_shown(listed.stdout, path) == list(range(2, 3002))
    assert "by cause" not in listed.stdout and listed.stdout.count(UNKNOWN_ROOM) == 3000 + 0
    every = push(path, sandbox, "--show", "all")
    assert lines_shown(every.stdout, path) == list(range(2, 3002))
    as_json = push(path, sandbox, "--output", "json")
    assert as_json.exit_code == 1, as_json.stderr
    rows = json.loads(as_json.stdout)["rows"]
    assert len(rows) == 3000 and {row["status"] for row in rows} == {"failed"}
    assert [row["line"] for row in rows] == list(range(2, 3002))
    as_csv = push(path, sandbox, "--output", "csv")
    table = list(csv.DictReader(io.StringIO(as_csv.stdout)))
    assert len(table) == 3000 and {row["status"] for row in table} == {"failed"}


def test_history_show_of_the_run_reads_alike(tmp_path: Path, sandbox: Sandbox) -> None:
    path = unknown_rooms(tmp_path)
    assert push(path, sandbox).exit_code == 1
    shown = invoke(["history", "show", "1"], env={"COLUMNS": "80"})
    assert shown.exit_code == 0, shown.stderr
    lines = shown.stdout.split("Rows (3000)")[1].splitlines()  # the requests before: 19, each a block at 80
    assert len(lines) < 100, shown.stdout
    assert f"3000 rows failed, property HTL001: {UNKNOWN_ROOM}" in lines
    assert f"3000 failed rows by cause and property: the first 3 of each above; {HINT}" in words(shown.stdout)
    assert lines_shown(shown.stdout.split("Rows (3000)")[1], path) == [2, 3, 4]
    listed = invoke(["history", "show", "1", "--show", "failed"])
    assert lines_shown(listed.stdout.split("Rows (3000)")[1], path) == list(range(2, 3002))
    assert "by cause" not in listed.stdout


MIXED = [["HTL001", "NOPE"], ["HTL001", "OLD"], ["HTL002", "NOPE"], ["HTL999", "DBL"]]
TURNS = [*[("HTL001", "NOPE")] * 6, *[("HTL001", "OLD")] * 4, *[("HTL002", "NOPE")] * 3, *[("HTL999", "DBL")] * 2]


def mixed(folder: Path) -> Path:
    """Four groups, their rows taking turns: 120 rows of an unknown room and 80 of a switched-off one at HTL001,
    60 of an unknown room at HTL002, 40 of a property the service does not know."""
    rows, days = [], dict.fromkeys(TURNS, 0)
    for _ in range(20):
        for kind in TURNS:
            days[kind] += 1
            rows.append(f"{kind[0]},{kind[1]},{day(days[kind])},{day(days[kind])},3\n")
    path = folder / "mixed.csv"
    path.write_text(HEADER + "".join(rows), encoding="utf-8")
    return path


def headings(stdout: str) -> list[str]:
    return [line for line in stdout.splitlines() if re.match(r"\d+ rows? (failed|not sent), property ", line)]


def test_two_causes_and_two_properties_are_four_groups_the_largest_first(tmp_path: Path, sandbox: Sandbox) -> None:
    path = mixed(tmp_path)
    result = push(path, sandbox)
    assert result.exit_code == 1, result.stdout + result.stderr
    found = headings(result.stdout)
    assert found[0] == f"120 rows failed, property HTL001: {UNKNOWN_ROOM}"
    assert re.fullmatch(r"80 rows failed, property HTL001: 453 mapping is not active \(HTTP \d+\)", found[1])
    assert found[2] == f"60 rows failed, property HTL002: {UNKNOWN_ROOM}"
    assert re.fullmatch(r"40 rows failed, property HTL999: 446 invalid property mapping \(HTTP \d+\)", found[3])
    assert len(found) == 4 and len(result.stdout.splitlines()) < 100
    # Each group's first three rows, in file order.
    rows = [line.split(",")[:2] for line in path.read_text().splitlines()[1:]]
    firsts = [[n + 2 for n, row in enumerate(rows) if row == kind][:3] for kind in MIXED]
    assert lines_shown(result.stdout, path) == [line for lines in firsts for line in lines]
    assert f"300 failed rows by cause and property: the first 3 of each above; {HINT}" in words(result.stdout)
    assert result.stdout.splitlines()[-1].startswith("300 rows: 0 ok, 300 failed, 0 invalid, 0 skipped;")
    history = invoke(["history", "show", "last"])
    assert headings(history.stdout) == found  # both tables read alike
    rows = json.loads(push(path, sandbox, "--output", "json").stdout)["rows"]
    assert len(rows) == 300


def test_fifty_failed_rows_are_listed_each_and_fifty_one_by_cause(tmp_path: Path, sandbox: Sandbox) -> None:
    path = tmp_path / "rooms.csv"
    fifty = [f"HTL001,NOPE,{day(n)},{day(n)},{n}\n" for n in range(1, 51)]  # values differ: each its own record
    path.write_text(HEADER + "".join(fifty) + f"HTL001,DBL,{day(1)},{day(9)},4\n" * 10, encoding="utf-8")
    # A request a record: each refused row has an answer of its own (splitting is budgeted per property).
    listed = push(path, sandbox, "--batch-size", "1")
    assert lines_shown(listed.stdout, path) == list(range(2, 52))
    assert "10 ok or skipped rows not shown; --show all lists every row" in listed.stdout
    assert not headings(listed.stdout)
    path.write_text(HEADER + "".join(fifty) + f"HTL001,NOPE,{day(60)},{day(60)},60\n", encoding="utf-8")
    grouped = push(path, sandbox, "--batch-size", "1")
    assert headings(grouped.stdout) == [f"51 rows failed, property HTL001: {UNKNOWN_ROOM}"]
    assert lines_shown(grouped.stdout, path) == [2, 3, 4]


def _start(args: list[str], env: dict[str, str]) -> subprocess.Popen[str]:
    command = [sys.executable, "-m", "ari_cli", *args]
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)


def test_rows_not_sent_are_grouped_by_their_note(tmp_path: Path) -> None:
    path = tmp_path / "rooms.csv"
    path.write_text(HEADER + "".join(f"HTL001,DBL,{day(n)},{day(n)},{n}\n" for n in range(1, 81)), encoding="utf-8")
    env = clean_env(tmp_path, ARI_API_KEY="bounds-key-0001", ARI_SOURCE_ID="cpbA1", ARI_HOME=str(tmp_path / "ari"))
    env["COLUMNS"] = "1000"  # a pipe as wide as the table: a heading on a line of its own
    with misbehaving(stall(120)) as (base_url, seen):
        env["ARI_BASE_URL"] = base_url
        args = ["threshold", "push", str(path), "--batch-size", "1", "--concurrency", "1", "--timeout", "100"]
        process = _start(args, env)
        deadline = time.monotonic() + 30
        while not seen:
            assert time.monotonic() < deadline, "the request never came"
            time.sleep(0.05)
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    found = headings(out)
    assert found == [
        "79 rows not sent, property HTL001: the run was interrupted before this request went out",
        "1 row failed, property HTL001: not confirmed: the run was interrupted while this request was in flight",
    ], out
    assert f"80 failed or not sent rows by cause and property: the first 3 of each above; {HINT}" in words(out)
    assert lines_shown(out, path) == [3, 4, 5, 2]
    assert len(out.splitlines()) < 100
    history = run_cli(["history", "show", "1"], env)
    assert headings(history.stdout) == found, history.stdout


def test_past_ten_groups_the_rest_are_counted(tmp_path: Path, sandbox: Sandbox) -> None:
    # Twelve properties the service does not know, HTL950 with 3 rows, HTL951 with 4, ... HTL961 with 14.
    path = tmp_path / "properties.csv"
    rows = [f"HTL{950 + k},DBL,{day(n)},{day(n)},5\n" for k in range(12) for n in range(1, 4 + k)]
    path.write_text(HEADER + "".join(rows), encoding="utf-8")
    result = push(path, sandbox)
    assert result.exit_code == 1, result.stdout + result.stderr
    assert {r.json["propertyid"] for r in sandbox.received} == {f"HTL{950 + k}" for k in range(12)}
    found = headings(result.stdout)
    assert [line.split(",")[0] for line in found] == [f"{14 - k} rows failed" for k in range(10)]
    assert [line.split()[4].rstrip(":") for line in found] == [f"HTL{961 - k}" for k in range(10)]
    assert all(re.search(r": 446 invalid property mapping \(HTTP \d+\)$", line) for line in found)
    assert (
        "102 failed rows by cause and property: the first 3 of each of the 10 largest groups above"
        f" (7 rows in 2 other groups); {HINT}" in words(result.stdout)
    )
    assert len(lines_shown(result.stdout, path)) == 30 and "HTL950" not in result.stdout
