"""Type stubs for the compiled engine (see _core.pyx; private module)."""

from collections.abc import Sequence

SOLVED: int
UNSOLVABLE: int
NODE_LIMIT: int
TIME_LIMIT: int
INTERRUPTED: int
OUT_OF_MEMORY: int

RawMove = tuple[int, int, int]

class Position:
    def __init__(
        self,
        columns: Sequence[Sequence[int]],
        foundations: Sequence[int] = ...,
        ranks: int = ...,
    ) -> None: ...
    def legal_moves(self) -> list[RawMove]: ...
    def make(self, move: RawMove) -> None: ...
    def unmake(self) -> None: ...
    @property
    def key(self) -> tuple[int, int]: ...
    def full_key(self) -> tuple[int, int]: ...
    @property
    def columns(self) -> list[list[int]]: ...
    @property
    def foundations(self) -> list[int]: ...
    @property
    def tops(self) -> int: ...
    @property
    def home(self) -> int: ...
    @property
    def is_won(self) -> bool: ...
    def perft(self, depth: int) -> int: ...
    def make_unmake_loop(self, repetitions: int) -> int: ...

def search(
    columns: Sequence[Sequence[int]],
    foundations: Sequence[int] = ...,
    ranks: int = ...,
    *,
    time_limit: float = ...,
    max_nodes: int = ...,
    memory_mb: float = ...,
    seed: int = ...,
    base_budget: int = ...,
    growth: float = ...,
) -> tuple[int, list[RawMove], int, int, int]: ...
def shorten(
    columns: Sequence[Sequence[int]],
    foundations: Sequence[int],
    ranks: int,
    moves: list[RawMove],
) -> list[RawMove]: ...
