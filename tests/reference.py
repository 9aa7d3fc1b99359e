"""A slow reference for the rules of docs/rules.md and docs/rules.md, from the text alone.

It shares no code with ``bakersdozen.check`` or the compiled engine; it uses
the package only for the value types (Card, Move, Deal, Rules and its knob
enums).  Positions are handled as plain lists here.  Every knob of the
family is played (docs/rules.md, "The family"); with no rules given, a
deal's own rules are used.
"""

from __future__ import annotations

import random

from bakersdozen import Card, Deal, Move, Suit
from bakersdozen.model import FOUNDATION
from bakersdozen.rules import (
    BAKERS_DOZEN, Build, EmptyColumn, FoundationBuild, KingsRule, MoveUnit, Rules,
)

RED = (Suit.DIAMONDS, Suit.HEARTS)


def _goes_on(upper: Card, lower: Card, build: Build) -> bool:
    """docs/rules.md: a card goes on a card one rank higher, and the build rule."""
    if upper.rank != lower.rank - 1:
        return False
    if build is Build.SAME_SUIT:
        return upper.suit == lower.suit
    if build is Build.OTHER_SUIT:
        return upper.suit != lower.suit
    if build is Build.ALTERNATE_COLOURS:
        return (upper.suit in RED) != (lower.suit in RED)
    return True


def foundation_pile(foundations: tuple[int, ...], card: Card, rules: Rules) -> int | None:
    """The pile a card goes to: the first (lowest suit index) that takes it."""
    for pile in range(4):
        height = foundations[pile]
        if height != card.rank - 1:
            continue
        if height == 0:
            if card.suit == pile:  # pile i is begun by the Ace of suit i
                return pile
            continue
        if rules.foundation_build is FoundationBuild.BY_SUIT:
            ok = card.suit == pile
        elif rules.foundation_build is FoundationBuild.ALTERNATE_COLOURS:
            # The pile's cards alternate colours from its Ace: the next card
            # (rank height + 1) has the Ace's colour when height + 1 is odd.
            ace_red = Suit(pile) in RED
            want_red = ace_red if (height + 1) % 2 == 1 else not ace_red
            ok = (card.suit in RED) == want_red
        else:
            ok = True
        if ok:
            return pile
    return None


def family_moves(deal: Deal, rules: Rules | None = None) -> set[Move]:
    """Every legal move of the family's rules (docs/rules.md), as a set of Move."""
    rules = rules or deal.rules
    cols = deal.columns
    top_rank = deal.ranks
    moves: set[Move] = set()

    def may_take(target: int, unit: tuple[Card, ...]) -> bool:
        column = cols[target - 1]
        if column:
            return _goes_on(unit[0], column[-1], rules.build)
        if rules.empty_column is EmptyColumn.ANY_CARD:
            return True
        if rules.empty_column is EmptyColumn.KINGS_ONLY:
            return unit[0].rank == top_rank
        return False

    for source, col in enumerate(cols, 1):
        if not col:
            continue
        # The units that may leave: the top card, and where sequences move,
        # each longer built run ending in the top card.
        sizes = [1]
        if rules.moves is not MoveUnit.ONE_CARD:
            k = 1
            while k < len(col) and _goes_on(col[-k], col[-k - 1], rules.build):
                k += 1
                sizes.append(k)
        if foundation_pile(deal.foundations, col[-1], rules) is not None:
            moves.add(Move(col[-1], source, FOUNDATION))
        for target in range(1, len(cols) + 1):
            if target == source:
                continue
            for k in sizes:
                if rules.moves is MoveUnit.SUPERMOVE:
                    if rules.empty_column is EmptyColumn.ANY_CARD:
                        free = sum(1 for t, c in enumerate(cols, 1) if not c and t != target)
                        if k > 2**free:
                            continue
                    elif k > 1:
                        continue
                unit = col[-k:]
                if may_take(target, unit):
                    moves.add(Move(unit[0], source, target))
    if rules.foundation_return:
        for suit in Suit:
            height = deal.foundations[suit]
            if height:
                card = Card(height, suit)
                for target in range(1, len(cols) + 1):
                    if may_take(target, (card,)):
                        moves.add(Move(card, FOUNDATION, target))
    return moves


def family_apply(deal: Deal, move: Move, rules: Rules | None = None) -> Deal:
    """Play a move known to be legal (no checks: test helper only)."""
    rules = rules or deal.rules
    columns = [list(col) for col in deal.columns]
    foundations = list(deal.foundations)
    if move.source == FOUNDATION:
        foundations[move.card.suit] -= 1
        columns[move.target - 1].append(move.card)
    else:
        col = columns[move.source - 1]
        k = len(col) - col.index(move.card)
        unit, columns[move.source - 1] = col[-k:], col[:-k]
        if move.target == FOUNDATION:
            pile = foundation_pile(deal.foundations, move.card, rules)
            assert pile is not None and k == 1
            foundations[pile] += 1
        else:
            columns[move.target - 1].extend(unit)
    return Deal(tuple(map(tuple, columns)), tuple(foundations), deal.ranks, rules)  # type: ignore[arg-type]


def family_deal(cards: list[Card], ranks: int, rules: Rules) -> Deal:
    """Deal a shuffled (reduced) pack for *rules*.

    The last ``rules.start_aces`` Aces of *cards* go home; the rest are dealt
    card k to column k mod n, n = min(rules.columns, ranks) for a reduced
    pack (rules.columns for the full one), then the Kings rule.
    """
    cards = list(cards)
    home = [0, 0, 0, 0]
    for _ in range(rules.start_aces):
        k = max(i for i, c in enumerate(cards) if c.rank == 1)
        home[cards.pop(k).suit] = 1
    ncols = rules.columns if ranks == 13 else min(rules.columns, ranks)
    columns = [cards[c::ncols] for c in range(ncols)]
    if rules.kings is KingsRule.STABLE:
        columns = [[x for x in col if x.rank == ranks] + [x for x in col if x.rank != ranks]
                   for col in columns]
    elif rules.kings is KingsRule.SWAP:
        for col in columns:
            for i in [i for i, x in enumerate(col) if x.rank == ranks]:
                j = next((j for j in range(i) if col[j].rank != ranks), None)
                if j is not None:
                    col[i], col[j] = col[j], col[i]
    return Deal(tuple(map(tuple, columns)), tuple(home), ranks, rules)  # type: ignore[arg-type]


def reference_moves(deal: Deal) -> set[Move]:
    """Every legal move of docs/rules.md, "Play", as a set of Move.

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
    """Deal a shuffled pack like docs/rules.md: card k to column k mod n, then the
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
    """Play up to *steps* random legal moves (reference rules, the deal's own)."""
    family = deal.rules != BAKERS_DOZEN
    for _ in range(steps):
        moves = sorted(family_moves(deal) if family else reference_moves(deal), key=str)
        if not moves:
            break
        home = [m for m in moves if m.to_foundation]
        # Prefer foundation moves half the time so play gets somewhere.
        choice = rng.choice(home) if home and rng.random() < 0.5 else rng.choice(moves)
        deal = family_apply(deal, choice) if family else reference_apply(deal, choice)
    return deal
