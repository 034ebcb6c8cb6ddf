"""`ari-cli explain CODE` and `ari-cli errors`: every status and code of the spec's table explained."""

from __future__ import annotations

import csv
import io
import json

import pytest

from ari_cli.wire.errors import ERROR_TABLE, ErrorRow, rows_for
from ari_cli.wire.explain import applies_to
from tests.helpers import invoke

STATUSES = sorted({row.http_status for row in ERROR_TABLE})
CODES = sorted({row.code for row in ERROR_TABLE})


def shows(text: str, row: ErrorRow) -> bool:
    """Whether the table output has the row's line: status, code, message, scope, retry, hint."""
    retry = "yes" if row.retryable else "no"
    cells = [str(row.http_status), str(row.code), row.message, applies_to(row), retry, row.hint]
    return any(all(cell in line for cell in cells) for line in text.splitlines())


@pytest.mark.parametrize("status", STATUSES)
def test_every_status_gives_its_row(status: int) -> None:
    result = invoke(["explain", str(status)])
    assert result.exit_code == 0, result.stderr
    (row,) = [r for r in ERROR_TABLE if r.http_status == status]
    assert shows(result.stdout, row)
    assert ("retrying helps" if row.retryable else "retrying does not help") in result.stdout
    assert "\x1b[" not in result.stdout  # not a terminal: plain text


@pytest.mark.parametrize("code", CODES)
def test_every_body_code_gives_all_its_rows(code: int) -> None:
    result = invoke(["explain", str(code)])
    assert result.exit_code == 0, result.stderr
    rows = [r for r in ERROR_TABLE if r.code == code]
    assert rows and all(shows(result.stdout, row) for row in rows)


@pytest.mark.parametrize(("code", "statuses"), [(453, {423, 426}), (454, {424, 428})])
def test_a_code_two_statuses_share_gives_both_rows(code: int, statuses: set[int]) -> None:
    result = invoke(["explain", str(code), "--output", "json"])
    assert result.exit_code == 0, result.stderr
    (item,) = json.loads(result.stdout)
    assert {r["http_status"] for r in item["rows"]} == statuses
    assert {r["code"] for r in item["rows"]} == {code}
    shared = " and ".join(f"HTTP {s}" for s in sorted(statuses))
    assert any(f"shared by 2 rows, {shared}" in note for note in item["notes"])
    table = invoke(["explain", str(code)]).stdout
    assert all(shows(table, row) for row in rows_for(code))


def test_417_and_440_give_the_same_row() -> None:
    by_status, by_code = (json.loads(invoke(["explain", n, "-o", "json"]).stdout)[0]["rows"] for n in ("417", "440"))
    assert by_status == by_code
    assert by_status[0]["message"] == "invalid source id" and by_status[0]["code"] == 440
    assert "HTTP 417 carries body code 440" in invoke(["explain", "417"]).stdout


def test_429_is_not_rate_limiting_and_does_not_help_to_retry() -> None:
    out = invoke(["explain", "429"]).stdout
    assert "invalid rate plan mapping" in out and "not rate limiting" in out
    assert "'Too Many Requests'; not in this API" in out
    assert "retrying does not help" in out
    assert "Sell Threshold" in out  # it does not apply there: no rateid


def test_404_is_an_invalid_start_date_for_sell_threshold_only() -> None:
    out = invoke(["explain", "404"]).stdout
    assert "invalid start date" in out and "Sell Threshold only" in out
    assert "'Not Found'; not in this API" in out


def test_a_transient_error_says_a_retry_helps() -> None:
    out = invoke(["explain", "503"]).stdout
    assert "service unavailable" in out and "retrying helps" in out


def test_200_is_success() -> None:
    result = invoke(["explain", "200"])
    assert result.exit_code == 0 and "success" in result.stdout


def test_several_codes_at_once() -> None:
    result = invoke(["explain", "417", "454", "--output", "json"])
    assert [item["number"] for item in json.loads(result.stdout)] == [417, 454]


@pytest.mark.parametrize("code", ["999", "abc", "41 7", "0"])
def test_an_unknown_code_exits_2_and_lists_the_known_ones(code: str) -> None:
    result = invoke(["explain", code])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert "known HTTP statuses: 200, 402, 404" in result.stderr and "known body codes: 402" in result.stderr
    assert "453, 454, 471" in result.stderr


def test_errors_prints_the_whole_table() -> None:
    result = invoke(["errors"])
    assert result.exit_code == 0, result.stderr
    assert all(shows(result.stdout, row) for row in ERROR_TABLE)


def test_errors_as_json_and_csv() -> None:
    rows = json.loads(invoke(["errors", "--output", "json"]).stdout)
    assert [(r["http_status"], r["code"], r["message"]) for r in rows] == [
        (r.http_status, r.code, r.message) for r in ERROR_TABLE
    ]
    lines = list(csv.DictReader(io.StringIO(invoke(["errors", "--output", "csv"]).stdout)))
    assert len(lines) == len(ERROR_TABLE)
    assert lines[0]["retryable"] in ("yes", "no")


@pytest.mark.parametrize("status", [401, 403, 413])
def test_a_gateway_answer_is_explained_apart_from_the_table(status: int) -> None:
    result = invoke(["explain", str(status)])
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    assert f"HTTP {status} is not in the spec's error table" in result.stdout
    assert (
        f"From a gateway (not the service: a gateway, proxy or firewall in front of it): HTTP {status}" in result.stdout
    )
    assert "retry helps: no" in result.stdout
    (item,) = json.loads(invoke(["explain", str(status), "-o", "json"]).stdout)
    assert item["rows"] == []  # the spec's table is not stretched to hold it
    assert item["gateway"]["http_status"] == status and item["gateway"]["code"] is None


def test_413_names_the_size_limit_and_what_to_lower() -> None:
    out = invoke(["explain", "413"]).stdout
    assert "request body too large" in out and "the sandbox: 1 MiB" in out and "--batch-size" in out
    lines = list(csv.DictReader(io.StringIO(invoke(["explain", "413", "--output", "csv"]).stdout)))
    assert [(line["http_status"], line["code"], line["retryable"]) for line in lines] == [("413", "", "no")]


def test_429_gives_the_service_row_and_the_gateway_rate_limit_apart() -> None:
    (item,) = json.loads(invoke(["explain", "429", "-o", "json"]).stdout)
    assert [(r["http_status"], r["code"], r["retryable"]) for r in item["rows"]] == [(429, 452, False)]
    assert item["gateway"]["retryable"] is True and "--rate" in item["gateway"]["hint"]
    assert any("whose body is not the service's JSON comes from a gateway" in n for n in item["notes"])


def test_an_unknown_code_lists_the_gateway_answers_too() -> None:
    result = invoke(["explain", "418", "999"])
    assert result.exit_code == 2 and "gateway answers: 401, 403, 413, 429" in result.stderr


@pytest.mark.parametrize(
    ("number", "words"),
    [("446", "ari-cli sends none of the property's other requests in that run"),
     ("442", "ari-cli sends nothing more to that URL in that run"),
     ("415", "ari-cli sends none of the run's other requests"),
     ("451", "splits a request of several records in halves to find which, within a budget per property")],
)  # fmt: skip
def test_explain_says_what_an_answer_stops_in_the_run(number: str, words: str) -> None:
    result = invoke(["explain", number])
    assert result.exit_code == 0, result.stderr
    assert words in " ".join(result.stdout.split())
