"""The layered search on disk beside the layered search in memory.

Usage::

    python bench/disk_layers.py [DEALS] [--rounds 1] [--memory-mb 1024]
                                [--disk-memory-mb 9] [--work-root DIR]
                                [--jobs 1,2] [--short] [--kinds memory,disk]
                                [--no-line-record] [--against PYTHON]

DEALS is a PySol deal list or range (default ``10242``; ``10242,47201``
for both of docs/engine.md).  For each deal, each round runs the layered
search in memory (a budget of ``--memory-mb``) and on disk (a budget of
``--disk-memory-mb``, the files in a fresh directory under ``--work-root``),
alternating which goes first, every run in a fresh interpreter so that its
peak resident memory is its own (``ru_maxrss``).  Prints a Markdown row per
run: the verdict, positions stored and generated (deterministic: the two
must agree, or the script fails), seconds (wall clock, and the CPU time
of the process), positions generated per second of wall clock,
the search's own peak (``stats["peak_bytes"]``: its layers and buffers),
the process's peak RSS, the most bytes the files held at once, those bytes
per position stored, and the bytes written in all.  Seconds are wall-clock
on a shared machine: compare only within one run, where both meet the same
load.

``--jobs 1,2`` also runs the disk search in parallel tasks
(``solve(..., work_dir=DIR, jobs=N)``) with each N listed, the same
``--disk-memory-mb`` shared by its N jobs, in the same rotation: the rows
``jobs N`` (and a speed-up over ``jobs 1`` when both ran).  ``--short``
runs deal 16780 (235,290 positions, well under a second in memory) unless
DEALS is given: a quick check of the figures, not a measurement.
``--kinds`` keeps some of the kinds of run (``memory``, ``disk``, ``jobs N``).
``--no-line-record`` adds, for each kind on disk, its twin run with
``line_record=False`` (``disk norec``, ``jobs N norec``): no kept files
for a winning line, so the files hold only the layers still to expand.

``--against PYTHON`` compares two builds of the engine: every run is made
again by the interpreter *PYTHON* (an environment where another version of
bakersdozen is installed), the two alternating which goes first, in rows
marked ``B``; the counts of both must agree, and a line per kind of run
gives the ratio of their mean seconds (this build over PYTHON's).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from typing import Any

ONE = """
import json, os, resource, sys, time
from bakersdozen import Deal
from bakersdozen.solver import LayersSearch, _engine_args
number, memory_mb, work_dir = int(sys.argv[1]), float(sys.argv[2]), sys.argv[3] or None
jobs = int(sys.argv[4]) or None
record = {"line_record": False} if sys.argv[5] == "0" else {}  # a build before the option too
search = LayersSearch(*_engine_args(Deal.pysol(number)), memory_mb=memory_mb, work_dir=work_dir,
                      jobs=jobs, **record)
start = time.perf_counter()
status, _moves, nodes, _rounds, stored = search.run()
seconds = time.perf_counter() - start
print(json.dumps({"status": status, "nodes": nodes, "stored": stored, "seconds": seconds,
                  "peak_bytes": search.stats["peak_bytes"],
                  "peak_disk": search.stats.get("peak_disk", 0),
                  "written": search.stats.get("written", 0),
                  "cpu": resource.getrusage(resource.RUSAGE_SELF).ru_utime
                         + resource.getrusage(resource.RUSAGE_SELF).ru_stime,
                  "rss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024}))
"""


def run_one(number: int, memory_mb: float, work_dir: str, jobs: int = 0,
            python: str = sys.executable, line_record: bool = True) -> dict[str, Any]:
    """The layered search of PySol deal *number* in a fresh interpreter *python*
    (on disk in *work_dir*, or in memory if it is empty; in *jobs* parallel
    tasks if not 0; without the line record if *line_record* is False)."""
    out = subprocess.run(
        [python, "-c", ONE, str(number), str(memory_mb), work_dir, str(jobs),
         str(int(line_record))],
        check=True, capture_output=True, text=True,
    ).stdout
    result: dict[str, Any] = json.loads(out)
    return result


def main(argv: list[str] | None = None) -> int:
    from bakersdozen import parse_deal_range

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("deals", nargs="?", default=None)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--memory-mb", type=float, default=1024.0)
    parser.add_argument("--disk-memory-mb", type=float, default=9.0)
    parser.add_argument("--work-root", default=None)
    parser.add_argument("--jobs", default="", help="also in parallel tasks: N,M,... jobs")
    parser.add_argument("--short", action="store_true", help="deal 16780 by default")
    parser.add_argument("--kinds", default="", help="only these kinds of run: memory,disk,jobs N")
    parser.add_argument("--no-line-record", action="store_true",
                        help="also each run on disk without the line record")
    parser.add_argument("--against", default=None, metavar="PYTHON",
                        help="also run every search with this interpreter's bakersdozen")
    args = parser.parse_args(argv)
    if args.deals is None:
        args.deals = "16780" if args.short else "10242"
    if args.no_line_record and args.against:
        parser.error("--no-line-record with --against: a build before the option cannot run "
                     "without the line record; compare the two builds with it")
    jobs = [int(j) for j in args.jobs.split(",") if j.strip()]
    wheres = ["memory", "disk"] + [f"jobs {j}" for j in jobs]
    if args.no_line_record:
        wheres += [f"{w} norec" for w in wheres if w != "memory"]
    if args.kinds:
        kept = [k.strip() for k in args.kinds.split(",")]
        wheres = [w for w in wheres if w in kept or w.removesuffix(" norec") in kept]
        if not wheres:
            parser.error(f"--kinds {args.kinds!r}: none of {', '.join(kept)} is run")
    builds = [("", sys.executable)] + ([("B ", args.against)] if args.against else [])
    print("| deal | where | budget MiB | status | stored | generated | seconds (CPU) | positions/s "
          "| search peak MB | RSS MB | files peak MB | bytes/position | written GB |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for number in parse_deal_range(args.deals):
        seen = set()
        seconds: dict[str, list[float]] = {}
        for r in range(args.rounds):
            k = r % len(wheres)  # each kind of run goes first in turn
            order = wheres[k:] + wheres[:k]
            b = r % len(builds)  # and each build
            runs = [(where, build) for where in order for build in builds[b:] + builds[:b]]
            for where, (mark, python) in runs:
                if where != "memory":
                    words = where.split()
                    with tempfile.TemporaryDirectory(dir=args.work_root) as work:
                        run = run_one(number, args.disk_memory_mb, work,
                                      int(words[1]) if words[0] == "jobs" else 0, python,
                                      line_record=words[-1] != "norec")
                    budget = args.disk_memory_mb
                else:
                    run = run_one(number, args.memory_mb, "", python=python)
                    budget = args.memory_mb
                seen.add((run["status"], run["nodes"], run["stored"]))
                seconds.setdefault(mark + where, []).append(run["seconds"])
                per = run["peak_disk"] / run["stored"] if run["stored"] else 0.0
                print(f"| {number} | {mark}{where} | {budget:g} | {run['status']} | {run['stored']:,} "
                      f"| {run['nodes']:,} | {run['seconds']:.1f} ({run['cpu']:.1f}) "
                      f"| {run['nodes'] / run['seconds']:,.0f} | {run['peak_bytes'] / 1e6:.1f} "
                      f"| {run['rss'] / 1e6:.0f} | {run['peak_disk'] / 1e6:.0f} | {per:.2f} "
                      f"| {run['written'] / 1e9:.2f} |", flush=True)
        if "jobs 1" in seconds:
            one = sum(seconds["jobs 1"]) / len(seconds["jobs 1"])
            for where, times in seconds.items():
                if where.startswith("jobs ") and where != "jobs 1" and "norec" not in where:
                    print(f"deal {number}: {where} {one / (sum(times) / len(times)):.2f} "
                          f"times as fast as jobs 1 (mean of {len(times)} runs)")
        for where in wheres if args.against else ():
            a, b = seconds[where], seconds["B " + where]
            print(f"deal {number}: {where}: this build's mean seconds over B's "
                  f"{(sum(a) / len(a)) / (sum(b) / len(b)):.3f} ({len(a)} runs each)")
        if len(seen) != 1:
            print(f"deal {number}: the runs disagree: {seen}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
