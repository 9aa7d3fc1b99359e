"""Solving: :func:`~bakersdozen.solve` turns a :class:`~bakersdozen.Deal` into a
:class:`~bakersdozen.Solution`.

This is the only library module that talks to the compiled engine
(``bakersdozen._position``, ``bakersdozen._search``).  The engine
decides the deal; this module checks the arguments and the rules, picks
the search method by name (:data:`SEARCH_METHODS`), translates between the
engine's card indices and :class:`~bakersdozen.Card`/:class:`~bakersdozen.Move` values, strips
pointless moves from the winning line, and replays it with the independent
checker before returning it.

How the engine stores positions, the column-order-invariant Zobrist key
and its collision bound, the transposition table, the restart rounds, and
each pruning rule with its proof of soundness and the rule knobs that proof
needs are described in docs/engine.md.  The engine plays by the rules of
every knob of :class:`~bakersdozen.rules.Rules` (docs/rules.md), Baker's
Dozen's play on a fast path of its own.
"""

from __future__ import annotations

import contextlib
import math
import os
import time
from collections.abc import Iterator
from contextvars import ContextVar
from collections.abc import Callable, Mapping, Sequence
from types import MappingProxyType

from . import _layers, _position, _search, _shortest
from ._reasons import STOP_REASONS
from .cards import Card
from .check import check
from .errors import ArgumentError, BakersDozenError
from .model import FOUNDATION, Deal, Move
from .rules import (
    BAKERS_DOZEN, Build, EmptyColumn, FoundationBuild, MoveUnit, Rules, RulesError, find_rules,
)
from .solution import DEFAULT_MEMORY_MB, Solution, Verdict

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing is not imported at run time (start-up)
    from typing import Final, Protocol

    from . import _disk, _parallel
else:
    Protocol = object  # the two protocols below are for the type checker only

__all__ = [
    "Verdict", "Solution", "solve", "deadlock", "legal_moves", "perft", "SEARCH_METHODS",
    "play_rules", "position_of", "time_limit_seconds", "Progress",
]


def play_rules(deal: Deal, rules: Rules | str | None) -> Rules:
    """The rules to play *deal* by: *rules* (a preset name is looked up), or ``deal.rules``.

    What every ``rules=`` argument of the package means (:func:`solve`,
    :func:`legal_moves`, :func:`bakersdozen.hint`, :func:`bakersdozen.survey`, ...).

    Raises
    ------
    RulesError
        If *rules* names no preset.
    TypeError
        If *rules* is neither None, a :class:`Rules` nor a preset name.
    """
    if rules is None:
        return find_rules(getattr(deal, "rules", BAKERS_DOZEN))
    if not isinstance(rules, (Rules, str)):
        raise TypeError(f"rules must be a Rules, a preset name or None, not {rules!r}")
    return find_rules(rules)


def position_of(deal: Deal, rules: Rules | str | None) -> Deal:
    """*deal* as a position of the game it is played by (:func:`play_rules`).

    Raises
    ------
    RulesError
        If *rules* names no preset, or the cards are not a position of that
        game (:meth:`Deal.with_rules`).
    TypeError
        If *rules* is not a Rules, a str or None.
    """
    return deal.with_rules(play_rules(deal, rules))


def _play_codes(rules: Rules) -> tuple[int, int, int, int, int]:
    """The play knobs as the engine's codes: each enum value's place in its enum.

    (build, moves, empty column, foundation build, foundation return); the
    layout knobs need nothing of the engine, which takes the columns and
    the pack from the position itself.
    """
    return (
        list(Build).index(rules.build),
        list(MoveUnit).index(rules.moves),
        list(EmptyColumn).index(rules.empty_column),
        list(FoundationBuild).index(rules.foundation_build),
        int(rules.foundation_return),
    )


def _engine_args(
    deal: Deal, rules: Rules | None = None
) -> tuple[list[list[int]], list[int], int, tuple[int, int, int, int, int]]:
    """The position as the engine takes it: card-index columns, foundation
    heights, ranks and play codes (of *rules*, default ``deal.rules``)."""
    columns = [[card.index for card in column] for column in deal.columns]
    play = _play_codes(rules or deal.rules)
    if _RATED.get() and play[2] == _KINGS_ONLY:
        play = (*play, 0)  # type: ignore[assignment]  # rule 3 without Kings off (rated_search)
    return columns, list(deal.foundations), deal.ranks, play


_KINGS_ONLY: Final = list(EmptyColumn).index(EmptyColumn.KINGS_ONLY)

#: Inside :func:`rated_search`: the engine's searches leave rule 3 with
#: the Kings left out off.
_RATED: ContextVar[bool] = ContextVar("bakersdozen_rated_search", default=False)


@contextlib.contextmanager
def rated_search() -> Iterator[None]:
    """A block whose searches are those the shipped difficulty grades were
    rated with: where empty columns take Kings only (Portuguese
    Solitaire), without rule 3 with the Kings left out (docs/engine.md,
    "Deadlocks"), which came later and changes every search's effort, the
    measure of a grade.  :func:`bakersdozen.rate` runs in one,
    so that it gives the grades the tables ship (docs/difficulty.md,
    "Cost"); other rules' searches are the same either way.  Per thread
    and task (a context variable)."""
    token = _RATED.set(True)
    try:
        yield
    finally:
        _RATED.reset(token)


def deadlock(deal: Deal, rules: Rules | str | None = None) -> tuple[Card, ...]:
    """The cards of *deal* that can never move, in card order; () if none.

    A non-empty answer proves the position lost: every card of the set has
    a lower card of its suit lying under a card of the set, and every card
    one rank higher not yet home also lies under one, so none of them can
    be the first to move (proof and the knobs it needs: docs/engine.md,
    "Deadlocks").  The engine finds the greatest such set.  Where empty
    columns take Kings only (Portuguese Solitaire) the set holds no King (a
    King may always leave for an empty column).  Under rules whose play is
    neither Baker's Dozen's nor that (*rules*, default ``deal.rules``) the
    test does not apply and the answer is ().

    Parameters
    ----------
    deal : Deal
        An initial layout or a mid-game position.
    rules : Rules, str or None
        The rules to play by (a preset name is looked up); None for
        ``deal.rules``.

    Returns
    -------
    tuple of Card

    Raises
    ------
    TypeError
        If *deal* is not a Deal, or *rules* is not a Rules, a str or None.
    RulesError
        If *rules* names no preset.
    """
    if not isinstance(deal, Deal):
        raise TypeError(f"deadlock() needs a Deal, not {type(deal).__name__}")
    return _deadlock(_engine_args(position_of(deal, rules)))


def _deadlock(args: tuple[list[list[int]], list[int], int, tuple[int, int, int, int, int]]
              ) -> tuple[Card, ...]:
    """:func:`deadlock` of a position given as :func:`_engine_args` makes it."""
    return tuple(Card.from_index(i) for i in _position.Position(*args).deadlock())


#: What a search calls to report how far it has got: ``progress(nodes, bytes)``,
#: positions generated so far and bytes the search holds.
Progress = Callable[[int, int], object]


def _after(progress: Progress | None, nodes: int) -> Progress | None:
    """*progress* for a second search that follows a first one of *nodes* positions."""
    if progress is None:
        return None
    return lambda more, held: progress(nodes + more, held)


class _Search(Protocol):
    """One search of one position, as a search method makes it."""

    def run(
        self, *, time_limit: float = ..., max_nodes: int = ..., seed: int = ...,
        progress: Progress | None = ...,
    ) -> tuple[int, list[tuple[int, int, int]], int, int, int]:
        """Decide the position: ``(status, moves, nodes, rounds, table_entries)``."""
        ...


class _SearchMethod(Protocol):
    """What :data:`SEARCH_METHODS` holds: a search class of the compiled engine.

    Made from a position (card-index columns, foundation heights, ranks,
    play codes) and a table budget in MiB, like :class:`bakersdozen._search.DepthFirstSearch`.
    """

    def __call__(
        self,
        columns: Sequence[Sequence[int]],
        foundations: Sequence[int] = ...,
        ranks: int = ...,
        play: tuple[int, int, int, int, int] | None = ...,
        *,
        memory_mb: float = ...,
    ) -> _Search: ...


def _left(start: float, time_limit: float, max_nodes: int, nodes: int) -> tuple[float, int]:
    """What a second search may spend of the limits (0: none) once a first,
    begun at *start* (``time.perf_counter()``), has spent *nodes*: at least
    a microsecond and a node, so that a limit reached stops it at once."""
    left_time = max(time_limit - (time.perf_counter() - start), 1e-6) if time_limit > 0 else 0.0
    left_nodes = max(max_nodes - nodes, 1) if max_nodes > 0 else 0
    return left_time, left_nodes


class ShortestSearch:
    """The ``"shortest"`` search method: a winning line with the fewest moves.

    First the restart depth-first search (``"dfs"``) decides the position
    and its line is shortened (:func:`simplify`); then IDA*
    (:class:`bakersdozen._shortest.ShortestSearch`, docs/engine.md,
    "Shortest lines") looks for a shorter line, with what is left of the
    limits.  After :meth:`run`, :attr:`optimal` says whether the line
    returned is proven shortest and :attr:`lower_bound` gives the proven
    least length of a winning line.

    Parameters
    ----------
    columns, foundations, ranks, play, memory_mb
        As for :class:`bakersdozen._search.DepthFirstSearch`.

    Raises
    ------
    RulesError
        If *play* is not Baker's Dozen's play (:data:`SHORTEST_PLAY`): the
        bound and the pruning rules of the IDA* are proven for it only.
    """

    def __init__(
        self,
        columns: Sequence[Sequence[int]],
        foundations: Sequence[int] = (0, 0, 0, 0),
        ranks: int = 13,
        play: tuple[int, int, int, int, int] | None = None,
        *,
        memory_mb: float = DEFAULT_MEMORY_MB,
    ) -> None:
        if play is not None and tuple(play) != _SHORTEST_CODES:
            raise RulesError(
                "the shortest search is proven for Baker's Dozen's play only "
                "(build any_suit, one card at a time, empty columns take nothing, "
                "foundations by suit, no foundation return; any layout): "
                "use method='dfs' for other rules"
            )
        self._args = ([list(c) for c in columns], list(foundations), ranks)
        self._play = play
        self._memory_mb = memory_mb
        self._dfs = _search.DepthFirstSearch(*self._args, play, memory_mb=memory_mb)
        self.optimal = False
        self.lower_bound = 0

    def run(
        self, *, time_limit: float = 0.0, max_nodes: int = 0, seed: int = 0,
        progress: Progress | None = None,
    ) -> tuple[int, list[tuple[int, int, int]], int, int, int]:
        """Find a shortest line: ``(status, moves, nodes, rounds, table_entries)``.

        *status* is that of the depth-first search (SOLVED, UNSOLVABLE or a
        limit); when SOLVED, *moves* is the IDA* line if it finished, else
        the depth-first search's shortened line (then :attr:`optimal` is
        False unless that line meets the bound).
        """
        start = time.perf_counter()
        status, raw, nodes, rounds, entries = self._dfs.run(
            time_limit=time_limit, max_nodes=max_nodes, seed=seed, progress=progress
        )
        del self._dfs
        if status != _search.SOLVED:
            return status, raw, nodes, rounds, entries
        raw = _shorten_raw((*self._args, self._play or _SHORTEST_CODES), raw)
        left_time, left_nodes = _left(start, time_limit, max_nodes, nodes)
        ida = _shortest.ShortestSearch(*self._args, memory_mb=min(self._memory_mb, 1024.0))
        found, line, ida_nodes, bound, _iterations = ida.run(
            time_limit=left_time, max_nodes=left_nodes, upper=len(raw),
            progress=_after(progress, nodes),
        )
        del ida
        if found == _shortest.UNSOLVABLE:  # pragma: no cover  (the dfs line wins)
            raise BakersDozenError("internal error: IDA* found no line where one wins")
        if found == _shortest.FOUND:
            raw = line
        self.optimal = found in (_shortest.FOUND, _shortest.BOUND_MET) or bound >= len(raw)
        self.lower_bound = len(raw) if self.optimal else bound
        return status, raw, nodes + ida_nodes, rounds, entries


class ProofSearch:
    """The ``"proof"`` search method: the proof phase alone, from the start.

    One complete depth-first search in the foundation-depth order, with the
    transposition table, the dead marks and the pruning rules, and no
    restart rounds before it (``DepthFirstSearch.run(proof_share=0)``,
    docs/engine.md, "The proof phase").  Its verdicts are those of
    ``"dfs"``; it is the quickest way to prove a deal unsolvable (deal
    10242: 256 million positions, about a minute, where ``"dfs"`` needs
    362 million) and a slow way to win a hard winnable one, whose win the
    restart rounds find by a lucky order.  The table should hold the
    deal's reachable positions (16 bytes each): give it *memory_mb*.

    Parameters and errors are those of
    :class:`bakersdozen._search.DepthFirstSearch`: card-index columns,
    foundation heights, the pack's ranks, the play codes and *memory_mb*
    (MiB for the whole search); ValueError for a position that is not one
    of the game or *memory_mb* out of range, MemoryError if the first
    allocation fails.
    """

    def __init__(
        self,
        columns: Sequence[Sequence[int]],
        foundations: Sequence[int] = (0, 0, 0, 0),
        ranks: int = 13,
        play: tuple[int, int, int, int, int] | None = None,
        *,
        memory_mb: float = DEFAULT_MEMORY_MB,
    ) -> None:
        self._dfs = _search.DepthFirstSearch(
            [list(c) for c in columns], list(foundations), ranks, play, memory_mb=memory_mb
        )

    def run(
        self, *, time_limit: float = 0.0, max_nodes: int = 0, seed: int = 0,
        progress: Progress | None = None,
    ) -> tuple[int, list[tuple[int, int, int]], int, int, int]:
        """Decide the position: ``(status, moves, nodes, rounds, table_entries)``.

        *seed* other than 0 perturbs the order's ties.
        """
        return self._dfs.run(
            time_limit=time_limit, max_nodes=max_nodes, seed=seed, proof_share=0.0,
            progress=progress,
        )


#: Why the ``"layers"`` method refuses rules whose play is not one it rests on
#: (:func:`plays_layers`).
LAYERS_REFUSAL: Final = (
    "the layered search rests on Baker's Dozen's play (build any_suit, one card "
    "at a time, empty columns take nothing, foundations by suit, no foundation "
    "return; any layout) or the same with empty columns that take Kings only "
    "(Portuguese Solitaire's): use method='proof' or 'dfs' for other rules"
)


class LayersSearch:
    """The ``"layers"`` search method: every reachable position, one layer at a time.

    :class:`bakersdozen._layers.LayeredSearch` (docs/engine.md, "The
    layered search"): the positions with the same foundations and the same
    dealt cards still in place form a layer; no move goes back to an
    earlier layer, so the layers are expanded in order of progress and each
    is freed once expanded.  It holds only the layers not yet expanded,
    stored exactly (two bits a moved card), not every position it has
    seen: the quickest and leanest proof that a deal is unsolvable
    (deal 10242: 64 million positions in about 30 s, 91 MB for its layers, where
    ``"proof"`` needs about a minute and 1.6 GB).  Its verdict is a full
    enumeration under the pruning rules, with no hash keys to collide.

    It is a slow way to win a deal: it expands every position of the early
    layers before any of the later ones, and a winnable deal's layers are
    wide (deal 24 runs out of 1 GiB).  When it does reach a won position,
    its winning line is traced back through a record it keeps of the
    positions it expanded (docs/engine.md, "Winning lines from the
    layers"): in memory, within *memory_mb* (when the record outgrows it,
    it is let go, and the default search, ``"dfs"``, finds the line with
    what is left of the limits); on disk, in the work directory (in
    parallel tasks, each task's kept file of its own).

    With *work_dir*, the layers not being expanded are kept in files of
    that directory instead (:class:`bakersdozen._disk.DiskLayers`,
    docs/engine.md, "The layered search on disk"): *memory_mb* then bounds
    the layers being expanded and the files' buffers, *disk_mb* the files,
    and a stopped run goes on with *resume*.

    Parameters and errors are those of
    :class:`bakersdozen._search.DepthFirstSearch`; *memory_mb* bounds the
    layers held at once.  RulesError for play other than Baker's Dozen's
    (:data:`SHORTEST_PLAY`; Good Measure plays it) or Portuguese
    Solitaire's (the same, with empty columns that take Kings only):
    :func:`plays_layers`.
    *work_dir*, *disk_mb*, *resume* and *line_record* as for :func:`solve`
    (ArgumentError for a work directory that cannot be used).
    """

    def __init__(
        self,
        columns: Sequence[Sequence[int]],
        foundations: Sequence[int] = (0, 0, 0, 0),
        ranks: int = 13,
        play: tuple[int, int, int, int, int] | None = None,
        *,
        memory_mb: float = DEFAULT_MEMORY_MB,
        work_dir: str | os.PathLike[str] | None = None,
        disk_mb: float | None = None,
        resume: bool = False,
        jobs: int | None = None,
        scheduler: object = None,
        line_record: bool = True,
    ) -> None:
        if play is not None and tuple(play) not in _LAYERS_CODES:
            raise RulesError(LAYERS_REFUSAL)
        self._args = ([list(c) for c in columns], list(foundations), ranks, play)
        self._memory_mb = memory_mb
        self._layers: _layers.LayeredSearch | _disk.DiskLayers | _parallel.ParallelLayers
        self._close: Callable[[], object] | None = None
        engine_args = (*self._args[:3], play or _SHORTEST_CODES)
        if work_dir is None:
            self._layers = _layers.LayeredSearch(*self._args, memory_mb=memory_mb)
        elif jobs is None and scheduler is None and not (resume and _is_parallel(work_dir)):
            from . import _disk

            self._layers = _disk.DiskLayers(
                engine_args, memory_mb=memory_mb, work_dir=work_dir, disk_mb=disk_mb,
                resume=resume, line_record=line_record,
            )
        else:
            self._layers = _parallel_layers(engine_args, memory_mb, work_dir, disk_mb, resume,
                                            jobs, scheduler, line_record)
            self._close = self._layers.close_executor
        #: what the layered search used (:attr:`bakersdozen._layers.LayeredSearch.stats`), after :meth:`run`
        self.stats: dict[str, int] = {}
        #: the nodes of the checkpoint a resumed run on disk went on from
        #: (earlier runs generated them), after :meth:`run`; 0 for a fresh run
        self.resumed_nodes = 0
        #: True after :meth:`run` when the layers reached a won position but
        #: kept no line, and the default search found none within the limits
        self.won_without_line = False

    @property
    def layer_progress(self) -> tuple[int, int] | None:
        """``(value, most)`` from :attr:`stats` after :meth:`run`: the progress
        value of the layers expanded last and that of a won position
        (``Solution.layer_progress``); None before, or when the search made
        no layer (the position was won already)."""
        if "progress" not in self.stats or "most_progress" not in self.stats:
            return None
        most = int(self.stats["most_progress"])
        if self.won_without_line:  # the enumeration got all the way: a won position
            return most, most
        return int(self.stats["progress"]), most

    def run(
        self, *, time_limit: float = 0.0, max_nodes: int = 0, seed: int = 0,
        progress: Progress | None = None,
    ) -> tuple[int, list[tuple[int, int, int]], int, int, int]:
        """Decide the position: ``(status, moves, nodes, rounds, positions)``.

        *seed* only reaches the default search that finds the line of a
        winnable position when the layers kept none.
        """
        start = time.perf_counter()
        try:
            status, raw, nodes, rounds, stored = self._layers.run(
                time_limit=time_limit, max_nodes=max_nodes, progress=progress
            )
        finally:
            if self._close is not None:
                self._close()
        self.stats = self._layers.stats
        # nodes before a resumed run's checkpoint were spent by earlier runs
        self.resumed_nodes = getattr(self._layers, "resumed_nodes", 0)
        spent = nodes - self.resumed_nodes
        del self._layers  # its memory goes back before the line is looked for
        if status != _search.SOLVED or raw or not any(self._args[0]):
            # the line traced back through the layers (or the position is won)
            return status, raw, nodes, rounds, stored
        # a won position was reached, and the layers kept no line (their
        # record outgrew the memory budget): the default search finds one,
        # if a budget is left
        if max_nodes > 0 and spent >= max_nodes:
            self.won_without_line = True
            return _search.NODE_LIMIT, [], nodes, rounds, stored
        left_time, left_nodes = _left(start, time_limit, max_nodes, spent)
        dfs = _search.DepthFirstSearch(*self._args, memory_mb=self._memory_mb)
        status, raw, more, more_rounds, _entries = dfs.run(
            time_limit=left_time, max_nodes=left_nodes, seed=seed,
            progress=_after(progress, nodes),
        )
        if status == _search.UNSOLVABLE:  # pragma: no cover  (the layers reached a win)
            raise BakersDozenError("internal error: the layered search won where the default search cannot")
        self.won_without_line = status != _search.SOLVED
        return status, raw, nodes + more, rounds + more_rounds, stored


def remove_decided_work_dir(work_dir: str | os.PathLike[str]) -> bool:
    """Delete the work directory of a decided search: its manifest (all
    that such a search leaves; the solution says what it does), then the
    directory if nothing else is in it.  Whether it is gone; a directory
    that holds other files, or cannot be removed, is left as it is."""
    from . import _disk

    try:
        os.unlink(os.path.join(work_dir, _disk.MANIFEST))
    except FileNotFoundError:
        pass
    except OSError:
        return False
    try:
        os.rmdir(work_dir)
    except OSError:
        return False
    return True


def _is_parallel(work_dir: str | os.PathLike[str]) -> bool:
    from . import _parallel

    return _parallel.is_parallel(work_dir)


def _parallel_layers(
    args: tuple[list[list[int]], list[int], int, tuple[int, int, int, int, int]],
    memory_mb: float, work_dir: str | os.PathLike[str], disk_mb: float | None, resume: bool,
    jobs: int | None, scheduler: object, line_record: bool = True,
) -> _parallel.ParallelLayers:
    """The disk search in parallel tasks: *jobs* threads of this process, or
    tasks on the Dask cluster of *scheduler* (an address or a ``distributed.Client``)."""
    from . import _parallel

    if scheduler is None:
        return _parallel.ParallelLayers(args, memory_mb=memory_mb, work_dir=work_dir,
                                        jobs=jobs or 1, disk_mb=disk_mb, resume=resume,
                                        line_record=line_record)
    from ._dask import DaskExecutor, connect_address, is_dask_client

    executor = (DaskExecutor(scheduler) if is_dask_client(scheduler)
                else connect_address(str(scheduler)))
    try:
        executor.wait_for_workers(1, timeout=60)  # tasks would wait for one for ever
        if jobs is None:
            jobs = executor.threads
        search = _parallel.ParallelLayers(args, memory_mb=memory_mb, work_dir=work_dir,
                                          jobs=jobs, disk_mb=disk_mb, resume=resume,
                                          line_record=line_record, executor=executor)
    except BaseException:
        executor.close()
        raise
    search.close_executor = executor.close
    return search


#: The search methods :func:`~bakersdozen.solve` can use, by name.  ``"dfs"``: the
#: portfolio depth-first search (restart rounds, then a proof phase) with a
#: transposition table (docs/engine.md); it decides a deal (a win, or a
#: proof that none exists) and its winning lines are not the shortest.
#: ``"shortest"``: ``ShortestSearch``, the same decision, then IDA*
#: for a winning line with the fewest moves, proven minimal (docs/engine.md,
#: "Shortest lines"); Baker's Dozen's play only (:data:`SHORTEST_PLAY`).
#: ``"proof"``: ``ProofSearch``, the proof phase of ``"dfs"`` alone,
#: from the start.  ``"layers"``: ``LayersSearch``, every reachable
#: position layer by layer: the quickest and leanest proofs of unsolvable
#: deals, a slow way to win one (the line traced back through its record of
#: the positions expanded).
SEARCH_METHODS: Final[Mapping[str, _SearchMethod]] = MappingProxyType({
    "dfs": _search.DepthFirstSearch,
    "shortest": ShortestSearch,
    "proof": ProofSearch,
    "layers": LayersSearch,
})

#: The windowed shortening of a default line (docs/engine.md, "Shortest
#: lines"): from each position of the line, every move sequence of up to
#: WINDOW moves, at most WINDOW_BUDGET positions, is tried for a shortcut.
WINDOW: Final = 3
WINDOW_BUDGET: Final = 25


#: The play knobs the ``"shortest"`` method and the windowed shortening
#: play (those of Baker's Dozen; the layout knobs may differ): the lower
#: bound and the pruning rules of docs/engine.md, "Shortest lines", are
#: proven for these.  Other rules get the plain bound (cards not home).
SHORTEST_PLAY: Final = MappingProxyType({
    knob: getattr(BAKERS_DOZEN, knob)
    for knob in ("build", "moves", "empty_column", "foundation_build", "foundation_return")
})
_SHORTEST_CODES: Final = _play_codes(BAKERS_DOZEN)


#: The play the ``"layers"`` method rests on (docs/engine.md, "The layered
#: search", Needs): Baker's Dozen's (:data:`SHORTEST_PLAY`), and the same
#: with empty columns that take Kings only (Portuguese Solitaire's).
_LAYERS_CODES: Final = frozenset({
    _SHORTEST_CODES, _play_codes(BAKERS_DOZEN.replace(empty_column=EmptyColumn.KINGS_ONLY)),
})


def plays_layers(rules: Rules) -> bool:
    """Whether the ``"layers"`` method plays *rules*: Baker's Dozen's play
    knobs, or the same with empty columns that take Kings only (any layout:
    Good Measure, Portuguese Solitaire)."""
    return _play_codes(rules) in _LAYERS_CODES


def plays_shortest(rules: Rules) -> bool:
    """Whether *rules* play as :data:`SHORTEST_PLAY` says (the ``"shortest"``
    method and the windowed shortening are proven for these only)."""
    return _play_codes(rules) == _SHORTEST_CODES


def _root_bound(deal: Deal, args: tuple[list[list[int]], list[int], int,
                                        tuple[int, int, int, int, int]]) -> int:
    """A proven lower bound on the moves of a winning line from *deal*.

    *args* is ``_engine_args(deal)``.  Under :data:`SHORTEST_PLAY` the bound
    of docs/engine.md ("Shortest lines"); under other rules the cards not
    yet home, each of which needs at least its own move to a foundation.
    """
    if tuple(args[3]) == _SHORTEST_CODES:
        return int(_shortest.root_bound(*args[:3]))
    return deal.cards_left


def _to_move(raw: tuple[int, int, int]) -> Move:
    card, source, target = raw
    return Move(Card.from_index(card), source + 1, FOUNDATION if target < 0 else target + 1)


def legal_moves(deal: Deal, *, rules: Rules | str | None = None) -> tuple[Move, ...]:
    """Every legal move in *deal*, from the compiled move generator.

    Parameters
    ----------
    deal : Deal
    rules : Rules, str or None
        The rules to play by (a preset name is looked up); None for
        ``deal.rules``.

    Returns
    -------
    tuple of Move
        Columns left to right; for each top card, its foundation move first,
        then its moves onto other columns.  No pruning: every move the
        rules (docs/rules.md) allow.

    Raises
    ------
    TypeError
        If *deal* is not a Deal.
    RulesError
        If *rules* names no preset.
    """
    if not isinstance(deal, Deal):
        raise TypeError(f"legal_moves() needs a Deal, not {type(deal).__name__}")
    position = position_of(deal, rules)
    return tuple(
        _to_move(m) for m in _position.Position(*_engine_args(position)).legal_moves()
    )


def perft(deal: Deal, depth: int, *, rules: Rules | str | None = None) -> int:
    """Move sequences of length *depth* from *deal*, from the compiled move generator.

    Perft (the chess programmers' word): every legal move counts, no
    pruning, positions may repeat; a move to the foundations is one move
    (the first pile that takes the card, docs/rules.md).  The benchmarks
    and tests compare it with independent generators.

    Parameters
    ----------
    deal : Deal
    depth : int
        Moves per sequence, 0 to ``MAX_PERFT_DEPTH`` (0 counts the
        empty sequence: 1).
    rules : Rules, str or None
        The rules to play by (a preset name is looked up); None for
        ``deal.rules``.

    Returns
    -------
    int
        The number of sequences (the engine counts in 64 bits).

    Raises
    ------
    TypeError
        If *deal* is not a Deal, or *depth* is not an int (a bool is not).
    ArgumentError
        A ValueError: if *depth* is outside 0..MAX_PERFT_DEPTH.
    RulesError
        If *rules* names no preset, or the deal is not a position of it.
    """
    if not isinstance(deal, Deal):
        raise TypeError(f"perft() needs a Deal, not {type(deal).__name__}")
    if isinstance(depth, bool) or not isinstance(depth, int):
        raise TypeError(f"perft() depth must be an int, not {depth!r}")
    if not 0 <= depth <= MAX_PERFT_DEPTH:
        raise ArgumentError(f"perft() depth must be in 0..{MAX_PERFT_DEPTH}, not {depth!r}")
    return _position.Position(*_engine_args(position_of(deal, rules))).perft(depth)


#: Largest perft depth: deeper counts would never finish (a depth-7 count
#: of a deal is about 35 million) and would overflow 64 bits, and each level
#: takes a few KiB of the C stack (a depth of a million crashed the process).
MAX_PERFT_DEPTH: Final = 32


#: Largest accepted max_nodes (the engine counts in 64 bits; it also stops
#: by itself after 2**40 positions, some days of search).
MAX_NODES_LIMIT: Final = 2**64 - 1

#: Largest accepted memory_mb: 1 TiB.
MAX_MEMORY_MB: Final = 2**20

#: time_limit must be below this many seconds (some 30 million years).
MAX_TIME_LIMIT: Final = 1e15


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
            raise ArgumentError(f"{name} must be in 1..2**64-1, not {value!r}")
        return
    if name == "memory_mb":
        if not (1 <= value <= MAX_MEMORY_MB):  # False for nan; exact for huge ints
            raise ArgumentError(f"memory_mb must be in 1..2**20 (MiB), not {value!r}")
        return
    if value == math.inf:  # no limit, as None (and the command line's "inf")
        return
    try:
        finite = math.isfinite(value) and value < MAX_TIME_LIMIT
    except OverflowError:
        finite = False
    if not finite or value <= 0:
        raise ArgumentError(
            f"{name} must be a positive number below 1e15, inf or None (no limit), not {value!r}"
        )


def time_limit_seconds(value: float | None) -> float | None:
    """A time limit as the package keeps it: None for no limit (``inf`` is None).

    Raises
    ------
    TypeError
        If *value* is not a number or None.
    ArgumentError
        If it is not positive, is nan, or is finite and not below 1e15.
    """
    _check_limit("time_limit", value)
    return None if value is None or value == math.inf else value


#: Largest accepted disk_mb: 2**30 MiB (1 PiB).
MAX_DISK_MB: Final = 2**30


#: Most jobs a search on disk runs at once.
MAX_JOBS: Final = 4096


def _parallel_options(work_dir: object, jobs: object, scheduler: object) -> None:
    """Check *jobs* and *scheduler* (the disk search in parallel tasks)."""
    if jobs is not None and (isinstance(jobs, bool) or not isinstance(jobs, int)):
        raise TypeError(f"jobs must be an int or None, not {jobs!r}")
    if scheduler is not None and not isinstance(scheduler, str):
        from ._dask import is_dask_client

        if not is_dask_client(scheduler):
            raise TypeError(f"scheduler must be an address (str), a distributed.Client "
                            f"or None, not {type(scheduler).__name__}")
    if work_dir is None:
        for name, given in (("jobs", jobs is not None), ("scheduler", scheduler is not None)):
            if given:
                raise ArgumentError(f"{name}: only a search with a work_dir uses it "
                                    f"(its tasks share the directory)")
    if jobs is not None and not 1 <= jobs <= MAX_JOBS:
        raise ArgumentError(f"jobs must be in 1..{MAX_JOBS}, not {jobs!r}")
    if isinstance(scheduler, str) and not scheduler.strip():
        raise ArgumentError("scheduler: an empty address")


def _layer_options(
    method: str, work_dir: object, disk_mb: object, resume: object, line_record: object = True,
) -> tuple[str | os.PathLike[str], float | None, bool, bool] | None:
    """The arguments of the disk search, checked: ``(work_dir, disk_mb,
    resume, line_record)``, or None without *work_dir*."""
    if work_dir is not None and not isinstance(work_dir, (str, os.PathLike)):
        raise TypeError(f"work_dir must be a path or None, not {work_dir!r}")
    if disk_mb is not None and (isinstance(disk_mb, bool)
                                or not isinstance(disk_mb, (int, float))):
        raise TypeError(f"disk_mb must be a number or None, not {disk_mb!r}")
    if not isinstance(resume, bool):
        raise TypeError(f"resume must be a bool, not {resume!r}")
    if not isinstance(line_record, bool):
        raise TypeError(f"line_record must be a bool, not {line_record!r}")
    if work_dir is None:
        for name, given in (("disk_mb", disk_mb is not None), ("resume", resume),
                            ("line_record", not line_record)):
            if given:
                raise ArgumentError(f"{name}: only a search with a work_dir uses it")
        return None
    if method != "layers":
        raise ArgumentError(
            f"work_dir: only method='layers' keeps its work on disk, not {method!r}")
    if os.fspath(work_dir) in ("", b""):
        raise ArgumentError("work_dir: an empty path names no directory")
    if disk_mb is not None and not 0 < disk_mb <= MAX_DISK_MB:  # False for nan
        raise ArgumentError(f"disk_mb must be in (0, 2**30] (MiB), not {disk_mb!r}")
    assert isinstance(work_dir, (str, os.PathLike))
    assert disk_mb is None or isinstance(disk_mb, (int, float))
    return work_dir, None if disk_mb is None else float(disk_mb), resume, line_record


def solve(
    deal: Deal,
    time_limit: float | None = 10.0,
    max_nodes: int | None = None,
    memory_mb: float = DEFAULT_MEMORY_MB,
    seed: int = 0,
    *,
    verify: bool = True,
    rules: Rules | str | None = None,
    method: str = "dfs",
    progress: Progress | None = None,
    certificate: str | os.PathLike[str] | None = None,
    work_dir: str | os.PathLike[str] | None = None,
    disk_mb: float | None = None,
    resume: bool = False,
    jobs: int | None = None,
    scheduler: str | object | None = None,
    line_record: bool = True,
) -> Solution:
    """Decide whether *deal* can be won, and how.

    Parameters
    ----------
    deal : Deal
        An initial layout or a mid-game position.
    time_limit : float or None
        Seconds of wall-clock time; ``None`` or ``inf`` for no limit.  Honoured to
        within a few milliseconds (the engine looks at the clock every 1024
        positions).
    max_nodes : int or None
        Positions generated (moves made by the search); ``None`` for no
        limit.  Honoured exactly.
    memory_mb : float
        MiB (2**20 bytes) for the whole search, 1 to 2**20: the
        transposition table (up to three quarters; it starts small and
        grows with its load), the search path with its move lists, and the
        Tarjan stack.  A portfolio round whose path outgrows it just ends;
        the proof phase then stops with the reason ``"memory_mb"``.  The
        interpreter's own memory (about 20 MiB) comes on top.
    seed : int
        0 for the default move order; another value selects other
        tie-breaks (a different, equally valid search).  With no time
        limit, or with *max_nodes* given, the result (verdict, nodes,
        moves) repeats exactly for a given deal and arguments unless the
        time limit stops the search.  With a time limit and no
        *max_nodes*, the portfolio hands over to the proof phase at 80 %
        of the time limit by the clock, so a search that runs past 80 % of
        the limit may differ from run to run, whatever stops it.
    verify : bool
        Replay a winning line with the independent checker
        (:func:`bakersdozen.check`) before returning it (default).
    rules : Rules, str or None
        The rules to play by (a preset name is looked up with
        :func:`~bakersdozen.find_rules`); None (the default) for
        ``deal.rules``.
    method : str
        The search, by name: a key of :data:`~bakersdozen.solver.SEARCH_METHODS`: ``"dfs"``,
        the portfolio depth-first search of docs/engine.md, or
        ``"shortest"``, the same followed by IDA* for a line with the
        fewest moves (the limits cover both; a line cut short by a limit is
        the depth-first one, with ``Solution.optimal`` False and the
        proven ``Solution.lower_bound``).  ``"shortest"`` plays
        Baker's Dozen's play knobs only (:data:`~bakersdozen.solver.SHORTEST_PLAY`; any layout).
        ``"proof"``: the complete search alone, without the restart rounds
        (``ProofSearch``).  ``"layers"``: every reachable position,
        layer by layer (``LayersSearch``): the quickest and leanest
        proof of an unsolvable deal, a slow way to win one (its line traced
        back through the positions it expanded); Baker's Dozen's play knobs,
        or the same with empty columns that take Kings only
        (:func:`~bakersdozen.solver.plays_layers`: Portuguese Solitaire).
    progress : callable or None
        Called as ``progress(nodes, bytes)`` while the search runs, at most
        five times a second (from the thread that called :func:`solve`):
        the positions generated so far (all phases together) and the bytes
        the search holds.  The engine calls it when it looks for signals,
        so it costs the search nothing otherwise; what it raises, solve()
        raises (the search stops).  The command line draws its progress
        line with it.
    certificate : str, os.PathLike or None
        A file to write, when the verdict is unsolvable, a certificate of it
        that :func:`bakersdozen.verify_certificate` checks without the
        engine (docs/certificates.md); nothing is written for another
        verdict.  Baker's Dozen's play only (Good Measure too).  Writing it
        enumerates the positions layer by layer in Python, after the search
        and outside its limits.
    work_dir : str, os.PathLike or None
        ``"layers"`` only: a directory for the layers not being expanded
        (docs/engine.md, "The layered search on disk"); None (the default)
        keeps them in memory.  *memory_mb* then bounds the layers being
        expanded and the files' buffers (deal 10242: 9 MiB where the search
        in memory takes 91 MB; in one process the largest layer must fit,
        or the search stops with the reason ``"memory_mb"``; with *jobs* a
        layer larger than a task's share is expanded in shards), the files
        take the rest.  The directory
        is made if missing, and must be empty unless *resume* is given.
        After the search it holds only its manifest (the outcome and the
        counts); after a stop, the checkpoint to go on from.
    disk_mb : float or None
        With *work_dir*: MiB (2**20 bytes) the work directory's files may
        hold, a positive number; None (the default) for as much as the disk
        has.  A search that would pass it, or finds the disk full, stops
        with the reason ``"disk"``.
    resume : bool
        With *work_dir*: go on with the run the directory holds, from its
        last checkpoint (a run stopped by a limit, Ctrl-C, a full disk or
        a killed process); the verdict and the counts (``nodes``) are
        those of a run never stopped (``Solution.resumed_nodes`` says how
        many of the nodes earlier runs generated), and *time_limit* and
        *max_nodes* bound this run alone.  A finished run gives its outcome
        again; an empty directory starts a run.
    jobs : int or None
        With *work_dir*: expand the parts of each progress value in *jobs*
        tasks at once (docs/engine.md, "Parallel expansion"), 1 to 4096:
        threads of this process, or tasks on the cluster of *scheduler*.
        *memory_mb* is shared by them (each task has ``memory_mb / jobs``);
        a layer larger than a task's share is cut into shards by its
        positions and expanded in rounds of tasks (docs/engine.md, "A
        layer in shards"); only a layer that would need more shards than
        a task's memory has buffers for (4096 at most) stops the search
        with ``memory_mb``.
        The verdict and the counts are those of one process.  None (the
        default): one process, or with *scheduler* the cluster's threads
        when the search starts.  A run in parallel tasks resumes with any
        *jobs*; a run of one process resumes without *jobs*.
    scheduler : str, distributed.Client or None
        With *work_dir*: run the tasks on the Dask cluster of this
        scheduler (``"tcp://host:8786"``, or a connected
        ``distributed.Client``; docs/cluster.md, "One deal on a cluster").
        Every worker must see *work_dir* under the same path (a shared or
        network filesystem); each task writes only its own files there.
        Needs ``distributed`` (``pip install "bakersdozen[dask]"``).
    line_record : bool
        With *work_dir*: keep the record of the positions expanded that a
        won position's winning line is traced back through (True, the
        default; about 4 bytes a position stored, on disk until the run
        ends).  False keeps none, for a run whose disk should hold only the
        layers still to expand (an unsolvable verdict needs no record): a
        win is then given its line by the default search, ``"dfs"``, with
        what is left of the limits, and is unknown if that finds none (a
        resume gives the win back and looks again).  A run resumed with
        False lets go of the record it kept; one begun with False never
        gets it back (docs/engine.md, "Without the line record").

    Returns
    -------
    Solution

    Raises
    ------
    TypeError
        For an argument of the wrong type.
    ArgumentError
        A ValueError: for an argument out of range, or an unknown *method*
        (the message names the argument, and lists the methods).
    RulesError
        A ValueError: if *rules* names no preset, the deal's cards are not
        a position of that game, or *method* is ``"shortest"``, or a
        *certificate* is asked for, and the rules' play knobs are not
        Baker's Dozen's, or *method* is ``"layers"`` and they are neither
        those nor Portuguese Solitaire's (:func:`~bakersdozen.solver.plays_layers`).
    ArgumentError
        Also for *work_dir*, *disk_mb* or *resume* with a method other than
        ``"layers"``, *disk_mb*, *resume* or ``line_record=False`` without
        *work_dir*, and a work
        directory that is not empty without *resume*, holds the search of
        another position, rules or format version, is damaged, or is in
        use by another search (one search at a time on a work directory).
    OSError
        If a file of the work directory cannot be made, read or written
        (a full disk is not an error: the reason ``"disk"``).
    bakersdozen.survey.cluster.ClusterError
        With *scheduler*: if it cannot be reached, or no worker joins it
        within a minute.
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
    time_limit = time_limit_seconds(time_limit)
    _check_limit("max_nodes", max_nodes, integral=True)
    _check_limit("memory_mb", memory_mb, optional=False)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"seed must be an int, not {seed!r}")
    if not 0 <= seed < 2**64:
        raise ArgumentError(f"seed must be in 0..2**64-1, not {seed!r}")
    if not isinstance(verify, bool):
        raise TypeError(f"verify must be a bool, not {verify!r}")
    if not isinstance(method, str):
        raise TypeError(f"method must be a str, not {method!r}")
    if progress is not None and not callable(progress):
        raise TypeError(f"progress must be callable or None, not {progress!r}")
    try:
        search_method = SEARCH_METHODS[method]
    except KeyError:
        raise ArgumentError(
            f"method: unknown search method {method!r}: the methods are "
            f"{', '.join(SEARCH_METHODS)}"
        ) from None
    layer_options = _layer_options(method, work_dir, disk_mb, resume, line_record)
    _parallel_options(work_dir, jobs, scheduler)
    deal = position_of(deal, rules)
    if certificate is not None:
        if not isinstance(certificate, (str, os.PathLike)):
            raise TypeError(f"certificate must be a path, not {certificate!r}")
        from .verify import require_covered

        require_covered(deal.rules)

    start = time.perf_counter()
    args = _engine_args(deal)
    search: _Search
    if layer_options is None:
        search = search_method(*args, memory_mb=float(memory_mb))
    else:
        work_dir, disk_mb, resume, line_record = layer_options
        search = LayersSearch(*args, memory_mb=float(memory_mb), work_dir=work_dir,
                              disk_mb=disk_mb, resume=resume, jobs=jobs, scheduler=scheduler,
                              line_record=line_record)
    status, raw, nodes, rounds, _entries = search.run(
        time_limit=float(time_limit or 0.0),
        max_nodes=int(max_nodes or 0),
        seed=seed,
        progress=progress,
    )
    shortest = search if isinstance(search, ShortestSearch) else None
    layered = search if isinstance(search, LayersSearch) else None
    resumed = layered.resumed_nodes if layered is not None else 0
    reached = layered.layer_progress if layered is not None else None
    del layered
    del search  # the table's memory goes back at once
    if status == _search.SOLVED:
        try:
            if shortest is not None:
                moves = tuple(_to_move(m) for m in raw)
            else:
                moves = tuple(_to_move(m) for m in _shorten_raw(args, raw))
        except ValueError:
            moves = ()
        if (not moves and deal.cards_left) or (verify and not check(deal, moves).won):
            raise BakersDozenError("internal error: the engine's line does not win")
        if shortest is not None:
            optimal, bound = shortest.optimal, shortest.lower_bound
        else:
            bound = _root_bound(deal, args)
            optimal = len(moves) <= bound
        seconds = time.perf_counter() - start
        return Solution(Verdict.SOLVED, moves, nodes, seconds, None, rounds, optimal, bound,
                        resumed_nodes=resumed)
    seconds = time.perf_counter() - start
    if status == _search.UNSOLVABLE:
        if certificate is not None:
            from .certificate import write_certificate

            write_certificate(deal, certificate)
        return Solution(
            Verdict.UNSOLVABLE, (), nodes, seconds, None, rounds, deadlock=_deadlock(args),
            resumed_nodes=resumed,
        )
    return Solution(Verdict.UNKNOWN, (), nodes, seconds, STOP_REASONS[status], rounds,
                    resumed_nodes=resumed, layer_progress=reached)


def _decide(deal: Deal, max_nodes: int, memory_mb: float) -> tuple[Verdict, int]:
    """The verdict of the default search on *deal* (by ``deal.rules``) and the
    positions it generated, with seed 0, no time limit and at most
    *max_nodes* positions: what :func:`solve` answers with those arguments,
    without building, shortening or checking a winning line.  For callers
    that need only the verdict, many times over (:func:`bakersdozen.rate`).
    """
    return _decide_args(_engine_args(deal), max_nodes, memory_mb)


def _decide_args(
    args: tuple[list[list[int]], list[int], int, tuple[int, int, int, int, int]],
    max_nodes: int, memory_mb: float,
) -> tuple[Verdict, int]:
    """:func:`_decide` of a position given as :func:`_engine_args` makes it."""
    search = _search.DepthFirstSearch(*args, memory_mb=float(memory_mb))
    status, _raw, nodes, _rounds, _entries = search.run(
        time_limit=0.0, max_nodes=max_nodes, seed=0, progress=None)
    del search
    if status == _search.SOLVED:
        return Verdict.SOLVED, nodes
    if status == _search.UNSOLVABLE:
        return Verdict.UNSOLVABLE, nodes
    return Verdict.UNKNOWN, nodes


def _verdicts_after(
    deal: Deal, skip: Move, max_nodes: int, memory_mb: float
) -> tuple[int, list[tuple[Move, Verdict, int]]]:
    """What is known after each legal move of *deal* other than *skip*: the
    number of legal moves (*skip* included) and, for each other move, in
    :func:`legal_moves` order, ``(move, verdict, positions searched)``:
    SOLVED with 0 when the move wins at once, UNSOLVABLE with 0 when the
    deadlock test proves the position after it lost, else :func:`_decide`
    of the position after it.

    The moves are made and taken back on one engine position instead of
    building a :class:`Deal` after each (:func:`bakersdozen.rate` calls
    this at every position of a line; building them was most of its time).
    The searches get the same positions as :func:`_decide` of those Deals,
    so the verdicts and counts are the same.
    """
    args = _engine_args(deal)
    ranks, play = args[2], args[3]
    engine = _position.Position(*args)
    raws = engine.legal_moves()
    found: list[tuple[Move, Verdict, int]] = []
    for raw in raws:
        move = _to_move(raw)
        if move == skip:
            continue
        engine.make(raw)
        try:
            if engine.is_won:
                found.append((move, Verdict.SOLVED, 0))
            elif engine.deadlock():
                found.append((move, Verdict.UNSOLVABLE, 0))
            else:
                verdict, searched = _decide_args(
                    (engine.columns, engine.foundations, ranks, play), max_nodes, memory_mb)
                found.append((move, verdict, searched))
        finally:
            engine.unmake()
    return len(raws), found


# ---------------------------------------------------------------------------
# Removing pointless moves from a winning line
# ---------------------------------------------------------------------------

def simplify(
    deal: Deal, moves: tuple[Move, ...], *, rules: Rules | str | None = None
) -> tuple[Move, ...]:
    """Remove pointless moves from a winning line; the result still wins.

    Two passes (run by the engine) alternate until neither shortens the
    line: one-move shortcuts between positions of the line, which also cut
    out loops (a card moved and moved back, a move undone later with
    nothing between), and merging a card's two successive moves (A to B,
    later B to C, becomes A to C at the later time; A to B and later back
    to A disappear) where the whole line still replays to a win.  Then a
    windowed search (:data:`WINDOW`, :data:`WINDOW_BUDGET`) replaces a
    stretch of the line by fewer moves where a short search finds them;
    all three repeat until none shortens the line.

    Parameters
    ----------
    deal : Deal
        The position the line starts from.
    moves : tuple of Move
        A winning line from *deal*.
    rules : Rules, str or None
        The rules to play by; None for ``deal.rules``.

    Returns
    -------
    tuple of Move
        A winning line from *deal* no longer than *moves*.

    Raises
    ------
    ArgumentError
        A ValueError: if *moves* is not a winning line from *deal*
        (IllegalMoveError, also a ValueError, for an illegal move).
    RulesError
        If *rules* names no preset, or the deal is not a position of it.
    """
    deal = position_of(deal, rules)
    if not check(deal, moves).won:
        raise ArgumentError("moves: the line does not win")
    return _shorten(deal, moves)


def _shorten(deal: Deal, moves: tuple[Move, ...]) -> tuple[Move, ...]:
    """:func:`simplify` without checking its input first (solve() checks after)."""
    raw = [
        (m.card.index, m.source - 1, -1 if m.target == FOUNDATION else m.target - 1)
        for m in moves
    ]
    return tuple(_to_move(m) for m in _shorten_raw(_engine_args(deal), raw))


def _shorten_raw(
    args: tuple[list[list[int]], list[int], int, tuple[int, int, int, int, int]],
    raw: list[tuple[int, int, int]],
) -> list[tuple[int, int, int]]:
    """The engine's passes on a line of engine moves, until none shortens it.

    The windowed pass plays one-card moves by Baker's Dozen's play only
    (:data:`SHORTEST_PLAY`); under other rules the first two passes run.
    """
    raw = _search.shorten(*args, raw)
    if tuple(args[3]) != _SHORTEST_CODES:
        return raw
    while True:
        shorter = _shortest.window_shorten(*args[:3], raw, WINDOW, WINDOW_BUDGET)
        if len(shorter) >= len(raw):
            return raw
        raw = _search.shorten(*args, shorter)
