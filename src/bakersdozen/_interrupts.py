"""A Ctrl-C or SIGTERM that an object's finalizer swallowed, raised again (private).

Python runs a signal handler between two bytecodes of the main thread.  When
those bytecodes belong to an object's ``__del__`` (a Dask future's, dropped
while the survey waits on a cluster), the exception the handler raises cannot
leave the finalizer: Python prints ``Exception ignored in: ... __del__`` and
the program goes on as if the signal had never come.  A survey on a cluster
then ran on after Ctrl-C until its deals were done.

So the command line's handlers :func:`note` the signal before raising, and
the loops that wait on running tasks (the survey's and the parallel layered
search's, which wait at most a fraction of a second at a time) call
:func:`check`, which raises it again.  Only the main thread's handlers note a
signal; nothing else is kept here.
"""

from __future__ import annotations

__all__ = ["note", "check", "clear"]

#: The exception type of the signal noted and not yet raised again, or None.
_pending: type[BaseException] | None = None


def note(kind: type[BaseException]) -> None:
    """Record that a signal handler raised *kind* (KeyboardInterrupt, or the
    command line's ``Terminated``), in case a finalizer swallows it."""
    global _pending
    _pending = kind


def check() -> None:
    """Raise the noted signal's exception again, once; nothing when none is noted.

    Raises
    ------
    KeyboardInterrupt or the type noted
        When a handler has noted one since the last :func:`clear`.
    """
    global _pending
    kind, _pending = _pending, None
    if kind is not None:
        raise kind()


def clear() -> None:
    """Forget a noted signal (its exception was caught where it is handled)."""
    global _pending
    _pending = None
