"""Start-up cost of the command line: ``bakersdozen solve --deal 1`` against ``python -c pass``.

Runs the two commands alternately (so that a busy machine slows both alike),
N times each (default 10), and prints the median wall time of each and the
difference, in milliseconds.  The target is a difference of at most 40 ms.

    python bench/startup.py            # 10 runs each
    python bench/startup.py --runs 20

The command is run as ``python -m bakersdozen`` from the interpreter running
this script, so the figure does not depend on which ``bakersdozen`` script is
first on PATH; the console script adds a few hundred microseconds at most.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time


def wall(argv: list[str]) -> float:
    """Seconds of wall time of one run of *argv* (output discarded)."""
    start = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10, help="runs of each command (default 10)")
    parser.add_argument("--budget-ms", type=float, default=40.0, help="allowed difference (40)")
    args = parser.parse_args()
    bare = [sys.executable, "-c", "pass"]
    solve = [sys.executable, "-m", "bakersdozen", "solve", "--deal", "1"]
    check = subprocess.run(solve, capture_output=True, text=True, check=False)  # warms the cache
    if check.returncode != 0 or not check.stdout.startswith("verdict: solved"):
        raise SystemExit(f"{' '.join(solve)} failed: {check.returncode} {check.stderr.strip()}")
    wall(bare)
    bare_times, solve_times = [], []
    for _ in range(args.runs):
        bare_times.append(wall(bare))
        solve_times.append(wall(solve))
    b, s = statistics.median(bare_times) * 1000, statistics.median(solve_times) * 1000
    print(f"python -c pass:                  median {b:6.1f} ms over {args.runs} runs")
    print(f"bakersdozen solve --deal 1:      median {s:6.1f} ms over {args.runs} runs")
    print(f"difference:                             {s - b:6.1f} ms (budget {args.budget_ms:g} ms)")
    return 0 if s - b <= args.budget_ms else 1


if __name__ == "__main__":
    sys.exit(main())
