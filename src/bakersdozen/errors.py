"""The package's exceptions: one root, and specific errors beneath it."""

from __future__ import annotations

__all__ = ["BakersDozenError", "ParseError", "IllegalMoveError"]


class BakersDozenError(Exception):
    """Root of every error this package raises on purpose."""


class ParseError(BakersDozenError, ValueError):
    """Text (a board, a card, a move, a deal range) could not be read.

    The message says what is wrong and where: the line number and the token
    as it was written.
    """


class IllegalMoveError(BakersDozenError, ValueError):
    """A move breaks the rules of its game in the position it is played in.

    Attributes
    ----------
    index : int or None
        0-based position of the move in the replayed move list, if any.
    """

    def __init__(self, message: str, index: int | None = None) -> None:
        super().__init__(message)
        self.index = index
