"""An independent replay of a move list: is every move legal, is it won?

This module re-implements the rules of play (``docs/rules.md``) in plain
Python and shares nothing with the compiled engine or
:mod:`bakersdozen.solver`, only the card vocabulary
(:mod:`bakersdozen.cards`, :mod:`bakersdozen.model`) and the rules as data
(:mod:`bakersdozen.rules`), so that a solution found by the engine can be
verified by code that did not find it.

It plays every knob of :class:`~bakersdozen.rules.Rules`, one move at a time
(a :class:`~bakersdozen.model.Move` names the bottom card of what moves):

- **what moves**: from a column, the named card and every card above it.
  ``one_card``: the named card must be the top card.  ``sequence``: the
  moved cards must be a built sequence (each card one rank lower than the
  card beneath it and obeying the tableau build).  ``supermove``: a built
  sequence of at most ``2**e`` cards, ``e`` the empty columns other than
  the target, if an empty column takes any card, else one card (PySolFC's
  ``SuperMoveStack_StackMethods._getMaxMove`` and
  ``getNumberOfFreeStacks`` in ``pysollib/stack.py``: ``max_move`` is the
  free reserves plus one, shifted left by the free rows, less one if the
  target is empty, and only if the rows' ``base_rank`` is ``ANY_RANK``;
  the family has no reserves).  Only one card goes to a foundation at a time.
- **tableau build**: onto a non-empty column only if its top card is one
  rank higher than the moved unit's bottom card and, for ``any_suit``,
  of any suit, for ``alternate_colours`` of the other colour, for
  ``same_suit`` of the same suit, for ``other_suit`` of another suit.
- **empty column**: ``nothing`` is ever put there, or ``any_card`` (any
  card or sequence), or ``kings_only`` (the moved unit's bottom card is a
  King, the pack's top rank).
- **foundations**: pile *i* is begun by the Ace of suit *i*.  A card goes
  to the **first** pile (lowest suit index: clubs, diamonds, hearts,
  spades) that accepts it: by suit, the pile of its suit holding the rank
  below; alternate colours, a pile holding the rank below whose top card
  is of the other colour; any suit, any pile holding the rank below.
  Without foundation return the choice does not matter: piles of the
  same height whose next card may be the same card are interchangeable
  for the rest of the game (what a pile accepts depends only on its height
  and, for alternate colours, the colour of its top card, which the card
  itself fixes), so the first is as good as any.
- **foundation return** (by suit only, :class:`~bakersdozen.rules.Rules`
  refuses the rest): the top card of a foundation comes back onto a
  column (``"5H F>3"``) under the tableau build and empty-column rules.
"""

from __future__ import annotations

from collections.abc import Iterable

from ._values import frozen_value
from .cards import RANK_NAMES, Card, Suit
from .errors import IllegalMoveError, ParseError
from .model import FOUNDATION, Deal, Move
from .rules import Build, EmptyColumn, FoundationBuild, MoveUnit, Rules

__all__ = ["CheckResult", "check"]


@frozen_value
class CheckResult:
    """The outcome of :func:`check`.

    Attributes
    ----------
    position : Deal
        The position after the last move.
    won : bool
        True if *position* has every card on the foundations.
    moves : int
        Number of moves replayed.
    """

    position: Deal
    won: bool
    moves: int


def _rank_name(rank: int) -> str:
    return RANK_NAMES[rank] if 1 <= rank < len(RANK_NAMES) else str(rank)


_SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")


def _red(card: Card) -> bool:
    return card.suit.is_red


def _builds_on(card: Card, below: Card, build: Build) -> bool:
    """May *card* lie on *below* in a column (one rank lower, and the build rule)?"""
    if card.rank + 1 != below.rank:
        return False
    if build is Build.ALTERNATE_COLOURS:
        return _red(card) != _red(below)
    if build is Build.SAME_SUIT:
        return card.suit == below.suit
    if build is Build.OTHER_SUIT:
        return card.suit != below.suit
    return True


_BUILD_WORDS = {
    Build.ANY_SUIT: "of any suit",
    Build.ALTERNATE_COLOURS: "of the other colour",
    Build.SAME_SUIT: "of the same suit",
    Build.OTHER_SUIT: "of another suit",
}


def _pile_top_red(pile: int, height: int) -> bool:
    """Is the top card of pile *pile*, *height* cards high, red (alternate colours)?

    The pile's Ace is of suit *pile*; its colour returns at every odd height.
    """
    ace_red = Suit(pile).is_red
    return ace_red if height % 2 == 1 else not ace_red


def _accepting_pile(piles: list[int], card: Card, rules: Rules) -> int | None:
    """The first foundation pile that accepts *card*, or None."""
    if rules.foundation_build is FoundationBuild.BY_SUIT or card.rank == 1:
        return int(card.suit) if piles[card.suit] == card.rank - 1 else None
    for pile, height in enumerate(piles):
        if height != card.rank - 1:
            continue
        if rules.foundation_build is FoundationBuild.ANY_SUIT:
            return pile
        if _pile_top_red(pile, height) != _red(card):
            return pile
    return None


def _foundation_reason(piles: list[int], card: Card, rules: Rules, ranks: int) -> str:
    if rules.foundation_build is FoundationBuild.BY_SUIT or card.rank == 1:
        top = piles[card.suit]
        if card.rank <= top:
            return f"{card} is already on its foundation"
        held = f"holds up to {Card(top, card.suit)}" if top else "is empty"
        needed = Card(top + 1, card.suit) if top < ranks else None
        return (
            f"{card} cannot go to the {_SUIT_NAMES[card.suit]} foundation, which {held}"
            + (f" (it needs {needed} next)" if needed else "")
        )
    heights = ", ".join(f"{_SUIT_NAMES[p]} {h}" for p, h in enumerate(piles))
    if rules.foundation_build is FoundationBuild.ANY_SUIT:
        rule = "a pile takes any card one rank above its top card"
    else:
        rule = ("a pile takes a card one rank above its top card and of the other "
                "colour (alternate colours from the pile's Ace)")
    return f"no foundation pile accepts {card}: {rule}; the piles hold {heights} cards"


def _max_unit(columns: list[list[Card]], target: int, rules: Rules) -> int | None:
    """The most cards one move may carry onto column *target*; None: no limit."""
    if rules.moves is MoveUnit.ONE_CARD:
        return 1
    if rules.moves is MoveUnit.SEQUENCE:
        return None
    if rules.empty_column is not EmptyColumn.ANY_CARD:
        return 1
    empty = sum(1 for number, column in enumerate(columns, 1) if not column and number != target)
    return 1 << empty


def _onto_reason(
    columns: list[list[Card]], unit: list[Card], target: int, rules: Rules, ranks: int
) -> str | None:
    """Why *unit* (bottom first) may not go onto column *target*, or None."""
    card = unit[0]
    if target > len(columns):
        return f"there is no column {target} (the position has {len(columns)} columns)"
    column = columns[target - 1]
    if not column:
        if rules.empty_column is EmptyColumn.NOTHING:
            return f"column {target} is empty, and empty columns are never filled"
        if rules.empty_column is EmptyColumn.KINGS_ONLY and card.rank != ranks:
            return (
                f"column {target} is empty, and an empty column takes only a King "
                f"(the pack's top rank); {card} is not one"
            )
        return None
    top = column[-1]
    if _builds_on(card, top, rules.build):
        return None
    if card.rank == ranks:
        return (
            f"{card} cannot go onto {top} in column {target}: "
            f"{card} is a King (the pack's top rank), and a King never goes onto "
            "another card"
        )
    if card.rank + 1 != top.rank:
        return (
            f"{card} cannot go onto {top} in column {target}: "
            f"a card goes only onto a card one rank higher (any {_rank_name(card.rank + 1)})"
        )
    return (
        f"{card} cannot go onto {top} in column {target}: the tableau builds down "
        f"{_BUILD_WORDS[rules.build]} ({rules.build})"
    )


def _reason(
    columns: list[list[Card]], piles: list[int], move: Move, ranks: int, rules: Rules
) -> str | None:
    """Why *move* is illegal in the position, or None if it is legal."""
    card = move.card
    if move.source == FOUNDATION:
        if not rules.foundation_return:
            return (f"{rules.title} never lets a card come back from a foundation "
                    "(foundation_return is off)")
        if piles[card.suit] != card.rank:
            top = piles[card.suit]
            held = f"its top card is {Card(top, card.suit)}" if top else "it is empty"
            return f"{card} is not the top card of the {_SUIT_NAMES[card.suit]} foundation ({held})"
        if move.target > len(columns):
            return f"there is no column {move.target} (the position has {len(columns)} columns)"
        return _onto_reason(columns, [card], move.target, rules, ranks)
    if move.source > len(columns):
        return f"there is no column {move.source} (the position has {len(columns)} columns)"
    source = columns[move.source - 1]
    if not source:
        return f"column {move.source} is empty"
    carries = rules.moves is not MoveUnit.ONE_CARD and move.target != FOUNDATION
    if card not in source or (source[-1] != card and not carries):
        where = next((n for n, col in enumerate(columns, 1) if card in col), None)
        if rules.foundation_build is FoundationBuild.BY_SUIT and card.rank <= piles[card.suit]:
            place = f"{card} is already on its foundation"
        elif where is None:
            place = f"{card} is not in the position"
        elif where == move.source:
            place = f"{card} is under other cards"
            if move.target == FOUNDATION and rules.moves is not MoveUnit.ONE_CARD:
                place += ", and only one card goes to a foundation at a time"
            else:
                place += ", and one card moves at a time (moves=one_card)"
        else:
            place = f"{card} is in column {where}"
        return (f"{card} is not the top card of column {move.source} "
                f"(the top is {source[-1]}; {place})")
    unit = source[source.index(card):]
    if len(unit) > 1:
        for below, above in zip(unit, unit[1:]):
            if not _builds_on(above, below, rules.build):
                return (
                    f"{card} and the {len(unit) - 1} cards above it are not a built "
                    f"sequence: {above} does not go on {below} (down by one rank "
                    f"{_BUILD_WORDS[rules.build]}), so they cannot move as a unit"
                )
    if move.target == FOUNDATION:
        if _accepting_pile(piles, card, rules) is None:
            return _foundation_reason(piles, card, rules, ranks)
        return None
    limit = _max_unit(columns, move.target, rules)
    if limit is not None and len(unit) > limit:
        if move.target <= len(columns):
            empty = sum(1 for n, col in enumerate(columns, 1) if not col and n != move.target)
        else:
            empty = 0
        why = (
            f"with {empty} empty column{'s' if empty != 1 else ''} besides the target, a "
            f"supermove carries at most 2**{empty} = {limit} cards"
            if rules.empty_column is EmptyColumn.ANY_CARD
            else "a supermove carries one card when empty columns do not take any card"
        )
        return f"{card} and the cards above it are {len(unit)} cards, and {why}"
    return _onto_reason(columns, unit, move.target, rules, ranks)


def check(deal: Deal, moves: Iterable[Move | str]) -> CheckResult:
    """Replay *moves* from *deal* under the rules of its game (``deal.rules``).

    Parameters
    ----------
    deal : Deal
        The starting position.
    moves : iterable of Move or str
        The moves in order; a str is read with :meth:`Move.from_text`
        (human notation, e.g. ``"7C 1>2"``, ``"AS 3>F"``).

    Returns
    -------
    CheckResult
        ``.position`` the final position, ``.won`` whether it is won,
        ``.moves`` how many moves were replayed.

    Raises
    ------
    IllegalMoveError
        At the first move that cannot be played (or read); ``.index`` is
        its 0-based position in *moves*; the message counts moves from 1
        (as ``review`` does), quotes the move and gives the reason.
    TypeError
        If *deal* is not a :class:`Deal`, or *moves* is a single str (it
        would be read one character at a time) or not iterable.
    """
    if not isinstance(deal, Deal):
        raise TypeError(f"check() needs a Deal, not {type(deal).__name__}")
    if isinstance(moves, (str, bytes)):
        raise TypeError(
            f"check() needs a list of moves, not a single {type(moves).__name__} "
            f"({moves[:40]!r}); write [{moves[:40]!r}]"
        )
    if not isinstance(moves, Iterable):
        raise TypeError(f"check() needs an iterable of moves, not {type(moves).__name__}")
    rules = deal.rules
    columns = [list(column) for column in deal.columns]
    foundations = list(deal.foundations)
    count = 0
    for index, item in enumerate(moves):
        if isinstance(item, str):
            try:
                move = Move.from_text(item)
            except ParseError as error:
                raise IllegalMoveError(f"move {index + 1} {item!r}: {error}", index) from error
        elif isinstance(item, Move):
            move = item
        else:
            raise IllegalMoveError(f"move {index + 1} is not a Move or a str: {item!r}", index)
        reason = _reason(columns, foundations, move, deal.ranks, rules)
        if reason is not None:
            raise IllegalMoveError(f"move {index + 1} {str(move)!r} is illegal: {reason}", index)
        if move.source == FOUNDATION:
            foundations[move.card.suit] -= 1
            columns[move.target - 1].append(move.card)
        else:
            source = columns[move.source - 1]
            unit = source[source.index(move.card):]
            del source[len(source) - len(unit):]
            if move.target == FOUNDATION:
                pile = _accepting_pile(foundations, move.card, rules)
                assert pile is not None
                foundations[pile] += 1
            else:
                columns[move.target - 1].extend(unit)
        count += 1
    position = Deal(
        tuple(tuple(column) for column in columns),
        (foundations[0], foundations[1], foundations[2], foundations[3]),
        deal.ranks,
        deal.rules,
    )
    won = all(top == deal.ranks for top in foundations) and not any(columns)
    return CheckResult(position, won, count)
