"""`--curl`: the printed commands, run by real bash and real curl, get the answer the tool got."""

from __future__ import annotations

import datetime as dt
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from ari_cli.render.push.curl import for_request, shell_word
from ari_cli.send.exchange import encode
from tests.helpers import invoke, sandbox_env

pytestmark = pytest.mark.skipif(not (shutil.which("bash") and shutil.which("curl")), reason="needs bash and curl")

TODAY = dt.date.today()
COMMAND = re.compile(r"^curl .*?(?=\n\n|\Z)", re.S | re.M)


def day(offset: int) -> str:
    return (TODAY + dt.timedelta(days=offset)).isoformat()


def bash(script: str, **env: str) -> str:
    """Run `script` in bash with only PATH and `env`; its stdout."""
    # Bytes, not text mode: universal newlines would turn a \r the command kept into \n.
    done = subprocess.run(
        ["bash", "-c", script], env={"PATH": os.environ["PATH"], **env}, capture_output=True, timeout=30
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.decode("utf-8")


def commands(text: str) -> list[str]:
    found = COMMAND.findall(text)
    assert found, text
    return found


def without_tracking(answer: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in answer.items() if k != "trackingid"}


TRICKY = [
    "plain",
    "it's",
    '"double" and \\backslash\\',
    "$HOME ${PATH} $(echo no) `echo no` !! !$",
    "new\nline\ttab\rreturn",
    "ünïcødé ✓ 日本",
    "'",
    "",
]


@pytest.mark.parametrize("text", TRICKY)
def test_a_shell_word_is_taken_literally_by_bash(text: str) -> None:
    assert bash(f"printf %s {shell_word(text, {})}") == text


def test_variables_are_expanded_and_nothing_else() -> None:
    word = shell_word("a KEY b '$KEY' KEYKEY", {"KEY": "SECRET_VAR"})
    assert bash(f"printf %s {word}", SECRET_VAR="x'y$z") == "a x'y$z b '$x'y$z' x'y$zx'y$z"


def test_the_key_is_left_to_the_shell_and_the_body_arrives_byte_for_byte(sandbox: Any) -> None:
    body = {"sharepost": sandbox.api_key, "sourceid": "cpbA1", "propertyid": "HTL001", "notes": TRICKY}
    content = encode(body)
    command = for_request(f"{sandbox.base_url}/v2/push_ari/cpbA1/sellthresholdupdate", content)
    assert sandbox.api_key not in command and '"$ARI_API_KEY"' in command
    answer = json.loads(bash(command, ARI_API_KEY=sandbox.api_key))
    assert answer["success"] is False  # no action: the service's 402
    received = sandbox.received[-1]
    assert received.body == content
    assert received.headers["content-type"] == "application/json" and received.headers["accept"] == "application/json"


def threshold_file(tmp_path: Path, *rows: str) -> Path:
    path = tmp_path / "rooms.csv"
    path.write_text("propertyid,roomid,start,end,threshold\n" + "\n".join(rows) + "\n", encoding="utf-8")
    return path


def test_dry_run_curl_pushes_what_the_tool_pushes(tmp_path: Path, sandbox: Any) -> None:
    path = threshold_file(tmp_path, f"HTL001,DBL,{day(1)},{day(10)},3", f"HTL002,KNG,{day(2)},{day(4)},n/a",
                          f"HTL002,DBL,{day(1)},{day(3)},0")  # fmt: skip
    env = sandbox_env(sandbox)
    shown = invoke(["threshold", "push", str(path), "--curl", "--dry-run"], env=env)
    assert shown.exit_code == 0, shown.stderr
    assert sandbox.received == []  # a dry run sends nothing
    assert shown.stdout.index("curl ") < shown.stdout.index("rows:")  # before the table
    assert sandbox.api_key not in shown.stdout + shown.stderr
    by_curl = [json.loads(bash(c, ARI_API_KEY=sandbox.api_key)) for c in commands(shown.stdout)]
    assert len(by_curl) == 2 and all(a["success"] is True and a["trackingid"] for a in by_curl)
    state_by_curl = sandbox.state()
    assert state_by_curl["threshold"]["HTL001"]["DBL"][day(1)] == "3"

    sandbox.reset()
    pushed = invoke(["threshold", "push", str(path), "--output", "json"], env=env)
    assert pushed.exit_code == 0, pushed.stderr
    assert sandbox.state() == state_by_curl
    by_tool = [r.response_json for r in sandbox.received]
    assert [without_tracking(a) for a in by_tool] == [without_tracking(a) for a in by_curl]


def test_dry_run_curl_of_a_failing_body_gets_the_same_error(tmp_path: Path, sandbox: Any) -> None:
    path = threshold_file(tmp_path, f"HTL001,NOPE,{day(1)},{day(10)},3")
    env = sandbox_env(sandbox)
    shown = invoke(["threshold", "push", str(path), "--curl", "--dry-run"], env=env)
    (command,) = commands(shown.stdout)
    by_curl = json.loads(bash(command, ARI_API_KEY=sandbox.api_key))
    pushed = invoke(["threshold", "push", str(path), "--output", "json"], env=env)
    assert pushed.exit_code == 1
    (request,) = json.loads(pushed.stdout)["requests"]
    assert by_curl["success"] is False
    assert by_curl["errors"] == [{"code": e["code"], "message": e["message"]} for e in request["errors"]]
    assert by_curl["errors"] == [{"code": 451, "message": "invalid room mapping"}]


def test_without_configuration_the_command_reads_the_ari_variables(tmp_path: Path, sandbox: Any) -> None:
    path = threshold_file(tmp_path, f"HTL001,DBL,{day(1)},{day(2)},4")
    shown = invoke(["threshold", "push", str(path), "--curl", "--dry-run"])
    assert shown.exit_code == 0, shown.stderr
    (command,) = commands(shown.stdout)
    assert '"$ARI_BASE_URL"' in command and '"$ARI_SOURCE_ID"' in command and '"$ARI_API_KEY"' in command
    answer = json.loads(bash(command, **sandbox_env(sandbox)))
    assert answer["success"] is True
    assert sandbox.state()["threshold"]["HTL001"]["DBL"] == {day(1): "4", day(2): "4"}


def test_with_json_output_the_commands_go_to_stderr_and_stdout_stays_one_document(tmp_path: Path, sandbox: Any) -> None:
    path = threshold_file(tmp_path, f"HTL001,DBL,{day(1)},{day(2)},4")
    result = invoke(["threshold", "push", str(path), "--curl", "--output", "json"], env=sandbox_env(sandbox))
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["summary"]["ok"] == 1
    (command,) = commands(result.stderr)
    assert json.loads(bash(command, ARI_API_KEY=sandbox.api_key))["success"] is True


def test_a_sent_run_prints_one_command_per_request_split_halves_included(tmp_path: Path, sandbox: Any) -> None:
    path = threshold_file(tmp_path, f"HTL001,DBL,{day(1)},{day(2)},4", f"HTL001,NOPE,{day(1)},{day(2)},4")
    result = invoke(["threshold", "push", str(path), "--curl", "--output", "csv"], env=sandbox_env(sandbox))
    assert result.exit_code == 1
    assert len(commands(result.stderr)) == len(sandbox.received) == 3  # the pair, then each half
    assert result.stdout.startswith("source,line,status")


def replay_file(tmp_path: Path) -> Path:
    bodies = [
        {"propertyid": "HTL001", "action": "sellthresholdupdate",
         "data": [{"startdateymd": day(1), "enddateymd": day(5), "roomid": "DBL", "threshold": "2"}]},
        {"sharepost": "<API_KEY>", "sourceid": "<source_id>", "propertyid": "HTL001", "action": "setadvbookingcondrq",
         "data": {"startdateymd": day(1), "enddateymd": day(5), "roomid": "DBL", "rateid": "NOPE",
                  "minmaxmessagetype": "maxadvbooking", "time": "30"}},
        {"propertyid": "HTL001", "action": "sellthresholdupdate", "note": "it's $HOME `x` \\ \"q\""},
    ]  # fmt: skip
    path = tmp_path / "calls.json"
    path.write_text(json.dumps(bodies, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("fill", [True, False])
def test_replay_curl_gets_the_answers_replay_got(tmp_path: Path, sandbox: Any, fill: bool) -> None:
    path = replay_file(tmp_path)
    args = ["replay", str(path), "--curl", "--output", "json"] + ([] if fill else ["--no-fill"])
    result = invoke(args, env=sandbox_env(sandbox))
    assert result.exit_code == 1  # two of the three bodies fail
    by_tool = [json.loads(b["response"]) for b in json.loads(result.stdout)["bodies"]]
    sent = [r.body for r in sandbox.received]
    sandbox.reset()
    found = commands(result.stderr)
    assert len(found) == 3
    by_curl = [json.loads(bash(c, ARI_API_KEY=sandbox.api_key)) for c in found]
    assert [without_tracking(a) for a in by_curl] == [without_tracking(a) for a in by_tool]
    assert [r.body for r in sandbox.received] == sent  # byte for byte what replay sent
    codes = [[e["code"] for e in a.get("errors", [])] for a in by_curl]
    assert codes == ([[], [452], [402]] if fill else [[415], [415], [415]])


def test_replay_curl_dry_run_is_a_script_bash_runs(tmp_path: Path, sandbox: Any) -> None:
    """`replay calls.json --curl --dry-run > calls.sh; bash calls.sh`, as the README promises."""
    path = replay_file(tmp_path)
    shown = invoke(["replay", str(path), "--curl", "--dry-run"], env=sandbox_env(sandbox))
    assert shown.exit_code == 0, shown.stderr
    assert sandbox.received == []
    # Only comments and commands on stdout; the report went to stderr.
    assert "3 bodies planned; nothing was sent (dry run)" in shown.stderr
    assert "bodies planned" not in shown.stdout and "POST " not in shown.stdout
    script = tmp_path / "calls.sh"
    script.write_text(shown.stdout, encoding="utf-8")
    done = subprocess.run(["bash", str(script)], env={"PATH": os.environ["PATH"], "ARI_API_KEY": sandbox.api_key},
                          capture_output=True, timeout=30)  # fmt: skip
    assert done.returncode == 0, done.stderr
    answers = done.stdout.decode("utf-8").splitlines()  # one answer per line
    assert len(answers) == 3 and len(sandbox.received) == 3
    codes = [[e["code"] for e in json.loads(a).get("errors", [])] for a in answers]
    assert codes == [[], [452], [402]]
    assert done.stdout.endswith(b"}\n")


# --- issue 33: support's curl is the partner's call ----------------------------------------------------

PARTNER_KEY = "partner-own-key-0042"  # not the sandbox's: the partner got 415 with it
ARI_CLI = str(Path(sys.executable).parent / "ari-cli")


def run_cli(args: list[str], tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """The console script in a fresh HOME, with no ARI_ settings but `env`."""
    base = {k: v for k, v in os.environ.items() if not k.startswith(("ARI_", "PARTNER_"))}
    return subprocess.run(
        [ARI_CLI, *args], capture_output=True, text=True, cwd=tmp_path, stdin=subprocess.DEVNULL, timeout=120,
        env={**base, "HOME": str(tmp_path), "ARI_HOME": str(tmp_path / "journal"), **env},
    )  # fmt: skip


def partner_file(tmp_path: Path) -> Path:
    bodies = [
        {"sharepost": PARTNER_KEY, "sourceid": "cpbA1", "propertyid": "HTL001", "action": "sellthresholdupdate",
         "data": [{"startdateymd": day(1), "enddateymd": day(2), "roomid": "DBL", "threshold": "2"}]},
        {"sharepost": "<API_KEY>", "propertyid": "HTL001", "action": "sellthresholdupdate",
         "data": [{"startdateymd": day(1), "enddateymd": day(2), "roomid": "DBL", "threshold": "3"}]},
    ]  # fmt: skip
    path = tmp_path / "partner-call.json"
    path.write_text(json.dumps(bodies, indent=2) + "\n", encoding="utf-8")
    return path


def test_replay_curl_leaves_the_partners_own_key_to_the_partner_variable(tmp_path: Path, sandbox: Any) -> None:
    path = partner_file(tmp_path)
    env = sandbox_env(sandbox)
    result = run_cli(["replay", path.name, "--curl", "--output", "json"], tmp_path, **env)
    assert result.returncode == 1, result.stderr  # the partner's body fails as the partner's call did
    by_tool = [json.loads(b["response"]) for b in json.loads(result.stdout)["bodies"]]
    assert [[e["code"] for e in a.get("errors", [])] for a in by_tool] == [[415], []]
    assert PARTNER_KEY not in result.stdout + result.stderr and sandbox.api_key not in result.stderr
    partner_call, filled_call = commands(result.stderr)
    assert '"$PARTNER_API_KEY"' in partner_call and '"$ARI_API_KEY"' not in partner_call
    assert '"$ARI_API_KEY"' in filled_call and "PARTNER" not in filled_call
    # The comment says so, above the partner's command only.
    assert result.stderr.count("# The body carries the partner's own key (sharepost): set PARTNER_API_KEY") == 1
    assert result.stderr.index("set PARTNER_API_KEY") < result.stderr.index(partner_call)
    sandbox.reset()
    # With both variables set, each command sends what replay sent: the partner's key gets the partner's 415.
    keys = {"ARI_API_KEY": sandbox.api_key, "PARTNER_API_KEY": PARTNER_KEY}
    by_curl = [json.loads(bash(c, **keys)) for c in (partner_call, filled_call)]
    assert [without_tracking(a) for a in by_curl] == [without_tracking(a) for a in by_tool]
    assert by_curl[0]["errors"] == [{"code": 415, "message": by_tool[0]["errors"][0]["message"]}]
    # It is the variable that the command reads: given the right key, the same command succeeds.
    assert json.loads(bash(partner_call, PARTNER_API_KEY=sandbox.api_key))["success"] is True


def test_replay_curl_dry_run_without_configuration_claims_no_filling(tmp_path: Path, sandbox: Any) -> None:
    path = partner_file(tmp_path)
    shown = run_cli(["replay", path.name, "--curl", "--dry-run"], tmp_path)
    assert shown.returncode == 0, shown.stderr
    assert "filled from the configuration" not in shown.stderr
    assert "property HTL001; not filled (nothing is configured): sharepost, sourceid\n" in shown.stderr
    assert "POST <base_url>/v2/push_ari/<source_id>/sellthresholdupdate" in shown.stderr
    assert "%3C" not in shown.stdout + shown.stderr and PARTNER_KEY not in shown.stdout + shown.stderr
    script = tmp_path / "calls.sh"
    script.write_text(shown.stdout, encoding="utf-8")
    env = {"PATH": os.environ["PATH"], **sandbox_env(sandbox), "PARTNER_API_KEY": PARTNER_KEY}
    done = subprocess.run(["bash", str(script)], env=env, capture_output=True, timeout=30)
    assert done.returncode == 0, done.stderr
    codes = [[e["code"] for e in json.loads(a).get("errors", [])] for a in done.stdout.decode().splitlines()]
    assert codes == [[415], []]
    assert [json.loads(r.body)["sharepost"] for r in sandbox.received] == [PARTNER_KEY, sandbox.api_key]
