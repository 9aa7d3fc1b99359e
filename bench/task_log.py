"""Where a parallel disk search's time went: a summary of its task log.

A layered search on disk in tasks (``--layers --work-dir DIR --jobs N``, or
on a Dask cluster) appends a line of JSON to ``DIR/tasks.jsonl`` for each
task that returns (docs/engine.md, "The task log").  This script sums it up:

- by kind and status: tasks, wall-clock and CPU seconds, positions
  generated; the seconds of tasks whose work was not kept (``memory_mb``:
  split again or cut into more shards and run again; ``stopped``: cut off
  by the run's stop) are work the search lost;
- how many tasks ran at once: the seconds with 1, 2, ... tasks running,
  over the time any task ran (the gaps between sittings, when none ran,
  are left out), so that the share of a run spent with fewer tasks than
  jobs (a progress value's last task running alone) is known;
- by progress value: its tasks, its wall-clock span, CPU seconds, and the
  seconds in it with fewer than ``--jobs`` tasks running.

Usage::

    python bench/task_log.py DIR [--jobs N] [--json]

``--jobs`` defaults to the most tasks the log shows running at once.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections import defaultdict
from typing import Any


def read_log(path: str) -> list[dict[str, Any]]:
    """The entries of a task log (a file, or a work directory holding
    ``tasks.jsonl``).  Raises ValueError naming the line of a bad entry."""
    if os.path.isdir(path):
        path = os.path.join(path, "tasks.jsonl")
    entries = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                entry = json.loads(line)
                float(entry["began"]), float(entry["seconds"]), float(entry["cpu_seconds"])
                int(entry["progress"]), str(entry["kind"]), str(entry["status"])
            except (ValueError, KeyError, TypeError) as e:
                raise ValueError(f"{path}, line {number}: not a task entry ({e})") from None
            entries.append(entry)
    return entries


def running_at_once(spans: list[tuple[float, float]]) -> dict[int, float]:
    """Seconds with exactly k of *spans* (start, end) running, for k >= 1."""
    events = sorted([(a, 1) for a, b in spans] + [(b, -1) for a, b in spans],
                    key=lambda e: (e[0], e[1]))  # an end before a start at the same time
    seconds: dict[int, float] = defaultdict(float)
    level, last = 0, 0.0
    for t, step in events:
        if level > 0:
            seconds[level] += t - last
        level += step
        last = t
    return dict(seconds)


def summary(entries: list[dict[str, Any]], jobs: int | None = None) -> dict[str, Any]:
    """What :func:`main` prints, as a dict (``--json``)."""
    spans = [(float(e["began"]), float(e["began"]) + float(e["seconds"])) for e in entries]
    at_once = running_at_once(spans)
    if jobs is None:
        jobs = max(at_once, default=1)
    busy = sum(at_once.values())
    kinds: dict[str, dict[str, float]] = defaultdict(
        lambda: {"tasks": 0, "seconds": 0.0, "cpu_seconds": 0.0, "nodes": 0})
    for e in entries:
        k = kinds[f"{e['kind']} {e['status']}"]
        k["tasks"] += 1
        k["seconds"] += float(e["seconds"])
        k["cpu_seconds"] += float(e["cpu_seconds"])
        k["nodes"] += int(e["nodes"])
    lost = sum(float(e["seconds"]) for e in entries if e["status"] != "done")
    progress: dict[int, dict[str, Any]] = {}
    for p in sorted({int(e["progress"]) for e in entries}):
        mine = [s for s, e in zip(spans, entries) if int(e["progress"]) == p]
        counts = running_at_once(mine)
        progress[p] = {
            "tasks": len(mine),
            "span": max(b for a, b in mine) - min(a for a, b in mine),
            "cpu_seconds": sum(float(e["cpu_seconds"]) for e in entries
                               if int(e["progress"]) == p),
            "short_of_jobs": sum(s for k, s in counts.items() if k < jobs)}
    return {"tasks": len(entries), "jobs": jobs, "busy_seconds": busy,
            "task_seconds": sum(b - a for a, b in spans),
            "lost_seconds": lost,
            "cpu_seconds": sum(float(e["cpu_seconds"]) for e in entries),
            "running_at_once": {str(k): at_once[k] for k in sorted(at_once)},
            "by_kind": {k: kinds[k] for k in sorted(kinds)},
            "by_progress": {str(p): v for p, v in progress.items()}}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Sum up the task log of a parallel disk search (DIR/tasks.jsonl).")
    parser.add_argument("log", metavar="DIR", help="the work directory, or its tasks.jsonl")
    parser.add_argument("--jobs", type=int, default=None,
                        help="the run's jobs (default: the most tasks the log shows at once)")
    parser.add_argument("--json", action="store_true", help="one JSON object")
    args = parser.parse_args(argv)
    if args.jobs is not None and args.jobs < 1:
        parser.error("--jobs: at least 1")
    try:
        entries = read_log(args.log)
    except (OSError, ValueError) as e:
        print(f"task_log.py: {e}", file=sys.stderr)
        return 2
    s = summary(entries, args.jobs)
    if args.json:
        print(json.dumps(s))
        return 0
    busy = s["busy_seconds"] or 1.0
    print(f"{s['tasks']} tasks, {args.jobs or s['jobs']} jobs; "
          f"some task running for {s['busy_seconds']:.1f} s")
    print(f"task seconds {s['task_seconds']:.1f} (CPU {s['cpu_seconds']:.1f}), "
          f"of which not kept {s['lost_seconds']:.1f} "
          f"({100 * s['lost_seconds'] / max(s['task_seconds'], 1e-9):.1f} %)")
    print("tasks running at once: " + ", ".join(
        f"{k}: {v:.1f} s ({100 * v / busy:.1f} %)" for k, v in s["running_at_once"].items()))
    print(f"{'kind and status':<24}{'tasks':>7}{'seconds':>11}{'CPU s':>11}{'positions':>16}")
    for k, v in s["by_kind"].items():
        print(f"{k:<24}{v['tasks']:>7}{v['seconds']:>11.1f}{v['cpu_seconds']:>11.1f}"
              f"{v['nodes']:>16,}")
    print(f"{'progress':>8}{'tasks':>7}{'span s':>10}{'CPU s':>10}{'short of jobs s':>17}")
    for p, v in s["by_progress"].items():
        print(f"{p:>8}{v['tasks']:>7}{v['span']:>10.1f}{v['cpu_seconds']:>10.1f}"
              f"{v['short_of_jobs']:>17.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
