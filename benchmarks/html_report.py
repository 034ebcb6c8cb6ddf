"""The HTML report of big runs (issues 31 and 43): its size, the time to write it, and the time headless Chromium
takes to draw it (to the `data-drawn` marker the page's script sets when done).

    python benchmarks/html_report.py                   # the night: 10 properties x 274 rooms x 365 days
    python benchmarks/html_report.py --shape keys      # 10 x 274 rooms x 37 days: 101,380 rows of 2,740 keys
    python benchmarks/html_report.py --shape distinct  # 200,000 rows of 200,000 keys (a room per row)
    python benchmarks/html_report.py --quick           # 2 x 50 x 365

Targets (issue 31, point 3; issue 43, point 4): the report under 15 MB, drawn in under 5 s (beyond an empty page).
Needs `chromium` on PATH. It asserts nothing; tests never assert times.
"""

from __future__ import annotations

import argparse
import csv
import datetime as dt
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
# The nightly export of benchmarks/run.py: the same rows.
from run import START, write_export

BIN = Path(sys.executable).parent
EMPTY = "<!DOCTYPE html><html><body><script>document.body.dataset.drawn = '1';</script></body></html>"


def write_distinct(path: Path, properties: int, rooms: int) -> None:
    """A row per key: `rooms` rooms in each of `properties` properties, each set for a month from its own day."""
    with path.open("w", newline="") as handle:
        out = csv.writer(handle)
        out.writerow(["propertyid", "roomid", "start", "end", "threshold"])
        for p in range(properties):
            for r in range(rooms):
                first = START + dt.timedelta(days=r % 300)
                out.writerow([f"P{p:03d}", f"R{r:05d}", first, first + dt.timedelta(days=29), r % 10])


def chromium_seconds(chromium: str, page: Path) -> float:
    """The wall time of Chromium's load, draw and DOM dump of `page`."""
    began = time.perf_counter()
    subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom", page.as_uri()],
                   capture_output=True, text=True, check=True)  # fmt: skip
    return time.perf_counter() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--shape", choices=("night", "keys", "distinct"), default="night")
    args = parser.parse_args()
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    with tempfile.TemporaryDirectory() as tmp:
        big, report, empty = Path(tmp) / "night.csv", Path(tmp) / "night.html", Path(tmp) / "empty.html"
        if args.shape == "distinct":
            properties, rooms = (2, 5_000) if args.quick else (10, 20_000)
            write_distinct(big, properties, rooms)
            print(f"rows: {properties * rooms:,}, each a key of its own")
        else:
            days = 37 if args.shape == "keys" else 365
            properties, rooms = (2, 50) if args.quick else (10, 274)
            write_export(big, properties, rooms, days)
            print(f"rows: {properties * rooms * days:,} of {properties * rooms:,} keys")
        command = [str(BIN / "ari-cli"), "threshold", "push", str(big), "--dry-run", "--today", START.isoformat(),
                   "--output", "csv", "--quiet", "--report", str(report)]  # fmt: skip
        began = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        written = time.perf_counter() - began
        size = report.stat().st_size
        print(f"dry run writing the HTML report (and CSV to /dev/null): {written:.1f} s")
        print(f"report: {size / 1e6:.2f} MB (target < 15 MB)")
        if chromium is None:
            print("chromium: not on PATH, the drawing time is not measured")
            return
        empty.write_text(EMPTY, encoding="utf-8")
        dump = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom", report.as_uri()]
        for attempt in range(3):
            baseline = chromium_seconds(chromium, empty)
            began = time.perf_counter()
            done = subprocess.run(dump, capture_output=True, text=True, check=True)
            wall = time.perf_counter() - began
            print(f"chromium run {attempt + 1}: the page read and drawn {_marker(done.stdout, 'load')} after its "
                  f"request (its script: {_marker(done.stdout, 'draw')}); Chromium's load, draw and DOM dump "
                  f"{wall:.1f} s, {wall - baseline:.1f} s beyond an empty page's {baseline:.1f} s")  # fmt: skip


def _marker(dom: str, name: str) -> str:
    """`data-draw-ms` or `data-load-ms` of the page's body, in seconds."""
    found = re.search(rf'<body[^>]*data-{name}-ms="(\d+)"', dom)
    return f"{int(found.group(1)) / 1000:.1f} s" if found else "never (no marker)"


if __name__ == "__main__":
    main()
