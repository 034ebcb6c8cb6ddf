"""`history show` reads a run's requests in one pass and streams them into its JSON document: the same requests and
the same bytes as the plain way (one query per request, one `json.dumps` of everything) on a small journal."""

from __future__ import annotations

import io
import json
import os
from dataclasses import replace
from pathlib import Path

import pytest

from ari_cli.journal import queries as read
from ari_cli.journal import run_requests
from ari_cli.journal.rows import RunRows
from ari_cli.journal.store import reading
from ari_cli.render.history.document import request_dict, states, write_detail
from ari_cli.render.history.runs import run_dict
from ari_cli.sandbox import Sandbox
from tests.conftest import PINNED_TODAY
from tests.helpers import invoke, sandbox_env


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture
def split_run(sb: Sandbox, tmp_path: Path) -> Sandbox:
    """Run 1: a room the service does not map among rows it does, so its request is split and a row fails; run 2: the
    same rows in requests of 4 records."""
    path = tmp_path / "mixed.csv"
    path.write_text(
        "propertyid,roomid,start,end,threshold\n"
        + "".join(f"HTL001,DBL,2027-01-{d:02},2027-01-{d:02},{d % 3}\n" for d in range(1, 21))
        + "HTL001,XXX,2027-01-05,2027-01-06,4\nHTL002,DBL,2027-01-01,2027-01-03,1\n"
    )
    pushed = invoke(["threshold", "push", str(path), "--today", PINNED_TODAY], env=sandbox_env(sb))
    assert pushed.exit_code == 1, pushed.output
    again = invoke(["threshold", "push", str(path), "--today", PINNED_TODAY, "--batch-size", "4"], env=sandbox_env(sb))
    assert again.exit_code == 1
    return sb


@pytest.mark.parametrize("number", [1, 2])
def test_completed_requests_are_those_read_one_by_one(split_run: Sandbox, number: int) -> None:
    with reading(os.environ) as db:
        assert db is not None
        light = run_requests.detail(db, number, whole=False)
        every = run_requests.detail(db, number).requests
        plain = [run_requests.requests_of(db, light.run, " AND id = ?", (r.id,))[0] for r in every]
        assert plain == every
        assert any(r.parent is not None for r in plain) or number == 2
        # The light read holds the requests whose answers are the records' (the leaves), and counts the others.
        final = read.leaves(plain)
        assert [r.id for r in light.requests] == [r.id for r in final]
        assert light.replaced == len(plain) - len(final) and light.total == len(plain)
        assert light.replaced > 0 or number == 2  # run 1 split a request: the count is of something
        assert list(run_requests.completed(db, light.run, None)) == plain
        assert list(run_requests.completed(db, light.run, light.requests)) == final
        failed = [r for r in light.requests if r.state == "failed"]
        assert failed
        assert list(run_requests.completed(db, light.run, failed)) == [r for r in plain if r.state == "failed"]
        assert list(run_requests.completed(db, light.run, [])) == []
        # A table without --body leaves the bodies unbuilt and the answers and times unread (it shows none of them),
        # and nothing else: field by field, the light requests with their lines are the whole ones without those.
        unread = [replace(r, body={}, response=None, seconds=0.0, sent=None, answered=None) for r in final]
        assert unread == list(run_requests.completed(db, light.run, light.requests, False))
        shown = [replace(r, body={}) for r in plain]
        assert shown == list(run_requests.completed(db, light.run, None, False))


@pytest.mark.parametrize("stream", [io.StringIO, Terminal])
def test_the_streamed_document_is_the_one_dumped_whole(split_run: Sandbox, stream: type[io.StringIO]) -> None:
    with reading(os.environ) as db:
        assert db is not None
        light = run_requests.detail(db, 1, whole=False)
        whole = run_requests.detail(db, 1)
        out = stream()
        write_detail(light, run_requests.completed(db, light.run, None), RunRows(db, light),
                     lambda: read.records(db, 1), out)  # fmt: skip
    indent = 2 if stream is Terminal else None
    head = {"run": run_dict(whole.run, states(whole.requests)), "requests": [request_dict(r) for r in whole.requests]}
    dumped = json.dumps(head, ensure_ascii=False, indent=indent)[:-1].rstrip()
    written = out.getvalue()
    assert written.startswith(dumped + ', "rows": [')
    document = json.loads(written)
    assert len(document["requests"]) == len(whole.requests) > 1
