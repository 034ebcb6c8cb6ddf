"""Median CPU time (user + system of the child) and wall time of N runs of a command.

    python benchmarks/cpu_median.py N CMD...

With COMPLETE=1 in the environment, each run is a bash completion request for `ari-cli thr`. CPU time moves
less than wall time on a machine with other work running.
"""

import os
import resource
import statistics
import subprocess
import sys
import time

COMPLETION = {"_ARI_CLI_COMPLETE": "complete_bash", "COMP_WORDS": "ari-cli thr", "COMP_CWORD": "1"}


def main() -> None:
    runs, command = int(sys.argv[1]), sys.argv[2:]
    env = {**os.environ, **(COMPLETION if os.environ.get("COMPLETE") else {})}
    cpu, wall = [], []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=False)
        wall.append(time.perf_counter() - started)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    median_cpu, median_wall = statistics.median(cpu) * 1000, statistics.median(wall) * 1000
    print(f"cpu {median_cpu:.0f} ms  wall {median_wall:.0f} ms  {' '.join(command)}")


if __name__ == "__main__":
    main()
