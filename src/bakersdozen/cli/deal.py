"""``bakersdozen deal N``: print PySol deal N as board text."""

from __future__ import annotations

import argparse
import sys

from ._common import EXIT_OK, add_rules_arguments, deal_number, rules_from_args

HELP = "print PySol deal N as board text"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("number", type=deal_number, help="PySol deal number, 1 to 2**64 - 1")
    add_rules_arguments(parser)


def run(args: argparse.Namespace) -> int:
    from ..model import Deal

    sys.stdout.write(Deal.pysol(args.number, game=rules_from_args(args)).to_text())
    return EXIT_OK
