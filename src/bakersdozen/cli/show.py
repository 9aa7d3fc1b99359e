"""``bakersdozen show FILE``: read a board file and print it as a tableau."""

from __future__ import annotations

import argparse
import sys

from ._common import EXIT_OK, KINGS_NOTE, read_board

HELP = "read a board file and print it as a tableau"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="board text file, or - for standard input")


def run(args: argparse.Namespace) -> int:
    deal, kings_moved = read_board(args.file)
    sys.stdout.write(deal.pretty())
    if kings_moved:
        print(KINGS_NOTE)
    return EXIT_OK
