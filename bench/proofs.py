"""Proofs of unsolvable deals: the layered search beside the proof phase alone.

Usage::

    python bench/proofs.py [DEALS] [--rounds 2] [--memory-mb 2048]

DEALS is a PySol deal list or range (default ``3266,5143,16780,10242``,
all unsolvable).  For each deal, each round runs ``method="layers"`` and
``method="proof"`` once each, alternating which goes first, every run in a
fresh interpreter so that its peak resident memory is its own
(``resource.getrusage``, ``ru_maxrss``).  Prints a Markdown row per deal:
the verdict and positions of each method (deterministic), the median
seconds and peak RSS of each, and the ratios layers / proof.  Seconds are
wall-clock on a shared machine: compare only within one run, where both
methods meet the same load.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from typing import Any

ONE = """
import json, resource, sys, time
from bakersdozen import Deal, solve
number, method, memory_mb = int(sys.argv[1]), sys.argv[2], float(sys.argv[3])
deal = Deal.pysol(number)
start = time.perf_counter()
solution = solve(deal, time_limit=None, memory_mb=memory_mb, method=method)
seconds = time.perf_counter() - start
print(json.dumps({"verdict": solution.verdict.value, "positions": solution.nodes,
                  "seconds": seconds,
                  "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def run_one(number: int, method: str, memory_mb: float) -> dict[str, Any]:
    """Solve PySol deal *number* with *method* in a fresh interpreter."""
    out = subprocess.run(
        [sys.executable, "-c", ONE, str(number), method, str(memory_mb)],
        check=True, capture_output=True, text=True,
    ).stdout
    result: dict[str, Any] = json.loads(out)
    return result


def main(argv: list[str] | None = None) -> int:
    from bakersdozen import parse_deal_range

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("deals", nargs="?", default="3266,5143,16780,10242")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--memory-mb", type=float, default=2048.0)
    args = parser.parse_args(argv)
    methods = ("layers", "proof")
    print("| deal | verdict | positions layers / proof | seconds layers / proof (ratio) "
          "| peak RSS MB layers / proof (ratio) |")
    print("|---|---|---|---|---|")
    for number in parse_deal_range(args.deals):
        runs: dict[str, list[dict[str, Any]]] = {m: [] for m in methods}
        for r in range(args.rounds):
            for method in (methods if r % 2 == 0 else methods[::-1]):
                runs[method].append(run_one(number, method, args.memory_mb))
        verdicts = {run["verdict"] for m in methods for run in runs[m]}
        if len(verdicts) != 1:
            print(f"deal {number}: the methods disagree: {verdicts}", file=sys.stderr)
            return 1
        sec = {m: statistics.median(run["seconds"] for run in runs[m]) for m in methods}
        rss = {m: max(run["rss_mb"] for run in runs[m]) for m in methods}
        pos = {m: runs[m][0]["positions"] for m in methods}
        print(f"| {number} | {verdicts.pop()} | {pos['layers']:,} / {pos['proof']:,} "
              f"| {sec['layers']:.2f} / {sec['proof']:.2f} ({sec['layers'] / sec['proof']:.2f}) "
              f"| {rss['layers']:.0f} / {rss['proof']:.0f} ({rss['layers'] / rss['proof']:.2f}) |",
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
