"""Where the time of the layered search in parallel tasks goes.

Usage::

    python bench/parallel_tasks.py [DEAL] [--memory-mb 9] [--jobs 2] [--work-root DIR]

Runs ``solve(..., method="layers", work_dir=DIR, jobs=N)``'s search on
PySol deal DEAL (default 10242) in a fresh directory, with every task
timed in the driver (threads of this process), and prints: the counts,
the wall clock, the tasks of each kind with their seconds summed, the
share of the N threads' time spent in tasks (the rest is the driver
between tasks and the wait for a progress value's last task), and the
progress values whose tasks took longest.  docs/engine.md, "Parallel
expansion", quotes it.  Seconds are wall-clock on a shared machine: run it
with nothing else running.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from typing import Any

from bakersdozen import Deal, _parallel
from bakersdozen.solver import LayersSearch, _engine_args


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("deal", nargs="?", type=int, default=10242)
    parser.add_argument("--memory-mb", type=float, default=9.0)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--work-root", default=None)
    args = parser.parse_args()
    log: list[tuple[str, int, float, float]] = []
    run_task = _parallel.run_task
    origin = time.perf_counter()

    def timed(task: dict[str, Any], control: Any = None) -> dict[str, Any]:
        start = time.perf_counter()
        result = run_task(task, control)
        log.append((task["kind"], task["progress"], start - origin, time.perf_counter() - origin))
        return result

    _parallel.run_task = timed  # the driver submits the module's run_task
    with tempfile.TemporaryDirectory(dir=args.work_root) as work_dir:
        search = LayersSearch(*_engine_args(Deal.pysol(args.deal)), memory_mb=args.memory_mb,
                              work_dir=work_dir, jobs=args.jobs)
        origin = time.perf_counter()
        status, _moves, nodes, _rounds, stored = search.run()
        wall = time.perf_counter() - origin
    print(f"deal {args.deal}, jobs {args.jobs}, {args.memory_mb:g} MiB: status {status}, "
          f"{stored:,} stored, {nodes:,} generated, {wall:.2f} s wall")
    for kind in sorted({k for k, *_ in log}):
        seconds = [b - a for k, _p, a, b in log if k == kind]
        print(f"  {kind}: {len(seconds)} tasks, {sum(seconds):.2f} s")
    busy = sum(b - a for _k, _p, a, b in log)
    print(f"  threads busy {100 * busy / (wall * args.jobs):.1f} % of the wall clock")
    by_progress: dict[int, list[tuple[float, float]]] = {}
    for _k, p, a, b in log:
        by_progress.setdefault(p, []).append((a, b))
    longest = sorted(by_progress.items(), key=lambda kv: -sum(b - a for a, b in kv[1]))[:5]
    for p, spans in longest:
        print(f"  progress {p}: {len(spans)} tasks, {sum(b - a for a, b in spans):.2f} s in "
              f"tasks, {max(b for _a, b in spans) - min(a for a, _b in spans):.2f} s of wall clock")
    return 0


if __name__ == "__main__":
    sys.exit(main())
