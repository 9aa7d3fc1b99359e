"""Moves and positions: the :class:`Move` and :class:`Deal` value types.

A :class:`Deal` is one position of Baker's Dozen (RULES.md): up to 13
columns of cards, each listed bottom → top, plus the four foundations.  It
represents both an initial layout and any mid-game position.  A
:class:`Move` names one card, the column it leaves and where it goes.

Columns are numbered 1..13 in the order of the board text lines
(NOTATION.md): column 1 is the first line.  :data:`FOUNDATION` (``0``) is the
target of a move to the card's own foundation.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final, cast

from .cards import KING, Card, Suit
from .errors import ParseError

__all__ = ["FOUNDATION", "MAX_COLUMNS", "Move", "Deal"]

#: A :class:`Move`'s ``target`` when the card goes to its suit's foundation.
FOUNDATION: Final = 0

#: Baker's Dozen has 13 columns (RULES.md, "The deal").
MAX_COLUMNS: Final = 13

_FOUNDATION_WORDS: Final = frozenset({"F", "FOUNDATION", "HOME"})
_MOVE_RE: Final = re.compile(r"\s*(\S+)\s+(\S+?)\s*>\s*(\S+)\s*", re.UNICODE)


def _column_number(text: str, what: str, original: str) -> int:
    """Read a column number 1..13 written in a move; ParseError otherwise."""
    if not (text.isascii() and text.isdigit()):
        raise ParseError(f"{what} column {text!r} in move {original!r} is not a number 1..13")
    number = int(text)
    if not 1 <= number <= MAX_COLUMNS:
        raise ParseError(f"{what} column {text!r} in move {original!r} is not in 1..13")
    return number


@dataclass(frozen=True, slots=True)
class Move:
    """One move: a single card leaves the top of a column.

    Parameters
    ----------
    card : Card
        The card that moves; it must be the top card of *source*.
    source : int
        Column number 1..13 (board text line order) the card leaves.
    target : int
        Column number 1..13 the card is put on, or :data:`FOUNDATION` (0)
        for the card's own suit foundation.

    Raises
    ------
    ValueError
        If *card* is not a :class:`Card`, a column number is out of range,
        or *source* equals *target*.

    Notes
    -----
    The human notation, ``str(move)``, is the card, the source column, ``>``
    and the target column or ``F``: ``"7C 1>2"`` moves the seven of clubs
    from column 1 onto column 2, ``"AS 3>F"`` the ace of spades from
    column 3 to its foundation.  :meth:`from_text` reads it back.
    Whether the move is legal in a position is not checked here; see
    :func:`bakersdozen.check`.
    """

    card: Card
    source: int
    target: int

    def __post_init__(self) -> None:
        if not isinstance(self.card, Card):
            raise ValueError(f"Move.card must be a Card, not {self.card!r}")
        if type(self.source) is not int or not 1 <= self.source <= MAX_COLUMNS:
            raise ValueError(f"Move.source must be a column number 1..13, not {self.source!r}")
        if type(self.target) is not int or not 0 <= self.target <= MAX_COLUMNS:
            raise ValueError(
                f"Move.target must be a column number 1..13 or FOUNDATION (0), not {self.target!r}"
            )
        if self.source == self.target:
            raise ValueError(f"Move source and target are both column {self.source}")

    @property
    def to_foundation(self) -> bool:
        """True if the card goes to its foundation (``target == FOUNDATION``)."""
        return self.target == FOUNDATION

    @classmethod
    def from_text(cls, text: str) -> Move:
        """Parse the human move notation, e.g. ``"7C 1>2"`` or ``"AS 3>F"``.

        Accepts any case, ``T`` or ``10`` for ten, suit symbols, spaces
        around ``>``, and ``F``, ``foundation`` or ``home`` as the target.

        Parameters
        ----------
        text : str
            One move.

        Returns
        -------
        Move

        Raises
        ------
        ParseError
            If *text* is not a move; the message quotes it with ``!r``.
        """
        if not isinstance(text, str):
            raise ParseError(f"a move must be given as str, not {type(text).__name__}")
        match = _MOVE_RE.fullmatch(text)
        if match is None:
            raise ParseError(f"not a move: {text!r} (expected e.g. '7C 1>2' or 'AS 3>F')")
        card_text, source_text, target_text = match.groups()
        try:
            card = Card.from_text(card_text)
        except ParseError:
            raise ParseError(f"unknown card {card_text!r} in move {text!r}") from None
        source = _column_number(source_text, "source", text)
        if target_text.upper() in _FOUNDATION_WORDS:
            target = FOUNDATION
        else:
            target = _column_number(target_text, "target", text)
        if source == target:
            raise ParseError(f"move {text!r} has the same source and target column")
        return cls(card, source, target)

    def __str__(self) -> str:
        target = "F" if self.target == FOUNDATION else str(self.target)
        return f"{self.card} {self.source}>{target}"

    def __repr__(self) -> str:
        return f"Move.from_text({str(self)!r})"


def _as_tuple(value: object, what: str) -> tuple[object, ...]:
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise ValueError(f"{what} must be a sequence, not {value!r}")
    return tuple(value)


@dataclass(frozen=True, slots=True)
class Deal:
    """A position of Baker's Dozen: columns and foundations.

    Parameters
    ----------
    columns : tuple of tuple of Card
        At most 13 columns, in board text line order (column 1 first); each
        column lists its cards **bottom → top** (the last card is the
        playable one).  An empty tuple is an empty column.  Lists are
        accepted and stored as tuples.
    foundations : tuple of 4 int, default (0, 0, 0, 0)
        ``foundations[s]`` is the highest rank on suit *s*'s foundation
        (indexed by :class:`Suit`: clubs, diamonds, hearts, spades), 0 if
        it is empty.  The foundation of suit *s* holds exactly ranks
        ``1..foundations[s]`` of that suit.
    ranks : int, default 13
        The pack holds ranks ``1..ranks`` of each of the four suits: 13 for
        the real game, 3..12 for the reduced packs tests use.

    Raises
    ------
    ValueError
        If the position is not one of the game: more than 13 columns, a
        card missing, repeated, above ``ranks`` or both in a column and on
        a foundation, or a top-rank card (a King) above a lower card in a
        column (RULES.md moves Kings to the bottom at the deal and a King
        never moves onto anything, so such a column cannot occur).

    Notes
    -----
    ``str(deal)`` is :meth:`to_text` (board text, NOTATION.md) and
    :meth:`from_text` reads it back; ``repr()`` evaluates to an equal Deal.
    """

    columns: tuple[tuple[Card, ...], ...]
    foundations: tuple[int, int, int, int] = (0, 0, 0, 0)
    ranks: int = KING

    def __post_init__(self) -> None:
        if type(self.ranks) is not int or not 1 <= self.ranks <= KING:
            raise ValueError(f"Deal.ranks must be an int 1..13, not {self.ranks!r}")
        columns = tuple(_as_tuple(c, "a column") for c in _as_tuple(self.columns, "Deal.columns"))
        foundations = _as_tuple(self.foundations, "Deal.foundations")
        object.__setattr__(self, "columns", columns)
        object.__setattr__(self, "foundations", foundations)
        if len(columns) > MAX_COLUMNS:
            raise ValueError(f"a deal has at most {MAX_COLUMNS} columns, not {len(columns)}")
        if len(foundations) != 4:
            raise ValueError(f"Deal.foundations needs 4 ranks (C, D, H, S), not {foundations!r}")
        for suit, top in zip(Suit, foundations):
            if type(top) is not int or not 0 <= top <= self.ranks:
                raise ValueError(
                    f"the {suit.name.lower()} foundation rank must be 0..{self.ranks}, not {top!r}"
                )
        tops = cast("tuple[int, int, int, int]", foundations)
        seen: dict[Card, int] = {}
        for number, column in enumerate(columns, 1):
            for card in column:
                if not isinstance(card, Card):
                    raise ValueError(f"column {number} holds {card!r}, which is not a Card")
                if card.rank > self.ranks:
                    raise ValueError(
                        f"{card} in column {number} is above the pack's top rank {self.ranks}"
                    )
                if card in seen:
                    raise ValueError(f"{card} is in column {seen[card]} and in column {number}")
                if card.rank <= tops[card.suit]:
                    raise ValueError(
                        f"{card} is in column {number} and on the "
                        f"{card.suit.name.lower()} foundation"
                    )
                seen[card] = number
            self._check_kings(number, column)  # type: ignore[arg-type]
        missing = [
            Card(rank, suit)
            for rank in range(1, self.ranks + 1)
            for suit in Suit
            if rank > tops[suit] and Card(rank, suit) not in seen
        ]
        if missing:
            raise ValueError("missing cards: " + " ".join(str(c) for c in missing))

    def _check_kings(self, number: int, column: tuple[Card, ...]) -> None:
        below_king = False
        for card in column:
            if card.rank == self.ranks:
                if below_king:
                    raise ValueError(
                        f"column {number} has {card} above a lower card; top-rank cards "
                        "are moved to the bottom at the deal and never move onto "
                        "another card (RULES.md)"
                    )
            else:
                below_king = True

    # -- notation -----------------------------------------------------------

    @classmethod
    def from_text(cls, text: str, ranks: int | None = KING) -> Deal:
        """Read board text (NOTATION.md); see :func:`bakersdozen.notation.parse_board`.

        Raises
        ------
        ParseError
            If *text* is not a position; the message gives line and token.
        """
        from .notation import parse_board

        return parse_board(text, ranks=ranks)[0]

    def to_text(self) -> str:
        """Board text in the canonical fc-solve form; see :func:`bakersdozen.notation.format_board`."""
        from .notation import format_board

        return format_board(self)

    def pretty(self) -> str:
        """A tableau view for people; see :func:`bakersdozen.notation.pretty_board`."""
        from .notation import pretty_board

        return pretty_board(self)

    @classmethod
    def pysol(cls, number: int) -> Deal:
        """PySol's Baker's Dozen deal *number*; see :func:`bakersdozen.deals.pysol_deal`."""
        from .deals import pysol_deal

        return pysol_deal(number)

    # -- play ---------------------------------------------------------------

    def legal_moves(self) -> tuple[Move, ...]:
        """Every legal move in this position, from the compiled engine.

        Returns
        -------
        tuple of Move
            All moves allowed by RULES.md (each top card to its foundation
            and onto every other non-empty column whose top is one rank
            higher), in the engine's order.
        """
        from .solver import legal_moves

        moves: tuple[Move, ...] = legal_moves(self)
        return moves

    @property
    def is_won(self) -> bool:
        """True if every card of the pack is on its foundation."""
        return all(top == self.ranks for top in self.foundations) and not any(self.columns)

    @property
    def cards_left(self) -> int:
        """Number of cards still in the tableau."""
        return sum(len(column) for column in self.columns)

    def __str__(self) -> str:
        return self.to_text()

    def __repr__(self) -> str:
        args = repr(self.to_text())
        if self.ranks != KING:
            args += f", ranks={self.ranks}"
        return f"Deal.from_text({args})"
