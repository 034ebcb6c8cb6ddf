"""The journal's tables: their schema and its version, the states a request is stored in, how a text is
written into a column (`stored`, `dumps`) and the acknowledgement counter.

Below the store and the modules it opens with (`pending.py`, `retire.py`, `acked.py`): each takes these
from here, so none of them imports the store.
"""

from __future__ import annotations

import json
import re
import sqlite3
from typing import Any

from ari_cli.config.secrets import scrub

SCHEMA_VERSION = 2

# Request states: `planned` (not yet out), `sending` (a try is out, no answer recorded), `ok`,
# `failed` (final; `transient` says whether a later retry may succeed), `split` (replaced by halves).
# `superseded`: a retry's request left out because a later run got its dates acknowledged; sent by `retry --force`.
PLANNED, SENDING, OK, FAILED, SPLIT, SUPERSEDED = "planned", "sending", "ok", "failed", "split", "superseded"
# Every state a request is stored in: any other value in the column was not written by ari-cli.
STATES = (PLANNED, SENDING, OK, FAILED, SPLIT, SUPERSEDED)

SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    command TEXT NOT NULL, operation TEXT NOT NULL, profile TEXT, base_url TEXT NOT NULL, source_id TEXT NOT NULL,
    options TEXT NOT NULL, retry_of INTEGER, started TEXT NOT NULL, ended TEXT, summary TEXT, exit_code INTEGER,
    sandbox INTEGER NOT NULL DEFAULT 0, sharepost TEXT, sources TEXT, rows INTEGER,
    finished_by INTEGER, unrecorded TEXT, user TEXT, host TEXT
);
CREATE TABLE IF NOT EXISTS files (
    run INTEGER NOT NULL, position INTEGER NOT NULL, path TEXT NOT NULL, sha256 TEXT, size INTEGER,
    PRIMARY KEY (run, position)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS records (
    run INTEGER NOT NULL, idx INTEGER NOT NULL, propertyid TEXT NOT NULL, roomid TEXT NOT NULL,
    rateid TEXT NOT NULL, start TEXT NOT NULL, end TEXT NOT NULL, value TEXT NOT NULL, lines TEXT NOT NULL,
    PRIMARY KEY (run, idx)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS requests (
    run INTEGER NOT NULL, id INTEGER NOT NULL, parent INTEGER, propertyid TEXT NOT NULL, url TEXT NOT NULL,
    body TEXT, form TEXT, first INTEGER NOT NULL, count INTEGER NOT NULL, state TEXT NOT NULL,
    transient INTEGER NOT NULL DEFAULT 0, attempts INTEGER NOT NULL DEFAULT 0, http_status INTEGER,
    trackingid TEXT, errors TEXT, response TEXT, seconds REAL NOT NULL DEFAULT 0, sent TEXT, answered TEXT,
    ack INTEGER,
    PRIMARY KEY (run, id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS notes (
    run INTEGER NOT NULL, position INTEGER NOT NULL, status TEXT, note TEXT NOT NULL, errors TEXT,
    lines TEXT NOT NULL, propertyid TEXT, roomid TEXT, rateid TEXT, dates TEXT, value TEXT,
    PRIMARY KEY (run, position)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;
INSERT OR IGNORE INTO counters (name, value) VALUES ('ack', 0);
CREATE TABLE IF NOT EXISTS services (
    id INTEGER PRIMARY KEY, operation TEXT NOT NULL, base_url TEXT NOT NULL, source_id TEXT NOT NULL,
    UNIQUE (operation, base_url, source_id)
);
CREATE TABLE IF NOT EXISTS acked (
    service INTEGER NOT NULL, propertyid TEXT NOT NULL, roomid TEXT NOT NULL, rateid TEXT NOT NULL,
    start TEXT NOT NULL, end TEXT NOT NULL, value TEXT NOT NULL, run INTEGER NOT NULL,
    PRIMARY KEY (service, propertyid, roomid, rateid, start)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS records_by_key ON records (propertyid, roomid, rateid, start);
CREATE INDEX IF NOT EXISTS requests_by_trackingid ON requests (trackingid);
"""


# A lone surrogate: how Python reads a byte that was not UTF-8 (in a file name, from the environment).
_NOT_UTF8 = re.compile("[\ud800-\udfff]")


def _as_utf8(text: str, backslash: str) -> str:
    """Text whose bytes that were not UTF-8 are spelled `\\xff` (`backslash` is how its text writes one)."""

    def spell(unit: re.Match[str]) -> str:
        code = ord(unit[0])
        return f"{backslash}x{code - 0xDC00:02x}" if 0xDC80 <= code <= 0xDCFF else f"{backslash}u{code:04x}"

    return _NOT_UTF8.sub(spell, text)


def dumps(value: Any, canonical: bool = True) -> str:
    """Compact JSON; canonical (sorted keys) for values compared across runs, else in the given order. A byte that
    was not UTF-8 is kept as the text `\\xff`: SQLite takes UTF-8 only."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=canonical)
    return _as_utf8(text, "\\\\")


def stored(text: str) -> str:
    """Text as the journal keeps it: UTF-8 (a byte of a file name that was not is written `\\xff`, readable),
    no known key in it. Every text the journal writes goes through here (JSON through `dumps` first)."""
    return scrub(_as_utf8(text, "\\"))


def safe(text: str | None) -> str | None:
    return None if text is None else stored(text)


def next_ack(db: sqlite3.Connection) -> int:
    """The next acknowledgement number, journal-wide; inside a write transaction, so never given twice."""
    return take_acks(db, 1)[0]


def take_acks(db: sqlite3.Connection, count: int) -> range:
    """The next `count` acknowledgement numbers, in order, taken at once; inside a write transaction, so never
    given twice."""
    if count == 0:
        return range(0)
    taken = "UPDATE counters SET value = value + ? WHERE name = 'ack' RETURNING value"
    last = int(db.execute(taken, (count,)).fetchall()[0][0])
    return range(last - count + 1, last + 1)
