"""`history find`: who got a tracking id (or a unique prefix of one), and every record that covered a date,
with the one whose value the service holds (in force)."""

from __future__ import annotations

import datetime as dt
import sqlite3
from dataclasses import dataclass
from typing import Any

from ari_cli.exits import UsageProblem
from ari_cli.journal.queries import (
    RECORD_COLUMNS,
    Key,
    RecordInfo,
    RequestInfo,
    RunInfo,
    key_of,
    record_of,
    run_info,
)
from ari_cli.journal.run_requests import requests_of
from ari_cli.journal.store import SPLIT
from ari_cli.wire.url import canonical_or_same


@dataclass(frozen=True, slots=True)
class DateHit:
    """A record of some run that covered the date asked about, the request that carried it, and whether
    it is what the service holds for that date (in force)."""

    run: RunInfo
    request: RequestInfo
    record: RecordInfo
    in_force: bool = False


def find_trackingid(db: sqlite3.Connection, trackingid: str) -> list[tuple[RunInfo, RequestInfo]]:
    """The requests (of any run) that got this tracking id, or whose tracking id starts with it when only one does.

    A prefix that starts several tracking ids is a usage error listing them.
    """
    exact = list(db.execute("SELECT run, id FROM requests WHERE trackingid = ? ORDER BY run, id", (trackingid,)))
    if not exact and trackingid:
        # The index on tracking ids answers a prefix as a range: from the prefix to the prefix with its last
        # character one higher.
        above = trackingid[:-1] + chr(ord(trackingid[-1]) + 1)
        exact = list(db.execute(
            "SELECT run, id FROM requests WHERE trackingid >= ? AND trackingid < ? ORDER BY run, id LIMIT 200",
            (trackingid, above),
        ))  # fmt: skip
        ids = {t for (t,) in db.execute(
            "SELECT DISTINCT trackingid FROM requests WHERE trackingid >= ? AND trackingid < ? LIMIT 6",
            (trackingid, above),
        )}  # fmt: skip
        if len(ids) > 1:
            listed = ", ".join(sorted(ids)[:5]) + (" ..." if len(ids) > 5 else "")
            raise UsageProblem(f"--trackingid {trackingid} starts several tracking ids: {listed}",
                               "give more of it")  # fmt: skip
    found: list[tuple[RunInfo, RequestInfo]] = []
    for run, request in exact:
        info = run_info(db, run)
        found.extend((info, r) for r in requests_of(db, info, " AND id = ?", (request,)))
    return found


def find_date(
    db: sqlite3.Connection, propertyid: str, day: dt.date, roomid: str | None = None, rateid: str | None = None,
    operation: str | None = None,
) -> list[DateHit]:  # fmt: skip
    """Every record that covered `day` for the key, with the final request that carried it; newest first."""
    clauses = ["r.propertyid = ?", "r.start <= ?", "r.end >= ?"]
    args: list[Any] = [propertyid, day.isoformat(), day.isoformat()]
    for column, value in (("r.roomid", roomid), ("r.rateid", rateid), ("u.operation", operation)):
        if value is not None:
            clauses.append(f"{column} = ?")
            args.append(value)
    sql = (
        f"SELECT r.run, {', '.join('r.' + c for c in RECORD_COLUMNS.split(', '))} FROM records r"
        " JOIN runs u ON u.id = r.run WHERE " + " AND ".join(clauses) + " ORDER BY r.run DESC, r.idx"
    )
    holding = _holding(db, propertyid, day)
    hits: list[DateHit] = []
    infos: dict[int, RunInfo] = {}
    for row in db.execute(sql, args).fetchall():
        info = infos.get(row[0]) or infos.setdefault(row[0], run_info(db, row[0]))
        record = record_of(row[1:])
        final = requests_of(db, info, " AND first <= ? AND first + count > ? AND state != ?", (record.idx, record.idx,
                                                                                             SPLIT))  # fmt: skip
        for request in final:
            # A run's records of a key never share a date: the run (and value) the service holds names the record.
            current = holding.get((info.operation, canonical_or_same(info.base_url), info.source_id, record.key)) == (
                info.id,
                record.value,
            )
            hits.append(DateHit(info, request, record, current and request.acknowledged))
    hits.sort(key=lambda h: h.request.answered or h.request.sent or h.run.started, reverse=True)
    return hits


def _holding(db: sqlite3.Connection, propertyid: str, day: dt.date) -> dict[tuple[str, str, str, Key], tuple[int, str]]:
    """Per service and key of the property: the run whose value the service holds on `day`, and the value."""
    sql = (
        "SELECT s.operation, s.base_url, s.source_id, a.propertyid, a.roomid, a.rateid, a.run, a.value"
        " FROM acked a JOIN services s ON s.id = a.service WHERE a.propertyid = ? AND a.start <= ? AND a.end >= ?"
    )
    iso = day.isoformat()
    held: dict[tuple[str, str, str, Key], tuple[int, str]] = {}
    for op, base, source, p, room, rate, run, value in db.execute(sql, (propertyid, iso, iso)):
        # Spellings of one service in a journal not yet folded are one: the latest run's value is held.
        service = (op, canonical_or_same(base), source, key_of(p, room, rate))
        if service not in held or held[service][0] < run:
            held[service] = (run, value)
    return held
