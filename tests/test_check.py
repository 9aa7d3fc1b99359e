"""The independent checker, on hand-made positions and against the reference."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bakersdozen import Card, Deal, IllegalMoveError, Move, check
from bakersdozen.model import FOUNDATION
from conftest import initial_deals
from reference import reference_apply, reference_moves

# docs/rules.md worked example, in a hand-made position of the pack with ranks
# 1..8 (8 plays the King): column 1 ends in 7C with AS beneath it, column 2's
# top is 8H.
WORKED = """\
8C 3D AS 7C
8D 8H
8S 2C 3H 4D
5S 6H AH 2D
4S 7D 3C AC
5C 6C 2H 4H
7H 3S 6D AD
6S 5D 7S 2S
4C 5H
"""

# A small pack (ranks 1..2) that can be played out by hand.
TINY = """\
2C AD
2D AC
2S 2H AH AS
"""
TINY_WIN = ["AS 3>F", "AH 3>F", "2H 3>F", "2S 3>F", "AD 1>F", "AC 2>F", "2D 2>F", "2C 1>F"]


def worked() -> Deal:
    return Deal.from_text(WORKED, ranks=8)


def test_worked_example() -> None:
    result = check(worked(), ["7C 1>2", "AS 1>F"])
    assert result.position.columns[0] == (Card.from_text("8C"), Card.from_text("3D"))
    assert result.position.columns[1][-1] == Card.from_text("7C")
    assert result.position.foundations == (0, 0, 0, 1)
    assert result.moves == 2
    assert not result.won


def test_worked_example_two_cards_at_once_is_illegal() -> None:
    # "Moving 7C and AS together would be illegal": AS is not the top card.
    with pytest.raises(IllegalMoveError) as info:
        check(worked(), ["AS 1>F"])
    assert info.value.index == 0
    assert "not the top card" in str(info.value) and "'AS 1>F'" in str(info.value)


def test_win() -> None:
    deal = Deal.from_text(TINY, ranks=2)
    result = check(deal, TINY_WIN)
    assert result.won and result.position.is_won
    assert result.position == Deal(((), (), ()), (2, 2, 2, 2), 2)
    assert result.moves == 8
    assert check(deal, [Move.from_text(m) for m in TINY_WIN]).won


def test_no_moves() -> None:
    result = check(worked(), [])
    assert result.position == worked() and not result.won and result.moves == 0


@pytest.mark.parametrize(
    "moves, index, reason",
    [
        (["AS 1>F"], 0, "not the top card of column 1"),
        (["3C 5>F"], 0, "3C is under other cards"),
        (["2D 4>1"], 0, "one rank higher"),  # 2D onto 7C
        (["7C 1>3"], 0, "one rank higher"),  # 4D on column 3
        (["7C 1>F"], 0, "clubs foundation, which is empty"),
        (["AC 5>F", "2D 4>F"], 1, "diamonds foundation, which is empty"),
        (["AC 5>F", "3C 5>F"], 1, "holds up to AC"),
        (["7C 1>2", "AS 1>F", "3D 1>4"], 2, "one rank higher"),
        (["7C 1>11"], 0, "no column 11"),
        (["7C 12>2"], 0, "no column 12"),
        (["5H 9>F"], 0, "foundation"),
        (["7C 1>2", "7C 1>2"], 1, "not the top card"),
        (["7C 1>2", "AS 1>F", "3D 1>F"], 2, "diamonds"),
        (["nonsense"], 0, "not a move"),
        (["7C 1>2", 42], 1, "not a Move or a str"),
    ],
)
def test_illegal_moves(moves: list[object], index: int, reason: str) -> None:
    with pytest.raises(IllegalMoveError) as info:
        check(worked(), moves)  # type: ignore[arg-type]
    assert info.value.index == index
    assert str(info.value).startswith(f"move {index + 1} ")  # counted from 1
    assert reason in str(info.value)


def test_top_card_of_another_column_is_named() -> None:
    with pytest.raises(IllegalMoveError, match="2D is in column 4"):
        check(worked(), ["2D 1>F"])


def test_empty_source_and_empty_target_never_filled() -> None:
    deal = Deal.from_text(TINY, ranks=2)
    played = ["AS 3>F", "AH 3>F", "2H 3>F", "2S 3>F"]  # column 3 is now empty
    with pytest.raises(IllegalMoveError, match="column 3 is empty") as info:
        check(deal, played + ["AS 3>1"])
    assert info.value.index == 4
    with pytest.raises(IllegalMoveError, match="empty columns are never filled") as info:
        check(deal, played + ["AD 1>3"])
    assert info.value.index == 4
    # Not even a King (here the top rank 2) may go into an empty column.
    with pytest.raises(IllegalMoveError, match="never filled"):
        check(deal, played + ["AD 1>F", "2C 1>3"])


def test_card_already_on_foundation() -> None:
    deal = Deal.from_text(TINY, ranks=2)
    with pytest.raises(IllegalMoveError, match="already on its foundation"):
        check(deal, ["AS 3>F", "AS 3>F"])


def test_king_onto_nothing() -> None:
    # A King (top rank) can never go onto another column: nothing is higher.
    deal = Deal.from_text("Foundations: C-A D-A H-A S-A\n2C\n2D\n2H\n2S\n", ranks=2)
    with pytest.raises(IllegalMoveError, match="2C is a King.*a King never goes onto another card"):
        check(deal, ["2C 1>2"])


def test_rejects_non_deal() -> None:
    with pytest.raises(TypeError):
        check("AC", [])  # type: ignore[arg-type]


@given(initial_deals(), st.integers(0, 2**32 - 1))
def test_checker_agrees_with_reference(deal: Deal, seed: int) -> None:
    """Reference-legal moves are accepted, and every other move is refused."""
    rng = random.Random(seed)
    for _ in range(60):
        legal = reference_moves(deal)
        # A few moves that the reference says are illegal must be refused.
        for _ in range(5):
            card = rng.choice([c for col in deal.columns for c in col] or [Card(1, 0)])
            source = rng.randint(1, 13)
            target = rng.choice([t for t in range(14) if t != source])
            move = Move(card, source, target)
            if move not in legal:
                with pytest.raises(IllegalMoveError):
                    check(deal, [move])
        if not legal:
            break
        move = rng.choice(sorted(legal, key=str))
        after = check(deal, [move]).position
        assert after == reference_apply(deal, move)
        deal = after
    assert check(deal, []).won == deal.is_won


def test_foundation_constant() -> None:
    assert FOUNDATION == 0


def test_a_bare_string_is_refused() -> None:
    deal = Deal.from_text(TINY, ranks=2)
    with pytest.raises(TypeError, match=r"not a single str.*write \['AD 1>F'\]"):
        check(deal, "AD 1>F")  # type: ignore[arg-type]

