"""The package's exceptions: one root, and specific errors beneath it."""

from __future__ import annotations

__all__ = ["BakersDozenError", "ArgumentError", "PositionError", "ParseError", "IllegalMoveError"]


class BakersDozenError(Exception):
    """Root of every error this package raises on purpose."""


class ArgumentError(BakersDozenError, ValueError):
    """An argument has a value the function does not take (out of range, unknown name).

    The message names the argument and quotes the value.  An argument of
    the wrong *type* raises :class:`TypeError` instead.
    """


class PositionError(ArgumentError):
    """Cards and foundations that are not a position of their game.

    Raised by :class:`~bakersdozen.Deal`: a card missing or repeated, more
    columns than the game has, foundation heights out of range.  The
    message says which card, column or foundation.
    """


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
