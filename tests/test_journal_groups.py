"""The journal writes its answers a group at a time (`Journal.answers`): what it keeps must be what writing them
one at a time would keep, acknowledgement numbers and the spans of what the service holds alike."""

from __future__ import annotations

import datetime as dt
import json
import sqlite3
from pathlib import Path

from ari_cli.planning.changes import Span, paint
from ari_cli.sandbox import Sandbox
from tests.helpers import invoke, sandbox_env
from tests.test_history import push
from tests.test_journal import TODAY, journal

D = dt.date(2027, 1, 1)


def day(n: int) -> str:
    return (D + dt.timedelta(days=n)).isoformat()


def painted_one_at_a_time(db: sqlite3.Connection) -> dict[tuple[str, str], list[Span]]:
    """The plain rule: every acknowledged request's records painted over the spans of their keys, a request at a
    time in acknowledgement order (what the journal did when it wrote each answer on its own)."""
    spans: dict[tuple[str, str], list[Span]] = {}
    acknowledged = db.execute(
        "SELECT r.propertyid, r.roomid, r.start, r.end, r.value, q.run FROM requests q JOIN records r"
        " ON r.run = q.run AND r.idx BETWEEN q.first AND q.first + q.count - 1"
        " WHERE q.state = 'ok' ORDER BY q.ack, r.idx"
    )
    for propertyid, roomid, start, end, value, run in acknowledged:
        span = Span(dt.date.fromisoformat(start), dt.date.fromisoformat(end), value, run)
        paint(spans.setdefault((propertyid, roomid), []), span)
    return spans


def test_answers_written_in_groups_keep_what_one_at_a_time_would(
    sb: Sandbox, tmp_path: Path, journal_home: Path
) -> None:
    # A first run holds three weeks of two rooms; the second sends a request per day of one of them, one at a
    # time (so that each day starts where the first run's span is cut): neighbouring days of one value join into one span across requests, days equal to the first run's
    # value stay apart from its span (another run), and the other room keeps the first run's weeks but one day.
    first = push(sb, tmp_path, "first.csv", f"HTL001,DBL,{day(0)},{day(20)},2", f"HTL001,TWN,{day(0)},{day(20)},4")
    assert first.exit_code == 0, first.output
    values = [2, 5, 5, 5, 2, 2, 7, 5, 5, 9, 9, 9, 9, 2, 3, 3, 2, 2, 2, 5, 5]
    path = tmp_path / "second.csv"
    path.write_text(
        "propertyid,roomid,start,end,threshold\n"
        + "".join(f"HTL001,DBL,{day(n)},{day(n)},{value}\n" for n, value in enumerate(values))
        + f"HTL001,TWN,{day(9)},{day(9)},6\n"
    )
    second = invoke(["threshold", "push", str(path), *TODAY, "--no-merge", "--batch-size", "1",
                     "--concurrency", "1"], env=sandbox_env(sb))  # fmt: skip
    assert second.exit_code == 0, second.output

    with journal(journal_home) as db:
        acks = db.execute("SELECT run, ack FROM requests WHERE state = 'ok' ORDER BY ack").fetchall()
        kept = db.execute("SELECT propertyid, roomid, start, end, value, run FROM acked ORDER BY roomid, start")
        spans: dict[tuple[str, str], list[Span]] = {}
        for propertyid, roomid, start, end, value, run in kept:
            spans.setdefault((propertyid, roomid), []).append(
                Span(dt.date.fromisoformat(start), dt.date.fromisoformat(end), value, run)
            )
        expected = painted_one_at_a_time(db)

    # Numbered once each, without a gap, the first run's before the second's: a group takes its numbers at once.
    assert [ack for _, ack in acks] == list(range(1, len(values) + 3))
    assert [run for run, _ in acks] == [1] + [2] * (len(values) + 1)  # the first run's two rooms went in one request
    assert spans == expected
    assert spans[("HTL001", "DBL")][:3] == [
        Span(D, D, "2", 2),
        Span(D + dt.timedelta(days=1), D + dt.timedelta(days=3), "5", 2),
        Span(D + dt.timedelta(days=4), D + dt.timedelta(days=5), "2", 2),
    ]
    assert spans[("HTL001", "TWN")] == [
        Span(D, D + dt.timedelta(days=8), "4", 1),
        Span(D + dt.timedelta(days=9), D + dt.timedelta(days=9), "6", 2),
        Span(D + dt.timedelta(days=10), D + dt.timedelta(days=20), "4", 1),
    ]
    # What the journal says the service holds is what the service holds.
    held = sb.state()["threshold"]["HTL001"]
    for room in ("DBL", "TWN"):
        calendar = invoke(["calendar", "threshold", "--property", "HTL001", "--room", room, "--from", day(0),
                           "--to", day(20), "-o", "json"], env={"ARI_BASE_URL": sb.base_url,
                                                                "ARI_SOURCE_ID": sb.source_id})  # fmt: skip
        assert calendar.exit_code == 0, calendar.output
        assert json.loads(calendar.stdout)["keys"][0]["values"] == held[room]
