"""The compact path of big threshold and maxadv runs gives exactly what the general path gives.

The general path (a dict, a view, a setting and a result object per row, the JSON document built
whole) is the reference. The compact path reads CSV in blocks, keeps plain rows as ints, plans
sorted keys a column at a time and writes the document as it goes. Over varied input (unsorted
files, overlaps, past dates, weekday filters, invalid rows, odd CSV) both must give the same rows,
the same plan, and byte for byte the same JSON and CSV.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import random
import re
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ari_cli import pipeline
from ari_cli.batch import DataForm, Envelope, build_body
from ari_cli.config.secrets import masked_body
from ari_cli.exits import InputError
from ari_cli.inputs import ReadOptions, ReadResult, SourceRow, csvfile, read_rows
from ari_cli.inputs.csvfile import Block, CsvRows
from ari_cli.pipeline import PushOptions, execute, prepare
from ari_cli.plan import Plan, PlanOptions, Record, plan_settings
from ari_cli.records.rows import DateOptions, Parsed, Policy, parse_rows
from ari_cli.render import run as render
from ari_cli.render.printable import printable
from ari_cli.results import NOT_SENT, RowResult, Run, Status, attribute
from ari_cli.send.exchange import Exchange, Outcome, Problem
from ari_cli.table import LineNumbers
from ari_cli.tableplan import plan_table
from ari_cli.tableread import read_table
from ari_cli.wire.models import BODY_MODELS, Operation, dump_body

TODAY = dt.date(2027, 1, 10)
CHECKS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # sources read "rooms.csv", as a user types them


def day(offset: int) -> str:
    return (TODAY + dt.timedelta(days=offset)).isoformat()


# Reading ---------------------------------------------------------------------------------------


def oracle_rows(name: str, operation: Operation) -> list[SourceRow] | int:
    """The rows as the csv module gives them row by row (the reading blocks replaced), or the line of
    a row too wide for the header."""
    rows = read_rows([name], operation, ReadOptions()).parts[0]
    assert isinstance(rows, CsvRows)
    layout = rows.layout
    found: list[SourceRow] = []
    with open(name, "rb") as raw, io.TextIOWrapper(raw, encoding=layout.encoding, newline="") as text:
        reader = csv.reader(text, delimiter=layout.delimiter, quotechar='"', doublequote=True, skipinitialspace=True)
        for _ in reader:
            if reader.line_num >= layout.header_end:
                break
        previous = reader.line_num
        for cells in reader:
            start, previous = previous + 1, reader.line_num
            if not any(cells):
                continue
            if len(cells) < layout.width:
                cells += [""] * (layout.width - len(cells))
            elif any(cell.strip() for cell in cells[layout.width :]):
                return start
            fields = {name: cells[i].strip() for name, i in zip(layout.names, layout.indices, strict=True)}
            if any(fields.values()) or "".join(cells).strip():
                found.append(SourceRow(name, start, fields))
    return found


def block_rows(name: str, operation: Operation) -> list[SourceRow] | int:
    """The rows as the fast path reads them: blocks of columns, and single rows."""
    rows = read_rows([name], operation, ReadOptions()).parts[0]
    assert isinstance(rows, CsvRows)
    found: list[SourceRow] = []
    try:
        for piece in rows.pieces():
            found += piece.rows() if isinstance(piece, Block) else [piece]
    except InputError as problem:
        match = re.search(r" line (\d+): \d+ values but the header has", problem.message)
        assert match, problem.message
        return int(match.group(1))
    return found


CELLS = st.sampled_from(["H1", "DBL", " TWN ", "", "  ", "2027-01-12", "5", "n/a", "a;b", "x\ty", "é", "'", "\x0c"])
QUOTED = st.sampled_from(['"H1"', '"a,b"', '"two\nlines"', '"say ""hi"""', ' "padded"', '"crlf\r\nin"', 'ab"c'])


@st.composite
def csv_texts(draw: st.DrawFn) -> tuple[str, str]:
    delimiter = draw(st.sampled_from([",", ";", "\t"]))
    header = ["propertyid", "roomid", "date", "threshold", "notes"]
    lines = [delimiter.join(header)]
    for _ in range(draw(st.integers(0, 40))):
        kind = draw(st.sampled_from(["row"] * 6 + ["short", "long", "wide", "blank", "empty", "spaces", "quoted"]))
        width = {"short": 3, "long": 6, "wide": 7}.get(kind, 5)
        cells = [draw(CELLS) for _ in range(width)]
        if kind == "long":
            cells[5] = ""  # extra cells that are empty are allowed
        elif kind == "wide":
            cells[6] = "extra"
        elif kind == "quoted":
            cells[draw(st.integers(0, 4))] = draw(QUOTED)
        line = {"blank": "", "empty": delimiter * 4, "spaces": " " + delimiter + "  "}.get(kind)
        lines.append(line if line is not None else delimiter.join(cell.replace(delimiter, " ") for cell in cells))
    newline = draw(st.sampled_from(["\n", "\r\n", "\r"]))
    ending = draw(st.sampled_from(["", newline]))
    return draw(st.sampled_from(["", "\ufeff"])) + newline.join(lines) + ending, newline


@CHECKS
@given(text=csv_texts(), chunk=st.sampled_from([16, 37, 200, 64 * 1024]))
def test_blocks_read_every_row_as_the_csv_module_does(text: tuple[str, str], chunk: int) -> None:
    content, _ = text
    Path("rooms.csv").write_bytes(content.encode("utf-8"))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(csvfile, "CHUNK_CHARS", chunk)  # chunk ends fall anywhere, quotes across them
        expected = oracle_rows("rooms.csv", Operation.THRESHOLD)
        assert block_rows("rooms.csv", Operation.THRESHOLD) == expected
        try:
            streamed: list[SourceRow] | int = list(read_rows(["rooms.csv"], Operation.THRESHOLD, ReadOptions()).rows)
        except InputError as problem:
            streamed = int(re.findall(r" line (\d+):", problem.message)[0])
        assert streamed == expected


TRICKY = (
    "propertyid,roomid,date,threshold,notes\r\n"
    'H1,DBL,2027-01-12,5,a\r\nH1,"two\nlines",2027-01-12,5,"b\r\nc"\r\n\r\nH1,DBL,2027-01-13,5\r\n'
    ',,,,\r\nH1,"DBL",2027-01-14,"6",\r\nH1,DBL,2027-01-15,7,x\ry\r\nH1, TWN ,2027-01-15,7,""\r\n'
)


@pytest.mark.parametrize("chunk", range(1, 90))
def test_quoted_values_across_chunk_ends_are_read_as_the_csv_module_reads_them(chunk: int) -> None:
    Path("rooms.csv").write_text(TRICKY * 3, newline="")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(csvfile, "CHUNK_CHARS", chunk)
        assert block_rows("rooms.csv", Operation.THRESHOLD) == oracle_rows("rooms.csv", Operation.THRESHOLD)


def test_a_nul_past_the_sniffed_sample_is_read_as_the_csv_module_reads_it() -> None:
    rows = "".join(f"H1,R{i % 7},{day(i % 300)},{i % 10}\n" for i in range(4000))
    Path("rooms.csv").write_text("propertyid,roomid,date,threshold\n" + rows + "H1,R\x001,2027-01-11,5\n" + rows)
    assert block_rows("rooms.csv", Operation.THRESHOLD) == oracle_rows("rooms.csv", Operation.THRESHOLD)


def test_plain_lines_are_read_as_blocks_and_the_rest_row_by_row() -> None:
    rows = "".join(f"H1,R{i % 7},{day(i % 300)},{i % 10}\r\n" for i in range(3000))
    Path("rooms.csv").write_text("propertyid,roomid,date,threshold\r\n" + rows + 'H1,"R 1",2027-01-11\r\n\r\n' + rows)
    rows_read = read_rows(["rooms.csv"], Operation.THRESHOLD, ReadOptions()).parts[0]
    assert isinstance(rows_read, CsvRows)
    pieces = list(rows_read.pieces())
    blocks = [piece for piece in pieces if isinstance(piece, Block)]
    assert sum(map(len, blocks)) == 6000 and blocks[0].first_line == 2
    assert blocks[0].column("roomid")[:3] == ["R0", "R1", "R2"]
    assert [piece.line for piece in pieces if isinstance(piece, SourceRow)] == [3002]  # the short row


# Validating and planning -----------------------------------------------------------------------

KEYS = [("H1", "DBL", "BAR"), ("H1", "TWN", "BAR"), ("H1", "TWN", "NRF"), ("H2", "DBL", "BAR")]
VALUES = ["0", "1", "5", "5", "5", "7", "n/a", "999"]
ODD_VALUES = ["N/A", "05", "1000", "x", "", "3.0", "-1"]
ODD_DATES = ["today", "today+2", "2027-02-30", "", "01/02/2027", "2027-1-5"]


@st.composite
def level_files(draw: st.DrawFn, operation: Operation, clean: bool = False) -> str:
    """A threshold or maxadv file: mostly plain rows, in key and date order or not, and the odd one
    (none when `clean`)."""
    dated = draw(st.booleans())
    with_days = draw(st.booleans())
    odd = 0 if clean else draw(st.sampled_from([0, 12, 30]))  # how rare odd rows are (0: none)
    past = draw(st.sampled_from([0, 6]))  # how far before today a key may start
    value = "threshold" if operation is Operation.THRESHOLD else "time"
    rate = ["rateid"] if operation is Operation.MAXADV else []
    header = ["propertyid", "roomid", *rate, *(["date"] if dated else ["start", "end"]), value]
    header += ["days"] if with_days else []
    rows: list[list[str]] = []
    for key in draw(st.lists(st.sampled_from(KEYS), min_size=1, max_size=4, unique=True)):
        offset = draw(st.integers(-past, 3))
        cells: list[str] = []
        for _ in range(draw(st.integers(1, 12))):
            span = 0 if dated else draw(st.sampled_from([0, 0, 1, 3]))
            offset += draw(st.sampled_from([0, 1, 1, 1, 1, 2])) if rows else 0
            start, end = day(offset), day(offset + span)
            if odd and draw(st.integers(0, odd)) == 0:
                start = draw(st.sampled_from(ODD_DATES))
            if not cells or draw(st.integers(0, 3)) == 0:  # values run on, as in an export
                cells.append(draw(st.sampled_from(ODD_VALUES if odd and draw(st.integers(0, odd)) == 0 else VALUES)))
            cell = cells[-1]
            ids = [key[0], key[1], *([key[2]] if rate else [])]
            if odd and draw(st.integers(0, 2 * odd)) == 0:
                ids[0] = ""
            dates = [start] if dated else [start, end]
            filters = ["Mon-Fri", "Sat", "1111111"] if odd and draw(st.integers(0, odd)) == 0 else [""]
            days = [draw(st.sampled_from(filters))] if with_days else []
            rows.append([*ids, *dates, cell, *days])
            offset += span
    order = draw(st.sampled_from(["sorted", "shuffled", "reversed", "by date"]))
    if order == "shuffled":
        random.Random(draw(st.integers(0, 999))).shuffle(rows)
    elif order == "reversed":
        rows.reverse()
    elif order == "by date":
        rows.sort(key=lambda row: row[len(ids)])
    return "\n".join(",".join(row) for row in [header, *rows]) + "\n"


def general(
    read: ReadResult,
    operation: Operation,
    dates: DateOptions,
    options: PlanOptions,
    single_level: bool = False,
    named: dict[str, Policy] | None = None,
) -> tuple[Parsed, Plan]:
    """The general path: a view and a setting per row, then the general planner."""
    parsed = parse_rows(list(read.rows), operation, dates, single_level, named)
    return parsed, plan_settings(parsed.settings, parsed.views, options)


def both(options: PushOptions) -> tuple[Run, Run]:
    """The run through the compact path, and through the general path."""
    compact = execute(options, prepare(options, None), None)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(pipeline, "validate_and_plan", general)
        reference = execute(options, prepare(options, None), None)
    return compact, reference


def reference_json(run: Run) -> str:
    """The document as it was made before it was streamed: whole, in one json.dumps."""
    return json.dumps(render.document(run), ensure_ascii=False) + "\n"


def reference_csv(run: Run) -> str:
    out = io.StringIO()
    render.write_csv(Run(run.operation, run.dry_run, list(run.rows), run.records, run.exchanges), out)
    return out.getvalue()


def written(writer: Any, run: Run) -> str:
    out = io.StringIO()
    writer(run, out)
    return out.getvalue()


def shown(run: Run, show_all: bool | None) -> str:
    out = io.StringIO()
    console = render.console(file=out)
    render.planned_requests(run, console)
    render.table(run, show_all, console)
    return out.getvalue()


def assert_same(compact: Run, reference: Run) -> None:
    assert list(compact.rows) == list(reference.rows)
    assert compact.records == reference.records
    assert compact.warnings == reference.warnings
    assert [(e.propertyid, e.records, e.body, e.url) for e in compact.exchanges] == [
        (e.propertyid, e.records, e.body, e.url) for e in reference.exchanges
    ]
    assert written(render.write_json, compact) == reference_json(reference)
    assert written(render.write_csv, compact) == reference_csv(reference)
    assert compact.summary() == reference.summary() and compact.exit_code() == reference.exit_code()
    listed = Run(reference.operation, reference.dry_run, list(reference.rows), reference.records, reference.exchanges)
    for show_all in (None, True, False):
        assert shown(compact, show_all) == shown(listed, show_all)


@CHECKS
@given(
    data=st.data(),
    operation=st.sampled_from([Operation.THRESHOLD, Operation.MAXADV]),
    merge=st.booleans(),
    last_wins=st.booleans(),
    skip_invalid=st.booleans(),
)
def test_the_compact_path_gives_the_general_paths_json_byte_for_byte(
    data: st.DataObject, operation: Operation, merge: bool, last_wins: bool, skip_invalid: bool
) -> None:
    Path("rooms.csv").write_text(data.draw(level_files(operation, clean=data.draw(st.booleans()))), encoding="utf-8")
    options = PushOptions(
        operation, ("rooms.csv",), TODAY, merge=merge, last_wins=last_wins, skip_invalid=skip_invalid,
        dry_run=True, batch_size=data.draw(st.sampled_from([1, 3, 50])),
    )  # fmt: skip
    assert_same(*both(options))


def test_a_sorted_export_over_several_files_and_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(csvfile, "CHUNK_CHARS", 300)
    monkeypatch.setattr(render, "_FILLED_AT_ONCE", 7)  # long runs of alike rows are written in pieces
    rng = random.Random(3)
    for number in (1, 2):
        lines = ["propertyid,roomid,date,threshold"]
        for room in range(6):
            value = rng.randint(0, 9)
            for offset in range(-3, 40):
                value = value if rng.random() < 0.8 else rng.randint(0, 9)
                lines.append(f"H{number},R{room},{day(offset)},{value}")
        Path(f"f{number}.csv").write_text("\n".join(lines) + "\n")
    options = PushOptions(Operation.THRESHOLD, ("f1.csv", "f2.csv"), TODAY, dry_run=True)
    compact, reference = both(options)
    assert_same(compact, reference)
    assert compact.summary()["skipped"] == 2 * 6 * 3


def test_thousands_of_lines_a_file_given_twice_and_gaps_are_written_as_the_general_path_does() -> None:
    # Consecutive lines are written a thousand at a time, from slices of each thousand's text: runs
    # across thousands, a file read twice (its lines start again) and blank lines (gaps) must not fool it.
    rng = random.Random(5)
    lines = ["propertyid,roomid,date,threshold"]
    for room in range(4):
        value = rng.randint(0, 9)
        for offset in range(300):
            value = value if rng.random() < 0.9 else rng.randint(0, 9)
            lines.append(f"H{room % 3},R{room},{day(offset)},{value}")
    Path("big.csv").write_text("\n".join(lines) + "\n")
    gaps = [*lines[:900], "", *lines[900:1000], "", "", *lines[1000:]]
    Path("gaps.csv").write_text("\n".join(gaps) + "\n")
    for files in (("big.csv", "big.csv"), ("gaps.csv",)):
        options = PushOptions(Operation.THRESHOLD, files, TODAY, dry_run=True, last_wins=True)
        compact, reference = both(options)
        assert_same(compact, reference)


@pytest.mark.parametrize(
    "span",
    [range(2, 5), range(2, 1000), range(998, 1003), range(999, 2001), range(1000, 2000), range(1000, 1001),
     range(1500, 1501), range(12345, 15678), range(999_998, 1_000_003), range(7, 7)],
)  # fmt: skip
@pytest.mark.parametrize(("head", "tail", "separator"), [("", "", ", "), ('{"line": ', "}", ", "), ("a,", ",b\n", "")])
def test_numbered_lines_are_each_line_written_out(span: range, head: str, tail: str, separator: str) -> None:
    pieces = list(render._numbered(span, head, tail, separator))
    assert separator.join(pieces) == separator.join(f"{head}{line}{tail}" for line in span)
    assert all(pieces) and len(pieces) <= len(span) // 1000 + 2


# A record's rows as it keeps them: in order, each once; a range when they follow one another.
_REFS = st.one_of(
    st.builds(range, st.integers(0, 30), st.integers(0, 30), st.sampled_from([1, 1, 1, 2])),
    st.lists(st.integers(0, 30), max_size=4, unique=True).map(sorted).map(tuple),
)


@given(st.lists(_REFS, max_size=6))
def test_a_requests_rows_are_a_span_exactly_when_they_follow_one_another(groups: list[Sequence[int]]) -> None:
    rows = [row for refs in groups for row in refs]
    follow = all(groups) and rows == list(range(rows[0], rows[0] + len(rows))) if rows else not groups
    expected = range(rows[0] if rows else 0, rows[-1] + 1 if rows else 0) if follow else None
    assert render._span(groups) == expected


@given(st.lists(st.tuples(st.integers(1, 40), st.integers(0, 5)), max_size=12), st.data())
def test_line_numbers_kept_as_runs_are_the_lines_added(adds: list[tuple[int, int]], data: st.DataObject) -> None:
    numbers, model = LineNumbers(), []
    for first_line, count in adds:
        numbers.add(first_line, count)
        model += range(first_line, first_line + count)
    assert len(numbers) == len(model) and [numbers[i] for i in range(len(model))] == model
    assert numbers.last() == (model[-1] if model else None)
    first = data.draw(st.integers(0, len(model)))
    stop = data.draw(st.integers(first, len(model)))
    assert numbers.between(first, stop) == model[first:stop]
    rows = data.draw(st.lists(st.integers(0, len(model) - 1), max_size=8)) if model else []
    assert numbers.of(rows) == [model[row] for row in rows]
    assert numbers.of(range(first, stop)) == model[first:stop]
    consecutive = (
        stop > first
        and model[stop - 1] - model[first] == stop - 1 - first
        and model[first:stop] == sorted(set(model[first:stop]))
    )
    assert numbers.span(first, stop) == (range(model[first], model[stop - 1] + 1) if consecutive else None)
    with pytest.raises(IndexError):
        numbers[len(model)]


@pytest.mark.parametrize(
    "rows",
    [
        # a key that comes back after another, touching its earlier run with the same value
        ["H1,R1,{0},5", "H1,R2,{0},5", "H1,R1,{1},5"],
        # an invalid row between two rows of one key that touch, with one value, or not
        ["H1,R1,{0},5", "H1,R1,{5},x", "H1,R1,{1},5", "H1,R1,{2},6"],
        ["H1,R1,{0},5", "H1,R1,{1},x", "H1,R1,{2},5"],
        # overlapping values, and one row set twice
        ["H1,R1,{0},5", "H1,R1,{0},6", "H1,R2,{3},1", "H1,R2,{3},1"],
        # out of date order
        ["H1,R1,{4},5", "H1,R1,{2},5", "H1,R1,{3},5"],
        # a weekday filter on one row of a key
        ["H1,R1,{0},5", "H1,R1,{1},5,Sat", "H1,R2,{1},5"],
        # every row before today
        ["H1,R1,{-9},5", "H1,R1,{-8},6"],
        # an export sorted by date, from yesterday on or from today
        ["H1,R1,{-1},5", "H1,R2,{-1},5", "H1,R1,{0},5", "H1,R2,{0},6", "H1,R1,{1},5", "H1,R2,{1},6"],
        ["H1,R1,{0},5", "H1,R2,{0},5", "H1,R1,{1},5", "H1,R2,{1},6", "H1,R1,{2},6", "H1,R2,{2},6"],
    ],
)
@pytest.mark.parametrize("last_wins", [False, True])
def test_hand_picked_files_give_the_general_paths_json(rows: list[str], last_wins: bool) -> None:
    text = "\n".join(re.sub(r"\{(-?\d+)\}", lambda m: day(int(m.group(1))), row) for row in rows)
    Path("rooms.csv").write_text("propertyid,roomid,date,threshold,days\n" + text + "\n")
    for skip_invalid in (False, True):
        options = PushOptions(
            Operation.THRESHOLD, ("rooms.csv",), TODAY, last_wins=last_wins, skip_invalid=skip_invalid, dry_run=True
        )
        assert_same(*both(options))


@pytest.mark.parametrize("skip_invalid", [False, True])
def test_keys_sorted_by_date_keep_the_order_of_their_first_valid_rows(skip_invalid: bool) -> None:
    # One block of plain lines, checked a column at a time: the invalid first row's key is met first.
    rows = ["H1,R1,2027-02-30,5", f"H2,R2,{day(1)},5", f"H1,R1,{day(0)},5", f"H2,R2,{day(0)},6", f"H1,R1,{day(1)},5"]
    Path("rooms.csv").write_text("propertyid,roomid,date,threshold\n" + "\n".join(rows) + "\n")
    compact, reference = both(
        PushOptions(Operation.THRESHOLD, ("rooms.csv",), TODAY, skip_invalid=skip_invalid, dry_run=True)
    )
    assert_same(compact, reference)
    assert [record.key[0] for record in compact.records] == ["H2", "H2", "H1"]


@pytest.mark.parametrize("first", [-9, -5, -1, 0])
def test_ranges_across_today_are_clipped_with_a_warning_as_the_general_path_does(first: int) -> None:
    rows = [(first, first + 1, 5), (first + 2, first + 6, 5), (first + 7, first + 12, 6), (first + 13, first + 13, 6)]
    lines = [f"H1,R{room},{day(a)},{day(b)},{value}" for room in (1, 2) for a, b, value in rows]
    Path("rooms.csv").write_text("propertyid,roomid,start,end,threshold\n" + "\n".join(lines) + "\n")
    compact, reference = both(PushOptions(Operation.THRESHOLD, ("rooms.csv",), TODAY, dry_run=True))
    assert_same(compact, reference)
    assert compact.warnings == reference.warnings and (first >= 0 or any("before today" in w for w in compact.warnings))


def test_rows_given_as_objects_take_the_compact_path_too() -> None:
    rows = [
        SourceRow("send", 1, {"propertyid": "H1", "roomid": "DBL", "start": day(0), "end": day(2), "threshold": "4"}),
        SourceRow("send", 2, {"propertyid": "H1", "roomid": "DBL", "start": day(3), "end": day(3), "threshold": "4"}),
        SourceRow("send", 3, {"propertyid": "H1", "roomid": "DBL", "start": "today", "end": day(9), "threshold": "4"}),
    ]
    table = read_table(ReadResult(rows=rows), Operation.THRESHOLD, DateOptions(TODAY))
    parsed = parse_rows(rows, Operation.THRESHOLD, DateOptions(TODAY))
    assert list(table) == list(parsed.views) and table.errors == parsed.errors
    plan = plan_table(table, PlanOptions(TODAY))
    assert plan == plan_settings(parsed.settings, parsed.views, PlanOptions(TODAY))


# Results and output ----------------------------------------------------------------------------


def old_attribute(
    views: Any, invalid: dict[int, list[str]], plan: Plan, exchanges: list[Exchange], dry_run: bool
) -> list[RowResult]:
    """Attribution as it was, one object per row: the reference for results kept per record."""
    records_of: dict[int, list[int]] = {}
    for index, record in enumerate(plan.records):
        for ref in record.refs:
            records_of.setdefault(ref, []).append(index)
    outcomes = {r: e.outcome for e in exchanges if e.final and e.outcome is not None for r in e.records}
    results: list[RowResult] = []
    for index, view in enumerate(views):
        messages = invalid.get(index) or plan.invalid.get(index)
        if messages:
            results.append(RowResult(index, view, Status.INVALID, errors=[Problem(None, m, None) for m in messages]))
        elif index in plan.skipped:
            results.append(RowResult(index, view, Status.SKIPPED, note=plan.skipped[index]))
        elif dry_run:
            results.append(RowResult(index, view, Status.OK))
        else:
            row = RowResult(index, view, Status.OK)
            for number in records_of.get(index, []):
                outcome = outcomes.get(number)
                if outcome is None:
                    row.status = Status.FAILED
                    row.errors += [NOT_SENT] if NOT_SENT not in row.errors else []
                    continue
                if outcome.trackingid and outcome.trackingid not in row.trackingids:
                    row.trackingids.append(outcome.trackingid)
                if not outcome.success:
                    row.status = Status.FAILED
                    row.errors += [p for p in dict.fromkeys(outcome.errors) if p not in row.errors]
            results.append(row)
    return results


def answers(count: int, seed: int) -> Iterator[Outcome | None]:
    rng = random.Random(seed)
    for number in range(count):
        pick = rng.random()
        if pick < 0.15:
            yield None
        elif pick < 0.35:
            problem = Problem(416, "overlapping \u00e9 ranges", 400)
            yield Outcome(400, False, f"T{number}", (problem, problem, Problem(None, "x", 400)))
        else:
            yield Outcome(200, True, f"T{number}" if pick < 0.9 else None)


@pytest.mark.parametrize("seed", range(6))
def test_results_of_a_sent_run_are_the_old_per_row_results(seed: int) -> None:
    lines = ["propertyid,roomid,date,threshold,days"]
    lines += [
        f"H{r % 2},R{r},{day(n)},{(n // 3 + r) % 4},{'Sat' if n == 7 else ''}" for r in range(4) for n in range(-2, 12)
    ]
    lines += ["H1,R9,2027-02-31,5,", f"H0,R1,{day(5)},1,"]
    Path("rooms.csv").write_text("\n".join(lines) + "\n")
    options = PushOptions(Operation.THRESHOLD, ("rooms.csv",), TODAY, batch_size=3, skip_invalid=True, dry_run=True)
    prepared = prepare(options, None)
    exchanges = []
    for exchange, outcome in zip(prepared.exchanges, answers(len(prepared.exchanges), seed), strict=True):
        exchange.outcome, exchange.attempts = outcome, 0 if outcome is None else 1
        exchanges.append(exchange)
    views, errors, plan = prepared.parsed.views, prepared.parsed.errors, prepared.plan
    rows = attribute(views, errors, plan, exchanges, dry_run=False)
    expected = old_attribute(list(views), errors, plan, exchanges, dry_run=False)
    assert list(rows) == expected and [rows[i] for i in range(len(rows))] == expected
    run = Run(Operation.THRESHOLD, False, rows, plan.records, exchanges)
    listed = Run(Operation.THRESHOLD, False, expected, plan.records, exchanges)
    assert written(render.write_json, run) == reference_json(listed)
    assert written(render.write_csv, run) == reference_csv(listed)
    assert run.summary() == listed.summary() and run.exit_code() == listed.exit_code()


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_indented_json_for_a_terminal_is_json_dumps_with_indent() -> None:
    Path("rooms.csv").write_text(f"propertyid,roomid,date,threshold\nH1,R1,{day(1)},5\nH1,R1,{day(2)},x\n")
    for skip_invalid in (False, True):
        compact, reference = both(
            PushOptions(Operation.THRESHOLD, ("rooms.csv",), TODAY, skip_invalid=skip_invalid, dry_run=True)
        )
        out = Terminal()
        render.write_json(compact, out)
        assert out.getvalue() == json.dumps(render.document(reference), ensure_ascii=False, indent=2) + "\n"


def test_an_empty_run_is_an_empty_document() -> None:
    Path("rooms.csv").write_text("propertyid,roomid,date,threshold\n")
    compact, reference = both(PushOptions(Operation.THRESHOLD, ("rooms.csv",), TODAY, dry_run=True))
    assert_same(compact, reference)
    assert json.loads(written(render.write_json, compact))["rows"] == []


@pytest.mark.parametrize("operation", [Operation.THRESHOLD, Operation.MAXADV])
@pytest.mark.parametrize("form", list(DataForm))
def test_a_level_body_is_exactly_its_wire_models_dump(operation: Operation, form: DataForm) -> None:
    key = ("H1", "DBL", "BAR") if operation is Operation.MAXADV else ("H1", "DBL")
    records = [Record(key, TODAY, TODAY + dt.timedelta(days=n), value, (n,)) for n, value in enumerate(["n/a", "7"])]
    for envelope in (Envelope(), Envelope("sandbox-key-0001", "cpbA1")):
        body = build_body(operation, envelope, records[: 1 if form is DataForm.OBJECT else 2], form)
        check = {**body, "sourceid": "cpb00"} if envelope == Envelope() else body
        dumped = dump_body(BODY_MODELS[operation].model_validate(check))
        assert json.dumps(check) == json.dumps(dumped)  # the same fields, in the same order


def test_planned_requests_written_plainly_are_what_rich_would_print() -> None:
    ids = ["H1", "[bold]H2[/]", "H:smile:3", "Hé\x1b[31m4", "H 5\u202e", "H\t6", "H\n7"]
    rows = [f'"{prop}",DBL,{day(n)},{n}' for prop in ids for n in range(3)]
    Path("rooms.csv").write_text("propertyid,roomid,date,threshold\n" + "\n".join(rows) + "\n")
    options = PushOptions(Operation.THRESHOLD, ("rooms.csv",), TODAY, dry_run=True)
    run = execute(options, prepare(options, None), None)
    assert len(run.exchanges) == len(ids)
    plain, printed = io.StringIO(), io.StringIO()
    render.planned_requests(run, render.console(file=plain))
    console = render.console(file=printed)
    for exchange in run.exchanges:
        head = f"# request {exchange.id}: {len(exchange.records)} records, property {exchange.propertyid}"
        body = json.dumps(masked_body(exchange.body), indent=2, ensure_ascii=False)
        for text in (head, f"POST {exchange.url}", body):
            console.print(printable(text), markup=False)
    assert plain.getvalue() == printed.getvalue()


EDGE_VALUES = [
    "0",
    "1",
    "7",
    "999",
    "1000",
    "007",
    "00",
    "-1",
    "+5",
    " 5 ",
    "5.0",
    "1e2",
    "n/a",
    "N/A",
    "\u0663",
    "\uff15",
    "\u00b2",
    "",
]  # Arabic-Indic 3, fullwidth 5, superscript 2
EDGE_IDS = ["H1", "H 2", " ", "\u3000", "", "\t"]
EDGE_DATES = [day(0), day(3), day(-1), "2027-1-11", "2027-02-30", "20270111", "2027-01-11T00:00", "today+2", ""]
ANY_CELL = st.text(st.characters(min_codepoint=0x20, max_codepoint=0x2FFF), max_size=6)


def bodies_fit_the_wire_models(operation: Operation, ids: Sequence[str], dates: Sequence[str], value: str) -> None:
    """One row through both paths: the bodies made of it, if any, are ones the wire models accept.

    Level bodies are laid out without going through the wire models: the row checks of both paths
    must let through only what those models accept."""
    rate = ["rateid"] if operation is Operation.MAXADV else []
    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\n")
    writer.writerow(["propertyid", "roomid", *rate, "start", "end", "time" if rate else "threshold"])
    writer.writerow([*ids[: 2 + len(rate)], *dates, value])
    Path("rooms.csv").write_text(text.getvalue(), encoding="utf-8")
    compact, reference = both(PushOptions(operation, ("rooms.csv",), TODAY, dry_run=True, skip_invalid=True))
    for exchange in [*compact.exchanges, *reference.exchanges]:
        BODY_MODELS[operation].model_validate({**exchange.body, "sourceid": "cpb00"})


@pytest.mark.parametrize("operation", [Operation.THRESHOLD, Operation.MAXADV])
@pytest.mark.parametrize("value", EDGE_VALUES)
def test_every_value_a_row_may_hold_makes_a_body_the_wire_models_accept_or_none(
    operation: Operation, value: str
) -> None:
    bodies_fit_the_wire_models(operation, ("H1", "DBL", "BAR"), (day(0), day(3)), value)


@pytest.mark.parametrize("operation", [Operation.THRESHOLD, Operation.MAXADV])
@pytest.mark.parametrize("cell", EDGE_IDS + EDGE_DATES)
@pytest.mark.parametrize("column", range(5))
def test_every_id_and_date_a_row_may_hold_makes_a_body_the_wire_models_accept_or_none(
    operation: Operation, cell: str, column: int
) -> None:
    cells = ["H1", "DBL", "BAR", day(0), day(3)]
    cells[column] = cell
    bodies_fit_the_wire_models(operation, cells[:3], cells[3:], "5")


@CHECKS
@given(
    operation=st.sampled_from([Operation.THRESHOLD, Operation.MAXADV]),
    cells=st.lists(st.one_of(st.sampled_from(EDGE_IDS + EDGE_DATES + EDGE_VALUES), ANY_CELL), min_size=6, max_size=6),
)
def test_whatever_a_row_holds_the_bodies_made_of_it_fit_the_wire_models(operation: Operation, cells: list[str]) -> None:
    bodies_fit_the_wire_models(operation, cells[:3], cells[3:5], cells[5])
