"""`ari-cli replay`: exact bodies sent to the sandbox, filled or byte for byte, and what the answers mean."""

from __future__ import annotations

import datetime as dt
import json
import socket
from pathlib import Path
from typing import Any

import pytest

from ari_cli.replay.bodies import fill, parse_file
from tests.helpers import invoke, sandbox_env

TODAY = dt.date.today()


def day(offset: int) -> str:
    return (TODAY + dt.timedelta(days=offset)).isoformat()


def write(tmp_path: Path, name: str, content: str | bytes) -> Path:
    path = tmp_path / name
    if isinstance(content, str):
        content = content.encode("utf-8")
    path.write_bytes(content)
    return path


def threshold_body(room: str = "DBL", **envelope: str) -> dict[str, Any]:
    return {**envelope, "propertyid": "HTL001", "action": "sellthresholdupdate",
            "data": [{"startdateymd": day(1), "enddateymd": day(3), "roomid": room, "threshold": "5"}]}  # fmt: skip


PRETTY = """{
  "propertyid": "HTL001",
  "action": "sellthresholdupdate",
  "data": [ {"startdateymd": "%s", "enddateymd": "%s", "roomid": "DBL", "threshold": "5"} ]
}
"""


def test_filling_adds_key_and_source_and_leaves_every_other_byte(tmp_path: Path, sandbox: Any) -> None:
    text = PRETTY % (day(1), day(3))
    path = write(tmp_path, "call.json", text)
    result = invoke(["replay", str(path)], env=sandbox_env(sandbox))
    assert result.exit_code == 0, result.stderr
    (received,) = sandbox.received
    expected = text.replace(
        '{\n  "propertyid"', '{\n  "sharepost": "sandbox-key-0001",\n  "sourceid": "cpbA1",\n  "propertyid"'
    )
    assert received.body == expected.encode()
    assert list(received.json) == ["sharepost", "sourceid", "propertyid", "action", "data"]
    assert received.path == "/v2/push_ari/cpbA1/sellthresholdupdate"
    assert sandbox.state()["threshold"]["HTL001"]["DBL"] == {day(1): "5", day(2): "5", day(3): "5"}
    out = result.stdout
    assert f"POST {sandbox.base_url}/v2/push_ari/cpbA1/sellthresholdupdate" in out
    assert "HTTP 200" in out and received.response_json["trackingid"] in out
    assert "filled from the configuration: sharepost, sourceid" in out
    assert "1 bodies sent: 1 ok, 0 failed" in out
    assert sandbox.api_key not in result.stdout + result.stderr


def test_placeholders_are_filled_in_place_and_key_order_is_kept(tmp_path: Path, sandbox: Any) -> None:
    body = {"propertyid": "HTL001", "sourceid": "<source_id>", "action": "sellthresholdupdate",
            "sharepost": "<API_KEY>", "data": threshold_body()["data"]}  # fmt: skip
    text = json.dumps(body, separators=(",", ":"))
    path = write(tmp_path, "call.json", text)
    result = invoke(["replay", str(path), "--output", "json"], env=sandbox_env(sandbox))
    assert result.exit_code == 0, result.stderr
    (received,) = sandbox.received
    filled = text.replace('"<source_id>"', '"cpbA1"').replace('"<API_KEY>"', '"sandbox-key-0001"')
    assert received.body == filled.encode()
    (doc,) = json.loads(result.stdout)["bodies"]
    assert doc["filled"] == ["sharepost", "sourceid"]
    assert doc["body"]["sharepost"] == "sand…0001"
    assert doc["success"] is True and doc["http_status"] == 200


def test_no_fill_sends_the_file_byte_for_byte_and_explains_the_answer(tmp_path: Path, sandbox: Any) -> None:
    data = ("\ufeff" + PRETTY % (day(1), day(3))).replace("\n", "\r\n").encode()
    path = write(tmp_path, "call.json", data)
    result = invoke(["replay", str(path), "--no-fill"], env=sandbox_env(sandbox))
    assert result.exit_code == 1
    (received,) = sandbox.received
    assert received.body == data
    out = result.stdout
    assert "HTTP 415" in out
    assert "meaning: HTTP 415, code 415: invalid authentication key; applies to all operations" in out
    assert "what to check: the body has no sharepost and --no-fill sent it so" in out  # replay's own hint
    assert "retry helps: no" in out
    assert '"code":415' in out.replace(" ", "")  # the raw answer
    assert "filled" not in out


def test_no_fill_sends_each_list_element_as_its_exact_text(tmp_path: Path, sandbox: Any) -> None:
    first = json.dumps(threshold_body(sharepost=sandbox.api_key, sourceid="cpbA1"), indent=4)
    second = json.dumps(threshold_body("NOPE", sharepost=sandbox.api_key, sourceid="cpbA1"))
    path = write(tmp_path, "calls.json", f"[ {first} ,\n\n   {second}]\n")
    result = invoke(["replay", str(path), "--no-fill", "--output", "json"], env=sandbox_env(sandbox))
    assert result.exit_code == 1
    assert [r.body for r in sandbox.received] == [first.encode(), second.encode()]
    doc = json.loads(result.stdout)
    assert doc["summary"] == {"bodies": 2, "ok": 1, "failed": 1}
    ok, failed = doc["bodies"]
    assert (ok["line"], failed["line"]) == (1, first.count("\n") + 3)
    assert failed["http_status"] == 422 and failed["success"] is False
    (error,) = failed["errors"]
    assert error["code"] == 451 and error["row"] == {"http_status": 422, "code": 451, "message": "invalid room mapping"}
    assert error["retryable"] is False and "roomid" in error["hint"]
    assert json.loads(failed["response"])["errors"] == [{"code": 451, "message": "invalid room mapping"}]
    assert sandbox.api_key not in result.stdout + result.stderr


def test_a_broken_body_is_sent_as_is_and_gets_the_services_402(tmp_path: Path, sandbox: Any) -> None:
    body = {"propertyid": "HTL001", "action": "sellthresholdupdate", "data": [{"roomid": "DBL", "threshold": "x"}]}
    path = write(tmp_path, "broken.json", json.dumps(body))
    result = invoke(["replay", str(path)], env=sandbox_env(sandbox))
    assert result.exit_code == 1
    assert len(sandbox.received) == 1
    assert "meaning: HTTP 402, code 402: invalid parameter" in result.stdout


def test_a_partners_own_key_and_source_go_out_but_are_never_shown(tmp_path: Path, sandbox: Any) -> None:
    partner = "sandbox-key-0002-inactive"
    path = write(tmp_path, "partner.json", json.dumps(threshold_body(sharepost=partner, sourceid="cpbB2")))
    result = invoke(["replay", str(path), "--no-fill", "--verbose", "--curl"], env=sandbox_env(sandbox))
    assert result.exit_code == 1
    (received,) = sandbox.received
    assert received.path == "/v2/push_ari/cpbB2/sellthresholdupdate"  # the body's own partner
    assert "code 442: endpoint is not active" in result.stdout
    assert partner not in result.stdout + result.stderr
    assert "sand…tive" in result.stderr


def test_json_lines_hold_one_body_per_line(tmp_path: Path, sandbox: Any) -> None:
    lines = [json.dumps(threshold_body()), json.dumps(threshold_body("TWN"))]
    path = write(tmp_path, "calls.jsonl", "\n".join(lines) + "\n")
    result = invoke(["replay", str(path)], env=sandbox_env(sandbox))
    assert result.exit_code == 0, result.stdout
    assert [r.json["data"][0]["roomid"] for r in sandbox.received] == ["DBL", "TWN"]
    assert "calls.jsonl:2" in result.stdout


def test_the_sandbox_flag_works_without_configuration(tmp_path: Path) -> None:
    path = write(tmp_path, "call.json", json.dumps(threshold_body()))
    result = invoke(["replay", str(path), "--sandbox"])
    assert result.exit_code == 0, result.stderr
    assert "HTTP 200" in result.stdout and "replaying to the built-in sandbox" in result.stderr


def test_standard_input_is_read_with_a_dash(sandbox: Any) -> None:
    result = invoke(["replay", "-"], env=sandbox_env(sandbox), input=json.dumps(threshold_body()))
    assert result.exit_code == 0, result.stderr
    assert "<stdin>:1" in result.stdout


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("propertyid,roomid\nHTL001,DBL\n", "not JSON"),
        ('{"propertyid": "HTL001", "data": []}', 'the body has no "action"'),
        ('{"action": "sellthreshold"}', 'unknown action "sellthreshold"'),
        ('[{"action": "getcancellation"}, 3]', "line 1: expected a request body (an object), found a number"),
        ("[]", "holds no request bodies"),
        ('"text"', "expected a request body (an object), found text"),
        ("", "the file is empty"),
        (b"\xff\xfe{}", "not UTF-8"),
    ],
)
def test_what_is_not_request_bodies_exits_3_and_sends_nothing(
    tmp_path: Path, sandbox: Any, content: str | bytes, message: str
) -> None:
    path = write(tmp_path, "bad.json", content)
    good = write(tmp_path, "good.json", json.dumps(threshold_body()))
    result = invoke(["replay", str(good), str(path)], env=sandbox_env(sandbox))
    assert result.exit_code == 3, result.stdout
    assert message in result.stderr and "bad.json" in result.stderr
    assert sandbox.received == []


def test_a_missing_file_exits_3(tmp_path: Path, sandbox: Any) -> None:
    result = invoke(["replay", str(tmp_path / "nope.json")], env=sandbox_env(sandbox))
    assert result.exit_code == 3
    assert "cannot read" in result.stderr


def test_no_configuration_exits_4(tmp_path: Path) -> None:
    path = write(tmp_path, "call.json", json.dumps(threshold_body()))
    result = invoke(["replay", str(path)])
    assert result.exit_code == 4
    assert "no base URL" in result.stderr


def test_a_dry_run_shows_the_body_and_sends_nothing(tmp_path: Path, sandbox: Any) -> None:
    path = write(tmp_path, "call.json", json.dumps(threshold_body()))
    result = invoke(["replay", str(path), "--dry-run"], env=sandbox_env(sandbox))
    assert result.exit_code == 0, result.stderr
    assert sandbox.received == []
    assert "not sent (dry run)" in result.stdout and '"sharepost": "sand…0001"' in result.stdout


def test_no_answer_is_a_failure_worth_retrying(tmp_path: Path) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    path = write(tmp_path, "call.json", json.dumps(threshold_body()))
    env = {"ARI_BASE_URL": f"http://127.0.0.1:{port}", "ARI_API_KEY": "k" * 16, "ARI_SOURCE_ID": "cpbA1"}
    result = invoke(["replay", str(path)], env=env)
    assert result.exit_code == 1
    assert "no answer after" in result.stdout and "cannot reach" in result.stdout
    assert "retry helps: yes" in result.stdout
    assert "k" * 16 not in result.stdout + result.stderr


A = '"action": "getcancellation"'


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (f"{{{A}}}", f'{{"sharepost": "K", "sourceid": "S", {A}}}'),
        ('{"action":"getcancellation"}', '{"sharepost":"K","sourceid":"S","action":"getcancellation"}'),
        (f"{{ {A} }}", f'{{ "sharepost": "K", "sourceid": "S", {A} }}'),
        (f'{{"sharepost": "k1",  {A}}}', f'{{"sourceid": "S",  "sharepost": "k1",  {A}}}'),
        (
            f'{{"sourceid": "<SOURCE_ID>", "sharepost": " <api_key> ", {A}}}',
            f'{{"sourceid": "S", "sharepost": "K", {A}}}',
        ),
        (f"{{\n\t{A}\n}}", f'{{\n\t"sharepost": "K",\n\t"sourceid": "S",\n\t{A}\n}}'),
        (f'[ {{"x": 1, {A}}} ]', f'{{"sharepost": "K", "sourceid": "S", "x": 1, {A}}}'),
    ],
)
def test_filling_edits_only_what_it_fills(text: str, expected: str) -> None:
    (body,), problems = parse_file("f.json", text.encode())
    assert not problems
    assert fill(body, "K", "S")[0] == expected


def test_csv_output_has_one_line_per_body(tmp_path: Path, sandbox: Any) -> None:
    path = write(tmp_path, "calls.json", json.dumps([threshold_body(), threshold_body("NOPE")]))
    result = invoke(["replay", str(path), "--output", "csv", "--curl"], env=sandbox_env(sandbox))
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[0] == "source,line,action,url,http_status,success,trackingid,errors,retryable"
    assert lines[1].split(",")[4:6] == ["200", "true"]
    assert lines[2].endswith(",451 invalid room mapping,no")
    assert result.stderr.count("curl -sS") == 2
