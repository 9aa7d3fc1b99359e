"""Surveys on Dask distributed: a running cluster, or a local one started for the survey.

:class:`DaskExecutor` is a :class:`concurrent.futures.Executor` that runs
tasks on a ``distributed.Client``, so the survey's one code path
(:func:`bakersdozen.survey.runner.run`: tasks, records, resume, summary)
serves a cluster exactly as it serves worker processes.  Dask itself is
imported only here, and only when a cluster is used (``pip install
"bakersdozen[dask]"``).

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

import importlib
import logging
import math
import threading
import time
import uuid
from collections.abc import Callable
from concurrent.futures import Executor, Future, InvalidStateError
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Final, TypeVar

from ..errors import BakersDozenError

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
#: Seconds between two looks at the cluster's size (:meth:`DaskExecutor.window`).
WINDOW_REFRESH: Final = 2.0
#: Seconds to wait for the scheduler when connecting (Dask's own default is 30).
CONNECT_TIMEOUT: Final = 10.0


class ClusterError(BakersDozenError):
    """The Dask scheduler cannot be reached, or was lost during a survey."""


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


def quiet_logs() -> None:
    """Silence Dask's own log lines in this process (the client's), below CRITICAL.

    A lost scheduler makes the client log tracebacks while it tries to
    reconnect; the command line says what happened in one line instead.
    """
    try:
        importlib.import_module("distributed")  # sets up Dask's loggers
    except ImportError:
        return
    for name in list(logging.root.manager.loggerDict):
        if name == "distributed" or name.startswith("distributed."):
            logging.getLogger(name).setLevel(logging.CRITICAL)
    logging.getLogger("distributed").setLevel(logging.CRITICAL)


def is_dask_client(value: object) -> bool:
    """True for a ``distributed.Client`` (checked without importing Dask)."""
    return any(
        cls.__name__ == "Client" and cls.__module__.startswith("distributed")
        for cls in type(value).__mro__
    )


def _lost(address: str) -> ClusterError:
    return ClusterError(
        f"lost the Dask scheduler at {address} during the survey; the records "
        "written are kept: run the same command again to resume"
    )


class DaskExecutor(Executor):
    """Run tasks on a ``distributed.Client`` as a :class:`concurrent.futures.Executor`.

    Parameters
    ----------
    client : distributed.Client
    cluster : LocalClusterProcess, optional
        A cluster started for this executor (anything with ``close(timeout=)``):
        :meth:`close` closes it.
    own_client : bool
        Close *client* in :meth:`close` (True when this module made it).

    Notes
    -----
    A task that Dask cancels because the client lost the scheduler fails
    with :class:`ClusterError`; one the caller cancels is cancelled.  Each
    Dask future gets a unique key (tasks are not merged by content).
    """

    def __init__(self, client: Any, cluster: Any = None, own_client: bool = False) -> None:
        # Any: Dask's classes are not fully typed (and not imported at all here).
        self.client: Any = client
        self.cluster: Any = cluster
        self._own_client = own_client
        self._futures: dict[str, Any] = {}
        self._lock = threading.Lock()
        self._shutdown = False
        self._window = 2
        self._window_at = -math.inf
        self.address: str = str(getattr(client.scheduler, "address", "") or "")

    @property
    def threads(self) -> int:
        """Threads across the cluster's workers now (at least 1)."""
        try:
            workers = self.client.scheduler_info(n_workers=-1).get("workers", {})
        except Exception:  # noqa: BLE001 - a lost scheduler: one thread
            return 1
        return max(1, sum(int(w.get("nthreads", 1)) for w in workers.values()))

    def window(self) -> int:
        """Tasks to keep pending: four times the cluster's threads (asked at most every 2 s)."""
        now = time.monotonic()
        if now - self._window_at >= WINDOW_REFRESH:
            self._window = 4 * self.threads
            self._window_at = now
        return self._window

    def run_options(self) -> dict[str, Any]:
        """How :func:`~bakersdozen.survey.runner.run` feeds this executor (its keyword arguments).

        The window (:meth:`window`), batches of about :data:`TASK_SECONDS`,
        and :func:`solve_on_worker` to fit each batch's table to its worker.
        """
        return {
            "window": self.window, "target_seconds": TASK_SECONDS,
            "batch_function": solve_on_worker,
        }

    def wait_for_workers(self, count: int = 1, timeout: float | None = None) -> None:
        """Block until *count* workers are connected (ClusterError after *timeout*)."""
        try:
            self.client.wait_for_workers(count, timeout=timeout)
        except Exception as error:  # noqa: BLE001 - TimeoutError, a lost scheduler
            raise ClusterError(
                f"no Dask worker joined the scheduler at {self.address} within "
                f"{timeout} s: start one with `dask worker {self.address}` ({error})"
            ) from None

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        if self._shutdown:
            raise RuntimeError("cannot submit to a DaskExecutor after shutdown")
        if self.client.status not in ("running", "newly-created"):
            raise _lost(self.address)
        key = f"bakersdozen-{getattr(fn, '__name__', 'task')}-{uuid.uuid4().hex}"
        try:
            dask_future = self.client.submit(fn, *args, key=key, pure=False, **kwargs)
        except Exception:  # noqa: BLE001 - a closed client, a lost scheduler
            if self.client.status not in ("running", "newly-created"):
                raise _lost(self.address) from None
            raise
        future: Future[T] = Future()
        with self._lock:
            self._futures[key] = dask_future
        address = self.address

        def cancel_on_dask(ours: Future[T]) -> None:  # run()'s cancel() reaches the cluster
            if ours.cancelled() and dask_future.status == "pending":
                try:
                    dask_future.cancel()
                except Exception:  # noqa: BLE001 - the scheduler is gone
                    pass

        def settle(outcome: Callable[[], None]) -> None:
            try:
                outcome()
            except InvalidStateError:  # cancelled meanwhile
                pass

        def transfer(done: Any) -> None:
            with self._lock:
                self._futures.pop(key, None)
            if future.done():
                return
            status = done.status
            try:
                if status == "finished":
                    result = done.result()
                    settle(lambda: future.set_result(result))
                elif status == "cancelled":
                    settle(lambda: future.set_exception(_lost(address)))
                else:
                    error = done.exception()
                    settle(lambda: future.set_exception(error))
            except BaseException as failure:  # noqa: BLE001 - gathering failed
                lost = self.client.status not in ("running", "newly-created")
                reason = _lost(address) if lost else failure
                settle(lambda: future.set_exception(reason))

        future.add_done_callback(cancel_on_dask)
        dask_future.add_done_callback(transfer)
        return future

    def cancel_all(self) -> None:
        """Cancel every task still pending or running on the cluster."""
        with self._lock:
            futures = list(self._futures.values())
            self._futures.clear()
        if futures and self.client.status == "running":
            try:
                self.client.cancel(futures)
            except Exception:  # noqa: BLE001 - the scheduler is gone: nothing to cancel
                pass

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Stop taking tasks; cancel those on the cluster if *cancel_futures* or not *wait*."""
        self._shutdown = True
        if cancel_futures or not wait:
            self.cancel_all()

    def close(self) -> None:
        """Cancel what is left; close the client and the cluster if this executor made them."""
        self.shutdown(wait=False, cancel_futures=True)
        quiet = logging.getLogger("distributed")
        level = quiet.level
        quiet.setLevel(logging.CRITICAL)  # closing after a lost scheduler logs tracebacks
        try:
            if self._own_client:
                try:
                    self.client.close(timeout=5)
                except Exception:  # noqa: BLE001 - already gone
                    pass
            if self.cluster is not None:
                try:
                    self.cluster.close(timeout=10)
                except Exception:  # noqa: BLE001 - already gone
                    pass
        finally:
            quiet.setLevel(level)


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

    def close(self, timeout: float = 10) -> None:
        """End the cluster: close its standard input, wait up to *timeout* s for it
        to close in order, then kill what is left of its process group."""
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


_CLIENT_CLASS: Any = None


def _client_class(distributed: Any) -> Any:
    """``distributed.Client``, made to close itself when it fails to start.

    A client whose connection fails with other than OSError (a malformed
    address: ``tcp://bogus``, an unknown scheme) is left half-made by Dask;
    its ``__del__`` then tries to close it, times out after twice the
    connect timeout and prints a traceback ("Exception ignored in
    Client.__del__").  Closed at once, it has nothing left to do.
    """
    global _CLIENT_CLASS
    if _CLIENT_CLASS is None:
        class Client(distributed.Client):  # type: ignore[misc]
            def start(self, **kwargs: Any) -> None:
                try:
                    super().start(**kwargs)
                except BaseException:
                    try:
                        self.close(timeout=5)
                    except Exception:  # noqa: BLE001 - the error that matters is the first
                        pass
                    raise

        _CLIENT_CLASS = Client
    return _CLIENT_CLASS


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
    try:
        import distributed
    except ImportError:
        raise BakersDozenError(  # not a ClusterError: nothing to resume against
            "running on Dask needs the 'distributed' package: pip install 'bakersdozen[dask]'"
        ) from None
    dask: Any = distributed  # not fully typed
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
    address = scheduler if "://" in scheduler else f"tcp://{scheduler}"
    try:
        client = _client_class(dask)(address, timeout=timeout, set_as_default=False)
    except Exception as error:  # noqa: BLE001 - OSError, TimeoutError, bad addresses
        reason = " ".join(str(error).split())[:200] or type(error).__name__
        raise ClusterError(
            f"cannot reach the Dask scheduler at {address} ({reason}); is `dask scheduler` "
            "running there?"
        ) from None
    return DaskExecutor(client, own_client=True)
