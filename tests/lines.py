"""Positions along winning lines, and lost games found with review(): the hint tests' inputs."""

from __future__ import annotations

import random

from bakersdozen import Deal, Move, Verdict, check, legal_moves, solve
from bakersdozen.analysis import review

MEMORY_MB = 64


def along_lines(numbers: list[int], per_deal: int, rng: random.Random) -> list[Deal]:
    """*per_deal* positions from the winning line of each PySol deal, at random points.

    Every line is found by solve() and replayed by check() first.
    """
    positions = []
    for number in numbers:
        deal = Deal.pysol(number)
        line = solve(deal, memory_mb=MEMORY_MB).moves
        assert check(deal, line).won
        for k in sorted(rng.sample(range(len(line)), per_deal)):
            positions.append(check(deal, line[:k]).position)
    return positions


def play_randomly(deal: Deal, played: list[Move], count: int, rng: random.Random) -> None:
    """Append up to *count* random legal moves to *played* (a legal game from *deal*).

    Fewer where the position runs out of moves; every move is replayed by check().
    """
    position = check(deal, played).position
    for _ in range(count):
        options = legal_moves(position)
        if not options:
            break
        move = rng.choice(options)
        played.append(move)
        position = check(position, [move]).position


def lost_game(number: int, rng: random.Random, tries: int = 20) -> tuple[Deal, list[Move], int]:
    """PySol deal *number*, a game that loses it, and the index of the move that lost it.

    The game follows the deal's winning line to a random point, then plays
    random legal moves; :func:`review` finds the move after which it could
    no longer be won (a proof: the position after it is unsolvable, the one
    before it winnable).
    """
    deal = Deal.pysol(number)
    line = solve(deal, memory_mb=MEMORY_MB).moves
    for _ in range(tries):
        played = list(line[: rng.randrange(len(line) // 2)])
        play_randomly(deal, played, 40, rng)
        result = review(deal, played, memory_mb=MEMORY_MB)
        if result.losing_move is not None:
            assert result.verdict is Verdict.UNSOLVABLE
            return deal, played, result.losing_move
    raise AssertionError(f"random play never lost deal {number}")
