"""Executors for surveys: in this process, or worker processes that die with the survey.

:func:`process_executor` makes a :class:`~concurrent.futures.ProcessPoolExecutor`
(``spawn`` start method) whose workers

- ignore SIGINT: Ctrl-C to the terminal's process group interrupts the
  survey, which stops the workers itself, and no worker prints a
  traceback.  SIGINT is blocked in the survey's thread while it submits a
  task (which may start a worker), so a worker's interpreter starts with
  SIGINT blocked until its initializer ignores it (a worker started with it
  deliverable would turn it into KeyboardInterrupt before its initializer
  ran).  Blocked, not ignored: a Ctrl-C at that moment stays pending and
  interrupts the survey once the task is submitted (ignored, it was lost,
  and the survey ran on);
- exit when the survey's process is gone, however it ended (SIGKILL
  included): on Linux the kernel sends them SIGKILL
  (``prctl(PR_SET_PDEATHSIG)``), elsewhere a thread in each worker polls
  ``os.getppid()`` every 0.2 s.  Once the workers are gone the
  multiprocessing resource tracker sees its pipe close and exits too.

:func:`stop` ends a pool at once: pending tasks cancelled, running workers
terminated and joined, the pool's manager thread joined.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from typing import Any, Final, TypeVar

__all__ = ["InlineExecutor", "process_executor", "stop", "submit"]

T = TypeVar("T")

#: Seconds between two checks of the parent in a worker (where prctl is missing).
PARENT_POLL: Final = 0.2
_PR_SET_PDEATHSIG: Final = 1
#: Seconds :func:`stop` waits for a pool's manager thread once its workers are gone.
MANAGER_JOIN: Final = 10.0


class InlineExecutor(Executor):
    """An executor that runs each task in the calling thread, at submission.

    The survey with ``jobs=1`` uses it, so that one code path serves every
    executor.  KeyboardInterrupt propagates from :meth:`submit`.
    """

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        future: Future[T] = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except Exception as error:  # a task's failure is its future's
            future.set_exception(error)
        return future


def _watch_parent(parent: int) -> None:
    while True:
        time.sleep(PARENT_POLL)
        if os.getppid() != parent:
            os._exit(1)


def _worker_init(parent: int) -> None:
    """Run in each worker before its first task (see the module documentation)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):  # pragma: no cover - no prctl
            pass
    if os.getppid() != parent:  # the parent died before prctl took effect
        os._exit(1)
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()


def process_executor(jobs: int) -> ProcessPoolExecutor:
    """A pool of *jobs* worker processes that die with this process (module documentation)."""
    import multiprocessing

    return ProcessPoolExecutor(
        max_workers=jobs,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_worker_init,
        initargs=(os.getpid(),),
    )


def submit(executor: Executor, fn: Callable[..., T], *args: Any) -> Future[T]:
    """``executor.submit(fn, *args)``, with SIGINT blocked while a process pool may start a
    worker (module documentation); a SIGINT meanwhile is delivered after."""
    if isinstance(executor, ProcessPoolExecutor) and hasattr(signal, "pthread_sigmask"):
        previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            return executor.submit(fn, *args)
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, previous)
    return executor.submit(fn, *args)


def stop(executor: Executor) -> None:
    """Shut *executor* down now: cancel what has not started, end what runs.

    A :class:`~concurrent.futures.ProcessPoolExecutor`'s workers are
    terminated (SIGTERM) and joined, and so is the pool's manager thread,
    which reacts to the workers' end (it fails the futures still running
    with BrokenProcessPool and closes the pool's queues), for at most
    ``MANAGER_JOIN`` seconds.  ``shutdown(wait=False)`` drops the
    executor's handle on that thread, so without this it could still be
    running when the survey went on to exit.  Any other executor is shut
    down with ``cancel_futures=True`` and waited for.
    """
    if isinstance(executor, ProcessPoolExecutor):
        processes = list((getattr(executor, "_processes", None) or {}).values())
        manager: threading.Thread | None = getattr(executor, "_executor_manager_thread", None)
        executor.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            if process.is_alive():
                process.terminate()
        for process in processes:
            process.join(5)
            if process.is_alive():  # pragma: no cover - SIGTERM is not ignored
                process.kill()
                process.join()
        if manager is not None and manager is not threading.current_thread():
            manager.join(MANAGER_JOIN)
        executor.shutdown(wait=True)
        return
    executor.shutdown(wait=True, cancel_futures=True)
