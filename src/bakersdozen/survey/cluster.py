"""Surveys on Dask distributed: a running cluster, or a local one started for the survey.

:class:`DaskExecutor` is a :class:`concurrent.futures.Executor` that runs
tasks on a ``distributed.Client``, so the survey's one code path
(:func:`bakersdozen.survey.runner.run`: tasks, records, resume, summary)
serves a cluster exactly as it serves worker processes.  It, the client
and :class:`ClusterError` live in ``bakersdozen._dask`` (the disk
search's tasks on a cluster use them too, below the survey) and are
re-exported here.  Dask itself is imported only when a cluster is used
(``pip install "bakersdozen[dask]"``).

Tasks on a cluster
------------------
A task solves a small batch of deals (:func:`solve_on_worker`, the
runner's ``batch_function``); the batch
grows so that a task holds about :data:`TASK_SECONDS` of work (runner's
``target_seconds``), which keeps Dask's per-task cost (a few ms)
small next to the 2 ms a typical deal takes.  A task is a pure function of
its deals and limits (no time limit: the same verdict and node count
wherever it runs); when a worker dies, the scheduler runs its tasks again
elsewhere, and the client gets each task's records once, so each deal is
written once.

Memory
------
Each task fits its table to the worker it runs on
(:func:`worker_memory_mb`): ``MEMORY_FRACTION`` (one half) of the
worker's ``memory_limit`` divided by its threads, capped by the
``memory_mb`` asked for, at least 16 MiB; a worker without a memory
limit uses ``memory_mb`` as asked.  The other half covers the search
path, the interpreter and Dask itself, and stays under Dask's pause
(80 %) and terminate (95 %) thresholds.  The record gives the budget used.

A local cluster
---------------
``connect(local=True)`` runs a ``LocalCluster`` in a process of its own
(:class:`LocalClusterProcess`, ``bakersdozen.survey._local_cluster``), in its own session:
Ctrl-C at the terminal reaches the survey alone, and the cluster closes in
order when the survey's process ends, however it ends (no worker left, no
leaked semaphore).

Errors
------
:class:`ClusterError` (one line): the scheduler cannot be reached, or the
client lost it during the survey.  Records written before are kept; the
same command resumes.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Final, TypeVar

from .._dask import (  # the names solve(scheduler=) shares, re-exported
    CONNECT_TIMEOUT, ClusterError, DaskExecutor, connect_address, import_distributed,
    is_dask_client, quiet_logs,
)
from .._dask import _client_class

if TYPE_CHECKING:  # no import of the runner: it imports this module
    from ..records import Record
    from .tasks import Limits, Task

__all__ = [
    "ClusterError",
    "DaskExecutor",
    "LocalClusterProcess",
    "MEMORY_FRACTION",
    "MIN_TABLE_MB",
    "TASK_SECONDS",
    "connect",
    "is_dask_client",
    "parse_local",
    "quiet_logs",
    "run_options",
    "solve_on_worker",
    "worker_memory_mb",
]

T = TypeVar("T")

#: The share of a worker's memory limit (per thread) its tables may take.
MEMORY_FRACTION: Final = 0.5
#: The smallest table a task is given, MiB.
MIN_TABLE_MB: Final = 16
#: Seconds of solving a task on a cluster aims at (deals are batched to it).
TASK_SECONDS: Final = 1.0


def parse_local(text: str) -> int | None:
    """``"local"`` -> None (Dask chooses), ``"local:N"`` -> N workers; else ValueError."""
    name, _, count = text.strip().partition(":")
    if name != "local":
        raise ValueError(f"not 'local' or 'local:N': {text[:40]!r}")
    if not _:
        return None
    if not (count.isascii() and count.isdigit()) or not 1 <= int(count) <= 4096:
        raise ValueError(f"N in 'local:N' must be a whole number 1..4096, not {count[:40]!r}")
    return int(count)


def worker_memory_mb(memory_limit: float | None, nthreads: int, asked: float) -> float:
    """The table budget (MiB) of one task on a worker (module documentation).

    Parameters
    ----------
    memory_limit : float or None
        The worker's memory limit in bytes; None or 0 for no limit.
    nthreads : int
        The worker's threads (tasks at once).
    asked : float
        The survey's ``memory_mb``: the budget is never larger.
    """
    if not memory_limit:
        return asked
    share = math.floor(memory_limit * MEMORY_FRACTION / max(1, nthreads) / 2**20)
    return float(min(asked, max(MIN_TABLE_MB, share)))


def _this_worker() -> tuple[float | None, int] | None:
    """(memory limit, threads) of the Dask worker running this code, or None."""
    try:
        from distributed import get_worker

        worker = get_worker()
    except (ImportError, ValueError):
        return None
    limit = getattr(getattr(worker, "memory_manager", None), "memory_limit", None)
    threads = getattr(getattr(worker, "state", None), "nthreads", None) or 1
    return limit, int(threads)


def solve_on_worker(
    task_function: Callable[[Task, Limits], Record], tasks: list[Task], limits: Limits
) -> list[Record]:
    """Solve a batch of tasks on a Dask worker, the table fitted to it (:func:`worker_memory_mb`).

    :func:`bakersdozen.survey.runner.solve_batch` with ``limits.memory_mb``
    made to fit the worker running it.
    """
    here = _this_worker()
    if here is not None:
        budget = worker_memory_mb(here[0], here[1], limits.memory_mb)
        if budget != limits.memory_mb:
            limits = replace(limits, memory_mb=budget)
    return [task_function(task, limits) for task in tasks]


def run_options(executor: DaskExecutor) -> dict[str, Any]:
    """How :func:`~bakersdozen.survey.runner.run` feeds this executor (its keyword arguments).

    The window (:meth:`DaskExecutor.window`), batches of about :data:`TASK_SECONDS`,
    and :func:`solve_on_worker` to fit each batch's table to its worker.
    """
    return {
        "window": executor.window, "target_seconds": TASK_SECONDS,
        "batch_function": solve_on_worker,
    }


def _saturated() -> Any:
    import dask

    return dask.config.set({"distributed.scheduler.worker-saturation": math.inf})


def start_local_cluster(workers: int | None) -> Any:
    """A ``distributed.LocalCluster`` of *workers* processes (None: Dask's choice), one
    thread each, on 127.0.0.1 only, no dashboard; run by ``bakersdozen.survey._local_cluster``.

    Its log lines below CRITICAL are silenced, in its workers too: closing a
    cluster makes workers log the scheduler's going ("Failed to communicate
    with scheduler during heartbeat" and a traceback), and the survey reports
    what matters itself (a task that kills its workers, a lost scheduler).
    """
    import distributed

    dask: Any = distributed  # not fully typed
    # worker-saturation inf: the scheduler hands each worker its queued tasks
    # at once, so a worker never waits on a busy (or niced) scheduler
    with _saturated():
        return dask.LocalCluster(
            n_workers=workers, threads_per_worker=1, processes=True,
            host="127.0.0.1", dashboard_address=None, silence_logs=logging.CRITICAL,
            # the scheduler's HTTP routes on a free port (8787 may be taken)
            scheduler_kwargs={"dashboard": False, "dashboard_address": "127.0.0.1:0"},
        )


#: Seconds a local cluster may take to start (its worker processes import Dask).
LOCAL_START_TIMEOUT: Final = 120.0
#: Seconds a local cluster's process waits, once its standard input ends, for its
#: scheduler to see its clients gone (``bakersdozen.survey._local_cluster``).
CLIENT_GRACE: Final = 5.0
#: Seconds a local cluster's orderly close may take, after that wait.
CLOSE_TIMEOUT: Final = 10.0


class LocalClusterProcess:
    """A local Dask cluster in a process of its own (``bakersdozen.survey._local_cluster``).

    The process leads a session of its own, so that Ctrl-C at the terminal
    reaches the survey alone, and it closes its cluster in order when its
    standard input ends: at :meth:`close`, or when this process dies,
    SIGKILL included (the kernel closes the pipe), so that no worker is
    left and no semaphore leaks.

    Parameters
    ----------
    workers : int or None
        Worker processes, one thread each (None: Dask's choice).
    timeout : float
        Seconds to wait for the cluster to start.

    Raises
    ------
    ClusterError
        If the cluster does not start within *timeout*, or fails to (its error
        in one line).  Its other messages go to this process's standard error.
    """

    def __init__(self, workers: int | None, timeout: float = LOCAL_START_TIMEOUT) -> None:
        import os
        import subprocess
        import sys

        package = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
        path = os.environ.get("PYTHONPATH")
        env = dict(os.environ, PYTHONPATH=package if not path else f"{package}{os.pathsep}{path}")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "bakersdozen.survey._local_cluster", str(workers or 0)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env,
            start_new_session=True,
        )
        try:
            self.address = self._read_address(timeout)
        except BaseException:
            self.close()
            raise

    def _read_address(self, timeout: float) -> str:
        import os
        import selectors

        assert self.process.stdout is not None
        line = b""
        deadline = time.monotonic() + timeout
        with selectors.DefaultSelector() as selector:
            selector.register(self.process.stdout, selectors.EVENT_READ)
            while not line.endswith(b"\n"):
                left = deadline - time.monotonic()
                if left <= 0 or not selector.select(left):
                    raise ClusterError(
                        f"cannot start a local Dask cluster: not started within {timeout:g} s")
                chunk = os.read(self.process.stdout.fileno(), 256)
                if not chunk:
                    line += f"error: exit status {self.process.wait()}\n".encode()
                    break
                line += chunk
        text = line.decode(errors="replace").strip()
        if not text.startswith("tcp://"):  # "error: ..." (_local_cluster)
            raise ClusterError(f"cannot start a local Dask cluster: {text.removeprefix('error: ')}")
        return text

    def close(self, timeout: float = CLIENT_GRACE + CLOSE_TIMEOUT + 5) -> None:
        """End the cluster: close its standard input, wait up to *timeout* s for it
        to close in order, then kill what is left of its process group.

        The cluster's process waits up to ``CLIENT_GRACE`` s for its clients to
        go, then up to ``CLOSE_TIMEOUT`` s for its workers to close
        (``bakersdozen.survey._local_cluster``): the default covers both, should
        this process's client still be there.
        """
        import os
        import signal
        import subprocess

        try:
            if self.process.stdin is not None:
                try:
                    self.process.stdin.close()
                except OSError:  # pragma: no cover - it is gone
                    pass
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                pass
        finally:  # Ctrl-C while waiting, or a cluster that would not close
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            self.process.wait()
            if self.process.stdout is not None:
                self.process.stdout.close()


def connect(
    scheduler: str | None = None,
    local_workers: int | None = None,
    *,
    local: bool = False,
    timeout: float = CONNECT_TIMEOUT,
) -> DaskExecutor:
    """A :class:`DaskExecutor` on the scheduler at *scheduler*, or on a new local cluster.

    Parameters
    ----------
    scheduler : str or None
        A scheduler's address (``tcp://host:8786``).
    local_workers : int or None
        With *local*: the local cluster's worker processes (None: Dask's choice),
        one thread each, listening on 127.0.0.1 only, no dashboard.
    local : bool
        Start a ``distributed.LocalCluster`` in a process of its own
        (:class:`LocalClusterProcess`; closed by :meth:`DaskExecutor.close`).
    timeout : float
        Seconds to wait for the scheduler.

    Raises
    ------
    ClusterError
        If the scheduler cannot be reached (or a local cluster cannot start).
    BakersDozenError
        If ``distributed`` is not installed.
    """
    dask = import_distributed()
    if local:
        try:
            cluster = LocalClusterProcess(local_workers, max(timeout, LOCAL_START_TIMEOUT))
        except OSError as error:  # the interpreter cannot be started
            raise ClusterError(f"cannot start a local Dask cluster: {error}") from None
        try:
            client = _client_class(dask)(cluster.address, timeout=timeout,
                                         set_as_default=False)
        except BaseException:
            cluster.close()
            raise
        return DaskExecutor(client, cluster=cluster, own_client=True)
    assert scheduler is not None
    return connect_address(scheduler, timeout)
