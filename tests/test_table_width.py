"""The run's table at a real terminal of 80, 100, 120 and 200 columns: line, value, result, error code and
tracking id are never dropped or cut; below the width where a row fits, each row is a short block."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import invoke, sandbox_env
from tests.test_terminal_output import at_a_terminal
from tests.widths import whole, within

TODAY = dt.date.today()


def day(offset: int) -> str:
    return (TODAY + dt.timedelta(days=offset)).isoformat()


@pytest.mark.parametrize("columns", [80, 100, 120, 200])
def test_nothing_a_user_copies_is_cut_at_any_width(same_length_folder: Path, sandbox: Any, columns: int) -> None:
    path = same_length_folder / "rooms.csv"
    path.write_text(
        "propertyid,roomid,start,end,threshold\n"
        f"HTL001,DBL,{day(1)},{day(2)},2\n"
        f"HTL001,NOPE,{day(1)},{day(3)},n/a\n"
        f"HTL001,TWN,{day(-1)},{day(3)},7\n"
    )
    code, shown, stderr = at_a_terminal(
        ["threshold", "push", str(path)], {**sandbox_env(sandbox), "NO_COLOR": "1"}, columns
    )
    assert code == 1, stderr
    within(shown, columns)  # a file path longer than the width is shown whole, on a line of its own
    trackingids = [r.response_json["trackingid"] for r in sandbox.received if r.response_json.get("trackingid")]
    shown_ids = re.findall(r"sbx-[0-9a-f]*", shown)
    assert len(shown_ids) == 3 and set(shown_ids) <= set(trackingids)  # whole, on one line, ready to copy
    for line in (2, 3, 4):
        assert whole(shown, f"{path}:{line}")
    assert "n/a" in shown and "451 invalid room" in shown and "failed" in shown
    assert "clipped:" in shown
    blocks = "tracking id sbx-" in shown
    # The table needs 130 columns and more with a temporary file's path: wider (or not), the rule decides.
    assert blocks or columns > 120, shown
    assert shown.rstrip().endswith(
        "3 rows: 2 ok, 1 failed, 0 invalid, 0 skipped; 3 records, sent 5 of 5 requests"
    )  # 2 split


@pytest.mark.parametrize("columns", [80, 100, 120, 200])
def test_history_keeps_the_run_number_at_any_width(
    tmp_path: Path, sandbox: Any, columns: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("rooms.csv").write_text(f"propertyid,roomid,start,end,threshold\nHTL001,DBL,{day(1)},{day(2)},2\n")
    for _ in range(2):
        assert invoke(["threshold", "push", "rooms.csv"], env=sandbox_env(sandbox)).exit_code == 0
    code, shown, stderr = at_a_terminal(["history"], {"NO_COLOR": "1"}, columns)
    assert code == 0, stderr
    assert "…" not in shown and all(len(line) <= columns for line in shown.splitlines())
    if columns < 150:
        assert re.search(r"^run 2  \S+ \S+  exit 0$", shown, re.MULTILINE) and re.search(
            r"^run 1 ", shown, re.MULTILINE
        )
        assert "1 ok, 0 failed, 0 invalid, 0 skipped; requests 1" in shown
    else:
        assert re.search(r"^2 +\S+ \S+ +threshold push", shown, re.MULTILINE)


@pytest.mark.parametrize("columns", [80, 100, 120, 200])
def test_history_show_keeps_tracking_ids_and_lines_whole(
    tmp_path: Path, sandbox: Any, columns: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("rooms.csv").write_text(f"propertyid,roomid,start,end,threshold\nHTL001,DBL,{day(1)},{day(2)},2\n")
    assert invoke(["threshold", "push", "rooms.csv"], env=sandbox_env(sandbox)).exit_code == 0
    (received,) = sandbox.received
    code, shown, stderr = at_a_terminal(["history", "show", "1"], {"NO_COLOR": "1"}, columns)
    assert code == 0, stderr
    assert "…" not in shown and all(len(line) <= columns for line in shown.splitlines())
    assert shown.count(received.response_json["trackingid"]) == 2  # the request's and the row's
    assert "rooms.csv:2" in shown
