"""``bakersdozen survey``: solve many deals, write one record per deal, summarise.

The file format, resuming and the summary are described in ``docs/survey.md``;
the work is done by :mod:`bakersdozen.survey`.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING, Any

from ._common import (
    EXIT_CLUSTER, EXIT_OK, EXIT_WORKER_DIED, LAYERS_PLAY, Formatter, add_limit_arguments, add_rules_arguments,
    layers_knobs_changed,
    disk_mb, error, file_name, memory_mb, play_knobs_changed, positive_float, positive_int,
    note, rules_from_args,
)

if TYPE_CHECKING:
    from collections.abc import Iterable
    from concurrent.futures import Executor

    from ..records import Record
    from ..survey.log import RecordWriter
    from ..survey.runner import Limits
    from ..survey.tasks import Task

HELP = "solve many deals, write one record per deal, summarise"


class _RawDescription(argparse.RawDescriptionHelpFormatter):
    """The description as written; the width from the parser's own formatter."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                 width: int | None = None) -> None:
        super().__init__(prog, indent_increment, max_help_position,
                         width or Formatter(prog)._width + 2)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.formatter_class = _RawDescription
    parser.description = (
        "Solve many deals and write one record per deal (JSON Lines or CSV).\n\n"
        "Running the same command again on an existing --output resumes it: deals\n"
        "already recorded are skipped. --retry-unknown re-runs the deals whose latest\n"
        "record is unknown and appends new records; the last record of a deal wins.\n"
        "Which records count is decided by the deal alone, not by the limits or the\n"
        "method they were made with. A second pass over the unknowns with --layers:\n"
        "  bakersdozen survey --retry-unknown --layers --time-limit none \\\n"
        "      --max-nodes 4000000000 --memory-mb 8192 -o FILE\n"
        "With --work-dir DIR each deal keeps its layers on disk, in DIR/deal-N, and a\n"
        "deal left unknown goes on from there when it is retried with the same DIR.\n"
        "The summary at the end covers the whole --output file (latest records).\n"
        "Boards files: boards separated by blank lines (13 column lines each) or by\n"
        "lines '---'; a board's id is a hash of its text (board-0123456789abcdef).\n\n"
        "Dask: --cluster local:N runs the deals on a local Dask cluster of N worker\n"
        "processes; --scheduler ADDRESS on a running one (dask scheduler, dask worker;\n"
        "pip install 'bakersdozen[dask]'). See docs/cluster.md.\n\n"
        "exit status: 0 done, 1 a worker process died, 2 bad input,\n"
        "4 the Dask scheduler cannot be reached or was lost,\n"
        "130 interrupted, 141 the output's reader has gone (| head),\n"
        "143 terminated (run the same command again to resume)"
    )
    parser.add_argument(
        "deals", nargs="?", metavar="DEALS",
        help="PySol deal numbers: ranges and lists such as 1-1000 or 1-5,9,20-22",
    )
    parser.add_argument("--boards", type=file_name, metavar="FILE", help="survey the boards in FILE instead")
    add_limit_arguments(parser)
    parser.add_argument(
        "--memory-mb", type=memory_mb, metavar="MB",
        help="MiB of table per job, 1..1048576 (default: half the RAM shared by the jobs, at most 512; "
        "on Dask 512, each capped by its worker's memory limit, docs/cluster.md)",
    )
    parser.add_argument(
        "--jobs", "-j", type=positive_int, default=None, metavar="N",
        help=f"processes (default: all cores, {os.cpu_count()})",
    )
    where = parser.add_mutually_exclusive_group()
    where.add_argument(
        "--scheduler", metavar="ADDRESS",
        help="run on the Dask cluster whose scheduler is at ADDRESS (tcp://host:8786)",
    )
    where.add_argument(
        "--cluster", metavar="local[:N]", type=_local_cluster,
        help="run on a local Dask cluster of N worker processes, one thread each "
        "(default N: --jobs), closed at the end",
    )
    parser.add_argument(
        "--connect-timeout", type=positive_float, default=10.0, metavar="SECONDS",
        help="seconds to wait for the Dask scheduler, and for its first worker x6 (default 10)",
    )
    parser.add_argument(
        "--output", "-o", type=file_name, metavar="FILE",
        help="append records to FILE (.jsonl or .csv), resuming it; default: JSON Lines on stdout",
    )
    parser.add_argument(
        "--format", choices=("jsonl", "csv"), help="output format (default: from the suffix)"
    )
    parser.add_argument("--moves", action="store_true", help="include the winning moves")
    method = parser.add_mutually_exclusive_group()
    method.add_argument(
        "--proof", action="store_true",
        help="run the complete search alone, without the restart rounds: the quickest "
        "proofs that deals are unsolvable, slower wins (give it --memory-mb: 16 bytes a "
        "position; docs/engine.md); the records say \"method\": \"proof\"",
    )
    method.add_argument(
        "--layers", action="store_true",
        help="enumerate every reachable position, layer by layer: the quickest and leanest "
        "proofs that deals are unsolvable, a slow way to win one (a second pass over the "
        "unknowns; docs/engine.md); the records say \"method\": \"layers\"",
    )
    parser.add_argument(
        "--work-dir", type=file_name, metavar="DIR",
        help="with --layers: keep each deal's layers not being expanded in files of a "
        "subdirectory of DIR (made if missing; deal-N, or the board id), so that --memory-mb "
        "need only hold the layers being expanded; removed once the deal is decided, kept "
        "when it is left unknown, and a later --retry-unknown --layers --work-dir DIR goes "
        "on from it (the record says \"resumed_nodes\"; docs/survey.md, 'A pass on disk'). "
        "On Dask every worker must see DIR under the same path",
    )
    parser.add_argument(
        "--disk-mb", type=disk_mb, metavar="MB",
        help="with --work-dir: MiB the files of each deal may hold (default: what the disk "
        "has); past it, or on a full disk, the deal stops (unknown, reason disk)",
    )
    parser.add_argument(
        "--no-line-record", action="store_true",
        help="with --work-dir: keep no record for tracing a win's line back (about 4 bytes a "
        "position stored), so that each deal's files hold only the layers still to expand; "
        "a win's line then comes from the default search; a deal gone on from lets go of "
        "its record (docs/engine.md, 'Without the line record')",
    )
    parser.add_argument(
        "--retry-unknown", action="store_true",
        help="re-run only the deals whose latest record in --output is unknown "
        "(among DEALS or --boards if given), appending the new records",
    )
    parser.add_argument(
        "--summary", type=file_name, metavar="FILE", help="print the summary of a survey file and exit"
    )
    add_rules_arguments(parser)


def _local_cluster(text: str) -> int:
    """argparse type: ``local`` (0: as many workers as --jobs) or ``local:N``."""
    from ..survey.cluster import parse_local

    try:
        return parse_local(text) or 0
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _bad(message: str) -> int:
    return error("survey", message)


def _say(message: str) -> None:
    note(f"bakersdozen survey: {message}")


def run(args: argparse.Namespace) -> int:  # noqa: C901 - one command, read top to bottom
    from concurrent.futures.process import BrokenProcessPool

    from ..records import DealId, latest
    from ..solution import DEFAULT_MEMORY_MB, Verdict
    from ..stats import summarize
    from ..survey import codecs
    from ..survey.log import RecordWriter, pending, read_records
    from ..survey.runner import Limits, default_memory_mb
    from ..survey.tasks import DealRange, make_work_dir, read_boards

    if args.summary is not None:
        if args.deals or args.boards or args.output or args.retry_unknown:
            return _bad("--summary FILE takes no deals, --boards, --output or --retry-unknown")
        records = read_records(args.summary, args.format)
        sys.stdout.write(f"{args.summary}\n" + summarize(records).format())
        return EXIT_OK
    if args.deals and args.boards:
        return _bad("give deal numbers or --boards FILE, not both")
    if not (args.deals or args.boards or args.retry_unknown):
        return _bad("give deal numbers (e.g. 1-1000), --boards FILE, or --summary FILE")
    if args.retry_unknown and not args.output:
        return _bad("--retry-unknown needs --output FILE, the survey to retry")
    dask = args.scheduler is not None or args.cluster is not None
    if args.work_dir is not None and not args.layers:
        return _bad("--work-dir needs --layers: only the layered search keeps its work on disk")
    if args.disk_mb is not None and args.work_dir is None:
        return _bad("--disk-mb needs --work-dir DIR (and --layers): it bounds the files each "
                    "deal keeps there")
    if args.no_line_record and args.work_dir is None:
        return _bad("--no-line-record needs --work-dir DIR (and --layers): the record it "
                    "leaves out is kept in each deal's files there")

    rules = rules_from_args(args)
    from ..solver import plays_layers

    if args.layers and not plays_layers(rules):
        # before --output is opened: a refused survey writes nothing
        return _bad(f"{LAYERS_PLAY}, and {rules.name} has "
                    f"{', '.join(layers_knobs_changed(rules))}: prove with --proof instead")
    candidates: Iterable[Task] = ()
    total = 0
    deal_range: DealRange | None = None
    board_ids: set[DealId] = set()
    if args.deals:
        deal_range = DealRange(args.deals)
        candidates = ((n, n) for n in deal_range)
        total = deal_range.count
    elif args.boards:
        boards = read_boards(args.boards, rules)
        candidates = boards
        total = len(boards)
        board_ids = {i for i, _ in boards}

    jobs = args.jobs or os.cpu_count() or 1
    out_format = args.format or "jsonl"
    work_dir: str | None = None
    if args.work_dir is not None:  # before --output is opened and any deal runs
        work_dir = os.path.abspath(args.work_dir)
        try:
            make_work_dir(work_dir)
        except OSError as failure:
            return _bad(f"--work-dir {args.work_dir}: cannot write there: "
                        f"{failure.strerror or failure}")
    writer: RecordWriter | None = None
    if args.output:
        out_format = codecs.output_format(args.output, args.format)
        if args.retry_unknown and not os.path.exists(args.output):
            return _bad(f"{args.output}: no such survey to retry")
        writer = RecordWriter(args.output, out_format)
    try:
        existing = latest(writer.existing) if writer else {}
        other = next((r.game for r in existing.values() if r.game != rules.name), None)
        if other is not None:
            return _bad(
                f"{args.output}: holds records of the game {other!r}; write a survey of "
                f"{rules.name!r} to another file"
            )
        if (writer and out_format == "csv" and "method" not in writer.columns
                and (args.proof or args.layers)):
            return _bad(
                f"{args.output}: a CSV survey written without a method column: it cannot say "
                f"which records --{'proof' if args.proof else 'layers'} made; write them to a "
                "new file"
            )
        if (writer and out_format == "csv" and "resumed_nodes" not in writer.columns
                and work_dir is not None):
            return _bad(
                f"{args.output}: a CSV survey written without a resumed_nodes column: it "
                "cannot say which records went on from the work of earlier runs (--work-dir); "
                "write them to a new file"
            )
        if (writer and out_format == "csv" and "layer_progress" not in writer.columns
                and args.layers):
            _say(f"{args.output}: a CSV survey written without a layer_progress column: its "
                 "new rows leave out how far an undecided layered search got (a new file "
                 "keeps it)")
        if writer and writer.repaired:
            _say(f"{args.output}: removed a torn last line ({writer.repaired} bytes) "
                 "left by an interrupted run")
        if args.retry_unknown:
            unknown = [i for i, r in existing.items() if r.verdict is Verdict.UNKNOWN]
            if not (args.deals or args.boards):
                boards_needed = [i for i in unknown if isinstance(i, str)]
                if boards_needed:
                    return _bad(
                        f"{args.output}: unknown deal {boards_needed[0]!r} is a board: "
                        "pass --boards FILE (or the deal numbers) to say where it is"
                    )
                numbers = sorted(i for i in unknown if isinstance(i, int))
                candidates = [(n, n) for n in numbers]
                total = len(numbers)
            to_go = sum(
                1 for i in unknown
                if not (args.deals or args.boards) or i in board_ids
                or (deal_range is not None and i in deal_range)
            )
        else:
            recorded = sum(
                1 for i in existing
                if i in board_ids or (deal_range is not None and i in deal_range)
            )
            to_go = total - recorded
            if recorded:
                _say(f"{args.output}: {recorded} deals already recorded, {to_go} to go")
        busy = max(1, min(jobs, to_go))  # the RAM is shared by the jobs that can run at once
        if dask:  # each worker fits the table to its own memory (docs/cluster.md)
            memory_mb = args.memory_mb or DEFAULT_MEMORY_MB
        else:
            memory_mb = args.memory_mb or default_memory_mb(busy)
        limits = Limits(args.time_limit, args.max_nodes, float(memory_mb), args.seed, args.moves,
                        rules, "proof" if args.proof else "layers" if args.layers else "dfs",
                        work_dir, args.disk_mb, not args.no_line_record)
        new = _run_tasks(pending(candidates, existing, args.retry_unknown), to_go, busy,
                         limits, writer, out_format, args)
    except BrokenProcessPool as failure:
        return _bad_worker(str(failure))
    except BaseException as failure:
        name = type(failure).__name__
        if name == "ClusterError":
            _say(f"error: {failure}")
            return EXIT_CLUSTER
        if name == "KilledWorker":  # Dask gave up on a task that killed its workers
            return _bad_worker(f"Dask: {' '.join(str(failure).split())[:200]}")
        raise
    finally:
        if writer:
            writer.close()
    summary = summarize(list(existing.values()) + new)
    if writer:
        sys.stdout.write(summary.format())
    elif sys.stderr is not None:  # standard error closed (2>&-): no summary
        sys.stderr.write(summary.format())
    return EXIT_OK


def _bad_worker(message: str) -> int:
    _say(f"error: a worker process died ({message}); out of memory? try fewer --jobs or "
         "a smaller --memory-mb; run again to resume")
    return EXIT_WORKER_DIED


def _executor(jobs: int, args: argparse.Namespace) -> tuple[Executor, dict[str, Any]]:
    """What runs the tasks, and how :func:`~bakersdozen.survey.runner.run` feeds it."""
    from ..survey.workers import InlineExecutor, process_executor

    if args.scheduler is None and args.cluster is None:
        if jobs == 1:
            return InlineExecutor(), {"window": 1}
        return process_executor(jobs), {"window": 2 * jobs}
    from ..survey.cluster import connect, quiet_logs, run_options

    # The client's own log lines (reconnecting, a lost worker) would break the
    # one-line errors: the survey says what matters itself.
    quiet_logs()
    if args.scheduler is not None:
        executor = connect(args.scheduler, timeout=args.connect_timeout)
    else:
        executor = connect(local=True, local_workers=args.cluster or jobs,
                           timeout=args.connect_timeout)
    try:
        executor.wait_for_workers(1, timeout=6 * args.connect_timeout)
    except BaseException:
        executor.close()
        raise
    return executor, run_options(executor)


def _run_tasks(
    tasks: Iterable[Task], count: int, jobs: int, limits: Limits,
    writer: RecordWriter | None, out_format: str, args: argparse.Namespace,
) -> list[Record]:
    """Run the tasks on this process (one job), worker processes or Dask; write each record."""
    from dataclasses import replace

    from tqdm import tqdm  # type: ignore[import-untyped, unused-ignore]

    from ..survey import codecs
    from ..survey.runner import run
    from ..survey.workers import stop

    counts = {"solved": 0, "unsolvable": 0, "unknown": 0}
    records: list[Record] = []
    if writer is None and codecs.header(out_format):
        sys.stdout.write(codecs.header(out_format))
    progress = tqdm(
        total=count, unit="deal", file=sys.stderr, disable=sys.stderr is None or not sys.stderr.isatty(),
        dynamic_ncols=True, smoothing=0.05,
    )
    dask = args.scheduler is not None or args.cluster is not None
    executor: Executor | None = None
    feed: dict[str, Any] = {}
    finished = False
    try:
        if count or not dask:  # nothing to run: no cluster to reach
            executor, feed = _executor(jobs, args)
        for record in run(tasks, limits, executor, **feed) if executor else ():
            if writer:
                writer.write(record)
            else:
                sys.stdout.write(codecs.format_record(record, out_format))
                sys.stdout.flush()
            # the summary needs no moves: keep millions of records small
            records.append(record if record.moves is None else replace(record, moves=None))
            counts[record.verdict.value] += 1
            progress.set_postfix(counts, refresh=False)
            progress.update()
        finished = True
    except BaseException as failure:
        if isinstance(failure, KeyboardInterrupt) or type(failure).__name__ == "Terminated":
            _say("the records written are kept: run the same command again to resume")
        raise
    finally:
        progress.close()
        close = getattr(executor, "close", None)
        if executor is None:
            pass
        elif close is not None:  # Dask: cancel what is left, close what it started
            close()
        elif finished:
            executor.shutdown(wait=True)
        else:
            stop(executor)
    return records
