"""``bakersdozen verify``: check a certificate that a deal is unsolvable.

``bakersdozen verify BOARD CERT`` (or ``--deal N CERT``) runs
:func:`bakersdozen.verify_certificate`, the verifier that shares no code
with the engine (docs/certificates.md), and prints ``valid`` with the
counts, or ``invalid:`` and the first thing wrong.  Exit status 0 valid,
1 invalid, 2 bad input (a file that cannot be read, rules it does not
cover).
"""

from __future__ import annotations

import argparse

from ._common import (
    EXIT_OK, EXIT_UNSOLVABLE, KINGS_NOTE, add_rules_arguments, deal_number, file_name,
    note, read_board, rules_from_args,
)

HELP = "check a certificate that a deal is unsolvable, without the engine"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("board", nargs="?", type=file_name,
                        help="board text file, or - for standard input (or --deal N)")
    parser.add_argument("certificate", type=file_name, help="the certificate file")
    parser.add_argument("--deal", type=deal_number, metavar="N",
                        help="PySol deal number N instead of a board file")
    add_rules_arguments(parser)


def run(args: argparse.Namespace) -> int:
    from ..errors import BakersDozenError
    from ..model import Deal
    from ..verify import verify_certificate

    if (args.board is None) == (args.deal is None):
        raise BakersDozenError("give a board file or --deal N, and the certificate file")
    rules = rules_from_args(args)
    if args.deal is not None:
        deal = Deal.pysol(args.deal, game=rules)
    else:
        deal, kings_moved = read_board(args.board, rules)
        if kings_moved:
            note(KINGS_NOTE)
    report = verify_certificate(deal, args.certificate)
    if report.valid:
        print(f"valid: {report.positions} positions in {report.layers} layers, "
              f"{report.seconds:.3f} s")
        return EXIT_OK
    print(f"invalid: {report.error}")
    return EXIT_UNSOLVABLE
