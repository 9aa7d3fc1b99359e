"""An independent replay of a move list: is every move legal, is it won?

This module re-implements the rules of play (``docs/rules.md``) in plain
Python and shares nothing with the compiled engine or
:mod:`bakersdozen.solver`, only the card vocabulary
(:mod:`bakersdozen.cards`, :mod:`bakersdozen.model`) and the rules as data
(:mod:`bakersdozen.rules`), so that a solution found by the engine can be
verified by code that did not find it.

The rules it enforces for Baker's Dozen, one move at a time:

- exactly one card moves, and it must be the top card of its source column;
- to a foundation only if it is the next rank of its suit there (Ace first);
- onto another column only if that column is not empty and its top card is
  exactly one rank higher, of any suit;
- nothing is ever put into an empty column; cards never leave a foundation.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .cards import RANK_NAMES, Card
from .errors import IllegalMoveError, ParseError
from .model import FOUNDATION, Deal, Move
from .rules import BAKERS_DOZEN, Rules, RulesError

__all__ = ["CheckResult", "check"]


@dataclass(frozen=True, slots=True)
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


def _reason(
    columns: list[list[Card]], foundations: list[int], move: Move, ranks: int
) -> str | None:
    """Why *move* is illegal in the position, or None if it is legal."""
    card = move.card
    if move.source > len(columns):
        return f"there is no column {move.source} (the position has {len(columns)} columns)"
    source = columns[move.source - 1]
    if not source:
        return f"column {move.source} is empty"
    if source[-1] != card:
        where = next((n for n, col in enumerate(columns, 1) if card in col), None)
        if card.rank <= foundations[card.suit]:
            place = f"{card} is already on its foundation"
        elif where is None:
            place = f"{card} is not in the position"
        elif where == move.source:
            place = f"{card} is under other cards"
        else:
            place = f"{card} is in column {where}"
        return f"{card} is not the top card of column {move.source} (the top is {source[-1]}; {place})"
    if move.target == FOUNDATION:
        top = foundations[card.suit]
        if card.rank != top + 1:
            held = f"holds up to {Card(top, card.suit)}" if top else "is empty"
            needed = Card(top + 1, card.suit) if top < ranks else None
            return (
                f"{card} cannot go to the {card.suit.name.lower()} foundation, which {held}"
                + (f" (it needs {needed} next)" if needed else "")
            )
        return None
    if move.target > len(columns):
        return f"there is no column {move.target} (the position has {len(columns)} columns)"
    target = columns[move.target - 1]
    if not target:
        return f"column {move.target} is empty, and empty columns are never filled"
    if target[-1].rank != card.rank + 1:
        if card.rank == ranks:
            return (
                f"{card} cannot go onto {target[-1]} in column {move.target}: "
                f"{card} is a King (the pack's top rank), and a King never goes onto "
                "another card"
            )
        return (
            f"{card} cannot go onto {target[-1]} in column {move.target}: "
            f"a card goes only onto a card one rank higher (any {_rank_name(card.rank + 1)})"
        )
    return None


#: The play knobs the checker implements, by value (Baker's Dozen's).
_PLAY_KNOBS = ("build", "moves", "empty_column", "foundation_build", "foundation_return")


def _supported(rules: Rules) -> None:
    for knob in _PLAY_KNOBS:
        if getattr(rules, knob) != getattr(BAKERS_DOZEN, knob):
            raise RulesError(
                f"check() does not yet play {knob}={getattr(rules, knob)} ({rules.name}); "
                f"it plays {knob}={getattr(BAKERS_DOZEN, knob)}"
            )


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
        its 0-based position in *moves* and the message quotes the move and
        gives the reason.
    TypeError
        If *deal* is not a :class:`Deal`, or *moves* is a single str (it
        would be read one character at a time) or not iterable.
    RulesError
        If the deal's game has a play rule the checker does not implement.
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
    _supported(deal.rules)
    columns = [list(column) for column in deal.columns]
    foundations = list(deal.foundations)
    count = 0
    for index, item in enumerate(moves):
        if isinstance(item, str):
            try:
                move = Move.from_text(item)
            except ParseError as error:
                raise IllegalMoveError(f"move {index} {item!r}: {error}", index) from error
        elif isinstance(item, Move):
            move = item
        else:
            raise IllegalMoveError(f"move {index} is not a Move or a str: {item!r}", index)
        reason = _reason(columns, foundations, move, deal.ranks)
        if reason is not None:
            raise IllegalMoveError(f"move {index} {str(move)!r} is illegal: {reason}", index)
        card = columns[move.source - 1].pop()
        if move.target == FOUNDATION:
            foundations[card.suit] = card.rank
        else:
            columns[move.target - 1].append(card)
        count += 1
    position = Deal(
        tuple(tuple(column) for column in columns),
        (foundations[0], foundations[1], foundations[2], foundations[3]),
        deal.ranks,
        deal.rules,
    )
    won = all(top == deal.ranks for top in foundations) and not any(columns)
    return CheckResult(position, won, count)
