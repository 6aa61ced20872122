#!/usr/bin/env python3
"""One client's calls, servers side by side: `BIN client SERVER CALLS` for
each server in turn, ROUNDS times, every other round in reverse order (so
that a drift of the machine's speed falls on each alike); prints each
server's median calls per second and p10 / p50 latency over the rounds,
and its rate as a ratio to the first server's. A paired comparison on a
shared machine, not the issue's measure (`cargo bench -p mcp-bench --
http`): the load average printed is the run's own.

    python3 benches/mcp/client_rounds.py BIN ROUNDS CALLS SERVER...

A SERVER may name another build of the bench as `PATH:SERVER`, to set two
builds side by side (copy the first out of `target/` before building the
second).
"""
import os
import re
import statistics
import subprocess
import sys


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    bin, rounds, calls = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    servers = sys.argv[4:]
    seen = {s: [] for s in servers}
    for r in range(rounds):
        for s in servers if r % 2 == 0 else servers[::-1]:
            path, name = s.rsplit(":", 1) if ":" in s else (bin, s)
            done = subprocess.run([path, "client", name, calls], capture_output=True, text=True)
            got = re.search(r"([\d.]+) calls/s, p10 ([\d.]+) p50 ([\d.]+)", done.stderr)
            if done.returncode != 0 or not got:
                sys.exit(f"{s}: {done.stderr[-2000:]}")
            seen[s].append(tuple(map(float, got.groups())))
    print(f"load average after the run: {os.getloadavg()[0]:.2f}")
    first = None
    for s in servers:
        rate, p10, p50 = (statistics.median(x[i] for x in seen[s]) for i in range(3))
        first = first or rate
        print(f"{s:<40} {rate:>7.0f} calls/s  p10 {p10:6.1f} us  p50 {p50:6.1f} us  {rate / first:.3f}x")


if __name__ == "__main__":
    main()
