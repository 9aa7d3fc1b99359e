"""The local Dask cluster of ``survey --cluster local:N``, run in a process of its own.

``python -m bakersdozen.survey._local_cluster N`` starts a
``distributed.LocalCluster`` of N worker processes (0: Dask's choice;
:func:`bakersdozen.survey.cluster.start_local_cluster`), prints its
scheduler's address as one line on standard output (or ``error: ...``
if it cannot start), then reads standard
input until it ends and closes the cluster.  It is started by
:func:`bakersdozen.survey.cluster.connect` (``local=True``), in a session
of its own, with a pipe as standard input, and that is the whole protocol:

- Ctrl-C at the terminal reaches the survey alone (this process and its
  workers are in another process group, and ignore SIGINT besides): no
  worker prints a traceback, and the survey closes the cluster itself;
- when the survey's process ends, however it ends (SIGKILL included), the
  kernel closes the pipe, and this process closes the cluster in order:
  the multiprocessing semaphores its nannies made are released by the
  process that made them, and the resource tracker finds nothing leaked;
- before it closes the workers it waits (up to
  :data:`~bakersdozen.survey.cluster.CLIENT_GRACE` seconds) for the
  scheduler to see its clients (the survey's) gone: a survey killed just
  after it sent tasks leaves the scheduler busy with them, and the
  workers' leaving would make it write their results' loss to the dead
  client, a CRITICAL line with a traceback on the survey's standard error;
- SIGTERM closes the cluster in order too, at once (no wait for clients).

Its standard error is the survey's; the status is 0, or 1 when the cluster
could not start.
"""

from __future__ import annotations

import signal
import sys
import time
from types import FrameType
from typing import Any


def _stop(signum: int, frame: FrameType | None) -> None:
    raise SystemExit(0)


def wait_for_clients(cluster: Any, timeout: float) -> bool:
    """Wait up to *timeout* seconds until *cluster*'s scheduler (in this process)
    has no client connection left; True if none is left."""
    deadline = time.monotonic() + timeout
    while cluster.scheduler.client_comms:  # the scheduler's thread empties it
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.01)
    return True


def main(argv: list[str]) -> int:
    """Run the cluster until standard input ends (module documentation)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the workers inherit it
    signal.signal(signal.SIGTERM, _stop)
    signal.signal(signal.SIGHUP, signal.SIG_IGN)  # the pipe says when to stop
    from .cluster import CLIENT_GRACE, CLOSE_TIMEOUT, start_local_cluster

    workers = int(argv[0]) if argv else 0
    try:
        cluster = start_local_cluster(workers or None)
    except Exception as error:  # noqa: BLE001 - ports, processes, memory: one line
        print("error: " + " ".join(f"{type(error).__name__}: {error}".split())[:300],
              flush=True)
        return 1
    try:
        sys.stdout.write(f"{cluster.scheduler_address}\n")
        sys.stdout.flush()
        while sys.stdin.buffer.read(4096):  # nothing is sent: only the end counts
            pass
        wait_for_clients(cluster, CLIENT_GRACE)
    finally:
        cluster.close(timeout=CLOSE_TIMEOUT)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
