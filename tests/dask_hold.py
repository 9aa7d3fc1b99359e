"""Preloaded into a test's Dask worker (``dask worker --preload``): it holds
one task of the layered search or one batch of a survey, so that a test
kills that task's worker in the middle of it, whatever the machine's speed.

The directory in ``BAKERSDOZEN_TEST_HOLD`` numbers the tasks that begin on
the workers that share it (a file ``task.N`` each, made with ``O_EXCL``).
The task that gets the number in its file ``at`` writes the worker's name
to ``held`` and sleeps until its worker is killed; every other task, the
same task again on another worker included, runs as it would.
"""

from __future__ import annotations

import itertools
import os
import time
from typing import Any

from distributed import get_worker

from bakersdozen import _parallel
from bakersdozen.survey import cluster

_HOLD = os.environ["BAKERSDOZEN_TEST_HOLD"]
_run_task = _parallel.run_task
_solve_on_worker = cluster.solve_on_worker


def _number() -> int:
    """This task's number among those begun on the workers: the first free."""
    for n in itertools.count():
        try:
            os.close(os.open(os.path.join(_HOLD, f"task.{n}"), os.O_CREAT | os.O_EXCL))
        except FileExistsError:
            continue
        return n
    raise AssertionError("unreachable")  # pragma: no cover


def _hold() -> None:
    """Sleep until this worker is killed if this task is the one held."""
    with open(os.path.join(_HOLD, "at")) as handle:
        at = int(handle.read())
    if _number() == at:
        with open(os.path.join(_HOLD, "held.part"), "w") as handle:
            handle.write(str(get_worker().name))
        os.replace(os.path.join(_HOLD, "held.part"), os.path.join(_HOLD, "held"))
        while True:  # until the test kills this worker
            time.sleep(0.1)


def run_task(task: dict[str, Any], *args: Any) -> dict[str, Any]:
    _hold()
    return _run_task(task, *args)


def solve_on_worker(*args: Any) -> Any:
    _hold()
    return _solve_on_worker(*args)


# the driver's tasks name bakersdozen._parallel.run_task and
# bakersdozen.survey.cluster.solve_on_worker: the unpickled function is
# whatever the module holds under that name in this process
_parallel.run_task = run_task  # type: ignore[assignment]
cluster.solve_on_worker = solve_on_worker  # type: ignore[assignment]
