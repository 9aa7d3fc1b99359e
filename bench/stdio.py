"""Hints through one ``serve --stdio`` process against one ``bakersdozen hint`` process each.

Takes positions along the winning lines of PySol deals (default 200 of
them at random points of the lines of deals 1-100), asks one server process for a
hint on each (one request, then wait for its answer: the time a
request-and-answer takes, the client's wall clock), and for a sample of
them (default every 10th) also runs ``bakersdozen hint - --json`` as a
process of its own, interleaved with the served requests and alternating
which of the two goes first, so that a busy machine slows both alike.
Prints the median and the 99th percentile of each and their ratios.

Then it checks what it timed: every served hint is ``winnable``, its move
replayed by ``check()`` leaves a position an independent solve (another
move order) wins; the processes' verdicts equal the server's; and on a
position after a losing move of a random game from each deal (found by
``review()``) the server's hint says ``lost``.

    python bench/stdio.py                       # deals 1-100, 200 positions
    python bench/stdio.py --deals 1-20 --every 5
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import time

from bakersdozen import Deal, Verdict, check, legal_moves, solve
from bakersdozen.analysis import review
from bakersdozen.records import move_from_json

MEMORY_MB = 64
#: Seconds of a timed hint: ``bakersdozen hint``'s default, for both ways.
TIME_LIMIT = 10.0
#: Seconds of a hint on a lost position: the proof may take longer than the
#: review's, whose solve proved it under the default limit (the portfolio
#: hands over to its proof phase by the clock, so a busy machine can delay it).
LOST_TIME_LIMIT = 60.0


def positions_along_lines(first: int, last: int, count: int, rng: random.Random) -> list[Deal]:
    """*count* positions at random points of the winning lines of deals *first*..*last*.

    Spread over the winnable deals as evenly as it goes (two a deal for 200
    positions over 100 deals, one of which has no winning line: the first
    deals give one more).
    """
    lines = []
    for number in range(first, last + 1):
        deal = Deal.pysol(number)
        line = solve(deal, memory_mb=MEMORY_MB).moves
        if line and check(deal, line).won:  # an unsolvable deal has no line to walk
            lines.append((deal, line))
    positions = []
    for index, (deal, line) in enumerate(lines):
        share = count // len(lines) + (index < count % len(lines))
        for k in sorted(rng.sample(range(len(line)), min(share, len(line)))):
            positions.append(check(deal, line[:k]).position)
    return positions


def lost_position(number: int, rng: random.Random) -> Deal | None:
    """The position after the move that lost a random game of deal *number* (review())."""
    deal = Deal.pysol(number)
    line = solve(deal, memory_mb=MEMORY_MB).moves
    if not line:
        return None
    for _ in range(20):
        played = list(line[: rng.randrange(len(line) // 2)])
        position = check(deal, played).position
        for _ in range(40):
            options = legal_moves(position)
            if not options:
                break
            played.append(rng.choice(options))
            position = check(position, [played[-1]]).position
        result = review(deal, played, memory_mb=MEMORY_MB)
        if result.losing_move is not None:
            return check(deal, played[: result.losing_move + 1]).position
    return None


class Server:
    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "bakersdozen", "serve", "--stdio", "--memory-mb", str(MEMORY_MB),
             "--time-limit", str(LOST_TIME_LIMIT)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, start_new_session=True,
        )

    def ask(self, request: dict[str, object]) -> dict[str, object]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps(request).encode() + b"\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            raise SystemExit("the server ended before answering")
        return json.loads(line)

    def close(self) -> int:
        assert self.process.stdin is not None
        self.process.stdin.close()
        try:
            return self.process.wait(timeout=60)
        finally:
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


def one_process(position: Deal) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-m", "bakersdozen", "hint", "-", "--json", "--memory-mb", str(MEMORY_MB)],
        input=position.to_text().encode(), capture_output=True, check=False, timeout=120,
    )
    if done.returncode not in (0, 1, 3):
        raise SystemExit(f"bakersdozen hint failed: {done.returncode} {done.stderr.decode()}")
    return json.loads(done.stdout)


def summary(name: str, seconds: list[float]) -> tuple[float, float]:
    ms = sorted(s * 1000 for s in seconds)
    median = statistics.median(ms)
    p99 = statistics.quantiles(ms, n=100, method="inclusive")[98] if len(ms) > 1 else ms[0]
    print(f"{name:36s} {len(ms):4d} requests   median {median:8.1f} ms   p99 {p99:8.1f} ms")
    return median, p99


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", default="1-100", help="PySol deals FIRST-LAST (default 1-100)")
    parser.add_argument("--positions", type=int, default=200,
                        help="positions along the lines, spread over the deals (default 200)")
    parser.add_argument("--every", type=int, default=10,
                        help="one process per position for every N-th position (default 10)")
    parser.add_argument("--seed", type=int, default=2026, help="random seed (default 2026)")
    args = parser.parse_args()
    first, _, last = args.deals.partition("-")
    first_deal, last_deal = int(first), int(last or first)
    rng = random.Random(args.seed)

    positions = positions_along_lines(first_deal, last_deal, args.positions, rng)
    print(f"{len(positions)} positions along the winning lines of deals {first_deal}-{last_deal}")
    one_process(positions[0])  # warm the disk cache for both
    server = Server()
    served: list[dict[str, object]] = []
    served_seconds: list[float] = []
    alone: dict[int, dict[str, object]] = {}
    alone_seconds: list[float] = []
    paired: list[tuple[float, float]] = []
    try:
        server.ask({"op": "legal_moves", "deal": 1})  # the server's own start-up is paid once
        for index, position in enumerate(positions):
            sampled = index % args.every == 0
            process_first = sampled and (index // args.every) % 2 == 1
            if process_first:
                start = time.perf_counter()
                alone[index] = one_process(position)
                alone_seconds.append(time.perf_counter() - start)
            start = time.perf_counter()
            served.append(server.ask({"id": index, "op": "hint", "position": position.to_text(),
                                      "time_limit": TIME_LIMIT}))
            served_seconds.append(time.perf_counter() - start)
            if sampled and not process_first:
                start = time.perf_counter()
                alone[index] = one_process(position)
                alone_seconds.append(time.perf_counter() - start)
            if sampled:
                paired.append((served_seconds[-1], alone_seconds[-1]))
        print()
        m_served, p_served = summary("one serve --stdio process", served_seconds)
        m_alone, p_alone = summary("one hint process per position", alone_seconds)
        m_pair = statistics.median(s * 1000 for s, _ in paired)
        print(f"{'  (served, the same positions)':36s} {len(paired):4d} requests   median "
              f"{m_pair:8.1f} ms")
        print(f"ratio of medians (process / served): {m_alone / m_served:.1f}x over all, "
              f"{m_alone / m_pair:.1f}x on the sampled positions; "
              f"of the p99s: {p_alone / p_served:.1f}x")
        print(f"per request saved (medians): {m_alone - m_served:.1f} ms")

        # What was timed, checked.
        for index, (position, answer) in enumerate(zip(positions, served)):
            assert answer["id"] == index and answer["verdict"] == "winnable", answer
            after = check(position, [move_from_json(answer["move"])]).position
            again = solve(after, memory_mb=MEMORY_MB, seed=777)
            assert again.verdict is Verdict.SOLVED and check(after, again.moves).won, index
            if index in alone:
                assert alone[index]["verdict"] == answer["verdict"], (index, alone[index])
        print(f"\nchecked: {len(served)} served hints, each move replayed by check() leaves a "
              f"position a solve wins; {len(alone)} process hints agree")
        verdicts: dict[str, list[int]] = {}
        for number in range(first_deal, last_deal + 1):
            position = lost_position(number, rng)
            if position is None:
                continue
            answer = server.ask({"id": f"lost-{number}", "op": "hint",
                                 "position": position.to_text(), "time_limit": LOST_TIME_LIMIT})
            # review() proved the position lost: a hint may say lost, or unknown
            # when a limit stops it first, never that it can be won
            assert answer["verdict"] in ("lost", "unknown") and answer["move"] is None, answer
            verdicts.setdefault(str(answer["verdict"]), []).append(number)
        found = sum(map(len, verdicts.values()))
        print(f"checked: {found} positions after a losing move (review()): "
              f"{len(verdicts.get('lost', []))} hints 'lost', "
              f"{len(verdicts.get('unknown', []))} 'unknown' (the time limit, "
              f"{LOST_TIME_LIMIT:g} s: deals {verdicts.get('unknown', [])}), none 'winnable'")
    finally:
        status = server.close()
    print(f"server exit status at the end of input: {status}")
    return 0 if status == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
