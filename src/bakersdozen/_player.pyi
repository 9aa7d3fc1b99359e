"""Type stubs for the compiled player module (see _player.pyx; private module)."""

from collections.abc import Sequence

from ._position import PlayCodes, RawMove

def play_monte_carlo(
    columns: Sequence[Sequence[int]],
    foundations: Sequence[int],
    ranks: int,
    play: PlayCodes | None,
    seed: int,
    rollouts: int,
    limit: int,
    max_moves: int,
) -> tuple[bool, list[RawMove]]: ...
