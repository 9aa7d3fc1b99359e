"""``bakersdozen hint FILE``: the next move of a winning line from a position.

``--deal N`` hints PySol deal N as dealt; ``--json`` prints one JSON object
(:func:`bakersdozen.records.hint_to_json`, the shape ``serve`` answers a
hint with; docs/serve.md).  Exit status 0 a winning move was found (or the
position is already won), 1 lost (proven: no winning line from here), 3
unknown (a limit stopped the search), 2 bad input.
"""

from __future__ import annotations

import argparse

from ._common import (
    EXIT_OK, EXIT_UNKNOWN, EXIT_UNSOLVABLE, KINGS_NOTE, add_limit_arguments, deal_number,
    memory_mb, add_rules_arguments, file_name, deal_from_args, rules_from_args, search_progress,
    note, note_table_verdict,
)

HELP = "print the next move of a winning line from a position (board file)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument(
        "file", nargs="?", type=file_name, help="board text file of any position (a Foundations: "
        "line for cards home), or - for standard input",
    )
    source.add_argument("--deal", type=deal_number, metavar="N", help="PySol deal number N, as dealt")
    add_limit_arguments(parser)
    parser.add_argument(
        "--memory-mb", type=memory_mb, default=512.0, metavar="MB",
        help="MiB for the whole search: table, path, bookkeeping; 1..1048576 (default 512)",
    )
    parser.add_argument(
        "--json", action="store_true",
        help="print one JSON object: verdict, move, nodes, seconds, ... (docs/serve.md)",
    )
    add_rules_arguments(parser)


def run(args: argparse.Namespace) -> int:
    from ..analysis import hint
    from ..solution import Verdict

    rules = rules_from_args(args)
    deal, kings_moved = deal_from_args(args, rules)
    if kings_moved:
        note(KINGS_NOTE)
    with search_progress("hint") as progress:
        answer = hint(
            deal, time_limit=args.time_limit, max_nodes=args.max_nodes,
            memory_mb=args.memory_mb, progress=progress,
        )
    note_table_verdict(answer.verdict, args.deal, rules)
    if args.json:
        import json

        from ..records import hint_to_json

        print(json.dumps(hint_to_json(answer, deal, time_limit=args.time_limit,
                                      max_nodes=args.max_nodes, memory_mb=args.memory_mb)))
    else:
        print(answer)
    return {
        Verdict.SOLVED: EXIT_OK, Verdict.UNSOLVABLE: EXIT_UNSOLVABLE, Verdict.UNKNOWN: EXIT_UNKNOWN,
    }[answer.verdict]
