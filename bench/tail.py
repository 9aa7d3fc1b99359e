"""The heavy tail and the memory budget: figures for docs/engine.md.

Three measurements, each by running ``python -m bakersdozen solve`` in a
child process (so that its peak RSS is its own):

* ``--deal N`` (default 1684): positions and seconds to a verdict, with no
  time limit and a cap of ``--max-nodes`` positions.
* ``--rss MB ...`` (default 8 64 512): peak RSS of deal 417 (``--hard``) for
  ``--seconds`` (default 30) at each memory budget, against the budget plus
  30 MiB for the interpreter.
* ``--rate MB`` (default 8): positions reached by deal 417 after time
  limits of 10, 20, 40 and 80 seconds at that budget; the positions per
  second of each step show whether a full table loses throughput.

    python bench/tail.py                      # everything (about four minutes)
    python bench/tail.py --rss 64 --no-rate

Times on a busy machine vary; positions do not (the search is
deterministic when no time limit cuts it short).
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys


def solve(deal: int, *args: str) -> tuple[dict[str, object], float]:
    """One solve in a child process: its JSON record and its peak RSS in MiB."""
    argv = [sys.executable, "-m", "bakersdozen", "solve", "--deal", str(deal), "--json", *args]
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    done = subprocess.run(argv, capture_output=True, text=True, check=False)
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    if not done.stdout.strip():
        raise SystemExit(f"{' '.join(argv)} failed: {done.returncode} {done.stderr.strip()}")
    # ru_maxrss of the children is the largest child so far: run the small budgets first
    return json.loads(done.stdout), max(peak, before) / 1024.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deal", type=int, default=1684, help="tail deal to time (1684)")
    parser.add_argument("--max-nodes", type=int, default=100_000_000, help="its cap (10**8)")
    parser.add_argument("--hard", type=int, default=417, help="undecided deal for memory (417)")
    parser.add_argument("--rss", type=float, nargs="*", default=[8, 64, 512], help="budgets, MiB")
    parser.add_argument("--seconds", type=float, default=30.0, help="time limit of the RSS runs")
    parser.add_argument("--rate", type=float, default=8.0, help="budget of the rate runs, MiB")
    parser.add_argument("--no-rate", action="store_true", help="skip the rate runs")
    args = parser.parse_args()

    record, _ = solve(args.deal, "--time-limit", "none", "--max-nodes", str(args.max_nodes))
    print(f"deal {args.deal}: {record['verdict']} ({record['reason'] or 'decided'}), "
          f"{record['nodes']:,} positions, {record['seconds']:.2f} s")
    for mb in sorted(args.rss):
        record, peak = solve(args.hard, "--time-limit", str(args.seconds), "--memory-mb", str(mb))
        print(f"deal {args.hard} at {mb:g} MiB for {args.seconds:g} s: peak RSS {peak:.0f} MiB "
              f"(target {mb + 30:g}), {record['nodes']:,} positions, "
              f"{record['verdict']} ({record['reason']})")
    if not args.no_rate:
        last_nodes, last_seconds = 0, 0.0
        for limit in (10, 20, 40, 80):
            record, _ = solve(args.hard, "--time-limit", str(limit), "--memory-mb", str(args.rate))
            nodes = int(record["nodes"])  # type: ignore[call-overload]
            rate = (nodes - last_nodes) / max(1e-9, limit - last_seconds)
            print(f"deal {args.hard} at {args.rate:g} MiB, {limit} s: {nodes:,} positions "
                  f"({rate / 1e6:.2f} M/s since the previous step)")
            last_nodes, last_seconds = nodes, float(limit)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
