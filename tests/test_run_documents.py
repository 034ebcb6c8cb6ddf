"""One document whatever stops a run, and reports that are safe: checked before sending, written atomically."""

from __future__ import annotations

import datetime as dt
import http.server
import json
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from tests.helpers import invoke, sandbox_env

SCHEMA = json.loads((Path(__file__).parent / "output.schema.json").read_text())
TODAY = dt.date.today()


def day(offset: int) -> str:
    return (TODAY + dt.timedelta(days=offset)).isoformat()


def rooms(tmp_path: Path, *rows: str, name: str = "rooms.csv") -> Path:
    path = tmp_path / name
    path.write_text("propertyid,roomid,start,end,threshold\n" + "".join(f"{r}\n" for r in rows))
    return path


def the_document(stdout: str) -> dict[str, Any]:
    """stdout holds exactly one JSON document, of the contract's shape."""
    document: dict[str, Any] = json.loads(stdout)
    jsonschema.validate(document, SCHEMA)
    return document


# --- one JSON document, always ---------------------------------------------------------------------


def test_a_file_that_cannot_be_read_gives_one_json_document_with_the_error(tmp_path: Path, sandbox: Any) -> None:
    report = tmp_path / "r.json"
    missing = tmp_path / "nope.csv"
    result = invoke(
        ["threshold", "push", str(missing), "-o", "json", "--report", str(report)], env=sandbox_env(sandbox)
    )
    assert result.exit_code == 3
    document = the_document(result.stdout)
    assert document["error"]["kind"] == "input" and "nope.csv" in document["error"]["message"]
    assert document["rows"] == [] and document["requests"] == [] and document["summary"]["rows"] == 0
    assert "error:" in result.stderr and "nope.csv" in result.stderr
    assert json.loads(report.read_text()) == document
    assert sandbox.received == []


def test_a_configuration_error_gives_one_json_document_with_its_hint(tmp_path: Path) -> None:
    path = rooms(tmp_path, f"HTL001,DBL,{day(1)},{day(2)},2")
    report = tmp_path / "r.csv"
    result = invoke(["threshold", "push", str(path), "--output", "json", "--report", str(report)])
    assert result.exit_code == 4
    error = the_document(result.stdout)["error"]
    assert error["kind"] == "config" and "base URL" in error["message"] and "--sandbox" in error["hint"]
    assert result.stderr.startswith("error: no base URL")
    # A CSV report of a run without rows is its header: a script reading it finds no rows, not no file.
    assert report.read_text() == "source,line,status,trackingids,errors,note,propertyid,roomid,dates,value\n"


def test_a_usage_problem_found_after_parsing_gives_one_json_document(tmp_path: Path, sandbox: Any) -> None:
    path = rooms(tmp_path, f"HTL001,DBL,{day(1)},{day(2)},2")
    result = invoke(["threshold", "push", str(path), "-o", "json", "--report", str(tmp_path / "r.txt")])
    assert result.exit_code == 2
    assert the_document(result.stdout)["error"]["kind"] == "usage"
    assert "error: --report" in result.stderr and ".csv, .json or .html" in result.stderr
    assert not (tmp_path / "r.txt").exists()


def test_a_table_run_that_stops_writes_nothing_on_stdout(tmp_path: Path) -> None:
    path = rooms(tmp_path, f"HTL001,DBL,{day(1)},{day(2)},2")
    result = invoke(["threshold", "push", str(path)])
    assert result.exit_code == 4 and result.stdout == "" and "error: no base URL" in result.stderr


# --- reports are safe ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("where", "said"),
    [
        ("missing/r.csv", "does not exist"),
        ("folder", "is a folder"),
        ("rooms.csv/r.csv", "does not exist"),  # a file where a folder should be
    ],
)
def test_a_report_that_cannot_be_written_is_refused_before_sending(
    tmp_path: Path, sandbox: Any, where: str, said: str
) -> None:
    path = rooms(tmp_path, f"HTL001,DBL,{day(1)},{day(2)},2")
    (tmp_path / "folder").mkdir()
    result = invoke(["threshold", "push", str(path), "--report", str(tmp_path / where)], env=sandbox_env(sandbox))
    assert result.exit_code == 2, result.stderr
    assert result.stdout == ""
    assert f"error: --report {tmp_path / where}" in result.stderr and said in result.stderr
    assert "hint:" in result.stderr and "internal error" not in result.stderr
    assert sandbox.received == []


def test_a_report_naming_an_input_file_is_refused_and_the_file_kept(tmp_path: Path, sandbox: Any) -> None:
    path = rooms(tmp_path, f"HTL001,DBL,{day(1)},{day(2)},2")
    before = path.read_text()
    other = tmp_path / "other.csv"
    other.write_text(before)
    # Named differently (a relative path) but the same file.
    result = invoke(
        ["threshold", "push", str(other), str(path), "--report", str(tmp_path / "." / "rooms.csv")],
        env=sandbox_env(sandbox),
    )
    assert result.exit_code == 2
    assert "is one of the input files" in result.stderr and "choose another path" in result.stderr
    assert path.read_text() == before and sandbox.received == []


def test_a_report_is_written_whole_and_replaces_the_old_one(tmp_path: Path, sandbox: Any) -> None:
    path = rooms(tmp_path, f"HTL001,DBL,{day(1)},{day(2)},2")
    report = tmp_path / "r.csv"
    report.write_text("an old report\n")
    report.chmod(0o640)
    result = invoke(["threshold", "push", str(path), "--report", str(report)], env=sandbox_env(sandbox))
    assert result.exit_code == 0, result.stderr
    lines = report.read_text().splitlines()
    assert lines[0] == "source,line,status,trackingids,errors,note,propertyid,roomid,dates,value"
    assert lines[1].startswith(f"{path},2,ok,sbx-")
    assert report.stat().st_mode & 0o777 == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.csv", "rooms.csv"]  # no temporary file left


class _RemovesTheReportFolder(http.server.BaseHTTPRequestHandler):
    """Accepts every push, and removes the report's folder while answering: a disk gone mid-run."""

    folder: Path

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers["content-length"]))
        shutil.rmtree(self.folder, ignore_errors=True)
        body = json.dumps({"success": True, "trackingid": "t-1", "errors": []}).encode()
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *_: object) -> None:
        pass


@pytest.fixture
def report_folder_remover(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    folder = tmp_path / "reports"
    folder.mkdir()
    handler = type("Handler", (_RemovesTheReportFolder,), {"folder": folder})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", folder
    finally:
        server.shutdown()
        server.server_close()


def test_a_report_that_fails_after_sending_is_a_clear_error_and_the_run_keeps_its_code(
    tmp_path: Path, report_folder_remover: tuple[str, Path]
) -> None:
    base_url, folder = report_folder_remover
    path = rooms(tmp_path, f"HTL001,DBL,{day(1)},{day(2)},2")
    env = {"ARI_BASE_URL": base_url, "ARI_API_KEY": "key-0001", "ARI_SOURCE_ID": "cpb01"}
    result = invoke(["threshold", "push", str(path), "-o", "json", "--report", str(folder / "r.json")], env=env)
    assert result.exit_code == 0
    assert the_document(result.stdout)["rows"][0]["status"] == "ok"
    assert f"error: the report {folder / 'r.json'} could not be written" in result.stderr
    assert "internal error" not in result.stderr
