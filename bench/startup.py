"""Start-up cost of the command line: ``bakersdozen solve --deal 1`` against ``python -c pass``.

Runs the two commands alternately (so that a busy machine slows both alike),
N times each (default 10), and prints the median wall time of each and the
difference, in milliseconds.  The target is a difference of at most 40 ms.

    python bench/startup.py            # 10 runs each
    python bench/startup.py --runs 20
    python bench/startup.py --against ../main/src   # and another checkout, in turn

``--against SRC`` adds a third command to the alternation: the same solve
with ``PYTHONPATH=SRC``, i.e. another checkout's ``src/`` with its
extensions built in place (``pip install -e .`` there, or copy the ``.so``
files in), so that old and new code are timed side by side on the same
interpreter, on a machine whose speed drifts.  The exit status is about
this interpreter's own package only.

The command is run as ``python -m bakersdozen`` from the interpreter running
this script, so the figure does not depend on which ``bakersdozen`` script is
first on PATH; the console script adds a few hundred microseconds at most.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time


def wall(argv: list[str], env: dict[str, str] | None = None) -> float:
    """Seconds of wall time of one run of *argv* (output discarded)."""
    start = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False,
                   env=env)
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10, help="runs of each command (default 10)")
    parser.add_argument("--budget-ms", type=float, default=40.0, help="allowed difference (40)")
    parser.add_argument("--against", metavar="SRC",
                        help="also time the solve with PYTHONPATH=SRC (another checkout's src/)")
    args = parser.parse_args()
    bare = [sys.executable, "-c", "pass"]
    solve = [sys.executable, "-m", "bakersdozen", "solve", "--deal", "1"]
    check = subprocess.run(solve, capture_output=True, text=True, check=False)  # warms the cache
    if check.returncode != 0 or not check.stdout.startswith("verdict: solved"):
        raise SystemExit(f"{' '.join(solve)} failed: {check.returncode} {check.stderr.strip()}")
    other = None
    if args.against:
        other = {**os.environ, "PYTHONPATH": os.path.abspath(args.against)}
        done = subprocess.run(solve, capture_output=True, text=True, check=False, env=other)
        if done.returncode != 0 or not done.stdout.startswith("verdict: solved"):
            raise SystemExit(f"PYTHONPATH={args.against} {' '.join(solve)} failed: "
                             f"{done.returncode} {done.stderr.strip()[-300:]}")
    wall(bare)
    bare_times, solve_times, other_times = [], [], []
    for _ in range(args.runs):
        bare_times.append(wall(bare))
        solve_times.append(wall(solve))
        if other is not None:
            other_times.append(wall(solve, other))
    b, s = statistics.median(bare_times) * 1000, statistics.median(solve_times) * 1000
    print(f"python -c pass:                  median {b:6.1f} ms over {args.runs} runs")
    print(f"bakersdozen solve --deal 1:      median {s:6.1f} ms over {args.runs} runs")
    print(f"difference:                             {s - b:6.1f} ms (budget {args.budget_ms:g} ms)")
    if other is not None:
        o = statistics.median(other_times) * 1000
        print(f"the same, PYTHONPATH={args.against}: median {o:6.1f} ms, difference {o - b:6.1f} ms")
    return 0 if s - b <= args.budget_ms else 1


if __name__ == "__main__":
    sys.exit(main())
