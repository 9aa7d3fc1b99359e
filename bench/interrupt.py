"""How long Ctrl-C takes to stop a solve: SIGINT to ``KeyboardInterrupt`` in the caller.

Solves PySol deal 417 (undecided after minutes) in the main thread with no
time limit; another thread sends SIGINT to the process after a random
0.1-0.6 s; the time from the signal to the ``KeyboardInterrupt`` reaching
the ``except`` clause is recorded.  Prints the median, the 90th percentile
and the maximum over N runs (default 20).

    python bench/interrupt.py
    python bench/interrupt.py --runs 50 --memory-mb 4096
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import statistics
import sys
import threading
import time

from bakersdozen import Deal, solve
from bakersdozen.stats import percentile


def once(deal: Deal, memory_mb: float, delay: float) -> float:
    """Milliseconds from SIGINT to KeyboardInterrupt."""
    sent: list[float] = []

    def interrupt() -> None:
        time.sleep(delay)
        sent.append(time.perf_counter())
        os.kill(os.getpid(), signal.SIGINT)

    thread = threading.Thread(target=interrupt)
    thread.start()
    try:
        solve(deal, time_limit=None, memory_mb=memory_mb)
    except KeyboardInterrupt:
        caught = time.perf_counter()
    else:  # pragma: no cover - deal 417 is not decided in under a second
        raise SystemExit("the solve ended before the signal")
    thread.join()
    return (caught - sent[0]) * 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--memory-mb", type=float, default=512.0)
    parser.add_argument("--deal", type=int, default=417)
    args = parser.parse_args()
    # SIGINT must raise here even if this was started with it ignored (nohup, a
    # script's `&`): the solve has no time limit and would never end
    signal.signal(signal.SIGINT, signal.default_int_handler)
    deal = Deal.pysol(args.deal)
    rng = random.Random(1)
    times = [once(deal, args.memory_mb, rng.uniform(0.1, 0.6)) for _ in range(args.runs)]
    print(f"deal {args.deal}, table {args.memory_mb:g} MiB, {args.runs} runs: SIGINT to "
          f"KeyboardInterrupt median {statistics.median(times):.1f} ms, "
          f"p90 {percentile(times, 90):.1f} ms, max {max(times):.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
