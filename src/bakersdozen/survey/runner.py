"""Running survey tasks on an executor, yielding records as they finish.

One code path, whatever runs the tasks: :func:`run` submits tasks to any
:class:`concurrent.futures.Executor` (worker processes by default, this
process for ``jobs=1``, or one a caller passes, such as a cluster's),
keeps at most a *window* of them pending, and yields each record as its
task finishes.  Tasks are read lazily, so a range of ten million deals
starts at once and holds only the window in memory.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait

from typing import TYPE_CHECKING, Any, Final

from .. import _interrupts
from ..errors import ArgumentError
from ..model import Deal
from ..records import Record
from ..rules import BAKERS_DOZEN, Rules, RulesError
from ..solution import DEFAULT_MEMORY_MB
from ..solver import (
    LAYERS_REFUSAL, play_rules, plays_layers, remove_decided_work_dir, solve, time_limit_seconds,
)
from .tasks import SURVEY_METHODS, DealSpec, Limits, Task, make_work_dir, normalise, work_dir_name
from .workers import InlineExecutor, process_executor, stop, submit

if TYPE_CHECKING:
    from distributed import Client  # type: ignore[import-not-found, unused-ignore]

__all__ = [
    "Limits", "solve_task", "solve_batch", "run", "survey", "default_memory_mb", "MAX_BATCH",
]


def solve_task(task: Task, limits: Limits) -> Record:
    """Solve one task (in a worker) and make its record.

    The deal is played by ``limits.rules`` when given, else by its own
    ``deal.rules`` (a PySol number is dealt for ``limits.rules`` or
    Baker's Dozen); the record names that game.

    With ``limits.work_dir``, the deal's layers are kept in its
    subdirectory there (:func:`~bakersdozen.survey.tasks.work_dir_name`):
    the search goes on from the checkpoint the subdirectory holds, if any
    (the record's ``resumed_nodes`` says how many of its nodes earlier runs
    generated), and the subdirectory is removed once the deal is solved or
    unsolvable; a deal left unknown keeps it.

    Raises
    ------
    RulesError
        If the deal's cards are not a position of ``limits.rules`` (a
        13-column deal played as Good Measure), or the method refuses the
        rules' play.
    ArgumentError
        If ``limits.work_dir`` is not a directory where this runs (a Dask
        worker that does not see it), or the deal's subdirectory holds
        something other than this deal's layered search (another game's
        deal of the same id, files of its own).
    OSError
        If a file of the deal's subdirectory cannot be made, read or
        written (a full disk is not an error: the reason ``"disk"``).
    """
    deal_id, deal = task
    if isinstance(deal, int):
        position = Deal.pysol(deal, game=limits.rules or BAKERS_DOZEN)
    else:
        position = deal
    played = play_rules(position, limits.rules)
    work_dir: str | None = None
    if limits.work_dir is not None:
        if not os.path.isdir(limits.work_dir):
            raise ArgumentError(
                f"work_dir: {limits.work_dir!r} is not a directory here (the survey made it: "
                "on a cluster, every worker must see it under the same path)")
        work_dir = os.path.join(limits.work_dir, work_dir_name(deal_id))
    # resume=True: solve() goes on from the subdirectory's manifest, and
    # starts afresh in a missing or empty one (or one left by a start killed
    # before its first manifest)
    solution = solve(
        position, time_limit=limits.time_limit, max_nodes=limits.max_nodes,
        memory_mb=limits.memory_mb, seed=limits.seed, method=limits.method, rules=played,
        work_dir=work_dir, disk_mb=limits.disk_mb, resume=work_dir is not None,
        line_record=limits.line_record,
    )
    if work_dir is not None and solution.decided:
        # its manifest alone is left: the record says all of it (a directory
        # that holds anything else, or cannot be removed, is left: not worth
        # the verdict)
        remove_decided_work_dir(work_dir)
    return Record.from_solution(
        deal_id, solution, time_limit=limits.time_limit, max_nodes=limits.max_nodes,
        memory_mb=limits.memory_mb, seed=limits.seed, moves=limits.moves, game=played.name,
        method=limits.method,
    )


def solve_batch(
    task_function: Callable[[Task, Limits], Record], tasks: list[Task], limits: Limits
) -> list[Record]:
    """Solve several tasks one after the other (one submission of a batched :func:`run`)."""
    return [task_function(task, limits) for task in tasks]


#: The most tasks a batched :func:`run` puts in one submission.
MAX_BATCH: Final = 256

#: Seconds :func:`run` waits for a task at most before it looks for a
#: Ctrl-C that a finalizer swallowed (module ``bakersdozen._interrupts``).
POLL_SECONDS: Final = 0.25


def run(
    tasks: Iterable[Task],
    limits: Limits,
    executor: Executor,
    window: int | Callable[[], int],
    task_function: Callable[[Task, Limits], Record] = solve_task,
    target_seconds: float | None = None,
    batch_function: Callable[
        [Callable[[Task, Limits], Record], list[Task], Limits], list[Record]
    ] = solve_batch,
) -> Iterator[Record]:
    """Run *tasks* on *executor*, at most *window* pending; yield records as they finish.

    Parameters
    ----------
    tasks : iterable of (id, deal)
        Read lazily, as room in the window frees.
    limits : Limits
    executor : Executor
        Runs ``task_function(task, limits)``; it must be able to send both
        (picklable, for processes).
    window : int or callable
        Submissions pending and not yet finished, at most (>= 1); or a
        function giving it, asked before each refill (a cluster whose
        workers come and go).
    task_function : callable
        A top-level function; :func:`solve_task` by default.
    target_seconds : float or None
        None: one task per submission.  Otherwise tasks go in batches
        (:func:`solve_batch`) sized so that a batch takes about this many
        seconds, judged by the records' ``seconds`` so far: the first
        batches hold one task, later ones up to :data:`MAX_BATCH`.  For
        executors whose cost per submission is large next to a deal's
        solve (a Dask cluster: a few ms).
    batch_function : callable
        What a batch runs: ``batch_function(task_function, tasks, limits)``
        returns the records (:func:`solve_batch`; on Dask
        :func:`~bakersdozen.survey.cluster.solve_on_worker`).

    Yields
    ------
    Record
        In order of completion (a batch's records together).  A task's
        exception is raised here.

    Notes
    -----
    When the generator is left early (an exception, Ctrl-C, ``close()``),
    the submissions not yet started are cancelled; the executor itself is
    not shut down (its owner does that).
    """
    source = iter(tasks)
    pending: set[Future[Any]] = set()
    solved = 0
    busy = 0.0
    try:
        exhausted = False
        while True:
            room = window() if callable(window) else window
            while not exhausted and len(pending) < max(1, room):
                if target_seconds is None:
                    task = next(source, None)
                    if task is None:
                        exhausted = True
                        break
                    pending.add(submit(executor, task_function, task, limits))
                    continue
                size = 1
                if solved:
                    size = max(1, min(MAX_BATCH, int(target_seconds * solved / max(busy, 1e-9))))
                batch = list(itertools.islice(source, size))
                if len(batch) < size:
                    exhausted = True
                if not batch:
                    break
                pending.add(submit(executor, batch_function, task_function, batch, limits))
            if not pending:
                break
            done, pending = wait(pending, timeout=POLL_SECONDS, return_when=FIRST_COMPLETED)
            _interrupts.check()  # a Ctrl-C that a finalizer swallowed (module _interrupts)
            for future in done:
                result = future.result()
                for record in result if isinstance(result, list) else (result,):
                    solved += 1
                    busy += record.seconds
                    yield record
    finally:
        for future in pending:
            future.cancel()


def _physical_memory_mb() -> float | None:
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") / 2**20
    except (AttributeError, ValueError, OSError):  # pragma: no cover - not POSIX
        return None


def default_memory_mb(jobs: int) -> int:
    """The default table budget per job, MiB: half the RAM shared by the jobs.

    Returns
    -------
    int
        ``min(512, RAM / 2 / jobs)`` MiB, at least 16; 512 (the solver's
        default) when the RAM size cannot be read.
    """
    total = _physical_memory_mb()
    if total is None:
        return DEFAULT_MEMORY_MB
    return max(16, min(DEFAULT_MEMORY_MB, int(total / 2 / max(1, jobs))))


def survey(
    deals: Iterable[DealSpec],
    *,
    jobs: int | None = None,
    executor: Executor | Client | None = None,
    time_limit: float | None = 10.0,
    max_nodes: int | None = None,
    memory_mb: float | None = None,
    seed: int = 0,
    moves: bool = False,
    method: str = "dfs",
    rules: Rules | str | None = None,
    work_dir: str | os.PathLike[str] | None = None,
    disk_mb: float | None = None,
    line_record: bool = True,
) -> Iterator[Record]:
    """Solve many deals, yielding one :class:`~bakersdozen.records.Record` per deal as each finishes.

    Parameters
    ----------
    deals : iterable
        Each an int (a PySol deal number, its own id), a :class:`~bakersdozen.Deal` (its
        id the board id, :func:`bakersdozen.records.board_id`), or an
        ``(id, deal)`` pair whose id has a letter in it.  Read lazily.
    jobs : int or None
        Deals solved at once; None for ``os.cpu_count()``.  Without an
        *executor*: 1 solves in this process, more start that many worker
        processes (``spawn``), which die with this process.
    executor : Executor, distributed.Client or None
        Runs the tasks instead; ``2 * jobs`` tasks are kept pending on it.
        A ``distributed.Client`` (or a
        :class:`~bakersdozen.survey.cluster.DaskExecutor`) runs them on its
        Dask cluster: ``4 *`` the cluster's threads pending, deals batched,
        each table fitted to its worker's memory
        (:mod:`bakersdozen.survey.cluster`).  It is not shut down here.
    time_limit : float or None
        Seconds of wall-clock time per deal; None or ``inf`` for no limit.
    max_nodes : int or None
        Positions generated per deal; None for no limit.
    memory_mb : float or None
        MiB of transposition table per job; None for
        :func:`default_memory_mb` (``jobs * memory_mb`` is at most half the RAM),
        or on Dask for 512 MiB, each capped by the worker's memory.
    seed : int
        The solver's move-order seed (:func:`bakersdozen.solve`).
    moves : bool
        Keep the winning lines in the records.
    method : str
        The search (:data:`~bakersdozen.survey.tasks.SURVEY_METHODS`):
        ``"dfs"`` (the default: restart rounds, then the proof phase),
        ``"proof"`` (the complete search alone, from the start; give it
        *memory_mb*, 16 bytes a position, docs/engine.md "The proof alone")
        or ``"layers"`` (every reachable position, layer by layer: the
        quickest and leanest proofs of unsolvable deals, a slow way to win one;
        docs/engine.md "The layered search").  Each record carries it.
        ``"shortest"`` is refused: a survey decides deals, and the
        fewest-moves search would spend every solved deal's time on its
        length (use ``bakersdozen solve --shortest`` for single deals).
    rules : Rules, str or None
        The game every deal is played by, as :func:`bakersdozen.solve`'s
        *rules* (a preset name is looked up): a PySol number is dealt for
        it and a :class:`~bakersdozen.Deal` is played by it.  None (the default): each
        :class:`~bakersdozen.Deal` is played by its own ``deal.rules``, and a PySol
        number is dealt for Baker's Dozen.  Each record's ``game`` is the
        game its deal was played by.
    work_dir : str, os.PathLike or None
        With ``method="layers"``: a directory (made if missing) in which
        each deal keeps the layers it is not expanding, in a subdirectory of
        its own (:class:`~bakersdozen.survey.tasks.Limits`, docs/survey.md,
        "A pass on disk"), so that *memory_mb* need only hold the layers
        being expanded.  A deal solved or unsolvable has its subdirectory
        removed; a deal left unknown keeps it, and the next survey of the
        deal with this *work_dir* goes on from its checkpoint (the record's
        ``resumed_nodes``).  Worker processes and a Dask cluster's workers
        must all see it under the same path.  Give each deal once, and run
        one survey at a time on a *work_dir*: a deal's search locks its
        subdirectory, and a search that finds it in use raises
        ArgumentError.  None (the default): the layers
        are kept in memory.
    disk_mb : float or None
        With *work_dir*: MiB (2**20 bytes) that each deal's files may hold,
        in (0, 2**30]; a deal that would pass it, or finds the disk full,
        stops unknown with the reason ``"disk"``.  None (the default): as
        much as the disk has.
    line_record : bool
        With *work_dir*: False keeps no record for tracing a win's line back
        in the deals' subdirectories, and lets go of the record of those a
        deal goes on from (:func:`bakersdozen.solve`'s *line_record*).

    Raises
    ------
    TypeError
        For an argument of the wrong type (checked when called, before any
        solving), or a deal that is not an int, a Deal or an (id, Deal)
        pair (when it is reached).
    OSError
        If *work_dir* cannot be made or written (checked when called, with
        the directory as the error's file name).
    BakersDozenError
        A ValueError as well: for an argument out of range (checked when
        called: :class:`~bakersdozen.ArgumentError`,
        :class:`~bakersdozen.rules.RulesError` for *rules* naming no preset
        or ``"layers"`` with rules that are not Baker's Dozen's play;
        *work_dir* without ``method="layers"``, *disk_mb* without
        *work_dir* or out of range), or a
        bad deal (when it is reached: a deal number out of range, an id
        that is a number, a Deal that is not a position of *rules*).

    Notes
    -----
    Worker processes are started with ``spawn``, so a script that calls
    this with ``jobs > 1`` must guard its top level with
    ``if __name__ == "__main__":``.  Each record is what
    :func:`bakersdozen.solve` returns for the deal with the same limits, so
    it repeats exactly with no time limit or with *max_nodes* given (unless
    the time limit stops the deal); with a time limit alone, a deal whose
    search runs past 80 % of it may differ from run to run (the switch to
    the proof phase is made by the clock).
    """
    if jobs is None:
        jobs = os.cpu_count() or 1
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        if isinstance(jobs, int) and not isinstance(jobs, bool):
            raise ArgumentError(f"jobs must be a positive int, not {jobs!r}")
        raise TypeError(f"jobs must be a positive int, not {jobs!r}")
    dask = False
    if executor is not None:
        from .cluster import DaskExecutor, is_dask_client

        if is_dask_client(executor):
            executor = DaskExecutor(executor)
        elif not isinstance(executor, Executor):
            raise TypeError(
                "executor must be a concurrent.futures.Executor or a distributed.Client, "
                f"not {type(executor).__name__}"
            )
        dask = isinstance(executor, DaskExecutor)
    if not isinstance(method, str):
        raise TypeError(f"method must be a str, not {method!r}")
    if method not in SURVEY_METHODS:
        raise ArgumentError(
            f"method: a survey's search method is one of {', '.join(map(repr, SURVEY_METHODS))}, "
            f"not {method!r}"
            + (" (use bakersdozen.solve(..., method='shortest') per deal)"
               if method == "shortest" else "")
        )
    played: Rules | None = None
    if rules is not None:
        played = play_rules(Deal.pysol(1), rules)
        if method == "layers" and not plays_layers(played):
            raise RulesError(LAYERS_REFUSAL)
    if memory_mb is None:
        memory_mb = DEFAULT_MEMORY_MB if dask else default_memory_mb(jobs)
    # solve() checks its arguments: run it once on a 1-position budget so a
    # bad limit raises here, at the call, rather than later in a worker.
    time_limit = time_limit_seconds(time_limit)
    solve(Deal.pysol(1), time_limit=time_limit, max_nodes=1, memory_mb=memory_mb, seed=seed,
          method=method)
    limits = Limits(time_limit, max_nodes, float(memory_mb), seed, bool(moves), played, method,
                    work_dir, disk_mb, line_record)  # type: ignore[arg-type]  # Limits takes a path
    if limits.work_dir is not None:
        make_work_dir(limits.work_dir)
    return _survey((normalise(item) for item in deals), jobs, limits, executor)


def _survey(
    tasks: Iterator[Task], jobs: int, limits: Limits, executor: Executor | None
) -> Iterator[Record]:
    if executor is not None:
        from .cluster import DaskExecutor, run_options

        if isinstance(executor, DaskExecutor):
            yield from run(tasks, limits, executor, **run_options(executor))
            return
        yield from run(tasks, limits, executor, 2 * jobs)
        return
    own: Executor = InlineExecutor() if jobs == 1 else process_executor(jobs)
    finished = False
    try:
        yield from run(tasks, limits, own, 1 if jobs == 1 else 2 * jobs)
        finished = True
    finally:
        if finished:
            own.shutdown(wait=True)
        else:
            stop(own)
