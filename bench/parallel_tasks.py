"""Where the time of the layered search in parallel tasks goes.

Usage::

    python bench/parallel_tasks.py [DEAL] [--game NAME] [--memory-mb 9] [--jobs 2]
                                   [--parts-per-job A[,B]] [--rounds R] [--work-root DIR]

Runs ``solve(..., method="layers", work_dir=DIR, jobs=N)``'s search on
PySol deal DEAL (default 10242) in a fresh directory and prints: the
counts, the wall clock, the tasks of each kind with their seconds summed,
the share of the N threads' time spent in tasks (the rest is the driver
between tasks and the wait for a progress value's last task), the seconds
with fewer tasks running than jobs, and the progress values whose tasks
took longest.  The times are those of the run's own task log
(:mod:`bakersdozen.task_log`, which ``bakersdozen tasks DIR`` sums up).

``--parts-per-job A,B`` runs the search with each of two values of
``bakersdozen._parallel.PARTS_PER_JOB`` (the least number of parts per job a
progress value is split into), *R* rounds, in turn (A B, then B A, ...),
and prints the wall-clock ratio A/B of each round: the comparison
docs/engine.md ("Parallel expansion") quotes.  Seconds are wall-clock on a
shared machine: run it with nothing else running.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from typing import Any

from bakersdozen import Deal, _parallel
from bakersdozen.solver import LayersSearch, _engine_args
from bakersdozen.task_log import read_log, summary


def _run(args: argparse.Namespace, parts_per_job: int) -> dict[str, Any]:
    """One search with *parts_per_job*: its counts, wall clock and log summary."""
    _parallel.PARTS_PER_JOB = parts_per_job  # type: ignore[misc]  # read at each plan
    with tempfile.TemporaryDirectory(dir=args.work_root) as work_dir:
        search = LayersSearch(*_engine_args(Deal.pysol(args.deal, game=args.game)),
                              memory_mb=args.memory_mb, work_dir=work_dir, jobs=args.jobs)
        origin = time.perf_counter()
        status, _moves, nodes, _rounds, stored = search.run()
        wall = time.perf_counter() - origin
        log = read_log(work_dir)
    return {"status": status, "nodes": nodes, "stored": stored, "wall": wall,
            "summary": summary(log, args.jobs)}


def _report(args: argparse.Namespace, parts_per_job: int, run: dict[str, Any]) -> None:
    s, wall = run["summary"], run["wall"]
    print(f"deal {args.deal} ({args.game}), jobs {args.jobs}, {args.memory_mb:g} MiB, "
          f"{parts_per_job} parts per job: status {run['status']}, {run['stored']:,} stored, "
          f"{run['nodes']:,} generated, {wall:.2f} s wall")
    for kind, v in s["by_kind"].items():
        print(f"  {kind}: {v['tasks']} tasks, {v['seconds']:.2f} s")
    print(f"  threads busy {100 * s['task_seconds'] / (wall * args.jobs):.1f} % of the wall clock")
    short = sum(v["short_of_jobs"] for v in s["by_progress"].values())
    print(f"  fewer tasks running than jobs: {short:.2f} s")
    longest = sorted(s["by_progress"].items(), key=lambda kv: -kv[1]["cpu_seconds"])[:5]
    for p, v in longest:
        print(f"  progress {p}: {v['tasks']} tasks, {v['cpu_seconds']:.2f} CPU s in tasks, "
              f"{v['span']:.2f} s of wall clock, {v['short_of_jobs']:.2f} s of it with fewer "
              f"tasks than jobs")


def _values(text: str) -> list[int]:
    try:
        values = [int(v) for v in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"not A or A,B (whole numbers): {text!r}") from None
    if not 1 <= len(values) <= 2 or min(values) < 1:
        raise argparse.ArgumentTypeError(f"one or two whole numbers of at least 1: {text!r}")
    return values


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("deal", nargs="?", type=int, default=10242)
    parser.add_argument("--game", default="bakers_dozen")
    parser.add_argument("--memory-mb", type=float, default=9.0)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--parts-per-job", type=_values, default=[_parallel.PARTS_PER_JOB])
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--work-root", default=None)
    args = parser.parse_args()
    values = args.parts_per_job
    walls: dict[int, list[float]] = {v: [] for v in values}
    ratios = []
    for r in range(args.rounds):
        order = values if r % 2 == 0 else values[::-1]
        for v in order:
            run = _run(args, v)
            _report(args, v, run)
            walls[v].append(run["wall"])
        if len(values) == 2:
            ratios.append(walls[values[0]][-1] / walls[values[1]][-1])
    for v in values:
        print(f"{v} parts per job: median wall {statistics.median(walls[v]):.2f} s "
              f"over {len(walls[v])} runs")
    if ratios:
        print(f"wall {values[0]}/{values[1]} by round: " + ", ".join(f"{x:.3f}" for x in ratios)
              + f" (median {statistics.median(ratios):.3f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
