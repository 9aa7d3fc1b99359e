"""The rules of the game as data: :class:`Rules`, its knobs, and the presets.

A :class:`Rules` value is the one source of truth for what a game of the
Baker's Dozen family is: how many columns are dealt and how many cards
each gets, what happens to Kings at the deal, what may be built on what,
what moves, what an empty column takes and how the foundations are built.
:class:`~bakersdozen.model.Deal`, the board text reader, the deal
generator, the checker and the engine are all given a :class:`Rules`;
none of them has the numbers of Baker's Dozen wired in.

The rules of every knob are described in ``docs/rules.md``.  Presets are
found by name with :func:`~bakersdozen.find_rules` (names in Freecell Solver's
snake_case style, e.g. ``"bakers_dozen"``); a knob can be changed on top
of any preset with :meth:`Rules.replace <bakersdozen.Rules.replace>`.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence

from ._values import frozen_value, replace
from .cards import KING, Card
from .errors import BakersDozenError

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing is not imported at run time (start-up)
    from typing import Any, Final

__all__ = [
    "KingsRule",
    "Build",
    "MoveUnit",
    "EmptyColumn",
    "FoundationBuild",
    "Rules",
    "RulesError",
    "BAKERS_DOZEN",
    "GOOD_MEASURE",
    "SPANISH_PATIENCE",
    "SPANISH_PATIENCE_II",
    "PORTUGUESE_SOLITAIRE",
    "CASTLES_IN_SPAIN",
    "PRESETS",
    "find_rules",
    "stable_kings",
    "swap_kings",
    "apply_kings_rule",
]

#: Cards in the pack: four suits of ranks 1..13.
PACK_SIZE: Final = 52


class RulesError(BakersDozenError, ValueError):
    """An unknown preset name, an unknown knob value, or an impossible combination."""


class _Knob(enum.Enum):
    """A knob value; ``str()`` is its name as written on the command line."""

    def __str__(self) -> str:
        return str(self.value)

    def __repr__(self) -> str:
        return f"{type(self).__name__}.{self.name}"

    @classmethod
    def parse(cls, text: str) -> Any:
        """The value named *text* (``"any_suit"``; ``-`` and case are ignored).

        Raises
        ------
        RulesError
            If *text* names no value; the message lists the values.
        """
        key = str(text).strip().lower().replace("-", "_")
        for member in cls:
            if member.value == key:
                return member
        choices = ", ".join(m.value for m in cls)
        raise RulesError(f"unknown {cls._knob_name()} {text!r}: choose one of {choices}")

    @classmethod
    def _knob_name(cls) -> str:
        return cls.__name__


class KingsRule(_Knob):
    """What happens to Kings when the cards are dealt."""

    #: Each King not at the bottom of its column goes there; the other cards
    #: keep their order, and so do the Kings (a stable partition).
    STABLE = "stable"
    #: PySol's and KPat's rule: each King is swapped with the lowest non-King
    #: beneath it, which reorders the other cards.
    SWAP = "swap"
    #: Kings stay where they are dealt.
    NONE = "none"

    @classmethod
    def _knob_name(cls) -> str:
        return "kings rule"


class Build(_Knob):
    """What may be put on the top card of a column: always one rank lower, and..."""

    #: ... of any suit (any 7 on any 8).
    ANY_SUIT = "any_suit"
    #: ... of the other colour (red on black, black on red).
    ALTERNATE_COLOURS = "alternate_colours"
    #: ... of the same suit.
    SAME_SUIT = "same_suit"
    #: ... of any suit but the card's own.
    OTHER_SUIT = "other_suit"

    @classmethod
    def _knob_name(cls) -> str:
        return "tableau build"


class MoveUnit(_Knob):
    """What one move may carry from a column."""

    #: Exactly one card, the top card.
    ONE_CARD = "one_card"
    #: The top card or a built sequence ending in it, any length, as a unit.
    SEQUENCE = "sequence"
    #: A built sequence of at most ``2**e`` cards, ``e`` the empty columns
    #: not counting the target, when an empty column takes any card (with
    #: any other empty-column rule, one card): PySol's "supermove"
    #: (``SuperMoveStack_StackMethods._getMaxMove`` in ``pysollib/stack.py``),
    #: the sequence a player could move one card at a time through them.
    SUPERMOVE = "supermove"

    @classmethod
    def _knob_name(cls) -> str:
        return "move unit"


class EmptyColumn(_Knob):
    """What an empty column takes."""

    #: Nothing: once empty, a column stays empty.
    NOTHING = "nothing"
    #: Any card (or, where sequences move, any sequence).
    ANY_CARD = "any_card"
    #: Only a King (or a sequence whose bottom card is a King).
    KINGS_ONLY = "kings_only"

    @classmethod
    def _knob_name(cls) -> str:
        return "empty column rule"


class FoundationBuild(_Knob):
    """How the four foundations are built up from the Aces."""

    #: Each foundation takes one suit, Ace to King.
    BY_SUIT = "by_suit"
    #: Foundation *i* starts with the Ace of suit *i*, then goes up by one
    #: rank in alternating colours (PySol's Spanish Patience, its
    #: ``AC_FoundationStack`` in ``pysollib/stack.py``).
    ALTERNATE_COLOURS = "alternate_colours"
    #: Foundation *i* starts with the Ace of suit *i*; then one rank higher,
    #: any suit (Parlett's Spanish Patience).
    ANY_SUIT = "any_suit"

    @classmethod
    def _knob_name(cls) -> str:
        return "foundation build"


@frozen_value
class Rules:
    """A member of the Baker's Dozen family of games.

    Attributes
    ----------
    name : str
        The preset's name (``"bakers_dozen"``), or the preset's name with
        ``"+"`` and the changed knobs for a variation of it.
    title : str
        The game's name for people ("Baker's Dozen").
    columns : int
        Columns of the tableau, 1..13.
    cards_per_column : int
        Cards dealt to each column.
    start_aces : int
        Aces on the foundations before play (0..4); the other
        ``52 - start_aces`` cards are dealt, ``columns * cards_per_column``
        of them.
    kings : KingsRule
        What happens to Kings at the deal.
    build : Build
        What may be put on a column's top card.
    moves : MoveUnit
        What one move may carry.
    empty_column : EmptyColumn
        What an empty column takes.
    foundation_build : FoundationBuild
        How the foundations are built.
    foundation_return : bool
        Whether the top card of a foundation may come back onto the tableau.
    pysol_id : int or None
        The PySol game id whose deal numbers :meth:`Deal.pysol
        <bakersdozen.Deal.pysol>` reproduces (31 for Baker's Dozen),
        None for rules whose layout PySol does not deal.  Not a knob:
        :meth:`replace` keeps it while the layout knobs (``columns``,
        ``cards_per_column``, ``start_aces``, ``kings``) are the preset's,
        and drops it otherwise.

    Raises
    ------
    TypeError
        For a count (``columns``, ``cards_per_column``, ``start_aces``,
        ``pysol_id``) that is not an int, or a ``foundation_return`` that is
        not a bool.
    RulesError
        For a knob value no knob has, or an impossible combination: a layout
        that does not hold the 52 cards, more than 13 columns, or
        ``foundation_return`` with a foundation build other than by suit
        (the cards of such a pile are not recorded by a position, only its
        height, so the card that would come back is not known).

    Notes
    -----
    The layout check is for the real pack of 52 cards.  The reduced packs
    of the tests (ranks 1..R of four suits) are a property of a
    :class:`~bakersdozen.model.Deal` (its ``ranks``), not of the rules: a
    reduced position may have any number of columns up to ``columns``.
    """

    name: str
    title: str
    columns: int = 13
    cards_per_column: int = 4
    start_aces: int = 0
    kings: KingsRule = KingsRule.STABLE
    build: Build = Build.ANY_SUIT
    moves: MoveUnit = MoveUnit.ONE_CARD
    empty_column: EmptyColumn = EmptyColumn.NOTHING
    foundation_build: FoundationBuild = FoundationBuild.BY_SUIT
    foundation_return: bool = False
    pysol_id: int | None = None

    def __post_init__(self) -> None:
        for field, kind in (
            ("kings", KingsRule), ("build", Build), ("moves", MoveUnit),
            ("empty_column", EmptyColumn), ("foundation_build", FoundationBuild),
        ):
            value = getattr(self, field)
            if not isinstance(value, kind):
                object.__setattr__(self, field, kind.parse(value))
        for field, low, high in (("columns", 1, 13), ("cards_per_column", 1, PACK_SIZE),
                                 ("start_aces", 0, 4)):
            value = getattr(self, field)
            if type(value) is not int:
                raise TypeError(f"Rules.{field} must be an int {low}..{high}, not {value!r}")
            if not low <= value <= high:
                raise RulesError(f"Rules.{field} must be an int {low}..{high}, not {value!r}")
        if type(self.foundation_return) is not bool:
            raise TypeError(f"Rules.foundation_return must be a bool, not {self.foundation_return!r}")
        dealt = self.columns * self.cards_per_column
        if dealt + self.start_aces != PACK_SIZE:
            raise RulesError(
                f"{self.name}: {self.columns} columns of {self.cards_per_column} cards "
                f"and {self.start_aces} Aces on the foundations make "
                f"{dealt + self.start_aces} cards, not the pack's {PACK_SIZE}"
            )
        if self.foundation_return and self.foundation_build is not FoundationBuild.BY_SUIT:
            raise RulesError(
                f"{self.name}: foundation_return=True needs foundation_build=by_suit, not "
                f"{self.foundation_build}: a position records only how many cards each "
                "foundation holds, so with foundations not built by suit the card that "
                "would come back is not known"
            )
        if self.pysol_id is not None and type(self.pysol_id) is not int:
            raise TypeError(f"Rules.pysol_id must be a positive int or None, not {self.pysol_id!r}")
        if self.pysol_id is not None and self.pysol_id < 1:
            raise RulesError(f"Rules.pysol_id must be a positive int or None, not {self.pysol_id!r}")

    @property
    def knobs(self) -> dict[str, object]:
        """Every knob by name, JSON-ready (enums as their names): what JSON output shows."""
        return {
            "columns": self.columns,
            "cards_per_column": self.cards_per_column,
            "start_aces": self.start_aces,
            "kings": self.kings.value,
            "build": self.build.value,
            "moves": self.moves.value,
            "empty_column": self.empty_column.value,
            "foundation_build": self.foundation_build.value,
            "foundation_return": self.foundation_return,
        }

    def replace(self, **knobs: object) -> Rules:
        """These rules with some knobs changed; the name records the change.

        Parameters
        ----------
        **knobs
            Field names of :class:`Rules` and their new values; enum values
            may be given by name (``build="same_suit"``).

        Raises
        ------
        RulesError
            For an unknown knob, a bad value, or an impossible combination.
        """
        unknown = sorted(set(knobs) - set(self.knobs))
        if unknown:
            raise RulesError(
                f"unknown knob {unknown[0]!r}: the knobs are {', '.join(self.knobs)}"
            )
        changed = {k: v for k, v in knobs.items() if getattr(self, k) != v}
        if not changed:
            return self
        try:
            result = replace(self, **changed)
        except RulesError:
            raise
        base = self.name.split("+", 1)[0]
        preset = PRESETS.get(base)
        differs = [
            f"{k}={v}" for k, v in result.knobs.items()
            if preset is None or preset.knobs[k] != v
        ]
        name = base + ("+" + ",".join(differs) if differs else "")
        layout = ("columns", "cards_per_column", "start_aces", "kings")
        same_layout = preset is not None and all(
            getattr(result, k) == getattr(preset, k) for k in layout
        )
        pysol_id = preset.pysol_id if preset is not None and same_layout else None
        if not differs and preset is not None:
            return preset
        return replace(result, name=name, pysol_id=pysol_id)

    def __str__(self) -> str:
        return self.name


# The presets.  Each is checked against its class in PySolFC's
# ``pysollib/games/bakersdozen.py`` (row stack class and its ``base_rank``
# / ``max_move``, foundation class, ``_shuffleHook``); the deal each game's
# hook gives is in :mod:`bakersdozen.deals`.  Cruel (PySol 104: 12 columns
# of 4, all Aces home, same suit, redeals) is left for later: it needs
# redeals, which no knob describes yet.

#: Baker's Dozen (PySol game 31, class ``BakersDozen``; Freecell Solver
#: ``bakers_dozen``): 13 columns of 4, each King moved to the bottom of its
#: column (stable rule for typed-in layouts), build down by one rank in any
#: suit (``RK_RowStack``), one card at a time (``max_move=1``), empty
#: columns never filled (``base_rank=NO_RANK``), foundations by suit
#: (``SS_FoundationStack``), nothing comes back from them.
BAKERS_DOZEN: Final = Rules("bakers_dozen", "Baker's Dozen", pysol_id=31)

#: Good Measure (PySol 86, class ``GoodMeasure``; Freecell Solver
#: ``good_measure``): Baker's Dozen with 10 columns of 5 and two Aces on the
#: foundations before play.  ``kings`` is ``none``: PySol's deal moves Kings
#: before it takes two Aces out, so about 2 % of its layouts have a King
#: above a lower card (``docs/rules.md``); a layout is taken as written.
GOOD_MEASURE: Final = Rules(
    "good_measure", "Good Measure", columns=10, cards_per_column=5, start_aces=2,
    kings=KingsRule.NONE, pysol_id=86,
)

#: Spanish Patience (PySol 85, class ``SpanishPatience``): Baker's Dozen
#: whose foundation *i* begins with the Ace of suit *i* and goes up in
#: alternating colours (``AC_FoundationStack``).
SPANISH_PATIENCE: Final = Rules(
    "spanish_patience", "Spanish Patience",
    foundation_build=FoundationBuild.ALTERNATE_COLOURS, pysol_id=85,
)

#: Spanish Patience II (PySol 664, class ``SpanishPatienceII``): Kings stay
#: where dealt (no ``_shuffleHook``), any card may go to an empty column
#: (``RK_RowStack`` with its default ``base_rank=ANY_RANK``), one card at a
#: time.
SPANISH_PATIENCE_II: Final = Rules(
    "spanish_patience_ii", "Spanish Patience II",
    kings=KingsRule.NONE, empty_column=EmptyColumn.ANY_CARD, pysol_id=664,
)

#: Portuguese Solitaire (PySol 308, class ``PortugueseSolitaire``): Kings
#: stay where dealt, only a King may go to an empty column
#: (``base_rank=KING``), one card at a time.
PORTUGUESE_SOLITAIRE: Final = Rules(
    "portuguese_solitaire", "Portuguese Solitaire",
    kings=KingsRule.NONE, empty_column=EmptyColumn.KINGS_ONLY, pysol_id=308,
)

#: Castles in Spain (PySol 83, class ``CastlesInSpain``): Kings stay where
#: dealt, build down in alternating colours, sequences move as PySol's
#: supermove allows (``SuperMoveAC_RowStack``), any card to an empty column.
#: PySol deals the bottom three cards of each column face down; here the
#: game is played open, every card known.
CASTLES_IN_SPAIN: Final = Rules(
    "castles_in_spain", "Castles in Spain",
    kings=KingsRule.NONE, build=Build.ALTERNATE_COLOURS, moves=MoveUnit.SUPERMOVE,
    empty_column=EmptyColumn.ANY_CARD, pysol_id=83,
)

#: The presets by name.
PRESETS: Final[dict[str, Rules]] = {
    rules.name: rules
    for rules in (
        BAKERS_DOZEN, GOOD_MEASURE, SPANISH_PATIENCE, SPANISH_PATIENCE_II,
        PORTUGUESE_SOLITAIRE, CASTLES_IN_SPAIN,
    )
}


def find_rules(name: str | Rules) -> Rules:
    """The preset called *name* (a :class:`Rules` is returned as it is).

    Parameters
    ----------
    name : str or Rules
        A preset name such as ``"bakers_dozen"``; case, spaces, ``-`` and
        ``'`` are ignored (``"Baker's Dozen"`` works).

    Raises
    ------
    RulesError
        If there is no such preset; the message lists the presets.
    TypeError
        If *name* is neither a str nor a Rules.
    """
    if isinstance(name, Rules):
        return name
    if not isinstance(name, str):
        raise TypeError(f"a game is named by a str (or given as a Rules), not {name!r}")
    key = name.strip().lower().replace("'", "").replace("-", "_").replace(" ", "_")
    try:
        return PRESETS[key]
    except KeyError:
        raise RulesError(
            f"unknown game {name!r}: the presets are {', '.join(PRESETS)}"
        ) from None


# ---------------------------------------------------------------------------
# The Kings rules of the deal
# ---------------------------------------------------------------------------


def stable_kings(column: Sequence[Card], top_rank: int = KING) -> tuple[Card, ...]:
    """Apply the stable Kings rule (:attr:`KingsRule.STABLE`) to one column.

    Every card of rank *top_rank* moves to the bottom; the other cards keep
    their relative order, and so do the Kings (a stable partition, Kings
    first).  This is the rule of the game's usual descriptions (for
    example Wikipedia's "Baker's Dozen").

    Parameters
    ----------
    column : sequence of Card
        One column, bottom → top.
    top_rank : int, default 13
        The rank treated as King (the pack's top rank in a reduced pack).

    Returns
    -------
    tuple of Card
        The column after the rule, bottom → top.

    Examples
    --------
    >>> from bakersdozen.cards import Card
    >>> col = [Card.from_text(t) for t in "A♣ 2♦ K♠ 3♥".split()]
    >>> " ".join(str(c) for c in stable_kings(col))
    'KS AC 2D 3H'
    >>> col = [Card.from_text(t) for t in "5♣ K♥ 9♦ K♠".split()]
    >>> " ".join(str(c) for c in stable_kings(col))
    'KH KS 5C 9D'
    """
    kings = [card for card in column if card.rank == top_rank]
    others = [card for card in column if card.rank != top_rank]
    return tuple(kings + others)


def swap_kings(column: Sequence[Card], top_rank: int = KING) -> tuple[Card, ...]:
    """Apply PySol's *swap* Kings rule (:attr:`KingsRule.SWAP`) to one column.

    Kings are taken from the bottom up; each King that has a non-King below
    it is swapped with the lowest such non-King (nearest the bottom).  The
    other cards change order, unlike :func:`stable_kings`.  Source: PySol's
    and PySolFC's Baker's Dozen (``pysollib/games/bakersdozen.py``), which
    ``pysol_cards`` reproduces.

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
    The columns of :func:`stable_kings`' examples, ordered differently:

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


def apply_kings_rule(
    column: Sequence[Card], rule: KingsRule, top_rank: int = KING
) -> tuple[Card, ...]:
    """One column after the Kings rule *rule* (bottom → top in and out)."""
    if rule is KingsRule.STABLE:
        return stable_kings(column, top_rank)
    if rule is KingsRule.SWAP:
        return swap_kings(column, top_rank)
    return tuple(column)
