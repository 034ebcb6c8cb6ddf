"""The journals of issue 30 point 10: one push of 100,000 rows to `ari-cli sandbox`, journal on.

    python benchmarks/history_shapes.py ok FOLDER      # every property known: all 100,000 rows ok
    python benchmarks/history_shapes.py failing FOLDER # 49 of the 50 properties unknown: 98,000 rows fail, split
    ARI_HOME=FOLDER/home COLUMNS=120 /usr/bin/time -f "%e s %M KB" ari-cli history show 1 [--output json]

50 properties x 4 rooms x 500 days, values alternating so that nothing merges (100,000 records);
--properties N makes a smaller one of N properties.
"""

from __future__ import annotations

import argparse
import csv
import datetime as dt
import os
import subprocess
import time
from pathlib import Path

from run import CLI, START, _fixtures, serving


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("shape", choices=["ok", "failing"])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--properties", type=int, default=50)
    args = parser.parse_args()
    args.folder.mkdir(parents=True, exist_ok=True)
    data = args.folder / "rows.csv"
    with data.open("w", newline="") as handle:
        out = csv.writer(handle)
        out.writerow(["propertyid", "roomid", "date", "threshold"])
        for p in range(args.properties):
            for r in range(4):
                for d in range(500):
                    day = (START + dt.timedelta(days=d)).isoformat()
                    out.writerow([f"P{p:03d}", f"R{r:03d}", day, (d % 2) * 3 + 1])
    fixtures = args.folder / "fixtures.toml"
    _fixtures(fixtures, 1 if args.shape == "failing" else args.properties, 4)
    with serving(fixtures, args.folder / "home") as env:
        started = time.perf_counter()
        push = [CLI, "threshold", "push", str(data), "--concurrency", "16", "--quiet", "--output", "json"]
        code = subprocess.run(push, env={**os.environ, **env}, stdout=subprocess.DEVNULL, check=False).returncode
        print(f"{args.shape}: pushed, exit {code}, {time.perf_counter() - started:.0f} s; ARI_HOME={env['ARI_HOME']}")


if __name__ == "__main__":
    main()
