"""Type stubs for the compiled layered search (see _layers.pyx; private module)."""

from collections.abc import Callable, Sequence

from ._position import PlayCodes, RawMove

class LayeredSearch:
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
        progress: Callable[[int, int], object] | None = ...,
    ) -> tuple[int, list[RawMove], int, int, int]: ...
    @property
    def stats(self) -> dict[str, int]: ...
