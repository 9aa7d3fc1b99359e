"""The layered search on disk beside the layered search in memory.

Usage::

    python bench/disk_layers.py [DEALS] [--rounds 1] [--memory-mb 1024]
                                [--disk-memory-mb 9] [--work-root DIR]

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
search = LayersSearch(*_engine_args(Deal.pysol(number)), memory_mb=memory_mb, work_dir=work_dir)
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


def run_one(number: int, memory_mb: float, work_dir: str) -> dict[str, Any]:
    """The layered search of PySol deal *number* in a fresh interpreter (on disk
    in *work_dir*, or in memory if it is empty)."""
    out = subprocess.run(
        [sys.executable, "-c", ONE, str(number), str(memory_mb), work_dir],
        check=True, capture_output=True, text=True,
    ).stdout
    result: dict[str, Any] = json.loads(out)
    return result


def main(argv: list[str] | None = None) -> int:
    from bakersdozen import parse_deal_range

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("deals", nargs="?", default="10242")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--memory-mb", type=float, default=1024.0)
    parser.add_argument("--disk-memory-mb", type=float, default=9.0)
    parser.add_argument("--work-root", default=None)
    args = parser.parse_args(argv)
    print("| deal | where | budget MiB | status | stored | generated | seconds (CPU) | positions/s "
          "| search peak MB | RSS MB | files peak MB | bytes/position | written GB |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for number in parse_deal_range(args.deals):
        seen = set()
        for r in range(args.rounds):
            order = ("memory", "disk") if r % 2 == 0 else ("disk", "memory")
            for where in order:
                if where == "disk":
                    with tempfile.TemporaryDirectory(dir=args.work_root) as work:
                        run = run_one(number, args.disk_memory_mb, work)
                    budget = args.disk_memory_mb
                else:
                    run = run_one(number, args.memory_mb, "")
                    budget = args.memory_mb
                seen.add((run["status"], run["nodes"], run["stored"]))
                per = run["peak_disk"] / run["stored"] if run["stored"] else 0.0
                print(f"| {number} | {where} | {budget:g} | {run['status']} | {run['stored']:,} "
                      f"| {run['nodes']:,} | {run['seconds']:.1f} ({run['cpu']:.1f}) "
                      f"| {run['nodes'] / run['seconds']:,.0f} | {run['peak_bytes'] / 1e6:.1f} "
                      f"| {run['rss'] / 1e6:.0f} | {run['peak_disk'] / 1e6:.0f} | {per:.2f} "
                      f"| {run['written'] / 1e9:.2f} |", flush=True)
        if len(seen) != 1:
            print(f"deal {number}: memory and disk disagree: {seen}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
