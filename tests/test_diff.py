"""`ari-cli OPERATION diff`: a file's plan against what a real sandbox acknowledged, as the journal says.

The expected ranges are computed here from the two files, date by date, and held against the command's.
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import Result

from ari_cli.planning.changes import Span
from ari_cli.planning.diff import Change, Kind, diff, kind_of
from ari_cli.planning.plan import Plan, Record
from ari_cli.sandbox import Sandbox
from tests.conftest import PINNED_TODAY
from tests.helpers import invoke, sandbox_env, table_rows

TODAY = ["--today", PINNED_TODAY]
DAY0 = dt.date.fromisoformat(PINNED_TODAY)
HEADER = "propertyid,roomid,start,end,threshold"
ONE_DAY = dt.timedelta(days=1)

# What the service is told first: three rooms of HTL001.
FIRST = [
    "HTL001,DBL,2027-01-01,2027-01-10,3",
    "HTL001,TWN,2027-01-01,2027-01-10,2",
    "HTL001,SGL,2027-01-01,2027-01-05,4",
    "HTL001,STE,2027-01-03,2027-01-04,n/a",
]
# The next file: DBL changes on the 4th and 5th, TWN is cleared on the 1st to 3rd, SGL gets three more days,
# STE's cleared days stay cleared, and HTL002 is new. Days are one row each in DBL, as nightly exports write them.
SECOND = [
    *(f"HTL001,DBL,2027-01-{d:02d},2027-01-{d:02d},{1 if d in (4, 5) else 3}" for d in range(1, 11)),
    "HTL001,TWN,2027-01-01,2027-01-03,n/a",
    "HTL001,TWN,2027-01-04,2027-01-10,2",
    "HTL001,SGL,2027-01-01,2027-01-08,4",
    "HTL001,STE,2027-01-03,2027-01-04,n/a",
    "HTL002,DBL,2027-01-01,2027-01-02,1",
]


def write(path: Path, rows: list[str], header: str = HEADER) -> Path:
    path.write_text("\n".join([header, *rows]) + "\n")
    return path


def by_date(rows: list[str]) -> dict[tuple[str, str], dict[dt.date, tuple[str, int]]]:
    """Per key and date, the value a threshold file sets and its line."""
    found: dict[tuple[str, str], dict[dt.date, tuple[str, int]]] = {}
    for line, row in enumerate(rows, start=2):
        propertyid, roomid, start, end, value = row.split(",")
        day = dt.date.fromisoformat(start)
        while day <= dt.date.fromisoformat(end):
            found.setdefault((propertyid, roomid), {})[day] = (value, line)
            day += ONE_DAY
    return found


def expected_changes(acknowledged: list[str], planned: list[str]) -> list[dict[str, Any]]:
    """The diff, the plain way: each planned date's kind, touching dates of one kind and values joined."""
    before, after = by_date(acknowledged), by_date(planned)
    out: list[dict[str, Any]] = []
    for key in sorted(after):
        last: dict[str, Any] | None = None
        for day in sorted(after[key]):
            value, line = after[key][day]
            old = before.get(key, {}).get(day, (None, 0))[0]
            kind = "new" if old is None else "same" if old == value else "cleared" if value == "n/a" else "changed"
            if (
                last
                and last["end"] == (day - ONE_DAY).isoformat()
                and (last["kind"], last["before"], last["after"]) == (kind, old, value)
            ):
                last["end"] = day.isoformat()
                if line not in last["lines"]:
                    last["lines"].append(line)
                continue
            last = {"propertyid": key[0], "roomid": key[1], "rateid": None, "start": day.isoformat(),
                    "end": day.isoformat(), "kind": kind, "before": old, "after": value, "lines": [line]}  # fmt: skip
            out.append(last)
    return out


def days(change: dict[str, Any]) -> int:
    return 1 + (dt.date.fromisoformat(change["end"]) - dt.date.fromisoformat(change["start"])).days


def runs_text(lines: list[int]) -> str:
    """`5-6,9`: runs of lines as ranges, as tables show them."""
    runs: list[list[int]] = []
    for line in lines:
        if runs and line == runs[-1][1] + 1:
            runs[-1][1] = line
        else:
            runs.append([line, line])
    return ",".join(str(a) if a == b else f"{a}-{b}" for a, b in runs)


def diff_of(path: Path, sb: Sandbox, *extra: str) -> Result:
    return invoke(["threshold", "diff", str(path), *TODAY, *extra], env=sandbox_env(sb))


def changes_of(result: Result) -> list[dict[str, Any]]:
    document = json.loads(result.stdout)
    return [{k: c[k] for k in ("propertyid", "roomid", "rateid", "start", "end", "kind", "before", "after", "lines")}
            for c in document["changes"]]  # fmt: skip


def range_rows(out: str) -> list[list[str]]:
    """The cells of each row of the table that holds a range (a wrapped cell's further lines left out)."""
    return [row for row in table_rows(out) if ".." in row[-5]]  # Dates: the fifth cell from the end


@pytest.fixture
def pushed(sb: Sandbox, tmp_path: Path) -> Sandbox:
    result = invoke(["threshold", "push", str(write(tmp_path / "first.csv", FIRST)), *TODAY], env=sandbox_env(sb))
    assert result.exit_code == 0, result.stderr
    return sb


def test_diff_json_is_the_change_of_every_planned_date_against_the_acknowledged_file(
    pushed: Sandbox, tmp_path: Path
) -> None:
    second = write(tmp_path / "second.csv", SECOND)
    expected = expected_changes(FIRST, SECOND)
    assert {c["kind"] for c in expected} == {"new", "changed", "cleared", "same"}

    everything = diff_of(second, pushed, "--show", "all", "--output", "json")
    changes_only = diff_of(second, pushed, "--output", "json")

    assert everything.exit_code == 0, everything.stderr
    assert changes_of(everything) == expected
    assert changes_of(changes_only) == [c for c in expected if c["kind"] != "same"]
    summary = json.loads(everything.stdout)["summary"]
    dates = {
        kind: sum(days(c) for c in expected if c["kind"] == kind) for kind in ("new", "changed", "cleared", "same")
    }
    assert {kind: summary[kind]["dates"] for kind in dates} == dates
    assert summary["dates"] == sum(dates.values()) and summary["ranges"] == len(expected)
    assert summary["unknown_share"] == round(dates["new"] / summary["dates"], 4)
    assert summary["rows"] == len(SECOND) and summary["invalid"] == 0 and summary["skipped"] == 0
    # Nothing was sent by the diff.
    assert json.loads(changes_only.stdout)["base_url"] == pushed.base_url


def test_diff_table_groups_ranges_by_property_and_room_and_says_what_it_does_not_know(
    pushed: Sandbox, tmp_path: Path
) -> None:
    second = write(tmp_path / "second.csv", SECOND)
    expected = [c for c in expected_changes(FIRST, SECOND) if c["kind"] != "same"]
    received = len(pushed.received)

    result = diff_of(second, pushed)

    assert result.exit_code == 0, result.stderr
    assert len(pushed.received) == received
    rows = range_rows(result.stdout)
    assert len(rows) == len(expected)
    group = None
    for cells, change in zip(rows, expected, strict=True):
        property_cell, room_cell, dates, kind, before, after, lines = cells
        # A group's property and room are written on its first line only.
        key = (change["propertyid"], change["roomid"])
        assert (property_cell, room_cell) == (key if key != group else ("", ""))
        group = key
        assert dates.startswith(f"{change['start']}..{change['end']}") or dates == change["start"]
        assert (kind, before, after) == (change["kind"], change["before"] or "-", change["after"])
        assert lines == f"{second}:" + runs_text(change["lines"])
    everything = expected_changes(FIRST, SECOND)
    dates = sum(days(c) for c in everything)
    new_dates = sum(days(c) for c in everything if c["kind"] == "new")
    assert (
        f"the journal knows nothing of {new_dates} of {dates} dates ({100 * new_dates / dates:.0f}%)" in result.stdout
    )
    assert "same ranges" in result.stdout and "--show all lists them" in result.stdout
    assert result.stdout.startswith(f"compared with what {pushed.base_url} (source cpbA1) acknowledged")


def test_a_failed_request_is_not_what_the_service_has(pushed: Sandbox, tmp_path: Path) -> None:
    second = write(tmp_path / "second.csv", SECOND)
    # One request at a time, HTL001's first: it fails, HTL002's is acknowledged.
    pushed.queue_error(503, times=1)
    failed = invoke(["threshold", "push", str(second), *TODAY, "--retries", "0", "--concurrency", "1"],
                    env=sandbox_env(pushed))  # fmt: skip
    assert failed.exit_code == 1, failed.stderr
    assert "HTL002" in pushed.state()["threshold"] and pushed.state()["threshold"]["HTL001"]["DBL"]["2027-01-04"] == "3"

    result = diff_of(second, pushed, "--show", "all", "--output", "json")

    assert changes_of(result) == expected_changes([*FIRST, "HTL002,DBL,2027-01-01,2027-01-02,1"], SECOND)


def test_a_replayed_call_is_what_the_service_has_and_a_refused_one_is_not(pushed: Sandbox, tmp_path: Path) -> None:
    """Support replays two partner calls: one sets 7 on DBL's 4th to 6th, one (for HTL002) is refused."""
    calls = tmp_path / "calls.jsonl"
    bodies = [
        {"propertyid": "HTL001", "action": "sellthresholdupdate",
         "data": [{"startdateymd": "2027-01-04", "enddateymd": "2027-01-06", "roomid": "DBL", "threshold": "7"}]},
        {"propertyid": "HTL002", "action": "sellthresholdupdate",
         "data": [{"startdateymd": "2027-01-01", "enddateymd": "2027-01-02", "roomid": "NOPE", "threshold": "1"}]},
    ]  # fmt: skip
    calls.write_text("".join(json.dumps(body) + "\n" for body in bodies))
    replayed = invoke(["replay", str(calls)], env=sandbox_env(pushed))
    assert replayed.exit_code == 1, replayed.output  # the second call is refused
    assert pushed.state()["threshold"]["HTL001"]["DBL"]["2027-01-05"] == "7"
    assert "HTL002" not in pushed.state()["threshold"]
    second = write(tmp_path / "second.csv", SECOND)

    result = diff_of(second, pushed, "--show", "all", "--output", "json")

    assert result.exit_code == 0, result.stderr
    # What the service holds after the replay: the first file, DBL's 4th to 6th at 7; HTL002 is still new.
    assert changes_of(result) == expected_changes([*FIRST, "HTL001,DBL,2027-01-04,2027-01-06,7"], SECOND)
    assert any(c["kind"] == "new" and c["propertyid"] == "HTL002" for c in changes_of(result))


def test_after_the_push_nothing_would_change_and_exit_code_says_so(pushed: Sandbox, tmp_path: Path) -> None:
    second = write(tmp_path / "second.csv", SECOND)
    before = diff_of(second, pushed, "--exit-code", "--quiet")
    assert before.exit_code == 1, before.stderr
    assert invoke(["threshold", "push", str(second), *TODAY], env=sandbox_env(pushed)).exit_code == 0

    after = diff_of(second, pushed, "--exit-code")

    assert after.exit_code == 0, after.stderr
    assert "nothing would change" in after.stdout
    assert all(c["kind"] == "same" for c in changes_of(diff_of(second, pushed, "--show", "all", "-o", "json")))


def test_without_a_journal_every_date_is_new(sb: Sandbox, tmp_path: Path) -> None:
    result = diff_of(write(tmp_path / "first.csv", FIRST), sb, "--output", "json")

    assert result.exit_code == 0, result.stderr
    assert {c["kind"] for c in changes_of(result)} == {"new"}
    assert json.loads(result.stdout)["summary"]["unknown_share"] == 1.0
    assert "note: the journal is empty: every date is new" in result.stderr


def test_another_service_or_source_knows_nothing(pushed: Sandbox, tmp_path: Path) -> None:
    path = write(tmp_path / "first.csv", FIRST)
    here = diff_of(path, pushed, "--show", "all", "-o", "json")
    elsewhere = invoke(["threshold", "diff", str(path), *TODAY, "--show", "all", "-o", "json", "--source-id", "cpbZ9"],
                       env=sandbox_env(pushed))  # fmt: skip
    assert {c["kind"] for c in changes_of(here)} == {"same"}
    assert {c["kind"] for c in changes_of(elsewhere)} == {"new"}


def test_relative_dates_and_today_apply_as_in_push(pushed: Sandbox, tmp_path: Path) -> None:
    # today+3 is 2027-01-04 with --today 2027-01-01; the 1st and 2nd of an earlier --today are past.
    path = write(tmp_path / "rel.csv", ["HTL001,DBL,today,today+4,1", "HTL001,TWN,2026-12-01,2026-12-31,5"])

    result = invoke(["threshold", "diff", str(path), "--today", "2027-01-03", "-o", "json"], env=sandbox_env(pushed))

    assert result.exit_code == 0, result.stderr
    assert [(c["start"], c["end"], c["kind"]) for c in changes_of(result)] == [("2027-01-03", "2027-01-07", "changed")]
    assert json.loads(result.stdout)["summary"]["skipped"] == 1


def test_csv_gives_the_same_ranges_one_line_each_and_cells_never_formulas(pushed: Sandbox, tmp_path: Path) -> None:
    rows = [*SECOND, "=HYPERLINK(1),DBL,2027-01-01,2027-01-01,1"]
    second = write(tmp_path / "second.csv", rows)
    expected = [c for c in expected_changes(FIRST, rows) if c["kind"] != "same"]

    result = diff_of(second, pushed, "--output", "csv")

    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "propertyid,roomid,rateid,start,end,kind,before,after,lines"
    assert lines[1:] == [
        ",".join([("'" if c["propertyid"].startswith("=") else "") + c["propertyid"], c["roomid"], "", c["start"],
                  c["end"], c["kind"], c["before"] or "", c["after"], " ".join(map(str, c["lines"]))])
        for c in expected
    ]  # fmt: skip
    assert lines[1].startswith("'=HYPERLINK(1),DBL,,2027-01-01,2027-01-01,new,,1,")


def test_invalid_input_is_exit_3_and_nothing_is_compared(pushed: Sandbox, tmp_path: Path) -> None:
    path = write(tmp_path / "bad.csv", ["HTL001,DBL,2027-01-01,2027-01-10,3", "HTL001,TWN,2027-01-01,2027-01-10,abc"])

    table = diff_of(path, pushed)
    document = diff_of(path, pushed, "--output", "json")
    skipping = diff_of(path, pushed, "--skip-invalid", "--output", "json")

    assert table.exit_code == 3 and table.stdout == ""
    assert "bad.csv line 3" in table.stderr and "threshold" in table.stderr
    assert "error: the input has invalid rows: nothing was compared" in table.stderr
    assert "--skip-invalid" in table.stderr
    assert document.exit_code == 3
    assert json.loads(document.stdout)["error"]["kind"] == "input" and json.loads(document.stdout)["changes"] == []
    assert skipping.exit_code == 0
    assert json.loads(skipping.stdout)["summary"]["invalid"] == 1
    assert [c["roomid"] for c in json.loads(skipping.stdout)["changes"]] == []  # DBL is the same as acknowledged


def test_without_a_base_url_or_source_id_it_is_a_configuration_error(tmp_path: Path) -> None:
    path = write(tmp_path / "first.csv", FIRST)

    table = invoke(["threshold", "diff", str(path), *TODAY])
    document = invoke(["threshold", "diff", str(path), *TODAY, "-o", "json", "--base-url", "https://push.example"])

    assert table.exit_code == 4 and table.stdout == ""
    assert "error: no base URL and no source id configured" in table.stderr
    assert "--base-url URL and --source-id ID" in table.stderr
    assert document.exit_code == 4
    assert json.loads(document.stdout)["error"] == {
        "kind": "config", "message": "no source id configured", "hint": json.loads(document.stdout)["error"]["hint"]
    }  # fmt: skip


def test_diff_needs_no_key_and_never_shows_one(pushed: Sandbox, tmp_path: Path) -> None:
    env = {**sandbox_env(pushed), "ARI_API_KEY": ""}
    result = invoke(["threshold", "diff", str(write(tmp_path / "s.csv", SECOND)), *TODAY], env=env)
    assert result.exit_code == 0, result.stderr
    shown = invoke(["threshold", "diff", str(write(tmp_path / "s.csv", SECOND)), *TODAY], env=sandbox_env(pushed))
    assert pushed.api_key not in shown.stdout + shown.stderr


POLICY_HEADER = (
    "propertyid,roomid,rateid,start,end,refundable,level,policyid,dayspriorcheckin,penaltytype,penaltyamount,"
    "penaltyapplied,depositpolicy,deposittype,depositamount,depositapplied,depositintervalunits,deposittimeinterval"
)
BAR = "HTL001,DBL,BAR,2027-01-01,2027-03-31,true,1,2,7,3,100,3,required,3,30,4,0,"
NRF = "HTL001,DBL,NRF,2027-01-01,2027-03-31,false,1,1,0,3,100,4,required,3,100,4,0,"


def test_policies_compare_whole_and_show_in_words_the_part_that_differs(sb: Sandbox, tmp_path: Path) -> None:
    env = sandbox_env(sb)
    first = write(tmp_path / "p1.csv", [BAR, NRF], POLICY_HEADER)
    assert invoke(["policy", "push", str(first), *TODAY], env=env).exit_code == 0
    # BAR's deposit goes from 30% to 50% of the stay in February; NRF is not touched.
    february = BAR.replace("2027-01-01,2027-03-31", "2027-02-01,2027-02-28").replace(",30,4,0,", ",50,4,0,")
    january = BAR.replace("2027-03-31", "2027-01-31")
    march = BAR.replace("2027-01-01", "2027-03-01")
    second = write(tmp_path / "p2.csv", [january, february, march, NRF], POLICY_HEADER)

    # A pipe as wide as the table with this test's file path (narrower, each range is a block: test_views_width).
    table = invoke(["policy", "diff", str(second), *TODAY], env={**env, "COLUMNS": "400"})
    document = invoke(["policy", "diff", str(second), *TODAY, "-o", "json", "--show", "all"], env=env)

    assert table.exit_code == 0, table.stderr
    [row] = range_rows(table.stdout)
    assert row == ["HTL001", "DBL", "BAR", "2027-02-01..2027-02-28 (28 days)", "changed",
                   "Deposit: 30% of the stay, charged at booking.", "Deposit: 50% of the stay, charged at booking.",
                   f"{second}:3"]  # fmt: skip
    changes = json.loads(document.stdout)["changes"]
    assert [(c["rateid"], c["start"], c["end"], c["kind"]) for c in changes] == [
        ("BAR", "2027-01-01", "2027-01-31", "same"),
        ("BAR", "2027-02-01", "2027-02-28", "changed"),
        ("BAR", "2027-03-01", "2027-03-31", "same"),
        ("NRF", "2027-01-01", "2027-03-31", "same"),
    ]
    assert changes[1]["before"]["policydetails"]["deposit"]["depositamount"] == 30
    assert changes[1]["after"]["policydetails"]["deposit"]["depositamount"] == 50
    assert changes[1]["after"]["refundable"] == "true"


# The pure diff ---------------------------------------------------------------------------------------------------


def day(n: int) -> dt.date:
    return DAY0 + dt.timedelta(days=n)


@pytest.mark.parametrize(
    ("before", "after", "kind"),
    [(None, "3", Kind.NEW), (None, "n/a", Kind.NEW), ("3", "3", Kind.SAME), ("n/a", "n/a", Kind.SAME),
     ("3", "n/a", Kind.CLEARED), ("3", "4", Kind.CHANGED), ("n/a", "4", Kind.CHANGED)],
)  # fmt: skip
def test_kind_of(before: str | None, after: str, kind: Kind) -> None:
    assert kind_of(before, after) is kind


def test_overlapping_records_kept_apart_by_no_merge_compare_each_date_once() -> None:
    key = ("HTL001", "DBL")
    records = [Record(key, day(0), day(5), "3", (0,)), Record(key, day(3), day(9), "3", (1,))]

    changes = diff(Plan(records), lambda r: str(r.value), {key: [Span(day(4), day(20), "3", 1)]})

    assert [(c.start, c.end, c.kind, c.rows()) for c in changes] == [
        (day(0), day(3), Kind.NEW, [0]),
        (day(4), day(9), Kind.SAME, [0, 1]),
    ]
    assert sum(c.dates for c in changes) == 10
    assert isinstance(changes[0], Change)


@pytest.mark.parametrize(("part", "whole", "shown"), [(0, 10, "0%"), (5, 32, "16%"), (10, 10, "100%"),
                                                      (2740, 1000100, "0.3%"), (1, 1000100, "<0.1%")])  # fmt: skip
def test_a_small_share_of_unknown_dates_is_not_rounded_to_nothing(part: int, whole: int, shown: str) -> None:
    from ari_cli.render.changes.diff import _percent

    assert _percent(part, whole) == shown


@pytest.mark.parametrize("command", [["diff"], ["push"]])
def test_an_interrupt_while_reading_is_exit_130_with_one_json_document(sb: Sandbox, command: list[str]) -> None:
    import os
    import signal
    import subprocess
    import sys
    import time

    env = {**os.environ, **sandbox_env(sb)}
    process = subprocess.Popen([sys.executable, "-m", "ari_cli", "threshold", *command, "-", *TODAY, "-o", "json"],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)  # fmt: skip
    assert process.stdin is not None
    process.stdin.write(f"{HEADER}\nHTL001,DBL,2027-01-01,2027-01-02,3\n".encode())
    process.stdin.flush()
    wchan = Path(f"/proc/{process.pid}/wchan")
    if not wchan.exists():
        process.kill()
        pytest.skip("needs /proc to see the reader wait for more input")
    deadline = time.monotonic() + 60
    while "pipe" not in wchan.read_text() and time.monotonic() < deadline:
        time.sleep(0.05)  # the command is up and waiting for the rest of standard input
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=30)

    assert process.returncode == 130, err
    assert json.loads(out)["error"]["kind"] == "interrupted"
    assert b"interrupted; nothing was sent" in err and b"Traceback" not in err
