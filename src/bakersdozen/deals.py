"""PySol deal numbers for Baker's Dozen, and the two Kings rules.

"Deal N" (NOTATION.md) is the layout PySol and PySolFC deal for game number
N, which is also what the ``pysol_cards`` package prints with
``RandomBase.DEALS_PYSOL``.  It is reproduced here from the algorithm, not
from PySol's code:

1. The pack.  For N <= 32000 the 52 cards are in rank-major order, within a
   rank clubs, diamonds, hearts, spades (the Microsoft FreeCell order; it is
   our card index order, :mod:`bakersdozen.cards`).  For larger N the pack is
   suit-major in PySol's suit order clubs, spades, hearts, diamonds, ranks
   Ace..King within a suit.
2. The generator.  For N <= 32000, the Microsoft C runtime linear
   congruential generator: ``state = (state * 214013 + 2531011) mod 2**32``,
   output ``(state >> 16) & 0x7fff``, seeded with N; a random integer in
   ``[0, m)`` is ``output mod m``.  For N > 32000, PySol's 64-bit linear
   congruential generator (Knuth, TAOCP vol. 2, 3rd ed., p. 106):
   ``state = (state * 6364136223846793005 + 1) mod 2**64``, seeded with N,
   a draw is ``x = (state >> 21) & 0x7fffffff`` and a random integer in
   ``[0, m)`` is ``floor(x * m / 2**31)``.
3. The shuffle: for ``i`` from 51 down to 1, swap card ``i`` with card ``j``,
   ``j`` a random integer in ``[0, i]``.
4. The deal: card ``k`` of the shuffled pack goes to column ``k mod 13``
   (columns 1..13), so each column gets 4 cards, bottom first.
5. PySol's *swap* Kings rule, column by column (:func:`swap_kings`).

Deal numbers run from 1 to ``2**64 - 1``, the seed range of the 64-bit
generator (``pysol_cards`` refuses anything else).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from .cards import KING, Card, Suit
from .errors import BakersDozenError
from .model import MAX_COLUMNS, Deal
from .notation import stable_kings

__all__ = ["MAX_DEAL", "MS_DEALS", "pysol_deal", "pysol_columns", "stable_kings", "swap_kings"]

#: Deals 1..MS_DEALS use the Microsoft FreeCell generator.
MS_DEALS: Final = 32000
#: The largest PySol deal number (the 64-bit generator's largest seed).
MAX_DEAL: Final = 2**64 - 1

_MASK32: Final = 0xFFFFFFFF
_MASK64: Final = 0xFFFFFFFFFFFFFFFF
# PySol's suit order for the suit-major pack of deals above 32000.
_PYSOL_SUITS: Final = (Suit.CLUBS, Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS)


class DealNumberError(BakersDozenError, ValueError):
    """A PySol deal number outside ``1..MAX_DEAL``."""


def swap_kings(column: Sequence[Card], top_rank: int = KING) -> tuple[Card, ...]:
    """Apply PySol's *swap* Kings rule (RULES.md, "How other programs differ").

    Kings are taken from the bottom up; each King that has a non-King below
    it is swapped with the lowest such non-King (nearest the bottom).  The
    other cards change order, unlike :func:`stable_kings`.

    Parameters
    ----------
    column : sequence of Card
        One column, bottom → top.
    top_rank : int, default 13
        The rank treated as King.

    Returns
    -------
    tuple of Card
        The column after the rule, bottom → top.

    Examples
    --------
    The columns of RULES.md's examples, which the stable rule orders
    differently:

    >>> from bakersdozen.cards import Card
    >>> col = [Card.from_text(t) for t in "A♣ 2♦ K♠ 3♥".split()]
    >>> " ".join(str(c) for c in swap_kings(col))
    'KS 2D AC 3H'
    >>> col = [Card.from_text(t) for t in "5♣ K♥ 9♦ K♠".split()]
    >>> " ".join(str(c) for c in swap_kings(col))
    'KH KS 9D 5C'
    """
    cards = list(column)
    for i in [i for i, card in enumerate(cards) if card.rank == top_rank]:
        for j in range(i):
            if cards[j].rank != top_rank:
                cards[i], cards[j] = cards[j], cards[i]
                break
    return tuple(cards)


def _check_number(number: int) -> None:
    if isinstance(number, bool) or not isinstance(number, int):
        raise DealNumberError(f"a PySol deal number must be an int, not {number!r}")
    if not 1 <= number <= MAX_DEAL:
        raise DealNumberError(f"PySol deal numbers run from 1 to 2**64 - 1, not {number!r}")


def _shuffled_pack(number: int) -> list[Card]:
    """The pack after PySol's shuffle for deal *number* (steps 1-3)."""
    if number <= MS_DEALS:
        pack = [Card.from_index(i) for i in range(52)]
        state = number
        for i in range(51, 0, -1):
            state = (state * 214013 + 2531011) & _MASK32
            j = ((state >> 16) & 0x7FFF) % (i + 1)
            pack[i], pack[j] = pack[j], pack[i]
    else:
        pack = [Card(rank, suit) for suit in _PYSOL_SUITS for rank in range(1, KING + 1)]
        state = number
        for i in range(51, 0, -1):
            state = (state * 6364136223846793005 + 1) & _MASK64
            j = (((state >> 21) & 0x7FFFFFFF) * (i + 1)) >> 31
            pack[i], pack[j] = pack[j], pack[i]
    return pack


def pysol_columns(number: int) -> tuple[tuple[Card, ...], ...]:
    """PySol's deal *number* before any Kings rule: 13 columns, bottom → top.

    Raises
    ------
    DealNumberError
        If *number* is not an int in ``1..MAX_DEAL`` (a ValueError and a
        BakersDozenError).
    """
    _check_number(number)
    pack = _shuffled_pack(number)
    return tuple(tuple(pack[c::MAX_COLUMNS]) for c in range(MAX_COLUMNS))


def pysol_deal(number: int) -> Deal:
    """PySol's (and PySolFC's) Baker's Dozen deal *number*, exactly.

    Parameters
    ----------
    number : int
        The deal number, ``1 <= number <= 2**64 - 1``.

    Returns
    -------
    Deal
        13 columns of 4 cards with PySol's swap Kings rule applied (not the
        stable rule: a deal number defines a layout only together with
        PySol's own King placement, RULES.md).  Source of the algorithm:
        PySol's generators as described in the module docstring; checked
        against the ``pysol_cards`` package in the tests.

    Raises
    ------
    DealNumberError
        If *number* is out of range or not an int.
    """
    columns = tuple(swap_kings(column) for column in pysol_columns(number))
    return Deal(columns)
