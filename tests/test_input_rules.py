"""Inputs that are not what they seem: empty exports, dates that would be guessed, rows that say nothing."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

from tests.helpers import invoke, sandbox_env
from tests.test_xlsx import workbook

TODAY = dt.date.today()
HEADER = "propertyid,roomid,start,end,threshold\n"


def day(offset: int) -> str:
    return (TODAY + dt.timedelta(days=offset)).isoformat()


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def push(sandbox: Any, *args: str, input: str | bytes | None = None) -> Any:
    return invoke(["threshold", "push", *args], env=sandbox_env(sandbox), input=input)


# -- empty is an error ----------------------------------------------------------------------------


def test_empty_standard_input_exits_3_unless_allowed(sandbox: Any) -> None:
    result = push(sandbox, "-", input=b"")
    assert result.exit_code == 3 and result.stdout == ""
    assert result.stderr == (
        "error: <stdin> has no rows\n"
        "hint: check that the export wrote its rows; give --allow-empty if it may rightly be empty\n"
    )
    allowed = push(sandbox, "-", "--allow-empty", "--output", "json", input=b"")
    assert allowed.exit_code == 0 and allowed.stderr == "note: <stdin> has no rows\n"
    assert '"rows": []' in allowed.stdout and sandbox.received == []


def test_an_empty_sheet_is_named(tmp_path: Path, sandbox: Any) -> None:
    path = workbook(tmp_path / "rates.xlsx", {"June": []})
    result = push(sandbox, str(path))
    assert result.exit_code == 3
    assert result.stderr.startswith(f"error: {path}[June] has no rows\n")
    assert sandbox.received == []


def test_one_empty_file_among_others_stops_the_run(tmp_path: Path, sandbox: Any) -> None:
    full = write(tmp_path, "a.csv", f"{HEADER}HTL001,DBL,{day(3)},{day(4)},2\n")
    empty = write(tmp_path, "b.csv", HEADER)
    result = push(sandbox, full, empty)
    assert result.exit_code == 3 and f"error: {empty} has no rows" in result.stderr
    assert sandbox.received == []
    allowed = push(sandbox, full, empty, "--allow-empty")
    assert allowed.exit_code == 0 and f"note: {empty} has no rows" in allowed.stderr
    assert len(sandbox.received) == 1
