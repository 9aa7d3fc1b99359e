"""``bakersdozen deals --winnable``: deal numbers from the published tables.

For a program's "winnable deals only" mode: every winnable deal of a range,
in order, or with ``--count K`` a random sample of K without repeats
(``--seed S`` makes it repeatable).  ``--unsolvable`` and ``--unknown`` list
the other verdicts; ``--difficulty GRADE`` keeps the winnable deals of one
difficulty grade (docs/difficulty.md; the graded deals of the game's table
by default).  The numbers come from the table shipped with the package
(:mod:`bakersdozen.winnability`); an unknown deal is never listed as
winnable.
"""

from __future__ import annotations

import argparse
import sys

from ._common import EXIT_OK, add_rules_arguments, positive_int, rules_from_args, seed_int

#: The grades (bakersdozen.difficulty.GRADES, not imported here to keep start-up light;
#: tests/test_difficulty.py checks they agree).
GRADES = ("easy", "medium", "hard", "expert")

HELP = "print winnable (or unsolvable, unknown) PySol deal numbers from the published tables"


def _deal_span(text: str) -> tuple[int, int]:
    """argparse type: ``A-B`` (or one number ``N``), deal numbers with A <= B."""
    first, dash, last = text.strip().partition("-")
    low = positive_int(first)
    high = positive_int(last) if dash else low
    if low > high:
        raise argparse.ArgumentTypeError(f"a reversed range: {text.strip()!r} ({low} > {high})")
    return low, high


def add_arguments(parser: argparse.ArgumentParser) -> None:
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("--winnable", dest="verdict", action="store_const", const="solved",
                       help="deals the table has as solved (a checked winning line)")
    which.add_argument("--unsolvable", dest="verdict", action="store_const", const="unsolvable",
                       help="deals the table has as proved unsolvable")
    which.add_argument("--unknown", dest="verdict", action="store_const", const="unknown",
                       help="deals no search in the table decided")
    parser.add_argument("--count", type=positive_int, metavar="K",
                        help="a random sample of K deals without repeats (default: all, in order)")
    parser.add_argument("--seed", type=seed_int, metavar="S",
                        help="seed of the sample (default: a fresh random sample)")
    parser.add_argument("--range", type=_deal_span, metavar="A-B", dest="span",
                        help="only deals A to B (default: the whole table, or its graded "
                             "deals with --difficulty)")
    parser.add_argument("--difficulty", choices=GRADES, metavar="GRADE",
                        help=f"only winnable deals of this grade: {', '.join(GRADES)} "
                             "(docs/difficulty.md)")
    add_rules_arguments(parser)


def run(args: argparse.Namespace) -> int:
    from ..solution import Verdict
    from ..winnability import winnable_deals

    first, last = args.span if args.span else (None, None)
    numbers = winnable_deals(rules_from_args(args), count=args.count, seed=args.seed,
                             first=first, last=last, verdict=Verdict(args.verdict),
                             difficulty=args.difficulty)
    sys.stdout.write("".join(f"{n}\n" for n in numbers))
    return EXIT_OK
