"""The HTML report (`--report run.html`, `--output html`): drawn by headless Chromium, checked as a person sees it.

Reports are made by the console script against the sandbox, on files each test writes.
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
from pathlib import Path

import pytest

from ari_cli.sandbox import Sandbox
from tests.browser import ari, dom, drawn, narrow, needs_browser, pdf_pages, png_colours, screenshot
from tests.helpers import sandbox_env

ROWS = """propertyid,roomid,start,end,threshold
HTL001,DBL,2027-01-01,2027-01-10,2
HTL001,DBL,2027-01-11,2027-01-20,4
HTL001,TWN,2027-01-03,2027-01-04,n/a
HTL001,STE,2027-02-01,2027-02-05,1
HTL002,DBL,2027-01-05,2027-01-06,3
"""
TODAY = ("--today", "2027-01-01")


def env_of(sb: Sandbox) -> dict[str, str]:
    return {**os.environ, **sandbox_env(sb), "NO_COLOR": "1"}


def write(folder: Path, text: str = ROWS, name: str = "rooms.csv") -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def pushed(sb: Sandbox, tmp_path: Path) -> Path:
    """A push of ROWS with `--report run.html`."""
    report = tmp_path / "run.html"
    done = ari("threshold", "push", str(write(tmp_path)), *TODAY, "--report", str(report), env=env_of(sb))
    assert done.returncode == 0, done.stderr
    return report


def test_report_path_must_end_in_a_known_suffix(tmp_path: Path) -> None:
    done = ari("threshold", "push", str(write(tmp_path)), "--dry-run", *TODAY, "--report", str(tmp_path / "r.txt"))
    assert done.returncode == 2
    assert "give a path ending in .csv, .json or .html" in done.stderr
    assert done.stdout == ""


def test_the_page_is_self_contained_and_fetches_nothing(pushed: Path) -> None:
    html = pushed.read_text(encoding="utf-8")
    assert "default-src 'none'" in html  # the browser refuses any request the page might make
    assert not re.search(r"""(src|href|action)\s*=\s*["']?\s*(https?:)?//""", html, re.IGNORECASE)
    assert not re.search(r"url\(\s*[\"']?(https?:)?//", html, re.IGNORECASE)
    assert not re.search(r"@import|<link\b", html, re.IGNORECASE)
    # The header names the service, never the key.
    assert "cpbA1" in html
    assert "sandbox-key" not in html and "Bearer" not in html


@needs_browser
def test_each_room_has_its_line_and_each_date_its_value(pushed: Path) -> None:
    page = drawn(dom(pushed))
    assert page.body.get("data-drawn") == "1"
    assert [(p, r) for p, r, _, _ in page.lines] == [
        ("HTL001", "DBL"), ("HTL001", "STE"), ("HTL001", "TWN"), ("HTL002", "DBL"),
    ]  # fmt: skip
    assert page.cell("DBL", "2027-01-05").value == "2"
    assert page.cell("DBL", "2027-01-15").value == "4"
    assert page.cell("DBL", "2027-01-06", property="HTL002").value == "3"
    stay = page.cell("STE", "2027-02-03")
    assert stay.value == "1"
    # The value as text on hover and for screen readers.
    # Dates written as every table of the page writes them (issue 43: one way, first..last).
    assert stay.title == stay.label == "STE, 2027-02-01..2027-02-05: 1; changed by this run (new, changed or cleared)"
    # Cleared dates are drawn as cleared; dates nothing set have no cell at all (unknown).
    cleared = page.cell("TWN", "2027-01-03")
    assert "cleared" in cleared.classes and cleared.label.endswith(
        "n/a (cleared); changed by this run (new, changed or cleared)"
    )
    assert not [c for c in page.cells if c.room == "TWN" and c.first <= "2027-01-05" <= c.last]
    # Weekends are shaded: 2027-01-01 is a Friday, so the 2nd and 3rd are the first weekend.
    assert page.weekends[:4] == [2, 3, 9, 10]
    # What this run sent and the service took is outlined.
    assert all("changed" in c.classes for c in page.cells)


@needs_browser
def test_a_dry_run_outlines_what_would_change_and_a_refused_request_is_not_outlined(
    sb: Sandbox, tmp_path: Path
) -> None:
    report = tmp_path / "dry.html"
    done = ari("threshold", "push", str(write(tmp_path)), "--dry-run", *TODAY, "--report", str(report))
    assert done.returncode == 0, done.stderr
    page = drawn(dom(report))
    assert all("changed" in c.classes for c in page.cells)
    assert "would change (new, changed or cleared)" in report.read_text(encoding="utf-8")
    # A request the service refuses: its dates are drawn, not outlined; the row says what to check.
    sb.queue_error(422, times=1)
    report = tmp_path / "refused.html"
    one = "propertyid,roomid,start,end,threshold\nHTL001,DBL,2027-01-01,2027-01-02,2\n"
    done = ari("threshold", "push", str(write(tmp_path, one, "one.csv")), *TODAY, "--report", str(report),
               env=env_of(sb))  # fmt: skip
    assert done.returncode == 1
    page = drawn(dom(report))
    refused = page.cell("DBL", "2027-01-01")
    assert "changed" not in refused.classes and "notapplied" in refused.classes
    [row] = page.rows["rows-table"]
    assert row[3] == "failed"
    assert "check:" in row[10]  # what to check, from the spec's error table


@needs_browser
def test_failed_and_invalid_ranges_are_drawn_not_applied_never_in_a_values_colour(sb: Sandbox, tmp_path: Path) -> None:
    # XXX is not mapped (451), so its request fails; TWN's threshold is invalid and skipped.
    rows = """propertyid,roomid,start,end,threshold
HTL001,DBL,2027-01-01,2027-01-10,2
HTL001,XXX,2027-01-01,2027-01-05,2
HTL002,DBL,2027-01-05,2027-01-06,3
HTL001,TWN,2027-01-03,2027-01-04,bad
"""
    report = tmp_path / "mixed.html"
    done = ari("threshold", "push", str(write(tmp_path, rows)), *TODAY, "--skip-invalid", "--report", str(report),
               env=env_of(sb))  # fmt: skip
    assert done.returncode == 1, done.stderr
    page = drawn(dom(report))
    set_ = page.cell("DBL", "2027-01-03")
    assert "changed" in set_.classes and "notapplied" not in set_.classes and "background" in set_.style
    failed = page.cell("XXX", "2027-01-03")
    assert "notapplied" in failed.classes and "changed" not in failed.classes
    assert "background" not in failed.style  # not the colour of 2, which DBL is drawn in
    assert failed.value == "2" and failed.label.endswith(": 2; not applied: failed")
    invalid = page.cell("TWN", "2027-01-03")
    assert "notapplied" in invalid.classes and invalid.label.endswith(": bad; not applied: invalid")
    html = report.read_text(encoding="utf-8")
    legend = html.split('aria-label="legend"', 1)[1].split("</ul>", 1)[0]
    assert '<span class="swatch notapplied"></span>not applied: failed' in legend
    assert '<span class="swatch notapplied"></span>not applied: invalid' in legend


@needs_browser
def test_a_dry_run_right_after_a_push_marks_nothing_as_changing(pushed: Path, sb: Sandbox, tmp_path: Path) -> None:
    env = env_of(sb)
    report = tmp_path / "again.html"
    done = ari("threshold", "push", str(tmp_path / "rooms.csv"), "--dry-run", *TODAY, "--report", str(report), env=env)
    assert done.returncode == 0, done.stderr
    page = drawn(dom(report))
    assert page.cells and not [c for c in page.cells if "changed" in c.classes]
    assert all("same" in c.classes and c.label.endswith("; same: the service has it") for c in page.cells)
    # As `diff` says of the same file.
    assert "0 changed" in ari("threshold", "diff", str(tmp_path / "rooms.csv"), *TODAY, env=env).stdout
    # One room changed: only its dates are marked, the rest say same (--confirm's page reads the same way).
    changed = ROWS.replace("2027-02-05,1", "2027-02-05,7")
    report = tmp_path / "confirmed.html"
    done = ari("threshold", "push", str(write(tmp_path, changed, "changed.csv")), *TODAY, "--confirm", "--yes",
               "--report", str(report), env=env)  # fmt: skip
    assert done.returncode == 0, done.stderr
    page = drawn(dom(report))
    assert {c.room for c in page.cells if "changed" in c.classes} == {"STE"}
    assert "same" in page.cell("DBL", "2027-01-05").classes


@needs_browser
def test_the_filters_narrow_the_map_and_the_rows(pushed: Path) -> None:
    page = drawn(dom(pushed, "?room=DBL"))
    assert page.visible_rooms() == ["DBL", "DBL"]
    assert {row[5] for row in page.rows["rows-table"]} == {"DBL"}
    page = drawn(dom(pushed, "?property=HTL002"))
    assert [row[4] for row in page.rows["rows-table"]] == ["HTL002"]
    page = drawn(dom(pushed, "?status=failed"))
    assert page.rows["rows-table"] == []
    page = drawn(dom(pushed, "?status=ok"))
    assert len(page.rows["rows-table"]) == 5


def test_without_scripts_the_ranges_and_rows_show_as_tables(pushed: Path) -> None:
    # What a browser shows inside <noscript> when scripts are off (Chromium's --dump-dom needs scripts on).
    html = pushed.read_text(encoding="utf-8").split("<noscript>", 1)[1]
    assert "<td>HTL001</td><td>STE</td><td></td><td>2027-02-01..2027-02-05</td><td>1</td>" in html
    assert "<summary>ok (5)</summary>" in html


@needs_browser
def test_the_screenshot_is_not_blank(pushed: Path, tmp_path: Path) -> None:
    png = screenshot(pushed, tmp_path / "shot.png")
    colours = png_colours(png)
    assert len(colours) > 20, colours


@needs_browser
def test_it_prints_on_a4_landscape(pushed: Path, tmp_path: Path) -> None:
    pages = pdf_pages(pushed, tmp_path / "printed.pdf")
    assert pages
    for width, height in pages:
        assert (round(width / 72 * 25.4), round(height / 72 * 25.4)) == (297, 210)  # millimetres


@needs_browser
def test_a_room_id_from_the_file_shows_as_text(tmp_path: Path) -> None:
    hostile = "<script>alert(1)</script>"
    rows = f'propertyid,roomid,start,end,threshold\nHTL001,"{hostile}",2027-01-01,2027-01-02,2\n'
    report = tmp_path / "hostile.html"
    done = ari("threshold", "push", str(write(tmp_path, rows)), "--dry-run", *TODAY, "--report", str(report))
    assert done.returncode in (0, 3), done.stderr
    html = report.read_text(encoding="utf-8")
    assert hostile not in html  # neither in the header, the tables for readers without scripts, nor the data
    shown = dom(report)
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in shown  # drawn as text
    assert "<script>alert(1)" not in shown
    assert any(row[5] == hostile for row in drawn(shown).rows["rows-table"])


@needs_browser
def test_a_service_message_with_html_shows_as_text(sb: Sandbox, tmp_path: Path) -> None:
    message = '<b>bold</b><img src=x onerror="document.title=1"></script><script>alert(2)</script>'
    body = {"success": False, "errors": [{"code": 451, "message": message}]}
    sb.queue_raw(422, json.dumps(body), {"Content-Type": "application/json"})
    rows = "propertyid,roomid,start,end,threshold\nHTL001,DBL,2027-01-01,2027-01-02,2\n"
    report = tmp_path / "answer.html"
    done = ari("threshold", "push", str(write(tmp_path, rows)), *TODAY, "--report", str(report), env=env_of(sb))
    assert done.returncode == 1, done.stderr
    html = report.read_text(encoding="utf-8")
    assert "<b>bold</b>" not in html and "alert(2)</script>" not in html and "<img" not in html
    shown = dom(report)
    assert "<img" not in shown and "<b>bold" not in shown
    [row] = drawn(shown).rows["rows-table"]
    assert row[3] == "failed" and message in row[10]  # the message, as text


@needs_browser
def test_diff_page_shows_new_changed_cleared_and_same_with_before_and_after(sb: Sandbox, tmp_path: Path) -> None:
    env = env_of(sb)
    assert ari("threshold", "push", str(write(tmp_path)), *TODAY, env=env).returncode == 0
    later = """propertyid,roomid,start,end,threshold
HTL001,DBL,2027-01-01,2027-01-10,2
HTL001,DBL,2027-01-11,2027-01-20,5
HTL001,STE,2027-02-01,2027-02-05,n/a
HTL001,KNG,2027-01-01,2027-01-02,1
"""
    done = ari("threshold", "diff", str(write(tmp_path, later, "later.csv")), *TODAY, "--show", "all",
               "--output", "html", env=env)  # fmt: skip
    assert done.returncode == 0, done.stderr
    page_file = tmp_path / "diff.html"
    page_file.write_text(done.stdout, encoding="utf-8")
    page = drawn(dom(page_file))
    kinds = {(row[1], row[4]): (row[5], row[6]) for row in page.rows["diff-table"]}
    assert kinds[("DBL", "same")] == ("2", "2")
    assert kinds[("DBL", "changed")] == ("4", "5")
    assert kinds[("STE", "cleared")] == ("1", "n/a")
    assert kinds[("KNG", "new")] == ("(nothing)", "1") or kinds[("KNG", "new")][1] == "1"
    assert "changed" in page.cell("DBL", "2027-01-12").classes
    assert "changed" not in page.cell("DBL", "2027-01-02").classes
    assert page.cell("DBL", "2027-01-12").value == "5"


@needs_browser
def test_calendar_and_history_show_pages(sb: Sandbox, tmp_path: Path) -> None:
    env = env_of(sb)
    assert ari("threshold", "push", str(write(tmp_path)), *TODAY, env=env).returncode == 0
    done = ari("calendar", "threshold", "--property", "HTL001", "--from", "2027-01-01", "--to", "2027-02-28",
               "--output", "html", env=env)  # fmt: skip
    assert done.returncode == 0, done.stderr
    (tmp_path / "cal.html").write_text(done.stdout, encoding="utf-8")
    page = drawn(dom(tmp_path / "cal.html"))
    assert [r for _, r, _, _ in page.lines] == ["DBL", "STE", "TWN"]
    assert page.cell("DBL", "2027-01-09").value == "2"
    assert "cleared" in page.cell("TWN", "2027-01-04").classes
    done = ari("history", "show", "last", "--output", "html", env=env)
    assert done.returncode == 0, done.stderr
    (tmp_path / "run.html").write_text(done.stdout, encoding="utf-8")
    page = drawn(dom(tmp_path / "run.html"))
    assert page.cell("DBL", "2027-01-15").value == "4"
    assert "changed" in page.cell("DBL", "2027-01-15").classes  # acknowledged in that run
    # Alike rows of one room next to each other are one group, as the run's own report groups them.
    groups = page.rows["rows-table"]
    assert [(g[1], g[2], g[5], g[8]) for g in groups] == [
        ("2-3", "2", "DBL", "(several)"), ("4", "1", "TWN", "n/a"), ("5", "1", "STE", "1"), ("6", "1", "DBL", "3"),
    ]  # fmt: skip


def test_the_journal_records_who_ran_a_run_and_older_runs_say_unknown(
    sb: Sandbox, tmp_path: Path, journal_home: Path
) -> None:
    env = env_of(sb)
    assert ari("threshold", "push", str(write(tmp_path)), *TODAY, env=env).returncode == 0
    with sqlite3.connect(journal_home / "journal.sqlite3") as db:
        user, host = db.execute("SELECT user, host FROM runs").fetchone()
    assert user and host and user != "unknown"
    done = ari("history", "show", "last", "--output", "html", env=env)
    assert f"{user} on {host}" in done.stdout
    # A journal written before who ran was recorded: its runs say unknown, and the next push adds the columns.
    db = sqlite3.connect(journal_home / "journal.sqlite3")
    db.execute("ALTER TABLE runs DROP COLUMN user")
    db.execute("ALTER TABLE runs DROP COLUMN host")
    db.commit()
    db.close()
    done = ari("history", "show", "1", "--output", "html", env=env)
    assert done.returncode == 0, done.stderr
    assert "unknown on unknown" in done.stdout
    assert ari("threshold", "push", str(write(tmp_path)), *TODAY, env=env).returncode == 0
    assert "unknown on unknown" in ari("history", "show", "1", "--output", "html", env=env).stdout
    assert f"{user} on {host}" in ari("history", "show", "2", "--output", "html", env=env).stdout


@needs_browser
def test_retry_writes_the_page_of_what_it_sent(sb: Sandbox, tmp_path: Path) -> None:
    env = env_of(sb)
    sb.queue_error(503, times=5)
    first = ari("threshold", "push", str(write(tmp_path)), *TODAY, "--retries", "0", env=env)
    assert first.returncode == 1, first.stderr
    report = tmp_path / "retry.html"
    done = ari("retry", "1", "--report", str(report), env=env)
    assert done.returncode == 0, done.stderr
    page = drawn(dom(report))
    assert page.body.get("data-drawn") == "1"
    said = header(report)
    assert f"{sb.base_url} (source cpbA1)" in said and "0: every row done" in said
    # It says what it is and which files its run read (issue 43).
    assert (
        '<dd class="what">a retry of run 1</dd>' in said and f'<dd class="files">{tmp_path / "rooms.csv"}</dd>' in said
    )
    assert all(row[3] == "ok" for row in page.rows["rows-table"]) and page.rows["rows-table"]
    assert "changed" in page.cell("DBL", "2027-01-05").classes


def test_a_run_that_stops_before_it_has_rows_still_writes_its_page(tmp_path: Path) -> None:
    report = tmp_path / "stopped.html"
    missing = tmp_path / "<missing>.csv"
    done = ari("threshold", "push", str(missing), "--dry-run", *TODAY, "--report", str(report))
    assert done.returncode == 3, done.stderr
    assert done.stdout == ""
    said = header(report)
    assert "stopped: " in said and "&lt;missing&gt;.csv" in said and "<missing>" not in said


def header(page: Path | str) -> str:
    html = page.read_text(encoding="utf-8") if isinstance(page, Path) else page
    return html.split("</header>")[0]


def test_each_page_says_what_it_is_when_in_the_local_zone_and_where(
    sb: Sandbox, tmp_path: Path, journal_home: Path
) -> None:
    env = {**env_of(sb), "TZ": "Asia/Kolkata"}  # no summer time: always IST, UTC+05:30
    rows = write(tmp_path)
    report = tmp_path / "push.html"
    done = ari("threshold", "push", str(rows), *TODAY, "--report", str(report), env=env)
    assert done.returncode == 0, done.stderr
    said = header(report)
    assert f"<title>ari-cli threshold: a push, {rows}</title>" in report.read_text(encoding="utf-8")
    assert '<dd class="what">a push</dd>' in said and f'<dd class="files">{rows}</dd>' in said
    assert f'<dd class="service">{sb.base_url} (source cpbA1)</dd>' in said
    assert re.search(
        r'<time datetime="[-0-9T:]+\+00:00">\d{4}-\d\d-\d\d \d\d:\d\d:\d\d IST \(UTC\+05:30\)</time>', said
    )
    assert "sandbox-key" not in report.read_text(encoding="utf-8")
    # The push's own summary sentence, as the terminal says it; history show's page says the same.
    sentence = "5 rows: 5 ok, 0 failed, 0 invalid, 0 skipped; 5 records, sent 2 of 2 requests"
    assert sentence in done.stderr + done.stdout and f'<dd class="summary">{sentence}</dd>' in said
    shown = ari("history", "show", "1", "--output", "html", env=env)
    assert shown.returncode == 0, shown.stderr
    said = header(shown.stdout)
    assert '<dd class="what">run 1 from history</dd>' in said and f'<dd class="summary">{sentence}</dd>' in said
    assert f"{rows}" in said and " IST (UTC+05:30)</time>" in said
    # A dry run, a diff and a calendar say so.
    report = tmp_path / "dry.html"
    assert ari("threshold", "push", str(rows), "--dry-run", *TODAY, "--report", str(report), env=env).returncode == 0
    assert '<dd class="what">a dry run</dd>' in header(report)
    done = ari("threshold", "diff", str(rows), *TODAY, "--output", "html", env=env)
    assert '<dd class="what">a diff: what a push would change</dd>' in header(done.stdout)
    assert f'<dd class="files">{rows}</dd>' in header(done.stdout)
    done = ari("calendar", "threshold", "--property", "HTL001", "--from", "2027-01-01", "--to", "2027-01-31",
               "--output", "html", env=env)  # fmt: skip
    assert '<dd class="what">a calendar of property HTL001, 2027-01-01..2027-01-31</dd>' in header(done.stdout)
    # A revert names what it reverts and where it sent.
    report = tmp_path / "revert.html"
    done = ari("revert", "1", "--yes", "--clear-unknown", *TODAY, "--report", str(report), env=env)
    assert done.returncode == 0, done.stderr
    said = header(report)
    assert '<dd class="what">a revert of run 1</dd>' in said
    assert f'<dd class="service">{sb.base_url} (source cpbA1)</dd>' in said
    shown = ari("history", "show", "2", "--output", "html", env=env)
    assert '<dd class="what">run 2 from history, a revert of run 1</dd>' in header(shown.stdout)


def test_the_legend_gives_0_a_colour_of_its_own(sb: Sandbox, tmp_path: Path) -> None:
    lines = "".join(f"HTL001,DBL,2027-01-{day:02d},2027-01-{day:02d},{day - 1}\n" for day in range(1, 31))
    report = tmp_path / "many.html"
    rows = write(tmp_path, "propertyid,roomid,start,end,threshold\n" + lines)
    done = ari("threshold", "push", str(rows), "--dry-run", *TODAY, "--report", str(report))
    assert done.returncode == 0, done.stderr
    legend = report.read_text(encoding="utf-8").split('aria-label="legend"', 1)[1].split("</ul>", 1)[0]
    labels = re.findall(r"</span>([^<]+)</li>", legend)
    assert labels[0] == "0" and labels[1].startswith("1..")  # 0 (no hold) alone, the rest in steps


YEAR = """propertyid,roomid,start,end,threshold
HTL001,DBL,2027-01-01,2027-06-30,2
HTL001,DBL,2027-07-01,2027-12-31,4
HTL001,TWN,2027-01-01,2027-12-31,0
HTL001,STE,2027-03-01,2027-10-31,1
HTL001,SGL,2027-12-01,2027-12-31,n/a
HTL002,DBL,2027-01-05,2027-12-20,3
"""
MONTHS = [f"2027-{month:02d}" for month in range(1, 13)]


@needs_browser
def test_a_year_fits_a_wide_screen_a_phone_and_a4_landscape(sb: Sandbox, tmp_path: Path) -> None:
    report = tmp_path / "year.html"
    done = ari("threshold", "push", str(write(tmp_path, YEAR)), *TODAY, "--report", str(report), env=env_of(sb))
    assert done.returncode == 0, done.stderr
    # At 1,400 px: the year at a glance (a grid per key), then each property's twelve months, each a block that
    # fits across (none scrolls sideways), and the page no wider than the window.
    page = drawn(dom(report, size="1400,900"))
    assert page.glances == [("HTL001", r) for r in ("DBL", "SGL", "STE", "TWN")] + [("HTL002", "DBL")]
    assert page.months == [("HTL001", m) for m in MONTHS] + [("HTL002", m) for m in MONTHS]
    assert page.body["data-clipped"] == "0" and int(page.body["data-width"]) <= 1400
    # A range across months is drawn in each, named whole.
    july = page.cell("DBL", "2027-07-15")
    assert (july.first, july.last) == ("2027-07-01", "2027-07-31") and "2027-07-01..2027-12-31" in july.label
    # At 400 px: the page is as wide as the window (only month blocks scroll, their room names sticky).
    body = narrow(report, 400)
    assert body["data-drawn"] == "1" and body["data-viewport"] == "400"
    assert int(body["data-width"]) <= 400 and int(body["data-clipped"]) > 0
    assert (
        ".line .label { flex: 0 0 var(--label); width: var(--label); position: sticky; left: 0;" in report.read_text()
    )
    # On A4 landscape: more than one page, each property starting one.
    pages = pdf_pages(report, tmp_path / "year.pdf")
    assert len(pages) > 2
    assert all((round(w / 72 * 25.4), round(h / 72 * 25.4)) == (297, 210) for w, h in pages)
    # What print shows, drawn on a screen as wide as the printed page's text (277 mm): no month is cut.
    html = report.read_text(encoding="utf-8")
    assert ".property { break-before: page; }" in html.split("@media print", 1)[1]
    printed = tmp_path / "printed.html"
    printed.write_text(html.replace("@media print", "@media all"), encoding="utf-8")
    page = drawn(dom(printed, size="1047,800"))
    assert len(page.months) == 24 and page.body["data-clipped"] == "0" and int(page.body["data-width"]) <= 1047


@needs_browser
def test_a_run_of_many_keys_lists_them_and_draws_a_keys_months_when_opened(tmp_path: Path) -> None:
    # More keys than the page draws at once (5,000): a room each, and one invalid row.
    lines = "".join(
        f"HTL001,R{n:04d},2027-01-{n % 28 + 1:02d},2027-02-{n % 28 + 1:02d},{n % 10}\n" for n in range(5001)
    )
    rows = write(tmp_path, "propertyid,roomid,start,end,threshold\n" + lines + "HTL001,BAD,2027-03-01,2027-03-02,x\n")
    report = tmp_path / "many.html"
    done = ari("threshold", "push", str(rows), "--dry-run", "--skip-invalid", *TODAY, "--report", str(report))
    assert done.returncode == 1 and report.exists(), done.stderr  # 1: the invalid row is not done
    shown = dom(report)
    page = drawn(shown)
    assert page.body["data-drawn"] == "1" and not page.cells and not page.months  # listed, not drawn
    assert '<details class="keys" data-property="HTL001"><summary>Property HTL001: 5002 keys</summary>' in shown
    assert len(page.rows["rows-table"]) == 2000  # the first rows drawn, the filters narrow the rest
    # A room asked for is drawn: its months, a line each, a cell per range.
    page = drawn(dom(report, "?room=R0042"))
    cell = page.cell("R0042", "2027-01-20")
    assert (
        cell.value == "2" and cell.label == "R0042, 2027-01-15..2027-02-15: 2; would change (new, changed or cleared)"
    )
    assert (cell.first, cell.last) == ("2027-01-15", "2027-01-31") and page.cell("R0042", "2027-02-03").value == "2"
    assert [(room, hidden) for _, room, _, hidden in page.lines] == [("R0042", False)] * 3  # January to March
    assert [row[5] for row in page.rows["rows-table"]] == ["R0042"]
    invalid = drawn(dom(report, "?room=BAD")).cell("BAD", "2027-03-01")
    assert "notapplied" in invalid.classes and invalid.label.endswith("; not applied: invalid")


def test_a_dry_run_that_sends_nothing_for_invalid_rows_says_its_ranges_are_not_applied(tmp_path: Path) -> None:
    rows = "propertyid,roomid,start,end,threshold\nHTL001,DBL,2027-01-01,2027-01-10,2\nHTL001,TWN,2027-01-03,2027-01-04,x\n"
    report = tmp_path / "dry.html"
    done = ari("threshold", "push", str(write(tmp_path, rows)), "--dry-run", *TODAY, "--report", str(report))
    assert done.returncode == 3, done.stderr
    legend = report.read_text(encoding="utf-8").split('aria-label="legend"', 1)[1].split("</ul>", 1)[0]
    assert "not applied: not sent" in legend and "not applied: invalid" in legend and "would change" not in legend
