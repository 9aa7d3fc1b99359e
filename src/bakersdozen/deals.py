"""PySol deal numbers for Baker's Dozen.

"Deal N" is the layout PySol deals for game number N (``docs/notation.md``).
For N up to 32000 that is also PySolFC's layout; above 32000 it is **old
PySol's** numbering, which the ``pysol_cards`` package prints with
``RandomBase.DEALS_PYSOL``: PySolFC switched to another generator there
(Mersenne Twister), so its layouts of those numbers differ.  The layout is
reproduced here from the algorithm, not from PySol's code:

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
5. PySol's *swap* Kings rule, column by column
   (:func:`bakersdozen.rules.swap_kings`).

Deal numbers run from 1 to ``2**64 - 1``, the seed range of the 64-bit
generator (``pysol_cards`` refuses anything else).
"""

from __future__ import annotations

from typing import Final

from .cards import KING, Card, Suit
from .errors import BakersDozenError
from .rules import BAKERS_DOZEN, Rules, RulesError, swap_kings

__all__ = ["MAX_DEAL", "MS_DEALS", "DealNumberError", "pysol_columns", "pysol_layout"]

#: Columns of the layout, each a tuple of cards bottom → top.
Columns = tuple[tuple[Card, ...], ...]

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


def pysol_columns(number: int) -> Columns:
    """PySol's deal *number* before any Kings rule: 13 columns, bottom → top.

    Raises
    ------
    DealNumberError
        If *number* is not an int in ``1..MAX_DEAL`` (a ValueError and a
        BakersDozenError).
    """
    _check_number(number)
    pack = _shuffled_pack(number)
    columns = BAKERS_DOZEN.columns
    return tuple(tuple(pack[c::columns]) for c in range(columns))


def pysol_layout(number: int, rules: Rules = BAKERS_DOZEN) -> Columns:
    """PySol's layout of deal *number* for the game *rules*: the columns, bottom → top.

    Parameters
    ----------
    number : int
        The deal number, ``1 <= number <= 2**64 - 1``.
    rules : Rules
        The game.  PySol lays out Baker's Dozen deals with its *swap* Kings
        rule (not the stable rule: a deal number defines a layout only
        together with PySol's own King placement), whatever the game's own
        :attr:`~bakersdozen.rules.Rules.kings` says for typed-in layouts.

    Returns
    -------
    tuple of tuple of Card
        13 columns of 4 cards.  Source of the algorithm: PySol's generators
        as described in the module docstring; checked against the
        ``pysol_cards`` package in the tests.

    Raises
    ------
    DealNumberError
        If *number* is out of range or not an int.
    RulesError
        For a game whose PySol numbering is not implemented (today only
        Baker's Dozen's layout is; the play knobs do not change a layout).
    """
    layout = (rules.columns, rules.cards_per_column, rules.start_aces)
    if layout != (BAKERS_DOZEN.columns, BAKERS_DOZEN.cards_per_column, BAKERS_DOZEN.start_aces):
        raise RulesError(
            f"PySol deal numbers are implemented for Baker's Dozen's layout (13 columns "
            f"of 4) only, not for {rules.name}'s {rules.columns} columns of "
            f"{rules.cards_per_column}"
        )
    return tuple(swap_kings(column) for column in pysol_columns(number))
