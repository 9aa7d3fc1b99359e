"""``bakersdozen rate N`` / ``rate BOARD``: how hard a winnable deal is (docs/difficulty.md).

The argument is a PySol deal number of ``--game`` (digits only) or a board
file (``-`` for standard input).  Prints the measure of
:func:`bakersdozen.difficulty.rate`; ``--json`` prints it as one JSON
object.  The grade comes from the cut-points shipped for the game
(:func:`bakersdozen.difficulty.shipped_cuts`; none for a game not yet
graded), or ``--cuts FILE`` takes them from a JSON file
(``results/difficulty.py cuts --json``).
Exit status 0 rated, 1 unsolvable (no score), 3 unknown (the line's budget
ran out), 2 bad input.
"""

from __future__ import annotations

import argparse

from ._common import (
    EXIT_OK, EXIT_UNKNOWN, EXIT_UNSOLVABLE, KINGS_NOTE, add_rules_arguments, deal_number,
    file_name, note, positive_int, read_board, rules_from_args,
)

HELP = "rate how hard a winnable deal is: the moves along a winning line that lose"


def _deal_or_file(text: str) -> str:
    """argparse type: a deal number (checked) or a board file name."""
    if text.isascii() and text.isdigit():
        deal_number(text)
        return text
    return file_name(text)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from ..difficulty import DEFAULT_LINE_NODES, DEFAULT_MOVE_NODES, DEFAULT_SHORTEST_NODES

    parser.add_argument(
        "deal", type=_deal_or_file, metavar="N|BOARD",
        help="a PySol deal number of the game (digits), or a board file of any position "
        "(- for standard input)",
    )
    parser.add_argument(
        "--line-nodes", type=positive_int, default=DEFAULT_LINE_NODES, metavar="N",
        help=f"positions the search that decides the deal may generate (default {DEFAULT_LINE_NODES})",
    )
    parser.add_argument(
        "--shortest-nodes", type=positive_int, default=DEFAULT_SHORTEST_NODES, metavar="N",
        help="positions the search for the shortest line may generate beyond the decision's "
        f"(default {DEFAULT_SHORTEST_NODES})",
    )
    parser.add_argument(
        "--move-nodes", type=positive_int, default=DEFAULT_MOVE_NODES, metavar="N",
        help=f"positions each solve after a legal move may generate (default {DEFAULT_MOVE_NODES})",
    )
    parser.add_argument(
        "--cuts", type=file_name, metavar="FILE",
        help="grade with the cut-points of the game in this JSON file (results/difficulty.py "
             "cuts), not the shipped ones",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    add_rules_arguments(parser)


def run(args: argparse.Namespace) -> int:
    from ..difficulty import load_cuts, rate
    from ..errors import ArgumentError
    from ..model import Deal
    from ..solution import Verdict

    rules = rules_from_args(args)
    cuts = None
    if args.cuts is not None:
        try:
            table = load_cuts(args.cuts)
        except OSError as error:
            raise ArgumentError(f"cannot read {args.cuts!r}: {error.strerror}") from None
        if rules.name not in table:
            raise ArgumentError(f"{args.cuts}: no cut-points for {rules.name!r}")
        cuts = table[rules.name]
    if args.deal.isascii() and args.deal.isdigit():
        deal = Deal.pysol(int(args.deal), game=rules)
    else:
        deal, kings_moved = read_board(args.deal, rules)
        if kings_moved:
            note(KINGS_NOTE)
    rating = rate(deal, line_nodes=args.line_nodes, move_nodes=args.move_nodes,
                  shortest_nodes=args.shortest_nodes, cuts=cuts)
    if args.json:
        import json

        print(json.dumps({"game": rules.name, **rating.to_json()}))
    else:
        print(rating, end="")
    return {
        Verdict.SOLVED: EXIT_OK, Verdict.UNSOLVABLE: EXIT_UNSOLVABLE, Verdict.UNKNOWN: EXIT_UNKNOWN,
    }[rating.verdict]
