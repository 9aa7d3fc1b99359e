"""Child processes for the tests: each in its own process group, always ended.

Every test that starts a process starts it here:

- :func:`started` (a context manager) starts *argv* in a new session (so
  its own process group, whose id is its pid), with the default action
  for SIGINT, SIGTERM, SIGHUP and SIGQUIT and no signal blocked, whatever
  the test run inherited: ``nohup pytest &``, a shell script's ``&`` and
  some CI runners start pytest with SIGINT ignored, and a child would
  inherit that (a signal test would then wait for a Ctrl-C that does
  nothing).  On leaving the block, whatever happened, the whole group gets
  SIGKILL and the child is reaped: nothing it started outlives the test.
- :func:`run` is :func:`subprocess.run` on top of it (output captured, a
  timeout always).
- :func:`end` ends a group now (a cluster fixture, a worker killed on purpose);
  :func:`kill_past` kills one once its checkpoint has passed a count.
- :func:`default_sigint` lets a test send SIGINT to pytest's own process;
  :func:`default_signals` is the `preexec_fn` of a child started elsewhere (chromedriver).
- :func:`processes` lists the processes running now (Linux ``/proc``): a test
  looks there for what a child left behind.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["ENV", "DEFAULT_SIGNALS", "Process", "default_signals", "default_sigint", "end",
           "processes", "run", "spawn", "started"]

#: The environment of a child: this interpreter's sys.path (the package and tests/).
ENV = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
#: Signals a child gets with their default action.
DEFAULT_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT)


def default_signals() -> None:
    """In a child, between fork and exec (``preexec_fn``): default actions, none blocked."""
    for number in DEFAULT_SIGNALS:
        signal.signal(number, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_SETMASK, [])


def spawn(argv: list[str], **kwargs: Any) -> subprocess.Popen[Any]:
    """``subprocess.Popen(argv)`` in a new session, default signal actions, env :data:`ENV`.

    Prefer :func:`started`; whoever calls this must :func:`end` the child in a ``finally``.
    """
    kwargs.setdefault("env", ENV)
    kwargs.setdefault("stdin", subprocess.DEVNULL)
    previous: Callable[[], None] | None = kwargs.pop("preexec_fn", None)

    def prepare() -> None:
        default_signals()
        if previous is not None:
            previous()

    return subprocess.Popen(argv, start_new_session=True, preexec_fn=prepare, **kwargs)


def end(process: subprocess.Popen[Any]) -> None:
    """SIGKILL to *process*'s whole group (it leads it), then reap it."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):  # the group is empty already
        pass
    try:
        process.wait(30)
    except subprocess.TimeoutExpired:  # pragma: no cover - SIGKILL cannot be ignored
        pass
    for stream in (process.stdin, process.stdout, process.stderr):
        if stream is not None:
            stream.close()


@contextlib.contextmanager
def started(argv: list[str], **kwargs: Any) -> Iterator[subprocess.Popen[Any]]:
    """:func:`spawn` *argv*; on leaving, whatever happened, :func:`end` its group."""
    process = spawn(argv, **kwargs)
    try:
        yield process
    finally:
        end(process)


def run(argv: list[str], *, timeout: float = 120, input: str | bytes | None = None,
        capture_output: bool = True, text: bool = True,
        **kwargs: Any) -> subprocess.CompletedProcess[Any]:
    """:func:`subprocess.run` in a group of its own, ended on leaving (:func:`started`).

    Raises :class:`subprocess.TimeoutExpired` after *timeout* seconds, the
    group killed.
    """
    if capture_output:
        kwargs.setdefault("stdout", subprocess.PIPE)
        kwargs.setdefault("stderr", subprocess.PIPE)
    if input is not None:
        kwargs["stdin"] = subprocess.PIPE
    with started(argv, text=text, **kwargs) as process:
        stdout, stderr = process.communicate(input, timeout=timeout)
        return subprocess.CompletedProcess(argv, process.returncode, stdout, stderr)


def kill_past(process: subprocess.Popen[Any], nodes: Callable[[], int], threshold: int,
              what: str, timeout: float = 120) -> None:
    """SIGKILL *process*'s group as soon as ``nodes()`` (a checkpoint's count,
    read from its files; OSError or ValueError while they are not written yet
    counts as 0) reaches *threshold*, and reap it.  Fails the test if *what*
    ends first or *timeout* seconds pass."""
    import time

    import pytest

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            reached = nodes()
        except (OSError, ValueError):  # not written yet
            reached = 0
        if reached >= threshold:
            break
        assert process.poll() is None, f"{what} ended before it was killed"
        time.sleep(0.01)
    else:  # pragma: no cover
        pytest.fail(f"no checkpoint past {threshold:,} nodes in {timeout:.0f} s")
    os.killpg(process.pid, signal.SIGKILL)
    process.wait(30)


@contextlib.contextmanager
def default_sigint() -> Iterator[None]:
    """SIGINT raises KeyboardInterrupt in this process inside the block, even if the
    test run was started with it ignored; the previous action is put back after."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


@dataclass(frozen=True)
class Process:
    """A process as ``/proc/PID/stat`` shows it (proc(5))."""

    pid: int
    #: One letter: R running, S sleeping, ..., Z zombie, X dead.
    state: str
    parent: int
    session: int

    @property
    def live(self) -> bool:
        """Neither a zombie nor dead."""
        return self.state not in ("Z", "X")

    def command(self) -> str | None:
        """The command line, arguments joined by spaces; None if the process is gone."""
        try:
            return Path(f"/proc/{self.pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            return None


def processes() -> list[Process]:
    """The processes running now, read from ``/proc`` (Linux); one that ends meanwhile is left out."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # after the command name in parentheses: state, ppid, pgrp, session, ...
        fields = stat[stat.rindex(")") + 2:].split()
        found.append(Process(int(entry.name), fields[0], int(fields[1]), int(fields[3])))
    return found
