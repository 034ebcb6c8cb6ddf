"""A journal written before schema 2 (a row per input row): kept aside whole, what the service holds carried on."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from pathlib import Path

from ari_cli.sandbox import Sandbox
from tests.conftest import PINNED_TODAY
from tests.helpers import invoke, sandbox_env

OLD = Path(__file__).parent / "data" / "journal-v1.sql"


def _old_journal(home: Path, base_url: str) -> Path:
    """The journal an ari-cli of schema 1 wrote: run 1 all ok, run 2 with a refused room, both to `base_url`."""
    path = home / "journal.sqlite3"
    db = sqlite3.connect(path)
    db.executescript(OLD.read_text().replace("http://127.0.0.1:1", base_url))
    db.close()
    return path


def test_a_schema_1_journal_is_kept_aside_by_the_first_writer_and_what_was_acknowledged_carries_on(
    sb: Sandbox, tmp_path: Path, journal_home: Path
) -> None:
    path = _old_journal(journal_home, sb.base_url)
    before = hashlib.sha256(path.read_bytes()).hexdigest()

    # A reader never converts: it says what the next writer will do, exit 4, and changes nothing.
    listed = invoke(["history"])
    assert listed.exit_code == 4
    assert f"the journal {path} cannot be read: it was written by an older ari-cli (schema 1)" in listed.stderr
    assert "the next push, retry or prune keeps it as journal.sqlite3.v1" in listed.stderr
    assert "Traceback" not in listed.output and "internal error" not in listed.output
    assert hashlib.sha256(path.read_bytes()).hexdigest() == before

    new = tmp_path / "new.csv"
    new.write_text("propertyid,roomid,date,threshold\nHTL001,DBL,2027-01-07,5\n")
    pushed = invoke(["threshold", "push", str(new), "--today", PINNED_TODAY], env=sandbox_env(sb))

    assert pushed.exit_code == 0, pushed.output
    assert (
        f"the journal {path} was written by an older ari-cli: its runs (1 to 2) are kept in {path}.v1; this "
        "journal goes on from run 3, with what the service acknowledged" in pushed.stderr.replace("\n", " ")
    )
    kept = sqlite3.connect(f"{path}.v1")
    assert kept.execute("PRAGMA user_version").fetchone() == (1,)
    assert kept.execute("SELECT count(*) FROM rows").fetchone() == (4,)
    kept.close()
    runs = json.loads(invoke(["history", "-o", "json"]).stdout)["runs"]
    assert [r["id"] for r in runs] == [3]
    # The values the old runs got acknowledged are still known: the calendar, and --changed-only.
    calendar = invoke(["calendar", "threshold", "--property", "HTL001", "--room", "DBL", "--from", "2027-01-01",
                       "--to", "2027-01-10", "-o", "json"], env=sandbox_env(sb))  # fmt: skip
    assert calendar.exit_code == 0, calendar.output
    values = json.loads(calendar.stdout)["keys"][0]["values"]
    assert values == {f"2027-01-{d:02}": {5: "3", 6: "3", 7: "5"}.get(d, "2") for d in range(1, 11)}
    assert sb.state()["threshold"]["HTL001"]["DBL"] == {"2027-01-07": "5"}  # the old runs went to this URL before
    again = tmp_path / "again.csv"
    again.write_text("propertyid,roomid,start,end,threshold\nHTL002,DBL,2027-01-01,2027-01-03,1\n")
    received = len(sb.received)
    unchanged = invoke(["threshold", "push", str(again), "--today", PINNED_TODAY, "--changed-only", "-o", "json"],
                       env=sandbox_env(sb))  # fmt: skip
    assert unchanged.exit_code == 0, unchanged.output
    assert json.loads(unchanged.stdout)["summary"]["requests"] == 0 and len(sb.received) == received
    # A second writer finds nothing left to retire.
    assert "older ari-cli" not in unchanged.stderr
