"""``bakersdozen review FILE MOVES``: where a played game was lost.

Replays the moves (one per line in move notation, or the JSON of ``solve
--json``) from the board and reports the first move after which the game
could no longer be won, with a winning alternative, or that it is still
winnable.  Exit status 0 still winnable, 1 lost (the move is named), 3
unknown (a limit stopped a solve), 2 bad input (an illegal move is named).
"""

from __future__ import annotations

import argparse

from ._common import (
    EXIT_OK, EXIT_UNKNOWN, EXIT_UNSOLVABLE, KINGS_NOTE, add_limit_arguments, memory_mb,
    STDIN_TWICE, add_rules_arguments, error, file_name, read_board, read_moves_file, rules_from_args,
    search_progress,
)

HELP = "find the first move after which a played game could no longer be won"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", type=file_name, help="board text file the game started from, or - for stdin")
    parser.add_argument(
        "moves", type=file_name, help="the moves played: one per line ('7C 1>2'), or the JSON of solve --json",
    )
    add_limit_arguments(parser)
    parser.add_argument(
        "--memory-mb", type=memory_mb, default=512.0, metavar="MB",
        help="MiB for the whole search of each solve, 1..1048576 (default 512)",
    )
    add_rules_arguments(parser)


def run(args: argparse.Namespace) -> int:
    import sys

    from ..analysis import review
    from ..solution import Verdict

    if args.file == "-" and args.moves == "-":  # the board would use up stdin
        return error("review", STDIN_TWICE)
    rules = rules_from_args(args)
    deal, kings_moved = read_board(args.file, rules)
    if kings_moved:
        print(KINGS_NOTE, file=sys.stderr)
    played = read_moves_file(args.moves, rules)
    with search_progress("review") as progress:
        result = review(
            deal, played, time_limit=args.time_limit, max_nodes=args.max_nodes,
            memory_mb=args.memory_mb, progress=progress,
        )
    sys.stdout.write(result.describe(played))
    if result.losing_move is not None or result.start_verdict is Verdict.UNSOLVABLE:
        return EXIT_UNSOLVABLE
    return EXIT_OK if result.verdict is Verdict.SOLVED else EXIT_UNKNOWN
