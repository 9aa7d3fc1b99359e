"""The task log of a layered search on disk in tasks: where a run's time went.

A layered search on disk in parallel tasks (``solve(..., method="layers",
work_dir=DIR, jobs=N)``, ``--jobs`` or a Dask cluster; docs/engine.md,
"Parallel expansion") appends one line of JSON to :data:`TASK_LOG` in its
work directory for each task that returns (:func:`append_entry`), across
resumes.  :func:`read_log` reads it back, :func:`summary` sums it up, and
``bakersdozen tasks DIR`` prints that summary.

An entry (docs/engine.md, "The task log") has ``task`` (the task's
number), ``kind`` (``expand``, ``split`` or ``shard``), ``progress`` (the
progress value of its records), ``status`` (:data:`KEPT`: ``done`` or
``won``; otherwise its work was not kept: ``memory_mb`` for a task that
outgrew its memory and is done again in parts or shards, ``stopped`` for
one the run's stop cut off, or that ended after a win or as a Ctrl-C
stopped the run (it runs again on a resume), or the limit that stopped
it: ``time_limit``, ``max_nodes``, ``disk``, ...), ``began``
(Unix seconds), ``seconds`` (wall clock), ``cpu_seconds`` (of the thread
that ran it), ``nodes`` and ``stored`` (positions it generated and
stored), ``input_files``, ``input_bytes`` (its inputs, and a shard's
positions of earlier rounds), ``output_bytes``; and ``depth``, ``round``,
``parts``, ``job``, ``shard`` and ``shards`` where the task has them.
"""

from __future__ import annotations

import json
import math
import os
from collections import defaultdict

from .errors import ArgumentError

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing is not imported at run time (start-up)
    from typing import Any, Final

__all__ = ["TASK_LOG", "KEPT", "append_entry", "read_log", "summary", "running_at_once"]

#: The log's file name in the work directory.
TASK_LOG: Final = "tasks.jsonl"
#: The statuses of a task whose work the run kept.
KEPT: Final = frozenset({"done", "won"})
#: An entry's numbers: each a finite number, 0 or more (not a bool).
_NUMBERS: Final = ("began", "seconds", "cpu_seconds")
_COUNTS: Final = ("progress", "nodes", "stored")


def append_entry(directory: str, entry: dict[str, Any]) -> bool:
    """Append *entry* (a JSON object) as one line to :data:`TASK_LOG` in
    *directory*: whole or not at all (a write that fails, a full disk say,
    is cut back off the file).  False when it could not be written: the log
    is not the search's state, so a run goes on without it."""
    try:
        data = (json.dumps(entry, allow_nan=False) + "\n").encode("utf-8")
    except (TypeError, ValueError):  # pragma: no cover - the driver writes numbers
        return False
    try:
        fd = os.open(os.path.join(directory, TASK_LOG), os.O_WRONLY | os.O_APPEND | os.O_CREAT,
                     0o644)
    except OSError:
        return False
    try:
        size = os.fstat(fd).st_size
        try:
            if os.write(fd, data) == len(data):
                return True
        except OSError:
            pass
        try:
            os.ftruncate(fd, size)
        except OSError:  # pragma: no cover - a file that can be written but not cut
            pass
        return False
    finally:
        os.close(fd)


def _entry(line: str, where: str) -> dict[str, Any]:
    try:
        entry = json.loads(line)
    except ValueError as e:
        raise ArgumentError(f"{where}: not JSON ({e})") from None
    if not isinstance(entry, dict):
        raise ArgumentError(f"{where}: not a JSON object")
    for key in ("kind", "status"):
        if not isinstance(entry.get(key), str):
            raise ArgumentError(f"{where}: {key!r} must be a string")
    for key in _NUMBERS:
        value = entry.get(key)
        try:
            good = not isinstance(value, bool) and isinstance(value, (int, float)) \
                and math.isfinite(value) and value >= 0
        except OverflowError:  # a whole number past a float's range
            good = False
        if not good:
            shown = repr(value) if len(repr(value)) <= 40 else f"{repr(value)[:30]}..."
            raise ArgumentError(f"{where}: {key!r} must be a number of seconds, 0 or more, "
                                f"not {shown}")
    if not math.isfinite(entry["began"] + entry["seconds"]):
        raise ArgumentError(f"{where}: 'began' plus 'seconds' is past a float's range")
    for key in _COUNTS:
        value = entry.get(key)
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ArgumentError(f"{where}: {key!r} must be a whole number, 0 or more, "
                                f"not {value!r}")
    return entry


def read_log(path: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """The entries of a task log, in the order written.

    Parameters
    ----------
    path : str or os.PathLike
        The log, or the work directory that holds it (:data:`TASK_LOG`).

    Returns
    -------
    list of dict
        One entry a line (module documentation); blank lines are skipped.

    Raises
    ------
    ArgumentError
        If the log holds no entry, or a line is not an entry (its number
        and what is wrong are named).
    OSError
        If the file cannot be read.
    """
    path = os.fspath(path)
    if os.path.isdir(path):
        path = os.path.join(path, TASK_LOG)
    entries = []
    with open(path, "rb") as f:
        for number, raw in enumerate(f, 1):
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError:
                raise ArgumentError(f"{path}, line {number}: not UTF-8 text") from None
            if line.strip():
                entries.append(_entry(line, f"{path}, line {number}"))
    if not entries:
        raise ArgumentError(f"{path}: no task entries (a run in tasks writes one a task)")
    return entries


def running_at_once(spans: list[tuple[float, float]]) -> dict[int, float]:
    """Seconds with exactly k of *spans* (start, end, in seconds) running,
    for each k of 1 or more that occurs: ``{k: seconds}``.  A time when
    none runs counts for none."""
    events = sorted([(a, 1) for a, b in spans] + [(b, -1) for a, b in spans],
                    key=lambda e: (e[0], e[1]))  # an end before a start at the same time
    seconds: dict[int, float] = defaultdict(float)
    level, last = 0, 0.0
    for t, step in events:
        if level > 0:
            seconds[level] += t - last
        level += step
        last = t
    return {k: v for k, v in sorted(seconds.items()) if v > 0}


def summary(entries: list[dict[str, Any]], jobs: int | None = None) -> dict[str, Any]:
    """Where the time of the tasks of *entries* (:func:`read_log`) went.

    Parameters
    ----------
    entries : list of dict
        A log's entries.
    jobs : int or None
        The tasks the run ran at once; None: the most the log shows at once.

    Returns
    -------
    dict
        ``tasks``; ``jobs``; ``busy_seconds`` (wall-clock seconds with some
        task running; the gaps between sittings left out); ``task_seconds``
        and ``cpu_seconds`` (summed over the tasks); ``lost_seconds`` (of
        the tasks whose work was not kept, statuses not in :data:`KEPT`);
        ``running_at_once`` (``{"k": seconds}`` with exactly k tasks
        running); ``by_kind`` (``{"kind status": {"tasks", "seconds",
        "cpu_seconds", "nodes"}}``); ``by_progress`` (``{"p": {"tasks",
        "span" (first start to last end, seconds), "cpu_seconds",
        "short_of_jobs" (seconds with fewer than *jobs* tasks running)}}``).
    """
    spans = [(float(e["began"]), float(e["began"]) + float(e["seconds"])) for e in entries]
    at_once = running_at_once(spans)
    if jobs is None:
        jobs = max(at_once, default=1)
    kinds: dict[str, dict[str, Any]] = defaultdict(
        lambda: {"tasks": 0, "seconds": 0.0, "cpu_seconds": 0.0, "nodes": 0})
    by_progress: dict[int, list[int]] = defaultdict(list)
    for i, e in enumerate(entries):
        k = kinds[f"{e['kind']} {e['status']}"]
        k["tasks"] += 1
        k["seconds"] += float(e["seconds"])
        k["cpu_seconds"] += float(e["cpu_seconds"])
        k["nodes"] += int(e["nodes"])
        by_progress[int(e["progress"])].append(i)
    progress: dict[str, dict[str, Any]] = {}
    for p in sorted(by_progress):
        mine = [spans[i] for i in by_progress[p]]
        progress[str(p)] = {
            "tasks": len(mine),
            "span": max(b for a, b in mine) - min(a for a, b in mine),
            "cpu_seconds": sum(float(entries[i]["cpu_seconds"]) for i in by_progress[p]),
            "short_of_jobs": sum(s for k, s in running_at_once(mine).items() if k < jobs)}
    return {"tasks": len(entries), "jobs": jobs, "busy_seconds": sum(at_once.values()),
            "task_seconds": sum(b - a for a, b in spans),
            "cpu_seconds": sum(float(e["cpu_seconds"]) for e in entries),
            "lost_seconds": sum(float(e["seconds"]) for e in entries
                                if e["status"] not in KEPT),
            "running_at_once": {str(k): v for k, v in at_once.items()},
            "by_kind": {k: kinds[k] for k in sorted(kinds)},
            "by_progress": progress}
