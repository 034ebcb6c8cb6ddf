"""`ari-cli OPERATION export`: what the service acknowledged to this journal, as a file push reads back."""

from __future__ import annotations

import csv
import datetime as dt
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from openpyxl import load_workbook
from typer.testing import Result

from ari_cli.sandbox import Sandbox
from tests.conftest import PINNED_TODAY
from tests.helpers import invoke, sandbox_env

TODAY = ["--today", PINNED_TODAY]
WINDOW = ["--from", "2027-01-01", "--to", "2027-01-06"]
HEADERS = {
    "threshold": "propertyid,roomid,start,end,threshold",
    "maxadv": "propertyid,roomid,rateid,start,end,time",
    "policy": "propertyid,roomid,rateid,start,end,policy",
}
POLICIES = Path(__file__).resolve().parent.parent / "samples" / "policies.toml"


def push(sb: Sandbox, folder: Path, operation: str, *rows: str, extra: tuple[str, ...] = ()) -> Result:
    path = folder / f"in-{operation}.csv"
    path.write_text("\n".join([HEADERS[operation], *rows]) + "\n")
    more = ("--policies", str(POLICIES)) if operation == "policy" else ()
    return invoke([operation, "push", str(path), *TODAY, *more, *extra], env=sandbox_env(sb))


def export(sb: Sandbox, operation: str, path: Path, *args: str) -> Result:
    return invoke([operation, "export", str(path), *args], env=sandbox_env(sb))


@pytest.fixture
def thresholds(sb: Sandbox, tmp_path: Path) -> Sandbox:
    """HTL001 DBL 2 on the 1st-4th then 3 on the 3rd-4th, TWN cleared on the 2nd; HTL002 KNG 5 on the 5th-6th."""
    rows = ("HTL001,DBL,2027-01-01,2027-01-04,2", "HTL001,TWN,2027-01-02,2027-01-02,n/a", "HTL002,KNG,2027-01-05,2027-01-06,5")  # fmt: skip
    assert push(sb, tmp_path, "threshold", *rows).exit_code == 0
    assert push(sb, tmp_path, "threshold", "HTL001,DBL,2027-01-03,2027-01-04,3").exit_code == 0
    return sb


def csv_rows(path: Path) -> tuple[list[str], list[list[str]]]:
    lines = path.read_text(encoding="utf-8").splitlines()
    comments = [line for line in lines if line.startswith("#")]
    return comments, list(csv.reader(line for line in lines if not line.startswith("#")))


def test_a_csv_grid_holds_each_date_acknowledged_n_a_where_cleared_and_blank_where_nothing_is_known(
    thresholds: Sandbox, tmp_path: Path
) -> None:
    out = tmp_path / "export.csv"
    result = export(thresholds, "threshold", out, *WINDOW)
    assert result.exit_code == 0, result.stderr
    assert result.stdout == ""
    assert (
        f"wrote {out}: sell thresholds of HTL001 HTL002, 2027-01-01 to 2027-01-06, 3 keys with 7 known dates"
        in result.stderr
    )
    assert "(as acknowledged to this journal; last run 2 at " in result.stderr
    comments, rows = csv_rows(out)
    assert comments[0] == "# ari-cli export: threshold"
    assert f"# service: {thresholds.base_url} (source {thresholds.source_id})" in comments
    assert "# properties: HTL001 HTL002" in comments and "# window: 2027-01-01 to 2027-01-06" in comments
    assert any(c.startswith("# values: as acknowledged to this journal; last run 2 at 20") for c in comments)
    assert "# run: 2" in comments
    assert rows == [
        ["propertyid", "roomid", "2027-01-01", "2027-01-02", "2027-01-03", "2027-01-04", "2027-01-05", "2027-01-06"],
        ["HTL001", "DBL", "2", "2", "3", "3", "", ""],
        ["HTL001", "TWN", "", "n/a", "", "", "", ""],
        ["HTL002", "KNG", "", "", "", "", "5", "5"],
    ]


def test_rows_layout_gives_a_row_per_run_of_equal_values(thresholds: Sandbox, tmp_path: Path) -> None:
    out = tmp_path / "export.csv"
    result = export(thresholds, "threshold", out, *WINDOW, "--layout", "rows", "--property", "HTL001")
    assert result.exit_code == 0, result.stderr
    comments, rows = csv_rows(out)
    assert "# properties: HTL001" in comments
    assert rows == [
        ["propertyid", "roomid", "start", "end", "threshold"],
        ["HTL001", "DBL", "2027-01-01", "2027-01-02", "2"],
        ["HTL001", "DBL", "2027-01-03", "2027-01-04", "3"],
        ["HTL001", "TWN", "2027-01-02", "2027-01-02", "n/a"],
    ]


def test_a_workbook_has_the_header_sheet_first_then_a_sheet_per_property(thresholds: Sandbox, tmp_path: Path) -> None:
    out = tmp_path / "export.xlsx"
    result = export(thresholds, "threshold", out, *WINDOW)
    assert result.exit_code == 0, result.stderr
    book = load_workbook(out)
    assert book.sheetnames == ["export", "HTL001", "HTL002"]
    header = {row[0]: row[1] for row in book["export"].iter_rows(values_only=True)}
    assert header["ari-cli export"] == "threshold" and header["run"] == "2"
    assert header["window"] == "2027-01-01 to 2027-01-06"
    rows = [list(row) for row in book["HTL001"].iter_rows(values_only=True)]
    assert rows[1] == ["HTL001", "DBL", 2, 2, 3, 3, None, None]
    assert rows[2] == ["HTL001", "TWN", None, "n/a", None, None, None, None]


def test_to_defaults_to_the_last_acknowledged_date(thresholds: Sandbox, tmp_path: Path) -> None:
    out = tmp_path / "export.csv"
    assert export(thresholds, "threshold", out, "--from", "2027-01-03").exit_code == 0
    assert csv_rows(out)[1][0][-1] == "2027-01-06"


def test_an_empty_window_is_an_error_naming_what_the_journal_knows(thresholds: Sandbox, tmp_path: Path) -> None:
    out = tmp_path / "export.csv"
    result = export(thresholds, "threshold", out, "--from", "2027-03-01", "--to", "2027-03-31")
    assert result.exit_code == 1
    assert result.stdout == ""
    assert "the journal holds no threshold value from 2027-03-01 to 2027-03-31" in result.stderr
    assert "the journal knows HTL001 HTL002 from 2027-01-01 to 2027-01-06" in result.stderr
    assert "Traceback" not in result.stderr and not out.exists()


def test_an_unknown_property_is_an_error_naming_the_known_ones(thresholds: Sandbox, tmp_path: Path) -> None:
    result = export(thresholds, "threshold", tmp_path / "x.csv", "--property", "HTL999", *WINDOW)
    assert result.exit_code == 1
    assert "acknowledged for HTL999" in result.stderr and "the journal knows HTL001 HTL002" in result.stderr


def test_an_export_is_a_csv_or_xlsx_file(thresholds: Sandbox, tmp_path: Path) -> None:
    result = export(thresholds, "threshold", tmp_path / "x.json", *WINDOW)
    assert result.exit_code == 2
    assert "an export is a .csv or .xlsx file" in result.stderr


def test_without_a_journal_the_export_says_so(sb: Sandbox, tmp_path: Path) -> None:
    result = export(sb, "threshold", tmp_path / "x.csv", *WINDOW)
    assert result.exit_code == 1
    assert "the journal holds no threshold value: it has no runs yet" in result.stderr


@pytest.mark.parametrize("suffix", [".csv", ".xlsx"])
def test_an_export_pushed_back_unedited_with_changed_only_sends_nothing(
    thresholds: Sandbox, tmp_path: Path, suffix: str
) -> None:
    out = tmp_path / f"export{suffix}"
    assert export(thresholds, "threshold", out, *WINDOW).exit_code == 0
    before = len(thresholds.received)
    result = invoke(["threshold", "push", str(out), *TODAY, "--changed-only"], env=sandbox_env(thresholds))
    assert result.exit_code == 0, result.stderr
    assert len(thresholds.received) == before


# The round trip: export, edit cells, push --changed-only; a value a later push changed is a conflict.

SEEDS = {
    "threshold": ("HTL001,DBL,2027-01-01,2027-01-06,2", "HTL001,TWN,2027-01-01,2027-01-06,4"),
    "maxadv": ("HTL001,DBL,BAR,2027-01-01,2027-01-06,30", "HTL001,DBL,NRF,2027-01-01,2027-01-06,60"),
    "policy": ("HTL001,DBL,BAR,2027-01-01,2027-01-06,flex7", "HTL001,DBL,NRF,2027-01-01,2027-01-06,nonref"),
}
# A new value for a cell of the first key; the value a later push sets on the second key.
EDITS = {"threshold": ("7", "9"), "maxadv": ("45", "90"), "policy": ("policy2", "sameday")}
DAYS = ["2027-01-01", "2027-01-02", "2027-01-03", "2027-01-04", "2027-01-05", "2027-01-06"]


def read_grid(path: Path) -> dict[tuple[str, ...], dict[str, str]]:
    """An exported grid's cells per key and date, from a CSV file or a workbook's property sheets."""
    found: dict[tuple[str, ...], dict[str, str]] = {}
    if path.suffix == ".csv":
        _, rows = csv_rows(path)
        tables = [rows]
    else:
        book = load_workbook(path)
        tables = [[[("" if c is None else str(c)) for c in row] for row in book[name].iter_rows(values_only=True)]
                  for name in book.sheetnames if name not in ("export", "policies")]  # fmt: skip
    for rows in tables:
        width = len(rows[0]) - len(DAYS)
        for row in rows[1:]:
            found[tuple(row[:width])] = dict(zip(rows[0][width:], row[width:], strict=True))
    return found


def edit_grid(path: Path, edits: dict[tuple[tuple[str, ...], str], str]) -> None:
    """Set cells (key, date) of an exported grid, as a user would in a spreadsheet, leaving the rest as it is."""
    if path.suffix == ".csv":
        lines = path.read_text(encoding="utf-8").splitlines()
        comments = [line for line in lines if line.startswith("#")]
        rows = list(csv.reader(line for line in lines if not line.startswith("#")))
        width = len(rows[0]) - len(DAYS)
        for (key, day), value in edits.items():
            row = next(r for r in rows if tuple(r[:width]) == key)
            row[rows[0].index(day)] = value
        with open(path, "w", encoding="utf-8", newline="") as stream:
            stream.writelines(line + "\n" for line in comments)
            csv.writer(stream, lineterminator="\n").writerows(rows)
        return
    book = load_workbook(path)
    for (key, day), value in edits.items():
        sheet = book[key[0]]
        header = [c.value for c in sheet[1]]
        line = next(r for r in sheet.iter_rows(min_row=2) if tuple(str(c.value) for c in r[: len(key)]) == key)
        line[header.index(day)].value = int(value) if value.isdigit() else (value or None)
    book.save(path)


def seeded(sb: Sandbox, folder: Path, operation: str) -> None:
    assert push(sb, folder, operation, *SEEDS[operation]).exit_code == 0


def keys_of(operation: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    first, second = (tuple(row.split(",")[:-3]) for row in SEEDS[operation])
    return first, second


def push_back(sb: Sandbox, path: Path, operation: str, *extra: str) -> Result:
    policies = ("--policies", str(path.with_suffix(".toml"))) if operation == "policy" and path.suffix == ".csv" else ()
    return invoke([operation, "push", str(path), *TODAY, "--changed-only", *policies, *extra], env=sandbox_env(sb))


def sent_records(sb: Sandbox, since: int) -> list[dict[str, object]]:
    """The data records of the requests the sandbox received after the first `since` (a policy: one a request)."""
    records: list[dict[str, object]] = []
    for received in sb.received[since:]:
        body = received.json
        records.extend(body["data"] if isinstance(body.get("data"), list) else [body])
    return records


@pytest.mark.parametrize("operation", ["threshold", "maxadv", "policy"])
@pytest.mark.parametrize("suffix", [".csv", ".xlsx"])
def test_the_round_trip_sends_exactly_the_edited_dates_and_an_emptied_cell_sets_nothing(
    sb: Sandbox, tmp_path: Path, operation: str, suffix: str
) -> None:
    seeded(sb, tmp_path, operation)
    out = tmp_path / f"export{suffix}"
    assert export(sb, operation, out, *WINDOW).exit_code == 0
    first, second = keys_of(operation)
    state, count = sb.state()[operation], len(sb.received)
    unedited = push_back(sb, out, operation)
    assert unedited.exit_code == 0, unedited.stderr
    assert sb.state()[operation] == state and len(sb.received) == count
    new = EDITS[operation][0]
    edit_grid(out, {(first, "2027-01-03"): new, (first, "2027-01-04"): new, (second, "2027-01-05"): ""})
    result = push_back(sb, out, operation)
    assert result.exit_code == 0, result.stderr
    assert len(sent_records(sb, count)) == 1  # the two edited dates, merged into one record
    after = sb.state()[operation]
    cells = read_grid(out)  # the file as edited: its values are what the service holds, but the emptied cell
    assert cells[first]["2027-01-03"] == new
    place = after["HTL001"]["DBL"] if operation != "threshold" else after["HTL001"]
    before = state["HTL001"]["DBL"] if operation != "threshold" else state["HTL001"]
    changed = {
        first[-1]: {
            **before[first[-1]],
            "2027-01-03": place[first[-1]]["2027-01-03"],
            "2027-01-04": place[first[-1]]["2027-01-04"],
        }
    }
    assert place == {**before, **changed}
    assert place[first[-1]]["2027-01-03"] != before[first[-1]]["2027-01-03"]
    assert place[second[-1]]["2027-01-05"] == before[second[-1]]["2027-01-05"]  # emptied: never cleared


@pytest.mark.parametrize("operation", ["threshold", "maxadv", "policy"])
@pytest.mark.parametrize("suffix", [".csv", ".xlsx"])
def test_a_value_a_later_push_changed_is_a_conflict_listed_with_both_values_and_not_sent(
    sb: Sandbox, tmp_path: Path, operation: str, suffix: str
) -> None:
    seeded(sb, tmp_path, operation)
    out = tmp_path / f"export{suffix}"
    assert export(sb, operation, out, *WINDOW).exit_code == 0
    first, second = keys_of(operation)
    later = EDITS[operation][1]
    assert push(sb, tmp_path, operation, f"{','.join(second)},2027-01-02,2027-01-03,{later}").exit_code == 0
    held = sb.state()[operation]
    edit_grid(out, {(first, "2027-01-06"): EDITS[operation][0]})
    count = len(sb.received)
    result = push_back(sb, out, operation)
    assert result.exit_code == 1, result.stderr
    assert f"conflict: {' '.join(second)} 2027-01-02..2027-01-03: the file holds " in result.stderr
    assert (
        "as exported, the service holds " in result.stderr
        and "since run 2: not sent (--force sends it)" in result.stderr
    )
    assert len(sent_records(sb, count)) == 1  # the edited date only
    state = sb.state()[operation]

    def place(held: dict[str, Any]) -> dict[str, Any]:
        found: dict[str, Any] = held["HTL001"]["DBL"] if operation != "threshold" else held["HTL001"]
        return found

    assert place(state)[second[-1]] == place(held)[second[-1]]  # the later push's values stay
    diffed = invoke(
        [
            operation,
            "diff",
            str(out),
            *TODAY,
            *(("--policies", str(out.with_suffix(".toml"))) if operation == "policy" and suffix == ".csv" else ()),
        ],
        env=sandbox_env(sb),
    )
    assert diffed.exit_code == 0, diffed.stderr
    assert f"conflict: {' '.join(second)} 2027-01-02..2027-01-03: the file holds " in diffed.stderr
    forced = push_back(sb, out, operation, "--force")
    assert forced.exit_code == 0, forced.stderr
    assert "sent (--force)" in forced.stderr
    assert place(sb.state()[operation])[second[-1]] == place(state)[second[-1]] | {
        d: place(state)[second[-1]]["2027-01-01"] for d in ("2027-01-02", "2027-01-03")
    }


GRID_KEYS = (("HTL001", "DBL"), ("HTL001", "TWN"), ("HTL002", "KNG"))


# Each example starts a sandbox and runs three commands: few examples, and no shrinking (a failure names its edits).
@settings(
    max_examples=5, deadline=None, phases=[Phase.explicit, Phase.generate],
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)  # fmt: skip
@given(
    edits=st.dictionaries(
        st.tuples(st.sampled_from(GRID_KEYS), st.sampled_from(DAYS)),
        st.one_of(st.integers(0, 30).map(str), st.just("n/a"), st.just("")),
        max_size=6,
    ),
    suffix=st.sampled_from([".csv", ".xlsx"]),
)
def test_export_edit_k_cells_push_changed_only_and_the_service_holds_exactly_the_edited_values(
    tmp_path_factory: pytest.TempPathFactory, edits: dict[tuple[tuple[str, ...], str], str], suffix: str
) -> None:
    folder = tmp_path_factory.mktemp("round")
    with Sandbox(today=PINNED_TODAY) as sb:
        env = {**sandbox_env(sb), "ARI_HOME": str(folder)}
        seed = folder / "seed.csv"
        seed.write_text(
            f"{HEADERS['threshold']}\nHTL001,DBL,2027-01-01,2027-01-06,2\nHTL001,TWN,2027-01-02,2027-01-04,n/a\nHTL002,KNG,2027-01-01,2027-01-03,5\n"
        )
        assert invoke(["threshold", "push", str(seed), *TODAY], env=env).exit_code == 0
        out = folder / f"export{suffix}"
        assert invoke(["threshold", "export", str(out), *WINDOW], env=env).exit_code == 0
        expected = {key: dict(cells) for key, cells in read_grid(out).items()}
        for (key, day), value in edits.items():
            if value:  # an emptied cell sets nothing: the service keeps what it has
                expected[key][day] = value
        edit_grid(out, edits)
        result = invoke(["threshold", "push", str(out), *TODAY, "--changed-only"], env=env)
        assert result.exit_code == 0, result.stderr
        held = sb.state()["threshold"]
        for (propertyid, room), cells in expected.items():
            # The sandbox holds no date that was cleared (n/a).
            wanted = {d: v for d, v in cells.items() if v and v != "n/a"}
            assert wanted == held.get(propertyid, {}).get(room, {}), (propertyid, room)


def test_ari_cli_export_writes_the_file_and_returns_what_it_holds(thresholds: Sandbox, tmp_path: Path) -> None:
    import ari_cli

    out = tmp_path / "export.xlsx"
    done = ari_cli.export("threshold", out, properties=["HTL001"], start="2027-01-01", end=dt.date(2027, 1, 6),
                          base_url=thresholds.base_url, source_id=thresholds.source_id)  # fmt: skip
    assert isinstance(done, ari_cli.Export)
    assert (done.path, done.policies, done.operation, done.properties) == (out, None, "threshold", ("HTL001",))
    assert (done.start, done.end, done.run, done.layout, done.keys, done.values) == (
        dt.date(2027, 1, 1), dt.date(2027, 1, 6), 2, "dates-across", 2, 5)  # fmt: skip
    assert load_workbook(out).sheetnames == ["export", "HTL001"]
    with pytest.raises(ari_cli.UsageProblem, match="give a list of property ids"):
        ari_cli.export("threshold", out, properties="HTL001", base_url=thresholds.base_url, source_id="cpbA1")
    with pytest.raises(ari_cli.AriError, match="no threshold value from 2027-05-01") as failed:
        ari_cli.export("threshold", out, start="2027-05-01", end="2027-05-02", base_url=thresholds.base_url,
                       source_id=thresholds.source_id)  # fmt: skip
    assert failed.value.exit_code == 1


def test_a_csv_export_saved_again_by_a_spreadsheet_keeps_its_run_and_its_conflicts(sb: Sandbox, tmp_path: Path) -> None:
    """A spreadsheet pads each comment line with the delimiters of the widest row (`# run: 2,,,,`)."""
    seeded(sb, tmp_path, "threshold")
    out = tmp_path / "export.csv"
    assert export(sb, "threshold", out, *WINDOW).exit_code == 0
    assert push(sb, tmp_path, "threshold", "HTL001,TWN,2027-01-02,2027-01-02,9").exit_code == 0
    lines = out.read_text(encoding="utf-8").splitlines()
    out.write_text("\n".join(line + ",,,," if line.startswith("#") else line for line in lines) + "\n")
    result = push_back(sb, out, "threshold")
    assert result.exit_code == 1
    assert (
        "conflict: HTL001 TWN 2027-01-02..2027-01-02: the file holds 4 as exported, the service holds 9 since run 2"
        in result.stderr
    )
    assert sb.state()["threshold"]["HTL001"]["TWN"]["2027-01-02"] == "9"


def test_a_file_that_cannot_be_written_is_a_usage_error(thresholds: Sandbox, tmp_path: Path) -> None:
    result = export(thresholds, "threshold", tmp_path / "no-such-folder" / "x.xlsx", *WINDOW)
    assert result.exit_code == 2
    assert f"error: cannot write {tmp_path / 'no-such-folder' / 'x.xlsx'}: No such file or directory" in result.stderr
    assert "Traceback" not in result.stderr
