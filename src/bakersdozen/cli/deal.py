"""``bakersdozen deal N``: print PySol deal N as board text."""

from __future__ import annotations

import argparse
import sys

from ._common import EXIT_OK, deal_number

HELP = "print PySol deal N as board text"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("number", type=deal_number, help="PySol deal number, 1 to 2**64 - 1")


def run(args: argparse.Namespace) -> int:
    from ..deals import pysol_deal

    sys.stdout.write(pysol_deal(args.number).to_text())
    return EXIT_OK
