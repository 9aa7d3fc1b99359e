"""The deadlock test: sets of cards that can never move (docs/engine.md, "Deadlocks").

The engine's ``Position.deadlock()`` is compared with a pure-Python
computation written from the definition, and every position it calls lost
is checked against the exhaustive search of ``tests/brute.py`` on reduced
packs.  Walks of random legal moves (``tests/reference.py``, independent of
the engine) give positions beyond the deals.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bakersdozen import Card, Deal, ParseError, Record, Verdict, deadlock, solve
from bakersdozen._position import Position
from bakersdozen.rules import PRESETS
from bakersdozen.cli import main
from bakersdozen.solver import _engine_args

from brute import brute_force_solvable
from reference import random_play
from test_layers import reduced_portuguese
from test_solver import reduced_deal


def reference_deadlock(deal: Deal, kings: bool = False) -> set[Card]:
    """The greatest set F of tableau cards in which every card y has a lower
    card of its suit beneath some card of F, and every card one rank above y
    still in the tableau lies beneath some card of F (the definition); with
    *kings* (empty columns take Kings only), no King in F."""
    tableau = {card for column in deal.columns for card in column}
    dead = {card for card in tableau if not (kings and card.rank == deal.ranks)}
    while True:
        covered = {
            card
            for column in deal.columns
            for height, upper in enumerate(column)
            if upper in dead
            for card in column[:height]
        }
        kept = {
            y
            for y in dead
            if any(x.suit == y.suit and x.rank < y.rank for x in covered)
            and all(z in covered for z in tableau if z.rank == y.rank + 1)
        }
        if kept == dead:
            return dead
        dead = kept


def one_card_block(deal: Deal) -> bool:
    """The older, one-card test: a card above a lower card of its suit whose
    every support is home or beneath it in its own column."""
    tableau = {card for column in deal.columns for card in column}
    for column in deal.columns:
        for height, y in enumerate(column):
            below = column[:height]
            if any(x.suit == y.suit and x.rank < y.rank for x in below) and all(
                z in below for z in tableau if z.rank == y.rank + 1
            ):
                return True
    return False


def reduced(portuguese: bool) -> Callable[[random.Random, int, int], Deal]:
    """The random reduced packs of Baker's Dozen, or of Portuguese Solitaire."""
    return reduced_portuguese if portuguese else reduced_deal


def engine_position(deal: Deal) -> Position:
    return Position(*_engine_args(deal))


def engine_deadlock(deal: Deal) -> set[Card]:
    return {Card.from_index(i) for i in engine_position(deal).deadlock()}


@settings(max_examples=300, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    ranks=st.integers(3, 12),
    ncols=st.integers(2, 13),
    steps=st.integers(0, 40),
    portuguese=st.booleans(),
)
def test_engine_finds_the_defined_set(seed: int, ranks: int, ncols: int, steps: int,
                                      portuguese: bool) -> None:
    # Portuguese Solitaire: empty columns take Kings only, and the set holds no King
    rng = random.Random(seed)
    deal = random_play(reduced(portuguese)(rng, ranks, ncols), rng, steps)
    assert engine_deadlock(deal) == reference_deadlock(deal, kings=portuguese)


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), number=st.integers(1, 1_000_000), steps=st.integers(0, 60))
def test_engine_finds_the_defined_set_on_pysol_deals(seed: int, number: int, steps: int) -> None:
    deal = random_play(Deal.pysol(number), random.Random(seed), steps)
    assert engine_deadlock(deal) == reference_deadlock(deal)


@settings(max_examples=300, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    ranks=st.integers(3, 5),
    ncols=st.integers(2, 7),
    steps=st.integers(0, 12),
    portuguese=st.booleans(),
)
def test_a_deadlocked_position_is_lost(seed: int, ranks: int, ncols: int, steps: int,
                                       portuguese: bool) -> None:
    rng = random.Random(seed)
    deal = random_play(reduced(portuguese)(rng, ranks, ncols), rng, steps)
    if engine_deadlock(deal):
        assert not brute_force_solvable(deal)


def test_sample_has_deadlocks_the_one_card_test_misses() -> None:
    """The test above means something only if deadlocks occur in its kind of
    sample, among them sets of several cards that no single card explains;
    each is lost by brute force, and the search says so without a move."""
    rng = random.Random(2026)
    found = several = 0
    for _ in range(400):
        deal = random_play(reduced_deal(rng, rng.randint(3, 5), rng.randint(2, 7)), rng, rng.randint(0, 6))
        if not engine_deadlock(deal):
            continue
        found += 1
        assert not brute_force_solvable(deal)
        if not one_card_block(deal):
            several += 1
            solution = solve(deal, time_limit=None)
            assert solution.verdict is Verdict.UNSOLVABLE and solution.nodes == 0
    assert found >= 40 and several >= 10, (found, several)


def test_two_cards_that_wait_for_each_other() -> None:
    """3H cannot go home before 2H, which lies under 5S; 5S cannot go home
    before 2S, which lies under 3H; and every 4 and 6 (their supports) lies
    under one of the two.  Neither is blocked on its own (each has supports
    outside its column), so only the set shows the position is lost."""
    deal = Deal.from_text(
        """
        6C 6H 4C 4H 2S 3H
        6D 6S 4D 4S 2H 5S
        AC 2C 3C 5C
        AD 2D 3D 5D
        AH 5H
        AS 3S
        """,
        ranks=6,
    )
    assert not one_card_block(deal)
    dead = engine_deadlock(deal)
    assert dead == reference_deadlock(deal)
    assert {Card.from_text("3H"), Card.from_text("5S")} <= dead
    assert not brute_force_solvable(deal)
    assert solve(deal, time_limit=None).nodes == 0


def test_deal_477_is_lost_from_the_start() -> None:
    """PySol deal 477, unsolvable (Freecell Solver proved it by search), is
    a deadlock of the 5s, Queens and Kings: every 6 and every King lies
    under one of them, and each has a lower card of its suit under one."""
    deal = Deal.pysol(477)
    expected = {Card.from_text(f"{rank}{suit}") for rank in "5QK" for suit in "CDHS"}
    assert engine_deadlock(deal) == reference_deadlock(deal) == expected
    solution = solve(deal, time_limit=None)
    assert solution.verdict is Verdict.UNSOLVABLE and solution.nodes == 0


def test_portuguese_deals_lost_as_dealt() -> None:
    # the depth-first search, without the test, proved 4660 unsolvable after
    # 942,200 positions; 1172 it left unknown after a billion
    deal = Deal.pysol(4660, game="portuguese_solitaire")
    expected = {Card.from_text(f"{rank}{suit}") for rank in "4Q" for suit in "CDHS"}
    assert engine_deadlock(deal) == reference_deadlock(deal, kings=True) == expected
    assert set(deadlock(deal)) == expected
    for number in (4660, 1172):
        solution = solve(Deal.pysol(number, game="portuguese_solitaire"), time_limit=None)
        assert solution.verdict is Verdict.UNSOLVABLE and solution.nodes == 0


def test_other_rules_get_no_deadlock_test() -> None:
    """The proof needs Baker's Dozen's play: with empty columns that take a
    card (Castles in Spain) the 477 layout is not dead at once."""
    deal = Deal.pysol(477)
    assert engine_position(deal.with_rules(PRESETS["castles_in_spain"])).deadlock() == []


# -- what users see -----------------------------------------------------------

DEAL_477_DEADLOCK = "5C 5D 5H 5S QC QD QH QS KC KD KH KS"


def test_solution_and_record_name_the_cards() -> None:
    solution = solve(Deal.pysol(477), time_limit=None)
    assert " ".join(map(str, solution.deadlock)) == DEAL_477_DEADLOCK
    assert deadlock(Deal.pysol(477)) == solution.deadlock
    record = Record.from_solution(
        477, solution, time_limit=None, max_nodes=None, memory_mb=512, seed=0
    )
    data = json.loads(json.dumps(record.to_json()))
    assert data["deadlock"] == DEAL_477_DEADLOCK.split()
    assert Record.from_json(data) == record
    with pytest.raises(ParseError, match="deadlock"):
        Record.from_json({**data, "deadlock": "5C"})
    # a solvable deal, and an unsolvable one that needs a search, name none
    assert deadlock(Deal.pysol(1)) == () and solve(Deal.pysol(1)).deadlock == ()
    lost = solve(Deal.pysol(6574), time_limit=None)
    assert lost.verdict is Verdict.UNSOLVABLE and lost.nodes > 0 and lost.deadlock == ()
    assert "deadlock" not in Record.from_solution(
        6574, lost, time_limit=None, max_nodes=None, memory_mb=512, seed=0
    ).to_json()


def test_cli_solve_and_hint_name_the_cards(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["solve", "--deal", "477"]) == 1
    out = capsys.readouterr().out
    assert f"deadlock: {DEAL_477_DEADLOCK} can never move" in out
    board = tmp_path / "477.txt"
    board.write_text(Deal.pysol(477).to_text() + "\nFoundations: -\n")
    assert main(["hint", str(board)]) == 1
    assert capsys.readouterr().out.strip() == (
        f"lost: no winning line from here ({DEAL_477_DEADLOCK} can never move)"
    )


def test_other_rules_name_no_cards() -> None:
    deal = Deal.pysol(477)
    assert deadlock(deal, PRESETS["castles_in_spain"]) == ()
