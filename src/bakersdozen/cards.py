"""Cards: suits, ranks and the card-to-index mapping shared with the engine.

A card has a rank from 1 (Ace) to 13 (King) and one of four suits.  Every
card also has an *index* from 0 to 51, rank-major::

    index = 4 * (rank - 1) + suit        # suit: C=0, D=1, H=2, S=3

so that the four cards of one rank occupy one nibble of a 64-bit mask
(bits ``4*(rank-1)`` to ``4*(rank-1)+3``).  The compiled engine uses the
same mapping for its bitboards; it is the only thing the engine and the
independent checker (:mod:`bakersdozen.check`) share.
"""

from __future__ import annotations

import enum

from ._values import frozen_value
from .errors import ArgumentError, ParseError

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing is not imported at run time (start-up)
    from typing import Final

__all__ = ["Suit", "Card", "RANK_NAMES", "ACE", "KING", "FULL_PACK"]

ACE: Final = 1
KING: Final = 13

#: Rank letters used in board text, index = rank (index 0 unused).
RANK_NAMES: Final = "?A23456789TJQK"

_SUIT_LETTERS: Final = "CDHS"
_SUIT_SYMBOLS: Final = "♣♦♥♠"
# Hollow symbols are what some programs print for the red suits (or for all).
_SUIT_ALIASES: Final = {
    "C": 0, "♣": 0, "♧": 0,
    "D": 1, "♦": 1, "♢": 1,
    "H": 2, "♥": 2, "♡": 2,
    "S": 3, "♠": 3, "♤": 3,
}
_RANK_ALIASES: Final = {
    "A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8,
    "9": 9, "T": 10, "10": 10, "J": 11, "Q": 12, "K": 13,
}


class Suit(enum.IntEnum):
    """The four suits, in the engine's order (clubs, diamonds, hearts, spades)."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        """The suit's letter in board text: ``C``, ``D``, ``H`` or ``S``."""
        return _SUIT_LETTERS[self]

    @property
    def symbol(self) -> str:
        """The suit's symbol: ``♣``, ``♦``, ``♥`` or ``♠``."""
        return _SUIT_SYMBOLS[self]

    @property
    def is_red(self) -> bool:
        """True for diamonds and hearts, False for clubs and spades."""
        return self in (Suit.DIAMONDS, Suit.HEARTS)

    def __repr__(self) -> str:
        return f"Suit.{self.name}"

    @classmethod
    def from_text(cls, text: str) -> Suit:
        """Parse ``C``/``D``/``H``/``S`` (any case) or a suit symbol.

        Raises
        ------
        ParseError
            If *text* names no suit.
        TypeError
            If *text* is not a str.
        """
        if not isinstance(text, str):
            raise TypeError(f"Suit.from_text() needs a str, not {type(text).__name__}")
        try:
            return cls(_SUIT_ALIASES[text.strip().upper()])
        except KeyError:
            raise ParseError(f"unknown suit {text!r}") from None


@frozen_value(order=True)
class Card:
    """One playing card.

    Parameters
    ----------
    rank : int
        1 (Ace) to 13 (King).
    suit : Suit

    Raises
    ------
    TypeError
        If *rank* is not an int (a bool is not).
    ArgumentError
        A ValueError: if *rank* is outside 1..13 or *suit* is not a suit
        (a :class:`Suit` or its value 0..3).
    """

    rank: int
    suit: Suit

    def __post_init__(self) -> None:
        if isinstance(self.rank, bool) or not isinstance(self.rank, int):
            raise TypeError(f"Card.rank must be an int 1..13, not {self.rank!r}")
        if not ACE <= self.rank <= KING:
            raise ArgumentError(f"Card.rank must be 1..13, not {self.rank!r}")
        if not isinstance(self.suit, Suit):
            try:
                object.__setattr__(self, "suit", Suit(self.suit))
            except ValueError:
                raise ArgumentError(
                    f"Card.suit must be a Suit or 0..3, not {self.suit!r}"
                ) from None

    @property
    def index(self) -> int:
        """The card's index 0..51, ``4 * (rank - 1) + suit`` (see module doc)."""
        return 4 * (self.rank - 1) + self.suit

    @classmethod
    def from_index(cls, index: int) -> Card:
        """The card with index *index* (0..51); inverse of :attr:`index`.

        Raises
        ------
        TypeError
            If *index* is not an int.
        ArgumentError
            A ValueError: if *index* is outside 0..51.
        """
        if isinstance(index, bool) or not isinstance(index, int):
            raise TypeError(f"Card.from_index() index must be an int 0..51, not {index!r}")
        if not 0 <= index < 52:
            raise ArgumentError(f"Card.from_index() index must be 0..51, not {index!r}")
        return _BY_INDEX[index]

    @classmethod
    def from_text(cls, text: str) -> Card:
        """Parse a card as written in board text.

        Accepts a rank (``A 2 .. 9 T J Q K``, or ``10``) followed by a
        suit letter (``C D H S``) or symbol (``♣ ♦ ♥ ♠``, hollow or not, with
        or without the emoji variation selector U+FE0F), in any case:
        ``"TH"``, ``"10h"``, ``"7♣"``, ``"6♥\ufe0f"``.  A rank ``1`` is refused: it is read
        as an Ace by some programs and is a common slip for ``10``.

        Raises
        ------
        ParseError
            If *text* is not a card; the message quotes it.
        """
        if not isinstance(text, str):
            raise ParseError(f"a card must be given as str, not {type(text).__name__}")
        token = text.strip()
        if len(token) > 2 and token[-1] == "\ufe0f" and token[-2] in "♣♧♦♢♥♡♠♤":
            token = token[:-1]  # the emoji variation selector pasted text has: 6♥️
        if len(token) < 2 or len(token) > 3:
            raise ParseError(f"not a card: {text[:20]!r}")
        if token[:-1] == "1" and token[-1].upper() in _SUIT_ALIASES:
            suit_letter = _SUIT_LETTERS[_SUIT_ALIASES[token[-1].upper()]]
            raise ParseError(
                f"ambiguous card {text!r}: rank '1' could mean an Ace ('A{suit_letter}') "
                f"or a ten missing its 0 ('T{suit_letter}' or '10{suit_letter}'); write one of those"
            )
        rank = _RANK_ALIASES.get(token[:-1].upper())
        suit = _SUIT_ALIASES.get(token[-1].upper())
        if rank is None or suit is None:
            raise ParseError(f"not a card: {text!r}")
        return _BY_INDEX[4 * (rank - 1) + suit]

    @property
    def symbol(self) -> str:
        """The card with a suit symbol, e.g. ``"10♥"``."""
        return ("10" if self.rank == 10 else RANK_NAMES[self.rank]) + self.suit.symbol

    def __str__(self) -> str:
        return RANK_NAMES[self.rank] + self.suit.letter

    def __repr__(self) -> str:
        return f"Card.from_text({str(self)!r})"


_BY_INDEX: Final = tuple(Card(i // 4 + 1, Suit(i % 4)) for i in range(52))

#: All 52 cards in index order.
FULL_PACK: Final = _BY_INDEX
