"""``bakersdozen replay BOARD MOVES --html FILE``: a move list as a web page.

Writes one self-contained HTML file that replays the moves (one per line
in move notation, or the JSON of ``solve --json``) from the board; see
``docs/replay.md``.  Exit status 0 written, 2 bad input (an illegal move is
named) or a file that cannot be written.
"""

from __future__ import annotations

import argparse

from ._common import (
    EXIT_OK, STDIN_TWICE, add_rules_arguments, error, file_name, read_board, read_moves_file,
    rules_from_args, write_html,
)

HELP = "write a self-contained HTML page that replays a move list"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("board", type=file_name, help="board text file the moves start from, or - for stdin")
    parser.add_argument(
        "moves", type=file_name, help="the moves: one per line ('7C 1>2'), or the JSON of solve --json",
    )
    parser.add_argument("--html", required=True, type=file_name, metavar="FILE", help="the page to write")
    parser.add_argument("--title", help="the page's title (default: the board file's name)")
    add_rules_arguments(parser)


def run(args: argparse.Namespace) -> int:
    if args.board == "-" and args.moves == "-":  # the board would use up stdin
        return error("replay", STDIN_TWICE)
    rules = rules_from_args(args)
    deal, _ = read_board(args.board, rules)
    moves = read_moves_file(args.moves, rules)
    write_html(args.html, deal, moves, args.title or f"{args.board}: {len(moves)} moves")
    return EXIT_OK
