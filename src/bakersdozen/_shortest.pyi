"""Type stubs for the compiled shortest-line module (see _shortest.pyx; private module)."""

from collections.abc import Callable, Sequence

from ._position import RawMove

FOUND: int
BOUND_MET: int
UNSOLVABLE: int
NODE_LIMIT: int
TIME_LIMIT: int

class ShortestSearch:
    def __init__(
        self,
        columns: Sequence[Sequence[int]],
        foundations: Sequence[int] = ...,
        ranks: int = ...,
        *,
        memory_mb: float = ...,
    ) -> None: ...
    def lower_bound(self) -> int: ...
    def run(
        self, *, time_limit: float = ..., max_nodes: int = ..., upper: int = ...,
        progress: Callable[[int, int], object] | None = ...,
    ) -> tuple[int, list[RawMove], int, int, int]: ...

def root_bound(columns: Sequence[Sequence[int]], foundations: Sequence[int], ranks: int) -> int: ...
def bound_parts(
    columns: Sequence[Sequence[int]], foundations: Sequence[int], ranks: int
) -> tuple[int, int, int]: ...
def _set_max_cycle(n: int) -> None: ...
def window_shorten(
    columns: Sequence[Sequence[int]],
    foundations: Sequence[int],
    ranks: int,
    moves: list[RawMove],
    width: int = ...,
    budget: int = ...,
) -> list[RawMove]: ...
