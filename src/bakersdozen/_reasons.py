"""The names of the engine's stop statuses (private): the ``reason`` of an
unknown :class:`~bakersdozen.Solution` (:mod:`bakersdozen.solver`) and the
``status`` of a task in the parallel disk search's log
(:mod:`bakersdozen._parallel`) name them alike.  It imports only the engine
modules both of those import already.
"""

from __future__ import annotations

from types import MappingProxyType

from . import _layers, _search

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing is not imported at run time (start-up)
    from typing import Final

#: A search's status when it stopped at a limit -> the limit's name (the
#: option that sets it).
STOP_REASONS: Final = MappingProxyType({
    _search.NODE_LIMIT: "max_nodes",
    _search.TIME_LIMIT: "time_limit",
    _search.OUT_OF_MEMORY: "memory_mb",
    _layers.DISK_FULL: "disk",
})
