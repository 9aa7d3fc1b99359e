"""A slow reference for the rules of RULES.md, written from the text alone.

It shares no code with ``bakersdozen.check`` or the compiled engine; it uses
the package only for the value types (Card, Move, Deal).  Positions are
handled as plain lists here.
"""

from __future__ import annotations

import random

from bakersdozen import Card, Deal, Move, Suit
from bakersdozen.model import FOUNDATION


def reference_moves(deal: Deal) -> set[Move]:
    """Every legal move of RULES.md, "Play", as a set of Move.

    - only the top card of a column moves, one card at a time;
    - it may go to its suit's foundation if it is the next rank there;
    - it may go onto the top card of another *non-empty* column whose rank is
      exactly one higher, any suit;
    - nothing goes into an empty column.
    """
    moves = set()
    tops = {n: col[-1] for n, col in enumerate(deal.columns, 1) if col}
    for source, card in tops.items():
        if deal.foundations[card.suit] == card.rank - 1:
            moves.add(Move(card, source, FOUNDATION))
        for target, other in tops.items():
            if target != source and other.rank == card.rank + 1:
                moves.add(Move(card, source, target))
    return moves


def reference_apply(deal: Deal, move: Move) -> Deal:
    """Play a move known to be legal (no checks: test helper only)."""
    columns = [list(col) for col in deal.columns]
    foundations = list(deal.foundations)
    card = columns[move.source - 1].pop()
    assert card == move.card
    if move.target == FOUNDATION:
        foundations[card.suit] += 1
    else:
        columns[move.target - 1].append(card)
    return Deal(tuple(map(tuple, columns)), tuple(foundations), deal.ranks)  # type: ignore[arg-type]


def stable_deal(cards: list[Card], ranks: int = 13) -> Deal:
    """Deal a shuffled pack like RULES.md: card k to column k mod n, then the
    stable Kings rule (Kings to the bottom, order otherwise kept).

    A full pack gives 13 columns of 4; a reduced pack of ``4 * ranks`` cards
    gives ``ranks`` columns of 4.
    """
    ncols = 13 if len(cards) == 52 else len(cards) // 4
    columns = [cards[c::ncols] for c in range(ncols)]
    columns = [
        [x for x in col if x.rank == ranks] + [x for x in col if x.rank != ranks]
        for col in columns
    ]
    return Deal(tuple(map(tuple, columns)), (0, 0, 0, 0), ranks)


def pack(ranks: int = 13) -> list[Card]:
    """The cards of a pack with ranks 1..ranks, four suits."""
    return [Card(rank, suit) for rank in range(1, ranks + 1) for suit in Suit]


def random_play(deal: Deal, rng: random.Random, steps: int) -> Deal:
    """Play up to *steps* random legal moves (reference rules)."""
    for _ in range(steps):
        moves = sorted(reference_moves(deal), key=str)
        if not moves:
            break
        home = [m for m in moves if m.to_foundation]
        # Prefer foundation moves half the time so play gets somewhere.
        choice = rng.choice(home) if home and rng.random() < 0.5 else rng.choice(moves)
        deal = reference_apply(deal, choice)
    return deal
