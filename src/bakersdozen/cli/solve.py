"""``bakersdozen solve``: solve a board file or a PySol deal.

Exit status 0 solved, 1 unsolvable, 3 unknown (a limit stopped the search),
2 bad input.  ``--json`` prints one :class:`bakersdozen.records.Record`
with its moves, the shape a survey writes.  ``--shortest`` looks for a
winning line with the fewest moves (``solve(..., method="shortest")``) and
says whether it is proven minimal, or else the proven lower bound.
``--proof`` runs the complete search alone, without the restart rounds
(``solve(..., method="proof")``); ``--layers`` enumerates every reachable
position layer by layer (``solve(..., method="layers")``): the quickest
proof of an unsolvable deal; with ``--work-dir DIR`` it keeps the layers not
being expanded in files of DIR (``--disk-mb`` bounds them, and
``--no-line-record`` leaves out the record a win's line is traced back
through), and ``--resume`` goes on with the run DIR holds; ``--jobs N``
expands each progress value's parts in N threads, ``--scheduler ADDRESS``
on a Dask cluster.  ``--certificate FILE`` writes, for an unsolvable
verdict, a certificate that ``bakersdozen verify`` checks.
"""

from __future__ import annotations

import argparse

from ._common import (
    EXIT_OK, EXIT_UNKNOWN, EXIT_UNSOLVABLE, KINGS_NOTE, LAYERS_PLAY, add_limit_arguments, deal_number,
    layers_knobs_changed,
    add_rules_arguments, check_writable, disk_mb, file_name, memory_mb, play_knobs_changed, deal_from_args,
    positive_int,
    rules_from_args, search_progress, note, note_table_verdict, write_html,
)

HELP = "solve a board file or a PySol deal"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("file", nargs="?", type=file_name, help="board text file, or - for standard input")
    source.add_argument("--deal", type=deal_number, metavar="N", help="PySol deal number N")
    add_limit_arguments(parser)
    parser.add_argument(
        "--memory-mb", type=memory_mb, default=512.0, metavar="MB",
        help="MiB for the whole search: table, path, bookkeeping; 1..1048576 (default 512)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object (a record)")
    method = parser.add_mutually_exclusive_group()
    method.add_argument(
        "--shortest", action="store_true",
        help="find a winning line with the fewest moves, proven minimal if the limits allow "
        "(IDA*, docs/engine.md); the time limit covers the whole search",
    )
    method.add_argument(
        "--proof", action="store_true",
        help="run the complete search from the start, without the restart rounds: the "
        "quickest proof that a deal is unsolvable, a slow way to win a hard one "
        "(give it memory: 16 bytes a position; docs/engine.md)",
    )
    method.add_argument(
        "--layers", action="store_true",
        help="enumerate every reachable position, layer by layer, holding only the layers "
        "still to expand: the quickest and leanest proof that a deal is unsolvable, and a "
        "slow way to win one, its line traced back through the positions expanded "
        "(Baker's Dozen's play, or Portuguese Solitaire's; docs/engine.md)",
    )
    parser.add_argument(
        "--work-dir", type=file_name, metavar="DIR",
        help="with --layers: keep the layers not being expanded in files of DIR (made if "
        "missing, empty unless --resume), so that --memory-mb need only hold the layers "
        "being expanded (docs/engine.md, 'The layered search on disk')",
    )
    parser.add_argument(
        "--disk-mb", type=disk_mb, metavar="MB",
        help="with --work-dir: MiB the files of DIR may hold (default: what the disk has); "
        "past it, or on a full disk, the search stops (unknown, reason disk)",
    )
    parser.add_argument(
        "--resume", action="store_true",
        help="with --work-dir: go on with the run DIR holds, from its last checkpoint "
        "(after a limit, Ctrl-C, a kill or a full disk); the verdict and counts come out "
        "as those of a run never stopped",
    )
    parser.add_argument(
        "--no-line-record", action="store_true",
        help="with --work-dir: keep no record of the positions expanded (about 4 bytes a "
        "position stored) to trace a win's line back through, so that the disk holds only "
        "the layers still to expand; a win's line then comes from the default search, "
        "within what is left of the limits. With --resume: let go of the record the run "
        "kept (docs/engine.md, 'Without the line record')",
    )
    parser.add_argument(
        "--jobs", "-j", type=positive_int, metavar="N",
        help="with --work-dir: expand each progress value's parts in N threads at once, "
        "--memory-mb shared by them, a layer too large for a task's share in shards; the "
        "same verdict and counts as one process (docs/engine.md, 'Parallel expansion')",
    )
    parser.add_argument(
        "--scheduler", metavar="ADDRESS",
        help="with --work-dir: run the parallel tasks on the Dask cluster whose scheduler is "
        "at ADDRESS (tcp://host:8786); every worker must see DIR under the same path "
        "(docs/cluster.md); --jobs N tasks at once (default: the cluster's threads)",
    )
    add_rules_arguments(parser)
    parser.add_argument(
        "--certificate", type=file_name, metavar="FILE",
        help="if the deal is unsolvable, write a certificate of it to FILE, which "
        "'bakersdozen verify' checks without the engine (Baker's Dozen's play; "
        "docs/certificates.md)",
    )
    parser.add_argument(
        "--html", type=file_name, metavar="FILE",
        help="also write the winning line as a self-contained HTML replay page (docs/replay.md)",
    )


def run(args: argparse.Namespace) -> int:
    from ..errors import BakersDozenError
    from ..solution import Verdict
    from ..solver import plays_layers, solve

    if args.work_dir is None:
        for flag, given in (("--disk-mb", args.disk_mb is not None), ("--resume", args.resume),
                            ("--no-line-record", args.no_line_record),
                            ("--jobs", args.jobs is not None),
                            ("--scheduler", args.scheduler is not None)):
            if given:
                raise BakersDozenError(f"{flag} needs --work-dir DIR")
    elif not args.layers:
        raise BakersDozenError("--work-dir needs --layers (only the layered search keeps its "
                               "work on disk)")
    rules = rules_from_args(args)
    if args.shortest:
        changed = play_knobs_changed(rules)
        if changed:
            raise BakersDozenError(
                f"--shortest plays Baker's Dozen's play knobs only (any layout), and "
                f"{rules.name} has {', '.join(changed)}: leave out --shortest for a winning "
                f"line of any length"
            )
    elif args.layers and not plays_layers(rules):
        raise BakersDozenError(
            f"{LAYERS_PLAY}, and {rules.name} has {', '.join(layers_knobs_changed(rules))}: "
            f"prove with --proof, or leave out --layers"
        )
    if args.certificate:
        from ..verify import require_covered

        require_covered(rules)
    for path in (args.html, args.certificate):
        if path:  # before the solve: a long one would be lost to a typo
            check_writable(path)
    deal, kings_moved = deal_from_args(args, rules)
    if kings_moved:
        note(KINGS_NOTE)
    method = ("shortest" if args.shortest else "proof" if args.proof
              else "layers" if args.layers else "dfs")
    try:
        with search_progress("solve", layers=method == "layers") as progress:
            solution = solve(
                deal, time_limit=args.time_limit, max_nodes=args.max_nodes,
                memory_mb=args.memory_mb, seed=args.seed, method=method, progress=progress,
                certificate=args.certificate, work_dir=args.work_dir, disk_mb=args.disk_mb,
                resume=args.resume, jobs=args.jobs, scheduler=args.scheduler,
                line_record=not args.no_line_record,
            )
    except ValueError as error:
        raise BakersDozenError(str(error)) from None
    if args.html and solution.moves:
        name = f"PySol deal {args.deal}" if args.deal is not None else args.file
        write_html(args.html, deal, solution.moves, f"{name}: {len(solution.moves)} moves")
    elif args.html:
        why = ("the position is won already, nothing to replay"
               if solution.verdict is Verdict.SOLVED else "no winning line")
        note(f"note: {why}, so no page written to {args.html}")
    if args.certificate:
        if solution.verdict is Verdict.UNSOLVABLE:
            note(f"certificate written to {args.certificate}")
        else:
            note(f"note: not unsolvable, so no certificate written to {args.certificate}")
    if method == "layers" and solution.reason == "memory_mb":
        note(memory_note(args))
    note_table_verdict(solution.verdict, args.deal, rules)
    if args.json:
        import json

        from ..records import Record, board_id
        from ..rules import BAKERS_DOZEN

        record = Record.from_solution(
            args.deal if args.deal is not None else board_id(deal), solution,
            time_limit=args.time_limit, max_nodes=args.max_nodes, memory_mb=args.memory_mb,
            seed=args.seed, game=getattr(deal, "rules", BAKERS_DOZEN).name, method=method,
        )
        print(json.dumps(record.to_json()))
    else:
        out = [f"verdict: {solution.verdict.value}"]
        if solution.reason:
            out[0] += f" ({solution.reason} reached)"
        out += [f"{i:4d}. {move}" for i, move in enumerate(solution.moves, 1)]
        if solution.deadlock:
            out.append(
                "deadlock: " + " ".join(str(card) for card in solution.deadlock)
                + " can never move (each has a lower card of its suit, and every card"
                " it could go onto, under one of them)"
            )
        if solution.solved:
            if solution.optimal:
                out.append(f"length: {len(solution.moves)} (proven shortest)")
            else:
                out.append(
                    f"length: {len(solution.moves)} (every winning line needs at least "
                    f"{solution.lower_bound} moves)"
                )
        if solution.layer_progress is not None:
            value, most = solution.layer_progress
            if value == most:
                out.append(f"layer progress: {value} of {most}: a won position was reached, so "
                           "the deal is winnable, but no winning line was found within the "
                           "limits (with --work-dir, --resume looks again)")
            else:
                out.append(f"layer progress: {value} of {most} (cards home plus dealt cards "
                           "moved, of a won position's)")
        out.append(f"nodes: {solution.nodes}")
        out.append(f"seconds: {solution.seconds:.3f}")
        print("\n".join(out))
    return {
        Verdict.SOLVED: EXIT_OK, Verdict.UNSOLVABLE: EXIT_UNSOLVABLE, Verdict.UNKNOWN: EXIT_UNKNOWN,
    }[solution.verdict]


def memory_note(args: argparse.Namespace) -> str:
    """What a layered search that stopped with ``memory_mb`` can do next,
    by where its layers were: in memory, on disk in one process, or in
    tasks (whose layers too large for a task are cut into shards already)."""
    if args.work_dir is None:
        return ("note: the layered search holds its layers in memory; --work-dir DIR keeps "
                "those not being expanded on disk, and --jobs N with it expands a layer "
                "larger than the memory in shards")
    if args.jobs is None and args.scheduler is None:
        return ("note: a layer is larger than --memory-mb holds, and the search of one "
                "process expands each layer whole; --jobs 1 (or more) cuts such a layer "
                "into shards, in a new --work-dir (a run of one process resumes without "
                "--jobs)")
    return ("note: a task's share of --memory-mb does not hold what it needs (a layer's "
            "shards' buffers, or a task's own); --resume with a larger --memory-mb (or fewer "
            "--jobs) goes on from here")
