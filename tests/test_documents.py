"""Request bodies fit the wire models whatever a row holds; documents are written as json and csv write them.

Level bodies are laid out without going through the wire models, and the JSON and CSV documents are
written a run of alike rows at a time: these tests hold both to the plain reference.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
from collections.abc import Sequence
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ari_cli.config.secrets import masked_body
from ari_cli.exits import InputError
from ari_cli.inputs import ReadOptions
from ari_cli.pipeline import PushOptions, execute, prepare
from ari_cli.planning.batch import DataForm, Envelope, build_body
from ari_cli.planning.plan import Record
from ari_cli.render.printable import printable
from ari_cli.render.push import run as render
from ari_cli.results import Run
from ari_cli.wire.models import BODY_MODELS, Operation, dump_body

TODAY = dt.date(2027, 1, 10)
CHECKS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # sources read "rooms.csv", as a user types them


def day(offset: int) -> str:
    return (TODAY + dt.timedelta(days=offset)).isoformat()


def dry_run(*files: str, **options: object) -> Run:
    push = PushOptions(Operation.THRESHOLD, files, TODAY, dry_run=True, **options)  # type: ignore[arg-type]
    return execute(push, prepare(push, None), None)


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def written(run: Run, stream: io.StringIO, writer: str = "json") -> str:
    (render.write_json if writer == "json" else render.write_csv)(run, stream)
    return stream.getvalue()


def reference_csv(run: Run) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(render.csv_fields(run.operation))
    for row in run.rows:
        errors = " | ".join(render.problem_text(p) for p in row.errors)
        cells = [row.view.source, str(row.view.line), row.status.value, " ".join(row.trackingids), errors, row.note]
        cells += [row.view.propertyid, row.view.roomid, row.view.dates, row.view.value]
        writer.writerow([f"'{c}" if c[:1] in "=+-@\t\r" and c else c for c in cells])
    return out.getvalue()


MIXED = [
    f"H1,R1,{day(1)},5",
    f"H1,R1,{day(2)},5",
    f"H1,R1,{day(2)},6",  # overlaps line 3 with another value
    f"H2,R1,{day(-3)},1",  # past: skipped
    "H2,R1,someday,1",  # invalid
    f"H3,=R,{day(4)},n/a",
    f'"H,4",R1,{day(5)},0',
]


@pytest.mark.parametrize("skip_invalid", [False, True])
@pytest.mark.parametrize("last_wins", [False, True])
def test_the_json_and_csv_documents_are_what_json_and_csv_write(skip_invalid: bool, last_wins: bool) -> None:
    Path("rooms.csv").write_text("propertyid,roomid,date,threshold\n" + "\n".join(MIXED) + "\n")
    Path("more.csv").write_text("propertyid,roomid,date,threshold\n" + "\n".join(reversed(MIXED)) + "\n")
    run = dry_run("rooms.csv", "more.csv", "rooms.csv", skip_invalid=skip_invalid, last_wins=last_wins)
    assert written(run, io.StringIO()) == json.dumps(render.document(run), ensure_ascii=False) + "\n"
    assert written(run, Terminal()) == json.dumps(render.document(run), ensure_ascii=False, indent=2) + "\n"
    assert written(run, io.StringIO(), "csv") == reference_csv(run)


def test_thousands_of_rows_are_written_in_pieces_as_one_document() -> None:
    rows = [f"H1,R{n % 7},{day(n % 300)},{n % 3}" for n in range(10_000)]
    Path("rooms.csv").write_text("propertyid,roomid,date,threshold\n" + "\n".join(rows) + "\n")
    run = dry_run("rooms.csv", last_wins=True)
    assert written(run, io.StringIO()) == json.dumps(render.document(run), ensure_ascii=False) + "\n"
    assert written(run, io.StringIO(), "csv") == reference_csv(run)


def test_an_empty_run_is_an_empty_document() -> None:
    Path("rooms.csv").write_text("propertyid,roomid,date,threshold\n")
    document = json.loads(written(dry_run("rooms.csv", read=ReadOptions(allow_empty=True)), io.StringIO()))
    assert document["rows"] == [] and document["requests"] == []


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
    # Ids holding a control character are refused before planning (issue 29, round two): markup, emoji codes
    # and letters beyond ASCII are what is left to print as rich would.
    ids = ["H1", "[bold]H2[/]", "H:smile:3", "Hé[31m4", "H 5", "H\u00e96", "H[/]7"]
    rows = [f'"{prop}",DBL,{day(n)},{n}' for prop in ids for n in range(3)]
    Path("rooms.csv").write_text("propertyid,roomid,date,threshold\n" + "\n".join(rows) + "\n")
    run = dry_run("rooms.csv")
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


EDGE_VALUES = ["0", "1", "7", "999", "1000", "007", "00", "-1", "+5", " 5 ", "5.0", "1e2", "n/a", "N/A",
               "\u0663", "\uff15", "\u00b2", ""]  # Arabic-Indic 3, fullwidth 5, superscript 2  # fmt: skip
EDGE_IDS = ["H1", "H 2", " ", "\u3000", "", "\t"]
EDGE_DATES = [day(0), day(3), day(-1), "2027-1-11", "2027-02-30", "20270111", "2027-01-11T00:00", "today+2", ""]
ANY_CELL = st.text(st.characters(min_codepoint=0x20, max_codepoint=0x2FFF), max_size=6)


def bodies_fit_the_wire_models(operation: Operation, ids: Sequence[str], dates: Sequence[str], value: str) -> None:
    """The bodies made of one row, if any, are ones the wire models accept."""
    rate = ["rateid"] if operation is Operation.MAXADV else []
    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\n")
    writer.writerow(["propertyid", "roomid", *rate, "start", "end", "time" if rate else "threshold"])
    writer.writerow([*ids[: 2 + len(rate)], *dates, value])
    Path("rooms.csv").write_text(text.getvalue(), encoding="utf-8")
    # A row of empty cells leaves the file without rows: allowed here, as it makes no body.
    read = ReadOptions(allow_empty=True)
    push = PushOptions(operation, ("rooms.csv",), TODAY, read=read, dry_run=True, skip_invalid=True)
    try:
        prepared = prepare(push, None)
    except InputError:
        return  # the file as a whole is refused (its every date in one other layout): no body is made
    for exchange in execute(push, prepared, None).exchanges:
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


@pytest.mark.parametrize("last_wins", [False, True])
def test_rows_of_overlapping_equal_ranges_are_carried_once_in_order(last_wins: bool) -> None:
    rows = [f"H1,R1,{day(1)},{day(10)},3", f"H1,R1,{day(5)},{day(6)},3", f"H1,R1,{day(8)},{day(12)},3"]
    Path("rooms.csv").write_text("propertyid,roomid,start,end,threshold\n" + "\n".join(rows) + "\n")
    run = dry_run("rooms.csv", last_wins=last_wins)
    assert [(r.start, r.end, list(r.refs)) for r in run.records] == [
        (TODAY + dt.timedelta(days=1), TODAY + dt.timedelta(days=12), [0, 1, 2])
    ]
    assert json.loads(written(run, io.StringIO()))["requests"][0]["lines"] == [2, 3, 4]


def painted(rows: list[tuple[str, int, int, str]]) -> list[tuple[str, int, int, str, list[int]]]:
    """Last-wins by brute force, day by day: (room, first day, last day, value, rows) of each record."""
    records: list[tuple[str, int, int, str, list[int]]] = []
    for room in sorted({r[0] for r in rows}, key=[r[0] for r in rows].index):
        cells: dict[int, tuple[str, set[int]]] = {}
        for index, (key, first, last, value) in enumerate(rows):
            if key != room:
                continue
            for d in range(first, last + 1):
                same = d in cells and cells[d][0] == value
                cells[d] = (value, cells[d][1] | {index} if same else {index})
        for d in sorted(cells):
            value, carried = cells[d]
            if records and records[-1][0] == room and records[-1][2] == d - 1 and records[-1][3] == value:
                room_, first, _, _, refs = records[-1]
                records[-1] = (room_, first, d, value, sorted(set(refs) | carried))
            else:
                records.append((room, d, d, value, sorted(carried)))
    return records


ROWS = st.lists(
    st.tuples(st.sampled_from(["A", "B"]), st.integers(0, 12), st.integers(0, 4), st.sampled_from(["1", "2"])),
    min_size=1,
    max_size=12,
)


@CHECKS
@given(rows=ROWS)
def test_last_wins_plans_what_painting_day_by_day_gives(rows: list[tuple[str, int, int, str]]) -> None:
    spans = [(room, first + 1, first + 1 + length, value) for room, first, length, value in rows]
    lines = [f"H1,{room},{day(first)},{day(last)},{value}" for room, first, last, value in spans]
    Path("rooms.csv").write_text("propertyid,roomid,start,end,threshold\n" + "\n".join(lines) + "\n")
    run = dry_run("rooms.csv", last_wins=True)
    got = [(r.key[1], (r.start - TODAY).days, (r.end - TODAY).days, r.value, list(r.refs)) for r in run.records]
    assert sorted(got) == sorted(painted(spans))


def test_an_interrupted_runs_document_carries_its_error_as_json_writes_it() -> None:
    Path("rooms.csv").write_text("propertyid,roomid,date,threshold\n" + "\n".join(MIXED) + "\n")
    run = dry_run("rooms.csv")
    run.interrupted = True
    for stream, indent in ((io.StringIO(), None), (Terminal(), 2)):
        assert written(run, stream) == json.dumps(render.document(run), ensure_ascii=False, indent=indent) + "\n"
    assert render.document(run)["error"]["kind"] == "interrupted"
