"""Every view at 60, 80 and 120 columns, at a real terminal and in a pipe told its width by COLUMNS: each id, date,
value and `file:line` a user must see is shown whole on one line, however long the file's path (issue 33, point 2).

The input file's name is long on purpose: its `file:line` is wider than 80 columns wherever the test runs, so the
rows must become blocks and the path must still be shown whole, not cut with `…` nor folded mid-word.
"""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

from ari_cli.sandbox import Sandbox
from ari_cli.wire.errors import ERROR_TABLE, rows_for
from tests.conftest import PINNED_TODAY
from tests.helpers import invoke, sandbox_env
from tests.terminal import BIN, converse
from tests.test_terminal_output import at_a_terminal
from tests.widths import whole, within

WIDTHS = [60, 80, 120]
WAYS = ["terminal", "pipe"]
TODAY = ["--today", PINNED_TODAY]
HEAD = "propertyid,roomid,start,end,threshold\n"
FIRST = HEAD + "HTL001,DBL,2027-01-01,2027-01-10,3\nHTL002,DBL,2027-01-01,2027-01-03,4\n"
SECOND = (
    HEAD
    + "HTL001,DBL,2027-01-05,2027-01-15,7\nHTL002,DBL,2027-01-02,2027-01-02,5\nHTL001,TWN,2027-01-20,2027-01-31,2\n"
)
NAME = "rooms-left-unsold-for-the-winter-season-of-2027-as-sent-by-the-revenue-team"


@dataclass
class Pushed:
    sandbox: Sandbox
    first: Path
    second: Path
    env: dict[str, str]
    trackingids: list[str]


@pytest.fixture
def pushed(sb: Sandbox, tmp_path: Path) -> Iterator[Pushed]:
    home = tmp_path / "home"
    home.mkdir()
    env = {**sandbox_env(sb), "NO_COLOR": "1", "HOME": str(home), "XDG_DATA_HOME": str(home / "data")}
    first, second = tmp_path / f"{NAME}-1.csv", tmp_path / f"{NAME}-2.csv"
    first.write_text(FIRST)
    second.write_text(SECOND)
    result = invoke(["threshold", "push", str(first), *TODAY], env=env)
    assert result.exit_code == 0, result.output
    ids = [r.response_json["trackingid"] for r in sb.received if r.response_json.get("trackingid")]
    yield Pushed(sb, first, second, env, ids)


def shown(way: str, args: Sequence[str], env: dict[str, str], columns: int, answer: str | None = None) -> str:
    """What `ari-cli ARGS` shows (stdout and stderr) at a terminal `columns` wide, or in a pipe with COLUMNS."""
    if way == "pipe":
        environment = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
        done = subprocess.run(
            [str(BIN / "ari-cli"), *args], env={**environment, **env, "COLUMNS": str(columns)},
            capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=60,
        )  # fmt: skip
        assert "Traceback" not in done.stderr, done.stderr
        return done.stdout + done.stderr
    if answer is not None:
        _code, seen = converse(args, [("[y/N]", answer)], env={**env, "COLUMNS": str(columns)})
        return seen
    _code, out, err = at_a_terminal(list(args), env, columns)
    assert "Traceback" not in err, err
    return out + err


def check(text: str, columns: int, words: Sequence[str], way: str = "terminal") -> None:
    """Every word whole on a line. At a terminal, every line within the width (but one word too long for any line,
    and the question, which the terminal wraps); in a pipe, tables and blocks keep to COLUMNS but a sentence stays
    one line, for grep, so only nothing cut is asserted there."""
    if way == "terminal":
        within("\n".join(line for line in text.splitlines() if "[y/N]" not in line), columns)
    else:
        assert "…" not in text.replace("sand…0001", ""), text  # the key is shown masked; nothing else is cut
    missing = [word for word in words if not whole(text, word)]
    assert not missing, (missing, text)


def changes(pushed: Pushed, *args: str) -> list[str]:
    """The words of each range that would change: its dates, its room, its value, its `file:line`."""
    result = invoke([*args, "-o", "json"], env=pushed.env)
    words = []
    for change in json.loads(result.stdout)["changes"]:
        dates = change["start"] if change["start"] == change["end"] else f"{change['start']}..{change['end']}"
        words += [dates, change["propertyid"], change["roomid"], str(change["after"] or "")]
    assert words, result.stdout
    return [w for w in words if w]


@pytest.mark.parametrize("way", WAYS)
@pytest.mark.parametrize("columns", WIDTHS)
def test_diff(pushed: Pushed, columns: int, way: str) -> None:
    args = ["threshold", "diff", str(pushed.second), *TODAY]
    words = changes(pushed, *args)
    text = shown(way, args, pushed.env, columns)
    check(text, columns, [*words, *(f"{pushed.second}:{n}" for n in (2, 3, 4))], way)


@pytest.mark.parametrize("way", WAYS)
@pytest.mark.parametrize("columns", WIDTHS)
def test_push_confirm_shows_every_change_before_asking(pushed: Pushed, columns: int, way: str) -> None:
    args = ["threshold", "push", str(pushed.second), *TODAY, "--confirm"]
    words = changes(pushed, "threshold", "diff", str(pushed.second), *TODAY)
    if way == "pipe":  # no terminal to ask at: --yes shows what would change, then sends
        text = shown(way, [*args, "--yes"], pushed.env, columns)
    else:
        before = len(pushed.sandbox.received)
        text = shown(way, args, pushed.env, columns, answer="n")
        assert "nothing was sent" in text and len(pushed.sandbox.received) == before
    check(text, columns, [*words, *(f"{pushed.second}:{line}" for line in (2, 3, 4))], way)


@pytest.mark.parametrize("way", WAYS)
@pytest.mark.parametrize("columns", WIDTHS)
def test_revert_shows_what_it_puts_back(pushed: Pushed, columns: int, way: str) -> None:
    assert invoke(["threshold", "push", str(pushed.second), *TODAY], env=pushed.env).exit_code == 0
    before = len(pushed.sandbox.received)
    args = ["revert", "2", *TODAY]
    text = shown(way, [*args, "--dry-run"] if way == "pipe" else args, pushed.env, columns, answer="n")
    assert len(pushed.sandbox.received) == before
    # Back to the first file's values: 3 for HTL001 DBL, 4 for HTL002 DBL (the dates the journal knows).
    check(text, columns, ["2027-01-05..2027-01-10", "2027-01-02", "HTL001", "HTL002", "DBL", "3", "4"], way)


@pytest.mark.parametrize("way", WAYS)
@pytest.mark.parametrize("columns", WIDTHS)
def test_the_run_table(pushed: Pushed, columns: int, way: str) -> None:
    text = shown(way, ["threshold", "push", str(pushed.second), *TODAY], pushed.env, columns)
    ids = [r.response_json["trackingid"] for r in pushed.sandbox.received][-2:]
    check(text, columns, [*ids, *(f"{pushed.second}:{line}" for line in (2, 3, 4)), "2027-01-05..2027-01-15",
                          "2027-01-02", "2027-01-20..2027-01-31", "7", "5", "2"], way)  # fmt: skip


@pytest.mark.parametrize("way", WAYS)
@pytest.mark.parametrize("columns", WIDTHS)
def test_history_views(pushed: Pushed, columns: int, way: str) -> None:
    run = shown(way, ["history"], pushed.env, columns)
    check(run, columns, ["1", str(pushed.first)], way)
    detail = shown(way, ["history", "show", "1"], pushed.env, columns)
    check(
        detail, columns, [*pushed.trackingids, f"{pushed.first}:2", f"{pushed.first}:3", "2027-01-01..2027-01-10"], way
    )
    found = shown(way, ["history", "find", "--trackingid", pushed.trackingids[0]], pushed.env, columns)
    check(found, columns, [pushed.trackingids[0]], way)
    assert whole(found, f"{pushed.first}:2") or whole(found, f"{pushed.first}:3"), found  # its request's row


@pytest.mark.parametrize("way", WAYS)
@pytest.mark.parametrize("columns", WIDTHS)
def test_errors_and_explain(columns: int, way: str) -> None:
    errors = shown(way, ["errors"], {"NO_COLOR": "1"}, columns)
    # Piped to a pager too, every line keeps to the width: the table, and the notes that wrap (issue 33).
    check(errors, columns, sorted({str(n) for row in ERROR_TABLE for n in (row.http_status, row.code)}))
    explained = shown(way, ["explain", "451"], {"NO_COLOR": "1"}, columns)
    check(explained, columns, [str(n) for row in rows_for(451) for n in (row.http_status, row.code)])


@pytest.mark.parametrize("way", WAYS)
@pytest.mark.parametrize("columns", WIDTHS)
def test_calendar(pushed: Pushed, columns: int, way: str) -> None:
    args = ["calendar", "threshold", "--property", "HTL001", "--from", "2027-01-01", "--to", "2027-01-10"]
    text = shown(way, args, pushed.env, columns)
    check(text, columns, ["HTL001", "DBL", "2027-01-01..2027-01-10", "3"], way)
    assert text.split().count("3") >= 10  # every acknowledged day's value, whatever the width


@pytest.mark.parametrize("way", WAYS)
@pytest.mark.parametrize("columns", [30, 40, 60, 80])
def test_a_failed_row_says_its_error_and_what_to_check_whole(
    pushed: Pushed, tmp_path: Path, columns: int, way: str
) -> None:
    # A property the service does not know: each row's error and the hint under "What to check" are sentences
    # that wrap at spaces, in a pipe too; they used to be cut at the width ("(HTTP 421", "check property").
    unknown = tmp_path / "unknown.csv"
    unknown.write_text(HEAD + "HTL009,DBL,2027-01-01,2027-01-10,3\n")
    text = shown(way, ["threshold", "push", str(unknown), *TODAY], pushed.env, columns)
    words = " ".join(text.split())
    assert "446 invalid property mapping (HTTP 421)" in words, text
    assert "the property id is not mapped for this partner; check propertyid" in words, text
    check(text, columns, ["(HTTP", "421)", "propertyid"], way)
