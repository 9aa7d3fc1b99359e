"""``bakersdozen tasks``: where the time of a layered search in tasks went.

``bakersdozen tasks DIR`` reads the task log that a layered search on disk
in tasks (``solve --layers --work-dir DIR --jobs N``, or on a Dask
cluster) keeps in its work directory (:mod:`bakersdozen.task_log`) and
prints its summary: the tasks by kind and status, the seconds with one,
two, ... tasks running, the share of task time whose work was not kept,
and each progress value's span.  ``--json`` prints
:func:`bakersdozen.task_log.summary` as one object.  Exit status 0, or 2
for a log that cannot be read or holds a line that is not an entry.
"""

from __future__ import annotations

import argparse
import json

from ._common import EXIT_OK, file_name, positive_int

HELP = "sum up the task log of a layered search on disk in tasks: where its time went"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("log", type=file_name, metavar="DIR",
                        help="the search's work directory (--work-dir), or its tasks.jsonl")
    parser.add_argument("--jobs", "-j", type=positive_int, metavar="N",
                        help="the tasks the run ran at once (default: the most the log shows "
                        "running at once)")
    parser.add_argument("--json", action="store_true", help="print the summary as one JSON object")


def run(args: argparse.Namespace) -> int:
    from ..task_log import read_log, summary

    s = summary(read_log(args.log), args.jobs)
    if args.json:
        print(json.dumps(s))
        return EXIT_OK
    busy = s["busy_seconds"] or 1.0
    tasks = s["task_seconds"] or 1.0
    print(f"{s['tasks']} tasks, {s['jobs']} at once at most; some task running for "
          f"{s['busy_seconds']:.1f} s")
    print(f"task time {s['task_seconds']:.1f} s (CPU {s['cpu_seconds']:.1f} s), of which not "
          f"kept {s['lost_seconds']:.1f} s ({100 * s['lost_seconds'] / tasks:.1f} %)")
    print("tasks running at once: " + ", ".join(
        f"{k}: {v:.1f} s ({100 * v / busy:.1f} %)" for k, v in s["running_at_once"].items()))
    print()
    print(f"{'kind, status':<24}{'tasks':>7}{'seconds':>11}{'CPU s':>11}{'positions':>17}")
    for k, v in s["by_kind"].items():
        print(f"{k:<24}{v['tasks']:>7}{v['seconds']:>11.1f}{v['cpu_seconds']:>11.1f}"
              f"{v['nodes']:>17,}")
    print()
    print(f"{'progress':>8}{'tasks':>7}{'span s':>10}{'CPU s':>10}{'short of jobs s':>17}")
    for p, v in s["by_progress"].items():
        print(f"{p:>8}{v['tasks']:>7}{v['span']:>10.1f}{v['cpu_seconds']:>10.1f}"
              f"{v['short_of_jobs']:>17.1f}")
    return EXIT_OK
