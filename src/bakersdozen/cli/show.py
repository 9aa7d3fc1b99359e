"""``bakersdozen show FILE``: read a board file and print it as a tableau."""

from __future__ import annotations

import argparse
import sys

from ._common import (
    EXIT_OK, KINGS_NOTE, add_rules_arguments, file_name, read_board, rules_from_args,
)

HELP = "read a board file and print it as a tableau"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", type=file_name, help="board text file, or - for standard input")
    add_rules_arguments(parser)


def run(args: argparse.Namespace) -> int:
    deal, kings_moved = read_board(args.file, rules_from_args(args))
    sys.stdout.write(deal.pretty())
    if kings_moved:
        print(KINGS_NOTE)
    return EXIT_OK
