"""`ari-cli history`, `history show|find|prune`: reading the journal of real pushes to a sandbox."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from typer.testing import Result

from ari_cli.sandbox import Sandbox
from tests.conftest import PINNED_TODAY
from tests.helpers import invoke, row_of, row_with, sandbox_env, table_rows

TODAY = ["--today", PINNED_TODAY]
HEADERS = {
    "threshold": "propertyid,roomid,start,end,threshold",
    "maxadv": "propertyid,roomid,rateid,start,end,time",
}
STAMP = re.compile(r"\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}")


def push(sb: Sandbox, folder: Path, name: str, *rows: str, operation: str = "threshold", extra: tuple[str, ...] = ()) -> Result:  # fmt: skip
    path = folder / name
    path.write_text("\n".join([HEADERS[operation], *rows]) + "\n")
    return invoke([operation, "push", str(path), *TODAY, *extra], env=sandbox_env(sb))


def run(*args: str, env: dict[str, str] | None = None) -> Result:
    return invoke(list(args), env=env)


def as_json(result: Result) -> Any:
    return json.loads(result.stdout)


def db(home: Path) -> sqlite3.Connection:
    return sqlite3.connect(home / "journal.sqlite3")


def table_row(text: str, table: str, first: str) -> list[str]:
    """The cells of the row of the table after the `table` heading whose first cell is `first`."""
    return row_of(text, first, table)


def line_of(text: str, *parts: str) -> str:
    """The one output line that holds every part."""
    found = [line for line in text.splitlines() if all(p in line for p in parts)]
    assert len(found) == 1, (parts, text)
    return found[0]


@pytest.fixture
def two_runs(sb: Sandbox, tmp_path: Path) -> Sandbox:
    """Run 1: all ok. Run 2: one room the service does not map, so the request is split and one row fails."""
    assert push(sb, tmp_path, "ok.csv", "HTL001,DBL,2027-01-01,2027-01-10,2", "HTL002,DBL,2027-01-01,2027-01-03,1").exit_code == 0  # fmt: skip
    mixed = push(sb, tmp_path, "mixed.csv", "HTL001,DBL,2027-01-05,2027-01-06,3", "HTL001,XXX,2027-01-01,2027-01-05,4",
                 "HTL001,TWN,2027-01-02,2027-01-03,5")  # fmt: skip
    assert mixed.exit_code == 1
    return sb


# --- history ----------------------------------------------------------------------------------


def test_history_lists_runs_newest_first_with_their_counts(two_runs: Sandbox, tmp_path: Path) -> None:
    result = run("history")
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    second, first = row_with(out, "mixed.csv"), row_with(out, "ok.csv")
    assert out.index(line_of(out, "mixed.csv")) < out.index(line_of(out, "ok.csv"))
    assert row_with(out, "Run", "Started") == ["Run", "Started", "Command", "Operation", "Base URL", "Files", "OK",
                                                     "Failed", "Invalid", "Skipped", "Requests", "Exit"]  # fmt: skip
    url = two_runs.base_url
    assert second[2:] == ["threshold push", "threshold", url, str(tmp_path / "mixed.csv"), "2", "1", "0", "0",
                                 "5", "1 failed"]  # fmt: skip
    assert first[2:] == ["threshold push", "threshold", url, str(tmp_path / "ok.csv"), "2", "0", "0", "0", "2",
                                "0"]  # fmt: skip
    assert second[0] == "2" and first[0] == "1"
    assert STAMP.fullmatch(first[1])
    assert "\x1b" not in out


def test_history_json_is_one_document_with_each_run(two_runs: Sandbox, tmp_path: Path, journal_home: Path) -> None:
    result = run("history", "--output", "json")
    assert result.exit_code == 0
    doc = as_json(result)
    assert doc["journal"] == str(journal_home / "journal.sqlite3") and doc["more"] is False
    assert [r["id"] for r in doc["runs"]] == [2, 1]
    latest = doc["runs"][0]
    assert latest["command"] == "ari-cli threshold push" and latest["operation"] == "threshold"
    assert latest["base_url"] == two_runs.base_url and latest["source_id"] == two_runs.source_id
    assert latest["finished"] is True and latest["exit_code"] == 1
    assert latest["summary"]["ok"] == 2 and latest["summary"]["failed"] == 1
    assert latest["requests"] == {"failed": 1, "ok": 2}
    assert latest["files"][0]["path"].endswith("mixed.csv")
    assert latest["files"][0]["sha256"] == hashlib.sha256((tmp_path / "mixed.csv").read_bytes()).hexdigest()
    assert latest["options"]["today"] == PINNED_TODAY


def test_history_limit_and_operation(two_runs: Sandbox, tmp_path: Path) -> None:
    assert (
        push(two_runs, tmp_path, "m.csv", "HTL001,DBL,BAR,2027-01-01,2027-01-03,30", operation="maxadv").exit_code == 0
    )
    limited = run("history", "--limit", "1")
    assert limited.exit_code == 0
    assert "m.csv" in limited.stdout and "ok.csv" not in limited.stdout
    assert "--limit N shows more" in limited.stderr
    only = as_json(run("history", "--operation", "threshold", "-o", "json"))
    assert [r["id"] for r in only["runs"]] == [2, 1]
    every = as_json(run("history", "--limit", "0", "-o", "json"))
    assert [r["id"] for r in every["runs"]] == [3, 2, 1]


def test_an_empty_journal_is_said_and_nothing_is_created(journal_home: Path) -> None:
    result = run("history")
    assert result.exit_code == 0
    assert result.stdout == ""
    assert f"no run in the journal {journal_home / 'journal.sqlite3'}" in result.stderr
    assert as_json(run("history", "-o", "json"))["runs"] == []
    assert not (journal_home / "journal.sqlite3").exists()


def test_a_killed_run_shows_as_unfinished_and_a_retry_names_its_run(
    two_runs: Sandbox, tmp_path: Path, journal_home: Path
) -> None:
    # What a SIGKILL leaves: no end, no summary, a request out without an answer.
    with db(journal_home) as conn:
        conn.execute("UPDATE runs SET ended = NULL, summary = NULL, exit_code = NULL WHERE id = 1")
        conn.execute("UPDATE requests SET state = 'sending', ack = NULL WHERE run = 1 AND id = 2")
        conn.execute("UPDATE runs SET retry_of = 1 WHERE id = 2")
    listed = run("history").stdout
    killed = line_of(listed, "ok.csv")
    assert "unfinished (killed?)" in killed and "1/2 acknowledged" in killed
    assert "retry of 1" in line_of(listed, "mixed.csv")
    doc = as_json(run("history", "-o", "json"))
    assert doc["runs"][1]["finished"] is False and doc["runs"][1]["requests"] == {"ok": 1, "sending": 1}
    assert doc["runs"][0]["retry_of"] == 1
    shown = run("history", "show", "1")
    assert shown.exit_code == 0
    assert "unfinished (killed?)" in shown.stdout and "`ari-cli retry 1`" in shown.stdout
    assert table_row(shown.stdout, "Requests", "2")[:6] == ["2", "", "HTL002", "1", f"{tmp_path / 'ok.csv'}:3",
                                                          "sent, no answer"]  # fmt: skip
    # Rows are derived from the requests: the acknowledged one's row is ok with its tracking id, the other's
    # row is not finished (its request went out, no answer came back).
    acknowledged = table_row(shown.stdout, "Rows", f"{tmp_path / 'ok.csv'}:2")
    assert acknowledged[5] == "ok" and acknowledged[6].startswith("sbx-")
    pending = table_row(shown.stdout, "Rows", f"{tmp_path / 'ok.csv'}:3")
    assert pending[5] == "not finished" and "sent, no answer recorded" in shown.stdout
    assert line_of(run("history", "show", "2").stdout, "retry of").split() == ["retry", "of", "run", "1"]


# --- show -------------------------------------------------------------------------------------


def test_show_gives_the_header_the_requests_and_the_rows(two_runs: Sandbox, tmp_path: Path) -> None:
    result = run("history", "show", "2")
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    digest = hashlib.sha256((tmp_path / "mixed.csv").read_bytes()).hexdigest()
    assert line_of(out, "command").split() == ["command", "ari-cli", "threshold", "push"]
    assert two_runs.base_url in line_of(out, "base URL")
    assert two_runs.source_id in line_of(out, "source id")
    assert f"mixed.csv (sha256 {digest[:12]})" in line_of(out, "files")
    assert f"today={PINNED_TODAY}" in line_of(out, "options") and "batch_size=50" in out
    assert STAMP.search(line_of(out, "started")) and STAMP.search(line_of(out, "ended"))
    assert "3 rows: 2 ok, 1 failed, 0 invalid, 0 skipped; 3 records in 5 requests" in out
    assert "1 failed" in line_of(out, "exit code")
    # The first request was split in halves; its second half again; request 5 is the failing record alone.
    assert row_with(out, "Req", "Parent") == ["Req", "Parent", "Property", "Records", "Lines", "State", "Tries",
                                                    "HTTP", "Tracking id", "Error"]  # fmt: skip
    split = row_with(out, "mixed.csv:2-4")
    assert split[:7] == ["1", "", "HTL001", "3", f"{tmp_path / 'mixed.csv'}:2-4", "split in halves", "1"]
    failed = table_row(out, "Requests", "5")
    assert failed[:8] == ["5", "3", "HTL001", "1", f"{tmp_path / 'mixed.csv'}:3", "failed", "1", "422"]
    assert failed[9] == "451 invalid room mapping (HTTP 422)"
    row = line_of(out, "mixed.csv:3 ", "XXX")
    assert "2027-01-01..2027-01-05" in row and "failed" in row and "451 invalid room mapping" in row
    assert "ok" in line_of(out, "mixed.csv:2 ", "DBL")
    assert '"sharepost"' not in out


def test_show_body_gives_each_body_with_the_key_masked_and_the_answer(two_runs: Sandbox) -> None:
    out = run("history", "show", "2", "--body").stdout
    assert out.count("# request ") == 5
    assert f"POST {two_runs.base_url}/v2/push_ari/{two_runs.source_id}/sellthresholdupdate" in out
    assert '"sharepost": "sand…0001"' in out
    assert "# answer: HTTP 422" in out and "# answer: HTTP 200" in out
    assert '"code": 451' in out or '"code":451' in out


def test_show_json_and_show_last(two_runs: Sandbox, tmp_path: Path) -> None:
    doc = as_json(run("history", "show", "last", "--output", "json"))
    assert doc["run"]["id"] == 2 and doc["run"]["exit_code"] == 1
    requests = {r["id"]: r for r in doc["requests"]}
    assert [requests[i]["parent"] for i in (1, 2, 3, 4, 5)] == [None, 1, 1, 3, 3]
    assert requests[5]["state"] == "failed" and requests[5]["http_status"] == 422
    assert requests[5]["errors"][0]["code"] == 451
    assert requests[1]["body"]["sharepost"] == "sand…0001"
    assert {(r["source"].rsplit("/", 1)[-1], r["line"], r["status"]) for r in doc["rows"]} == {
        ("mixed.csv", 2, "ok"), ("mixed.csv", 3, "failed"), ("mixed.csv", 4, "ok")}  # fmt: skip
    assert doc["records"][0]["start"] == "2027-01-05"


def test_show_lists_only_the_failed_rows_of_a_big_run_unless_show_all(sb: Sandbox, tmp_path: Path) -> None:
    rows = [f"HTL001,DBL,2027-01-{d:02},2027-01-{d:02},{d}" for d in range(1, 31)]
    rows += [f"HTL001,TWN,2027-02-{d:02},2027-02-{d:02},{d}" for d in range(1, 25)]
    rows.append("HTL001,XXX,2027-03-01,2027-03-01,1")
    assert push(sb, tmp_path, "big.csv", *rows).exit_code == 1
    short = run("history", "show", "1").stdout
    assert "Rows (55)" in short and "54 ok or skipped rows not shown; --show all lists every row" in short
    assert [row for row in table_rows(short, "Rows (55)") if row[5] == "ok"] == []
    assert table_row(short, "Rows", f"{tmp_path / 'big.csv'}:56")[5] == "failed"
    everything = run("history", "show", "1", "--show", "all").stdout
    assert "not shown" not in everything and table_row(everything, "Rows", f"{tmp_path / 'big.csv'}:2")[5] == "ok"
    assert "54 ok or skipped rows not shown" in run("history", "show", "1", "--show", "failed").stdout


def test_show_of_a_big_run_lists_alike_failed_rows_and_requests_in_a_row_as_one_line(
    sb: Sandbox, tmp_path: Path, journal_home: Path
) -> None:
    rows = [f"HTL001,DBL,2027-01-{d:02},2027-01-{d:02},{d}" for d in range(1, 31)]
    days = [dt.date(2027, 2, 1) + dt.timedelta(days=d) for d in range(40)]
    rows += [f"HTL001,XXX,{day},{day},{n % 2 + 1}" for n, day in enumerate(days)]  # lines 32 to 71
    rows.append("HTL001,TWN,2027-03-01,2027-03-01,1")
    # A request a record: splitting is budgeted per property (issue 40), and each refused row is to stand alone.
    assert push(sb, tmp_path, "big.csv", *rows, extra=("--batch-size", "1")).exit_code == 1
    with db(journal_home) as conn:
        failed = conn.execute(
            "SELECT count(*), count(DISTINCT trackingid) FROM requests WHERE state = 'failed'"
        ).fetchone()
    assert failed == (40, 40)  # each row refused alone, each answer with a tracking id of its own

    short = run("history", "show", "1")
    assert short.exit_code == 0, short.stderr
    grouped = table_row(short.stdout, "Rows (71)", f"{tmp_path / 'big.csv'}:32-71")
    assert grouped[1:] == ["HTL001", "XXX", "2027-02-01..2027-03-12", "(several)", "failed", grouped[6],
                           "451 invalid room mapping (HTTP 422)"]  # fmt: skip
    assert re.fullmatch(r"\S+ \+39 more", grouped[6])
    assert (
        "Alike rows in a row (one file and key, the same status and error) are one line; --show all lists each row"
        in short.stdout
    )
    assert "31 ok or skipped rows not shown; --show all lists every row" in short.stdout
    requests_part = short.stdout[short.stdout.index("Requests (") : short.stdout.index("Rows (71)")]
    lines = [row for row in table_rows(requests_part) if "failed" in row]
    assert sum(int(line[3]) for line in lines) == 40 and any(
        re.fullmatch(r"\d+\.\.\d+ \(\d+\)", line[0]) for line in lines
    )
    assert "are one line: `first..last (how many)`; --show all lists each request" in requests_part

    everything = run("history", "show", "1", "--show", "all").stdout
    assert "Alike rows" not in everything and "Alike requests" not in everything
    assert table_row(everything, "Rows (71)", f"{tmp_path / 'big.csv'}:33")[5] == "failed"


@pytest.mark.parametrize(
    ("argument", "message", "hint"),
    [
        ("9", "error: no run 9 in the journal", "the last run is 2"),
        ("abc", "error: RUN 'abc': give a run number", "history"),
    ],
)
def test_show_of_an_unknown_run_exits_2_naming_the_last(two_runs: Sandbox, argument: str, message: str, hint: str) -> None:  # fmt: skip
    result = run("history", "show", argument)
    assert result.exit_code == 2
    assert message in result.stderr and hint in result.stderr
    assert result.stdout == ""


def test_show_with_an_empty_journal_exits_2(journal_home: Path) -> None:
    result = run("history", "show", "1")
    assert result.exit_code == 2
    assert "no run 1 in the journal" in result.stderr and "has no runs yet" in result.stderr
    last = run("history", "show", "last")
    assert last.exit_code == 2 and "has no runs yet" in last.stderr


# --- find -------------------------------------------------------------------------------------


def test_find_trackingid_gives_the_run_the_body_the_answer_and_the_rows(two_runs: Sandbox, journal_home: Path) -> None:
    with db(journal_home) as conn:
        (trackingid,) = conn.execute("SELECT trackingid FROM requests WHERE run = 2 AND id = 4").fetchone()
    result = run("history", "find", "--trackingid", trackingid)
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert "run 2, request 4" in out
    assert "mixed.csv:4" in line_of(out, "rows")
    assert '"sharepost": "sand…0001"' in out and '"roomid": "TWN"' in out
    assert "# answer: HTTP 200" in out and f'"trackingid": "{trackingid}"' in out
    assert "TWN" in line_of(out, "mixed.csv:4 ")
    doc = as_json(run("history", "find", "--trackingid", trackingid, "-o", "json"))
    match = doc["matches"][0]
    assert match["run"]["id"] == 2 and match["request"]["id"] == 4 and match["request"]["trackingid"] == trackingid
    assert [r["line"] for r in match["rows"]] == [4]
    assert match["request"]["body"]["sharepost"] == "sand…0001"


def test_find_date_lists_every_record_newest_first_and_marks_the_one_in_force(
    two_runs: Sandbox, tmp_path: Path
) -> None:
    # A third push that the service never acknowledges: it does not change what is in force.
    two_runs.queue_error(503, times=5)
    refused = push(two_runs, tmp_path, "late.csv", "HTL001,DBL,2027-01-05,2027-01-05,7", extra=("--retries", "0"))
    assert refused.exit_code == 1
    args = ["history", "find", "--property", "HTL001", "--room", "DBL", "--date", "2027-01-05"]
    doc = as_json(run(*args, "--operation", "threshold", "-o", "json"))
    hits = [(h["run"]["id"], h["record"]["value"], h["request"]["state"], h["in_force"]) for h in doc["hits"]]
    assert hits == [(3, "7", "failed", False), (2, "3", "ok", True), (1, "2", "ok", False)]
    assert doc["hits"][1]["record"]["start"] == "2027-01-05" and doc["hits"][1]["record"]["end"] == "2027-01-06"
    assert doc["search"] == {"propertyid": "HTL001", "date": "2027-01-05", "roomid": "DBL", "rateid": None,
                             "operation": "threshold"}  # fmt: skip
    table = run(*args)
    assert table.exit_code == 0
    current = row_with(table.stdout, "yes")
    assert "2027-01-05..2027-01-06" in current and "3" in current and "ok" in current
    assert "failed (transient)" in next(row for row in table_rows(table.stdout) if "7" in row)
    assert "3 record(s) covered it, newest first" in table.stdout
    bodies = run(*args, "--body").stdout
    assert bodies.count("# request ") == 3 and '"sharepost": "sand…0001"' in bodies


def test_find_date_without_a_room_covers_every_room(two_runs: Sandbox) -> None:
    doc = as_json(run("history", "find", "--property", "HTL001", "--date", "2027-01-03", "-o", "json"))
    rooms = {(h["record"]["roomid"], h["run"]["id"], h["in_force"]) for h in doc["hits"]}
    assert rooms == {("DBL", 1, True), ("TWN", 2, True), ("XXX", 2, False)}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([], "say what to find: --trackingid ID, or --property P with --date YYYY-MM-DD"),
        (["--property", "HTL001"], "--property HTL001 needs --date YYYY-MM-DD"),
        (["--date", "2027-01-05"], "--date needs --property P"),
        (["--property", "HTL001", "--date", "2027-13-01"], '--date: "2027-13-01" is not a valid date'),
        (["--property", "HTL001", "--date", "05/01/2027"], '--date: "05/01/2027" is not a date of the form YYYY-MM-DD'),
        (["--trackingid", "x", "--property", "HTL001"], "--trackingid finds one request: --property cannot narrow it"),
        (["--trackingid", "x", "--room", "DBL"], "--trackingid finds one request: --room cannot narrow it"),
    ],
)
def test_find_without_a_whole_search_is_a_usage_error(two_runs: Sandbox, args: list[str], message: str) -> None:
    result = run("history", "find", *args)
    assert result.exit_code == 2
    assert f"error: {message}" in result.stderr
    assert result.stdout == ""


def test_find_with_no_match_exits_1_saying_what_was_searched(two_runs: Sandbox, journal_home: Path) -> None:
    missing = run("history", "find", "--trackingid", "sbx-nothing")
    assert missing.exit_code == 1
    assert "error: no request in the journal got the tracking id sbx-nothing" in missing.stderr
    assert str(journal_home / "journal.sqlite3") in missing.stderr
    no_date = run("history", "find", "--property", "HTL001", "--room", "DBL", "--date", "2027-03-01", "--operation", "maxadv")  # fmt: skip
    assert no_date.exit_code == 1
    assert (
        "no record in the journal covers 2027-03-01 for property HTL001 (room DBL operation maxadv)" in no_date.stderr
    )


def test_find_with_an_empty_journal_exits_1(journal_home: Path) -> None:
    result = run("history", "find", "--property", "HTL001", "--date", "2027-01-05")
    assert result.exit_code == 1 and "no record in the journal covers 2027-01-05" in result.stderr


# --- prune ------------------------------------------------------------------------------------


def test_prune_deletes_the_runs_older_than_the_age(two_runs: Sandbox, journal_home: Path) -> None:
    old = (dt.datetime.now(dt.UTC) - dt.timedelta(days=100)).isoformat(timespec="milliseconds")
    with db(journal_home) as conn:
        conn.execute("UPDATE runs SET started = ? WHERE id = 1", (old,))
    for age in ("15w", "2500h", "200d"):
        kept = run("history", "prune", "--older-than", age)
        assert kept.exit_code == 0 and kept.stdout.startswith("deleted 0 runs started before ")
    result = run("history", "prune", "--older-than", "90d")
    assert result.exit_code == 0
    assert result.stdout.startswith("deleted 1 run started before ") and "(local time)" in result.stdout
    assert [r["id"] for r in as_json(run("history", "-o", "json"))["runs"]] == [2]
    with db(journal_home) as conn:
        for table in ("files", "records", "requests", "notes"):
            assert conn.execute(f"SELECT count(*) FROM {table} WHERE run = 1").fetchone() == (0,), table


@pytest.mark.parametrize("age", ["abc", "-3d", "d", "inf"])
def test_prune_with_a_bad_age_is_a_usage_error(two_runs: Sandbox, age: str) -> None:
    result = run("history", "prune", "--older-than", age)
    assert result.exit_code == 2
    assert "--older-than" in result.stderr and ("90d, 12w or 36h" in result.stderr or "negative" in result.stderr)
    assert len(as_json(run("history", "-o", "json"))["runs"]) == 2


def test_prune_needs_older_than(two_runs: Sandbox) -> None:
    result = run("history", "prune")
    assert result.exit_code == 2 and "--older-than" in result.stderr


def test_prune_of_an_empty_journal_deletes_nothing(journal_home: Path) -> None:
    result = run("history", "prune", "--older-than", "90d")
    assert result.exit_code == 0 and result.stdout.startswith("deleted 0 runs")


# --- a journal that cannot be read --------------------------------------------------------------

READERS = [
    ["history"],
    ["history", "show", "1"],
    ["history", "find", "--trackingid", "x"],
    ["history", "find", "--property", "HTL001", "--date", "2027-01-05"],
    ["history", "prune", "--older-than", "90d"],
    ["calendar", "threshold", "--property", "HTL001"],
]


@pytest.mark.parametrize("args", READERS, ids=" ".join)
def test_ari_home_that_is_a_file_is_a_clear_error_exit_4(args: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    monkeypatch.setenv("ARI_HOME", str(blocker))
    result = run(*args)
    assert result.exit_code == 4
    assert f"error: the journal cannot be read: {blocker} is a file, not a folder" in result.stderr
    assert "hint: set ARI_HOME to a folder" in result.stderr
    assert "Traceback" not in result.output


@pytest.mark.parametrize("args", READERS, ids=" ".join)
def test_a_journal_that_is_not_a_database_is_a_clear_error_exit_4(args: list[str], journal_home: Path) -> None:
    (journal_home / "journal.sqlite3").write_text("these are not the pages you are looking for\n" * 200)
    result = run(*args)
    assert result.exit_code == 4
    assert "cannot be read: file is not a database" in result.stderr
    assert "move" in result.stderr and "aside" in result.stderr
    assert "Traceback" not in result.output


# --- the key ----------------------------------------------------------------------------------


def test_the_key_is_never_in_the_journal_file_nor_in_what_history_shows(
    two_runs: Sandbox, tmp_path: Path, journal_home: Path
) -> None:
    key = two_runs.api_key
    assert (
        push(two_runs, tmp_path, "m.csv", "HTL001,DBL,BAR,2027-01-01,2027-01-03,30", operation="maxadv").exit_code == 0
    )
    with db(journal_home) as conn:
        trackingids = [t for (t,) in conn.execute("SELECT trackingid FROM requests WHERE trackingid IS NOT NULL")]
    outputs = [
        run("history"), run("history", "-o", "json"), run("history", "show", "2", "--body"),
        run("history", "show", "3", "--body", "-o", "json"),
        run("history", "find", "--property", "HTL001", "--date", "2027-01-02", "--body"),
        run("history", "find", "--property", "HTL001", "--date", "2027-01-02", "-o", "json"),
        *(run("history", "find", "--trackingid", t) for t in trackingids),
        run("calendar", "threshold", "--property", "HTL001", "--from", "2027-01-01", env=sandbox_env(two_runs)),
    ]  # fmt: skip
    for result in outputs:
        assert result.exit_code == 0, result.output
        assert key not in result.output
    assert "sand…0001" in outputs[2].stdout
    files = [f for f in journal_home.iterdir() if f.name.startswith("journal.sqlite3")]
    assert files
    for file in files:
        content = file.read_bytes()
        assert key.encode() not in content and key.encode("utf-16-le") not in content, file.name


def test_rows_derived_from_the_journal_are_the_rows_the_push_gave(sb: Sandbox, tmp_path: Path) -> None:
    # Rows of several records (a weekday filter), clipped, skipped (past), invalid, refused, merged.
    path = tmp_path / "all.csv"
    path.write_text(
        "propertyid,roomid,start,end,threshold,days\n"
        "HTL001,DBL,2027-01-04,2027-01-17,2,Mon-Fri\n"
        "HTL001,TWN,2026-12-20,2027-01-03,3,\n"
        "HTL001,SGL,2026-11-01,2026-11-30,4,\n"
        "HTL001,STE,2027-01-05,2027-01-02,5,\n"
        "HTL001,XXX,2027-01-05,2027-01-06,6,\n"
        "HTL002,DBL,2027-01-01,2027-01-03,7,\n"
        "HTL002,DBL,2027-01-04,2027-01-05,7,\n"
    )
    pushed = invoke(["threshold", "push", str(path), *TODAY, "--skip-invalid", "-o", "json"], env=sandbox_env(sb))
    assert pushed.exit_code == 1, pushed.output
    live = {(r["line"]): r for r in as_json(pushed)["rows"]}
    assert {r["status"] for r in live.values()} == {"ok", "skipped", "invalid", "failed"}
    shown = as_json(run("history", "show", "1", "-o", "json"))
    derived = {r["line"]: r for r in shown["rows"]}
    assert sorted(derived) == sorted(live) == [2, 3, 4, 5, 6, 7, 8]
    for line, row in live.items():
        mine = derived[line]
        assert (mine["status"], sorted(mine["trackingids"]), mine["note"]) == (
            row["status"], sorted(row["trackingids"]), row["note"]), line  # fmt: skip
        assert [e["message"] for e in mine["errors"]] == [e["message"] for e in row["errors"]], line
    assert derived[5]["roomid"] == "STE" and derived[5]["value"] == "5"  # an invalid row as written
    table = run("history", "show", "1").stdout
    assert "clipped" in table_row(table, "Rows", f"{tmp_path / 'all.csv'}:3")[7]
