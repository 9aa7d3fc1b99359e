"""The outcome of a solve: :class:`Verdict` and :class:`Solution`.

A module of plain values below :mod:`bakersdozen.solver` (which makes them)
and :mod:`bakersdozen.records` (which stores them), so that neither has to
import the other.
"""

from __future__ import annotations

import enum

from ._values import frozen_value
from .cards import Card
from .model import Move

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing is not imported at run time (start-up)
    from typing import Final

__all__ = ["Verdict", "Solution", "DEFAULT_MEMORY_MB"]

#: Default memory budget of the transposition table, in MiB.
DEFAULT_MEMORY_MB: Final = 512


class Verdict(enum.Enum):
    """The outcome of a solve: a win found, no win possible, or not decided."""

    #: A winning line was found (``Solution.moves``).
    SOLVED = "solved"
    #: The search explored every reachable position: no line wins.
    UNSOLVABLE = "unsolvable"
    #: A limit (time, nodes, memory or disk) stopped the search first.
    UNKNOWN = "unknown"

    def __repr__(self) -> str:
        return f"Verdict.{self.name}"


@frozen_value
class Solution:
    """The result of :func:`solve`.

    Attributes
    ----------
    verdict : Verdict
    moves : tuple of Move
        The winning line when SOLVED, else ``()``.
    nodes : int
        Positions the search generated (moves it made), all rounds.
    seconds : float
        Wall-clock time of the whole :func:`solve` call (search, removal of
        pointless moves and verification).
    reason : str or None
        For UNKNOWN, the limit that stopped the search: ``"time_limit"``,
        ``"max_nodes"``, ``"memory_mb"``, or ``"disk"`` (the layered
        search on disk found its disk budget or the disk full); ``None``
        otherwise.
    rounds : int
        Restart rounds the search ran (docs/engine.md, "The search").
    optimal : bool
        True when no winning line is shorter than ``moves`` (proven:
        by the shortest search, or because the line meets
        ``lower_bound``); False when SOLVED without that proof, or not
        SOLVED.
    lower_bound : int
        Moves every winning line from the deal needs at least (proven;
        docs/engine.md, "Shortest lines"); equal to ``len(moves)`` when
        *optimal*; 0 when not SOLVED.
    deadlock : tuple of Card
        When UNSOLVABLE because the position itself is deadlocked: the
        cards that can never move, in card order (each has a lower card of
        its suit, and every card it could go onto, lying under one of
        them; docs/engine.md, "Deadlocks").  Empty otherwise, and always
        under rules other than Baker's Dozen's play.
    resumed_nodes : int
        Of *nodes*, the positions that earlier runs generated, when the
        layered search on disk went on from their checkpoint
        (``solve(..., work_dir=..., resume=True)``): *nodes* counts from the
        start of the search, as a run never stopped would, and this call
        generated ``nodes - resumed_nodes`` of them in *seconds*.  0 for a
        search that started afresh.
    layer_progress : tuple of (int, int) or None
        When the layered search (``method="layers"``) stopped UNKNOWN:
        ``(value, most)``, the progress value (cards home plus dealt cards
        moved, docs/engine.md "The layered search") of the layers it was
        expanding when it stopped, and that of a won position, the greatest
        it can reach.  How far a stopped enumeration got, to rank deals
        for a longer run (the positions per value rise, then fall: a
        value past the middle is not proportionally nearer the end).
        ``(most, most)`` when it reached a won position (the deal is
        winnable) but kept no line to trace back (``line_record=False``,
        or a record that outgrew the memory) and the default search found
        none within the limits; on disk a resume gives the win back and
        looks again.  None otherwise.
    """

    verdict: Verdict
    moves: tuple[Move, ...] = ()
    nodes: int = 0
    seconds: float = 0.0
    reason: str | None = None
    rounds: int = 0
    optimal: bool = False
    lower_bound: int = 0
    deadlock: tuple[Card, ...] = ()
    resumed_nodes: int = 0
    layer_progress: tuple[int, int] | None = None

    @property
    def solved(self) -> bool:
        """True when the verdict is SOLVED."""
        return self.verdict is Verdict.SOLVED

    @property
    def decided(self) -> bool:
        """True when the verdict is SOLVED or UNSOLVABLE."""
        return self.verdict is not Verdict.UNKNOWN

    @property
    def nodes_per_second(self) -> float:
        """Search speed, positions per second of wall-clock time (this call's
        positions: ``nodes - resumed_nodes``)."""
        return (self.nodes - self.resumed_nodes) / self.seconds if self.seconds > 0 else 0.0
