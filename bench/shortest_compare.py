"""Shortest-line search of two installs of bakersdozen, alternating, deal by deal.

Usage::

    python bench/shortest_compare.py OLD_PYTHON NEW_PYTHON [FIRST] [LAST] [--time-limit S]

OLD_PYTHON and NEW_PYTHON are the interpreters of two environments, each
with its own bakersdozen installed (e.g. a ``git worktree`` of main with a
non-editable install, and this checkout).  For each PySol Baker's Dozen
deal FIRST..LAST (default 1..10), each interpreter runs
``solve(deal, method="shortest", time_limit=S)`` (default 20 s) in a fresh
process, the two alternating which goes first from deal to deal, so that a
noisy shared machine slows both alike.  Each winning line is replayed with
:func:`bakersdozen.check` in the process that found it.  Prints a Markdown
table: per deal and install, proven minimal or not, length, lower bound,
seconds, positions generated, and the ratio old/new of seconds and of
positions; then the totals.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from typing import Any

CHILD = """
import json, sys, time
from bakersdozen import Deal, check, solve
deal = Deal.pysol(int(sys.argv[1]))
start = time.perf_counter()
s = solve(deal, method="shortest", time_limit=float(sys.argv[2]))
seconds = time.perf_counter() - start
assert not s.solved or check(deal, s.moves).won
print(json.dumps({"proven": s.optimal, "length": len(s.moves), "bound": s.lower_bound,
                  "seconds": seconds, "nodes": s.nodes, "verdict": s.verdict.value}))
"""


def run(python: str, number: int, time_limit: float) -> dict[str, Any]:
    out = subprocess.run([python, "-c", CHILD, str(number), str(time_limit)],
                         check=True, capture_output=True, text=True).stdout
    result: dict[str, Any] = json.loads(out.strip().splitlines()[-1])
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("first", type=int, nargs="?", default=1)
    parser.add_argument("last", type=int, nargs="?", default=10)
    parser.add_argument("--time-limit", type=float, default=20.0)
    args = parser.parse_args(argv)
    print(f"PySol deals {args.first}-{args.last}, solve(method='shortest', "
          f"time_limit={args.time_limit:g}), old and new alternating\n")
    print("| deal | old proven | old length | old bound | old s | old positions "
          "| new proven | new length | new bound | new s | new positions "
          "| s old/new | positions old/new |")
    print("|---:|---|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|")
    totals = {"old": [0.0, 0, 0], "new": [0.0, 0, 0]}
    for number in range(args.first, args.last + 1):
        order = ("old", "new") if number % 2 else ("new", "old")
        res = {}
        for which in order:
            res[which] = run(getattr(args, which), number, args.time_limit)
        cells = []
        for which in ("old", "new"):
            r = res[which]
            totals[which][0] += r["seconds"]
            totals[which][1] += r["nodes"]
            totals[which][2] += bool(r["proven"])
            cells += ["yes" if r["proven"] else "no", str(r["length"]), str(r["bound"]),
                      f"{r['seconds']:.2f}", str(r["nodes"])]
        ratio_s = res["old"]["seconds"] / max(res["new"]["seconds"], 1e-9)
        ratio_n = res["old"]["nodes"] / max(res["new"]["nodes"], 1)
        print(f"| {number} | " + " | ".join(cells) + f" | {ratio_s:.1f} | {ratio_n:.1f} |",
              flush=True)
    old, new = totals["old"], totals["new"]
    print(f"\nTotals: old {old[0]:.1f} s, {old[1]} positions, {old[2]} proven; "
          f"new {new[0]:.1f} s, {new[1]} positions, {new[2]} proven; "
          f"seconds old/new {old[0] / max(new[0], 1e-9):.2f}.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
