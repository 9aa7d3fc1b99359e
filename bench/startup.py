"""Start-up cost of the command line: ``bakersdozen solve --deal 1`` against ``python -c pass``.

Runs the two commands alternately (so that a busy machine slows both alike),
N times each (default 10), and prints the median wall time of each and the
difference, in milliseconds.  The target is a difference of at most 40 ms.
It also prints the median CPU time (user + system, of the child process,
from ``getrusage``): on a shared machine whose other jobs stretch the wall
time, the CPU time moves far less.

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
import resource
import statistics
import subprocess
import sys
import time


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def wall(argv: list[str], env: dict[str, str] | None = None) -> tuple[float, float]:
    """Seconds of wall time and of CPU time (user + system) of one run of *argv*.

    The output is discarded.  The CPU time is the process's own (and its
    children's), from ``getrusage(RUSAGE_CHILDREN)`` before and after.
    """
    cpu = _children_cpu()
    start = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False,
                   env=env)
    return time.perf_counter() - start, _children_cpu() - cpu


def _medians(runs: list[tuple[float, float]]) -> tuple[float, float]:
    """Median wall and CPU milliseconds of *runs*."""
    return (statistics.median(w for w, _ in runs) * 1000,
            statistics.median(c for _, c in runs) * 1000)


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
    (b, b_cpu), (s, s_cpu) = _medians(bare_times), _medians(solve_times)
    print(f"python -c pass:                  median {b:6.1f} ms over {args.runs} runs "
          f"(CPU {b_cpu:5.1f} ms)")
    print(f"bakersdozen solve --deal 1:      median {s:6.1f} ms over {args.runs} runs "
          f"(CPU {s_cpu:5.1f} ms)")
    print(f"difference:                             {s - b:6.1f} ms (budget {args.budget_ms:g} ms) "
          f"(CPU {s_cpu - b_cpu:5.1f} ms)")
    if other is not None:
        o, o_cpu = _medians(other_times)
        print(f"the same, PYTHONPATH={args.against}: median {o:6.1f} ms, difference "
              f"{o - b:6.1f} ms (CPU {o_cpu:5.1f} ms, difference {o_cpu - b_cpu:5.1f} ms)")
    return 0 if s - b <= args.budget_ms else 1


if __name__ == "__main__":
    sys.exit(main())
