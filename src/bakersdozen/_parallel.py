"""The layered search on disk in parallel tasks (private).

docs/engine.md ("Parallel expansion") gives the idea and why its counts
are those of one process.  The layers of one progress value are
independent (a child that leaves its layer has a greater progress), so the
records of a progress value, split by a hash of the layer key into parts,
can be expanded by several workers at once.  The work is cut into pure
*tasks* (:func:`run_task`):

- ``expand``: load the records of some files of progress p (a layer's
  records are all among them) into their layers, expand them, and append
  the children that leave them to files of their own:
  ``pQQQ.tTTTTTTT.aAAAAAAAA.rec`` for each progress Q reached, T the task's
  number and A an attempt id drawn by the task (a task run again, on
  another worker after one died, never writes the files of an earlier
  attempt);
- ``split``: split some files of progress p by a hash of the layer key
  into parts, ``pPPP.tTTTTTTT.aAAAAAAAA.bKKKK.rec``.
- ``shard``: one round of a layer too large for a task's memory, cut
  into shards by a hash of each position's record (a ``split`` with
  ``by_record`` makes them): load the shard's positions expanded in
  earlier rounds (``pPPP.tTTTTTTT.aAAAAAAAA.seen.rec``, marked done) and
  those sent to it, expand the new ones, and append each child the layer's
  other shards own to their part files (``.bKKKK.rec``), for the next
  round; the layer is done after a round that sent none
  (:meth:`ParallelLayers._shard_layer`).

An expand task also writes the *kept* records of the positions it expands,
``kPPP.tTTTTTTT.aAAAAAAAA.rec`` (docs/engine.md, "Winning lines from the
layers"); they stay listed until the run ends.  The task that reaches a
won position traces its line back through them: the kept files of the
lower progress values, then its own (a predecessor in another layer has a
lower progress; one in the same layer is in the same task's file, before).

A task reads its input files, writes only its own files, and returns its
counts and the lengths of the files it wrote.  The
driver (:class:`ParallelLayers`) *commits* a task when it returns: its
counts are added and its files listed, its inputs dropped.  A task that
dies, fails or is stopped leaves nothing committed; its files are
deleted and it is simply run again.  The manifest (``manifest.json``,
written whole as in :mod:`bakersdozen._disk`) keeps the committed state:
the progress value being expanded, its tasks not yet committed, the
files, the counts.  A resume cuts the listed files back to their lengths,
deletes every other file of records and runs the tasks not committed.

The driver appends a line of JSON to the task log
(:data:`bakersdozen.task_log.TASK_LOG`) for each task that returns
(:meth:`ParallelLayers._log_task`): what it was, how it ended and how long
it took, so that a long run shows where its time went (``bakersdozen
tasks DIR`` sums it up).

Tasks run on a :class:`concurrent.futures.Executor`: threads of this
process (the engine releases the GIL while it reads, expands and writes),
or a Dask cluster (:class:`bakersdozen.survey.cluster.DaskExecutor`) whose
workers all see the work directory.  Only :mod:`bakersdozen.solver`
imports this module.
"""

from __future__ import annotations

import json
import math
import os
import re
import sys
import threading
import time
import uuid
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Executor, Future, wait

from . import _disk, _interrupts, _layers, _search
from ._reasons import STOP_REASONS
from .errors import BakersDozenError
from .task_log import TASK_LOG, append_entry

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing is not imported at run time (start-up)
    from typing import Any, Final

__all__ = ["ParallelLayers", "FORMAT", "VERSION", "run_task", "is_parallel"]

#: The manifest's ``format`` and ``version`` for a run in parallel tasks (the
#: search of one process, :mod:`bakersdozen._disk`, has its own).
FORMAT: Final = "bakersdozen layered search on disk, parallel tasks"
VERSION: Final = 4
#: The version before a layer could be cut into shards (no ``shards`` in its
#: manifest): read, and written again as :data:`VERSION`.
_UNSHARDED: Final = 3

_RECORDS = re.compile(r"p(\d{3})(\.t(\d{7})\.a[0-9a-f]{8}(\.b(\d{4})|\.seen)?)?\.rec\Z")
_KEPT = re.compile(r"k(\d{3})\.t(\d{7})\.a[0-9a-f]{8}\.rec\Z")
_WON = re.compile(r"won\.t(\d{7})\Z")
#: Bytes of records of one progress value below which it is expanded by one
#: task, unsplit (if it fits the memory): splitting costs a pass over them
#: and files, and a small progress value is done in a moment anyway.
SMALL_BYTES: Final = 1 << 20
#: A layer cut into shards holds many times the records that enter it from
#: outside (its own moves add the rest): it starts with this many times as
#: many shards as its records' bytes alone would need, and doubles them
#: (up to the most a task's buffers allow) when a shard outgrows a task's
#: memory.
SHARD_GROWTH: Final = 8
#: Parts a progress value is split into, per job, at least (if that makes
#: no more than :data:`MOST_EVEN_PARTS`): more parts than jobs even out the
#: tasks' lengths, so that the last task of a progress value, which runs
#: while the other jobs wait for the next one, is short (docs/engine.md,
#: "Parallel expansion": 8 took 3 % off the wall time of two jobs against 2).
PARTS_PER_JOB: Final = 8
#: The most parts :data:`PARTS_PER_JOB` asks for: each of the N split tasks
#: writes a file per part, N times K files a progress value.
MOST_EVEN_PARTS: Final = 64
#: Parts, and shards of a layer too large for a task, per job at least.
LEAST_PARTS_PER_JOB: Final = 2
#: Seconds between two looks at the running tasks (the progress callable,
#: the checkpoint clock).
POLL_SECONDS: Final = 0.2
#: The file by which the driver tells tasks on a cluster to stop (it shares no
#: memory with them): made in the work directory when the run stops (a win,
#: a limit, Ctrl-C), removed when a run starts or resumes.
STOP_FILE: Final = "stop"
#: Seconds between two looks of a task on a cluster for :data:`STOP_FILE`.
STOP_LOOK_SECONDS: Final = 0.5
#: The names of a task's statuses in :data:`TASK_LOG`.
_STATUS_NAMES: Final = {-1: "done", -2: "stopped", _search.SOLVED: "won", **STOP_REASONS,
                        _search.INTERRUPTED: "interrupted", _layers.IO_ERROR: "io_error",
                        _layers.DAMAGED: "damaged"}
#: Seconds a run stopped on a cluster waits for its running tasks to end
#: (each sees :data:`STOP_FILE` within :data:`STOP_LOOK_SECONDS`) before it
#: returns without them.
DRAIN_SECONDS: Final = 10.0

Progress = Callable[[int, int], object]

#: Counts summed over tasks; the others are the largest of any task.
_SUMMED = ("nodes", "stored", "lost", "layers", "written")
_LARGEST = ("largest", "top_progress", "peak_bytes", "peak_disk")


def is_parallel(work_dir: str | os.PathLike[str]) -> bool:
    """Whether *work_dir* holds a run of the search in parallel tasks (its manifest says so)."""
    try:
        with open(os.path.join(os.fspath(work_dir), _disk.MANIFEST), encoding="utf-8") as f:
            manifest = json.load(f)
    except (OSError, ValueError):
        return False
    return isinstance(manifest, dict) and manifest.get("format") == FORMAT


def output_file(progress: int, task: int, attempt: str, part: int | None = None) -> str:
    """The name of a file task *task* (attempt *attempt*) writes: its children
    of *progress*, or part *part* of its split."""
    tail = "" if part is None else f".b{part:04d}"
    return f"p{progress:03d}.t{task:07d}.a{attempt}{tail}.rec"


def seen_file(progress: int, task: int, attempt: str) -> str:
    """The name of the file in which shard task *task* (attempt *attempt*)
    writes the positions it expanded, of a layer of *progress*."""
    return f"p{progress:03d}.t{task:07d}.a{attempt}.seen.rec"


def won_file(task: int) -> str:
    """The name of the file by which task *task* on a cluster says that it
    reached a won position and is tracing its line: the driver, stopped,
    waits for it beyond :data:`DRAIN_SECONDS` (the trace of a hard deal
    reads all its kept files, for minutes)."""
    return f"won.t{task:07d}"


def kept_output_file(progress: int, task: int, attempt: str) -> str:
    """The name of the kept records task *task* (attempt *attempt*) writes."""
    return f"k{progress:03d}.t{task:07d}.a{attempt}.rec"


def _progress_of(name: str) -> int:
    return int(name[1:4])


def _ours(name: str) -> bool:
    """Whether *name* is a file of records or kept records of this search,
    or a task's :func:`won_file`."""
    return bool(_RECORDS.match(name) or _KEPT.match(name) or _WON.match(name))


def _ours_or_log(name: str) -> bool:
    """:func:`_ours`, or the task log: a directory of such files and no
    manifest is a damaged run.  (The log is not a file of records: a resume
    and the end of the run leave it, and the disk budget does not count it.)"""
    return _ours(name) or name == TASK_LOG


def _task_of(name: str) -> int | None:
    kept = _KEPT.match(name)
    if kept is not None:
        return int(kept.group(2))
    won = _WON.match(name)
    if won is not None:
        return int(won.group(1))
    found = _RECORDS.match(name)
    return None if found is None or found.group(3) is None else int(found.group(3))


# -- the task, wherever it runs --------------------------------------------------------

class _Stopped(Exception):
    """Raised by a task's progress callable when the driver stops the run."""


class Control:
    """What a task run in this process shares with the driver: a stop flag,
    and its nodes and bytes so far (the driver's progress line)."""

    def __init__(self) -> None:
        self.stop = threading.Event()
        self.won = threading.Event()  # set by a task that traces a win's line
        self.live: dict[int, tuple[int, int]] = {}


def run_task(task: dict[str, Any], control: Control | None = None) -> dict[str, Any]:
    """Run one task of the parallel disk search (module documentation).

    Parameters
    ----------
    task : dict
        ``kind`` (``"expand"``, ``"split"`` or ``"shard"``), ``id`` (the task's
        number), ``dir`` (the work directory, as every worker sees it),
        ``position`` (the engine's position: columns, foundations, ranks,
        play), ``memory_mb`` (its budget), ``progress`` (of its records),
        ``inputs`` (file names in the work directory), ``parts``,
        ``salt`` and ``by_record`` (a split: by the hash of each record,
        into the shards of a layer), ``shard``, ``shards``, ``salt`` and
        ``seen`` (a shard task: its shard, how many there are, their hash,
        the files of the shard's positions expanded in earlier rounds),
        ``layer_positions`` (as :attr:`ParallelLayers.layer_positions`),
        ``deadline`` (``time.time()`` seconds, 0 for
        none), ``max_nodes`` (0 for none), ``disk_bytes`` (bytes it may
        write, 0 for no bound), ``keep`` (an expand task: write the kept
        records) and ``kept`` (the kept files of the lower progress values,
        in order of progress: the line's way back).
    control : Control or None
        In this process: the driver's stop flag, and where the task puts
        its nodes and bytes so far.  None (on a cluster): the task looks
        for :data:`STOP_FILE` in the work directory instead, every
        :data:`STOP_LOOK_SECONDS` while it runs and once when it is done,
        and stops (status -2, its files deleted) when it is there; and
        it makes :func:`won_file` before it traces a win's line.

    Returns
    -------
    dict
        ``id``, ``status`` (-1 done, else a status of
        :mod:`bakersdozen._search` or :mod:`bakersdozen._layers`, or -2
        stopped by the driver), ``outputs`` (each file written and its
        length, synced; none unless done), ``counts`` (as
        :meth:`bakersdozen._layers.LayeredSearch.counts`, of this task
        alone), ``mixed`` (a split: whether its records were of more than
        one layer), ``layer`` (a split: the layer key of its records if
        they were of one layer, else None), ``errno``, ``line`` (a won position's winning line,
        ``[card, source, target]`` moves; [] when the kept files give none,
        or the task did not win), ``began`` (``time.time()`` when it began),
        ``seconds`` (wall-clock seconds it ran) and ``cpu_seconds`` (CPU
        seconds of the thread that ran it).
    """
    began, cpu = time.time(), time.thread_time()
    result = _run_task(task, control)
    result.update(began=began, seconds=time.time() - began,
                  cpu_seconds=time.thread_time() - cpu)
    return result


def _run_task(task: dict[str, Any], control: Control | None) -> dict[str, Any]:
    """:func:`run_task`, but for the times."""
    directory = task["dir"]
    line: list[list[int]] = []
    ident = int(task["id"])
    attempt = uuid.uuid4().hex[:8]
    p = int(task["progress"])
    columns, foundations, ranks, play = task["position"]
    search = _layers.LayeredSearch(columns, foundations, ranks, tuple(play),
                                   memory_mb=float(task["memory_mb"]))
    search.layer_positions = int(task.get("layer_positions", 0))
    kind = task["kind"]
    keep = kind in ("expand", "shard") and bool(task.get("keep", False))
    search.keep_lines = keep
    if kind == "split":
        names = [output_file(p, ident, attempt, k) for k in range(int(task["parts"]))]
    elif kind == "shard":  # the other shards' children, then the positions expanded
        names = [output_file(p, ident, attempt, k) for k in range(int(task["shards"]))]
        names.append(seen_file(p, ident, attempt))
    else:
        names = []
    sinks = [output_file(q, ident, attempt) for q in range(_layers.PROGRESS_VALUES)]
    search.spill_to([os.fsencode(os.path.join(directory, n)) for n in sinks],
                    disk_budget=int(task.get("disk_bytes", 0)), disk_used=0)
    mine = [kept_output_file(p, ident, attempt)] if keep else []
    if keep:
        # its layers are all of progress p: only that name is written
        search.keep_to([os.fsencode(os.path.join(directory, mine[0]))] * _layers.PROGRESS_VALUES)
    deadline = float(task.get("deadline", 0.0))
    left = 0.0
    if deadline:
        left = deadline - time.time()
        if left <= 0:
            return _result(ident, _search.TIME_LIMIT, search, {}, False)
    report: Callable[[int, int], None] | None = None
    if control is not None:
        shared = control

        def watch(nodes: int, held: int) -> None:
            shared.live[ident] = (nodes, held)
            if shared.stop.is_set():
                raise _Stopped

        report = watch
    else:
        stop_path = os.path.join(directory, STOP_FILE)
        next_look = [0.0]

        def look(nodes: int, held: int) -> None:
            now = time.monotonic()
            if now >= next_look[0]:
                next_look[0] = now + STOP_LOOK_SECONDS
                if os.path.exists(stop_path):
                    raise _Stopped

        report = look

    search.begin(time_limit=left, max_nodes=int(task.get("max_nodes", 0)), progress=report)
    inputs = [os.fsencode(os.path.join(directory, n)) for n in task["inputs"]]
    try:
        try:
            if kind == "split":
                st = search.split_files(inputs, [os.fsencode(os.path.join(directory, n))
                                                 for n in names],
                                        salt=int(task["salt"]),
                                        by_record=bool(task.get("by_record", False)))
            elif kind == "shard":
                st = search.expand_shard(
                    [os.fsencode(os.path.join(directory, n)) for n in task["seen"]], inputs, p,
                    int(task["shard"]), int(task["shards"]), int(task["salt"]),
                    [os.fsencode(os.path.join(directory, n)) for n in names[:-1]],
                    os.fsencode(os.path.join(directory, names[-1])))
            else:
                st = search.expand_files(inputs, p)
            if st < 0:
                st = search.close_files()
            elif st == _search.SOLVED and keep:
                if control is None:
                    _say_won(directory, ident)
                else:
                    control.won.set()
                try:
                    line = _trace(search, directory, list(task.get("kept", [])) + mine)
                finally:
                    if control is None:
                        _unsay_won(directory, ident)
        finally:
            search.end()
            search.drop_buffers()
    except _Stopped:
        st = -2
    if control is None and st < 0 and os.path.exists(os.path.join(directory, STOP_FILE)):
        st = -2  # done, but the run stopped meanwhile: its files would be nobody's
    outputs: dict[str, int] = {}
    for name in (names if kind == "split" else sinks + mine + names):
        path = os.path.join(directory, name)
        if os.path.exists(path):
            if st < 0 and st != -2:
                outputs[name] = os.path.getsize(path)
            else:  # nothing of a task not done is kept
                os.unlink(path)
    if control is not None:
        control.live.pop(ident, None)
    result = _result(ident, st, search, outputs, kind == "split" and not search.one_layer, line)
    result["layer"] = search.split_layer if kind == "split" else None
    return result


def _say_won(directory: str, ident: int) -> None:
    """Make :func:`won_file` of task *ident* (nothing if the disk refuses:
    the driver then waits for the task no longer than for any other)."""
    try:
        with open(os.path.join(directory, won_file(ident)), "wb"):
            pass
    except OSError:
        pass


def _unsay_won(directory: str, ident: int) -> None:
    """Delete :func:`won_file` of task *ident* if the run is over (its
    manifest no longer running: another task's win ended it, and no driver
    will sweep the file); while it runs, the driver waits on the file and
    deletes it with the run's other files."""
    try:
        with open(os.path.join(directory, _disk.MANIFEST), encoding="utf-8") as f:
            over = json.load(f).get("state") != "running"
        if over:
            os.unlink(os.path.join(directory, won_file(ident)))
    except (OSError, ValueError, AttributeError):
        pass


def _trace(search: _layers.LayeredSearch, directory: str, kept: list[str]) -> list[list[int]]:
    """The line of a task that won, traced back through *kept* (names, in
    order of progress, its own last): [] if its buffers cannot be written
    out or the files give none (the caller then finds one otherwise)."""
    if search.close_files() >= 0:
        return []
    search.abandon()  # the layers' memory goes back before the walk
    paths = [os.fsencode(os.path.join(directory, n)) for n in kept
             if os.path.exists(os.path.join(directory, n))]
    if len(paths) < len(kept):
        return []
    found = search.trace(paths)
    return [] if found is None else [list(m) for m in found]


def _result(ident: int, status: int, search: _layers.LayeredSearch, outputs: dict[str, int],
            mixed: bool, line: list[list[int]] | None = None) -> dict[str, Any]:
    return {"id": ident, "status": int(status), "outputs": outputs,
            "counts": search.counts(), "mixed": mixed, "errno": search.errno,
            "line": line or []}


# -- the driver -------------------------------------------------------------------------

class ParallelLayers:
    """The layered search of one position, its progress values expanded in parallel tasks.

    Parameters
    ----------
    args : tuple
        The engine's position: card-index columns, foundation heights, the
        pack's ranks, the play codes.
    memory_mb : float
        MiB for the tasks running at once, together: each task has
        ``memory_mb / jobs``.
    work_dir : str or os.PathLike
        The work directory (made if missing); on a cluster, a directory
        every worker sees under the same path.
    jobs : int
        Tasks run at once (threads of this process, or tasks on the
        cluster).
    disk_mb : float or None
        MiB the files of the work directory may hold; None: as much as the disk has.
    resume : bool
        Go on with the run the work directory holds.
    line_record : bool
        As :class:`bakersdozen._disk.DiskLayers`: False keeps no kept files
        (a run resumed with False lets go of those it kept).
    executor : Executor or None
        Where the tasks run; None: *jobs* threads of this process.

    Raises
    ------
    ArgumentError
        As :class:`bakersdozen._disk.DiskLayers`, and for a directory that
        holds a run of the search in one process.
    """

    def __init__(self, args: tuple[list[list[int]], list[int], int, tuple[int, int, int, int, int]],
                 *, memory_mb: float, work_dir: str | os.PathLike[str], jobs: int,
                 disk_mb: float | None = None, resume: bool = False,
                 line_record: bool = True, executor: Executor | None = None) -> None:
        columns, foundations, ranks, play = args
        self._args = args
        self._jobs = jobs
        self._task_mb = memory_mb / jobs
        # the engine checks the position and the budget (ValueError)
        probe = _layers.LayeredSearch(*args, memory_mb=self._task_mb)
        self._probe = probe
        self._dir = os.path.abspath(os.fspath(work_dir))
        self._position = {"columns": [list(c) for c in columns],
                          "foundations": list(foundations), "ranks": ranks,
                          "play": list(play)}
        self._won = not any(columns)
        self._disk_budget = 0 if disk_mb is None else max(int(disk_mb * 2**20), 1)
        self._executor = executor
        self._line_record = line_record
        self._manifest = self._open(resume)
        if not line_record:
            _disk.drop_line_record(self._dir, self._manifest, _KEPT.match, self._write_manifest)
        #: nodes of the checkpoint this run went on from (0 for a fresh run)
        self.resumed_nodes: int = self._manifest["counts"]["nodes"]
        #: bytes of the largest part expanded without splitting it; None: as
        #: :data:`bakersdozen._disk.PART_SHARE` of a task's memory says
        self.part_bytes: int | None = None
        #: the most positions a task's layer may hold before the task stops as
        #: out of memory (0: its memory alone says); the tests set it small
        self.layer_positions: int = 0
        #: called once the run is over (the solver closes a Dask connection it made)
        self.close_executor: Callable[[], object] | None = None
        #: seconds between two manifests at least
        self.checkpoint_seconds: float = _disk.CHECKPOINT_SECONDS
        self._state: dict[str, Any] = self._manifest  # the committed state (run() copies it)
        self._next_checkpoint = 0.0
        self._start_nodes = 0
        self._extra_nodes = 0  # generated by tasks stopped, never committed
        self._tasks = self._redone = 0
        self._deadline = 0.0
        self._max_nodes = 0
        self._reserved: dict[int, int] = {}  # bytes each running task may write
        #: what the search used, after :meth:`run` (as :class:`bakersdozen._disk.DiskLayers`,
        #: and ``jobs``, ``tasks``: tasks committed, ``redone``: tasks run again)
        self.stats: dict[str, int] = {}

    # -- the work directory --------------------------------------------------------

    def _path(self, name: str) -> str:
        return os.path.join(self._dir, name)

    def _open(self, resume: bool) -> dict[str, Any]:
        self._lock, going_on = _disk.open_work_dir(self._dir, resume, _ours_or_log)
        if going_on:
            return self._read_manifest(f"work_dir: {self._dir!r}")
        files = _disk.write_root(self._dir, self._probe.root_record())
        manifest = {"format": FORMAT, "version": VERSION, "byteorder": sys.byteorder,
                    "position": self._position, "state": "running", "progress": 0,
                    "todo": [], "rounds": {}, "shards": {}, "next_task": 0,
                    "counts": {k: 0 for k in self._probe.counts()},
                    "files": files, "keep": self._line_record}
        self._write_manifest(manifest)
        return manifest

    def _read_manifest(self, where: str) -> dict[str, Any]:
        fields: dict[str, type] = {"todo": list, "rounds": dict, "next_task": int}
        others = {(_disk.FORMAT, _disk.VERSION): "holds a run of the layered search in one "
                  "process: resume it without jobs (--jobs) or a scheduler"}
        try:
            with open(self._path(_disk.MANIFEST), encoding="utf-8") as f:
                older = json.load(f).get("version") == _UNSHARDED
        except (OSError, ValueError, AttributeError):
            older = False  # read_manifest says what is wrong
        if older:  # a run from before the shards goes on; its next manifest is of VERSION
            manifest = _disk.read_manifest(self._dir, where, (FORMAT, _UNSHARDED),
                                           self._position, fields, others)
            manifest.update(version=VERSION, shards={})
            return manifest
        return _disk.read_manifest(self._dir, where, (FORMAT, VERSION), self._position,
                                   dict(fields, shards=dict), others)

    def _write_manifest(self, manifest: dict[str, Any]) -> None:
        _disk.write_checkpoint(self._dir, manifest, self.__dict__.get("_manifest"))
        self._manifest = manifest

    def _restore_files(self) -> None:
        """Cut every listed file back to its length, delete the other files of records."""
        _disk.restore_files(self._dir, self._manifest, _ours)

    def _sweep(self, running: set[int]) -> None:
        """Delete the files of records neither listed nor written by a running task
        (inputs no manifest needs, the files of failed or dead attempts)."""
        files = self._state["files"]
        for name in os.listdir(self._dir):
            if name in files or not _ours(name):
                continue
            task = _task_of(name)
            if task is not None and task in running:
                continue
            try:
                os.unlink(self._path(name))
            except FileNotFoundError:  # pragma: no cover - a task cleaning up meanwhile
                pass

    def _checkpoint(self, running: set[int], force: bool = False) -> None:
        """Write the committed state as the manifest (at most every
        :attr:`checkpoint_seconds` unless *force*), then delete the files it
        needs no more."""
        if not force and time.monotonic() < self._next_checkpoint:
            return
        old = self._manifest["files"]
        for name, length in self._state["files"].items():
            if old.get(name) != length:  # each file a manifest lists is synced first
                _disk._sync(self._path(name))
        self._write_manifest(json.loads(json.dumps(self._state)))
        self._sweep(running)
        self._next_checkpoint = time.monotonic() + self.checkpoint_seconds

    # -- the search ---------------------------------------------------------------------

    def run(self, *, time_limit: float = 0.0, max_nodes: int = 0, seed: int = 0,
            progress: Progress | None = None) -> tuple[int, list[tuple[int, int, int]], int, int, int]:
        """Enumerate the reachable positions, going on from the checkpoint: as
        :meth:`bakersdozen._disk.DiskLayers.run`.

        *max_nodes* bounds each task by what is left of it when the task
        starts, and the run stops when a task reaches it; the tasks running
        beside it may have generated more by then (they are not counted:
        their work is lost).  *progress* is called from this thread.
        """
        with self._lock:  # held since the search was made, or taken again
            return self._run(time_limit=time_limit, max_nodes=max_nodes, seed=seed,
                             progress=progress)

    def _run(self, *, time_limit: float = 0.0, max_nodes: int = 0, seed: int = 0,
             progress: Progress | None = None) -> tuple[int, list[tuple[int, int, int]], int, int, int]:
        """:meth:`run`, the work directory locked."""
        counts = self._manifest["counts"]
        self.stats = {}
        if self._won:
            return (_search.SOLVED, [], 0, 1, 0)
        state = self._manifest["state"]
        if state != "running":
            self.stats = dict(self._stats_of(counts), tasks=0, redone=0)
            status = _search.SOLVED if state == "solved" else _search.UNSOLVABLE
            line = [(m[0], m[1], m[2]) for m in self._manifest.get("line", [])]
            return (status, line, counts["nodes"], 1, counts["stored"])
        self._restore_files()
        try:
            os.unlink(self._path(STOP_FILE))  # a stop of an earlier run
        except FileNotFoundError:
            pass
        self._state = json.loads(json.dumps(self._manifest))
        self._line: list[tuple[int, int, int]] = []
        self._next_checkpoint = time.monotonic() + self.checkpoint_seconds
        self._start_nodes = counts["nodes"]
        self._extra_nodes = 0
        self._tasks = self._redone = 0
        self._reserved = {}
        self._deadline = time.time() + time_limit if time_limit > 0 else 0.0
        self._max_nodes = max_nodes
        own = self._executor is None
        executor: Executor
        if own:
            from concurrent.futures import ThreadPoolExecutor

            executor = ThreadPoolExecutor(self._jobs, thread_name_prefix="bakersdozen-layers")
        else:
            assert self._executor is not None
            executor = self._executor
        control = Control() if own else None
        try:
            status = self._loop(executor, control, progress)
        finally:
            if own:
                executor.shutdown(wait=True, cancel_futures=True)
        done = self._state["counts"]
        self.stats = dict(self._stats_of(done), tasks=self._tasks, redone=self._redone)
        nodes = done["nodes"] + self._extra_nodes
        line = self._line if status == _search.SOLVED else []
        return (status, line, nodes, 1, done["stored"])

    def _stats_of(self, counts: dict[str, int]) -> dict[str, int]:
        return {"layers": counts["layers"], "largest": counts["largest"],
                "lost": counts["lost"], "top_progress": counts["top_progress"],
                "progress": self._state["progress"],
                "most_progress": self._probe.stats["most_progress"],
                "peak_positions": 0, "peak_bytes": counts["peak_bytes"],
                "budget": int(self._task_mb * 2**20) * self._jobs,
                "peak_disk": counts["peak_disk"], "written": counts["written"],
                "jobs": self._jobs, "splits": counts.get("splits", 0)}

    def _part_target(self) -> float:
        """Bytes of records one task expands without splitting them first."""
        if self.part_bytes is not None:
            return float(self.part_bytes)
        probe = self._probe
        probe.spill_to([b""] * _layers.PROGRESS_VALUES)
        budget, held, sink, chunk = probe.memory()
        return max(budget - held - chunk - 8 * sink, 0) * _disk.PART_SHARE

    def _most_parts(self) -> int:
        budget = self._task_mb * 2**20
        return int(max(2, min(_disk.MAX_PARTS, _layers.most_parts(budget))))

    def _plan(self) -> bool:
        """Plan the tasks of the next progress value with records: False if none is left."""
        s = self._state
        while s["progress"] < _layers.PROGRESS_VALUES:
            p = s["progress"]
            inputs = sorted(n for n in s["files"] if _RECORDS.match(n) and _progress_of(n) == p)
            if inputs:
                break
            s["progress"] = p + 1
        else:
            return False
        size = sum(s["files"][n] for n in inputs)
        target = self._part_target()
        if size <= target and (self._jobs == 1 or size <= SMALL_BYTES):
            s["todo"] = [self._new_task("expand", p, inputs, depth=0)]
            return True
        parts = max(math.ceil(size / max(target, 1)), self._least_parts())
        self._split_round(p, inputs, min(parts, self._most_parts()), depth=0, again=False)
        return True

    def _least_parts(self) -> int:
        """The fewest parts a progress value is split into (:data:`PARTS_PER_JOB`)."""
        jobs = self._jobs
        return max(LEAST_PARTS_PER_JOB * jobs, min(PARTS_PER_JOB * jobs, MOST_EVEN_PARTS))

    def _new_task(self, kind: str, progress: int, inputs: list[str], **more: Any) -> dict[str, Any]:
        s = self._state
        task = {"kind": kind, "id": s["next_task"], "progress": progress,
                "inputs": inputs, **more}
        s["next_task"] += 1
        return task

    def _split_round(self, p: int, inputs: list[str], parts: int, depth: int,
                     again: bool) -> None:
        """Split *inputs* into *parts* by the hash of *depth*: a round of split
        tasks (as many as the jobs, each over a share of the inputs); their
        parts k are expanded together once all are done."""
        s = self._state
        rid = str(s["next_task"])
        tasks = [self._new_task("split", p, g, parts=parts, depth=depth, round=rid,
                                salt=depth * 0x9E3779B97F4A7C15 % 2**64)
                 for g in self._groups(inputs)]
        s["rounds"][rid] = {"waiting": [t["id"] for t in tasks], "again": again,
                            "depth": depth, "buckets": [[] for _ in range(parts)]}
        s["todo"].extend(tasks)
        s["counts"]["splits"] = s["counts"].get("splits", 0) + 1

    def _groups(self, inputs: list[str]) -> list[list[str]]:
        """*inputs* shared among as many split tasks as the jobs (fewer if
        fewer files), the largest files first, each to the least loaded."""
        files = self._state["files"]
        groups: list[list[str]] = [[] for _ in range(min(self._jobs, len(inputs)))]
        sizes = [0] * len(groups)
        for name in sorted(inputs, key=lambda n: -files[n]):
            g = sizes.index(min(sizes))
            groups[g].append(name)
            sizes[g] += files[name]
        return [sorted(g) for g in groups]

    # -- a layer in shards ----------------------------------------------------------------

    def _shard_layer(self, p: int, inputs: list[str]) -> None:
        """Expand the layer whose records are *inputs* (of progress *p*), too
        large for a task's memory, in shards: a *job* (``shards`` of the
        state) that splits its records by a hash of each record, then runs
        rounds of ``shard`` tasks until one sends no position to another
        shard (docs/engine.md, "A layer in shards").  The job starts with
        its split tasks in the queue, so nothing can stop it here: a task
        whose memory cannot hold its buffers says so when it runs."""
        s = self._state
        jid = str(s["next_task"])
        size = sum(s["files"][n] for n in inputs)
        n = max(LEAST_PARTS_PER_JOB * self._jobs, math.ceil(size * SHARD_GROWTH /
                                                             max(self._part_target(), 1)))
        n = min(n, self._most_parts())
        s["shards"][jid] = {"progress": p, "shards": n, "round": 0, "grow": False,
                            "salt": (int(jid) + 1) * 0x9E3779B97F4A7C15 % 2**64, "stored": 0,
                            "seen": [[] for _ in range(n)], "new": [[] for _ in range(n)],
                            "waiting": []}
        self._shard_split(jid, [("new", inputs)])

    def _shard_split(self, jid: str, what: list[tuple[str, list[str]]]) -> int:
        """A round of split tasks of job *jid*: each (list, files) of *what*
        split by record into the job's shards, the parts added to the job's
        list of that name (``seen`` or ``new``)."""
        s = self._state
        job = s["shards"][jid]
        for into, files in what:
            for group in self._groups(files):
                task = self._new_task("split", job["progress"], group, parts=job["shards"],
                                      salt=job["salt"], by_record=True, job=jid, into=into)
                s["todo"].append(task)
                job["waiting"].append(task["id"])
        s["counts"]["splits"] = s["counts"].get("splits", 0) + 1
        return self._shard_next(jid)

    def _shard_commit(self, task: dict[str, Any], result: dict[str, Any]) -> int:
        """Note the files of a committed task of a job in its lists: -1, or
        OUT_OF_MEMORY (as :meth:`_shard_next`)."""
        jid = str(task["job"])
        job = self._state["shards"][jid]
        for name in result["outputs"]:
            found = _RECORDS.match(name)
            if found is None:  # its kept records: listed, for a line's way back
                continue
            if name.endswith(".seen.rec"):
                job["seen"][int(task["shard"])].append(name)
            elif found.group(5) is not None:
                job["new" if task["kind"] == "shard" else task["into"]][
                    int(found.group(5))].append(name)
            # else a child of another layer: listed, for its progress value
        if task["kind"] == "shard":
            job["stored"] += result["counts"]["stored"]
        job["waiting"].remove(task["id"])
        return self._shard_next(jid)

    def _shard_next(self, jid: str) -> int:
        """Once no task of job *jid* is waiting: its next round, or more
        shards (a shard ran out of memory: twice as many, or as many as a
        task's buffers allow if that is fewer), or its end (no position was
        sent to another shard).  -1, or OUT_OF_MEMORY when the job already
        has the most shards a task's memory has buffers for (at most
        ``_disk.MAX_PARTS``)."""
        s = self._state
        job = s["shards"][jid]
        if job["waiting"]:
            return -1
        n = job["shards"]
        if job["grow"]:
            grown = min(2 * n, self._most_parts())
            if grown <= n:
                return _search.OUT_OF_MEMORY
            seen = [name for names in job["seen"] for name in names]
            new = [name for names in job["new"] for name in names]
            job.update(shards=grown, grow=False, seen=[[] for _ in range(grown)],
                       new=[[] for _ in range(grown)])
            return self._shard_split(jid, [("seen", seen), ("new", new)])
        if not any(job["new"]):  # the layer is expanded
            for names in job["seen"]:
                for name in names:
                    s["files"].pop(name, None)
            s["counts"]["layers"] += 1
            s["counts"]["largest"] = max(s["counts"]["largest"], job["stored"])
            del s["shards"][jid]
            return -1
        job["round"] += 1
        for k, names in enumerate(job["new"]):
            if names:
                task = self._new_task("shard", job["progress"], sorted(names), job=jid, shard=k,
                                      shards=n, salt=job["salt"], seen=list(job["seen"][k]))
                s["todo"].append(task)
                job["waiting"].append(task["id"])
        job["new"] = [[] for _ in range(n)]
        return -1

    def _shard_grow(self, task: dict[str, Any]) -> int:
        """Shard task *task* ran out of memory: its inputs go back to its
        job, which grows its shards once its other tasks are done.  -1, or
        OUT_OF_MEMORY (as :meth:`_shard_next`)."""
        s = self._state
        jid = str(task["job"])
        job = s["shards"][jid]
        self._redone += 1
        s["todo"] = [t for t in s["todo"] if t["id"] != task["id"]]
        job["new"][int(task["shard"])].extend(task["inputs"])
        job["waiting"].remove(task["id"])
        job["grow"] = True
        return self._shard_next(jid)

    def _spec(self, task: dict[str, Any]) -> dict[str, Any]:
        """What a task is given to run (:func:`run_task`)."""
        c = self._state["counts"]
        left_nodes = 0
        if self._max_nodes:
            left_nodes = max(self._max_nodes - (c["nodes"] - self._start_nodes), 1)
        disk = 0
        if self._disk_budget:
            # the room left, less what the running tasks may still write,
            # shared by the jobs not running: the listed files and the
            # running tasks' shares never pass the budget together
            used = sum(self._state["files"].values()) + sum(self._reserved.values())
            free = max(self._jobs - len(self._reserved), 1)
            disk = max((self._disk_budget - used) // free, 1)
            self._reserved[task["id"]] = disk
        play = self._args[3]
        # a run begun before the kept records (a manifest without "keep") keeps none
        keep = bool(self._state.get("keep", False)) and task["kind"] in ("expand", "shard")
        kept = sorted((n for n in self._state["files"]
                       if _KEPT.match(n) and _progress_of(n) < task["progress"]),
                      key=lambda n: (_progress_of(n), n)) if keep else []
        return dict(task, dir=self._dir, memory_mb=self._task_mb, deadline=self._deadline,
                    layer_positions=self.layer_positions,
                    max_nodes=left_nodes, disk_bytes=disk, keep=keep, kept=kept,
                    position=[self._args[0], self._args[1], self._args[2], list(play)])

    def _loop(self, executor: Executor, control: Control | None,
              progress: Progress | None) -> int:
        """Run the tasks, progress value after progress value: a status."""
        s = self._state
        running: dict[Future[dict[str, Any]], dict[str, Any]] = {}
        stop = -1
        next_report = time.monotonic() + POLL_SECONDS

        drain_until = 0.0
        for task in [t for t in s["todo"] if t.get("whole")]:
            # records of one layer too large for a task, left by a run from
            # before the shards (it stopped there); that run's test of "one
            # layer" looked at each split task alone: split again, and in
            # shards if they are one layer after all
            s["todo"].remove(task)
            self._split_round(int(task["progress"]), task["inputs"],
                              self._least_parts(), depth=int(task["depth"]), again=True)
        todo = s["todo"]
        if len(todo) == 1 and todo[0]["kind"] == "expand" and todo[0].get("depth") == 0 \
                and not todo[0].get("whole") and not s["shards"]:
            # a progress value left as one task by a run of other jobs or
            # memory (one job plans one task): planned again for this run's
            s["todo"] = []
            self._plan()
        for jid in [j for j, job in s["shards"].items() if not job["waiting"]]:
            # a job left with no task by a stop (a shard outgrew the memory
            # it had, and the shards could not grow): its round again,
            # with the memory of this run (a shard that outgrows it again
            # grows them, or stops the run again)
            s["shards"][jid]["grow"] = False
            stop = self._shard_next(jid)
            if stop >= 0:
                self._checkpoint(set(), force=True)
                return stop

        def halt() -> None:
            nonlocal drain_until
            if control is not None:
                control.stop.set()
                for future in running:
                    future.cancel()  # those not begun
            else:  # on a cluster, whatever is in flight: a stopped run's directory
                self._tell_stop()  # always says so (a resume removes the file)
                drain_until = time.monotonic() + DRAIN_SECONDS

        try:
            while True:
                if stop < 0:
                    if not s["todo"] and not running and not self._plan():
                        self._finish(_search.UNSOLVABLE, set())
                        return _search.UNSOLVABLE
                    busy = {t["id"] for t in running.values()}
                    for task in [t for t in s["todo"] if t["id"] not in busy]:
                        if len(running) >= self._jobs:
                            break
                        spec = self._spec(task)
                        future = (executor.submit(run_task, spec, control) if control
                                  else executor.submit(run_task, spec))
                        running[future] = task
                if not running:
                    break
                done, _ = wait(list(running), timeout=POLL_SECONDS,
                               return_when=FIRST_COMPLETED)
                _interrupts.check()  # a Ctrl-C that a finalizer swallowed
                for future in done:
                    task = running.pop(future)
                    self._reserved.pop(task["id"], None)
                    if future.cancelled():
                        continue
                    result = future.result()
                    size = self._input_bytes(task)
                    # after a win, a task's work is not kept, whatever it says
                    kept = stop != _search.SOLVED
                    try:
                        st = self._settle(task, result, stop)
                    finally:  # a task whose IO error stops the run is logged too
                        self._log_task(task, result, size, kept)
                    if st >= 0 and (stop < 0 or st == _search.SOLVED):
                        # the first stop, or a win that a task traced on
                        # after the run stopped (at its time limit, say)
                        stop = st
                        halt()  # the tasks told first, the sweep after: see _tell_stop
                        if st == _search.SOLVED:
                            self._finish(st, {t["id"] for t in running.values()})
                if stop >= 0 and control is None and time.monotonic() >= drain_until \
                        and (stop == _search.SOLVED or not self._tracing(running)):
                    # tasks on a cluster are waited for a while, not for ever;
                    # one tracing a win, for as long as it takes (not a second win)
                    break
                now = time.monotonic()
                if progress is not None and now >= next_report and stop != _search.SOLVED:
                    next_report = now + POLL_SECONDS
                    live = list(control.live.values()) if control is not None else []
                    progress(s["counts"]["nodes"] + sum(n for n, _ in live),
                             sum(b for _, b in live))
                    self._report(progress, running, control)
                if stop < 0:
                    self._checkpoint({t["id"] for t in running.values()})
        except BaseException:
            # Ctrl-C, what the progress callable or a task raised: the
            # tasks committed are kept, the others stopped (in this process);
            # a task that won, tracing its line meanwhile, is waited for and
            # its win kept as the outcome (a resume gives it)
            halt()
            won = False
            # in this process every task is waited for; on a cluster those
            # tracing a win (a second Ctrl-C gives up the wait)
            waited = (list(running) if control is not None
                      else [] if stop == _search.SOLVED else self._tracing(running))
            try:
                wait(waited)
            finally:  # also after a second Ctrl-C: what has ended is settled, the rest kept
                for future in waited:
                    if not future.done():
                        continue
                    task = running.pop(future)
                    if future.cancelled() or future.exception() is not None:
                        continue
                    size = self._input_bytes(task)
                    settled = False  # a task done is not committed: it runs again
                    if stop != _search.SOLVED and not won \
                            and future.result()["status"] == _search.SOLVED:
                        won = settled = self._settle(task, future.result(), stop) \
                            == _search.SOLVED
                    self._log_task(task, future.result(), size, settled)
                for future in running:  # not waited for (on a cluster)
                    future.cancel()
                others = {t["id"] for t in running.values()}  # their files are theirs
                try:
                    if won:
                        self._finish(_search.SOLVED, others)
                    else:
                        self._checkpoint(others, force=True)
                except OSError:
                    pass
            raise
        for future in running:  # tasks on a cluster that outlived the wait
            future.cancel()
        leftover = {t["id"] for t in running.values()}
        if stop == _search.SOLVED:
            self._sweep(leftover)
            return stop
        try:
            self._checkpoint(leftover, force=True)
        except OSError:  # the disk is full: the last manifest stands
            if stop != _layers.DISK_FULL:
                raise
        return stop

    def _input_bytes(self, task: dict[str, Any]) -> int:
        """Bytes of the files a task reads (before its commit drops them)."""
        files = self._state["files"]
        return sum(files.get(n, 0) for n in list(task["inputs"]) + list(task.get("seen", [])))

    def _log_task(self, task: dict[str, Any], result: dict[str, Any], input_bytes: int,
                  kept: bool) -> None:
        """Append the entry of a task that returned to the task log
        (:mod:`bakersdozen.task_log` lists its fields); *kept*: whether the
        run kept its work if it says done or won (False: it is logged as
        ``stopped``).  A log that cannot be written is skipped: it is not
        the search's state."""
        st = int(result["status"])
        if st in (-1, _search.SOLVED) and not kept:
            st = -2
        counts = result["counts"]
        entry: dict[str, Any] = {
            "task": int(task["id"]), "kind": task["kind"], "progress": int(task["progress"]),
            "status": _STATUS_NAMES.get(st, str(st)),
            "began": round(float(result.get("began", time.time())), 6),
            "seconds": round(float(result.get("seconds", 0.0)), 6),
            "cpu_seconds": round(float(result.get("cpu_seconds", 0.0)), 3),
            "nodes": int(counts["nodes"]), "stored": int(counts["stored"]),
            "input_files": len(task["inputs"]) + len(task.get("seen", [])),
            "input_bytes": int(input_bytes),
            "output_bytes": int(sum(result["outputs"].values()))}
        for key in ("depth", "round", "parts", "job", "shard", "shards"):
            if key in task:
                entry[key] = task[key]
        append_entry(self._dir, entry)

    def _report(self, progress: Progress, running: dict[Future[dict[str, Any]], dict[str, Any]],
                control: Control | None) -> None:
        """After a call of *progress*: as the search of one process, its
        ``layers`` attribute called with the committed state (the least
        progress value of the running tasks), or its ``tracing`` attribute
        once a task traces a win's line (:func:`bakersdozen._disk.tell_tracing`)."""
        s = self._state
        won = control.won.is_set() if control is not None else bool(self._tracing(running))
        if won and callable(getattr(progress, "tracing", None)):
            _disk.tell_tracing(progress, sum(n for name, n in s["files"].items()
                                             if _KEPT.match(name)))
            return
        layers = getattr(progress, "layers", None)
        if callable(layers):
            value = min((int(t["progress"]) for t in running.values()), default=s["progress"])
            layers(value, self._probe.stats["most_progress"], s["counts"]["stored"],
                   sum(s["files"].values()))

    def _tracing(self, running: dict[Future[dict[str, Any]], dict[str, Any]]
                 ) -> list[Future[dict[str, Any]]]:
        """The running tasks on a cluster that reached a won position and trace
        its line (their :func:`won_file` is there)."""
        return [future for future, task in running.items()
                if os.path.exists(self._path(won_file(int(task["id"]))))]

    def _settle(self, task: dict[str, Any], result: dict[str, Any], stop: int) -> int:
        """Take a task's result (the run's stop status so far *stop*): -1, or
        the status that stops the run."""
        st = int(result["status"])
        if st == -1:
            return -1 if stop == _search.SOLVED else self._commit(task, result)
        if st == _search.OUT_OF_MEMORY and stop < 0 and self._resplit(task):
            return -1  # done again in parts, as if never begun
        if st == _search.SOLVED and stop != _search.SOLVED:  # a win is kept, come when it may
            self._add_counts(result["counts"])
            self._line = [(int(m[0]), int(m[1]), int(m[2])) for m in result.get("line", [])]
            return st
        # a task stopped: the positions it generated are this run's, not committed
        self._extra_nodes += result["counts"]["nodes"]
        if st == -2 or stop >= 0:
            return -1
        elif st == _layers.IO_ERROR:
            raise OSError(result["errno"], os.strerror(result["errno"]), self._dir)
        elif st == _layers.DAMAGED:
            raise BakersDozenError(
                f"work_dir: {self._dir!r} is damaged: a file of records ends inside a record "
                f"or holds one that no search writes; "
                f"{_disk.DELETE_IT}")
        return st

    def _add_counts(self, counts: dict[str, int]) -> None:
        mine = self._state["counts"]
        for k in _SUMMED:
            mine[k] += counts[k]
        for k in ("largest", "top_progress", "peak_bytes"):
            mine[k] = max(mine[k], counts[k])

    def _commit(self, task: dict[str, Any], result: dict[str, Any]) -> int:
        """A task returned done: its counts added, its files listed, its inputs
        dropped: -1, or OUT_OF_MEMORY for a split after a task ran out of
        memory that found its records all of one layer."""
        s = self._state
        self._tasks += 1
        counts = result["counts"]
        if task["kind"] == "shard":  # its layer is counted once, when its last round ends
            counts = dict(counts, layers=0)
        self._add_counts(counts)
        s["todo"] = [t for t in s["todo"] if t["id"] != task["id"]]
        for name in task["inputs"]:
            s["files"].pop(name, None)
        s["files"].update(result["outputs"])
        used = sum(s["files"].values())
        s["counts"]["peak_disk"] = max(s["counts"]["peak_disk"], used)
        if "job" in task:
            return self._shard_commit(task, result)
        if task["kind"] == "split":
            r = s["rounds"][task["round"]]
            r["waiting"].remove(task["id"])
            r.setdefault("mixed", False)
            r["mixed"] = r["mixed"] or result["mixed"]
            layer = result.get("layer")
            if layer is not None:  # one layer each: the same for every task of the round?
                r["mixed"] = r["mixed"] or r.setdefault("layer", layer) != layer
            for name in result["outputs"]:
                found = _RECORDS.match(name)
                assert found is not None and found.group(5) is not None
                r["buckets"][int(found.group(5))].append(name)
            if not r["waiting"]:
                del s["rounds"][task["round"]]
                if r["again"] and not r["mixed"]:
                    # a layer larger than a task's memory: expanded in shards
                    for bucket in r["buckets"]:
                        if bucket:
                            self._shard_layer(task["progress"], sorted(bucket))
                    return -1
                for bucket in r["buckets"]:
                    if bucket:
                        s["todo"].append(self._new_task("expand", task["progress"],
                                                        sorted(bucket), depth=r["depth"] + 1))
        return -1

    def _resplit(self, task: dict[str, Any]) -> bool:
        """An expand task ran out of memory: split its inputs again (another hash),
        in place of it; False if its records are of one layer."""
        s = self._state
        if task["kind"] == "shard":
            return self._shard_grow(task) < 0
        if task["kind"] != "expand":
            return False
        self._redone += 1
        s["todo"] = [t for t in s["todo"] if t["id"] != task["id"]]
        size = sum(s["files"][n] for n in task["inputs"])
        parts = max(4, math.ceil(size / max(self._part_target(), 1)))
        self._split_round(task["progress"], task["inputs"], min(parts, self._most_parts()),
                          depth=task["depth"], again=True)
        return True

    def _tell_stop(self) -> None:
        """Tell the tasks on a cluster to stop (:data:`STOP_FILE`): each deletes
        its files and returns.  A task that ended in the moment between its
        last look and the file returns done, with its files: the driver
        waits for the running tasks (at most :data:`DRAIN_SECONDS`) and
        settles what they return, so that it commits those files (or, after
        a win, deletes them).  Only a task that outlives that wait and then
        ends done leaves its files unlisted; a resume deletes them."""
        try:
            with open(self._path(STOP_FILE), "wb"):
                pass
        except OSError:  # the disk is full: the tasks end at their limits
            pass

    def _finish(self, status: int, running: set[int]) -> None:
        """Record the outcome and delete every file of records."""
        s = self._state
        s.update(state="solved" if status == _search.SOLVED else "unsolvable", files={},
                 todo=[], rounds={}, shards={}, line=[list(m) for m in self._line])
        self._write_manifest(json.loads(json.dumps(s)))
        self._sweep(running)
