"""`ari-cli calendar`: the last acknowledged values of real pushes, per key and date."""

from __future__ import annotations

import datetime as dt
import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import Result

from ari_cli.render.calendar import CalendarView, calendar
from ari_cli.sandbox import Sandbox
from tests.helpers import invoke, sandbox_env
from tests.test_history import push

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
JANUARY = ["--from", "2027-01-01", "--to", "2027-01-10"]


def cal(*args: str, env: dict[str, str] | None = None) -> Result:
    return invoke(["calendar", *args], env=env)


def key_line(out: str, *labels: str) -> list[str]:
    """The cells of the calendar line of a key: its labels, then one cell per day."""
    for line in out.splitlines():
        words = line.split()
        if words[: len(labels)] == list(labels):
            return words[len(labels) :]
    raise AssertionError(f"no line for {labels} in\n{out}")


@pytest.fixture
def thresholds(sb: Sandbox, tmp_path: Path) -> Sandbox:
    """DBL 2 then 3 on the 5th and 6th, TWN cleared on the 3rd and 4th, STE 12 on the 1st; a refused push after."""
    rows = ("HTL001,DBL,2027-01-01,2027-01-10,2", "HTL001,TWN,2027-01-03,2027-01-04,n/a", "HTL001,STE,2027-01-01,2027-01-01,12")  # fmt: skip
    assert push(sb, tmp_path, "a.csv", *rows).exit_code == 0
    assert push(sb, tmp_path, "b.csv", "HTL001,DBL,2027-01-05,2027-01-06,3").exit_code == 0
    sb.queue_error(503, times=5)
    assert push(sb, tmp_path, "c.csv", "HTL001,DBL,2027-01-01,2027-01-10,9", extra=("--retries", "0")).exit_code == 1
    return sb


def test_threshold_calendar_shows_the_last_acknowledged_value_of_each_room_and_date(thresholds: Sandbox) -> None:
    result = cal("threshold", "--property", "HTL001", *JANUARY, env=sandbox_env(thresholds))
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    assert (
        f"HTL001: sell thresholds acknowledged by {thresholds.base_url} (source cpbA1), 2027-01-01..2027-01-10" in out
    )
    assert "January 2027 (1-10)" in out
    assert key_line(out, "Room") == ["Fr", "Sa", "Su", "Mo", "Tu", "We", "Th", "Fr", "Sa", "Su"]
    assert out.splitlines()[out.splitlines().index("January 2027 (1-10)") + 1].split() == [str(d) for d in range(1, 11)]
    assert key_line(out, "DBL") == ["2", "2", "2", "2", "3", "3", "2", "2", "2", "2"]
    assert key_line(out, "TWN") == ["·", "·", "n/a", "n/a", "·", "·", "·", "·", "·", "·"]
    assert key_line(out, "STE") == ["12", *["·"] * 9]
    assert "· nothing acknowledged" in out and "n/a cleared" in out
    assert "\x1b" not in out
    assert result.stderr == ""


def test_calendar_json_gives_the_values_per_key_and_date(thresholds: Sandbox) -> None:
    result = cal("threshold", "--property", "HTL001", *JANUARY, "--output", "json", env=sandbox_env(thresholds))
    assert result.exit_code == 0
    doc = json.loads(result.stdout)
    assert {k: doc[k] for k in ("operation", "propertyid", "base_url", "source_id", "from", "to")} == {
        "operation": "threshold", "propertyid": "HTL001", "base_url": thresholds.base_url, "source_id": "cpbA1",
        "from": "2027-01-01", "to": "2027-01-10"}  # fmt: skip
    keys = {k["roomid"]: k["values"] for k in doc["keys"]}
    assert keys["DBL"]["2027-01-05"] == "3" and keys["DBL"]["2027-01-10"] == "2" and len(keys["DBL"]) == 10
    assert keys["TWN"] == {"2027-01-03": "n/a", "2027-01-04": "n/a"}
    assert keys["STE"] == {"2027-01-01": "12"}


def test_maxadv_calendar_has_a_line_per_room_and_rate(sb: Sandbox, tmp_path: Path) -> None:
    rows = ("HTL001,DBL,BAR,2027-01-01,2027-01-31,365", "HTL001,DBL,NRF,2027-01-10,2027-02-05,90")
    assert push(sb, tmp_path, "m.csv", *rows, operation="maxadv").exit_code == 0
    out = cal(
        "maxadv", "--property", "HTL001", "--from", "2027-01-01", "--to", "2027-02-03", env=sandbox_env(sb)
    ).stdout
    assert "max advance booking (nights)" in out
    assert "January 2027\n" in out and "February 2027 (1-3)" in out
    january, february = out.split("February 2027")
    assert key_line(january, "DBL", "BAR") == ["365"] * 31
    assert key_line(january, "DBL", "NRF") == ["·"] * 9 + ["90"] * 22
    assert key_line(february, "DBL", "BAR") == ["·"] * 3
    only = cal("maxadv", "--property", "HTL001", "--rate", "NRF", *JANUARY, "-o", "json", env=sandbox_env(sb))
    assert [(k["roomid"], k["rateid"]) for k in json.loads(only.stdout)["keys"]] == [("DBL", "NRF")]


def test_policy_calendar_shows_letters_said_in_words_below(sb: Sandbox) -> None:
    result = invoke(["policy", "push", str(SAMPLES / "policy.csv"), "--today", "2027-01-01"], env=sandbox_env(sb))
    assert result.exit_code == 0, result.output
    out = cal("policy", "--property", "HTL001", *JANUARY, env=sandbox_env(sb)).stdout
    assert key_line(out, "DBL", "BAR") == ["A"] * 10
    assert key_line(out, "DBL", "NRF") == ["B"] * 10
    assert key_line(out, "A")[0] == "Free" and "No deposit required." in out
    assert " ".join(key_line(out, "B")) == "Non-refundable. Deposit: 100% of the stay, charged at booking."
    doc = json.loads(cal("policy", "--property", "HTL001", *JANUARY, "-o", "json", env=sandbox_env(sb)).stdout)
    first = doc["keys"][0]["values"]["2027-01-01"]
    assert first["refundable"] == "true" and first["policydetails"]["deposit"]["depositpolicy"] == "not required"


def test_without_a_configured_connection_the_latest_service_is_used_and_said(thresholds: Sandbox) -> None:
    result = cal("threshold", "--property", "HTL001", *JANUARY)
    assert result.exit_code == 0
    assert key_line(result.stdout, "DBL")[4] == "3"
    assert f"no base URL and source id configured: showing {thresholds.base_url} (source cpbA1)" in result.stderr
    quiet = cal("threshold", "--property", "HTL001", *JANUARY, "--quiet")
    assert (quiet.exit_code, quiet.stdout, quiet.stderr) == (0, result.stdout, "")
    assert "run 3, the latest to push threshold values of HTL001" not in result.stderr  # run 3 was refused
    assert "run 2, the latest to push threshold values of HTL001" in result.stderr


def test_a_service_with_no_values_names_the_one_that_has_them(thresholds: Sandbox) -> None:
    other = {**sandbox_env(thresholds), "ARI_BASE_URL": "https://other.example.com"}
    result = cal("threshold", "--property", "HTL001", env=other)
    assert result.exit_code == 1
    assert "error: the journal holds no threshold value that https://other.example.com (source cpbA1) acknowledged" in result.stderr  # fmt: skip
    assert f"give --base-url {thresholds.base_url} --source-id cpbA1" in result.stderr


def test_a_property_with_no_values_exits_1(thresholds: Sandbox, journal_home: Path) -> None:
    result = cal("maxadv", "--property", "HTL001")
    assert result.exit_code == 1
    assert "error: the journal holds no maxadv value acknowledged for property HTL001" in result.stderr
    empty = cal("threshold", "--property", "HTL009", env=sandbox_env(thresholds))
    assert empty.exit_code == 1 and "for property HTL009" in empty.stderr


def test_an_empty_journal_exits_1(journal_home: Path) -> None:
    result = cal("threshold", "--property", "HTL001")
    assert result.exit_code == 1 and "it has no runs yet" in result.stderr
    assert not (journal_home / "journal.sqlite3").exists()


def test_a_window_with_nothing_shows_dots_and_says_where_values_are(thresholds: Sandbox) -> None:
    result = cal("threshold", "--property", "HTL001", "--from", "2027-03-01", "--to", "2027-03-05", env=sandbox_env(thresholds))  # fmt: skip
    assert result.exit_code == 0
    assert key_line(result.stdout, "DBL") == ["·"] * 5
    assert "nothing acknowledged between 2027-03-01 and 2027-03-05; the journal has values from 2027-01-01 to 2027-01-10" in result.stderr  # fmt: skip


def test_the_default_window_runs_to_the_end_of_the_next_month(thresholds: Sandbox) -> None:
    doc = json.loads(cal("threshold", "--property", "HTL001", "--from", "2027-01-15", "-o", "json").stdout)
    assert (doc["from"], doc["to"]) == ("2027-01-15", "2027-02-28")
    today = dt.date.today()
    doc = json.loads(cal("threshold", "--property", "HTL001", "-o", "json").stdout)
    assert doc["from"] == today.isoformat() and dt.date.fromisoformat(doc["to"]).month == (today.month % 12) + 1


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--from", "2027-02-30"], '--from: "2027-02-30" is not a valid date'),
        (["--to", "soon"], '--to: "soon" is not a date; give YYYY-MM-DD'),
        (["--from", "2027-02-01", "--to", "2027-01-01"], "--to 2027-01-01 is before --from 2027-02-01"),
        (["--from", "2027-01-01", "--to", "2028-06-01"], "2027-01-01..2028-06-01 is more than 366 days"),
        (["--rate", "BAR"], "--rate: sell thresholds are per room, not per rate"),
    ],
)
def test_bad_dates_and_options_are_usage_errors(thresholds: Sandbox, args: list[str], message: str) -> None:
    result = cal("threshold", "--property", "HTL001", *args)
    assert result.exit_code == 2
    assert f"error: {message}" in result.stderr


def test_unknown_rooms_are_an_error_that_lists_the_known(thresholds: Sandbox) -> None:
    result = cal("threshold", "--property", "HTL001", "--room", "XYZ", env=sandbox_env(thresholds))
    assert result.exit_code == 1
    assert "no value of property HTL001 for the rooms and rates given" in result.stderr
    assert "known: DBL, STE, TWN" in result.stderr


# --- colours ----------------------------------------------------------------------------------


def _view(values: dict[tuple[str, ...], dict[dt.date, str]], operation: str = "threshold") -> CalendarView:
    day = dt.date(2027, 1, 1)
    return CalendarView(operation, "HTL001", "https://x", "cpbA1", day, day + dt.timedelta(days=30), values)


def _draw(view: CalendarView, **console: Any) -> str:
    buffer = io.StringIO()
    calendar(view, Console(file=buffer, force_terminal=True, color_system="truecolor", width=200, **console))
    return buffer.getvalue()


def _plain(text: str) -> str:
    return re.sub(r"\x1b\[[0-9;]*m", "", text)


def test_values_are_coloured_on_a_terminal_and_not_with_no_color() -> None:
    first = dt.date(2027, 1, 1)
    view = _view({("HTL001", "DBL"): {first: "1", first + dt.timedelta(days=1): "5"}})
    coloured = _draw(view)
    backgrounds = set(re.findall(r"48;2;(\d+;\d+;\d+)", coloured))
    assert len(backgrounds) == 2, "two values, two colours"
    plain = _draw(view, no_color=True)
    assert not re.search(r"\x1b\[[0-9;]*[34]8;", plain)
    for text in (coloured, plain):
        assert key_line(_plain(text), "DBL") == ["1", "5", *["·"] * 29]


def test_many_values_share_the_palette_in_order() -> None:
    first = dt.date(2027, 1, 1)
    view = _view({("HTL001", "DBL"): {first + dt.timedelta(days=n): str(n) for n in range(20)}})
    coloured = _draw(view)
    backgrounds = re.findall(r"48;2;(\d+;\d+;\d+)m\s*(\d+)", coloured)
    steps = {int(value): colour for colour, value in backgrounds}
    assert len(set(steps.values())) == 7
    assert steps[0] != steps[19]


def test_a_narrow_terminal_cuts_each_month_in_even_pieces() -> None:
    first = dt.date(2027, 1, 1)
    view = _view({("HTL001", "DBL"): {first: "1"}})
    buffer = io.StringIO()
    calendar(view, Console(file=buffer, force_terminal=True, no_color=True, width=70))
    out = buffer.getvalue()
    assert "January 2027 (1-16)" in out and "January 2027 (17-31)" in out
    assert max(len(re.sub(r"\x1b\[[0-9;]*m", "", line)) for line in out.splitlines()) <= 70
