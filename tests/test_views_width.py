"""calendar, config show, errors and explain at a real terminal of 80, 100, 120 and 200 columns: nothing a user
reads or copies (a key's labels, a value, an error code) is dropped or cut; long text wraps; below the width
where a row fits, each row is a short block (issue 18, point 1)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from rich.cells import cell_len

from ari_cli.sandbox import Sandbox
from ari_cli.wire.errors import ERROR_TABLE, rows_for
from tests.conftest import PINNED_TODAY
from tests.helpers import invoke, sandbox_env
from tests.test_terminal_output import at_a_terminal
from tests.widths import within

WIDTHS = [80, 100, 120, 200]
FIXTURES = Path(__file__).parent.parent / "ari_cli" / "sandbox" / "fixtures.toml"
ROOM = "SUPERIOR-DOUBLE-ROOM-WITH-GARDEN-VIEW"
RATE = "BED-AND-BREAKFAST-FLEXIBLE-RATE"


def _fits(shown: str, columns: int) -> None:
    within(shown, columns)  # but a file path longer than the width, whole on a line of its own


def _line_with(shown: str, *words: str) -> bool:
    """Whether one line holds every word, each whole."""
    return any(all(re.search(rf"(?<!\S){re.escape(w)}(?!\S)", line) for w in words) for line in shown.splitlines())


@pytest.mark.parametrize("columns", WIDTHS)
def test_errors_keep_every_status_and_code_whole(columns: int) -> None:
    code, shown, stderr = at_a_terminal(["errors"], {"NO_COLOR": "1"}, columns)
    assert code == 0 and stderr == ""
    _fits(shown, columns)
    words = shown.split()
    blocks = columns < 100  # the status, code and retry whole and 16 columns for each text: about 85 columns
    for row in ERROR_TABLE:
        if blocks:
            assert _line_with(shown, "HTTP", str(row.http_status)) and _line_with(shown, "Code", str(row.code))
        else:
            assert _line_with(shown, str(row.http_status), str(row.code))
        assert all(word in words for word in row.message.split()), row.message  # wrapped, never cut
    assert bool(re.search(r"^Retry helps  +(yes|no) *$", shown, re.MULTILINE)) is blocks


@pytest.mark.parametrize("columns", WIDTHS)
def test_explain_keeps_the_code_whole(columns: int) -> None:
    code, shown, stderr = at_a_terminal(["explain", "429"], {"NO_COLOR": "1"}, columns)
    assert code == 0 and stderr == ""
    _fits(shown, columns)
    (row,) = rows_for(429)
    assert row.code == 452
    assert _line_with(shown, "Code", "452") if columns < 100 else _line_with(shown, "429", "452")
    assert all(word in shown.split() for word in ["invalid", "rate", "plan", "mapping"])
    assert "what to check:" in shown and "retry helps: yes, after a wait" in shown


@pytest.fixture
def long_config(tmp_path: Path) -> dict[str, str]:
    path = tmp_path / "config.toml"
    path.write_text(
        '[profiles.default]\nbase_url = "https://push.example.com/partners/hotel-group/ari"\nsource_id = "cpbA1"\n'
        '\n[profiles.default.columns]\nthreshold = "Minimum Rooms Left Unsold (export of 2026)"\n'
    )
    path.chmod(0o600)
    return {"ARI_CONFIG": str(path), "ARI_API_KEY": "sandbox-key-0001", "NO_COLOR": "1"}


@pytest.mark.parametrize("columns", WIDTHS)
def test_config_show_keeps_each_value_whole(long_config: dict[str, str], columns: int) -> None:
    code, shown, stderr = at_a_terminal(["config", "show"], long_config, columns)
    assert code == 0 and stderr == ""
    _fits(shown, columns)
    for setting, value in [("base_url", "https://push.example.com/partners/hotel-group/ari"), ("source_id", "cpbA1"),
                           ("api_key", "sand…0001"), ("batch_size", "50"), ("path_segment", "{action}")]:  # fmt: skip
        assert _line_with(shown, setting, value), (setting, shown)
    assert "sandbox-key-0001" not in shown
    assert '"Minimum Rooms Left Unsold (export of 2026)"' in shown.replace("\n", " ") or columns < 100
    # As in a pipe wide enough for it (about 160 columns with this config file's path); narrower, one setting a line.
    aligned = invoke(["config", "show"], env={**long_config, "COLUMNS": "1000"}).stdout
    blocks = not _line_with(shown, "setting", "value", "source")
    assert blocks is (max(map(cell_len, aligned.splitlines())) > columns)
    if not blocks:
        assert shown == aligned
    if blocks:
        assert _line_with(shown, "api_key", "sand…0001", "(env", "ARI_API_KEY)")


@pytest.mark.parametrize("columns", WIDTHS)
def test_config_show_in_a_pipe_follows_the_same_rule_at_its_width(long_config: dict[str, str], columns: int) -> None:
    # A pipe keeps to COLUMNS (else 80, as Rich does): what a terminal as wide shows, colourless (issue 33).
    _code, shown, _stderr = at_a_terminal(["config", "show"], long_config, columns)
    piped = invoke(["config", "show"], env={**long_config, "COLUMNS": str(columns)})
    assert piped.exit_code == 0, piped.stderr
    assert piped.stdout == shown
    result = invoke(["config", "show"], env={**long_config, "COLUMNS": "1000"})
    assert re.search(r"^setting +value +source$", result.stdout, re.MULTILINE)
    assert re.search(r"^api_key +sand…0001 +env ARI_API_KEY$", result.stdout, re.MULTILINE)


@pytest.fixture
def long_ids(tmp_path: Path) -> Iterator[Sandbox]:
    fixtures = tmp_path / "fixtures.toml"
    fixtures.write_text(
        FIXTURES.read_text()
        .replace('rooms = ["DBL", "TWN", "SGL", "STE"]', f'rooms = ["DBL", "TWN", "SGL", "STE", "{ROOM}"]', 1)
        .replace('rates = ["BAR", "NRF", "BB", "FLEX"]', f'rates = ["BAR", "NRF", "BB", "FLEX", "{RATE}"]', 1)
    )
    with Sandbox(fixtures=fixtures, today=PINNED_TODAY) as sandbox:
        rows = tmp_path / "maxadv.csv"
        rows.write_text(
            "propertyid,roomid,rateid,start,end,time\n"
            f"HTL001,{ROOM},{RATE},2027-01-01,2027-01-10,365\nHTL001,DBL,BAR,2027-01-03,2027-01-04,90\n"
        )
        pushed = invoke(["maxadv", "push", str(rows), "--today", PINNED_TODAY], env=sandbox_env(sandbox))
        assert pushed.exit_code == 0, pushed.output
        yield sandbox


@pytest.mark.parametrize("columns", WIDTHS)
def test_calendar_keeps_room_rate_and_values_whole(long_ids: Sandbox, columns: int) -> None:
    args = ["calendar", "maxadv", "--property", "HTL001", "--from", "2027-01-01", "--to", "2027-01-10"]
    code, shown, stderr = at_a_terminal(args, {**sandbox_env(long_ids), "NO_COLOR": "1"}, columns)
    assert code == 0 and stderr == ""
    _fits(shown, columns)
    words = shown.split()
    assert words.count("365") == 10 and words.count("90") == 2  # every acknowledged day, whatever the width
    assert ROOM in words and RATE in words
    # The labels take 72 columns: beside them, 7 days need 100; narrower, each room and rate is a block.
    blocks = _line_with(shown, "Room", ROOM, "Rate", RATE)
    assert blocks is (columns < 100)
    if not blocks:
        assert _line_with(shown, ROOM, RATE, "365")
