"""`retry` tells cron the truth (issue 40, point 7): it re-sends what failed for a reason outside the rows' data,
exits 0 only when every row of the run is ok, skipped or superseded, and 1 while rows stay refused for their own
data, saying how many and what to fix."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from ari_cli.sandbox import Sandbox
from tests.conftest import PINNED_TODAY
from tests.helpers import invoke, sandbox_env

TODAY = ["--today", PINNED_TODAY]
SCHEMA = json.loads((Path(__file__).parent / "output.schema.json").read_text())
HEADER = "propertyid,roomid,start,end,threshold\n"
# Line 2 is sent first (one request at a time, a property per request); line 3's room is not mapped (451).
MIXED = HEADER + "HTL001,DBL,2027-01-01,2027-01-05,3\nHTL003,XXX,2027-01-01,2027-01-05,5\n"
ONE = HEADER + "HTL001,DBL,2027-01-01,2027-01-05,3\n"
ONE_BY_ONE = ["--concurrency", "1", "--retries", "0"]  # a queued fault meets the request it is meant for


def _push(sb: Sandbox, path: Path, *more: str) -> Any:
    return invoke(["threshold", "push", str(path), *TODAY, *ONE_BY_ONE, *more], env=sandbox_env(sb))


def _dbl(sb: Sandbox, day: str = "2027-01-03") -> str | None:
    value: str | None = sb.state()["threshold"].get("HTL001", {}).get("DBL", {}).get(day)
    return value


def _exit_code_journaled(home: Path, run: int) -> int:
    with sqlite3.connect(home / "journal.sqlite3") as db:
        (code,) = db.execute("SELECT exit_code FROM runs WHERE id = ?", (run,)).fetchone()
    return int(code)


def test_a_retry_resends_the_transient_failure_and_exits_1_naming_the_rows_refused_for_their_data(
    sb: Sandbox, tmp_path: Path, journal_home: Path
) -> None:
    path = tmp_path / "mixed.csv"
    path.write_text(MIXED)
    sb.queue_error(503)  # line 2's request; line 3's then meets the service: 451
    first = _push(sb, path)
    assert first.exit_code == 1, first.output
    assert _dbl(sb) is None
    before = len(sb.received)

    result = invoke(["retry", "1", "--output", "json"], env=sandbox_env(sb))

    assert result.exit_code == 1, result.output
    # The transient one went again, and landed; the refused one did not go again.
    assert [(r.json["propertyid"], r.json["data"][0]["roomid"]) for r in sb.received[before:]] == [("HTL001", "DBL")]
    assert _dbl(sb) == "3"
    document = json.loads(result.stdout)
    jsonschema.validate(document, SCHEMA)
    assert [(r["line"], r["status"]) for r in document["rows"]] == [(2, "ok")]
    assert document["refused"] == {
        "run": 1,
        "rows": 1,
        "causes": [{"code": 451, "message": "invalid room mapping", "http_status": 422,
                    "hint": "the room id is not mapped for this property; check roomid", "rows": 1,
                    "first": [f"{path}:3"]}],
        "hint": "a second try meets the same answer: fix these rows (each cause's hint says how) and push the file"
                " again, as a run of its own: this run's retry exits 1 for as long as they stand refused",
    }  # fmt: skip
    assert result.stderr.splitlines()[-3:] == [
        "run 1: 1 row stays refused for its own data (not sent again):",
        f"  451 invalid room mapping (HTTP 422): 1 row ({path}:3); the room id is not mapped for this property;"
        " check roomid",
        "a second try meets the same answer: fix these rows (each cause's hint says how) and push the file again,"
        " as a run of its own: this run's retry exits 1 for as long as they stand refused",
    ]
    # The retry's run is journaled with the exit code it gave.
    assert _exit_code_journaled(journal_home, 2) == 1

    # Retried again (it follows to the retry, which sent all it could): nothing to send, still 1, under --quiet too.
    again = invoke(["retry", "1", "--quiet"], env=sandbox_env(sb))
    assert again.exit_code == 1, again.output
    assert again.stdout == ""
    assert "run 1: 1 row stays refused for its own data (not sent again):" in again.stderr
    assert f"451 invalid room mapping (HTTP 422): 1 row ({path}:3)" in again.stderr
    assert len(sb.received) == before + 1


def test_a_run_whose_only_failures_were_transient_exits_0_once_they_land(sb: Sandbox, tmp_path: Path) -> None:
    path = tmp_path / "two.csv"
    path.write_text(HEADER + "HTL001,DBL,2027-01-01,2027-01-05,3\nHTL002,DBL,2027-01-01,2027-01-05,4\n")
    sb.queue_error(503, times=2)  # both requests
    assert _push(sb, path).exit_code == 1
    sb.queue_error(504)  # the first retry meets the outage again for line 2's
    still = invoke(["retry", "1", *ONE_BY_ONE], env=sandbox_env(sb))
    assert still.exit_code == 1, still.output
    assert "stay refused" not in still.stderr and "stays refused" not in still.stderr

    landed = invoke(["retry", "1", "--output", "json"], env=sandbox_env(sb))

    assert landed.exit_code == 0, landed.output
    document = json.loads(landed.stdout)
    assert "refused" not in document
    assert [(r["line"], r["status"]) for r in document["rows"]] == [(2, "ok")]
    state = sb.state()["threshold"]
    assert (state["HTL001"]["DBL"]["2027-01-03"], state["HTL002"]["DBL"]["2027-01-03"]) == ("3", "4")
    nothing = invoke(["retry", "1"], env=sandbox_env(sb))
    assert nothing.exit_code == 0 and "nothing left to send" in nothing.stderr


@pytest.mark.parametrize(
    ("fault", "code", "said"),
    [
        ({"status": 421}, 446, "invalid property mapping"),  # the property
        ({"status": 418}, 442, "endpoint is not active"),  # the endpoint
        ({"status": 424}, 454, "invalid endpoint"),
        ({"status": 415}, 415, "invalid authentication key"),  # the account
        ({"status": 417}, 440, "invalid source id"),
        ({"status": 425}, 471, "channel id blocked"),
        ({"html": 401}, None, "HTTP 401 (a gateway's own authentication failed) with a body that is not"),  # a gateway
        ({"html": 403}, None, "HTTP 403 (forbidden by a gateway, firewall or allow-list) with a body that is not"),
        ({"html": 404}, None, "HTTP 404 (invalid start date) with a body that is not the service's JSON"),
    ],
)
def test_a_refusal_of_the_property_endpoint_or_account_is_sent_again_by_retry(
    sb: Sandbox, tmp_path: Path, fault: dict[str, int], code: int | None, said: str
) -> None:
    path = tmp_path / "one.csv"
    path.write_text(ONE)
    if "html" in fault:
        sb.queue_html(fault["html"])
    else:
        sb.queue_error(fault["status"])
    first = _push(sb, path, "--output", "json")
    assert first.exit_code == 1
    error = json.loads(first.stdout)["rows"][0]["errors"][0]
    assert error["code"] == code and said in error["message"]
    assert "once the service has put right the property, endpoint or account it refused, `ari-cli retry 1`" in (
        first.stderr
    )
    before = len(sb.received)

    result = invoke(["retry", "1"], env=sandbox_env(sb))

    assert result.exit_code == 0, result.output
    assert len(sb.received) == before + 1 and _dbl(sb) == "3"
    assert "refused" not in result.stderr


def test_rows_refused_then_pushed_ok_by_a_later_run_are_superseded(sb: Sandbox, tmp_path: Path) -> None:
    path = tmp_path / "one.csv"
    path.write_text(ONE)
    sb.queue_error(422)  # 451, as if the room were not mapped yet
    assert _push(sb, path).exit_code == 1
    # Mapped meanwhile, the room's dates are pushed again, by another run, and acknowledged.
    assert _push(sb, path).exit_code == 0
    before = len(sb.received)

    result = invoke(["retry", "1", "--output", "json"], env=sandbox_env(sb))

    assert result.exit_code == 0, result.output
    assert "refused" not in json.loads(result.stdout) and "refused" not in result.stderr
    assert len(sb.received) == before


def test_rows_refused_and_only_partly_pushed_later_stay_refused(sb: Sandbox, tmp_path: Path) -> None:
    path = tmp_path / "one.csv"
    path.write_text(ONE)
    sb.queue_error(422)
    assert _push(sb, path).exit_code == 1
    part = tmp_path / "part.csv"
    part.write_text(HEADER + "HTL001,DBL,2027-01-01,2027-01-03,3\n")  # 01-04 and 01-05 stay refused
    assert _push(sb, part).exit_code == 0

    result = invoke(["retry", "1"], env=sandbox_env(sb))

    assert result.exit_code == 1, result.output
    assert f"451 invalid room mapping (HTTP 422): 1 row ({path}:2)" in result.stderr


def test_a_failed_transient_row_later_pushed_ok_is_superseded_and_the_retry_exits_0(
    sb: Sandbox, tmp_path: Path
) -> None:
    path = tmp_path / "one.csv"
    path.write_text(ONE)
    sb.queue_error(503)
    assert _push(sb, path).exit_code == 1
    assert _push(sb, path).exit_code == 0
    before = len(sb.received)

    result = invoke(["retry", "1"], env=sandbox_env(sb))

    assert result.exit_code == 0, result.output
    assert "whose value run 2 got acknowledged after run 1 started" in result.stderr
    assert len(sb.received) == before


def test_many_rows_refused_alike_are_said_in_a_few_lines(sb: Sandbox, tmp_path: Path) -> None:
    path = tmp_path / "many.csv"
    path.write_text(HEADER + "".join(f"HTL003,X{n:03},2027-01-01,2027-01-05,5\n" for n in range(120)))
    assert invoke(["threshold", "push", str(path), *TODAY], env=sandbox_env(sb)).exit_code == 1

    result = invoke(["retry", "1"], env=sandbox_env(sb))

    assert result.exit_code == 1
    lines = result.stderr.splitlines()
    assert len(lines) < 10, result.stderr
    named = ", ".join(f"{path}:{line}" for line in range(2, 7))
    assert f"  451 invalid room mapping (HTTP 422): 120 rows ({named} and 115 more); the room id" in result.stderr
    assert "run 1: 120 rows stay refused for their own data (not sent again):" in lines


def test_with_nothing_left_to_send_the_document_still_says_what_stays_refused(sb: Sandbox, tmp_path: Path) -> None:
    path = tmp_path / "mixed.csv"
    path.write_text(MIXED)
    assert _push(sb, path).exit_code == 1
    before = len(sb.received)

    for args in (["--output", "json"], ["--output", "json", "--dry-run"]):
        result = invoke(["retry", "1", *args], env=sandbox_env(sb))
        assert result.exit_code == 1, result.output
        document = json.loads(result.stdout)
        jsonschema.validate(document, SCHEMA)
        assert (document["rows"], document["requests"]) == ([], [])
        assert document["refused"]["rows"] == 1 and document["refused"]["causes"][0]["first"] == [f"{path}:3"]
        assert "run 1: 1 row stays refused for its own data (not sent again):" in result.stderr
    assert len(sb.received) == before
