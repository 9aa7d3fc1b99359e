"""Dask's client as an executor (private): what the disk search in parallel
tasks (:mod:`bakersdozen.solver`, ``scheduler=``) and the surveys on a
cluster (:mod:`bakersdozen.survey.cluster`, which re-exports these names)
share.  Dask itself is imported only when a cluster is used (``pip install
"bakersdozen[dask]"``).
"""

from __future__ import annotations

import importlib
import logging
import math
import threading
import time
import uuid
from collections.abc import Callable
from concurrent.futures import CancelledError, Executor, Future, InvalidStateError
from typing import Any, Final, TypeVar

from .errors import BakersDozenError

__all__ = ["ClusterError", "DaskExecutor", "connect_address", "import_distributed",
           "is_dask_client", "quiet_logs", "CONNECT_TIMEOUT", "WINDOW_REFRESH"]

T = TypeVar("T")

#: Seconds between two looks at the cluster's size (:meth:`DaskExecutor.window`).
WINDOW_REFRESH: Final = 2.0
#: Seconds to wait for the scheduler when connecting (Dask's own default is 30).
CONNECT_TIMEOUT: Final = 10.0

_CLIENT_CLASS: Any = None


class ClusterError(BakersDozenError):
    """The Dask scheduler cannot be reached, or was lost during a survey."""


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
            if done.status == "cancelled":
                settle(lambda: future.set_exception(_lost(address)))
                return
            # Dask calls back once the status leaves "pending": "finished" and
            # "error", but also "lost" (a finished task's result went with its
            # worker and is being computed again; exception() would wait for
            # it, then give None).  result() waits for whichever comes.
            try:
                result = done.result()
            except BaseException as failure:  # noqa: BLE001 - the task's error, a lost scheduler
                lost = self.client.status not in ("running", "newly-created")
                reason = _lost(address) if lost or isinstance(failure, CancelledError) \
                    else failure
                settle(lambda: future.set_exception(reason))
            else:
                settle(lambda: future.set_result(result))

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
                    self.cluster.close()
                except Exception:  # noqa: BLE001 - already gone
                    pass
        finally:
            quiet.setLevel(level)


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


def import_distributed() -> Any:
    """The ``distributed`` module (BakersDozenError, one line, if it is not installed)."""
    try:
        import distributed
    except ImportError:
        raise BakersDozenError(  # not a ClusterError: nothing to resume against
            "running on Dask needs the 'distributed' package: pip install 'bakersdozen[dask]'"
        ) from None
    return distributed  # not fully typed


def connect_address(scheduler: str, timeout: float = CONNECT_TIMEOUT) -> DaskExecutor:
    """A :class:`DaskExecutor` on the scheduler at *scheduler* (``tcp://host:8786``;
    ``host:port`` alone means tcp), whose client it closes.

    Raises
    ------
    ClusterError
        If the scheduler cannot be reached.
    BakersDozenError
        If ``distributed`` is not installed.
    """
    dask = import_distributed()
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
