"""Shortest winning lines of PySol deals: default length, shortest length, time.

Usage::

    python bench/optimal_table.py [FIRST] [LAST] [--time-limit S] [--jobs N] [--out FILE]

For each PySol Baker's Dozen deal FIRST..LAST (default 1..100), solves it
with the default search (``method="dfs"``) and with ``method="shortest"``
under a time limit of S seconds (default 20) and writes one Markdown table
row as soon as the deal is done (so a run stopped midway keeps its rows).
Every winning line is replayed with :func:`bakersdozen.check`.  Columns:
deal, verdict, default length, shortest length, whether it is proven
minimal, the proven lower bound, seconds of the shortest search, and
positions it generated.  A summary follows the table when the run ends.
With ``--jobs N`` (default 1), N worker processes solve deals at once; the
rows are still written in deal order, each as soon as it and every earlier
deal are done.  The seconds are wall-clock time in the worker, so deals
that share the machine's cores with each other run slower than alone.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Iterator
from concurrent.futures import Executor

from bakersdozen import Deal, check, solve
from bakersdozen.survey.workers import process_executor, stop


def solve_deal(number: int, time_limit: float) -> tuple[int, str, int, int, bool, int, float, int]:
    """One row: ``(deal, verdict, default length, shortest length, proven,
    lower bound, seconds of the shortest search, positions)``; the lengths
    and bound are 0 unless solved.  Both lines are replayed."""
    deal = Deal.pysol(number)
    default = solve(deal)
    start = time.perf_counter()
    best = solve(deal, method="shortest", time_limit=time_limit)
    seconds = time.perf_counter() - start
    if not best.solved:
        return number, best.verdict.value, 0, 0, False, 0, seconds, best.nodes
    assert check(deal, best.moves).won and check(deal, default.moves).won
    assert len(best.moves) <= len(default.moves)
    return (number, "solved", len(default.moves), len(best.moves), best.optimal,
            best.lower_bound, seconds, best.nodes)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("first", type=int, nargs="?", default=1)
    parser.add_argument("last", type=int, nargs="?", default=100)
    parser.add_argument("--time-limit", type=float, default=20.0)
    parser.add_argument("--jobs", type=int, default=1,
                        help="worker processes solving deals at once (default 1)")
    parser.add_argument("--out", default="-")
    args = parser.parse_args(argv)
    if args.jobs < 1:
        parser.error(f"--jobs must be at least 1, not {args.jobs}")
    out = sys.stdout if args.out == "-" else open(args.out, "w", encoding="utf-8")
    out.write(
        f"Shortest lines of PySol deals {args.first}-{args.last}, "
        f"{args.time_limit:g} s limit per deal (bench/optimal_table.py)\n\n"
        "| deal | verdict | default | shortest | proven | lower bound | seconds | positions |\n"
        "|---:|---|---:|---:|---|---:|---:|---:|\n"
    )
    out.flush()
    Row = tuple[int, str, int, int, bool, int, float, int]
    rows: list[Row] = []
    numbers = range(args.first, args.last + 1)
    limits = [args.time_limit] * len(numbers)
    results: Iterator[Row]
    pool: Executor | None = None
    finished = False
    if args.jobs == 1:
        results = map(solve_deal, numbers, limits)
    else:
        # the survey's workers: they ignore Ctrl-C (no traceback each) and die with this
        # process, however it ends; a Ctrl-C stops them at once (stop)
        pool = process_executor(args.jobs)
        results = pool.map(solve_deal, numbers, limits)
    try:
        for row in results:
            number, verdict, default_length, length, optimal, bound, seconds, nodes = row
            if verdict == "solved":
                out.write(
                    f"| {number} | solved | {default_length} | {length} | "
                    f"{'yes' if optimal else 'no'} | {bound} | {seconds:.2f} | {nodes} |\n"
                )
                rows.append(row)
            else:
                out.write(f"| {number} | {verdict} | - | - | - | - | {seconds:.2f} | {nodes} |\n")
            out.flush()
        finished = True
    finally:
        if pool is not None and finished:
            pool.shutdown()
        elif pool is not None:
            stop(pool)
    if rows:
        proven = [r for r in rows if r[4]]
        out.write(
            f"\n{len(rows)} deals solved, {len(proven)} proven minimal within the limit; "
            f"median default length {statistics.median(r[2] for r in rows):g}, "
            f"median shortest-search length {statistics.median(r[3] for r in rows):g}"
        )
        if proven:
            out.write(
                f"; on the proven deals: median default {statistics.median(r[2] for r in proven):g}, "
                f"median shortest {statistics.median(r[3] for r in proven):g}, "
                f"median seconds {statistics.median(r[6] for r in proven):.2f}"
            )
        out.write(".\n")
    if out is not sys.stdout:
        out.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
