"""Reading text files with a size bound and one kind of error.

Shared by the survey (boards files) and the command line (board files);
imports nothing above :mod:`bakersdozen.errors`.
"""

from __future__ import annotations

import sys

from .errors import ParseError

TYPE_CHECKING = False
if TYPE_CHECKING:  # typing is not imported at run time (start-up)
    from typing import Final, TextIO

__all__ = ["read_text", "BOARD_LIMIT", "BOARDS_FILE_LIMIT", "MOVES_LIMIT", "display_name"]

#: Most bytes read from a board file: a board is under 1 KB, and the board
#: text reader takes at most 16384 characters (``notation.MAX_BOARD_CHARS``),
#: which UTF-8 writes in at most 4 bytes each.
BOARD_LIMIT: Final = 4 * 16384
#: Most bytes read from a move list (``records.MAX_MOVES_BYTES``).
MOVES_LIMIT: Final = 1_000_000
#: Most bytes read from a boards file (about 600 000 boards).
BOARDS_FILE_LIMIT: Final = 256 << 20


def display_name(path: str) -> str:
    """``<stdin>`` for ``-``, else *path*."""
    return "<stdin>" if path == "-" else path


def read_text(path: str, limit: int, what: str = "a board", stdin: TextIO | None = None) -> str:
    """The text of a UTF-8 file (``-`` for standard input), at most *limit* bytes.

    Only ``limit + 1`` bytes are ever read, so a huge file fails at once.
    *what* names the content in the message (``"a board"``).

    Raises
    ------
    ParseError
        If it cannot be read (missing, a directory, standard input closed,
        not UTF-8) or is longer than *limit* bytes; the message starts with
        the file name (``<stdin>`` for ``-``) and gives the reason.
    """
    name = display_name(path)
    try:
        if path == "-":
            stream = stdin if stdin is not None else sys.stdin
            if stream is None or stream.closed:
                raise ParseError(f"{name}: cannot read: standard input is closed")
            buffer = getattr(stream, "buffer", None)
            data: bytes
            if buffer is not None:
                data = bytes(buffer.read(limit + 1))
            else:  # a text stream without bytes (tests give StringIO)
                text = stream.read(limit + 1)
                data = text.encode("utf-8")
        else:
            with open(path, "rb") as handle:
                data = handle.read(limit + 1)
        if len(data) > limit:
            raise ParseError(
                f"{name}: larger than {limit >> 10} KiB, the most read for {what}"
            )
        return data.decode("utf-8")
    except (OSError, ValueError) as error:
        if isinstance(error, ParseError):
            raise
        reason = error.strerror if isinstance(error, OSError) and error.strerror else error
        raise ParseError(f"{name}: cannot read: {reason}") from None
