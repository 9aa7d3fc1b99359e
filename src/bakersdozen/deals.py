"""PySol deal numbers for every game of the family.

"Deal N of game G" is the layout PySolFC deals for game number N of G
(``docs/notation.md``, ``docs/rules.md``).  It is reproduced here from the
algorithm, read in PySolFC's sources (``pysollib/pysolrandom.py``,
``pysollib/game/__init__.py``: ``Game.shuffle`` and
``_shuffleHookMoveToBottom``, ``pysollib/games/bakersdozen.py``: each
game's ``_shuffleHook`` and ``startGame``), not from PySol's code:

1. The pack.  For the Microsoft numbers the 52 cards are in rank-major
   order, within a rank clubs, diamonds, hearts, spades (the Microsoft
   FreeCell order; it is our card index order, :mod:`bakersdozen.cards`;
   PySolFC's ``ms_rearrange``).  Otherwise the pack is suit-major in
   PySol's suit order clubs, spades, hearts, diamonds, ranks Ace..King.
2. The generator, chosen by the number and the *numbering*:

   - ``"pysolfc"`` (the default, PySolFC's ``construct_random``): numbers
     ``1..31999`` use the Microsoft C runtime linear congruential
     generator, ``state = (state * 214013 + 2531011) mod 2**32``, output
     ``(state >> 16) & 0x7fff``, seeded with N; a random integer in
     ``[0, m)`` is ``output mod m``.  Numbers from **32000** up
     (``if 0 <= seed < 32000: LCRandom31`` in ``pysolrandom.py``; the
     ``pysol_cards`` package switches one number later, at ``<= 32000``)
     use Mersenne Twister, Python's ``random.Random(N)``, where a random
     integer in ``[0, m)`` is ``int(random() * m)`` (``pysol_cards``'
     ``RandomBase.randint``, which PySolFC's ``MTRandom`` uses).
   - ``"pysol"`` (old PySol, ``pysol_cards``' ``DEALS_PYSOL``): numbers
     ``1..32000`` use the Microsoft generator, larger ones PySol's 64-bit
     linear congruential generator (Knuth, TAOCP vol. 2, 3rd ed., p. 106):
     ``state = (state * 6364136223846793005 + 1) mod 2**64``, seeded with
     N, a draw is ``x = (state >> 21) & 0x7fffffff`` and a random integer
     in ``[0, m)`` is ``floor(x * m / 2**31)``.

3. The shuffle: for ``i`` from 51 down to 1, swap card ``i`` with card
   ``j``, ``j`` a random integer in ``[0, i]``.
4. The game's deal hook, which gives the order the cards are dealt in (the
   talon deals from the end of its list, so the ``k``-th card dealt is the
   ``k``-th from the end of the hooked list).  Card ``k`` of the dealing
   order goes to column ``k mod columns`` (columns 1..n), row by row from
   the bottom:

   - Baker's Dozen (31) and Spanish Patience (85): ``BakersDozen._shuffleHook``
     swaps each King of the shuffled list with the first non-King at an
     index ``i mod 13, i mod 13 + 13, ...`` below its own (that is, with
     the lowest non-King under it in its column: PySol's *swap* Kings rule,
     :func:`bakersdozen.rules.swap_kings`) and reverses the list, so that
     the ``k``-th card dealt is card ``k`` of the swapped list.
   - Good Measure (86): the same King swap, computed for 10 columns (on all
     52 cards), then ``_shuffleHookMoveToBottom`` takes the **last two
     Aces in dealing order** out, which go to their foundations; the other
     50 cards are dealt in their order.  Taking the two Aces out shifts the
     cards dealt after them by one or two columns, so that about 2 % of
     the layouts have a King above a lower card (deals 2, 20, 67, ...).
     This is reproduced exactly.
   - Portuguese Solitaire (308), Spanish Patience II (664) and Castles in
     Spain (83) have no deal hook: the ``k``-th card dealt is the ``k``-th
     from the end of the shuffled list, and Kings stay where they fall.

Deal numbers run from 1 to ``2**64 - 1``, the seed range of the 64-bit
generator (``pysol_cards`` refuses anything else).
"""

from __future__ import annotations

from .cards import ACE, KING, Card, Suit
from .errors import BakersDozenError
from .rules import BAKERS_DOZEN, Rules, RulesError, swap_kings

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing is not imported at run time (start-up)
    from typing import Final, Literal

__all__ = [
    "MAX_DEAL", "MS_DEALS", "NUMBERINGS", "Numbering", "DealNumberError",
    "pysol_columns", "pysol_layout", "pysol_deal",
]

#: Columns of the layout, each a tuple of cards bottom → top.
Columns = tuple[tuple[Card, ...], ...]
#: Foundation heights (clubs, diamonds, hearts, spades).
Foundations = tuple[int, int, int, int]
if TYPE_CHECKING:
    #: How a deal number is turned into a shuffle (at run time made on first use,
    #: by the module's ``__getattr__``, so that :mod:`typing` is not imported).
    Numbering = Literal["pysolfc", "pysol"]
#: The numberings: PySolFC's (the default) and old PySol's.
NUMBERINGS: Final = ("pysolfc", "pysol")

#: PySolFC: deals 1..MS_DEALS - 1 use the Microsoft FreeCell generator
#: (``0 <= seed < 32000`` in PySolFC's ``pysollib/pysolrandom.py``).
MS_DEALS: Final = 32000
#: The largest PySol deal number (the 64-bit generator's largest seed).
MAX_DEAL: Final = 2**64 - 1

_MASK32: Final = 0xFFFFFFFF
_MASK64: Final = 0xFFFFFFFFFFFFFFFF
# PySol's suit order for the suit-major pack.
_PYSOL_SUITS: Final = (Suit.CLUBS, Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS)


class DealNumberError(BakersDozenError, ValueError):
    """A PySol deal number outside ``1..MAX_DEAL``."""


def _check_number(number: int) -> None:
    if isinstance(number, bool) or not isinstance(number, int):
        raise DealNumberError(f"a PySol deal number must be an int, not {number!r}")
    if not 1 <= number <= MAX_DEAL:
        raise DealNumberError(f"PySol deal numbers run from 1 to 2**64 - 1, not {number!r}")


def _shuffled_pack(number: int, numbering: Numbering = "pysolfc") -> list[Card]:
    """The pack after PySol's shuffle for deal *number* (steps 1-3)."""
    microsoft = number < MS_DEALS if numbering == "pysolfc" else number <= MS_DEALS
    if microsoft:
        pack = [Card.from_index(i) for i in range(52)]
        state = number
        for i in range(51, 0, -1):
            state = (state * 214013 + 2531011) & _MASK32
            j = ((state >> 16) & 0x7FFF) % (i + 1)
            pack[i], pack[j] = pack[j], pack[i]
        return pack
    pack = [Card(rank, suit) for suit in _PYSOL_SUITS for rank in range(1, KING + 1)]
    if numbering == "pysolfc":
        import random  # only for PySolFC's numbers from 32000 up (start-up)

        twister = random.Random(number)
        for i in range(51, 0, -1):
            j = int(twister.random() * (i + 1))
            pack[i], pack[j] = pack[j], pack[i]
    else:
        state = number
        for i in range(51, 0, -1):
            state = (state * 6364136223846793005 + 1) & _MASK64
            j = (((state >> 21) & 0x7FFFFFFF) * (i + 1)) >> 31
            pack[i], pack[j] = pack[j], pack[i]
    return pack


def _check_numbering(numbering: object) -> Numbering:
    if numbering not in NUMBERINGS:
        raise RulesError(
            f"unknown deal numbering {numbering!r}: choose one of {', '.join(NUMBERINGS)}"
        )
    return numbering


def _swap_dealt(order: list[Card], columns: int) -> list[Card]:
    """PySol's King swap on a list in dealing order, ``columns`` columns wide."""
    swapped = [swap_kings(order[c::columns]) for c in range(columns)]
    out = list(order)
    for c, column in enumerate(swapped):
        out[c::columns] = column
    return out


def pysol_columns(number: int, numbering: Numbering = "pysolfc") -> Columns:
    """Baker's Dozen's deal *number* before the King swap: 13 columns, bottom → top.

    Raises
    ------
    DealNumberError
        If *number* is not an int in ``1..MAX_DEAL`` (a ValueError and a
        BakersDozenError).
    RulesError
        If *numbering* is not ``"pysolfc"`` or ``"pysol"``.
    """
    _check_number(number)
    pack = _shuffled_pack(number, _check_numbering(numbering))
    columns = BAKERS_DOZEN.columns
    return tuple(tuple(pack[c::columns]) for c in range(columns))


#: The PySol game ids whose deal hook is Baker's Dozen's King swap.
_KING_SWAP: Final = frozenset({31, 85})
#: Good Measure: the King swap, then the last two Aces dealt go home.
_GOOD_MEASURE: Final = 86
#: No deal hook: the shuffled list dealt from its end.
_NO_HOOK: Final = frozenset({83, 308, 664})


def pysol_deal(
    number: int, rules: Rules = BAKERS_DOZEN, numbering: Numbering = "pysolfc"
) -> tuple[Columns, Foundations]:
    """PySol's deal *number* of the game *rules*: columns and foundations.

    Parameters
    ----------
    number : int
        The deal number, ``1 <= number <= 2**64 - 1``.
    rules : Rules
        The game; its ``pysol_id`` picks the
        deal hook (module docstring, step 4).  The play knobs do not change
        a layout; a deal number defines a layout together with PySol's own
        King placement, whatever the game's
        ``kings`` says for typed-in layouts.
    numbering : {"pysolfc", "pysol"}
        PySolFC's numbering (Mersenne Twister from 32000 up), the default,
        or old PySol's (64-bit LCG above 32000).

    Returns
    -------
    columns : tuple of tuple of Card
        ``rules.columns`` columns, bottom → top.
    foundations : (int, int, int, int)
        The foundation heights (clubs, diamonds, hearts, spades): 1 for the
        Aces PySol puts home before play.

    Raises
    ------
    DealNumberError
        If *number* is out of range or not an int.
    RulesError
        For rules without a PySol game id (a changed layout knob), or an
        unknown *numbering*.
    """
    _check_number(number)
    numbering = _check_numbering(numbering)
    game = rules.pysol_id
    if game is None or game not in _KING_SWAP | _NO_HOOK | {_GOOD_MEASURE}:
        raise RulesError(
            f"{rules.name} has no PySol deal numbers: PySol deals the presets "
            "bakers_dozen, good_measure, spanish_patience, spanish_patience_ii, "
            "portuguese_solitaire and castles_in_spain, with their own layout knobs "
            "(columns, cards_per_column, start_aces, kings)"
        )
    pack = _shuffled_pack(number, numbering)
    foundations = [0, 0, 0, 0]
    if game in _NO_HOOK:
        order = pack[::-1]
    else:
        order = _swap_dealt(pack, rules.columns)
        if game == _GOOD_MEASURE:
            for _ in range(rules.start_aces):
                last = max(k for k, card in enumerate(order) if card.rank == ACE)
                foundations[order.pop(last).suit] = 1
    columns = tuple(tuple(order[c::rules.columns]) for c in range(rules.columns))
    return columns, (foundations[0], foundations[1], foundations[2], foundations[3])


def pysol_layout(
    number: int, rules: Rules = BAKERS_DOZEN, numbering: Numbering = "pysolfc"
) -> Columns:
    """The columns of :func:`pysol_deal` (for games with no Aces home before play).

    Raises
    ------
    DealNumberError
        If *number* is out of range or not an int.
    RulesError
        As :func:`pysol_deal`.
    """
    return pysol_deal(number, rules, numbering)[0]


def __getattr__(name: str) -> object:
    """``Numbering`` (a :data:`typing.Literal`), made on first use: importing typing costs start-up."""
    if name == "Numbering":
        from typing import Literal

        numbering = Literal["pysolfc", "pysol"]
        globals()["Numbering"] = numbering
        return numbering
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
