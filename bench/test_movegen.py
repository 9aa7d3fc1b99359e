"""Move generation, make/unmake and hashing of the compiled engine.

Perft counts the move sequences of length N from a position (every legal
move, no pruning); the expected counts were computed once by the slow,
independent ``perft_reference.py`` and are stored in ``perft.json``.  Each
run checks the engine's count before its time means anything.

Nodes per second: ``benchmark.extra_info["nodes_per_second"]`` is leaf
positions counted per second of the mean round (bulk counting at the last
level, the chess convention), on one core.
"""

from __future__ import annotations

import random
from typing import Any

from pytest_benchmark.fixture import BenchmarkFixture

from bakersdozen import FOUNDATION, Deal, check, legal_moves, solve
from conftest import position


def test_perft(benchmark: BenchmarkFixture, perft_case: dict[str, Any]) -> None:
    deal = Deal.from_text(perft_case["board"])
    if perft_case["deal"] is not None:
        assert deal == Deal.pysol(perft_case["deal"])
    depth = max(perft_case["perft"], key=int)
    expected = perft_case["perft"][depth]
    pos = position(deal)
    result = benchmark.pedantic(pos.perft, args=(int(depth),), rounds=5, iterations=1)
    assert result == expected
    benchmark.extra_info["depth"] = int(depth)
    benchmark.extra_info["nodes"] = expected
    benchmark.extra_info["nodes_per_second"] = expected / benchmark.stats.stats.mean


def test_make_unmake(benchmark: BenchmarkFixture) -> None:
    """Make and take back every legal move of PySol deal 1, 20 000 times over."""
    pos = position(Deal.pysol(1))
    before = (pos.key, pos.columns, pos.foundations)
    pairs = benchmark(pos.make_unmake_loop, 20_000)
    assert pairs == 20_000 * len(pos.legal_moves())
    assert (pos.key, pos.columns, pos.foundations) == before
    benchmark.extra_info["pairs_per_second"] = pairs / benchmark.stats.stats.mean


def _line(number: int) -> list[tuple[int, int, int]]:
    """PySol deal *number*'s winning line, as engine moves."""
    solution = solve(Deal.pysol(number), time_limit=10)
    assert solution.solved
    return [
        (m.card.index, m.source - 1, -1 if m.target == FOUNDATION else m.target - 1)
        for m in solution.moves
    ]


def test_key_incremental(benchmark: BenchmarkFixture) -> None:
    """Read the incrementally kept key along a whole winning line."""
    line = _line(1)
    pos = position(Deal.pysol(1))

    def walk() -> int:
        for move in line:
            pos.make(move)
            pos.key
        for _ in line:
            pos.unmake()
        return len(line)

    assert benchmark(walk) == len(line)


def test_key_full_recomputation(benchmark: BenchmarkFixture) -> None:
    """Recompute the key from scratch along the same line, checking it equals
    the incremental one at every step (the cost of the check, too)."""
    line = _line(1)
    pos = position(Deal.pysol(1))

    def walk() -> int:
        for move in line:
            pos.make(move)
            assert pos.full_key() == pos.key
        for _ in line:
            pos.unmake()
            assert pos.full_key() == pos.key
        return len(line)

    assert benchmark(walk) == len(line)


def test_key_equality_under_column_order(benchmark: BenchmarkFixture) -> None:
    """Positions that differ only by the order of their columns share a key,
    and no two positions met along random play with different columns do;
    then time the comparison of two keys."""
    rng = random.Random(5)
    deal = Deal.pysol(24)
    seen: dict[tuple[int, int], list[tuple[int, ...]]] = {}
    for _ in range(60):
        key = position(deal).key
        shuffled = Deal(tuple(rng.sample(deal.columns, len(deal.columns))),
                        deal.foundations, deal.ranks)
        assert position(shuffled).key == key
        canonical = sorted(tuple(c.index for c in col) for col in deal.columns)
        assert seen.setdefault(key, canonical) == canonical
        moves = legal_moves(deal)
        if not moves:
            break
        deal = check(deal, [rng.choice(moves)]).position

    pos = position(Deal.pysol(24))
    other = position(Deal.pysol(24))
    assert benchmark(lambda: pos.key == other.key)
