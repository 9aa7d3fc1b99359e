"""What the engine's progress hook costs: solve speed with and without it.

Usage::

    python bench/progress_hook.py [--baseline SRC] [--rounds 3] [--nodes 4000000]

Two workloads, each run in a fresh interpreter: deals 1-100 solved one
after the other (10 s limit each; many small searches), and deal 417 for
a fixed number of positions (one long search; it is undecided, so the
count is exact and the work identical in every run).  Each round runs the
variants one after the other, in turn first: ``none`` (this tree,
``progress=None``), ``hook`` (this tree, a progress callable that does
nothing) and, with ``--baseline SRC``, ``baseline`` (another tree's
``src`` directory with its compiled modules, e.g. the commit before the
hook, put first on ``PYTHONPATH``).  Prints the median seconds and
positions per second of each.  Seconds are wall-clock on a shared
machine: compare only within one run.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

ONE = """
import json, sys, time
from bakersdozen import Deal, solve
workload, hook, nodes = sys.argv[1], sys.argv[2] == "hook", int(sys.argv[3])
extra = {"progress": (lambda n, b: None)} if hook else {}
if workload == "many":
    deals = [Deal.pysol(n) for n in range(1, 101)]
    limits = {"time_limit": 10}
else:
    deals = [Deal.pysol(417)]
    limits = {"time_limit": None, "max_nodes": nodes}
start = time.perf_counter()
total = sum(solve(d, memory_mb=256, **limits, **extra).nodes for d in deals)
print(json.dumps({"seconds": time.perf_counter() - start, "nodes": total}))
"""


def run_one(workload: str, variant: str, nodes: int, baseline: str | None) -> dict[str, float]:
    env = dict(os.environ)
    if variant == "baseline":
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [baseline, env.get("PYTHONPATH")]))
    out = subprocess.run(
        [sys.executable, "-c", ONE, workload, "hook" if variant == "hook" else "none", str(nodes)],
        env=env, capture_output=True, text=True, check=True,
    ).stdout
    result: dict[str, float] = json.loads(out)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--baseline", help="a src directory without the hook, compiled")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--nodes", type=int, default=4_000_000)
    args = parser.parse_args()
    variants = ["none", "hook"] + (["baseline"] if args.baseline else [])
    print("| workload | variant | median s | positions | M positions/s |")
    print("|---|---|---|---|---|")
    for workload in ("many", "long"):
        seconds: dict[str, list[float]] = {v: [] for v in variants}
        nodes: dict[str, float] = {}
        for round_ in range(args.rounds):
            order = variants[round_ % len(variants):] + variants[:round_ % len(variants)]
            for variant in order:
                result = run_one(workload, variant, args.nodes, args.baseline)
                seconds[variant].append(result["seconds"])
                nodes[variant] = result["nodes"]
        for variant in variants:
            median = statistics.median(seconds[variant])
            print(f"| {workload} | {variant} | {median:.3f} | {int(nodes[variant])} | "
                  f"{nodes[variant] / median / 1e6:.2f} |")


if __name__ == "__main__":
    main()
