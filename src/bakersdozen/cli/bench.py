"""``bakersdozen bench``: measure the solver on a fixed suite of PySol deals.

::

    bakersdozen bench                       # PySol deals 1-100, 10 s each
    bakersdozen bench --deals 1-5,9 --json  # one JSON object on stdout
    bakersdozen bench --perft               # add move-generator speed
    bakersdozen bench --compare fc-solve    # Freecell Solver side by side

What the figures mean is in :mod:`bakersdozen.bench`.  Exit status: 0 done,
1 a solution failed its replay, 2 bad arguments, or ``--compare fc-solve``
and no fc-solve that can be compared (none found, or one built for fewer than
13 stacks): a comparison asked for and not made is an error, not a note.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, Final

from ._common import (
    EXIT_OK, add_rules_arguments, error, memory_mb, positive_int, note, rules_from_args, time_limit,
)

HELP = "benchmark the solver on PySol deals (and fc-solve)"
EXIT_REPLAY_FAILED: Final = 1


def _deal_list(text: str) -> list[int]:
    from ..survey.tasks import DealRange

    try:
        deals = DealRange(text)
    except ValueError as failure:
        raise argparse.ArgumentTypeError(str(failure)) from None
    if deals.count > 1_000_000:
        raise argparse.ArgumentTypeError(
            f"deal range {text!r}: {deals.count} deals; bench keeps every result in memory, "
            "so it takes at most 1000000 (use bakersdozen survey for more)"
        )
    return list(deals)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_rules_arguments(parser)
    parser.add_argument(
        "--deals", type=_deal_list, default="1-100", metavar="LIST",
        help="PySol deal numbers: ranges and lists like 1-5,9 (default 1-100)",
    )
    parser.add_argument(
        "--time-limit", type=time_limit, default=10.0, metavar="SECONDS",
        help="wall-clock seconds per deal, > 0 and below 1e15, or 'none' (default 10)",
    )
    parser.add_argument(
        "--memory-mb", type=memory_mb, default=512.0,
        metavar="MIB", help="memory budget per solve, MiB, 1..1048576 (default 512)",
    )
    parser.add_argument(
        "--jobs", type=positive_int, default=1, metavar="N",
        help="solve N deals at once in N processes (default 1, for comparable timing)",
    )
    parser.add_argument(
        "--perft", action="store_true",
        help="also measure the move generator (perft nodes per second)",
    )
    parser.add_argument(
        "--perft-only", action="store_true", help="measure the move generator only",
    )
    parser.add_argument(
        "--compare", choices=["fc-solve"],
        help="also run Freecell Solver on the same deals, one deal at a time for both "
        "(exit 2 if no fc-solve built for 13 stacks is found)",
    )
    parser.add_argument(
        "--fc-solve", metavar="PATH", dest="fc_solve",
        help="the fc-solve program to compare with (default: fc-solve on PATH)",
    )
    parser.add_argument(
        "--fc-solve-args", metavar="ARGS", default="",
        help="extra fc-solve arguments, one shell-quoted string (e.g. '-l lg')",
    )
    parser.add_argument("--per-deal", action="store_true", help="also print one line per deal")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead")


def _error(message: str) -> int:
    return error("bench", message)


def run(args: argparse.Namespace) -> int:
    import json
    import resource
    import shlex

    from .. import bench
    from ..records import Record

    notes: list[str] = []
    try:
        fc_extra = shlex.split(args.fc_solve_args)
    except ValueError as failure:
        return _error(f"--fc-solve-args {args.fc_solve_args!r}: {failure}")
    if args.fc_solve and not args.compare:
        return _error("--fc-solve needs --compare fc-solve")
    if args.compare and args.jobs > 1:
        return _error("--compare runs one deal at a time for both solvers; drop --jobs")
    if args.perft_only and args.compare:
        return _error("--perft-only cannot be combined with --compare")
    deals: list[int] = _deal_list(args.deals) if isinstance(args.deals, str) else args.deals
    rules = rules_from_args(args)
    if args.compare and rules.name != "bakers_dozen":
        return _error("--compare fc-solve runs Freecell Solver's bakers_dozen preset: drop --game")

    fc_program = None
    if args.compare:
        try:
            fc_program = bench.find_fc_solve(args.fc_solve, fc_extra)
        except bench.FcSolveUnavailable as failure:  # asked for, cannot be made: exit 2
            return _error(f"--compare fc-solve: {failure}")

    report: dict[str, Any] = {
        "settings": {
            "deals": bench.deal_spec(deals),
            "game": rules.name,
            "rules": rules.knobs,
            "time_limit": args.time_limit,
            "memory_mb": args.memory_mb,
            "jobs": args.jobs,
            "per_deal": args.per_deal,
            "fc_solve": fc_program,
            "fc_solve_args": fc_extra,
        },
        "machine": bench.machine(),
        "solvers": {},
        "notes": notes,
    }
    if not args.perft_only:
        ours: list[Record] = []
        theirs: list[Record] = []
        try:
            if fc_program is None:
                ours = bench.run_ours(deals, args.time_limit, args.memory_mb, args.jobs,
                                      rules=rules)
            else:
                for number in deals:  # one deal at a time, alternating
                    ours += bench.run_ours([number], args.time_limit, args.memory_mb,
                                           rules=rules)
                    theirs.append(
                        bench.run_fc_solve(fc_program, number, args.time_limit, fc_extra)
                    )
        except bench.ReplayFailed as failure:
            note(f"bakersdozen bench: FAILED: {failure}")
            return EXIT_REPLAY_FAILED
        except bench.FcSolveUnavailable as failure:
            return _error(str(failure))
        summary = bench.summary_figures(ours)
        summary["peak_rss_mb"] = bench.peak_rss_mb(
            resource.RUSAGE_CHILDREN if args.jobs > 1 else resource.RUSAGE_SELF
        )
        report["solvers"]["bakersdozen"] = {
            "summary": summary, "deals": [r.to_json() for r in ours],
        }
        notes.append(
            "peak RSS is getrusage().ru_maxrss: the peak of the whole process "
            + ("(largest worker)" if args.jobs > 1 else "(interpreter included)")
        )
        if fc_program is not None:
            fc_summary = bench.summary_figures(theirs)
            fc_summary["peak_rss_mb"] = bench.peak_rss_mb(resource.RUSAGE_CHILDREN)
            report["solvers"]["fc-solve"] = {
                "summary": fc_summary, "deals": [r.to_json() for r in theirs],
            }
            report["disagreements"] = [
                {"deal": a.deal, "bakersdozen": a.verdict.value, "fc-solve": b.verdict.value}
                for a, b in zip(ours, theirs)
                if {a.verdict.value, b.verdict.value} == {"solved", "unsolvable"}
            ]
            notes.append(
                "fc-solve: nodes are its 'states checked' (0 for a run killed at the time "
                "limit, which counts as unknown); its seconds include process start-up"
            )
    if args.perft or args.perft_only:
        report["perft"] = bench.perft_speed()
    if args.json:
        json.dump(report, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(bench.format_table(report))
    return EXIT_OK
