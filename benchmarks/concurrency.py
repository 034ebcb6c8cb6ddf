"""CPU per request as concurrency grows (issue 40, point 4): a push of one-record requests to `ari-cli sandbox
--latency 0` in its own process, at concurrency 4 and 32 in turn, the CPU time (user + system) of the push's
own process from the operating system's accounting of it.

    python benchmarks/concurrency.py                 # 4,000 requests, 5 runs of each, journal on
    python benchmarks/concurrency.py --requests 1000 --runs 3

The figure is CPU, not wall time: the sandbox answers on the same two cores, so wall time says as much about it
as about the sender. Start-up, reading and planning are in both and the same. Target: CPU per request at
concurrency 32 at most 1.1 x that at concurrency 4 (medians of alternating runs).
"""

from __future__ import annotations

import argparse
import csv
import datetime as dt
import os
import socket
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

CLI = str(Path(sys.executable).parent / "ari-cli")


def cpu_of(args: list[str], env: dict[str, str]) -> tuple[float, int]:
    """CPU seconds (user + system) and exit code of one child process."""
    child = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env={**os.environ, **env})
    _, status, usage = os.wait4(child.pid, 0)
    return usage.ru_utime + usage.ru_stime, os.waitstatus_to_exitcode(status)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=4000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--concurrency", type=int, nargs=2, default=(4, 32), metavar=("LOW", "HIGH"))
    options = parser.parse_args()
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen(
        [CLI, "sandbox", "--port", str(port), "--latency", "0"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
    )
    cpu: dict[int, list[float]] = {c: [] for c in options.concurrency}
    try:
        assert server.stdout is not None
        server.stdout.readline()  # the listening line: it is up
        with tempfile.TemporaryDirectory() as tmp:
            data = Path(tmp) / "rows.csv"
            start = dt.date.today() + dt.timedelta(days=1)
            rooms = ("DBL", "TWN", "SGL", "STE")
            with data.open("w", newline="") as handle:
                out = csv.writer(handle)
                out.writerow(["propertyid", "roomid", "date", "threshold"])
                for i in range(options.requests):
                    day = start + dt.timedelta(days=i // len(rooms))
                    out.writerow(["HTL001", rooms[i % len(rooms)], day.isoformat(), i % 10])
            for run in range(options.runs + 1):  # the first round warms the caches and is not counted
                for concurrency in options.concurrency:
                    home = str(Path(tmp) / f"home-{run}-{concurrency}")
                    env = {"ARI_BASE_URL": f"http://127.0.0.1:{port}", "ARI_API_KEY": "sandbox-key-0001",
                           "ARI_SOURCE_ID": "cpbA1", "ARI_HOME": home}  # fmt: skip
                    args = [CLI, "threshold", "push", str(data), "--no-merge", "--batch-size", "1", "--quiet",
                            "--concurrency", str(concurrency), "--output", "json"]  # fmt: skip
                    seconds, code = cpu_of(args, env)
                    assert code == 0, f"the push exited {code}"
                    if run:
                        cpu[concurrency].append(seconds)
    finally:
        server.terminate()
        server.wait(10)
    low, high = options.concurrency
    for concurrency, figures in cpu.items():
        per = statistics.median(figures) / options.requests * 1000
        print(f"concurrency {concurrency:>3}: CPU {statistics.median(figures):.2f} s median "
              f"({min(figures):.2f} to {max(figures):.2f}), {per:.3f} ms a request")  # fmt: skip
    pairs = [h / lo for lo, h in zip(cpu[low], cpu[high], strict=True)]
    print(f"CPU at concurrency {high} / at {low}: {statistics.median(pairs):.2f} x median of "
          f"{len(pairs)} pairs ({min(pairs):.2f} to {max(pairs):.2f}); target <= 1.1 x")  # fmt: skip


if __name__ == "__main__":
    main()
