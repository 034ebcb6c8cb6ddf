"""Takes the README's screenshots of the HTML report: docs/report.png (a push with a room the service refused) and
docs/year.png (a year, at a glance and a month at a time).

Run `python scripts/screenshots.py` after changing the page (render/html/). Each page is a push to the built-in
sandbox (`--sandbox`), journaled in a folder of its own, its time in UTC, drawn by headless Chromium
(`chromium` on PATH) at 1,400 pixels wide.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
BIN = Path(sys.executable).parent
TODAY = "2027-01-01"
# The sample thresholds, written with dates, and a room the sandbox has not mapped (the service refuses it: 451).
PUSH = """propertyid,roomid,start,end,threshold
HTL001,DBL,2027-01-01,2027-01-31,2
HTL001,TWN,2027-01-01,2027-02-28,1
HTL001,STE,2027-01-08,2027-01-22,0
HTL001,XXX,2027-01-10,2027-01-20,2
HTL002,DBL,2027-01-01,2027-02-28,3
HTL002,KNG,2027-01-15,2027-02-15,2
HTL002,FAM,2027-01-01,2027-01-31,n/a
"""
YEAR = """propertyid,roomid,start,end,threshold
HTL001,DBL,2027-01-01,2027-03-31,2
HTL001,DBL,2027-04-01,2027-09-30,4
HTL001,DBL,2027-10-01,2027-12-31,3
HTL001,TWN,2027-01-01,2027-12-31,1
HTL001,STE,2027-06-01,2027-08-31,0
HTL001,SGL,2027-02-01,2027-11-30,5
HTL002,DBL,2027-01-01,2027-12-31,3
HTL002,KNG,2027-05-01,2027-10-31,2
"""


def page(folder: Path, name: str, rows: str) -> Path:
    """The report of a push of `rows` to the sandbox."""
    source, report = folder / f"{name}.csv", folder / f"{name}.html"
    source.write_text(rows, encoding="utf-8")
    env = {**os.environ, "ARI_HOME": str(folder / f"home-{name}"), "TZ": "UTC", "NO_COLOR": "1"}
    subprocess.run([str(BIN / "ari-cli"), "threshold", "push", source.name, "--sandbox", "--today", TODAY, "--quiet",
                    "--report", report.name], cwd=folder, env=env, capture_output=True, check=False)  # fmt: skip
    if not report.exists():
        raise SystemExit(f"no report written for {name}")
    return report


def shoot(chromium: str, report: Path, target: Path, height: int) -> None:
    subprocess.run([chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                    f"--window-size=1400,{height}", f"--screenshot={target}", report.as_uri()],
                   capture_output=True, check=True)  # fmt: skip
    print(f"{target.relative_to(ROOT)}: {target.stat().st_size:,} bytes")


def main() -> None:
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        raise SystemExit("chromium is not on PATH (apt-get install chromium)")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        shoot(chromium, page(folder, "rooms", PUSH), DOCS / "report.png", 1000)
        shoot(chromium, page(folder, "year", YEAR), DOCS / "year.png", 1100)


if __name__ == "__main__":
    main()
