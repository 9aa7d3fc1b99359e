"""Solving: :func:`solve` turns a :class:`Deal` into a :class:`Solution`.

This is the only module that talks to the compiled engine
(:mod:`bakersdozen._core`).  The engine decides the deal; this module
checks the arguments, translates between the engine's card indices and
:class:`Card`/:class:`Move` values, strips pointless moves from the
winning line, and replays it with the independent checker before
returning it.

Soundness of the engine's pruning (RULES.md is the spec)
--------------------------------------------------------
The engine explores every position reachable from the deal except those
removed by these rules, each of which provably never removes every
winning line:

1. *Safe foundation moves.*  A top card ``c`` of rank ``r`` that can go to
   its foundation is played there at once, alone, when ``r <= 2`` or all
   four cards of rank ``r - 2`` are already on the foundations.  Proof:
   take any winning line from the position.  Play ``c`` home first, then
   follow the line, skipping its moves of ``c``, and wherever it puts a
   rank ``r - 1`` card ``d`` onto ``c``, play ``d`` home instead; ``d`` is
   then playable, because every card of rank ``r - 2`` is home, and nothing
   ever needs ``d`` as a support afterwards, because only rank ``r - 2``
   cards could and none is left in the tableau.  Every other move stays
   legal: the position only ever differs from the original line's by cards
   that are already home.  (For ``r <= 2``: an Ace never needs a support
   and can always go home itself.)  This is stronger than the textbook rule
   (all rank ``r - 1`` cards home), which it implies.
2. *A column's only card never moves to another column.*  That uncovers
   nothing and leaves an empty column, which can never be used again
   (RULES.md).  Proof: take a winning line from the position after such a
   move and play it from the position before, with the card still alone
   in its old column: every move stays legal (the target the move would
   have covered is only more available, and the card's own later moves
   start from its old column instead), so the position before wins in one
   move fewer, and a shortest winning line never makes this move.

3. *Lost positions are not expanded.*  A card ``y`` lying above a lower
   card ``x`` of its own suit, where every card one rank above ``y`` is
   home or beneath ``y`` in the same column, can never leave its column:
   no support for it can ever be exposed while it is there, and it cannot
   go home before ``x``, which cannot go home before ``y`` leaves.  Such a
   position has no winning line.  (The engine checks only the cards the
   last move affected: the card that landed, or the cards one rank below a
   card that went home; the condition, once true, stays true.)

Every other legal move is tried.  Positions are identified by a 128-bit
Zobrist key that is the same for positions differing only in the order of
their columns (see ``_core.pxd``); of it, 84 random bits are compared on
every table lookup, so two distinct positions are confused with
probability about ``4 * L / 2**84`` over ``L`` lookups (below 10**-14 for
10**10).

Iterative deepening on the node quota
-------------------------------------
The search runs in rounds.  Round ``k`` is a complete depth-first search
from the deal with a quota of ``256 * luby(k) * 1.05**k`` positions, one of
two move scorings (alternating) and its own random tie-break (round 1 the
plain heuristic order for seed 0; later rounds add noise of the size of the scores
themselves, which measurably shortens the heavy tail).  A
round that ends within its quota decides the deal: a win, or an
exhaustive proof that none exists.  Positions a round proves dead (Tarjan's
strongly connected components tell which of them do not depend on
positions still open) stay in the transposition table for later rounds.
Restarts with the Luby sequence (Luby, Sinclair and Zuckerman, 1993) tame
the heavy tail of run times that a single move order has on this game.
"""

from __future__ import annotations

import math
import time
from typing import Final

from . import _core
from .cards import Card
from .check import check
from .errors import BakersDozenError
from .model import FOUNDATION, Deal, Move
from .solution import DEFAULT_MEMORY_MB, Solution, Verdict

__all__ = ["Verdict", "Solution", "solve", "legal_moves"]



_REASONS: Final = {
    _core.NODE_LIMIT: "max_nodes",
    _core.TIME_LIMIT: "time_limit",
    _core.OUT_OF_MEMORY: "memory_mb",
}


def _engine_args(deal: Deal) -> tuple[list[list[int]], list[int], int]:
    columns = [[card.index for card in column] for column in deal.columns]
    return columns, list(deal.foundations), deal.ranks


def _to_move(raw: tuple[int, int, int]) -> Move:
    card, source, target = raw
    return Move(Card.from_index(card), source + 1, FOUNDATION if target < 0 else target + 1)


def legal_moves(deal: Deal) -> tuple[Move, ...]:
    """Every legal move in *deal*, from the compiled move generator.

    Returns
    -------
    tuple of Move
        Columns left to right; for each top card, its foundation move first,
        then its moves onto other columns.  No pruning: this is the full
        rule set of RULES.md.
    """
    if not isinstance(deal, Deal):
        raise TypeError(f"legal_moves() needs a Deal, not {type(deal).__name__}")
    return tuple(_to_move(m) for m in _core.Position(*_engine_args(deal)).legal_moves())


#: Largest accepted max_nodes (the engine counts in 64 bits; it also stops
#: by itself after 2**40 positions, some days of search).
MAX_NODES_LIMIT: Final = 2**64 - 1

#: Largest accepted memory_mb: 1 TiB.
MAX_MEMORY_MB: Final = 2**20


def _check_limit(
    name: str, value: float | None, integral: bool = False, optional: bool = True
) -> None:
    what = "an int" if integral else "a number"
    if value is None:
        if optional:
            return
        raise TypeError(f"{name} must be {what}, not None")
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"{name} must be {what}{' or None' if optional else ''}, not {value!r}")
    if integral and not isinstance(value, int):
        raise TypeError(f"{name} must be an int or None, not {value!r}")
    if integral:
        if not 0 < value <= MAX_NODES_LIMIT:
            raise ValueError(f"{name} must be in 1..2**64-1, not {value!r}")
        return
    try:
        finite = math.isfinite(value) and value < 1e15
    except OverflowError:
        finite = False
    if not finite or value <= 0:
        raise ValueError(f"{name} must be a positive finite number, not {value!r}")


def solve(
    deal: Deal,
    time_limit: float | None = 10.0,
    max_nodes: int | None = None,
    memory_mb: float = DEFAULT_MEMORY_MB,
    seed: int = 0,
    *,
    verify: bool = True,
) -> Solution:
    """Decide whether *deal* can be won, and how.

    Parameters
    ----------
    deal : Deal
        An initial layout or a mid-game position.
    time_limit : float or None
        Seconds of wall-clock time; ``None`` for no limit.  Honoured to
        within a few milliseconds (the engine looks at the clock every 1024
        positions).
    max_nodes : int or None
        Positions generated (moves made by the search); ``None`` for no
        limit.  Honoured exactly.
    memory_mb : float
        MiB (2**20 bytes) for the transposition table, which starts small
        and never grows past this; 1 to 2**20.  The search path, its move
        lists and the Tarjan stack take memory besides, in proportion to
        the work of a round (deal 417 with an 8 MiB table: the whole
        process peaked at 115 MiB after 100 million positions).
    seed : int
        0 for the default move order; another value selects other
        tie-breaks (a different, equally valid search).  The result is
        deterministic for a given deal and arguments unless a time limit
        cuts it short.
    verify : bool
        Replay a winning line with the independent checker
        (:func:`bakersdozen.check`) before returning it (default).

    Returns
    -------
    Solution

    Raises
    ------
    TypeError, ValueError
        For an argument of the wrong type or out of range.
    MemoryError
        If the memory for the table cannot be had.
    KeyboardInterrupt
        On Ctrl-C, when called from the main thread (the engine looks for
        signals every 50 ms; Python delivers them to the main thread only).
    BakersDozenError
        If a winning line fails verification (an engine bug; never expected).
    """
    if not isinstance(deal, Deal):
        raise TypeError(f"solve() needs a Deal, not {type(deal).__name__}")
    _check_limit("time_limit", time_limit)
    _check_limit("max_nodes", max_nodes, integral=True)
    _check_limit("memory_mb", memory_mb, optional=False)
    if not 1 <= memory_mb <= MAX_MEMORY_MB:
        raise ValueError(f"memory_mb must be in 1..2**20 (MiB), not {memory_mb!r}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"seed must be an int, not {seed!r}")
    if not 0 <= seed < 2**64:
        raise ValueError(f"seed must be in 0..2**64-1, not {seed!r}")

    start = time.perf_counter()
    status, raw, nodes, rounds, _entries = _core.search(
        *_engine_args(deal),
        time_limit=float(time_limit or 0.0),
        max_nodes=int(max_nodes or 0),
        memory_mb=float(memory_mb),
        seed=seed,
    )
    if status == _core.SOLVED:
        try:
            moves = _shorten(deal, tuple(_to_move(m) for m in raw))
        except ValueError:
            moves = ()
        if (not moves and deal.cards_left) or (verify and not check(deal, moves).won):
            raise BakersDozenError("internal error: the engine's line does not win")
        seconds = time.perf_counter() - start
        return Solution(Verdict.SOLVED, moves, nodes, seconds, None, rounds)
    seconds = time.perf_counter() - start
    if status == _core.UNSOLVABLE:
        return Solution(Verdict.UNSOLVABLE, (), nodes, seconds, None, rounds)
    return Solution(Verdict.UNKNOWN, (), nodes, seconds, _REASONS[status], rounds)


# ---------------------------------------------------------------------------
# Removing pointless moves from a winning line
# ---------------------------------------------------------------------------

def simplify(deal: Deal, moves: tuple[Move, ...]) -> tuple[Move, ...]:
    """Remove pointless moves from a winning line; the result still wins.

    Two passes (run by the engine) alternate until neither shortens the
    line: one-move shortcuts between positions of the line, which also cut
    out loops (a card moved and moved back, a move undone later with
    nothing between), and merging a card's two successive moves (A to B,
    later B to C, becomes A to C at the later time; A to B and later back
    to A disappear) where the whole line still replays to a win.

    Parameters
    ----------
    deal : Deal
        The position the line starts from.
    moves : tuple of Move
        A winning line from *deal*.

    Returns
    -------
    tuple of Move
        A winning line from *deal* no longer than *moves*.

    Raises
    ------
    ValueError
        If *moves* is not a winning line from *deal* (IllegalMoveError for
        an illegal move).
    """
    if not check(deal, moves).won:
        raise ValueError("the line does not win")
    return _shorten(deal, moves)


def _shorten(deal: Deal, moves: tuple[Move, ...]) -> tuple[Move, ...]:
    """:func:`simplify` without checking its input first (solve() checks after)."""
    raw = [
        (m.card.index, m.source - 1, -1 if m.target == FOUNDATION else m.target - 1)
        for m in moves
    ]
    return tuple(_to_move(m) for m in _core.shorten(*_engine_args(deal), raw))
