#!/usr/bin/env python3
"""Compares the start-to-exit time of two or more builds of a command, run alternately, so the
machine's drift (another process, the CPU's clock) falls on all of them alike.

Usage: python3 Benchmarks/alternate.py RUNS BIN1 BIN2 ... -- ARGS...

Each binary runs with ARGS (stdout and stderr to /dev/null) RUNS times, in turn; prints for each
the median wall time (fork to exit) and CPU time (user + system, from wait4), in ms. Used for
the start-up measurements of docs/performance.md ("The eighth pass")."""
import os
import statistics
import subprocess
import sys
import time


def main():
    if len(sys.argv) < 4 or "--" not in sys.argv:
        raise SystemExit(__doc__)
    runs = int(sys.argv[1])
    rest = sys.argv[2:]
    split = rest.index("--")
    binaries, args = rest[:split], rest[split + 1:]
    wall = {b: [] for b in binaries}
    cpu = {b: [] for b in binaries}
    null = os.open(os.devnull, os.O_WRONLY)
    for _ in range(runs):
        for b in binaries:
            start = time.perf_counter()
            p = subprocess.Popen([b] + args, stdout=null, stderr=null)
            _, _, usage = os.wait4(p.pid, 0)
            wall[b].append((time.perf_counter() - start) * 1000)
            cpu[b].append((usage.ru_utime + usage.ru_stime) * 1000)
    for b in binaries:
        print("%s: wall %.2f ms, cpu %.2f ms (median of %d)" % (b, statistics.median(wall[b]),
                                                                  statistics.median(cpu[b]), runs))


if __name__ == "__main__":
    main()
