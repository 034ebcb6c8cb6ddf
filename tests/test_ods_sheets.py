"""OpenDocument spreadsheets as people really send them (issue 29, points 5 and 7): rows hidden or filtered
out, hidden columns, error cells, formulas with no saved value, merged cells, and the cells the reader would
build, found by our own pass over content.xml before python-calamine opens the workbook.

Every test runs the console script on an .ods it writes (tests/odsxml.py) and asserts the message and the
exit code.
"""

from __future__ import annotations

import functools
import json
import resource
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import invoke, sandbox_env
from tests.odsxml import END, TAIL, columns, empty, error, number, row, text, unsaved
from tests.odsxml import write_ods as write
from tests.test_faults import clean_env

HEAD = row(*(text(name) for name in ("propertyid", "roomid", "date", "threshold")), TAIL)


def line(day: int, threshold: str | None = None, extra: str = "") -> str:
    last = number(day) if threshold is None else threshold
    return row(text("HTL001"), text("DBL"), text(f"2030-02-{day:02}"), last, TAIL, extra=extra)


@pytest.fixture(params=["as written by programs", "with a comment"])
def write_ods(request: pytest.FixtureRequest) -> Callable[..., Path]:
    """Writes an .ods as spreadsheet programs do, or with a comment in content.xml, as a person might."""
    return functools.partial(write, comment=request.param == "with a comment")


def push(sandbox: Any, *args: str) -> Any:
    return invoke(["threshold", "push", *args, "--today", "2030-01-01"], env=sandbox_env(sandbox))


def sent(result: Any) -> list[str]:
    document = json.loads(result.stdout)
    return [record["threshold"] for request in document["requests"] for record in request["body"]["data"]]


# -- 5. rows and cells a person would not count --------------------------------------------------


@pytest.mark.parametrize("how", ["collapse", "filter"])
def test_hidden_or_filtered_out_rows_are_an_input_error_naming_their_lines(
    tmp_path: Path, sandbox: Any, write_ods: Callable[..., Path], how: str
) -> None:
    hidden = f' table:visibility="{how}"'
    # Rows 3 and 4 are one element repeated twice, as LibreOffice writes equal rows.
    rows = [HEAD, line(1), line(3, extra=f' table:number-rows-repeated="2"{hidden}'), line(5), END]
    path = write_ods(tmp_path / "rates.ods", {"Rates": rows})
    result = push(sandbox, str(path))
    assert result.exit_code == 3
    assert result.stdout == ""
    assert result.stderr.startswith(
        f"error: {path}[Rates] lines 3, 4: hidden or filtered out in the workbook, so a person reading the sheet "
        "would not count them\nhint: give --hidden-rows skip to leave them out, or --hidden-rows include to read them"
    )
    assert "does not tell hidden" not in result.stderr


@pytest.mark.parametrize(("mode", "values"), [("skip", ["1", "5"]), ("include", ["1", "3", "3", "5"])])
def test_hidden_rows_skip_or_include(
    tmp_path: Path, sandbox: Any, write_ods: Callable[..., Path], mode: str, values: list[str]
) -> None:
    rows = [HEAD, line(1), line(3, extra=' table:number-rows-repeated="2" table:visibility="filter"'), line(5), END]
    path = write_ods(tmp_path / "rates.ods", {"Rates": rows})
    result = push(sandbox, str(path), "--hidden-rows", mode, "--no-merge", "--dry-run", "--output", "json")
    assert result.exit_code == 0, result.stderr
    assert sent(result) == values
    if mode == "skip":
        assert f"note: {path}[Rates] lines 3, 4: hidden or filtered out in the workbook; left out\n" in result.stderr


def test_hidden_empty_rows_below_the_values_are_no_error(
    tmp_path: Path, sandbox: Any, write_ods: Callable[..., Path]
) -> None:
    below = row(empty(1024), extra=' table:number-rows-repeated="1048570" table:visibility="collapse"')
    path = write_ods(tmp_path / "rates.ods", {"Rates": [HEAD, line(1), below]})
    result = push(sandbox, str(path), "--dry-run", "--output", "json")
    assert result.exit_code == 0, result.stderr
    assert sent(result) == ["1"]


def test_a_hidden_column_holding_values_is_named_in_a_note(
    tmp_path: Path, sandbox: Any, write_ods: Callable[..., Path]
) -> None:
    # Values from column B (python-calamine leaves out an empty column A): D and E hidden, E (threshold) read.
    rows = [row(empty(), *(text(n) for n in ("propertyid", "roomid", "date", "threshold"))),
            row(empty(), text("HTL001"), text("DBL"), text("2030-02-01"), number(2))]  # fmt: skip
    heads = {"Rates": columns((3, False), (2, True), (1019, False))}
    path = write_ods(tmp_path / "rates.ods", {"Rates": rows}, heads)
    result = push(sandbox, str(path), "--dry-run")
    assert result.exit_code == 0, result.stderr
    assert f"note: {path}[Rates]: columns D (date), E (threshold) hidden in the workbook; read\n" in result.stderr


def test_cells_that_read_as_empty_or_as_a_value_and_are_not_are_named(
    tmp_path: Path, sandbox: Any, write_ods: Callable[..., Path]
) -> None:
    merged = text("DBL", ' table:number-rows-spanned="3"')
    rows = [
        HEAD,
        row(text("HTL001"), merged, text("2030-02-01"), unsaved("1+1"), TAIL),
        # A cell under a merged one: empty, or holding a value the sheet no longer shows.
        row(text("HTL001"), "<table:covered-table-cell/>", text("2030-02-02"), error("NA()", "#N/A"), TAIL),
        row(
            text("HTL001"),
            '<table:covered-table-cell office:value-type="string"><text:p>TWN</text:p></table:covered-table-cell>',
            text("2030-02-03"),
            error("1/0", "#DIV/0!", 'office:value-type="float" office:value="0"'),
            TAIL,
        ),
        line(
            4,
            '<table:table-cell table:formula="of:=[.Z99]" calcext:value-type="error"><text:p>Err:502</text:p>'
            "</table:table-cell>",
        ),
        END,
    ]
    path = write_ods(tmp_path / "rates.ods", {"Rates": rows})
    result = push(sandbox, str(path))
    assert result.exit_code == 3
    merged_note = "merged with B2, whose value only the first cell holds: unmerge the cells"
    assert result.stderr.splitlines()[:6] == [
        f"error: {path}[Rates] line 2, threshold: a formula with no saved value: open and save the workbook in a "
        "spreadsheet program",
        f"{path}[Rates] line 3, roomid: {merged_note}",
        f"{path}[Rates] line 3, threshold: #N/A (an error cell)",
        f"{path}[Rates] line 4, roomid: {merged_note}",
        f"{path}[Rates] line 4, threshold: #DIV/0! (an error cell)",
        f"{path}[Rates] line 5, threshold: Err:502 (an error cell)",
    ]
    assert "is empty" not in result.stderr
    assert result.stdout == ""


def test_a_formula_with_its_saved_value_is_read(tmp_path: Path, sandbox: Any, write_ods: Callable[..., Path]) -> None:
    saved = '<table:table-cell table:formula="of:=1+1" office:value-type="float" office:value="2"><text:p>2</text:p></table:table-cell>'
    path = write_ods(tmp_path / "rates.ods", {"Rates": [HEAD, line(1, saved), END]})
    result = push(sandbox, str(path), "--dry-run", "--output", "json")
    assert result.exit_code == 0, result.stderr
    assert sent(result) == ["2"]
    assert "does not tell" not in result.stderr


# -- 7. bounded whatever the shape ---------------------------------------------------------------


def sparse(rows: int) -> Iterator[str]:
    """Values in column A and in column 16,001 on each row: a few bytes a row, 16,001 cells to the reader."""
    for i in range(rows):
        yield row(number(i), empty(15_999), number(i))


def test_a_sheet_as_libreoffice_ends_it_is_not_counted_past_its_values(
    tmp_path: Path, sandbox: Any, write_ods: Callable[..., Path]
) -> None:
    # 1024 columns and 1,048,576 rows in the file; two rows of four values to the reader.
    path = write_ods(tmp_path / "rates.ods", {"Rates": [HEAD, line(1), END]}, {"Rates": columns((1024, False))})
    result = push(sandbox, str(path), "--dry-run", "--output", "json")
    assert result.exit_code == 0, result.stderr
    assert sent(result) == ["1"]


def test_a_sparse_sheet_past_the_bound_is_refused_before_the_reader_opens_it(
    tmp_path: Path, sandbox: Any, write_ods: Callable[..., Path]
) -> None:
    path = write_ods(tmp_path / "sparse.ods", {"Rates": [HEAD, line(1)], "Old": sparse(20_000)})
    assert path.stat().st_size < 1_000_000
    result = push(sandbox, str(path))
    assert result.exit_code == 3
    # A sheet that is not read is refused too: the reader builds every sheet when it opens the workbook.
    assert result.stderr.startswith(
        f"error: {path}[Old]: the sheet's values span 20,000 rows x 16,001 columns (320,020,000 cells; "
        "320,020,008 with the sheets before it); refused: an .ods workbook is read up to 4,000,000 cells over all "
        "its sheets, from column A, as the reader builds the whole grid\n"
        "hint: delete the rows and columns past the data"
    )


def test_a_repeated_row_counts_each_time_it_is_repeated(
    tmp_path: Path, sandbox: Any, write_ods: Callable[..., Path]
) -> None:
    many = row(number(1), empty(98), number(2), extra=' table:number-rows-repeated="1000000"')
    path = write_ods(tmp_path / "rates.ods", {"Rates": [many]})
    result = push(sandbox, str(path))
    assert result.exit_code == 3
    assert f"error: {path}[Rates]: the sheet's values span 1,000,000 rows x 100 columns (100,000,000 cells)" in (
        result.stderr
    )


def test_the_refusal_holds_little_memory(tmp_path: Path, sandbox: Any, write_ods: Callable[..., Path]) -> None:
    """In a process of its own limited to 1 GiB: python-calamine would need about 28 GB for this sheet."""
    path = write_ods(tmp_path / "sparse.ods", {"Rates": sparse(20_000)})

    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (2**30, 2**30))

    env = clean_env(tmp_path, **sandbox_env(sandbox))
    done = subprocess.run(
        [sys.executable, "-m", "ari_cli", "threshold", "push", str(path)],
        capture_output=True,
        text=True,
        env=env,
        preexec_fn=limited,
        timeout=120,
        stdin=subprocess.DEVNULL,
        check=False,
    )
    assert done.returncode == 3, done.stderr
    assert f"error: {path}[Rates]: the sheet's values span 20,000 rows x 16,001 columns" in done.stderr
    assert done.stdout == ""


def test_an_error_saved_without_libreoffices_own_mark_is_told_by_its_text(
    tmp_path: Path, sandbox: Any, write_ods: Callable[..., Path]
) -> None:
    # Strict ODF has no calcext: the error is known by the formula's text alone.
    strict = (
        '<table:table-cell table:formula="of:=NA()" office:value-type="string" office:string-value="">'
        "<text:p>#N/A</text:p></table:table-cell>"
    )
    path = write_ods(tmp_path / "rates.ods", {"Rates": [HEAD, line(1, strict), END]})
    result = push(sandbox, str(path))
    assert result.exit_code == 3
    assert result.stderr.startswith(f"error: {path}[Rates] line 2, threshold: #N/A (an error cell)\n")
