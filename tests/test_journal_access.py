"""Who may open the journal and how: readers that never write, writers that wait, prune with care."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from ari_cli.sandbox import Sandbox
from tests.confined import read_only
from tests.conftest import PINNED_TODAY
from tests.helpers import invoke, sandbox_env
from tests.terminal import converse
from tests.test_history import as_json, push

TODAY = ["--today", PINNED_TODAY]


def journal_file(home: Path) -> Path:
    return home / "journal.sqlite3"


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def pushed(sb: Sandbox, tmp_path: Path) -> Sandbox:
    """Two finished runs: one all ok, one with a room the service does not map."""
    assert push(sb, tmp_path, "ok.csv", "HTL001,DBL,2027-01-01,2027-01-10,2").exit_code == 0
    assert push(sb, tmp_path, "mixed.csv", "HTL001,TWN,2027-01-02,2027-01-03,5", "HTL001,XXX,2027-01-01,2027-01-05,4").exit_code == 1  # fmt: skip
    return sb


# --- reading never writes -----------------------------------------------------------------------


def test_every_reader_works_on_a_read_only_journal_and_changes_nothing(pushed: Sandbox, journal_home: Path) -> None:
    with sqlite3.connect(journal_file(journal_home)) as db:
        (trackingid,) = db.execute("SELECT trackingid FROM requests WHERE run = 1").fetchone()
    before = digest(journal_file(journal_home))
    readers = [
        (["history"], "mixed.csv"),
        (["history", "show", "2"], "451 invalid room mapping"),
        (["history", "find", "--trackingid", trackingid], "run 1, request 1"),
        (["history", "find", "--property", "HTL001", "--date", "2027-01-02"], "yes"),
        (["calendar", "threshold", "--property", "HTL001", "--from", "2027-01-01", "--to", "2027-01-03"], "DBL"),
    ]
    for args, expected in readers:
        result = read_only(journal_home, args, env=sandbox_env(pushed))
        assert result.returncode == 0, (args, result.stderr)
        assert expected in result.stdout, (args, result.stdout)
        assert "error" not in result.stderr and "Traceback" not in result.stderr
    assert digest(journal_file(journal_home)) == before
    # A writer on a read-only journal sends nothing (issue 30): exit 4, saying how to push unrecorded.
    (journal_home.parent / "one.csv").write_text("propertyid,roomid,date,threshold\nHTL001,SGL,2027-01-04,3\n")
    env = sandbox_env(pushed)
    pushing = read_only(journal_home, ["threshold", "push", str(journal_home.parent / "one.csv"), *TODAY], env=env)
    assert pushing.returncode == 4, pushing.stderr
    assert pushing.stderr.count("error: the journal cannot be written: nothing was sent") == 1, pushing.stderr
    assert "push unrecorded with --no-journal" in pushing.stderr
    assert "SGL" not in pushed.state()["threshold"]["HTL001"]
    unrecorded = read_only(journal_home, ["threshold", "push", str(journal_home.parent / "one.csv"), *TODAY,
                                          "--no-journal"], env=env)  # fmt: skip
    assert unrecorded.returncode == 0, unrecorded.stderr
    assert pushed.state()["threshold"]["HTL001"]["SGL"] == {"2027-01-04": "3"}
    assert digest(journal_file(journal_home)) == before


def test_reading_creates_no_schema_in_an_empty_file(journal_home: Path) -> None:
    journal_file(journal_home).touch()
    result = invoke(["history", "-o", "json"])
    assert result.exit_code == 0 and as_json(result)["runs"] == []
    assert journal_file(journal_home).stat().st_size == 0


def _corrupt_pages(path: Path) -> None:
    """Garbage over the pages after the first: the header is sound, the tables are not."""
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    data = bytearray(path.read_bytes())
    page = int.from_bytes(data[16:18], "big")
    data[page:] = b"\xa5" * (len(data) - page)
    path.write_bytes(bytes(data))


@pytest.mark.parametrize(
    ("damage", "reason"),
    [
        ("pages", "database disk image is malformed"),
        ("json", "stored data is not JSON"),
        ("date", "a stored value cannot be read"),
    ],
)
def test_a_damaged_journal_is_exit_4_saying_to_move_it_aside(
    pushed: Sandbox, journal_home: Path, damage: str, reason: str
) -> None:
    path = journal_file(journal_home)
    if damage == "pages":
        _corrupt_pages(path)
    else:
        with sqlite3.connect(path) as db:
            if damage == "json":
                db.execute("UPDATE runs SET options = '{not json' WHERE id = 2")
                db.execute("UPDATE requests SET body = '[[' WHERE run = 2")
            else:
                db.execute("UPDATE records SET end = '2027-02-31' WHERE run = 1")
                db.execute("UPDATE acked SET end = '2027-02-31' WHERE run = 1")
    find = ["history", "find", "--property", "HTL001", "--date", "2027-01-02"]
    calendar = ["calendar", "threshold", "--property", "HTL001"]
    readers = {
        "pages": [["history"], ["history", "show", "2"], find, calendar, ["retry", "2"]],
        "json": [["history"], ["history", "show", "2"], find, ["retry", "2"]],  # the calendar reads no JSON
        "date": [["history", "show", "1"], find, calendar],
    }[damage]
    for args in readers:
        result = invoke(args, env=sandbox_env(pushed))
        assert result.exit_code == 4, (args, result.output)
        assert f"error: the journal {path} cannot be read: " in result.stderr, (args, result.stderr)
        assert reason in result.stderr and "; move it aside and a new one starts" in result.stderr
        assert "internal error" not in result.stderr and "Traceback" not in result.output
    # Moved aside, a new journal starts with the next push.
    path.rename(path.with_name("journal.sqlite3.broken"))
    (journal_home.parent / "again.csv").write_text("propertyid,roomid,date,threshold\nHTL001,SGL,2027-01-04,3\n")
    again = invoke(["threshold", "push", str(journal_home.parent / "again.csv"), *TODAY], env=sandbox_env(pushed))
    assert again.exit_code == 0
    assert [r["id"] for r in as_json(invoke(["history", "-o", "json"]))["runs"]] == [1]


@pytest.mark.parametrize("number", ["99999999999999999999", "9223372036854775808", "0"])
def test_a_run_number_out_of_range_is_no_run_exit_2(pushed: Sandbox, number: str) -> None:
    shown = invoke(["history", "show", number])
    assert shown.exit_code == 2, shown.output
    assert f"error: no run {number} in the journal" in shown.stderr and "the last run is 2" in shown.stderr
    if number != "0":  # retry takes 1 and more (a usage error of its own)
        retried = invoke(["retry", number], env=sandbox_env(pushed))
        assert retried.exit_code == 2 and f"error: no run {number} in the journal" in retried.stderr


# --- prune with care ----------------------------------------------------------------------------


def _age(home: Path, run: int, days: int, finished: bool = True) -> None:
    old = (dt.datetime.now(dt.UTC) - dt.timedelta(days=days)).isoformat(timespec="milliseconds")
    with sqlite3.connect(journal_file(home)) as db:
        db.execute("UPDATE runs SET started = ? WHERE id = ?", (old, run))
        if not finished:
            db.execute("UPDATE runs SET ended = NULL, exit_code = NULL, summary = NULL WHERE id = ?", (run,))


def _run_ids() -> list[int]:
    return [r["id"] for r in as_json(invoke(["history", "-o", "json"]))["runs"]]


AGE_HINT = (
    "hint: an age is a whole number of days, weeks or hours, more than 0: 90d, 12w or 36h (a bare number is days);"
    " --dry-run lists what would go\n"
)


@pytest.mark.parametrize("age", ["0", "0d", "00d", "0h", "0w", "0D"])
def test_prune_refuses_an_age_of_zero(pushed: Sandbox, age: str) -> None:
    result = invoke(["history", "prune", "--older-than", age, "--yes"])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == (
        f"error: --older-than {age!r}: an age of 0 would delete every run, the last one included\n" + AGE_HINT
    )
    assert _run_ids() == [2, 1]


# One rule for an age: a whole number of days, weeks or hours. Everything else, fractions and exponents that
# come to almost nothing included, is a usage error showing the forms, and nothing is deleted.
NOT_AGES = ["1e-9h", "0.0001h", "0.00001d", "1.5d", "0.0w", "1s", "1m", "-3", "-3d", "+3d", "3 d", "abc", "inf",
            "nan", "1e3d", "0x10d", "3_0d", "\u0663d", ""]  # fmt: skip


def test_prune_refuses_what_is_not_a_whole_number_of_days_weeks_or_hours(pushed: Sandbox) -> None:
    for age in NOT_AGES:
        result = invoke(["history", "prune", "--older-than", age, "--yes"])
        assert (result.exit_code, result.stdout) == (2, ""), age
        assert result.stderr == f"error: --older-than {age!r} is not an age\n" + AGE_HINT
    for age in ("99999999d", "9999999999999999999w"):
        result = invoke(["history", "prune", "--older-than", age, "--yes"])
        assert (result.exit_code, result.stdout) == (2, ""), age
        assert result.stderr == f"error: --older-than {age!r} is longer than the calendar\n" + AGE_HINT
    assert _run_ids() == [2, 1]


@pytest.mark.parametrize(("age", "hours"), [("90d", 90 * 24), ("12w", 12 * 7 * 24), ("36h", 36), ("1h", 1),
                                            (" 30D ", 30 * 24), ("007d", 7 * 24), ("30", 30 * 24)])  # fmt: skip
def test_prune_takes_a_whole_number_of_days_weeks_or_hours(
    pushed: Sandbox, journal_home: Path, age: str, hours: int
) -> None:
    # Run 1 started just over the age ago, run 2 just under: the age is read to the hour.
    now = dt.datetime.now(dt.UTC)
    with sqlite3.connect(journal_file(journal_home)) as db:
        for run, hours_ago in ((1, hours + 0.5), (2, hours - 0.5)):
            started = (now - dt.timedelta(hours=hours_ago)).isoformat(timespec="milliseconds")
            db.execute("UPDATE runs SET started = ? WHERE id = ?", (started, run))
    result = invoke(["history", "prune", "--older-than", age, "--yes"])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("deleted 1 run started before ") and "(local time)" in result.stdout
    assert result.stderr == ""
    assert _run_ids() == [2]


def test_prune_never_deletes_an_unfinished_run_and_dry_run_deletes_nothing(
    pushed: Sandbox, tmp_path: Path, journal_home: Path
) -> None:
    assert push(pushed, tmp_path, "third.csv", "HTL002,DBL,2027-01-01,2027-01-02,1").exit_code == 0
    _age(journal_home, 1, 100)
    _age(journal_home, 2, 100, finished=False)  # killed long ago
    dry = invoke(["history", "prune", "--older-than", "90d", "--dry-run"])
    assert dry.exit_code == 0
    assert "ok.csv" in dry.stdout and "mixed.csv" not in dry.stdout
    assert "would delete 1 finished run started before " in dry.stdout and "nothing deleted (--dry-run)" in dry.stdout
    assert _run_ids() == [3, 2, 1]

    result = invoke(["history", "prune", "--older-than", "90d"])  # no terminal: nothing asked

    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("deleted 1 run started before ")
    assert (
        "kept 1 unfinished run (2): killed or still running; `ari-cli retry RUN` finishes a killed one" in result.stderr
    )
    assert _run_ids() == [3, 2]
    with sqlite3.connect(journal_file(journal_home)) as db:
        for table in ("files", "records", "requests"):
            assert db.execute(f"SELECT count(*) FROM {table} WHERE run = 1").fetchone() == (0,), table
            assert db.execute(f"SELECT count(*) FROM {table} WHERE run = 2").fetchone() != (0,), table


def test_prune_asks_at_a_terminal_and_yes_does_not(pushed: Sandbox, journal_home: Path) -> None:
    _age(journal_home, 1, 100)
    env = {"NO_COLOR": "1"}
    code, said = converse(["history", "prune", "--older-than", "90d"], [("delete 1 finished run", "n")], env=env)
    assert code == 1 and "nothing deleted" in said, said
    assert _run_ids() == [2, 1]
    code, said = converse(["history", "prune", "--older-than", "90d"], [("delete 1 finished run", "y")], env=env)
    assert code == 0 and "deleted 1 run started before" in said, said
    assert _run_ids() == [2]
    _age(journal_home, 2, 100)
    code, said = converse(["history", "prune", "--older-than", "90d", "--yes"], [], env=env)
    assert code == 0 and "delete 1 finished run" not in said and "deleted 1 run" in said, said
    assert _run_ids() == []


# --- many writers at once -----------------------------------------------------------------------

ROOMS = ("DBL", "TWN", "SGL", "STE")


def _daily(path: Path, room: str, value: int, days: int = 12) -> dict[str, str]:
    lines = ["propertyid,roomid,date,threshold"]
    for i in range(days):
        lines.append(f"HTL001,{room},{(dt.date(2027, 1, 1) + dt.timedelta(days=i)).isoformat()},{value + i % 2}")
    path.write_text("\n".join(lines) + "\n")
    return {line.split(",")[2]: line.split(",")[3] for line in lines[1:]}


def _start(args: list[str], env: dict[str, str], cwd: Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "ari_cli", *args], cwd=cwd, env={**os.environ, **env, "NO_COLOR": "1"},
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip


def test_four_pushes_and_a_prune_at_once_lose_no_run_and_number_every_acknowledgement_once(
    tmp_path: Path, journal_home: Path
) -> None:
    with Sandbox(today=PINNED_TODAY, latency=20) as sandbox:
        env = sandbox_env(sandbox)
        # Old runs for prune to delete while the pushes write: big enough that one transaction would be long.
        old = tmp_path / "old.csv"
        old.write_text("propertyid,roomid,date,threshold\n" + "".join(
            f"HTL002,DBL,{(dt.date(2027, 1, 1) + dt.timedelta(days=i)).isoformat()},{i % 7}\n" for i in range(300)))  # fmt: skip
        for _ in range(3):
            assert invoke(["threshold", "push", str(old), *TODAY, "--no-merge"], env=env).exit_code == 0
        for run in (1, 2, 3):
            _age(journal_home, run, 100)
        expected = {room: _daily(tmp_path / f"{room}.csv", room, 1 + n) for n, room in enumerate(ROOMS)}
        pushes = [
            _start(["threshold", "push", f"{room}.csv", *TODAY, "--no-merge", "--batch-size", "1",
                    "--concurrency", "4", "--output", "json"], env, tmp_path)
            for room in ROOMS
        ]  # fmt: skip
        prune = _start(["history", "prune", "--older-than", "30d", "--yes"], env, tmp_path)
        outcomes = [p.communicate(timeout=120) for p in pushes]
        pruned_out, pruned_err = prune.communicate(timeout=120)
        state = sandbox.state()["threshold"]["HTL001"]
        where = {"ARI_BASE_URL": sandbox.base_url, "ARI_SOURCE_ID": sandbox.source_id}

    assert prune.returncode == 0, pruned_err
    assert pruned_out.startswith("deleted 3 runs started before")
    for process, (out, err) in zip(pushes, outcomes, strict=True):
        assert process.returncode == 0, err
        assert json.loads(out)["summary"]["ok"] == 12
        assert "journal" not in err, err  # no write gave up
    assert {room: state[room] for room in ROOMS} == expected
    listed = as_json(invoke(["history", "-o", "json"]))["runs"]
    assert sorted(r["id"] for r in listed) == [4, 5, 6, 7]
    assert all(r["finished"] and r["exit_code"] == 0 and r["requests"] == {"ok": 12} for r in listed)
    with sqlite3.connect(journal_file(journal_home)) as db:
        acks = [a for (a,) in db.execute("SELECT ack FROM requests WHERE state = 'ok'")]
    assert len(acks) == 48 and len(set(acks)) == 48
    for room in ROOMS:
        calendar = invoke(["calendar", "threshold", "--property", "HTL001", "--room", room, "--from", "2027-01-01",
                           "--to", "2027-01-12", "-o", "json"], env=where)  # fmt: skip
        assert calendar.exit_code == 0, calendar.output
        assert as_json(calendar)["keys"][0]["values"] == expected[room]
