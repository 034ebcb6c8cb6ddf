"""`ari-cli why`: what the service holds on one night for a room, after real pushes to the sandbox, with who set it."""

from __future__ import annotations

import datetime as dt
import json
import sqlite3
from pathlib import Path

import pytest
from typer.testing import Result

import ari_cli
from ari_cli.journal.entries import who
from ari_cli.render.history.runs import local_time
from ari_cli.sandbox import Sandbox
from tests.browser import dom, needs_browser
from tests.helpers import invoke, sandbox_env
from tests.test_history import push

SAMPLES = Path(__file__).resolve().parent.parent / "samples"
NIGHT = "2027-03-24"
FREE = (
    "Free cancellation until 7 days before arrival; after that 100% of the first night; from 1 day before arrival, "
    "100% of the stay."
)


def why(*args: str, env: dict[str, str] | None = None) -> Result:
    return invoke(["why", *args], env=env)


def answered(home: Path, run: int) -> str:
    """When the service acknowledged the run's (one) request, as the text shows a time."""
    with sqlite3.connect(home / "journal.sqlite3") as db:
        (stamp,) = db.execute("SELECT answered FROM requests WHERE run = ? AND state = 'ok'", (run,)).fetchone()
    return local_time(stamp)


def started(home: Path, run: int) -> str:
    with sqlite3.connect(home / "journal.sqlite3") as db:
        (stamp,) = db.execute("SELECT started FROM runs WHERE id = ?", (run,)).fetchone()
    return local_time(stamp)


def section(out: str, title: str) -> list[str]:
    """The lines under a setting's title, up to the blank line after them."""
    lines = out.splitlines()
    at = lines.index(title)
    block = []
    for line in lines[at + 1 :]:
        if not line.strip():
            break
        block.append(line)
    return block


@pytest.fixture
def pushed(sb: Sandbox, tmp_path: Path) -> Sandbox:
    """Each setting by a run and a file of its own: thresholds (run 1, a.csv), a later threshold for a few nights
    (run 2, b.csv), max advance booking of two rates (run 3, m.csv), policies of two rates (run 4, policy.csv)."""
    rows = ("HTL001,DBL,2027-03-01,2027-03-31,2", "HTL001,TWN,2027-03-01,2027-03-31,n/a")
    assert push(sb, tmp_path, "a.csv", *rows).exit_code == 0
    assert push(sb, tmp_path, "b.csv", "HTL001,DBL,2027-03-20,2027-03-25,5").exit_code == 0
    rows = ("HTL001,DBL,BAR,2027-03-01,2027-03-31,90", "HTL001,DBL,NRF,2027-03-01,2027-03-10,30")
    assert push(sb, tmp_path, "m.csv", *rows, operation="maxadv").exit_code == 0
    done = invoke(["policy", "push", str(SAMPLES / "policy.csv"), "--today", "2027-01-01"], env=sandbox_env(sb))
    assert done.exit_code == 0, done.output
    return sb


def test_each_setting_says_its_value_and_the_run_file_line_user_and_time_that_set_it(
    pushed: Sandbox, tmp_path: Path, journal_home: Path
) -> None:
    result = why("--property", "HTL001", "--room", "DBL", "--date", NIGHT, env=sandbox_env(pushed))
    assert (result.exit_code, result.stderr) == (0, "")
    out = result.stdout
    lines = out.splitlines()
    assert lines[0] == (
        f"HTL001 room DBL, the night of {NIGHT} (Wednesday): what {pushed.base_url} (source cpbA1) holds"
    )
    assert lines[1] == f"as acknowledged to this journal; last run 4 at {started(journal_home, 4)}"
    name, host = who()
    assert section(out, "Sell Threshold") == [
        "value   5",
        "dates   held from 2027-03-20 to 2027-03-25",
        f"set by  run 2 (threshold push): {tmp_path / 'b.csv'}:2, {name} on {host}, acknowledged {answered(journal_home, 2)}",
    ]
    assert section(out, "Max Advance Booking, rate BAR") == [
        "value   90: bookable from 2026-12-24 (90 days ahead)",
        "dates   held from 2027-03-01 to 2027-03-31",
        f"set by  run 3 (maxadv push): {tmp_path / 'm.csv'}:2, {name} on {host}, acknowledged {answered(journal_home, 3)}",
    ]
    assert section(out, "Cancellation and Deposit, rate NRF") == [
        "cancellation  Non-refundable.",
        "deposit       Deposit: 100% of the stay, charged at booking.",
        "dates         held from 2027-01-01 to 2027-06-30",
        f"set by        run 4 (policy push): {SAMPLES / 'policy.csv'}:4, {name} on {host}, acknowledged {answered(journal_home, 4)}",
    ]
    # Two rows made the BAR policy (its two cancellation levels): both lines are named.
    assert section(out, "Cancellation and Deposit, rate BAR")[:2] == [
        f"cancellation  {FREE}",
        "deposit       No deposit required.",
    ]
    assert f"{SAMPLES / 'policy.csv'}:2-3," in section(out, "Cancellation and Deposit, rate BAR")[3]
    # An earlier night of the same room is still the first run's.
    earlier = why("--property", "HTL001", "--room", "DBL", "--date", "2027-03-05", env=sandbox_env(pushed)).stdout
    assert section(earlier, "Sell Threshold")[0] == "value   2"
    assert f"run 1 (threshold push): {tmp_path / 'a.csv'}:2," in section(earlier, "Sell Threshold")[2]


def test_without_rate_every_rate_known_for_the_room_is_listed_and_with_it_only_that_one(pushed: Sandbox) -> None:
    out = why("--property", "HTL001", "--room", "DBL", "--date", NIGHT, env=sandbox_env(pushed)).stdout
    titles = [line for line in out.splitlines() if line and not line.startswith(" ") and "  " not in line]
    assert titles[2:] == [
        "Sell Threshold",
        "Max Advance Booking, rate BAR",
        "Max Advance Booking, rate NRF",
        "Cancellation and Deposit, rate BAR",
        "Cancellation and Deposit, rate NRF",
    ]
    # NRF's max advance booking ends on the 10th: known for the room, nothing known for this night.
    assert section(out, "Max Advance Booking, rate NRF") == ["value  nothing known"]
    one = why("--property", "HTL001", "--room", "DBL", "--rate", "NRF", "--date", "2027-03-05", env=sandbox_env(pushed))
    assert one.stdout.splitlines()[0].startswith("HTL001 room DBL, rate NRF, the night of 2027-03-05 (Friday)")
    assert "rate BAR" not in one.stdout
    assert (
        section(one.stdout, "Max Advance Booking, rate NRF")[0]
        == "value   30: bookable from 2027-02-03 (30 days ahead)"
    )


def test_a_cleared_value_a_night_nothing_set_and_an_unknown_rate_say_so(pushed: Sandbox) -> None:
    out = why("--property", "HTL001", "--room", "TWN", "--date", NIGHT, env=sandbox_env(pushed)).stdout
    assert section(out, "Sell Threshold")[:2] == ["value   cleared (n/a): no value", "dates   held from 2027-03-01 to 2027-03-31"]  # fmt: skip
    # TWN has no rate known at all: one line of nothing known per setting set per rate.
    assert section(out, "Max Advance Booking") == ["value  nothing known"]
    assert section(out, "Cancellation and Deposit") == ["value  nothing known"]
    later = why("--property", "HTL001", "--room", "DBL", "--date", "2027-12-24", env=sandbox_env(pushed))
    assert later.exit_code == 0
    assert later.stdout.splitlines()[1].startswith("as acknowledged to this journal; last run 4 at ")
    for title in ("Sell Threshold", "Max Advance Booking, rate BAR", "Cancellation and Deposit, rate NRF"):
        assert section(later.stdout, title) == ["value  nothing known"]
    rate = why("--property", "HTL001", "--room", "DBL", "--rate", "FLEX", "--date", NIGHT, env=sandbox_env(pushed))
    assert section(rate.stdout, "Max Advance Booking, rate FLEX") == ["value  nothing known"]
    assert section(rate.stdout, "Sell Threshold")[0] == "value   5"


def test_json_is_one_document_with_every_setting(pushed: Sandbox, tmp_path: Path) -> None:
    result = why("--property", "HTL001", "--room", "DBL", "--date", NIGHT, "-o", "json", env=sandbox_env(pushed))
    assert (result.exit_code, result.stderr) == (0, "")
    doc = json.loads(result.stdout)
    assert {k: doc[k] for k in ("propertyid", "roomid", "rateid", "date", "base_url", "source_id")} == {
        "propertyid": "HTL001", "roomid": "DBL", "rateid": None, "date": NIGHT, "base_url": pushed.base_url,
        "source_id": "cpbA1"}  # fmt: skip
    assert doc["last_run"]["id"] == 4 and doc["as_of"].startswith("as acknowledged to this journal; last run 4 at ")
    settings = {(s["operation"], s["rateid"]): s for s in doc["settings"]}
    assert list(settings) == [("threshold", None), ("maxadv", "BAR"), ("maxadv", "NRF"), ("policy", "BAR"),
                              ("policy", "NRF")]  # fmt: skip
    threshold = settings["threshold", None]
    assert {k: threshold[k] for k in ("known", "value", "cleared", "from", "to")} == {
        "known": True, "value": "5", "cleared": False, "from": "2027-03-20", "to": "2027-03-25"}  # fmt: skip
    by = threshold["set_by"]
    assert (by["run"], by["command"], by["lines"], by["files"]) == (
        2, "ari-cli threshold push", f"{tmp_path / 'b.csv'}:2", [str(tmp_path / "b.csv")])  # fmt: skip
    assert dt.datetime.fromisoformat(by["acknowledged"]).tzinfo is not None
    assert settings["maxadv", "BAR"]["bookable_from"] == "2026-12-24"
    assert settings["maxadv", "NRF"] == {
        "operation": "maxadv", "label": "Max Advance Booking", "rateid": "NRF", "known": False, "value": None,
        "cleared": False, "words": ["nothing known"], "from": None, "to": None, "set_by": None, "bookable_from": None,
    }  # fmt: skip
    policy = settings["policy", "NRF"]
    assert policy["value"]["refundable"] == "false" and policy["value"]["policydetails"]["deposit"]["depositamount"] == 100  # fmt: skip
    assert policy["words"] == ["Non-refundable.", "Deposit: 100% of the stay, charged at booking."]
    assert "bookable_from" not in policy


def test_html_is_a_small_page_with_every_value_escaped(sb: Sandbox, tmp_path: Path) -> None:
    # A file name is the user's text: the page shows it, never as markup.
    assert push(sb, tmp_path, "<i>&odd.csv", "HTL001,DBL,2027-03-01,2027-03-31,7").exit_code == 0
    result = why("--property", "HTL001", "--room", "DBL", "--date", NIGHT, "-o", "html", env=sandbox_env(sb))
    assert (result.exit_code, result.stderr) == (0, "")
    page = result.stdout
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")
    assert "<i>&odd" not in page and "&lt;i&gt;&amp;odd.csv:2" in page
    assert "<h2>Sell Threshold</h2>" in page and '<dd class="value">7</dd>' in page
    assert '<section class="unknown">\n  <h2>Max Advance Booking</h2>' in page
    assert "as acknowledged to this journal; last run 1 at " in page
    assert "<script" not in page and "default-src 'none'" in page


@needs_browser
def test_the_page_draws_in_a_browser(pushed: Sandbox, tmp_path: Path) -> None:
    result = why("--property", "HTL001", "--room", "DBL", "--date", NIGHT, "-o", "html", env=sandbox_env(pushed))
    page = tmp_path / "why.html"
    page.write_text(result.stdout, encoding="utf-8")
    drawn = dom(page)
    assert "<h2>Cancellation and Deposit, rate NRF</h2>" in drawn
    assert "90: bookable from 2026-12-24 (90 days ahead)" in drawn
    assert drawn.count("<section") == 5


def test_the_service_is_the_latest_when_none_is_configured_and_any_spelling_of_it_when_one_is(pushed: Sandbox) -> None:
    result = why("--property", "HTL001", "--room", "DBL", "--date", NIGHT)
    assert result.exit_code == 0
    assert (
        f"no base URL and source id configured: showing {pushed.base_url} (source cpbA1), where run 4, the latest "
        "to push threshold, maxadv or policy values of HTL001, went" in result.stderr
    )
    assert section(result.stdout, "Sell Threshold")[0] == "value   5"
    quiet = why("--property", "HTL001", "--room", "DBL", "--date", NIGHT, "--quiet")
    assert (quiet.exit_code, quiet.stderr) == (0, "")
    spelled = {**sandbox_env(pushed), "ARI_BASE_URL": pushed.base_url.replace("http://", "HTTP://") + "/"}
    again = why("--property", "HTL001", "--room", "DBL", "--date", NIGHT, env=spelled)
    assert again.stdout == result.stdout


def test_an_unknown_property_or_room_is_nothing_known_with_a_warning_naming_the_known(pushed: Sandbox) -> None:
    result = why("--property", "HTL009", "--room", "DBL", "--date", NIGHT, env=sandbox_env(pushed))
    assert result.exit_code == 0
    assert [line for line in result.stdout.splitlines() if line.startswith("value")] == ["value  nothing known"] * 3
    assert result.stderr == (
        f"warning: the journal holds no value of property HTL009 acknowledged by {pushed.base_url} (source cpbA1); "
        "properties it knows there: HTL001, HTL002\n"
    )
    room = why("--property", "HTL001", "--room", "XYZ", "--date", NIGHT, env=sandbox_env(pushed))
    assert room.exit_code == 0
    assert "no value of room XYZ of property HTL001" in room.stderr and "rooms it knows there: DBL, TWN" in room.stderr


def test_with_no_service_configured_and_none_known_it_exits_1(pushed: Sandbox, journal_home: Path) -> None:
    result = why("--property", "HTL009", "--room", "DBL", "--date", NIGHT)
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr.startswith(
        "error: the journal holds no threshold, maxadv or policy value acknowledged for property HTL009\n"
        f"hint: the journal is {journal_home / 'journal.sqlite3'}"
    )


def test_an_empty_journal_exits_1_and_a_configured_service_with_no_journal_knows_nothing(
    sb: Sandbox, journal_home: Path
) -> None:
    result = why("--property", "HTL001", "--room", "DBL", "--date", NIGHT)
    assert (result.exit_code, result.stdout) == (1, "")
    assert result.stderr.startswith("error: the journal holds no value: it has no runs yet")
    known = why("--property", "HTL001", "--room", "DBL", "--date", NIGHT, env=sandbox_env(sb))
    assert known.exit_code == 0
    assert known.stdout.splitlines()[1] == "as acknowledged to this journal; it holds no run to this service"
    assert not (journal_home / "journal.sqlite3").exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--date", "2027-02-30"], 'error: --date: "2027-02-30" is not a valid date'),
        (["--date", "soon"], 'error: --date: "soon" is not a date'),
        (["--date", NIGHT, "--rate", ""], "error: --rate needs a rate id"),
        (["--date", NIGHT, "--output", "csv"], "error: Invalid value for '--output'"),
        ([], "error: Missing option '--date'"),
        (["--date", NIGHT, "--room", ""], "error: --property and --room need an id each"),
    ],
)
def test_bad_inputs_are_usage_errors_naming_the_option(pushed: Sandbox, args: list[str], message: str) -> None:
    result = why("--property", "HTL001", "--room", "DBL", *args, env=sandbox_env(pushed))
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.startswith(message), result.stderr
    assert "Traceback" not in result.stderr


def test_a_date_is_read_by_the_one_date_rule(pushed: Sandbox) -> None:
    today = dt.date.today()
    doc = json.loads(why("--property", "HTL001", "--room", "DBL", "--date", "today+3", "-o", "json").stdout)
    assert doc["date"] == (today + dt.timedelta(days=3)).isoformat()
    doc = json.loads(why("--property", "HTL001", "--room", "DBL", "--date", "24 March 2027", "-o", "json").stdout)
    assert doc["date"] == NIGHT


def test_a_value_set_by_a_retry_names_the_retry_and_the_file_it_resent(sb: Sandbox, tmp_path: Path) -> None:
    sb.queue_error(503, times=1)  # the push's one try: the retry is answered
    failed = push(sb, tmp_path, "r.csv", "HTL001,DBL,2027-03-01,2027-03-31,4", extra=("--retries", "0"))
    assert failed.exit_code == 1
    assert invoke(["retry", "1"], env=sandbox_env(sb)).exit_code == 0
    doc = json.loads(why("--property", "HTL001", "--room", "DBL", "--date", NIGHT, "-o", "json", env=sandbox_env(sb)).stdout)  # fmt: skip
    by = doc["settings"][0]["set_by"]
    assert (by["run"], by["command"], by["lines"]) == (2, "ari-cli retry", f"{tmp_path / 'r.csv'}:2")


def test_a_run_pruned_since_leaves_its_number_and_value(pushed: Sandbox, journal_home: Path) -> None:
    with sqlite3.connect(journal_home / "journal.sqlite3") as db:
        db.execute("DELETE FROM runs WHERE id = 2")  # as `history prune` leaves what the service holds
    out = why("--property", "HTL001", "--room", "DBL", "--date", NIGHT, env=sandbox_env(pushed)).stdout
    assert section(out, "Sell Threshold") == [
        "value   5",
        "dates   held from 2027-03-20 to 2027-03-25",
        "set by  run 2, since pruned from the journal (its file and lines are not known)",
    ]


def test_from_python_why_returns_the_typed_answer(pushed: Sandbox, tmp_path: Path) -> None:
    found = ari_cli.why("HTL001", "DBL", dt.date(2027, 3, 24), base_url=pushed.base_url, source_id="cpbA1")
    assert isinstance(found, ari_cli.Why)
    assert found.night == dt.date(2027, 3, 24) and found.last_run is not None and found.last_run.id == 4
    threshold = found.of("threshold")
    assert threshold.held is not None and threshold.held.value == "5"
    assert threshold.held.set_by.run == 2 and threshold.held.set_by.lines == ((str(tmp_path / "b.csv"), 2, 2, 1),)
    assert found.of("maxadv", "BAR").bookable_from == dt.date(2026, 12, 24)
    assert found.of("maxadv", "NRF").held is None
    same = ari_cli.why("HTL001", "DBL", NIGHT, rateid="BAR")  # the latest service, as the command chooses it
    assert [(s.operation, s.rateid) for s in same.settings] == [("threshold", None), ("maxadv", "BAR"), ("policy", "BAR")]  # fmt: skip
    with pytest.raises(ari_cli.UsageProblem, match="--date"):
        ari_cli.why("HTL001", "DBL", "2027-02-30")
    with pytest.raises(ari_cli.UsageProblem, match="date="):
        ari_cli.why("HTL001", "DBL", 20270324)  # type: ignore[arg-type]
