"""One run's records as `history show` uses them: read from the journal once, and cut where each request's begin
and end.

Its JSON document uses every record three times (the requests' bodies, the rows, the records themselves) and its
table twice (the lines the listed requests carried, the rows): a run of up to a quarter million records is read
once and held while the run is open; a bigger one (a nightly export of a million) is read again each time.
"""

from __future__ import annotations

import bisect
import sqlite3
from collections.abc import Iterator, Sequence

from ari_cli.journal.queries import RecordInfo, records

# A query costs some 30 microseconds, a record held some 150 bytes: a quarter million records are held (a failed
# run's 194,000 requests read their records 6 s sooner, 40 MB more); a million are not.
HELD_UP_TO = 250_000


class RunRecords:
    """A run's records, read once and held when they are few enough (`hold`), else read as they are asked for."""

    def __init__(self, db: sqlite3.Connection, run: int) -> None:
        self.db, self.run = db, run
        self.held: list[RecordInfo] | None = None
        self.numbers: list[int] = []
        self.tried = False

    def hold(self) -> bool:
        """Read them all once, when there are up to `HELD_UP_TO`; whether they are held."""
        if not self.tried:
            self.tried = True
            (total,) = self.db.execute("SELECT count(*) FROM records WHERE run = ?", (self.run,)).fetchone()
            if total <= HELD_UP_TO:
                self.held = list(records(self.db, self.run))
                self.numbers = [record.idx for record in self.held]
        return self.held is not None

    def every(self) -> Iterator[RecordInfo]:
        """All of them, in number order."""
        return iter(self.held) if self.held is not None else records(self.db, self.run)

    def all(self) -> Sequence[RecordInfo]:
        """All of them, in number order, at once (held, when there are few enough)."""
        self.hold()
        return self.held if self.held is not None else list(records(self.db, self.run))

    def between(self, first: int, stop: int) -> Sequence[RecordInfo]:
        """Those numbered first .. stop - 1, in number order."""
        if self.held is None:
            return list(records(self.db, self.run, first, stop))
        return self.held[bisect.bisect_left(self.numbers, first) : bisect.bisect_left(self.numbers, stop)]
