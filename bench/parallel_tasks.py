"""Where the time of the layered search in parallel tasks goes.

Usage::

    python bench/parallel_tasks.py [DEAL] [--memory-mb 9] [--jobs 2] [--work-root DIR]

Runs ``solve(..., method="layers", work_dir=DIR, jobs=N)``'s search on
PySol deal DEAL (default 10242) in a fresh directory and prints: the
counts, the wall clock, the tasks of each kind with their seconds summed,
the share of the N threads' time spent in tasks (the rest is the driver
between tasks and the wait for a progress value's last task), and the
progress values whose tasks took longest.  The times are those of the
run's own task log (:mod:`bakersdozen.task_log`, which ``bakersdozen
tasks DIR`` sums up).  docs/engine.md, "Parallel expansion", quotes it.  Seconds
are wall-clock on a shared machine: run it with nothing else running.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time

from bakersdozen import Deal
from bakersdozen.solver import LayersSearch, _engine_args
from bakersdozen.task_log import read_log, summary


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("deal", nargs="?", type=int, default=10242)
    parser.add_argument("--memory-mb", type=float, default=9.0)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--work-root", default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=args.work_root) as work_dir:
        search = LayersSearch(*_engine_args(Deal.pysol(args.deal)), memory_mb=args.memory_mb,
                              work_dir=work_dir, jobs=args.jobs)
        origin = time.perf_counter()
        status, _moves, nodes, _rounds, stored = search.run()
        wall = time.perf_counter() - origin
        log = read_log(work_dir)
    s = summary(log, args.jobs)
    print(f"deal {args.deal}, jobs {args.jobs}, {args.memory_mb:g} MiB: status {status}, "
          f"{stored:,} stored, {nodes:,} generated, {wall:.2f} s wall")
    for kind, v in s["by_kind"].items():
        print(f"  {kind}: {v['tasks']} tasks, {v['seconds']:.2f} s")
    print(f"  threads busy {100 * s['task_seconds'] / (wall * args.jobs):.1f} % of the wall clock")
    longest = sorted(s["by_progress"].items(), key=lambda kv: -kv[1]["cpu_seconds"])[:5]
    for p, v in longest:
        print(f"  progress {p}: {v['tasks']} tasks, {v['cpu_seconds']:.2f} CPU s in tasks, "
              f"{v['span']:.2f} s of wall clock, {v['short_of_jobs']:.2f} s of it with fewer "
              f"tasks than jobs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
