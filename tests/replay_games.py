"""Games of the family for the replay tests, and what the page must show.

Each game is a starting position and a winning move list checked by
:func:`bakersdozen.check`: reduced deals won by the exhaustive search of
``brute.py`` (the engine plays only some knobs), a full Good Measure deal
won by the engine, and a hand-made Baker's Dozen line with foundation
return.  :func:`expected_steps` says, after each move, which cards the
page's foundation piles hold and which cards the move carried, from
check()'s positions and the reference's foundation rule (``reference.py``),
not from the replay module.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache

from bakersdozen import FOUNDATION, Deal, Move, check, solve
from bakersdozen.rules import BAKERS_DOZEN, PRESETS
from brute import family_line
from reference import family_deal, foundation_pile, pack

SEQUENCE_RULES = BAKERS_DOZEN.replace(moves="sequence", empty_column="kings_only")
RULES = {**PRESETS, SEQUENCE_RULES.name: SEQUENCE_RULES}

# (game, seed of a shuffled 5-rank pack) whose deal is won; castles_in_spain
# seed 1's line moves sequences of more than one card and fills an empty
# column, spanish_patience seed 0's puts cards on piles begun by another
# suit, the sequence variation's moves sequences of any length.
SEEDS = {
    "bakers_dozen": 0, "good_measure": 1, "spanish_patience": 0,
    "spanish_patience_ii": 1, "portuguese_solitaire": 2, "castles_in_spain": 1,
    SEQUENCE_RULES.name: 0,
}

RETURN_RULES = BAKERS_DOZEN.replace(foundation_return=True)
# Clubs home up to 2C; 2C comes back onto 3D ("2C F>1") and goes home again later.
RETURN_BOARD = "Foundations: C-2\n3C 3D\n3H AD\n3S 2D AH\n2H 2S AS\n"
RETURN_MOVES = (
    "2C F>1", "AD 2>F", "AH 3>F", "2D 3>F", "2C 1>F", "3D 1>F", "3C 1>F",
    "AS 4>F", "2S 4>F", "2H 4>F", "3H 2>F", "3S 3>F",
)


@dataclass(frozen=True)
class Game:
    deal: Deal
    moves: tuple[Move, ...]


@lru_cache(maxsize=None)
def reduced(name: str) -> Game:
    """The won 5-rank deal of game *name* (:data:`SEEDS`)."""
    cards = pack(5)
    random.Random(SEEDS[name]).shuffle(cards)
    deal = family_deal(cards, 5, RULES[name])
    line = family_line(deal)
    assert line is not None
    assert check(deal, line).won
    return Game(deal, tuple(line))


@lru_cache(maxsize=None)
def good_measure() -> Game:
    """PySol's Good Measure deal 2: ten columns of five, two Aces home, won by the engine."""
    deal = Deal.pysol(2, "good_measure")
    moves = solve(deal).moves
    assert check(deal, moves).won
    return Game(deal, moves)


@lru_cache(maxsize=None)
def foundation_return() -> Game:
    deal = Deal.from_text(RETURN_BOARD, ranks=3, rules=RETURN_RULES)
    moves = tuple(Move.from_text(text) for text in RETURN_MOVES)
    assert check(deal, moves).won
    return Game(deal, moves)


@dataclass(frozen=True)
class Step:
    columns: list[list[str]]
    piles: list[list[str]]
    carried: list[str]
    pile: int | None  # the pile the move's card went to or came from


def expected_steps(deal: Deal, moves: tuple[Move, ...], start_piles: list[list[str]]) -> list[Step]:
    """What the page must show after 0, 1, ... len(moves) moves.

    *start_piles* are the cards of each pile at the start (bottom first);
    the heights are checked against *deal*.
    """
    assert [len(p) for p in start_piles] == list(deal.foundations)
    piles = [list(p) for p in start_piles]
    position = deal
    steps = [Step([[str(c) for c in col] for col in deal.columns], [list(p) for p in piles], [], None)]
    for move in moves:
        after = check(position, [move]).position
        pile: int | None = None
        if move.source == FOUNDATION:
            pile = move.card.suit  # foundation return is by suit only
            assert piles[pile].pop() == str(move.card)
            carried = [str(move.card)]
        elif move.target == FOUNDATION:
            pile = foundation_pile(position.foundations, move.card, deal.rules)
            assert pile is not None
            piles[pile].append(str(move.card))
            carried = [str(move.card)]
        else:
            source = position.columns[move.source - 1]
            carried = [str(c) for c in source[source.index(move.card):]]
            assert [str(c) for c in after.columns[move.target - 1][-len(carried):]] == carried
        assert [len(p) for p in piles] == list(after.foundations)
        steps.append(Step([[str(c) for c in col] for col in after.columns],
                          [list(p) for p in piles], carried, pile))
        position = after
    return steps
