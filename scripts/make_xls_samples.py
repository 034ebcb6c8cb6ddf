"""Writes the legacy Excel (.xls, BIFF8) workbooks the tests read into tests/data/.

Nothing in the project writes .xls; this script uses xlwt, which writes real BIFF8 files as Excel 97-2003
saved them. It is not a dependency: run `pip install xlwt && python scripts/make_xls_samples.py` after
changing a workbook here, and commit the files.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import xlwt  # type: ignore[import-not-found]

HERE = Path(__file__).resolve().parent.parent / "tests" / "data"
D = dt.date

# The first sheet: date cells, numbers as Excel stores them (3 is 3.0), text, a blank row, and a row
# where only the Notes column holds something.
RATES: list[list[Any]] = [
    ["Property", "Room", "Date", "Sell Threshold", "Notes"],
    ["HTL001", "DBL", D(2030, 7, 1), 3, "summer"],
    ["HTL001", "DBL", D(2030, 7, 2), 3.0, None],
    [None, None, None, None, None],
    ["HTL001", "TWN", D(2030, 7, 1), "n/a", "clears a threshold"],
    [None, None, None, None, "call the revenue manager"],
    ["HTL002", "KNG", D(2030, 8, 15), 0, None],
]

# The second sheet: a plain number typed into the date column (46391 would be 2027-01-04 as an Excel serial).
TYPED: list[list[Any]] = [
    ["propertyid", "roomid", "date", "threshold"],
    ["HTL001", "DBL", 46391, 2],
]


def write(name: str, sheets: dict[str, list[list[Any]]]) -> Path:
    """One workbook; date cells formatted yyyy-mm-dd, as a spreadsheet program would show them."""
    book = xlwt.Workbook()
    dates = xlwt.easyxf(num_format_str="yyyy-mm-dd")
    for title, rows in sheets.items():
        sheet = book.add_sheet(title)
        for r, row in enumerate(rows):
            for c, value in enumerate(row):
                if isinstance(value, dt.date):
                    sheet.write(r, c, value, dates)
                elif value is not None:
                    sheet.write(r, c, value)
    path = HERE / name
    book.save(str(path))
    return path


if __name__ == "__main__":
    HERE.mkdir(exist_ok=True)
    print(write("threshold.xls", {"Rates": RATES, "Typed": TYPED}))
