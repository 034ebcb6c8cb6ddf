"""A deposit that is not required needs no other deposit column (issue 42, point 7): a file may lack the amount,
applied and units columns, or leave them empty; a required deposit in such a file is refused naming them."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import openpyxl

from tests import odsxml
from tests.helpers import invoke, sandbox_env

TODAY = dt.date.today()
START, END = (TODAY + dt.timedelta(days=10)).isoformat(), (TODAY + dt.timedelta(days=12)).isoformat()
LEAN = "propertyid,roomid,rateid,start,end,refundable,level,policyid,dayspriorcheckin,penaltyamount,penaltyapplied,"
NOT_REQUIRED = {
    "depositpolicy": "not required",
    "deposittype": 3,
    "depositamount": 1,
    "depositapplied": 3,
    "depositintervalunits": 0,
    "deposittimeinterval": 0,
}
LACKING = (
    "line 3, depositpolicy: a required deposit needs the columns depositamount, depositapplied, "
    "depositintervalunits, which the file does not have: add them, or write not required (which needs no other "
    "deposit column)"
)


def lean_row(rate: str, deposit: str) -> str:
    return f"HTL001,DBL,{rate},{START},{END},true,1,2,7,100,3,{deposit}\n"


def held(sandbox: Any, rate: str) -> dict[str, Any]:
    """The deposit the service holds for HTL001 DBL `rate` on each day pushed."""
    days = sandbox.state()["policy"]["HTL001"]["DBL"][rate]
    assert sorted(days) == [(TODAY + dt.timedelta(days=n)).isoformat() for n in (10, 11, 12)]
    deposits = {json.dumps(policy["policydetails"]["deposit"], sort_keys=True) for policy in days.values()}
    assert len(deposits) == 1
    found: dict[str, Any] = json.loads(deposits.pop())
    return found


def test_a_csv_without_the_deposits_amount_applied_and_units_columns_is_read(tmp_path: Path, sandbox: Any) -> None:
    path = tmp_path / "policies.csv"
    path.write_text(LEAN + "depositpolicy\n" + lean_row("BAR", "not required"))
    result = invoke(["policy", "push", str(path)], env=sandbox_env(sandbox))
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    assert "No deposit required." in result.stdout and "1 row: 1 ok" in result.stdout
    assert held(sandbox, "BAR") == NOT_REQUIRED


def test_a_workbook_with_those_columns_empty_is_read(tmp_path: Path, sandbox: Any) -> None:
    path = tmp_path / "policies.xlsx"
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.append(
        [*LEAN.rstrip(",").split(","), "depositpolicy", "depositamount", "depositapplied", "depositintervalunits"]
    )
    sheet.append(["HTL001", "DBL", "BAR", START, END, "true", 1, 2, 7, 100, 3, "Not required", None, None, None])
    book.save(path)
    result = invoke(["policy", "push", str(path)], env=sandbox_env(sandbox))
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    assert held(sandbox, "BAR") == NOT_REQUIRED


def test_an_ods_without_the_deposits_amount_applied_and_units_columns_is_read(tmp_path: Path, sandbox: Any) -> None:
    # Read by python-calamine, as no CSV or .xlsx is: its cells come as floats and strings of its own.
    values = ["HTL001", "DBL", "BAR", START, END, "true", 1, 2, 7, 100, 3, "not required"]
    cells = [odsxml.text(v) if isinstance(v, str) else odsxml.number(v) for v in values]
    header = [*LEAN.rstrip(",").split(","), "depositpolicy"]
    rows = [odsxml.row(*map(odsxml.text, header), odsxml.TAIL), odsxml.row(*cells, odsxml.TAIL), odsxml.END]
    path = odsxml.write_ods(tmp_path / "policies.ods", {"Policies": rows})
    result = invoke(["policy", "push", str(path)], env=sandbox_env(sandbox))
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    assert "No deposit required." in result.stdout and "1 row: 1 ok" in result.stdout
    assert held(sandbox, "BAR") == NOT_REQUIRED


def test_json_rows_without_those_keys_are_read(tmp_path: Path, sandbox: Any) -> None:
    path = tmp_path / "policies.json"
    row = {"propertyid": "HTL001", "roomid": "DBL", "rateid": "BAR", "start": START, "end": END, "refundable": True,
           "level": 1, "policyid": 2, "dayspriorcheckin": 7, "penaltyamount": 100, "penaltyapplied": 3,
           "depositpolicy": "not required"}  # fmt: skip
    path.write_text(json.dumps([row]))
    result = invoke(["policy", "push", str(path)], env=sandbox_env(sandbox))
    assert result.exit_code == 0, result.stderr
    assert held(sandbox, "BAR") == NOT_REQUIRED


def test_a_required_deposit_in_a_file_without_its_columns_is_refused_naming_them(tmp_path: Path, sandbox: Any) -> None:
    path = tmp_path / "policies.csv"
    path.write_text(LEAN + "depositpolicy\n" + lean_row("BAR", "not required") + lean_row("NRF", "required"))
    result = invoke(["policy", "push", str(path)], env=sandbox_env(sandbox))
    assert result.exit_code == 3
    assert result.stderr == (
        f"error: {path} {LACKING}\n"
        "nothing was sent: fix the invalid rows above, or give --skip-invalid to send the valid ones\n"
    )
    assert sandbox.received == [] and sandbox.state()["policy"] == {}
    # With --skip-invalid the deposit that is not required goes; the required one stays refused.
    result = invoke(["policy", "push", str(path), "--skip-invalid"], env=sandbox_env(sandbox))
    assert result.exit_code == 1
    assert held(sandbox, "BAR") == NOT_REQUIRED and "NRF" not in sandbox.state()["policy"]["HTL001"]["DBL"]


def test_a_file_with_only_some_of_the_columns_names_those_it_lacks(tmp_path: Path, sandbox: Any) -> None:
    path = tmp_path / "policies.csv"
    path.write_text(LEAN + "depositpolicy,depositamount\n" + lean_row("BAR", "required,30"))
    result = invoke(["policy", "push", str(path)], env=sandbox_env(sandbox))
    assert result.exit_code == 3
    assert result.stderr.startswith(
        f"error: {path} line 2, depositpolicy: a required deposit needs the columns depositapplied, "
        "depositintervalunits, which the file does not have"
    )
    assert sandbox.received == []
