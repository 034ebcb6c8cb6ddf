"""The HTML report of the million-row nightly export (issue 31): its size, the time to write it, and the time
headless Chromium takes to draw its map (to the `data-drawn` marker the page's script sets when done).

    python benchmarks/html_report.py            # 10 properties x 274 rooms x 365 days (1,000,100 rows)
    python benchmarks/html_report.py --quick    # 2 x 50 x 365

Targets (issue 31, point 3): the report under 15 MB, its map drawn in under 5 s. Needs `chromium` on PATH.
It asserts nothing; tests never assert times.
"""

from __future__ import annotations

import argparse
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    properties, rooms, days = (2, 50, 365) if args.quick else (10, 274, 365)
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    with tempfile.TemporaryDirectory() as tmp:
        big, report = Path(tmp) / "night.csv", Path(tmp) / "night.html"
        write_export(big, properties, rooms, days)
        command = [str(BIN / "ari-cli"), "threshold", "push", str(big), "--dry-run", "--today", START.isoformat(),
                   "--output", "csv", "--quiet", "--report", str(report)]  # fmt: skip
        began = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        written = time.perf_counter() - began
        size = report.stat().st_size
        print(f"rows: {properties * rooms * days:,}")
        print(f"dry run writing the HTML report (and CSV to /dev/null): {written:.1f} s")
        print(f"report: {size / 1e6:.1f} MB (target < 15 MB)")
        if chromium is None:
            print("chromium: not on PATH, the drawing time is not measured")
            return
        flags = ["--headless", "--no-sandbox", "--disable-gpu", "--dump-dom"]
        for attempt in range(3):
            began = time.perf_counter()
            done = subprocess.run([chromium, *flags, report.as_uri()], capture_output=True, text=True, check=True)
            wall = time.perf_counter() - began
            found = re.search(r'<body[^>]*data-draw-ms="(\d+)"[^>]*data-drawn="1"', done.stdout)
            drawn = f"{int(found.group(1)) / 1000:.1f} s" if found else "never (no marker)"
            print(f"chromium run {attempt + 1}: map and tables drawn by the script in {drawn} (target < 5 s); "
                  f"load, draw and DOM dump {wall:.1f} s")  # fmt: skip


if __name__ == "__main__":
    main()
