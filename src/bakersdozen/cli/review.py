"""``bakersdozen review FILE MOVES``: where a played game was lost.

Replays the moves (one per line in move notation, or the JSON of ``solve
--json``) from the board (or ``--deal N``, PySol deal N) and reports the
first move after which the game could no longer be won, with a winning
alternative, or that it is still winnable.  ``--json`` prints one JSON
object (:func:`bakersdozen.records.review_to_json`, the shape ``serve``
answers a review with; docs/serve.md).  Exit status 0 still winnable, 1
lost (the move is named), 3 unknown (a limit stopped a solve), 2 bad input
(an illegal move is named).
"""

from __future__ import annotations

import argparse

from ._common import (
    EXIT_OK, EXIT_UNKNOWN, EXIT_UNSOLVABLE, KINGS_NOTE, add_limit_arguments, deal_number,
    memory_mb, STDIN_TWICE, add_rules_arguments, error, file_name, deal_from_args, read_moves_file,
    note, rules_from_args, search_progress,
)

HELP = "find the first move after which a played game could no longer be won"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", nargs="?", type=file_name,
                        help="board text file the game started from, or - for stdin "
                        "(left out with --deal)")
    parser.add_argument(
        "moves", nargs="?", type=file_name,
        help="the moves played: one per line ('7C 1>2'), or the JSON of solve --json",
    )
    parser.add_argument("--deal", type=deal_number, metavar="N",
                        help="the game started from PySol deal number N (instead of a board file)")
    add_limit_arguments(parser)
    parser.add_argument(
        "--memory-mb", type=memory_mb, default=512.0, metavar="MB",
        help="MiB for the whole search of each solve, 1..1048576 (default 512)",
    )
    parser.add_argument(
        "--json", action="store_true",
        help="print one JSON object: verdict, losing_move, alternative, ... (docs/serve.md)",
    )
    add_rules_arguments(parser)


def run(args: argparse.Namespace) -> int:
    import sys

    from ..analysis import review
    from ..records import LOST, UNKNOWN, review_verdict

    if args.deal is not None:  # one file given: the moves
        if args.moves is not None:
            return error("review", "with --deal N give only the moves file, not a board file "
                         "(see bakersdozen review --help)")
        args.file, args.moves = None, args.file
    if args.moves is None:
        return error("review", "give the board file and the moves file, or --deal N and the "
                     "moves file (see bakersdozen review --help)")
    if args.file == "-" and args.moves == "-":  # the board would use up stdin
        return error("review", STDIN_TWICE)
    rules = rules_from_args(args)
    deal, kings_moved = deal_from_args(args, rules)
    if kings_moved:
        note(KINGS_NOTE)
    played = read_moves_file(args.moves, rules)
    with search_progress("review") as progress:
        result = review(
            deal, played, time_limit=args.time_limit, max_nodes=args.max_nodes,
            memory_mb=args.memory_mb, progress=progress,
        )
    if args.json:
        import json

        from ..records import review_to_json

        print(json.dumps(review_to_json(result, played)))
    else:
        sys.stdout.write(result.describe(played))
    verdict = review_verdict(result)
    return EXIT_UNSOLVABLE if verdict == LOST else EXIT_UNKNOWN if verdict == UNKNOWN else EXIT_OK
