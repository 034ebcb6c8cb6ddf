"""The push commands end to end: files in, real HTTP to the sandbox, what the user sees out."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from ari_cli.wire.errors import ERROR_TABLE, ErrorRow
from tests.helpers import invoke, sandbox_env

TODAY = dt.date.today()
SCHEMA = json.loads((Path(__file__).parent / "output.schema.json").read_text())


def day(offset: int) -> str:
    return (TODAY + dt.timedelta(days=offset)).isoformat()


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def threshold_file(tmp_path: Path, *rows: str, name: str = "rooms.csv") -> Path:
    return write(tmp_path, name, "propertyid,roomid,start,end,threshold\n" + "\n".join(rows) + "\n")


def as_json(result: Any) -> dict[str, Any]:
    document: dict[str, Any] = json.loads(result.stdout)
    jsonschema.validate(document, SCHEMA)
    return document


def test_success_shows_every_row_with_its_tracking_id(tmp_path: Path, sandbox: Any) -> None:
    path = threshold_file(tmp_path, f"HTL001,DBL,{day(1)},{day(10)},3", f"HTL001,TWN,{day(1)},{day(5)},n/a")
    result = invoke(["threshold", "push", str(path)], env=sandbox_env(sandbox))
    assert result.exit_code == 0, result.stderr
    assert "rooms.csv:2" in result.stdout and "rooms.csv:3" in result.stdout
    assert "2 rows: 2 ok, 0 failed, 0 invalid, 0 skipped; 2 records, sent 1 of 1 request" in result.stdout
    trackingid = sandbox.received[0].response_json["trackingid"]
    assert trackingid in result.stdout
    assert "\x1b[" not in result.stdout + result.stderr  # not a terminal: no control codes


def test_json_output_has_the_contract_shape_and_the_body_as_sent(tmp_path: Path, sandbox: Any) -> None:
    path = threshold_file(tmp_path, f"HTL001,DBL,{day(1)},{day(3)},3", f"HTL001,DBL,{day(4)},{day(6)},3",
                          f"HTL001,STE,{day(1)},{day(2)},0")  # fmt: skip
    result = invoke(["threshold", "push", str(path), "--output", "json"], env=sandbox_env(sandbox))
    assert result.exit_code == 0, result.stderr
    doc = as_json(result)
    assert doc["summary"] == {
        "rows": 3,
        "records": 2,
        "requests": 1,
        "ok": 3,
        "planned": 0,
        "failed": 0,
        "not sent": 0,
        "invalid": 0,
        "skipped": 0,
    }
    (request,) = doc["requests"]
    tid = sandbox.received[0].response_json["trackingid"]
    assert request["lines"] == [2, 3, 4] and request["attempts"] == 1 and request["trackingid"] == tid
    assert request["body"] == {
        "sharepost": "sand…0001", "sourceid": "cpbA1", "propertyid": "HTL001", "action": "sellthresholdupdate",
        "data": [
            {"startdateymd": day(1), "enddateymd": day(6), "roomid": "DBL", "threshold": "3"},
            {"startdateymd": day(1), "enddateymd": day(2), "roomid": "STE", "threshold": "0"},
        ],
    }  # fmt: skip
    assert json.loads(sandbox.received[0].body)["sharepost"] == sandbox.api_key
    assert [r["trackingids"] for r in doc["rows"]] == [[tid]] * 3


def test_invalid_value_exits_3_names_the_line_and_sends_nothing(tmp_path: Path, sandbox: Any) -> None:
    path = threshold_file(tmp_path, f"HTL001,DBL,{day(1)},{day(3)},3", f"HTL001,DBL,{day(5)},{day(6)},1000")
    result = invoke(["threshold", "push", str(path)], env=sandbox_env(sandbox))
    assert result.exit_code == 3
    assert "rooms.csv line 3, threshold: 1000 is above the maximum 999" in result.stderr
    assert "nothing was sent" in result.stderr
    assert sandbox.received == []


@pytest.mark.parametrize(
    ("row", "message"),
    [
        ("HTL001,DBL,{d1},{d3},abc", "line 2, threshold: 'abc' is not a whole number"),
        ("HTL001,DBL,{d1},{d3},", "line 2, threshold: is empty"),
        ("HTL001,DBL,{d3},{d1},2", "line 2, end: {d1} is before the start {d3}"),
        ("HTL001,DBL,04/01/2027,{d3},2", "--date-format"),
        (",DBL,{d1},{d3},2", "line 2, propertyid: is empty"),
    ],
)
def test_each_invalid_row_exits_3_with_its_line(tmp_path: Path, sandbox: Any, row: str, message: str) -> None:
    path = threshold_file(tmp_path, row.format(d1=day(1), d3=day(3)))
    result = invoke(["threshold", "push", str(path)], env=sandbox_env(sandbox))
    assert result.exit_code == 3
    assert message.format(d1=day(1), d3=day(3)) in result.stderr
    assert sandbox.received == []


def test_overlap_with_different_values_exits_3_naming_both_lines(tmp_path: Path, sandbox: Any) -> None:
    path = threshold_file(tmp_path, f"HTL001,DBL,{day(1)},{day(10)},3", f"HTL001,DBL,{day(5)},{day(12)},4")
    result = invoke(["threshold", "push", str(path)], env=sandbox_env(sandbox))
    assert result.exit_code == 3
    assert f"rooms.csv line 2: 3 overlaps {path} line 3 (4) on {day(5)}..{day(10)}" in result.stderr
    assert sandbox.received == []
    result = invoke(["threshold", "push", str(path), "--overlaps", "last-wins"], env=sandbox_env(sandbox))
    assert result.exit_code == 0, result.stderr
    dbl = sandbox.state()["threshold"]["HTL001"]["DBL"]
    assert dbl[day(4)] == "3" and dbl[day(5)] == "4" and dbl[day(12)] == "4"


def test_misspelt_column_is_an_error_that_suggests_the_name(tmp_path: Path, sandbox: Any) -> None:
    path = write(tmp_path, "rooms.csv", f"propertyid,roomid,start,end,treshold\nHTL001,DBL,{day(1)},{day(2)},3\n")
    result = invoke(["threshold", "push", str(path)], env=sandbox_env(sandbox))
    assert result.exit_code == 3
    assert '"treshold"' in result.stderr and '"threshold"' in result.stderr
    assert sandbox.received == []


def test_skip_invalid_sends_the_valid_rows_and_reports_the_others(tmp_path: Path, sandbox: Any) -> None:
    path = threshold_file(tmp_path, f"HTL001,DBL,{day(1)},{day(3)},3", f"HTL001,TWN,{day(1)},{day(3)},-1")
    result = invoke(["threshold", "push", str(path), "--skip-invalid", "--output", "json"], env=sandbox_env(sandbox))
    assert result.exit_code == 1
    doc = as_json(result)
    assert [r["status"] for r in doc["rows"]] == ["ok", "invalid"]
    assert "below the minimum 0" in doc["rows"][1]["errors"][0]["message"]
    assert sandbox.state()["threshold"]["HTL001"] == {"DBL": {day(1): "3", day(2): "3", day(3): "3"}}


def test_past_rows_are_skipped_and_exit_0(tmp_path: Path, sandbox: Any) -> None:
    path = threshold_file(tmp_path, f"HTL001,DBL,{day(-10)},{day(-1)},3", f"HTL001,TWN,{day(-3)},{day(1)},2")
    result = invoke(["threshold", "push", str(path), "--output", "json"], env=sandbox_env(sandbox))
    assert result.exit_code == 0, result.stderr
    assert [r["status"] for r in as_json(result)["rows"]] == ["skipped", "ok"]
    assert "rooms.csv line 3: starts" in result.stderr and f"sending from {day(0)}" in result.stderr
    assert sandbox.state()["threshold"]["HTL001"] == {"TWN": {day(0): "2", day(1): "2"}}


def test_one_bad_room_among_good_ones_fails_alone(tmp_path: Path, sandbox: Any) -> None:
    rows = [f"HTL001,{room},{day(1)},{day(2)},2" for room in ("DBL", "TWN", "NOPE", "SGL", "STE")]
    path = threshold_file(tmp_path, *rows)
    result = invoke(["threshold", "push", str(path), "--output", "json"], env=sandbox_env(sandbox))
    assert result.exit_code == 1
    doc = as_json(result)
    statuses = {r["line"]: r for r in doc["rows"]}
    assert statuses[4]["status"] == "failed"
    assert statuses[4]["errors"] == [{"code": 451, "message": "invalid room mapping", "http_status": 422}]
    for line in (2, 3, 5, 6):
        assert statuses[line]["status"] == "ok" and len(statuses[line]["trackingids"]) == 1
    assert set(sandbox.state()["threshold"]["HTL001"]) == {"DBL", "TWN", "SGL", "STE"}
    assert doc["summary"]["requests"] == len(sandbox.received) > 1


def _one_row_file(tmp_path: Path, row: ErrorRow) -> list[str]:
    if "threshold" in {op.value for op in row.operations}:
        return ["threshold", "push", str(threshold_file(tmp_path, f"HTL001,DBL,{day(1)},{day(2)},2"))]
    path = write(tmp_path, "m.csv", f"propertyid,roomid,rateid,start,end,time\nHTL001,DBL,BAR,{day(1)},{day(2)},30\n")
    return ["maxadv", "push", str(path)]


@pytest.mark.parametrize("row", [r for r in ERROR_TABLE if not r.retryable], ids=lambda r: f"{r.http_status}-{r.code}")
def test_every_service_error_reaches_the_row_with_code_message_and_hint(
    tmp_path: Path, sandbox: Any, row: ErrorRow
) -> None:
    sandbox.queue_error(row.http_status, times=20)
    args = _one_row_file(tmp_path, row)
    result = invoke([*args, "--output", "json"], env=sandbox_env(sandbox))
    assert result.exit_code == 1
    doc = as_json(result)
    assert doc["rows"][0]["status"] == "failed"
    assert doc["rows"][0]["errors"] == [{"code": row.code, "message": row.message, "http_status": row.http_status}]
    assert doc["requests"][0]["attempts"] == 1  # never retried
    sandbox.queue_error(row.http_status, times=20)
    table = invoke(args, env=sandbox_env(sandbox))
    assert table.exit_code == 1
    assert f"{row.code} {row.message} (HTTP {row.http_status})" in table.stdout
    assert f"{row.code} (HTTP {row.http_status}): {row.hint}" in table.stdout


@pytest.mark.parametrize("row", [r for r in ERROR_TABLE if r.retryable], ids=lambda r: f"{r.http_status}-{r.code}")
def test_transient_errors_are_retried_to_success(tmp_path: Path, sandbox: Any, row: ErrorRow) -> None:
    sandbox.queue_error(row.http_status, times=2)
    args = _one_row_file(tmp_path, row)
    result = invoke([*args, "--output", "json"], env=sandbox_env(sandbox))
    assert result.exit_code == 0, result.stdout
    doc = as_json(result)
    assert doc["requests"][0]["attempts"] == 3 and doc["rows"][0]["status"] == "ok"


@pytest.mark.parametrize("row", [r for r in ERROR_TABLE if r.retryable], ids=lambda r: f"{r.http_status}-{r.code}")
def test_transient_errors_that_persist_fail_after_the_retries(tmp_path: Path, sandbox: Any, row: ErrorRow) -> None:
    sandbox.queue_error(row.http_status, times=10)
    result = invoke([*_one_row_file(tmp_path, row), "--retries", "2", "--output", "json"], env=sandbox_env(sandbox))
    assert result.exit_code == 1
    doc = as_json(result)
    assert doc["requests"][0]["attempts"] == 3
    assert doc["rows"][0]["errors"] == [{"code": row.code, "message": row.message, "http_status": row.http_status}]


def test_html_error_page_is_a_clear_error_and_retried(tmp_path: Path, sandbox: Any) -> None:
    sandbox.queue_html(502, times=1)
    path = threshold_file(tmp_path, f"HTL001,DBL,{day(1)},{day(2)},2")
    result = invoke(["threshold", "push", str(path), "--output", "json"], env=sandbox_env(sandbox))
    assert result.exit_code == 0
    assert as_json(result)["requests"][0]["attempts"] == 2
    sandbox.queue_html(502, times=9)
    result = invoke(["threshold", "push", str(path), "--retries", "1"], env=sandbox_env(sandbox))
    assert result.exit_code == 1
    assert "HTTP 502 (bad gateway) with a body that is not the service's JSON" in result.stdout


def test_dropped_connection_is_retried(tmp_path: Path, sandbox: Any) -> None:
    sandbox.queue_drop(times=1)
    path = threshold_file(tmp_path, f"HTL001,DBL,{day(1)},{day(2)},2")
    result = invoke(["threshold", "push", str(path), "--output", "json"], env=sandbox_env(sandbox))
    assert result.exit_code == 0, result.stdout
    assert as_json(result)["requests"][0]["attempts"] == 2


def test_unreachable_service_exits_1_without_traceback(tmp_path: Path) -> None:
    path = threshold_file(tmp_path, f"HTL001,DBL,{day(1)},{day(2)},2")
    env = {"ARI_BASE_URL": "http://127.0.0.1:9", "ARI_API_KEY": "secret-key-123456", "ARI_SOURCE_ID": "cpbA1"}
    result = invoke(["threshold", "push", str(path), "--retries", "0"], env=env)
    assert result.exit_code == 1
    assert "cannot reach http://127.0.0.1:9" in result.stdout
    assert "Traceback" not in result.stdout + result.stderr


def test_missing_configuration_exits_4_and_mentions_sandbox(tmp_path: Path) -> None:
    path = threshold_file(tmp_path, f"HTL001,DBL,{day(1)},{day(2)},2")
    result = invoke(["threshold", "push", str(path)])
    assert result.exit_code == 4
    assert "no base URL, API key, source id configured" in result.stderr
    assert "ARI_BASE_URL" in result.stderr and "--sandbox" in result.stderr


def test_plain_http_to_a_remote_host_is_refused(tmp_path: Path) -> None:
    path = threshold_file(tmp_path, f"HTL001,DBL,{day(1)},{day(2)},2")
    env = {
        "ARI_BASE_URL": "http://ari.example.com",
        "ARI_API_KEY": "secret-key-123456",
        "ARI_SOURCE_ID": "cpbA1",
    }
    result = invoke(["threshold", "push", str(path)], env=env)
    assert result.exit_code == 4 and "plain http:// is refused" in result.stderr


def test_dry_run_prints_bodies_with_the_key_masked_and_sends_nothing(tmp_path: Path, sandbox: Any) -> None:
    path = threshold_file(tmp_path, f"HTL001,DBL,{day(1)},{day(2)},2")
    result = invoke(["threshold", "push", str(path), "--dry-run"], env=sandbox_env(sandbox))
    assert result.exit_code == 0
    assert f"POST {sandbox.base_url}/v2/push_ari/cpbA1/sellthresholdupdate" in result.stdout
    assert '"sharepost": "sand…0001"' in result.stdout and sandbox.api_key not in result.stdout
    assert sandbox.received == []


def test_dry_run_without_configuration_shows_placeholders(tmp_path: Path) -> None:
    path = threshold_file(tmp_path, f"HTL001,DBL,{day(1)},{day(2)},2")
    result = invoke(["threshold", "push", str(path), "--dry-run", "--output", "json"])
    assert result.exit_code == 0
    doc = as_json(result)
    assert doc["dry_run"] is True and doc["requests"][0]["body"]["sourceid"] == "<source_id>"
    assert doc["requests"][0]["attempts"] == 0 and doc["requests"][0]["success"] is None


def test_builtin_sandbox_flag_pushes_the_sample() -> None:
    result = invoke(["threshold", "push", "samples/threshold.csv", "--sandbox"])
    assert result.exit_code == 0, result.stdout + result.stderr
    assert "pushing to the built-in sandbox" in result.stderr
    assert "ignored columns" in result.stderr.lower() or "notes" in result.stderr.lower()


def test_csv_output_and_report_file(tmp_path: Path, sandbox: Any) -> None:
    path = threshold_file(tmp_path, f"HTL001,DBL,{day(1)},{day(2)},2", f"HTL001,NOPE,{day(1)},{day(2)},2")
    report = tmp_path / "out.json"
    result = invoke(
        ["threshold", "push", str(path), "--output", "csv", "--report", str(report)], env=sandbox_env(sandbox)
    )
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[0] == "source,line,status,trackingids,errors,note,propertyid,roomid,dates,value"
    assert lines[2].startswith(f"{path},3,failed,") and "451 invalid room mapping (HTTP 422)" in lines[2]
    assert lines[2].endswith(f",HTL001,NOPE,{day(1)}..{day(2)},2")
    doc = json.loads(report.read_text())
    jsonschema.validate(doc, SCHEMA)
    assert [r["status"] for r in doc["rows"]] == ["ok", "failed"]


def test_report_with_unknown_extension_is_a_usage_error(tmp_path: Path, sandbox: Any) -> None:
    path = threshold_file(tmp_path, f"HTL001,DBL,{day(1)},{day(2)},2")
    result = invoke(["threshold", "push", str(path), "--report", str(tmp_path / "r.txt")], env=sandbox_env(sandbox))
    assert result.exit_code == 2 and ".csv, .json or .html" in result.stderr


def test_object_form_sends_one_record_per_request(tmp_path: Path, sandbox: Any) -> None:
    path = threshold_file(tmp_path, f"HTL001,DBL,{day(1)},{day(2)},2", f"HTL001,TWN,{day(1)},{day(2)},1")
    result = invoke(["threshold", "push", str(path), "--data-form", "object"], env=sandbox_env(sandbox))
    assert result.exit_code == 0, result.stdout
    bodies = [json.loads(r.body) for r in sandbox.received]
    assert sorted(b["data"]["roomid"] for b in bodies) == ["DBL", "TWN"]


def test_batch_size_fills_requests(tmp_path: Path, sandbox: Any) -> None:
    rows = [f"HTL001,DBL,{day(2 * i + 1)},{day(2 * i + 1)},{i}" for i in range(7)]
    path = threshold_file(tmp_path, *rows)
    result = invoke(["threshold", "push", str(path), "--batch-size", "3", "--output", "json"], env=sandbox_env(sandbox))
    assert result.exit_code == 0
    assert [r["records"] for r in as_json(result)["requests"]] == [3, 3, 1]


def test_stdin_is_read_with_dash(sandbox: Any) -> None:
    text = f"propertyid,roomid,start,end,threshold\nHTL001,DBL,{day(1)},{day(1)},2\n"
    result = invoke(["threshold", "push", "-"], env=sandbox_env(sandbox), input=text)
    assert result.exit_code == 0, result.stdout + result.stderr
    assert "<stdin>:2" in result.stdout


def test_maxadv_and_policy_push(tmp_path: Path, sandbox: Any) -> None:
    m = write(tmp_path, "m.csv", f"hotel,room,rate,from,to,nights\nHTL001,DBL,BAR,{day(1)},{day(2)},30\n")
    assert invoke(["maxadv", "push", str(m)], env=sandbox_env(sandbox)).exit_code == 0
    assert sandbox.state()["maxadv"]["HTL001"]["DBL"]["BAR"] == {day(1): "30", day(2): "30"}
    header = (
        "propertyid,roomid,rateid,start,end,refundable,level,policyid,dayspriorcheckin,penaltytype,penaltyamount,"
        "penaltyapplied,depositpolicy,deposittype,depositamount,depositapplied,depositintervalunits,deposittimeinterval"
    )
    p = write(
        tmp_path,
        "p.csv",
        f"{header}\nHTL001,DBL,BAR,{day(1)},{day(1)},no,1,1,0,3,100,4,not required,3,100,4,0,\n",
    )
    result = invoke(["policy", "push", str(p)], env=sandbox_env(sandbox))
    assert result.exit_code == 3
    assert "p.csv line 2, depositpolicy: must be required when refundable is false" in result.stderr


def test_api_key_never_appears_in_any_output(tmp_path: Path, sandbox: Any) -> None:
    path = threshold_file(tmp_path, f"HTL001,DBL,{day(1)},{day(2)},2", f"HTL999,DBL,{day(1)},{day(2)},2")
    report = tmp_path / "r.csv"
    env = sandbox_env(sandbox)
    for extra in ([], ["--output", "json"], ["--dry-run"], ["--output", "csv", "--report", str(report)]):
        result = invoke(["threshold", "push", str(path), *extra], env=env)
        assert sandbox.api_key not in result.stdout + result.stderr
    assert sandbox.api_key not in report.read_text()


def test_valid_rows_of_a_stopped_run_are_reported_as_not_sent(tmp_path: Path, sandbox: Any) -> None:
    path = threshold_file(tmp_path, f"HTL001,DBL,{day(1)},{day(3)},3", f"HTL001,TWN,{day(1)},{day(3)},x")
    result = invoke(["threshold", "push", str(path), "--output", "json"], env=sandbox_env(sandbox))
    assert result.exit_code == 3
    doc = as_json(result)
    assert [r["status"] for r in doc["rows"]] == ["skipped", "invalid"]
    assert doc["requests"] == [] and sandbox.received == []
