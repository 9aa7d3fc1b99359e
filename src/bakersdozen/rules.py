"""The rules of the game as data.

Today there is one preset, :data:`BAKERS_DOZEN`, the rules of RULES.md.  The
fields name the points on which the family of games listed at the end of
RULES.md ("The family (variants)") differ, so that later presets (Good
Measure, Spanish Patience, ...) are new values, not new code paths.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Final

__all__ = ["KingsRule", "Build", "EmptyColumn", "Rules", "BAKERS_DOZEN"]


class KingsRule(enum.Enum):
    """What happens to Kings at the deal."""

    #: Kings go to the bottom of their column, a stable partition (RULES.md).
    STABLE = "stable"
    #: PySol/KPat: each King is swapped with the lowest non-King below it.
    SWAP = "swap"
    #: Kings stay where they are dealt.
    NONE = "none"


class Build(enum.Enum):
    """How cards are built on the tableau."""

    #: Down by one rank, any suit (any 7 on any 8).
    DOWN_ANY_SUIT = "down, any suit"
    #: Down by one rank in alternating colours.
    DOWN_ALTERNATE_COLOURS = "down, alternate colours"


class EmptyColumn(enum.Enum):
    """What may be placed in an empty column."""

    NEVER = "never filled"
    ANY_CARD = "any single card"
    KINGS_ONLY = "kings only"


@dataclass(frozen=True, slots=True)
class Rules:
    """A member of the Baker's Dozen family.

    Attributes
    ----------
    name : str
        The game's name.
    columns : int
        Number of tableau columns.
    cards_per_column : int
        Cards dealt to each column.
    kings : KingsRule
        King placement at the deal.
    build : Build
        Tableau building rule.
    empty_column : EmptyColumn
        What may fill an empty column.
    foundation_return : bool
        Whether cards may come back from the foundations.
    """

    name: str
    columns: int = 13
    cards_per_column: int = 4
    kings: KingsRule = KingsRule.STABLE
    build: Build = Build.DOWN_ANY_SUIT
    empty_column: EmptyColumn = EmptyColumn.NEVER
    foundation_return: bool = False


#: Baker's Dozen as RULES.md defines it: 13 columns of 4, Kings to the bottom
#: (stable), build down by rank in any suit, empty columns never filled, no
#: card back from a foundation.
BAKERS_DOZEN: Final = Rules("Baker's Dozen")
