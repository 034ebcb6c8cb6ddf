"""Writes the sample workbooks (threshold.xlsx, maxadv.xlsx, policy.xlsx) into samples/.

Run `python scripts/make_xlsx_samples.py` after changing a sample. The cells are typed as a spreadsheet
program types them: dates as date cells, numbers as number cells (some written as 3.0), TRUE and
FALSE as boolean cells, `n/a` as text, and a blank row and a notes column that are left out.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

from openpyxl import Workbook

HERE = Path(__file__).resolve().parent.parent / "samples"
D = dt.date

THRESHOLD: list[list[Any]] = [
    ["Property", "Room", "Start", "End", "Sell Threshold", "Notes"],
    ["HTL001", "DBL", D(2027, 7, 1), D(2027, 7, 31), 3, "summer: keep three doubles"],
    ["HTL001", "TWN", D(2027, 7, 1), D(2027, 7, 15), 2.0, None],
    [None, None, None, None, None, None],
    ["HTL002", "KNG", D(2027, 8, 1), D(2027, 8, 31), 0, "no restriction"],
    ["HTL002", "FAM", D(2027, 8, 10), D(2027, 8, 12), "n/a", "clears a threshold"],
]

MAXADV: list[list[Any]] = [
    ["propertyid", "roomid", "rateid", "start", "end", "days", "nights"],
    ["HTL001", "DBL", "BAR", D(2027, 3, 1), D(2027, 5, 31), None, 365],
    ["HTL001", "DBL", "NRF", D(2027, 3, 1), D(2027, 5, 31), "Mon-Fri", 90.0],
    ["HTL003", "TWN", "BAR", D(2027, 4, 1), D(2027, 4, 30), None, 180],
]

_LEVELS = ("level", "policyid", "dayspriorcheckin", "penaltytype", "penaltyamount", "penaltyapplied")
_DEPOSIT = ("depositpolicy", "deposittype", "depositamount", "depositapplied", "depositintervalunits")
POLICY: list[list[Any]] = [
    ["propertyid", "roomid", "rateid", "start", "end", "refundable", *_LEVELS, *_DEPOSIT, "deposittimeinterval"],
    ["HTL002", "DBL", "BAR", D(2027, 5, 1), D(2027, 8, 31), True, 1, 2, 14, 3, 50, 3, "required", 3, 20, 3, 1, 30],
    ["HTL002", "DBL", "BAR", D(2027, 5, 1), D(2027, 8, 31), True, 2, 2, 2, 3, 100, 4, "required", 3, 20, 3, 1, 30],
    ["HTL002", "DBL", "NRF", D(2027, 5, 1), D(2027, 8, 31), False, 1, 1, 0, 3, 100, 4, "required", 3, 100, 4, 0, None],
    ["HTL001", "SGL", "FLEX", D(2027, 6, 1), D(2027, 6, 30), True, 1, 3, 1, 3, 100.0, 3, "not required", 3, 10, 3, 0],
]  # fmt: skip


def write(name: str, sheet: str, rows: list[list[Any]]) -> Path:
    """One workbook of one sheet; date cells shown as YYYY-MM-DD."""
    book = Workbook()
    ws = book.active
    assert ws is not None
    ws.title = sheet
    for row in rows:
        ws.append(row)
    for cells in ws.iter_rows():
        for cell in cells:
            if isinstance(cell.value, dt.date):
                cell.number_format = "yyyy-mm-dd"
    path = HERE / name
    book.save(path)
    return path


def main() -> None:
    for name, sheet, rows in (
        ("threshold.xlsx", "Thresholds", THRESHOLD),
        ("maxadv.xlsx", "Max advance", MAXADV),
        ("policy.xlsx", "Policies", POLICY),
    ):
        print(write(name, sheet, rows))


if __name__ == "__main__":
    main()
