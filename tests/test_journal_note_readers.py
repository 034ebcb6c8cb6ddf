"""After a disk-full run, every reader of the journal reads what its note beside the journal says was acknowledged.

The tester's sequence (issue 30, round two): run 1 sets one value on every date, fully journaled; run 2
sets other values on the same dates while its disk fills, so that part of what the service acknowledged
is only in `journal.sqlite3.run2.pending`. `diff`, `revert`, `calendar`, `history find`, `--changed-only`
and `retry` must all see run 2's values, whichever of them runs first.
"""

from __future__ import annotations

import datetime as dt
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from ari_cli.sandbox import Sandbox
from tests.confined import namespaces, read_only, small_disk
from tests.conftest import PINNED_TODAY
from tests.helpers import invoke, sandbox_env
from tests.test_history import line_of

TODAY = ["--today", PINNED_TODAY]
DAY0 = dt.date.fromisoformat(PINNED_TODAY)
ROOMS = ("DBL", "TWN", "SGL", "STE")
DAYS = 10


def _rows(path: Path, value: Any) -> dict[str, dict[str, str]]:
    """One row per room and day of HTL001; `value(i)` for the i-th row. Returns the state it asks for."""
    lines, state = ["propertyid,roomid,date,threshold"], {}
    for r, room in enumerate(ROOMS):
        for d in range(DAYS):
            day = (DAY0 + dt.timedelta(days=d)).isoformat()
            lines.append(f"HTL001,{room},{day},{value(r * DAYS + d)}")
            state.setdefault(room, {})[day] = str(value(r * DAYS + d))
    path.write_text("\n".join(lines) + "\n")
    return state


def _disk_full_run(sb: Sandbox, tmp_path: Path, home: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    """Run 1 (all 5, journaled) and run 2 (i % 9 + 1) on a disk that fills: the states each asked for."""
    env = sandbox_env(sb)
    fives = _rows(tmp_path / "fives.csv", lambda i: 5)
    first = invoke(["threshold", "push", str(tmp_path / "fives.csv"), *TODAY, "--batch-size", "100", "--no-merge"],
                   env=env)  # fmt: skip
    assert first.exit_code == 0, first.output
    nines = _rows(tmp_path / "nines.csv", lambda i: i % 9 + 1)
    command = [sys.executable, "-m", "ari_cli", "threshold", "push", str(tmp_path / "nines.csv"), *TODAY,
               "--no-merge", "--batch-size", "1", "--concurrency", "2", "--output", "json"]  # fmt: skip
    pushed = small_disk(home, 180, command, env={**env, "ARI_HOME": str(home)})
    assert pushed.returncode == 0, pushed.stderr
    assert json.loads(pushed.stdout)["summary"]["ok"] == len(ROOMS) * DAYS
    # The journal did fill, and part of what was acknowledged is only in the note (else this proves nothing).
    assert pushed.stderr.count("could not be written") == 1, pushed.stderr
    assert '["answer"' in (home / "journal.sqlite3.run2.pending").read_text(errors="replace")
    assert sb.state()["threshold"]["HTL001"] == nines
    return fives, nines


def _changed(fives: dict[str, Any], nines: dict[str, Any]) -> int:
    return sum(nines[room][day] != fives[room][day] for room in nines for day in nines[room])


@pytest.fixture
def sb() -> Any:
    with Sandbox(today=PINNED_TODAY, latency=20) as sandbox:
        yield sandbox


def test_revert_after_a_disk_full_run_puts_back_every_date_the_run_set(
    sb: Sandbox, tmp_path: Path, journal_home: Path
) -> None:
    fives, nines = _disk_full_run(sb, tmp_path, journal_home)
    changed = _changed(fives, nines)
    dates = len(ROOMS) * DAYS

    dry = invoke(["revert", "2", "--dry-run", "--output", "json", *TODAY], env=sandbox_env(sb))
    assert dry.exit_code == 0, dry.output
    assert dry.stderr == ""
    summary = json.loads(dry.stdout)["summary"]
    assert (summary["changed"]["dates"], summary["same"]["dates"], summary["new"]["dates"]) == (
        changed, dates - changed, 0), summary  # fmt: skip
    assert not (journal_home / "journal.sqlite3.run2.pending").exists()  # folded in by the first reader

    undone = invoke(["revert", "2", "--yes", *TODAY], env=sandbox_env(sb))
    assert undone.exit_code == 0, undone.output
    assert "run 3 reverts run 2; `ari-cli revert 3` undoes it" in undone.stderr
    assert "Traceback" not in undone.output
    assert sb.state()["threshold"]["HTL001"] == fives

    again = invoke(["revert", "2", "--dry-run", "--output", "json", *TODAY], env=sandbox_env(sb))
    assert again.exit_code == 0, again.output
    assert json.loads(again.stdout)["summary"]["changed"]["dates"] == 0


LAST = (DAY0 + dt.timedelta(days=DAYS - 1)).isoformat()


def _diff(result: Any, fives: Any, nines: Any) -> None:
    summary = json.loads(result.stdout)["summary"]
    assert {kind: summary[kind]["dates"] for kind in ("new", "changed", "cleared", "same")} == {
        "new": 0, "changed": 0, "cleared": 0, "same": len(ROOMS) * DAYS}  # fmt: skip


def _calendar(result: Any, fives: Any, nines: Any) -> None:
    assert {k["roomid"]: k["values"] for k in json.loads(result.stdout)["keys"]} == nines


def _find(result: Any, fives: Any, nines: Any) -> None:
    hit = json.loads(result.stdout)["hits"][0]
    assert (hit["in_force"], hit["run"]["id"], hit["request"]["state"], hit["record"]["value"]) == (
        True, 2, "ok", nines["STE"][LAST])  # fmt: skip


def _changed_only(result: Any, fives: Any, nines: Any) -> None:
    summary = json.loads(result.stdout)["summary"]
    assert (summary["requests"], summary["skipped"]) == (0, len(ROOMS) * DAYS), summary


def _revert(result: Any, fives: Any, nines: Any) -> None:
    summary = json.loads(result.stdout)["summary"]
    assert summary["changed"]["dates"] == _changed(fives, nines), summary


# Each reader of acknowledged values, run first after the disk-full run: it folds the note in itself.
FIRST_READERS = {
    "diff": (["threshold", "diff", "{dir}/nines.csv", *TODAY], _diff),
    "calendar": (["calendar", "threshold", "--property", "HTL001", "--from", PINNED_TODAY, "--to", LAST], _calendar),
    "history find": (["history", "find", "--property", "HTL001", "--room", "STE", "--date", LAST], _find),
    "push --changed-only": (["threshold", "push", "{dir}/nines.csv", "--changed-only", *TODAY], _changed_only),
    "revert --dry-run": (["revert", "2", "--dry-run", *TODAY], _revert),
}


@pytest.mark.parametrize("reader", list(FIRST_READERS))
def test_every_reader_run_first_after_a_disk_full_run_reads_what_the_note_kept(
    sb: Sandbox, tmp_path: Path, journal_home: Path, reader: str
) -> None:
    fives, nines = _disk_full_run(sb, tmp_path, journal_home)
    args, check = FIRST_READERS[reader]
    result = invoke([a.format(dir=tmp_path) for a in args] + ["--output", "json"], env=sandbox_env(sb))
    assert result.exit_code == 0, result.output
    check(result, fives, nines)
    assert "Traceback" not in result.stderr and "journal" not in result.stderr, result.stderr
    assert not (journal_home / "journal.sqlite3.run2.pending").exists()  # folded in, then removed
    assert len(sb.received) == 1 + len(ROOMS) * DAYS  # nothing was sent again

    listed = invoke(["history"])
    assert listed.exit_code == 0 and listed.stderr == ""
    line = line_of(listed.stdout, "python -m ari_cli threshold push")
    assert "not fully recorded" in line and "40/40 acknowledged" in line, line


def _refused(result: Any, home: Path, why: str) -> None:
    note = home / "journal.sqlite3.run2.pending"
    assert result.returncode == 4, result.stderr
    assert result.stderr == (
        f"error: the journal {home / 'journal.sqlite3'} cannot fold in run 2's note {note}, which holds what the"
        f" service acknowledged ({why}): read without it, the journal would show those values as never sent\n"
        f"hint: free space on its disk (or make {home} writable), or copy the folder to a writable place and set"
        " ARI_HOME to it; the next command folds the note in\n"
    )
    assert note.exists()


def test_a_reader_that_cannot_fold_the_note_in_stops_with_exit_4_and_says_why(
    sb: Sandbox, tmp_path: Path, journal_home: Path
) -> None:
    """The disk still full, or a read-only copy of the folder: read without the note, run 2's acknowledged
    dates would look never sent, so every reader refuses the same way until it can fold the note in."""
    if not namespaces():
        pytest.skip("no mount namespace: neither a disk still full nor a read-only folder can be made here")
    _disk_full_run(sb, tmp_path, journal_home)
    env = sandbox_env(sb)
    diff = ["threshold", "diff", str(tmp_path / "nines.csv"), *TODAY, "--output", "json"]
    full = small_disk(journal_home, 0, [sys.executable, "-m", "ari_cli", *diff], env={**env, "NO_COLOR": "1"})
    _refused(full, journal_home, "database or disk is full")
    error = json.loads(full.stdout)["error"]
    assert error["kind"] == "config" and "cannot fold in run 2's note" in error["message"]

    for args in (diff, ["revert", "2", "--dry-run", *TODAY], ["history"], ["retry", "2"]):
        refused = read_only(journal_home, args, env=env)
        _refused(refused, journal_home, "Read-only file system")
        assert refused.stdout == "" or json.loads(refused.stdout)["error"]["kind"] == "config", refused.stdout
    assert len(sb.received) == 1 + len(ROOMS) * DAYS

    # Room again: the next reader folds the note in and reads every acknowledgement.
    diffed = invoke(diff, env=env)
    assert diffed.exit_code == 0 and diffed.stderr == "", diffed.output
    assert json.loads(diffed.stdout)["summary"]["same"]["dates"] == len(ROOMS) * DAYS
    assert not (journal_home / "journal.sqlite3.run2.pending").exists()
