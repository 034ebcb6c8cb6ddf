"""Use cases are given the world (app/world.py): the environment and standard input they use are the ones they
are handed, not the process's. A test, a terminal and `ari_cli.push()` run them alike."""

from __future__ import annotations

import datetime as dt
import io
import os
from pathlib import Path

from ari_cli.app.diff import run_diff
from ari_cli.app.history import list_runs
from ari_cli.app.options import DiffRequest, PlanOptions, PushRequest
from ari_cli.app.push import push
from ari_cli.app.world import World
from ari_cli.exits import ExitCode
from ari_cli.planning.diff import Kind
from ari_cli.render.terminal import Terminal
from ari_cli.sandbox import Sandbox
from ari_cli.wire.operations import Operation
from tests.conftest import PINNED_TODAY

ROWS = (
    b"propertyid,roomid,start,end,threshold\nHTL001,DBL,2027-01-05,2027-01-09,2\nHTL001,TWN,2027-01-05,2027-01-06,1\n"
)


def test_a_use_case_reads_the_environment_and_stdin_it_is_given(sb: Sandbox, tmp_path: Path) -> None:
    home = tmp_path / "given-home"
    environ = {"ARI_HOME": str(home), "ARI_BASE_URL": sb.base_url, "ARI_SOURCE_ID": sb.source_id,
               "ARI_API_KEY": sb.api_key}  # fmt: skip
    process_before = dict(os.environ)
    today = PlanOptions(today=dt.date.fromisoformat(PINNED_TODAY))
    files = (Path("-"),)

    pushed = push(
        PushRequest(operation=Operation.THRESHOLD, command="", files=files, plan=today),
        Terminal.silent(),
        World(environ, io.BytesIO(ROWS)),
    )
    assert pushed.run.exit_code() is ExitCode.OK and pushed.number == 1
    assert pushed.run.summary()["rows"] == 2
    # The run went to the journal under the World's ARI_HOME, not the one the process's environment names.
    runs = list_runs(10, None, World(environ))
    assert runs.journal.startswith(str(home)) and [run.id for run in runs.runs] == [1]
    assert not list_runs(10, None, World(os.environ)).runs

    # The same rows again, from the given stdin: the journal the World names knows them all.
    diffed = run_diff(
        DiffRequest(operation=Operation.THRESHOLD, files=files, plan=today),
        Terminal.silent(),
        World(environ, io.BytesIO(ROWS)),
    )
    assert [(c.key, c.start.isoformat(), c.end.isoformat(), c.kind) for c in diffed.view.changes] == [
        (("HTL001", "DBL"), "2027-01-05", "2027-01-09", Kind.SAME),
        (("HTL001", "TWN"), "2027-01-05", "2027-01-06", Kind.SAME),
    ]
    assert (diffed.view.base_url, diffed.view.source_id) == (sb.base_url, sb.source_id)
    assert dict(os.environ) == process_before  # nothing was set in the process to get there
