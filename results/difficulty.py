"""Difficulty grades: rate many deals, cut the scores at quartiles, validate with the player.

    python results/difficulty.py run      --game G A-B --output FILE [--jobs J]
                                          [--line-nodes N] [--move-nodes N] [--shortest-nodes N]
    python results/difficulty.py cuts     FILE [FILE ...] [--json]
    python results/difficulty.py validate FILE --cuts CUTS.json [--per-grade K]
                                          [--lookahead L] [--seed S] [--jobs J]

``run`` rates deals A..B of game G with :func:`bakersdozen.difficulty.rate`
and appends one JSON line per deal to FILE (keep it outside the work tree):
``{"deal": N, "game": G, "seconds": ..., <the Rating's fields>}``.  It is
resumable: the deals already in FILE (with the same game and budgets) are
skipped, each line is written and flushed as its deal finishes, and a line
cut short by a kill is ignored (and the deal rated again), so a killed run
loses only the deals in progress.  Deals run in ``--jobs`` worker processes
(:mod:`bakersdozen.survey.workers`: they die with the run; Ctrl-C stops it,
exit status 130).

``cuts`` reads such files (one game each, or several) and prints, per game,
the quartiles of the scores of the rated (solved) deals: the cut-points
easy/medium, medium/hard, hard/expert (:func:`bakersdozen.stats.percentile`,
nearest rank).  ``--json`` prints them as the JSON object that
``bakersdozen rate --cuts`` and ``validate --cuts`` read.

``validate`` grades the solved deals of FILE with the cut-points of its
game, plays :func:`bakersdozen.difficulty.play_greedy` on the first K deals
(by number) of each grade, and prints a Markdown table: grade, deals, wins,
the win rate with its 95 % Wilson interval
(:func:`bakersdozen.stats.wilson_interval`); a win is the verdict of
:func:`bakersdozen.check` on the player's moves.

docs/difficulty.md gives the commands of the full run.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from bakersdozen.difficulty import (
    DEFAULT_LINE_NODES, DEFAULT_LOOKAHEAD, DEFAULT_MOVE_NODES, DEFAULT_SHORTEST_NODES, GRADES,
    grade_of, load_cuts, play_deal, rate_deal,
)
from bakersdozen.errors import BakersDozenError
from bakersdozen.rules import PRESETS
from bakersdozen.stats import percentile, wilson_interval

EXIT_INTERRUPTED = 130


def read_lines(path: str) -> list[dict[str, Any]]:
    """The complete JSON lines of *path* ([] if it does not exist); a broken line is skipped."""
    try:
        stream = open(path, encoding="utf-8")
    except FileNotFoundError:
        return []
    out = []
    with stream:
        for line in stream:
            if not line.endswith("\n"):
                continue  # cut short by a kill: the deal runs again
            try:
                record = json.loads(line)
            except ValueError:
                continue
            if isinstance(record, dict) and isinstance(record.get("deal"), int):
                out.append(record)
    return out


def pool_map(fn: Callable[..., Any], tasks: Iterable[tuple[Any, ...]], jobs: int
             ) -> Iterator[Any]:
    """``fn(*task)`` for each task, in *jobs* worker processes (in this one for 1),
    yielded as they finish; at most ``2 * jobs`` tasks in flight."""
    if jobs == 1:
        for task in tasks:
            yield fn(*task)
        return
    from concurrent.futures import FIRST_COMPLETED, wait

    from bakersdozen.survey.workers import process_executor, stop, submit

    executor = process_executor(jobs)
    try:
        pending: set[Any] = set()
        queue = iter(tasks)
        for task in queue:
            pending.add(submit(executor, fn, *task))
            while len(pending) >= 2 * jobs:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    yield future.result()
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                yield future.result()
    finally:
        stop(executor)


def command_run(args: argparse.Namespace) -> int:
    from bakersdozen.survey.tasks import DealRange

    done = {
        r["deal"] for r in read_lines(args.output)
        if r.get("game") == args.game and r.get("line_nodes") == args.line_nodes
        and r.get("move_nodes") == args.move_nodes and r.get("shortest_nodes") == args.shortest_nodes
    }
    todo = [(args.game, n, args.line_nodes, args.move_nodes, args.shortest_nodes)
            for n in DealRange(args.deals) if n not in done]
    print(f"{args.game} {args.deals}: {len(done)} deals already in {args.output}, "
          f"{len(todo)} to rate", file=sys.stderr)
    with open(args.output, "a+", encoding="utf-8") as out:
        out.seek(0, os.SEEK_END)
        if out.tell() > 0:
            out.seek(out.tell() - 1)
            if out.read(1) != "\n":
                out.write("\n")  # end a line cut short, so that the next one stands alone
        for record in pool_map(rate_deal, todo, args.jobs):
            out.write(json.dumps(record) + "\n")
            out.flush()
    return 0


def command_cuts(args: argparse.Namespace) -> int:
    scores: dict[str, list[float]] = {}
    for path in args.files:
        if not os.path.exists(path):
            raise BakersDozenError(f"{path}: no such file")
        for record in read_lines(path):
            if record.get("verdict") == "solved":
                scores.setdefault(record["game"], []).append(float(record["score"]))
    if not scores:
        raise BakersDozenError("no rated (solved) deal in " + ", ".join(args.files))
    cuts = {game: [percentile(values, p) for p in (25, 50, 75)] for game, values in scores.items()}
    if args.json:
        print(json.dumps(cuts, sort_keys=True))
    else:
        print("| game | deals rated | easy/medium | medium/hard | hard/expert |")
        print("|---|---:|---:|---:|---:|")
        for game in sorted(cuts):
            a, b, c = cuts[game]
            print(f"| {game} | {len(scores[game])} | {a:.3f} | {b:.3f} | {c:.3f} |")
    return 0


def command_validate(args: argparse.Namespace) -> int:
    table = load_cuts(args.cuts)
    records = [r for r in read_lines(args.file) if r.get("verdict") == "solved"]
    if not records:
        raise BakersDozenError(f"{args.file}: no rated (solved) deal")
    by_grade: dict[tuple[str, str], list[int]] = {}
    for record in sorted(records, key=lambda r: (r["game"], r["deal"])):
        game = record["game"]
        if game not in table:
            raise BakersDozenError(f"{args.cuts}: no cut-points for {game!r}")
        by_grade.setdefault((game, grade_of(record["score"], table[game])), []).append(record["deal"])
    print(f"player: play_greedy lookahead={args.lookahead} seed={args.seed}")
    print("| game | grade | deals | won | win rate | 95 % Wilson interval |")
    print("|---|---|---:|---:|---:|---|")
    for game in sorted({g for g, _ in by_grade}):
        for grade in GRADES:
            deals = by_grade.get((game, grade), [])[: args.per_grade]
            tasks = [(game, n, args.seed, args.lookahead) for n in deals]
            won = sum(w for _n, w in pool_map(play_deal, tasks, args.jobs))
            if not deals:
                print(f"| {game} | {grade} | 0 | 0 | - | - |")
                continue
            low, high = wilson_interval(won, len(deals))
            print(f"| {game} | {grade} | {len(deals)} | {won} | {100 * won / len(deals):.1f} % "
                  f"| {100 * low:.1f}–{100 * high:.1f} % |", flush=True)
    return 0


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def _game(text: str) -> str:
    if text not in PRESETS:
        raise argparse.ArgumentTypeError(f"unknown game {text!r}; one of {', '.join(PRESETS)}")
    return text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="difficulty.py", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="rate deals, one JSON line each, resumable")
    run.add_argument("deals", metavar="A-B", help="PySol deal numbers, e.g. 1-10000")
    run.add_argument("--game", type=_game, required=True)
    run.add_argument("--output", required=True, metavar="FILE")
    run.add_argument("--jobs", type=_positive, default=1)
    run.add_argument("--line-nodes", type=_positive, default=DEFAULT_LINE_NODES)
    run.add_argument("--move-nodes", type=_positive, default=DEFAULT_MOVE_NODES)
    run.add_argument("--shortest-nodes", type=_positive, default=DEFAULT_SHORTEST_NODES)
    cuts = sub.add_parser("cuts", help="quartile cut-points of the scores")
    cuts.add_argument("files", nargs="+", metavar="FILE")
    cuts.add_argument("--json", action="store_true")
    validate = sub.add_parser("validate", help="the player's win rate per grade")
    validate.add_argument("file", metavar="FILE")
    validate.add_argument("--cuts", required=True, metavar="CUTS.json")
    validate.add_argument("--per-grade", type=_positive, default=1000)
    validate.add_argument("--lookahead", type=_positive, default=DEFAULT_LOOKAHEAD)
    validate.add_argument("--seed", type=int, default=0)
    validate.add_argument("--jobs", type=_positive, default=1)
    args = parser.parse_args(argv)
    try:
        return {"run": command_run, "cuts": command_cuts,
                "validate": command_validate}[args.command](args)
    except KeyboardInterrupt:
        print(f"difficulty.py {args.command}: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except (BakersDozenError, OSError) as error:
        print(f"difficulty.py {args.command}: error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
