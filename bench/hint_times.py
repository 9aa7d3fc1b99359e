"""Time per :func:`bakersdozen.analysis.hint` call along winning lines of PySol deals.

Usage::

    python bench/hint_times.py [FIRST] [LAST] [--every K]

For each PySol deal FIRST..LAST (default 1..100) that the default search
solves, asks for a hint at every K-th position of its winning line
(default every 10th, the deal itself included), with the default limits,
and checks that the hinted move is legal and keeps the position winnable
(the rest of the hint's line wins, replayed by :func:`bakersdozen.check`).
Prints the count of calls, the share whose move comes from a proven
shortest line, and percentiles of the seconds per call.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from bakersdozen import Deal, check, solve
from bakersdozen.analysis import HINT_SHORTEST_SECONDS, hint


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("first", type=int, nargs="?", default=1)
    parser.add_argument("last", type=int, nargs="?", default=100)
    parser.add_argument("--every", type=int, default=10)
    args = parser.parse_args(argv)
    times: list[float] = []
    proven = 0
    for number in range(args.first, args.last + 1):
        deal = Deal.pysol(number)
        line = solve(deal).moves
        for i in range(0, len(line), args.every):
            position = check(deal, line[:i]).position
            start = time.perf_counter()
            answer = hint(position)
            times.append(time.perf_counter() - start)
            assert answer.move is not None and check(position, answer.solution.moves).won
            proven += answer.solution.optimal
    times.sort()

    def pct(p: float) -> float:
        return times[max(0, min(len(times) - 1, int(p * len(times) + 0.999999) - 1))]

    print(
        f"deals {args.first}-{args.last}, every {args.every}th position of the default line: "
        f"{len(times)} hint() calls (shortest search {HINT_SHORTEST_SECONDS:g} s), "
        f"{proven} from a proven shortest line; seconds per call: "
        f"median {statistics.median(times):.3f}, p90 {pct(0.9):.3f}, max {times[-1]:.3f}, "
        f"mean {statistics.fmean(times):.3f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
