"""The play server's answer times: from a move to its status, and of a hint.

Starts ``bakersdozen play`` as a process on a free port and plays, as the
page does (a ``position`` request, then ``status`` requests until the
answer is not ``checking``), the engine's winning line of each PySol deal
in the range given, then one losing move in each deal (the first legal
move, along the line, after which ``solve`` proves the position lost; a
deal without one within its first 40 positions is skipped for that part).
At every position it also times a ``hint``.  It prints the median, p90,
p99 and max of each, in milliseconds, and how many of each took longer
than the server's ``wait`` (a request that got ``checking`` and asked
again).

A second client keeps a long check running the whole time (positions two
moves into deal 417, one after another, each with the server's 60 s
limit), so one of the two engine threads is always busy and the figures
show whether a request is ever blocked behind it.

Usage (from the checkout's root, the package installed)::

    python bench/play.py [--deals 1-100] [--losing-scan 40]
"""

from __future__ import annotations

import argparse
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from play_server import play_server, post  # noqa: E402

from bakersdozen import Deal, Verdict, check, legal_moves, solve  # noqa: E402
from bakersdozen.stats import percentile  # noqa: E402


def timed(url: str, name: str, payload: dict[str, object]) -> tuple[float, dict[str, object], int]:
    """Seconds until a final answer, the answer, and how many times it said checking."""
    began = time.perf_counter()
    polls = 0
    while True:
        status, answer = post(url, name, payload)
        if status != 202:
            return time.perf_counter() - began, answer, polls
        polls += 1
        time.sleep(0.01)


def losing_move(deal: Deal, line: tuple[object, ...], scan: int) -> tuple[int, str] | None:
    """(k, move): after line[:k], *move* loses (solve proves it); None if none is found."""
    position = deal
    for k, move in enumerate(line[:scan]):
        for other in legal_moves(position):
            if other == move:
                continue
            if solve(check(position, [other]).position, time_limit=2.0).verdict is Verdict.UNSOLVABLE:
                return k, str(other)
        position = check(position, [move]).position
    return None


def summary(name: str, seconds: list[float], polled: int) -> str:
    ms = sorted(1000 * s for s in seconds)
    return (f"{name:<18} n={len(ms):>5}  median {percentile(ms, 50):7.2f} ms  p90 "
            f"{percentile(ms, 90):7.2f}  p99 {percentile(ms, 99):7.2f}  max {ms[-1]:7.2f}  "
            f"re-asked {polled}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", default="1-100", help="a range of PySol deals, A-B")
    parser.add_argument("--losing-scan", type=int, default=40,
                        help="positions of each line searched for a losing move")
    args = parser.parse_args()
    low, high = (int(x) for x in args.deals.split("-"))

    statuses: list[float] = []
    hints: list[float] = []
    lost: list[float] = []
    polled = {"status": 0, "hint": 0, "lost": 0}
    with play_server("--deal", "1", "--time-limit", "60") as (url, _):
        stop = threading.Event()

        hard = Deal.pysol(417)
        openings = [[str(a), str(b)] for a in legal_moves(hard)
                    for b in legal_moves(check(hard, [a]).position)]

        def long_check() -> None:  # another client's checks, each running for a long time
            for opening in openings:  # a new position each time (a known one is cached)
                while not stop.is_set():
                    try:
                        status, _ = post(url, "status", {"deal": 417, "moves": opening,
                                                         "client": "busy"})
                    except OSError:  # the server is gone: the benchmark is over
                        return
                    if status != 202:
                        break
                    time.sleep(0.5)

        busy = threading.Thread(target=long_check, daemon=True)
        busy.start()
        try:
            for number in range(low, high + 1):
                deal = Deal.pysol(number)
                line = solve(deal).moves
                if not line:
                    continue
                played: list[str] = []
                for k, move in enumerate(line):
                    played.append(str(move))
                    request = {"deal": number, "moves": played, "client": "bench"}
                    began = time.perf_counter()
                    post(url, "position", request)
                    seconds, answer, polls = timed(url, "status", request)
                    statuses.append(time.perf_counter() - began)
                    polled["status"] += polls
                    expected = "won" if k == len(line) - 1 else "winnable"
                    assert answer["status"] == expected, (number, k, answer)
                    if k < len(line) - 1:
                        seconds, answer, polls = timed(url, "hint", request)
                        hints.append(seconds)
                        polled["hint"] += polls
                        assert answer["verdict"] == "solved", (number, k, answer)
                if number % 10 == 0:
                    print(f"deal {number}: {len(statuses)} statuses so far", file=sys.stderr,
                          flush=True)
                found = losing_move(deal, line, args.losing_scan)
                if found is not None:
                    k, bad = found
                    request = {"deal": number, "moves": [str(m) for m in line[:k]] + [bad],
                               "client": "bench"}
                    began = time.perf_counter()
                    post(url, "position", request)
                    seconds, answer, polls = timed(url, "status", request)
                    lost.append(time.perf_counter() - began)
                    polled["lost"] += polls
                    assert answer["status"] == "lost" and answer["lost_at"] == k + 1, (number, answer)
        finally:
            stop.set()
    print(f"PySol deals {low}-{high}, long checks (deal 417) running all the while")
    print(summary("move -> status", statuses, polled["status"]))
    print(summary("hint", hints, polled["hint"]))
    print(summary("losing move -> lost", lost, polled["lost"]))


if __name__ == "__main__":
    main()
