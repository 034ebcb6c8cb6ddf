"""Every reader of the journal, given a damaged or foreign file, says which file and what to do (exit 4).

Random bytes, another program's SQLite database, a journal cut short and a journal with bytes flipped in its
pages: never an internal error, never a traceback, never a file of another program written into.
"""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest

from ari_cli.sandbox import Sandbox
from tests.conftest import PINNED_TODAY
from tests.test_faults import clean_env, run_cli

ROWS = "propertyid,roomid,date,threshold\nHTL001,DBL,2027-01-02,1\n"
ELSEWHERE = ["--base-url", "http://127.0.0.1:9", "--source-id", "cpbA1"]
READERS = {
    "push --changed-only": ["threshold", "push", "{rows}", "--changed-only", "--sandbox"],
    "push": ["threshold", "push", "{rows}", "--sandbox"],
    "diff": ["threshold", "diff", "{rows}", *ELSEWHERE],
    "retry": ["retry", "1", "--sandbox"],
    "calendar": ["calendar", "threshold", "--property", "HTL001", *ELSEWHERE],
    "history": ["history"],
    "history show": ["history", "show", "1"],
    "history find": ["history", "find", "--property", "HTL001", "--date", "2027-01-02"],
}


def _random_bytes(journal: Path) -> None:
    journal.write_bytes(random.Random(1).randbytes(20_000))


def _foreign(journal: Path) -> None:
    with sqlite3.connect(journal) as db:
        db.execute("CREATE TABLE contacts (name TEXT, phone TEXT)")
        db.execute("INSERT INTO contacts VALUES ('Ana', '555')")


def _truncated(journal: Path) -> None:
    with open(journal, "r+b") as handle:
        handle.truncate(journal.stat().st_size // 2)


def _flipped(journal: Path) -> None:
    # Seed 4 damages the schema's text so that SQLite's own message is not UTF-8 (a crash before).
    data = bytearray(journal.read_bytes())
    chance = random.Random(4)
    for _ in range(40):
        data[chance.randrange(100, len(data))] = chance.randrange(256)
    journal.write_bytes(bytes(data))


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A journal of three real runs (one refused), to damage."""
    home = tmp_path_factory.mktemp("recorded")
    env = clean_env(home, ARI_HOME=str(home))
    for n, content in enumerate([ROWS, ROWS, ROWS.replace("DBL", "XXX")]):  # the third refused: an unknown room
        rows = home.parent / f"recorded{n}.csv"
        rows.write_text(content)
        with Sandbox(today=PINNED_TODAY) as sb:
            pushed = run_cli(["threshold", "push", str(rows), "--base-url", sb.base_url, "--source-id", sb.source_id,
                              "--today", PINNED_TODAY], {**env, "ARI_API_KEY": sb.api_key})  # fmt: skip
            assert pushed.returncode in (0, 1), pushed.stderr
    return home / "journal.sqlite3"


@pytest.mark.parametrize("reader", list(READERS))
@pytest.mark.parametrize("damage", [_random_bytes, _foreign, _truncated, _flipped], ids=lambda d: d.__name__[1:])
def test_a_damaged_or_foreign_journal_is_exit_4_naming_the_file(tmp_path: Path, recorded: Path, reader: str,
                                                                 damage: object) -> None:  # fmt: skip
    home = tmp_path / "home"
    home.mkdir()
    journal = home / "journal.sqlite3"
    if damage is _foreign:
        _foreign(journal)
    else:
        journal.write_bytes(recorded.read_bytes())
        assert callable(damage)
        damage(journal)
    before = journal.read_bytes()
    rows = tmp_path / "rows.csv"
    rows.write_text(ROWS)
    args = [a.replace("{rows}", str(rows)) for a in READERS[reader]]
    result = run_cli([*args, "--today", PINNED_TODAY] if "push" in reader or "diff" in reader else args,
                     clean_env(tmp_path, ARI_HOME=str(home)))  # fmt: skip
    assert result.returncode == 4, (result.returncode, result.stdout, result.stderr)
    assert f"error: the journal {journal} cannot be read" in result.stderr, result.stderr
    assert f"hint: mv {journal} {journal}.broken" in result.stderr
    assert "internal error" not in result.stderr and "Traceback" not in result.stderr
    assert journal.read_bytes() == before  # nothing written into it, another program's file least of all
