"""Write `two-spellings.sqlite3`: a journal as ari-cli wrote it before base URLs had one spelling per service.

Run with the ari-cli of the commit before (f89c9a3 on main), from a checkout of it:

    PYTHONPATH=/path/to/that/checkout python tests/data/make_two_spellings_journal.py tests/data/two-spellings.sqlite3

It serves a sandbox on port 47811 (its today 2027-01-01) and pushes three runs of threshold values of HTL001 to
it, under two spellings of one base URL, which that version journaled as two services:

1. `http://127.0.0.1:47811`     DBL 2027-01-01..05 = 5
2. `HTTP://127.0.0.1:47811/.`   DBL 2027-01-03..04 = 6, TWN 2027-01-01..05 = 7
3. `http://127.0.0.1:47811`     DBL 2027-01-04 = 9

so the service holds DBL 5 5 6 9 5 and TWN 7 7 7 7 7. The user and host each run records are set to `fixture`
afterwards (a machine's name has no place in the repository); nothing else is changed.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import sys
import tempfile
from pathlib import Path

PORT = 47811
SPELLINGS = (f"http://127.0.0.1:{PORT}", f"HTTP://127.0.0.1:{PORT}/.")
RUNS = (
    (SPELLINGS[0], ["HTL001,DBL,2027-01-01,2027-01-05,5"]),
    (SPELLINGS[1], ["HTL001,DBL,2027-01-03,2027-01-04,6", "HTL001,TWN,2027-01-01,2027-01-05,7"]),
    (SPELLINGS[0], ["HTL001,DBL,2027-01-04,2027-01-04,9"]),
)


def main(out: Path) -> None:
    home = Path(tempfile.mkdtemp(prefix="ari-fixture-"))
    os.environ["ARI_HOME"] = str(home)
    import ari_cli
    from ari_cli.sandbox import Sandbox

    print(f"ari-cli from {ari_cli.__file__}")
    with Sandbox(today="2027-01-01", port=PORT) as sb:
        for n, (base_url, lines) in enumerate(RUNS, start=1):
            data = home / f"run{n}.csv"
            data.write_text("propertyid,roomid,start,end,threshold\n" + "\n".join(lines) + "\n")
            run = ari_cli.push(
                "threshold", data, base_url=base_url, source_id=sb.source_id, api_key=sb.api_key, today="2027-01-01"
            )
            assert run.exit_code == 0, run.summary
    journal = home / "journal.sqlite3"
    db = sqlite3.connect(journal)
    with db:
        db.execute("UPDATE runs SET user = 'fixture', host = 'fixture'")
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.execute("PRAGMA journal_mode=DELETE")  # one file, as committed
    db.close()
    shutil.copyfile(journal, out)
    shutil.rmtree(home)
    print(f"wrote {out}")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
