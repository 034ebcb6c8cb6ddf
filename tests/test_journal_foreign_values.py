"""A journal whose columns hold values ari-cli never wrote (another version's, another program's, a hand's edit)
is a damaged journal to every reader: exit 4 naming the file and how to move it aside, never an internal error.

Each stored text that becomes a typed value (an operation, a request's state, a date, a JSON object or list, a
number) is checked where the journal is read (`journal/queries.py`, `journal/database.py`).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from ari_cli.sandbox import Sandbox
from tests.conftest import PINNED_TODAY
from tests.test_faults import clean_env, run_cli

# HTL001's DBL is acknowledged, its XXX refused (an unknown room): run 1 has an acknowledged and a failed request.
ROWS = "propertyid,roomid,date,threshold\nHTL001,DBL,2027-01-02,1\nHTL001,XXX,2027-01-02,1\n"
READERS = {
    "history": ["history"],
    "history show": ["history", "show", "1"],
    "history show --body -o json": ["history", "show", "1", "--body", "-o", "json"],
    "retry": ["retry", "1"],
    "revert": ["revert", "1", "--dry-run"],
    "history find": ["history", "find", "--property", "HTL001", "--date", "2027-01-02"],
    "push --changed-only": ["threshold", "push", "{rows}", "--changed-only", "--dry-run", "--today", PINNED_TODAY],
    "diff": ["threshold", "diff", "{rows}", "--today", PINNED_TODAY],
    "calendar": ["calendar", "threshold", "--property", "HTL001", "--from", "2027-01-01", "--to", "2027-01-31"],
}
# Each foreign value, and the readers that meet it (the others never read that column, or filter it out in SQL).
DAMAGES = {
    "operation": ("UPDATE runs SET operation = 'frobnicate'", ["history", "history show", "retry", "revert", "history find"]),
    "request state": ("UPDATE requests SET state = 'exploded'", ["history", "history show", "history show --body -o json", "retry", "history find"]),
    "record date": ("UPDATE records SET start = '2027-13-45'", ["history show", "retry", "revert"]),
    "acknowledged date": ("UPDATE acked SET start = 'soon'", ["push --changed-only", "diff", "calendar", "revert"]),
    "options not an object": ("UPDATE runs SET options = '[1]'", ["history", "history show --body -o json", "retry"]),
    "data form": ("""UPDATE runs SET options = '{"data_form": "weird"}'""", ["retry"]),
    "errors not a list": ("""UPDATE requests SET errors = '{"a": 1}'""", ["history show", "retry", "history find"]),
    "body not an object": ("UPDATE requests SET body = '[1]'", ["history show --body -o json", "retry"]),
    "number not a number": ("UPDATE requests SET seconds = 'x'", ["history show --body -o json", "retry"]),
}  # fmt: skip


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """A journal of one real run against a sandbox, and the environment that reads it as that service's."""
    home = tmp_path_factory.mktemp("recorded")
    rows = home.parent / "foreign-values.csv"
    rows.write_text(ROWS)
    with Sandbox(today=PINNED_TODAY) as sb:
        env = clean_env(home, ARI_HOME=str(home), ARI_BASE_URL=sb.base_url, ARI_SOURCE_ID=sb.source_id,
                        ARI_API_KEY=sb.api_key)  # fmt: skip
        pushed = run_cli(["threshold", "push", str(rows), "--today", PINNED_TODAY], env)
    assert pushed.returncode == 1, pushed.stderr  # the unknown room is refused
    return home / "journal.sqlite3", env


CASES = [(damage, reader) for damage, (_, readers) in DAMAGES.items() for reader in readers]


@pytest.mark.parametrize(("damage", "reader"), CASES, ids=[f"{d}-{r}" for d, r in CASES])
def test_a_foreign_value_in_a_column_is_exit_4_naming_the_file(
    tmp_path: Path, recorded: tuple[Path, dict[str, str]], damage: str, reader: str
) -> None:
    original, env = recorded
    home = tmp_path / "home"
    home.mkdir()
    journal = home / "journal.sqlite3"
    journal.write_bytes(original.read_bytes())
    with sqlite3.connect(journal) as db:
        db.execute(DAMAGES[damage][0])
    db.close()
    before = journal.read_bytes()
    rows = tmp_path / "rows.csv"
    rows.write_text(ROWS)
    args = [a.replace("{rows}", str(rows)) for a in READERS[reader]]
    result = run_cli(args, {**env, "ARI_HOME": str(home)})
    assert result.returncode == 4, (result.returncode, result.stdout, result.stderr)
    assert f"error: the journal {journal} cannot be read" in result.stderr, result.stderr
    assert f"hint: mv {journal} {journal}.broken" in result.stderr
    assert "internal error" not in result.stderr and "Traceback" not in result.stderr
    assert journal.read_bytes() == before  # a reader never writes


def test_the_recorded_journal_reads_before_it_is_damaged(recorded: tuple[Path, dict[str, str]], tmp_path: Path) -> None:
    """Each reader above succeeds on the journal as written: it is the foreign value that each one meets."""
    original, env = recorded
    (tmp_path / "home").mkdir()
    (tmp_path / "home" / "journal.sqlite3").write_bytes(original.read_bytes())
    rows = tmp_path / "rows.csv"
    rows.write_text(ROWS)
    for reader, args in READERS.items():
        if reader != "retry":  # retry would send to the sandbox, gone with the fixture
            result = run_cli(
                [a.replace("{rows}", str(rows)) for a in args], {**env, "ARI_HOME": str(tmp_path / "home")}
            )
            assert result.returncode in (0, 1), (reader, result.stdout, result.stderr)
            assert "journal" not in result.stderr or "cannot be read" not in result.stderr, (reader, result.stderr)
