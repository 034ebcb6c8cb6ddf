"""Columns as exports name them: weekday aliases, near misses, and the warning that survives --quiet."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import invoke, sandbox_env

TODAY = dt.date.today()
# A Monday at least two weeks ahead, so a week from it holds exactly one Saturday and one Sunday.
MONDAY = TODAY + dt.timedelta(days=14 - TODAY.weekday())


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("name", ["Weekdays", "Day of week", "days of week", "DOW", "weekday"])
def test_weekday_column_names_keep_the_value_to_those_days(tmp_path: Path, sandbox: Any, name: str) -> None:
    end = MONDAY + dt.timedelta(days=6)
    path = write(
        tmp_path, "r.csv", f"propertyid,roomid,start,end,threshold,{name}\nHTL001,DBL,{MONDAY},{end},2,Sat-Sun\n"
    )
    result = invoke(["threshold", "push", path, "--output", "json"], env=sandbox_env(sandbox))
    assert result.exit_code == 0, result.stdout + result.stderr
    assert "ignored" not in result.stderr
    sent = [record for request in sandbox.received for record in request.json["data"]]
    weekend = [(MONDAY + dt.timedelta(days=5)).isoformat(), end.isoformat()]
    assert [(r["startdateymd"], r["enddateymd"]) for r in sent] == [(weekend[0], weekend[1])]


@pytest.mark.parametrize(("written", "meant"), [("dayz", "days"), ("treshold", "threshold"), ("Data", "date")])
def test_a_near_miss_of_a_used_column_is_an_error_naming_it(
    tmp_path: Path, sandbox: Any, written: str, meant: str
) -> None:
    header = "propertyid,roomid,start,end,threshold" if meant != "threshold" else "propertyid,roomid,start,end"
    row = f"HTL001,DBL,{MONDAY},{MONDAY},2" if meant != "threshold" else f"HTL001,DBL,{MONDAY},{MONDAY}"
    if meant == "date":  # date is proposed only where no start or end column is given (issue 29)
        header, row = "propertyid,roomid,threshold", "HTL001,DBL,2"
    path = write(tmp_path, "r.csv", f"{header},{written}\n{row},Sat\n")
    result = invoke(["threshold", "push", path], env=sandbox_env(sandbox))
    assert result.exit_code == 3
    assert f'r.csv: column "{written}" is not known; did you mean "{meant}"?' in result.stderr
    assert result.stdout == "" and sandbox.received == []


def test_the_ignored_column_warning_is_shown_under_quiet(tmp_path: Path) -> None:
    path = write(tmp_path, "r.csv", f"propertyid,roomid,start,end,threshold,Notes\nHTL001,DBL,{MONDAY},{MONDAY},2,x\n")
    result = invoke(["threshold", "push", path, "--dry-run", "--quiet", "--output", "json"])
    assert result.exit_code == 0, result.stderr
    assert result.stderr == f"warning: {path}: ignored column Notes (not used by threshold)\n"
    assert len(json.loads(result.stdout)["rows"]) == 1
