"""Hints and game reviews: the next move from any position, and where a game was lost.

Both are built on :func:`bakersdozen.solve` and take its verdicts at their
word: *solved* comes with a winning line that the independent checker has
replayed, and *unsolvable* is a proof (the search explored every position
it could reach).  A limit that stops a search gives *unknown*, never a
guess.

Winnability along a played line is monotone: once a position cannot be
won, no position reached from it can.  So the first losing move of a game
is found by bisection over the positions of the line, with
``O(log n)`` solves for ``n`` moves.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .check import check
from .errors import IllegalMoveError, ParseError
from .model import Deal, Move
from .rules import Rules
from .solution import DEFAULT_MEMORY_MB, Solution, Verdict
from .solver import (
    Progress, _after, _check_limit, plays_shortest, position_of, solve, time_limit_seconds,
)

__all__ = ["Hint", "hint", "Review", "review"]

#: Default wall-clock seconds for one solve in a hint or a review step.
DEFAULT_TIME_LIMIT = 10.0

#: Seconds :func:`hint` gives the shortest search (IDA*, docs/engine.md,
#: "Shortest lines") after the default search has found a win: if IDA*
#: proves a shortest line in that time, the hint is its first move.
HINT_SHORTEST_SECONDS = 0.1


@dataclass(frozen=True, slots=True)
class Hint:
    """The answer of :func:`hint`.

    Attributes
    ----------
    verdict : Verdict
        SOLVED: *move* starts a winning line; UNSOLVABLE: the position is
        lost, proven (no winning line from here); UNKNOWN: a limit stopped
        the search first.
    move : Move or None
        The next move of a winning line when SOLVED (None if the position
        is already won).
    solution : Solution
        The solve behind the hint: the whole winning line, nodes, seconds,
        the limit that stopped an UNKNOWN.
    """

    verdict: Verdict
    move: Move | None
    solution: Solution

    def __str__(self) -> str:
        if self.verdict is Verdict.SOLVED:
            return "won: nothing left to play" if self.move is None else f"hint: {self.move}"
        if self.verdict is Verdict.UNSOLVABLE:
            if self.solution.deadlock:
                cards = " ".join(str(card) for card in self.solution.deadlock)
                return f"lost: no winning line from here ({cards} can never move)"
            return "lost: no winning line from here"
        return f"unknown: {self.solution.reason} reached before a winning line or a proof"


def _limits(time_limit: float | None, max_nodes: int | None, memory_mb: float) -> dict[str, object]:
    """The limits of each solve, checked as :func:`solve` checks them (before any replay)."""
    _check_limit("max_nodes", max_nodes, integral=True)
    _check_limit("memory_mb", memory_mb, optional=False)
    return {"time_limit": time_limit_seconds(time_limit), "max_nodes": max_nodes,
            "memory_mb": memory_mb}


def hint(
    position: Deal,
    *,
    rules: Rules | str | None = None,
    time_limit: float | None = DEFAULT_TIME_LIMIT,
    max_nodes: int | None = None,
    memory_mb: float = DEFAULT_MEMORY_MB,
    progress: Progress | None = None,
) -> Hint:
    """The next move of a winning line from *position*, or a proof that there is none.

    The default search decides the position; when it finds a win, the
    shortest search (``solve(..., method="shortest")``) gets
    :data:`HINT_SHORTEST_SECONDS` more, and if it proves a shortest line in
    that time the hint is that line's first move (``hint.solution.optimal``
    is then True); otherwise it is the first move of the default line.
    The shortest search plays Baker's Dozen's play knobs only
    (:data:`bakersdozen.solver.SHORTEST_PLAY`); other games get the default
    line's first move.

    Parameters
    ----------
    position : Deal
        Any position: an initial layout or a game in progress (board text
        with a ``Foundations:`` line reads into one).
    rules : Rules, str or None
        The game to play the position by; None for ``position.rules``.
    time_limit : float or None
        Seconds of wall-clock time for the search; None for no limit.
    max_nodes : int or None
        Positions the search may generate; None for no limit.
    memory_mb : float
        MiB for the transposition table.
    progress : callable or None
        Called as ``progress(nodes, bytes)`` a few times a second while a
        search runs (:func:`solve`'s *progress*), *nodes* counting the
        positions of every search of this call together.

    Returns
    -------
    Hint
        ``str(hint)`` is ``"hint: 7C 1>2"``, ``"lost: no winning line from
        here"`` or ``"unknown: ..."``.

    Raises
    ------
    TypeError
        For arguments of the wrong type (as :func:`solve`).
    ArgumentError
        A ValueError: for a limit out of range (as :func:`solve`).
    RulesError
        If *rules* names no game, or *position* is not a position of it.
    """
    if not isinstance(position, Deal):
        raise TypeError(f"hint() needs a Deal, not {type(position).__name__}")
    limits = _limits(time_limit, max_nodes, memory_mb)
    time_limit = time_limit_seconds(time_limit)
    position = position_of(position, rules)
    solution = solve(position, progress=progress, **limits)  # type: ignore[arg-type]
    if (solution.verdict is Verdict.SOLVED and solution.moves and not solution.optimal
            and plays_shortest(position.rules)):
        seconds = HINT_SHORTEST_SECONDS
        if time_limit is not None:
            seconds = min(seconds, time_limit)
        shortest = solve(
            position, time_limit=seconds, max_nodes=max_nodes, memory_mb=min(memory_mb, 64.0),
            method="shortest", progress=_after(progress, solution.nodes),
        )
        if shortest.solved and shortest.optimal:
            solution = shortest
    move = solution.moves[0] if solution.verdict is Verdict.SOLVED and solution.moves else None
    return Hint(solution.verdict, move, solution)


@dataclass(frozen=True, slots=True)
class Review:
    """The answer of :func:`review`.

    Attributes
    ----------
    verdict : Verdict
        The verdict of the position after the last move played: SOLVED
        (the game can still be won), UNSOLVABLE (it was lost) or UNKNOWN.
    losing_move : int or None
        0-based index in the move list of the first move after which the
        game could no longer be won; None if the game is still winnable,
        was never winnable, or a limit left it undecided.
    alternative : tuple of Move
        When *losing_move* is known: a winning line from the position just
        before that move (its first move is a winning alternative).
    start_verdict : Verdict
        The verdict of the deal itself (UNSOLVABLE: no move lost the game,
        the deal was never winnable).
    moves : int
        Moves replayed.
    undecided : (int, int) or None
        When a limit stopped a solve during the bisection: the losing move
        lies in ``range(undecided[0], undecided[1])`` (0-based indices).
    solves : int
        Solves run.
    won : bool
        True if the moves played put every card home (the game is won).
    """

    verdict: Verdict
    losing_move: int | None
    alternative: tuple[Move, ...]
    start_verdict: Verdict
    moves: int
    undecided: tuple[int, int] | None
    solves: int
    won: bool = False

    def describe(self, played: tuple[Move, ...]) -> str:
        """The review for people, lines ending in ``\\n``; *played* is the move list reviewed."""
        if self.start_verdict is Verdict.UNSOLVABLE:
            return "the deal cannot be won: no move lost it (proven)\n"
        if self.won:
            return f"won: every card is home {_after_all(self.moves)}\n"
        if self.verdict is Verdict.SOLVED:
            return f"still winnable {_after_all(self.moves)}\n"
        if self.losing_move is not None:
            k = self.losing_move
            lines = [
                f"lost at move {k + 1}: {played[k]} (proven: no winning line after it)",
                f"winning alternative at move {k + 1}: {self.alternative[0]}",
                "a winning line from there: " + " ".join(f"[{m}]" for m in self.alternative),
            ]
            return "\n".join(lines) + "\n"
        if self.undecided is not None:
            a, b = self.undecided
            return (
                f"unknown: a limit stopped a solve; the losing move, if any, is one of "
                f"moves {a + 1}..{b}\n"
            )
        return "unknown: a limit stopped the solve of the position after the last move\n"


def _after_all(count: int) -> str:
    """``after all 5 moves``, ``after its one move``, ``with no move played``."""
    if count == 0:
        return "with no move played"
    return "after its one move" if count == 1 else f"after all {count} moves"


def _as_moves(moves: Iterable[Move | str]) -> tuple[Move, ...]:
    if isinstance(moves, (str, bytes)):
        raise TypeError(f"review() needs a list of moves, not a single {type(moves).__name__}")
    try:
        items = iter(moves)
    except TypeError:
        raise TypeError(
            f"review() needs an iterable of moves (Move or str), not {type(moves).__name__}"
        ) from None
    out = []
    for index, item in enumerate(items):
        if isinstance(item, Move):
            out.append(item)
        elif isinstance(item, str):
            try:
                out.append(Move.from_text(item))
            except ParseError as error:
                raise IllegalMoveError(f"move {index + 1} {item!r}: {error}", index) from None
        else:
            raise IllegalMoveError(f"move {index + 1} is not a Move or a str: {item!r}", index)
    return tuple(out)


def review(
    deal: Deal,
    moves: Iterable[Move | str],
    *,
    rules: Rules | str | None = None,
    time_limit: float | None = DEFAULT_TIME_LIMIT,
    max_nodes: int | None = None,
    memory_mb: float = DEFAULT_MEMORY_MB,
    progress: Progress | None = None,
) -> Review:
    """Replay a played game and find the first move after which it could not be won.

    Parameters
    ----------
    deal : Deal
        The position the game started from.
    moves : iterable of Move or str
        The moves played, complete or not, in order (legal moves only; a
        str is read with :meth:`Move.from_text`).
    rules : Rules, str or None
        The game; None for ``deal.rules``.
    time_limit, max_nodes, memory_mb
        Limits of each solve (as :func:`hint`).
    progress : callable or None
        Called as for :func:`hint`, *nodes* counting the positions of every
        solve of the review together.

    Returns
    -------
    Review

    Raises
    ------
    IllegalMoveError
        At the first move that cannot be played or read; the message names
        it (1-based) and gives the reason; ``.index`` is 0-based.
    TypeError
        If *deal* is not a Deal, *moves* is a single str or not iterable, or
        a limit has the wrong type.
    ArgumentError
        A ValueError: for a limit out of range (as :func:`solve`).
    RulesError
        If *rules* names no game, or *deal* is not a position of it.
    """
    if not isinstance(deal, Deal):
        raise TypeError(f"review() needs a Deal, not {type(deal).__name__}")
    limits = _limits(time_limit, max_nodes, memory_mb)
    deal = position_of(deal, rules)
    played = _as_moves(moves)
    # Every position of the game, checked by the independent replay.
    positions = [deal]
    for index, move in enumerate(played):
        try:
            positions.append(check(positions[-1], [move]).position)
        except IllegalMoveError as error:
            reason = str(error).split(": ", 1)[-1] if ": " in str(error) else str(error)
            raise IllegalMoveError(
                f"move {index + 1} {str(move)!r} cannot be played: {reason}", index
            ) from None
    cache: dict[int, Solution] = {}
    searched = [0]  # positions of the solves so far (the progress counts on)

    def verdict(k: int) -> Solution:
        if k not in cache:
            cache[k] = solve(positions[k], progress=_after(progress, searched[0]),
                             **limits)  # type: ignore[arg-type]
            searched[0] += cache[k].nodes
        return cache[k]

    n = len(played)
    last = verdict(n)
    start = verdict(0) if n else last
    if start.verdict is not Verdict.SOLVED or last.verdict is not Verdict.UNSOLVABLE:
        return Review(last.verdict, None, (), start.verdict, n, None, len(cache),
                      won=positions[-1].is_won)
    # positions[lo] is winnable, positions[hi] is not: bisect.
    lo, hi = 0, n
    while hi - lo > 1:
        mid = (lo + hi) // 2
        result = verdict(mid)
        if result.verdict is Verdict.SOLVED:
            lo = mid
        elif result.verdict is Verdict.UNSOLVABLE:
            hi = mid
        else:
            # Undecided in the middle: try to narrow from each side one
            # position at a time; give up with the range if that fails too.
            moved = False
            for k in (mid - 1, mid + 1):
                if lo < k < hi:
                    other = verdict(k)
                    if other.verdict is Verdict.SOLVED and k > lo:
                        lo, moved = k, True
                    elif other.verdict is Verdict.UNSOLVABLE and k < hi:
                        hi, moved = k, True
            if not moved:
                return Review(last.verdict, None, (), start.verdict, n, (lo, hi), len(cache))
    return Review(last.verdict, lo, verdict(lo).moves, start.verdict, n, None, len(cache))
