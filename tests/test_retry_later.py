"""`retry` of a killed run never puts its older values over values a later run got acknowledged."""

from __future__ import annotations

import json
import signal
from pathlib import Path

from ari_cli.sandbox import Sandbox
from tests.helpers import invoke, sandbox_env
from tests.test_journal import ROOMS, TODAY, _push_process, _wait_for_acks, daily_file, states


def test_a_retry_leaves_out_dates_a_later_run_got_acknowledged_and_force_sends_them(
    slow: Sandbox, tmp_path: Path, journal_home: Path
) -> None:
    old = daily_file(tmp_path / "daily.csv")
    args = ["threshold", "push", "daily.csv", *TODAY, "--no-merge", "--batch-size", "1", "--concurrency", "2"]
    process = _push_process(args, slow, tmp_path)
    _wait_for_acks(journal_home, 1, 8, process)
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=30)
    acknowledged = states(journal_home, 1).get("ok", 0)
    assert acknowledged < 40
    # A later push sets new values for two rooms (DBL, TWN) on every date, and is acknowledged.
    newer_rooms = ("DBL", "TWN")
    bump = {(room, i): 7 + ROOMS.index(room) for room in newer_rooms for i in range(10)}
    new = daily_file(tmp_path / "newer.csv", bump=bump)
    newer = {room: new["HTL001"][room] for room in newer_rooms}
    lines = ["propertyid,roomid,date,threshold"] + [
        f"HTL001,{room},{day},{value}" for room, days in newer.items() for day, value in days.items()
    ]
    (tmp_path / "newer.csv").write_text("\n".join(lines) + "\n")
    later = invoke(["threshold", "push", str(tmp_path / "newer.csv"), *TODAY, "--no-merge"], env=sandbox_env(slow))
    assert later.exit_code == 0, later.output
    received = len(slow.received)

    result = invoke(["retry", "1", "--output", "json"], env=sandbox_env(slow))

    assert result.exit_code == 0, result.output
    assert "could not be written" not in result.stderr, result.stderr
    assert "whose value run 2 got acknowledged after run 1 started" in result.stderr
    assert "--force sends it anyway" in result.stderr
    sent = [record for r in slow.received[received:] for record in r.json["data"]]
    assert sent and all(r["roomid"] not in newer_rooms for r in sent)
    state = slow.state()["threshold"]["HTL001"]
    assert {room: state[room] for room in newer_rooms} == newer
    assert {room: state[room] for room in ROOMS if room not in newer_rooms} == {
        room: old["HTL001"][room] for room in ROOMS if room not in newer_rooms}  # fmt: skip
    document = json.loads(result.stdout)
    skipped = [r for r in document["rows"] if r["status"] == "skipped"]
    assert skipped and all("run 2 got later values acknowledged" in r["note"] for r in skipped)
    # history find says the later value is in force, as the service holds it.
    found = json.loads(invoke(["history", "find", "--property", "HTL001", "--room", "DBL", "--date",
                               "2027-01-03", "-o", "json"]).stdout)  # fmt: skip
    in_force = [h for h in found["hits"] if h["in_force"]]
    assert [(h["run"]["id"], h["record"]["value"]) for h in in_force] == [(2, newer["DBL"]["2027-01-03"])]

    shown = json.loads(invoke(["history", "show", "3", "-o", "json"]).stdout)
    assert {r["state"] for r in shown["requests"]} >= {"superseded"}
    left_out = [r for r in shown["requests"] if r["state"] == "superseded"]

    # Asked for, the older values left out go anyway: exactly those.
    forced_from = len(slow.received)
    forced = invoke(["retry", "1", "--force", "-o", "json"], env=sandbox_env(slow))
    assert forced.exit_code == 0, forced.output
    assert "run 1 was retried already (1 -> 3)" in forced.stderr and "left out" not in forced.stderr
    resent = [record for r in slow.received[forced_from:] for record in r.json["data"]]
    assert sorted(json.dumps(r, sort_keys=True) for r in resent) == sorted(
        json.dumps(record, sort_keys=True) for r in left_out for record in r["body"]["data"])  # fmt: skip
    assert resent and {r["roomid"] for r in resent} <= set(newer_rooms)
    state = slow.state()["threshold"]["HTL001"]
    for record in resent:
        assert (
            state[record["roomid"]][record["startdateymd"]] == old["HTL001"][record["roomid"]][record["startdateymd"]]
        )
