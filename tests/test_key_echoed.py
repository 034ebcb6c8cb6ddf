"""A key the service echoes back, in any spelling and whatever its length, is masked everywhere.

A loopback server answers with the key it received: as a tracking id spelled in `\\uXXXX` escapes,
inside an error message JSON-escaped, and inside another JSON-escaped twice (three layers in the answer's bytes).
Nothing a user or a later reader sees holds it, nor the journal's bytes.
"""

from __future__ import annotations

import json
import sqlite3
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import pytest

from tests.conftest import PINNED_TODAY
from tests.misbehaving import misbehaving
from tests.test_faults import clean_env, run_cli


def _u_escaped(text: str) -> str:
    return "".join(f"\\u{ord(c):04X}" for c in text)


def escaped(text: str, times: int) -> str:
    for _ in range(times):
        text = json.dumps(text)[1:-1]
    return text


def echo(h: BaseHTTPRequestHandler) -> None:
    """HTL001 succeeds with the key as its tracking id; HTL002 and HTL003 are refused with the key in the message,
    JSON-escaped once or twice before the answer escapes it again."""
    from tests.misbehaving import _Handler

    assert isinstance(h, _Handler)
    body = json.loads(h.seen[-1])
    key = body["sharepost"]
    if body["propertyid"] == "HTL001":
        answer = '{"success": true, "trackingid": "' + _u_escaped(key) + '"}'
    else:
        # The message as the answer's bytes spell it: the key JSON-escaped once more than the service meant.
        spelled = escaped(key, 1 if body["propertyid"] == "HTL002" else 3)
        answer = '{"success": false, "errors": [{"code": 452, "message": "bad key ' + spelled + '"}]}'
    data = answer.encode()
    h.send_response(200 if body["propertyid"] == "HTL001" else 400)
    h.send_header("Content-Type", "application/json")
    h.send_header("Content-Length", str(len(data)))
    h.end_headers()
    h.wfile.write(data)


ROWS = "propertyid,roomid,start,end,threshold\n" + "".join(
    f"HTL00{n},DBL,2027-02-01,2027-02-02,{n + 2}\n" for n in (1, 2, 3)
)


@pytest.mark.parametrize("key", ['k3y"with\\quote-0001', "Qz7", 'Sec"ret\\Key-ABC'])
def test_an_echoed_key_is_masked_in_every_output_and_the_journal(tmp_path: Path, key: str) -> None:
    data = tmp_path / "rows.csv"
    data.write_text(ROWS)
    report = tmp_path / "report.csv"
    home = tmp_path / "ari"
    with misbehaving(echo) as (base_url, seen):
        env = clean_env(tmp_path, ARI_BASE_URL=base_url, ARI_API_KEY=key, ARI_SOURCE_ID="cpbA1", ARI_HOME=str(home))
        args = ["threshold", "push", str(data), "--today", PINNED_TODAY, "--retries", "0"]
        as_json = run_cli([*args, "--output", "json", "--report", str(report), "--verbose"], env)
        table = run_cli([*args, "--verbose"], env)
    assert len(seen) == 6
    assert as_json.returncode == 1, as_json.stderr
    rows = json.loads(as_json.stdout)["rows"]
    masked = f"{key[:4]}…{key[-4:]}" if len(key) >= 12 else "………"  # a short key is hidden whole
    assert rows[0]["status"] == "ok" and rows[0]["trackingids"] == [masked]
    assert rows[1]["errors"][0]["message"] == f"bad key {masked}"
    # The service meant the key escaped twice: masked whole, backslashes and all.
    assert rows[2]["errors"][0]["message"] == f"bad key {masked}"
    assert table.returncode == 1 and f"bad key {masked}" in table.stdout
    texts = {
        "json stdout": as_json.stdout, "json stderr (--verbose)": as_json.stderr, "report": report.read_text(),
        "table": table.stdout + table.stderr,
    }  # fmt: skip
    for command in (["history", "show", "1"], ["history", "show", "1", "--body"], ["history", "show", "1", "--body", "-o", "json"]):  # fmt: skip
        shown = run_cli(command, env)
        assert shown.returncode == 0, shown.stderr
        as_written = json.dumps(masked, ensure_ascii=False)[1:-1]  # as a JSON document writes it
        assert masked in shown.stdout or as_written in shown.stdout
        texts[" ".join(command)] = shown.stdout + shown.stderr
    for path in home.iterdir():
        texts[path.name] = path.read_bytes().decode("utf-8", "replace")
    with sqlite3.connect(home / "journal.sqlite3") as db:
        tables = [name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        texts["journal"] = repr([db.execute(f"SELECT * FROM {name}").fetchall() for name in tables])
    spellings = {escaped(key, times) for times in range(5)} | {_u_escaped(key), _u_escaped(key).lower()}
    leaks = [(label, s) for label, text in texts.items() for s in spellings if s in text]
    assert leaks == []
