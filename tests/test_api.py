"""`ari_cli.push()` and `ari_cli.Sandbox()` from Python: the same run as the command, typed, journaled, quiet."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest

import ari_cli
from ari_cli.app.options import ConnectionOptions
from ari_cli.sandbox import Sandbox
from tests.conftest import PINNED_TODAY
from tests.helpers import invoke

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "samples" / "threshold.csv"
ROWS = [
    {"Property ID": "HTL001", "room": "DBL", "start": PINNED_TODAY, "end": "2027-01-03", "threshold": 4},
    {"propertyid": "HTL002", "roomid": "KNG", "date": "2027-01-05", "threshold": 0},
]


def connect(sb: Sandbox) -> dict[str, Any]:
    return {"base_url": sb.base_url, "source_id": sb.source_id, "api_key": sb.api_key, "today": PINNED_TODAY}


# A script that knows only `import ari_cli`: a sandbox, a file and a list of dicts, what the sandbox holds.
USER_SCRIPT = """
import json, sys, urllib.request
import ari_cli
from ari_cli.app.options import ConnectionOptions

with ari_cli.Sandbox() as sandbox:
    key = {"base_url": sandbox.base_url, "source_id": sandbox.source_id, "api_key": sandbox.api_key}
    from_file = ari_cli.push("threshold", sys.argv[1], **key)
    from_rows = ari_cli.push("maxadv", rows=[
        {"propertyid": "HTL001", "roomid": "DBL", "rateid": "BAR", "date": "today+3", "nights": 30},
    ], **key)
    with urllib.request.urlopen(sandbox.base_url + "/_sandbox/state") as answer:
        state = json.load(answer)
with open(sys.argv[2], "w") as out:
    json.dump({
        "codes": [from_file.exit_code, from_rows.exit_code],
        "statuses": [[row.status for row in run.rows] for run in (from_file, from_rows)],
        "journal": [from_file.journal_run, from_rows.journal_run],
        "state": state,
        "loaded": sorted(m for m in sys.modules if m.startswith("ari_cli")),
    }, out)
"""


def test_a_script_importing_only_ari_cli_pushes_a_file_and_rows_to_the_sandbox(tmp_path: Path) -> None:
    script, out = tmp_path / "push_it.py", tmp_path / "out.json"
    script.write_text(USER_SCRIPT)
    env = {k: v for k, v in os.environ.items() if not k.startswith("ARI_") or k == "ARI_HOME"}
    done = subprocess.run([sys.executable, str(script), str(SAMPLE), str(out)], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120, check=False)  # fmt: skip
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")  # nothing printed unless asked
    found = json.loads(out.read_text())
    assert found["codes"] == [0, 0]
    assert found["statuses"] == [["ok"] * 6, ["ok"]]
    assert found["journal"] == [1, 2]
    state = found["state"]
    assert set(state["threshold"]) == {"HTL001", "HTL002"}  # every property of the sample
    assert set(state["threshold"]["HTL001"]["DBL"].values()) == {"2"}
    assert list(state["maxadv"]["HTL001"]["DBL"]["BAR"].values()) == ["30"]


def test_import_ari_cli_alone_loads_no_api_and_names_every_export(tmp_path: Path) -> None:
    code = "import json, sys, ari_cli; print(json.dumps(sorted(m for m in sys.modules if m.startswith('ari_cli'))))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert json.loads(done.stdout) == ["ari_cli"]
    assert sorted(ari_cli.__all__) == sorted(["__version__", *ari_cli._LAZY])
    for name in ari_cli.__all__:
        assert getattr(ari_cli, name) is not None
    with pytest.raises(AttributeError, match="no attribute 'pushh'"):
        ari_cli.pushh  # type: ignore[attr-defined]  # noqa: B018


def test_rows_are_read_as_a_json_file_is_and_journaled(sb: Sandbox) -> None:
    run = ari_cli.push("threshold", rows=ROWS, **connect(sb))

    assert run.exit_code == 0 and run.ok
    assert run.summary == ari_cli.Summary(rows=2, records=2, requests=2, ok=2, planned=0, failed=0, not_sent=0,
                                          invalid=0, skipped=0)  # fmt: skip
    first = run.rows[0]
    assert (first.source, first.line, first.status, first.propertyid, first.roomid) == ("<rows>", 1, "ok", "HTL001",
                                                                                          "DBL")  # fmt: skip
    assert first.trackingids and first.trackingids[0].startswith("sbx-")
    assert [r.status for r in run.rows] == ["ok", "ok"] and len(run.rows) == 2 and run.rows[-1].line == 2
    assert {r.propertyid for r in run.requests} == {"HTL001", "HTL002"}
    assert all(r.success and r.http_status == 200 and r.lines for r in run.requests)
    assert sb.state()["threshold"]["HTL001"]["DBL"] == {"2027-01-01": "4", "2027-01-02": "4", "2027-01-03": "4"}
    assert sb.state()["threshold"]["HTL002"]["KNG"] == {"2027-01-05": "0"}
    history = invoke(["history", "--output", "json"])
    assert history.exit_code == 0, history.stderr
    runs = json.loads(history.stdout)["runs"]
    assert [(r["id"], r["operation"], r["command"]) for r in runs] == [(run.journal_run, "threshold",
                                                                         "ari_cli.push('threshold')")]  # fmt: skip


def test_files_and_rows_are_one_run_the_rows_read_last(sb: Sandbox) -> None:
    run = ari_cli.push("threshold", [SAMPLE], ROWS, overlaps="last-wins", **connect(sb))
    assert run.exit_code == 0, run.document()
    assert [r.source for r in run.rows] == [str(SAMPLE)] * 6 + ["<rows>"] * 2
    dbl = sb.state()["threshold"]["HTL001"]["DBL"]
    assert (dbl["2027-01-03"], dbl["2027-01-04"]) == ("4", "2")  # the rows paint over the file's range
    assert run.warnings == (f"{SAMPLE}: ignored column notes (not used by threshold)",)


def test_journal_false_records_nothing(sb: Sandbox, journal_home: Path) -> None:
    run = ari_cli.push("threshold", rows=ROWS, journal=False, **connect(sb))
    assert run.exit_code == 0 and run.journal_run is None
    assert not (journal_home / "journal.sqlite3").exists()


def test_invalid_rows_return_a_run_with_exit_code_3_and_send_nothing(sb: Sandbox) -> None:
    rows = [*ROWS, {"propertyid": "HTL001", "roomid": "TWN", "date": "2027-01-02", "threshold": "lots"}]
    run = ari_cli.push("threshold", rows=rows, **connect(sb))

    assert run.exit_code == 3 and not run.ok
    assert [r.status for r in run.rows] == ["skipped", "skipped", "invalid"]
    assert run.rows[2].errors == (
        ari_cli.Error(None, "<rows> line 3, threshold: 'lots' is not a whole number 0-999 or n/a to clear", None),
    )
    assert sb.received == [] and run.requests == ()
    with pytest.raises(ari_cli.RunFailed) as failed:
        run.raise_for_status()
    assert failed.value.exit_code == 3 and failed.value.run is run
    assert str(failed.value) == "threshold push: 0 failed, 0 not sent, 1 invalid of 3 rows"
    assert isinstance(failed.value, ari_cli.AriError)

    valid_sent = ari_cli.push("threshold", rows=rows, skip_invalid=True, **connect(sb))
    assert valid_sent.exit_code == 1 and valid_sent.summary.ok == 2 and valid_sent.summary.invalid == 1


def test_rows_failing_at_the_service_give_exit_code_1(sb: Sandbox) -> None:
    rows = [{"propertyid": "HTL001", "roomid": "NOPE", "date": "2027-01-02", "threshold": 1}]
    run = ari_cli.push("threshold", rows=rows, **connect(sb))
    assert run.exit_code == 1
    row = run.rows[0]
    assert row.status == "failed" and row.errors[0].code == 451 and row.errors[0].http_status is not None
    assert run.requests[0].success is False and run.requests[0].errors == row.errors
    with pytest.raises(ari_cli.RunFailed) as failed:
        run.raise_for_status()
    assert failed.value.exit_code == 1
    assert ari_cli.push("threshold", rows=ROWS, **connect(sb)).raise_for_status().ok


def test_a_dry_run_plans_without_configuration_or_journal(journal_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ARI_API_KEY", raising=False)
    run = ari_cli.push("threshold", SAMPLE, dry_run=True)
    assert run.exit_code == 0 and run.dry_run and run.journal_run is None
    assert {r.status for r in run.rows} == {"planned"}
    assert [r.success for r in run.requests] == [None, None]
    assert run.requests[0].body["sharepost"] == "<API_KEY>"
    assert not (journal_home / "journal.sqlite3").exists()


def test_nothing_is_printed_unless_output_asks(sb: Sandbox, capfd: pytest.CaptureFixture[str]) -> None:
    run = ari_cli.push("threshold", SAMPLE, **connect(sb))
    assert capfd.readouterr() == ("", "")

    shown = ari_cli.push("threshold", SAMPLE, output="json", **connect(sb))
    out, err = capfd.readouterr()
    assert json.loads(out) == shown.document()
    assert shown.document()["summary"] == {"rows": 6, "records": 6, "requests": 2, "ok": 6, "planned": 0,
                                           "failed": 0, "not sent": 0, "invalid": 0, "skipped": 0}  # fmt: skip
    assert "ignored column notes" in err
    assert run.document()["rows"][0]["status"] == "ok"


def test_the_report_is_written_without_output(sb: Sandbox, tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    report = tmp_path / "report.json"
    run = ari_cli.push("threshold", rows=ROWS, report=report, **connect(sb))
    assert json.loads(report.read_text()) == run.document()
    assert capfd.readouterr() == ("", "")


def test_the_key_is_never_shown(sb: Sandbox) -> None:
    run = ari_cli.push("threshold", rows=ROWS, **connect(sb))
    shown = repr(run) + repr(list(run.rows)) + repr(run.requests) + json.dumps(run.document())
    assert sb.api_key not in shown and "sand…0001" in shown
    options = ConnectionOptions(api_key=sb.api_key)
    assert sb.api_key not in repr(options) and "api_key='<masked>'" in repr(options)


@pytest.mark.parametrize(
    ("call", "kind", "message"),
    [
        (dict(files=["missing.csv"]), ari_cli.InputError, "missing.csv"),
        (
            dict(rows=[{"propertyid": "H", "roomid": "D", "date": "2027-01-02", "treshold": 1}]),
            ari_cli.InputError,
            '<rows>: key "treshold" is not known; did you mean "threshold"?',
        ),
        (
            dict(rows=[["HTL001", "DBL"]]),
            ari_cli.InputError,
            "<rows> line 1: expected an object (a row or a request body), found a list",
        ),
        (dict(rows=[("HTL001", "DBL")]), ari_cli.InputError, "found a tuple"),
        (dict(rows=[{1: "HTL001"}]), ari_cli.InputError, "<rows> line 1: the key 1 is not text"),
        (
            dict(rows=[{"propertyid": "H", "roomid": "D", "date": "2027-01-02", "threshold": {"n": 1}}]),
            ari_cli.InputError,
            '<rows> line 1: "threshold" holds an object',
        ),
        (dict(rows=[]), ari_cli.InputError, "<rows> has no rows"),
        (dict(rows={"propertyid": "H"}), ari_cli.UsageProblem, "give a list of rows"),
        (dict(), ari_cli.UsageProblem, "nothing to push"),
        (dict(files=[{"propertyid": "H"}]), ari_cli.UsageProblem, "files: dict {'propertyid': 'H'} is not a path"),
        (
            dict(rows=ROWS, operation="thresholds"),
            ari_cli.UsageProblem,
            "operation='thresholds': use one of 'threshold', 'policy', 'maxadv'",
        ),
        (dict(rows=ROWS, batch_size=0), ari_cli.UsageProblem, "batch_size=0: give a whole number, 1 to 1000"),
        (dict(rows=ROWS, timeout=float("inf")), ari_cli.UsageProblem, "timeout=inf: give a number, 0.1 to 600"),
        (dict(rows=ROWS, data_form="dict"), ari_cli.UsageProblem, 'data_form=\'dict\': give "list" or "object"'),
        (dict(rows=ROWS, overlaps="merge"), ari_cli.UsageProblem, "overlaps='merge': use one of 'error', 'last-wins'"),
        (dict(rows=ROWS, today="01/02/2027"), ari_cli.UsageProblem, "today='01/02/2027': give a date"),
        (dict(rows=ROWS, header_row=0), ari_cli.UsageProblem, "header_row=0"),
        (dict(rows=ROWS, verbose=True), ari_cli.UsageProblem, "give output='table', 'json' or 'csv' too"),
        (dict(rows=ROWS, output="yaml"), ari_cli.UsageProblem, "output='yaml'"),
        (dict(rows=ROWS, path_segment="{acton}"), ari_cli.UsageProblem, "unknown placeholder {acton}"),
        (dict(rows=ROWS, api_key="k", api_key_file="f"), ari_cli.UsageProblem, "api_key or api_key_file"),
        (dict(rows=ROWS, profile="nope"), ari_cli.ConfigError, "no profile 'nope'"),
        (dict(rows=ROWS, base_url=None), ari_cli.ConfigError, "no base URL configured"),
    ],
)
def test_what_stops_a_run_raises_one_family_with_its_exit_code(
    sb: Sandbox, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, call: dict[str, Any], kind: type, message: str
) -> None:
    monkeypatch.chdir(tmp_path)
    for name in ("ARI_BASE_URL", "ARI_API_KEY", "ARI_SOURCE_ID", "ARI_PROFILE", "ARI_CONFIG"):
        monkeypatch.delenv(name, raising=False)
    arguments = {**connect(sb), **call}
    operation = arguments.pop("operation", "threshold")
    with pytest.raises(ari_cli.AriError) as raised:
        ari_cli.push(operation, **arguments)
    assert type(raised.value) is kind
    assert message in raised.value.message
    assert raised.value.exit_code == {ari_cli.InputError: 3, ari_cli.UsageProblem: 2, ari_cli.ConfigError: 4}[kind]
    assert sb.received == []


def test_a_push_from_async_code_runs_beside_its_event_loop(sb: Sandbox) -> None:
    async def main() -> ari_cli.Run:
        await asyncio.sleep(0)
        return ari_cli.push("threshold", rows=ROWS, **connect(sb))

    assert asyncio.run(main()).exit_code == 0
    with pytest.raises(ari_cli.UsageProblem):
        asyncio.run(_failing())


async def _failing() -> None:
    ari_cli.push("threshold", rows=ROWS, batch_size=-1)


def test_the_built_in_sandbox_option_pushes_to_an_emulator_of_its_own() -> None:
    run = ari_cli.push("threshold", SAMPLE, sandbox=True)
    assert run.exit_code == 0 and run.summary.ok == 6


INTERRUPTED_SCRIPT = """
import json, sys
import ari_cli
from ari_cli.app.options import ConnectionOptions

rows = [{"propertyid": "HTL001", "roomid": "DBL", "date": f"2027-01-{day:02}", "threshold": day % 2}
        for day in range(1, 31)]
try:
    ari_cli.push("threshold", rows=rows, base_url=sys.argv[1], source_id="cpbA1", api_key=sys.argv[2],
                 today="2027-01-01", merge=False, batch_size=1, concurrency=1)
except ari_cli.Interrupted as stopped:
    summary = stopped.run.summary
    json.dump({"code": stopped.exit_code, "message": stopped.message, "ok": summary.ok,
               "not_sent": summary.not_sent, "journal": stopped.run.journal_run}, sys.stdout)
"""


def test_an_interrupt_while_sending_raises_interrupted_with_the_run(tmp_path: Path, journal_home: Path) -> None:
    script = tmp_path / "interrupted.py"
    script.write_text(INTERRUPTED_SCRIPT)
    with Sandbox(today=PINNED_TODAY, latency=200) as slow:
        process = subprocess.Popen([sys.executable, str(script), slow.base_url, slow.api_key],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)  # fmt: skip
        deadline = time.monotonic() + 60
        while len(slow.received) < 2 and time.monotonic() < deadline and process.poll() is None:
            time.sleep(0.05)
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=60)
    assert process.returncode == 0, err
    assert "Traceback" not in err
    found = json.loads(out)
    assert found["code"] == 130 and "interrupted" in found["message"]
    assert found["ok"] >= 1 and found["not_sent"] >= 1 and found["journal"] == 1


# A user's script, type-checked with --strict: what the API promises is what mypy sees.
TYPED_SCRIPT = """
from pathlib import Path

import ari_cli
from ari_cli.app.options import ConnectionOptions


def nightly(files: list[Path]) -> int:
    with ari_cli.Sandbox() as sandbox:
        try:
            run: ari_cli.Run = ari_cli.push(
                "threshold", files, [{"propertyid": "HTL001"}], base_url=sandbox.base_url,
                source_id=sandbox.source_id, api_key=sandbox.api_key, batch_size=10, dry_run=True,
            )
        except ari_cli.AriError as problem:
            print(problem.message, problem.hint)
            return int(problem.exit_code)
    failed: list[ari_cli.Row] = [row for row in run.rows if row.status == ari_cli.Status.FAILED]
    ids: list[str] = [tracking for request in run.requests if (tracking := request.trackingid) is not None]
    total: int = run.summary.rows + run.summary.ok
    print(failed, ids, total, run.document()["summary"], run.warnings, run.journal_run)
    return int(run.raise_for_status().exit_code)
"""
MISTAKES = """
import ari_cli
from ari_cli.app.options import ConnectionOptions

run = ari_cli.push("threshold", rows=[{}], batch_size="10")
name: int = run.rows[0].source
ari_cli.push("threshold", "a.csv", None, True)
"""


def test_mypy_strict_accepts_a_users_script_and_catches_its_mistakes(tmp_path: Path) -> None:
    (tmp_path / "nightly.py").write_text(textwrap.dedent(TYPED_SCRIPT))
    (tmp_path / "mistakes.py").write_text(MISTAKES)
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--cache-dir", os.devnull,
         "nightly.py", "mistakes.py"],
        cwd=tmp_path, capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    errors = [line for line in done.stdout.splitlines() if ": error:" in line]
    assert [line.split(":")[:2] for line in errors] == [["mistakes.py", "5"], ["mistakes.py", "6"],
                                                        ["mistakes.py", "7"]], done.stdout  # fmt: skip


def test_a_push_that_stops_prints_its_document_only_under_json(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    """`output="json"` gets one document even when the push stops before it has rows (no boundary writes it for
    the Python API); any other output prints nothing on stdout."""
    missing = tmp_path / "missing.csv"
    with pytest.raises(ari_cli.InputError):
        ari_cli.push("threshold", missing, dry_run=True, output="json")
    out, _ = capfd.readouterr()
    document = json.loads(out)
    assert document["operation"] == "threshold" and document["dry_run"] is True
    assert document["error"]["kind"] == "input" and "missing.csv" in document["error"]["message"]
    assert document["rows"] == [] and document["requests"] == []
    with pytest.raises(ari_cli.InputError):
        ari_cli.push("threshold", missing, dry_run=True, output="csv")
    assert capfd.readouterr().out == ""


TEXT_KEYWORDS = ("encoding", "date_format", "sheet", "base_url", "source_id", "profile", "path_segment",
                 "rate_per_property")  # fmt: skip
PATH_KEYWORDS = ("config", "policies", "api_key_file", "report")


@pytest.mark.parametrize("keyword", TEXT_KEYWORDS + PATH_KEYWORDS)
def test_a_keyword_of_the_wrong_type_is_a_usage_problem_naming_it(keyword: str) -> None:
    # An integrator's mistake is said as the command line would say it: an AriError (exit 2) naming the keyword,
    # never a TypeError from inside the tool, nor a number quietly taken as text.
    with pytest.raises(ari_cli.UsageProblem) as raised:
        ari_cli.push("threshold", SAMPLE, dry_run=True, sandbox=True, **{keyword: 5})
    assert raised.value.exit_code == 2
    assert raised.value.message.startswith(f"{keyword}=5: give ")


@pytest.mark.parametrize("flag", ["dry_run", "clear_unknown", "force", "journal"])
def test_revert_takes_its_on_off_arguments_as_true_or_false_only(flag: str) -> None:
    # A truthy "no" would force a revert over a later run's values: refused before anything is read.
    with pytest.raises(ari_cli.UsageProblem, match=f"{flag}='no': give True or False"):
        ari_cli.revert(1, **{flag: "no"})


@pytest.mark.parametrize("keyword", ["config", "api_key_file", "path_segment", "profile"])
def test_revert_refuses_a_keyword_of_the_wrong_type(keyword: str) -> None:
    with pytest.raises(ari_cli.UsageProblem, match=f"{keyword}=5: give "):
        ari_cli.revert(1, **{keyword: 5})
