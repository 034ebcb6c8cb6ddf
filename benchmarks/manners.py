"""What the service receives when it refuses (issue 40, point 2): the requests a loopback sandbox received for a
push of a property it does not know (446), of a room it does not know on every record (451), and with a wrong key
(415). Run from the checkout with its virtual environment active:

    python benchmarks/manners.py
"""

from __future__ import annotations

import datetime as dt
import os
import subprocess
import tempfile

from ari_cli.sandbox import Sandbox

HOME = tempfile.mkdtemp(prefix="ari-manners-")


def rows(path: str, pairs: list[tuple[str, str]], days: int) -> None:
    with open(path, "w") as f:
        f.write("propertyid,roomid,start,end,threshold\n")
        for p, r in pairs:
            for d in range(days):
                day = dt.date(2027, 1, 1) + dt.timedelta(days=d)
                f.write(f"{p},{r},{day},{day},{d % 7}\n")


def push(sb: Sandbox, path: str, *extra: str, key: str | None = None) -> int:
    env = {
        **os.environ,
        "ARI_BASE_URL": sb.base_url,
        "ARI_API_KEY": key or sb.api_key,
        "ARI_SOURCE_ID": sb.source_id,
        "ARI_HOME": os.path.join(HOME, f"home-{len(sb.received)}-{path}"),
    }
    done = subprocess.run(
        [
            "ari-cli",
            "threshold",
            "push",
            path,
            "--today",
            "2027-01-01",
            "--no-merge",
            "--quiet",
            "--output",
            "json",
            *extra,
        ],
        env=env,
        capture_output=True,
        text=True,
    )
    return done.returncode


os.chdir(HOME)
rows("unknown.csv", [("HTL404", "DBL")] * 10, 200)  # 2,000 records, 40 requests
rows("room.csv", [("HTL001", "NOPE")], 1000)  # 1,000 records of an unknown room, 20 requests
rows("three.csv", [("HTL001", "DBL"), ("HTL002", "DBL"), ("HTL003", "DBL")], 100)
for name, path, extra, key in [
    ("446, 2,000 records (40 planned), c4", "unknown.csv", ["--concurrency", "4"], None),
    ("446, same, c16", "unknown.csv", ["--concurrency", "16"], None),
    ("451 every record, 1,000 records (20 planned), c4", "room.csv", ["--concurrency", "4"], None),
    ("415, 300 records at --batch-size 5 (60 planned), c4", "three.csv", ["--batch-size", "5"], "wrong-key-000"),
]:
    with Sandbox(today="2027-01-01") as sb:
        code = push(sb, path, *extra, key=key)
        print(f"{name}: {len(sb.received)} requests received, exit {code}")
