"""`ari_cli.push()` borrows nothing of the caller's process: signal handlers, stamina's hooks and threads
are left as they were; Ctrl-C in the calling thread ends the run as `Interrupted` (130), journal settled.

Each case is a user's script run in a process of its own, as a program embedding ari-cli would.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import pytest

from tests.conftest import PINNED_TODAY
from tests.misbehaving import misbehaving
from tests.test_faults import clean_env

UNTOUCHED_SCRIPT = """
import json, signal, sys, threading
import stamina
import ari_cli
from ari_cli.sandbox.emulator import Sandbox

heard = []
def mine(number, frame): pass
signal.signal(signal.SIGINT, mine)
signal.signal(signal.SIGTERM, mine)
hook = lambda details: heard.append(details.name)
stamina.instrumentation.set_on_retry_hooks([hook])
rows = [{"propertyid": "HTL001", "roomid": "DBL", "date": f"2027-01-{day:02}", "threshold": day % 3}
        for day in range(1, 21)]
with Sandbox(today=sys.argv[1], fail_rate=0.5, seed=7) as sandbox:
    before = threading.active_count()
    run = ari_cli.push("threshold", rows=rows, base_url=sandbox.base_url, source_id=sandbox.source_id,
                       api_key=sandbox.api_key, today=sys.argv[1], merge=False, batch_size=1, retries=10)
    after = threading.active_count()
json.dump({"code": run.exit_code, "threads": [before, after],
           "handlers": [signal.getsignal(signal.SIGINT) is mine, signal.getsignal(signal.SIGTERM) is mine],
           "hooks": list(stamina.instrumentation.get_on_retry_hooks()) == [hook], "heard": len(heard)}, sys.stdout)
"""


def test_a_push_from_python_leaves_signal_handlers_stamina_hooks_and_threads_as_it_found_them(
    tmp_path: Path,
) -> None:
    script = tmp_path / "untouched.py"
    script.write_text(UNTOUCHED_SCRIPT)
    done = subprocess.run([sys.executable, str(script), PINNED_TODAY], capture_output=True, text=True,
                          env=clean_env(tmp_path), timeout=300)  # fmt: skip
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert found["code"] == 0
    assert found["handlers"] == [True, True]
    assert found["hooks"] is True and found["heard"] >= 1  # the retries went through the caller's own hook
    before, after = found["threads"]
    assert after == before


SLOW_SCRIPT = """
import json, sys
import ari_cli

rows = [{"propertyid": "HTL001", "roomid": "DBL", "date": f"2027-01-{day:02}", "threshold": day % 2}
        for day in range(1, 11)]
try:
    ari_cli.push("threshold", rows=rows, base_url=sys.argv[1], source_id="cpbA1", api_key="slow-key-00000001",
                 today=sys.argv[2], merge=False, batch_size=1, concurrency=2, timeout=600)
except ari_cli.AriError as stopped:
    run = stopped.run
    json.dump({"kind": type(stopped).__name__, "code": int(stopped.exit_code), "journal": run.journal_run,
               "not_sent": run.summary.not_sent, "failed": run.summary.failed}, sys.stdout)
"""


def _never_answers(handler: BaseHTTPRequestHandler) -> None:
    time.sleep(600)


# A program with its own Ctrl-C handler that raises KeyboardInterrupt (asyncio then lends it none of its own).
OWN_HANDLER = """
import signal
def mine(number, frame):
    raise KeyboardInterrupt
signal.signal(signal.SIGINT, mine)
"""


@pytest.mark.parametrize("handler", ["", OWN_HANDLER], ids=["python's handler", "the program's own handler"])
def test_ctrl_c_during_a_push_to_a_slow_server_raises_interrupted_after_the_journal_is_settled(
    handler: str, tmp_path: Path
) -> None:
    script = tmp_path / "slow.py"
    script.write_text(handler + SLOW_SCRIPT)
    env = clean_env(tmp_path, ARI_HOME=str(tmp_path / "ari"))
    with misbehaving(_never_answers) as (base_url, seen):
        process = subprocess.Popen([sys.executable, str(script), base_url, PINNED_TODAY], env=env, text=True,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE)  # fmt: skip
        deadline = time.monotonic() + 120
        while len(seen) < 2 and time.monotonic() < deadline and process.poll() is None:
            time.sleep(0.05)
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=120)
    assert process.returncode == 0, err
    assert "Traceback" not in err
    found = json.loads(out)
    assert found == {"kind": "Interrupted", "code": 130, "journal": 1, "not_sent": 8, "failed": 2}, found
    # Settled: the journal knows how the run ended (interrupted, exit 130), not "unfinished (killed?)".
    history = subprocess.run([str(Path(sys.executable).parent / "ari-cli"), "history", "show", "1", "--output", "json"],
                             capture_output=True, text=True, env=env, timeout=120)  # fmt: skip
    assert history.returncode == 0, history.stderr
    shown = json.loads(history.stdout)["run"]
    assert shown["finished"] is True and shown["exit_code"] == 130, shown
    assert shown["summary"]["failed"] == 2 and shown["summary"]["not sent"] == 8, shown
