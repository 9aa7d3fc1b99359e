"""Type stubs for the compiled search module (see _search.pyx; private module)."""

from collections.abc import Callable, Sequence

from ._position import PlayCodes, RawMove

SOLVED: int
UNSOLVABLE: int
NODE_LIMIT: int
TIME_LIMIT: int
INTERRUPTED: int
OUT_OF_MEMORY: int
PROOF_SHARE: float
PROGRESS_INTERVAL: float

class DepthFirstSearch:
    def __init__(
        self,
        columns: Sequence[Sequence[int]],
        foundations: Sequence[int] = ...,
        ranks: int = ...,
        play: PlayCodes | None = ...,
        *,
        memory_mb: float = ...,
    ) -> None: ...
    def run(
        self,
        *,
        time_limit: float = ...,
        max_nodes: int = ...,
        seed: int = ...,
        base_budget: int = ...,
        growth: float = ...,
        proof_share: float = ...,
        progress: Callable[[int, int], object] | None = ...,
    ) -> tuple[int, list[RawMove], int, int, int]: ...
    @property
    def stats(self) -> dict[str, int | bool]: ...

def shorten(
    columns: Sequence[Sequence[int]],
    foundations: Sequence[int],
    ranks: int,
    play: PlayCodes | None,
    moves: list[RawMove],
) -> list[RawMove]: ...
