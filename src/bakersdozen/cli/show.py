"""``bakersdozen show FILE``: a position as a tableau, or as board text, after some moves.

The position is a board file (``-`` for standard input) or a PySol deal
(``--deal N``), with ``--moves FILE`` played on it first: a move list in
the formats ``review`` and ``replay`` read (one move per line, or the JSON
of ``solve --json``), replayed by the independent checker.  ``--text``
prints board text instead of the tableau, with a ``Foundations:`` line
when cards are home: what ``hint`` and ``solve`` read back.  Exit status 0,
or 2 for bad input (an illegal move is named by its number, from 1, with
the checker's reason).
"""

from __future__ import annotations

import argparse
import sys

from ._common import (
    EXIT_OK, KINGS_NOTE, STDIN_TWICE, add_rules_arguments, deal_number, error, file_name,
    deal_from_args, note, read_moves_file, rules_from_args,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..model import Deal

HELP = "print a board file or PySol deal, after some moves, as a tableau or board text"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("file", nargs="?", type=file_name,
                        help="board text file, or - for standard input")
    source.add_argument("--deal", type=deal_number, metavar="N", help="PySol deal number N")
    parser.add_argument(
        "--moves", type=file_name, metavar="FILE",
        help="play these moves first: one per line ('7C 1>2'), or the JSON of solve --json; "
        "- for standard input",
    )
    parser.add_argument(
        "--text", action="store_true",
        help="print board text (a Foundations: line when cards are home), as hint and solve "
        "read it, instead of the tableau",
    )
    add_rules_arguments(parser)


def run(args: argparse.Namespace) -> int:
    if args.file == "-" and args.moves == "-":  # the board would use up stdin
        return error("show", STDIN_TWICE)
    rules = rules_from_args(args)
    deal, kings_moved = deal_from_args(args, rules)
    if args.moves is not None:
        deal = _play(deal, args.moves)
    sys.stdout.write(deal.to_text() if args.text else deal.pretty())
    if kings_moved and args.text:  # on stderr with --text: stdout stays board text
        note(KINGS_NOTE)
    elif kings_moved:
        print(KINGS_NOTE)
    return EXIT_OK


def _play(deal: Deal, path: str) -> Deal:
    """The position after the moves of the file *path*, replayed by :func:`bakersdozen.check`.

    Raises
    ------
    ParseError
        If the file cannot be read or a move cannot be read (file and line).
    IllegalMoveError
        At the first illegal move: the file, the move's number from 1, the
        move and the checker's reason.
    """
    from .._files import display_name
    from ..check import check
    from ..errors import IllegalMoveError

    moves = read_moves_file(path, deal.rules)
    try:
        return check(deal, moves).position
    except IllegalMoveError as illegal:
        raise IllegalMoveError(f"{display_name(path)}: {illegal}", illegal.index) from None
