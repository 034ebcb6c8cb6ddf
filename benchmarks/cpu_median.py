"""Median CPU time (user + system of the child) and wall time of N runs of a command: cpu_median.py N CMD...
import os, resource, statistics, subprocess, sys, time
n, cmd = int(sys.argv[1]), sys.argv[2:]
cpu, wall = [], []
for _ in range(n):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env={**os.environ, **({"_ARI_CLI_COMPLETE": "complete_bash", "COMP_WORDS": "ari-cli thr", "COMP_CWORD": "1"} if os.environ.get("COMPLETE") else {})})
    wall.append(time.perf_counter() - t)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
print(f"cpu {statistics.median(cpu)*1000:.0f} ms  wall {statistics.median(wall)*1000:.0f} ms  {' '.join(cmd[-2:])}")
