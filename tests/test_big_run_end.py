"""A big run's output is all there at its end, stdout and stderr, with the contract's exit code."""

from __future__ import annotations

import datetime as dt
import json
import subprocess
import sys
from pathlib import Path

import pytest

# The console script's main.
RUN = """
import sys
sys.argv = ["ari-cli", *sys.argv[1:]]
from ari_cli.cli import main
main()
"""
TODAY = dt.date(2027, 1, 1)


def export(path: Path, rows: int, last: str | None = None) -> None:
    # A room per row: as many records as rows, which makes the heap big.
    lines = ["propertyid,roomid,date,threshold"]
    lines += [f"H{i % 3},R{i},{(TODAY + dt.timedelta(days=i % 300)).isoformat()},{i % 10}" for i in range(rows)]
    if last is not None:
        lines.append(last)
    path.write_text("\n".join(lines) + "\n")


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", RUN, *args], capture_output=True, text=True, timeout=300, check=False)


@pytest.mark.parametrize("output", ["json", "csv"])
def test_a_big_dry_run_writes_everything_before_it_ends(tmp_path: Path, output: str) -> None:
    export(tmp_path / "big.csv", 120_000)
    done = run("threshold", "push", str(tmp_path / "big.csv"), "--dry-run", "--today", TODAY.isoformat(),
               "--output", output)  # fmt: skip
    assert done.returncode == 0, done.stderr
    if output == "json":
        document = json.loads(done.stdout)
        assert document["summary"]["rows"] == len(document["rows"]) == 120_000
        assert document["rows"][-1]["line"] == 120_001
    else:
        lines = done.stdout.splitlines()
        assert len(lines) == 120_001 and lines[-1].split(",")[1:3] == ["120001", "ok"]


def test_a_big_invalid_run_says_why_and_exits_3(tmp_path: Path) -> None:
    export(tmp_path / "big.csv", 120_000, last="H1,R1,2027-13-01,5")
    done = run("threshold", "push", str(tmp_path / "big.csv"), "--dry-run", "--today", TODAY.isoformat(),
               "--output", "json")  # fmt: skip
    assert done.returncode == 3
    assert "line 120002" in done.stderr and "nothing was sent" in done.stderr
    assert json.loads(done.stdout)["summary"]["invalid"] == 1
