"""Costs and figures of docs/difficulty.md: rate() seconds per deal, the player's win rate.

    python bench/difficulty.py rate   --game G A-B      # median, p90 seconds of rate()
    python bench/difficulty.py player --game G A-B [--rollouts R] [--playout-moves M] [--seed S]
    python bench/difficulty.py player --game G A-B --greedy [--lookahead L] [--seed S]

Run sequentially on a quiet machine; the figures go into docs/difficulty.md
by hand.  Not a test: timings vary with the machine and its load.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

from bakersdozen import Deal, check
from bakersdozen.difficulty import DEFAULT_LOOKAHEAD, play_greedy, play_rollouts, rate
from bakersdozen.stats import percentile, wilson_interval
from bakersdozen.survey.tasks import DealRange


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("what", choices=("rate", "player"))
    parser.add_argument("deals")
    parser.add_argument("--game", default="bakers_dozen")
    parser.add_argument("--lookahead", type=int, default=DEFAULT_LOOKAHEAD)
    parser.add_argument("--greedy", action="store_true", help="the greedy player, not Monte Carlo")
    parser.add_argument("--rollouts", type=int, default=None,
                        help="playouts per move (default: the game's PLAYER_ROLLOUTS)")
    parser.add_argument("--playout-moves", type=int, default=None,
                        help="moves per playout (default: the game's PLAYER_PLAYOUT_MOVES)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    deals = list(DealRange(args.deals))
    if args.what == "rate":
        seconds, verdicts, unknown_moves, scores = [], {}, 0, []
        for n in deals:
            start = time.perf_counter()
            rating = rate(Deal.pysol(n, game=args.game))
            seconds.append(time.perf_counter() - start)
            verdicts[rating.verdict.name] = verdicts.get(rating.verdict.name, 0) + 1
            unknown_moves += rating.unknown
            if rating.score is not None:
                scores.append(rating.score)
        print(f"{args.game} {args.deals}: {verdicts}; rate() seconds per deal: median "
              f"{statistics.median(seconds):.2f}, p90 {percentile(seconds, 90):.2f}, "
              f"max {max(seconds):.2f}, total {sum(seconds):.0f}; unknown moves {unknown_moves}; "
              f"scores: median {statistics.median(scores):.2f}, max {max(scores):.2f}")
    else:
        won = 0
        start = time.perf_counter()
        for n in deals:
            deal = Deal.pysol(n, game=args.game)
            if args.greedy:
                result = play_greedy(deal, seed=args.seed, lookahead=args.lookahead)
            else:
                result = play_rollouts(deal, seed=args.seed, rollouts=args.rollouts,
                                       playout_moves=args.playout_moves)
            assert result.won == check(deal, result.moves).won
            won += result.won
        low, high = wilson_interval(won, len(deals))
        print(f"{args.game} {args.deals} {result.policy}: won {won}/{len(deals)} "
              f"= {100 * won / len(deals):.1f} % (95 % Wilson {100 * low:.1f}-{100 * high:.1f} %), "
              f"{time.perf_counter() - start:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
