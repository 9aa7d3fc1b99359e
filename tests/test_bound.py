"""The lower bound of the shortest-line search, witnessed from outside.

The bound (docs/engine.md, "The lower bound") is the cards not home plus a
greedy packing of disjoint cycles of the blocking graph.  On reduced packs,
at every reachable position (or a random sample of them), it never exceeds
the fewest moves to a win that an exhaustive backward breadth-first search
(``tests/brute.py``) finds (it is admissible), and it is never below the
previous bound (cards not home plus stuck cards).  Hand-made positions with
one two-card and one three-card cycle raise it by exactly one.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from bakersdozen import Card, Deal, Suit, check, solve
from bakersdozen import _shortest
from bakersdozen.solver import _engine_args

from brute import shortest_win_length, win_distances
from test_solver import reduced_deal

C, D, H, S = Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES


def _engine(columns: tuple[tuple[tuple[int, int], ...], ...], found: tuple[int, ...],
            ranks: int) -> tuple[list[list[int]], list[int], int]:
    """Engine arguments of a breadth-first position (``(rank, suit)`` columns)."""
    return [[4 * (r - 1) + s for r, s in col] for col in columns], list(found), ranks


@settings(max_examples=80, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    ranks=st.integers(3, 4),
    ncols=st.integers(2, 7),
    home=st.integers(0, 2),
)
def test_bound_is_admissible_and_no_weaker_everywhere(
    seed: int, ranks: int, ncols: int, home: int
) -> None:
    rng = random.Random(seed)
    deal = reduced_deal(rng, ranks, ncols, home)
    dist = win_distances(deal)
    positions = sorted(dist, key=repr)
    if len(positions) > 400:
        positions = rng.sample(positions, 400)
    for columns, found in positions:
        args = _engine(columns, found, ranks)
        bound = _shortest.root_bound(*args)
        left, stuck, cycles = _shortest.bound_parts(*args)
        assert bound == left + cycles
        assert left + stuck <= bound <= dist[(columns, found)], (columns, found)
    start = _engine_args(deal)[:3]
    expected = shortest_win_length(deal)
    assert _shortest.root_bound(*start) <= (expected if expected is not None else 10**9)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), ranks=st.integers(3, 4), ncols=st.integers(3, 7),
       steps=st.integers(1, 30))
def test_shortest_from_random_positions_matches_breadth_first_search(
    seed: int, ranks: int, ncols: int, steps: int
) -> None:
    # positions reached by random legal moves from a reduced deal
    rng = random.Random(seed)
    deal = reduced_deal(rng, ranks, ncols)
    from bakersdozen.solver import legal_moves

    for _ in range(steps):
        moves = legal_moves(deal)
        if not moves:
            break
        deal = check(deal, (rng.choice(moves),)).position
    expected = shortest_win_length(deal)
    bound = _shortest.root_bound(*_engine_args(deal)[:3])
    assert bound <= (expected if expected is not None else 10**9)
    if expected is None:
        return
    solution = solve(deal, time_limit=None, method="shortest", memory_mb=4)
    assert solution.solved and check(deal, solution.moves).won
    assert len(solution.moves) == expected and solution.optimal


def _deal(columns: list[list[tuple[int, Suit]]], found: tuple[int, int, int, int],
          ranks: int) -> Deal:
    cards = tuple(tuple(Card(r, s) for r, s in col) for col in columns)
    return Deal(cards, found, ranks)  # type: ignore[arg-type]


def test_a_two_card_cycle_adds_one() -> None:
    # 5S lies on 2H and 4H on 3S: neither is stuck (no lower card of its own
    # suit beneath it), but one of them must move onto a column: 5S cannot go
    # home before 3S, which 4H covers, and 4H not before 2H, which 5S covers.
    deal = _deal([[(2, H), (5, S)], [(3, S), (4, H)], [(3, H)], [(5, H)], [(4, S)],
                  [(6, H)], [(6, S)]], (6, 6, 1, 2), 6)
    args = _engine_args(deal)[:3]
    assert _shortest.bound_parts(*args) == (9, 0, 1)
    assert _shortest.root_bound(*args) == 10 == shortest_win_length(deal)
    solution = solve(deal, method="shortest", time_limit=None)
    assert solution.optimal and len(solution.moves) == solution.lower_bound == 10


def test_a_three_card_cycle_adds_one() -> None:
    # 5S on 2H -> 4H on 3D -> 4D on 3S -> 5S: no two-card cycle, one of three
    deal = _deal([[(2, H), (5, S)], [(3, D), (4, H)], [(3, S), (4, D)], [(3, H)], [(5, H)],
                  [(4, S)], [(5, D)], [(6, H)], [(6, S)], [(6, D)]], (6, 2, 1, 2), 6)
    args = _engine_args(deal)[:3]
    assert _shortest.bound_parts(*args) == (13, 0, 1)
    expected = shortest_win_length(deal)
    assert expected is not None and _shortest.root_bound(*args) == 14 <= expected
    try:
        _shortest._set_max_cycle(2)
        assert _shortest.bound_parts(*args) == (13, 0, 0)
    finally:
        _shortest._set_max_cycle(4)


def test_stuck_cards_are_self_loops() -> None:
    # 3S on 2S is stuck: the old and the new bound both count it
    deal = _deal([[(2, S), (3, S)], [(2, H)], [(3, H)], [(4, S)], [(4, H)]], (4, 4, 1, 1), 4)
    args = _engine_args(deal)[:3]
    assert _shortest.bound_parts(*args) == (6, 1, 1)
    assert _shortest.root_bound(*args) == 7 == shortest_win_length(deal)


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), ranks=st.integers(3, 8), ncols=st.integers(2, 9),
       home=st.integers(0, 2))
def test_child_bounds_from_the_parent_graph_are_the_fresh_bounds(
    seed: int, ranks: int, ncols: int, home: int
) -> None:
    # IDA* computes a child's bound by patching its parent's graph (the moved
    # card's edges only); after every legal move it must equal the bound
    # computed from scratch in the position reached.
    rng = random.Random(seed)
    deal = reduced_deal(rng, ranks, ncols, home)
    from bakersdozen.solver import legal_moves

    for _ in range(20):
        pairs = _shortest._child_bounds(*_engine_args(deal)[:3])
        assert all(patched == fresh for patched, fresh in pairs), pairs
        moves = legal_moves(deal)
        if not moves:
            break
        deal = check(deal, (rng.choice(moves),)).position
