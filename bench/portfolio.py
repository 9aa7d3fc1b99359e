"""The restart schedule of the portfolio: deals decided per configuration.

Usage::

    python bench/portfolio.py 1-11000 --max-nodes 5000000 \\
        --config '{}' --config '{"growth": 1.05}' [--jobs 2]

Each ``--config`` is a JSON object of keyword arguments for the engine's
``DepthFirstSearch.run`` (``base_budget``, ``growth``, ``proof_share``;
``{}`` is the default).  Every PySol Baker's Dozen deal of the range is
searched under each configuration with a cap of ``--max-nodes`` positions
and no time limit, so the counts below are deterministic: a busy machine
changes the seconds, never the verdicts or the positions.  Prints one
Markdown row per configuration (solved, unsolvable, undecided, positions
in all, summed seconds) and then the undecided deals of each.  Seconds are
only comparable within one run on an idle machine; compare speed with
``bakersdozen bench`` side by side.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from bakersdozen import Deal, _search
from bakersdozen import parse_deal_range
from bakersdozen.solver import _engine_args
from bakersdozen.survey.workers import process_executor, stop


def one(job: tuple[int, dict[str, Any], int, float]) -> tuple[int, int, int, float]:
    """Search one deal: (deal, engine status, positions, seconds)."""
    number, config, max_nodes, memory_mb = job
    search = _search.DepthFirstSearch(*_engine_args(Deal.pysol(number)), memory_mb=memory_mb)
    start = time.perf_counter()
    status, _moves, nodes, _rounds, _entries = search.run(max_nodes=max_nodes, **config)
    return number, status, nodes, time.perf_counter() - start


KNOBS = {"base_budget": int, "growth": float, "proof_share": float, "seed": int}


def parse_config(text: str) -> dict[str, Any]:
    """A ``--config`` value: a JSON object whose keys are among :data:`KNOBS`."""
    try:
        value = json.loads(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(f"not JSON: {text!r} ({error})") from None
    if not isinstance(value, dict):
        raise argparse.ArgumentTypeError(f"not a JSON object: {text!r}")
    for key, item in value.items():
        if key not in KNOBS:
            raise argparse.ArgumentTypeError(
                f"unknown knob {key!r} in {text!r}: the knobs are {', '.join(KNOBS)}")
        if isinstance(item, bool) or not isinstance(item, (int, float)) \
                or (KNOBS[key] is int and not isinstance(item, int)):
            kind = "an integer" if KNOBS[key] is int else "a number"
            raise argparse.ArgumentTypeError(f"{key} must be {kind}, not {item!r}")
    return value


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("deals", help="PySol deal numbers, e.g. 1-11000")
    parser.add_argument("--config", action="append", type=parse_config, required=True,
                        help="JSON keyword arguments of DepthFirstSearch.run")
    parser.add_argument("--max-nodes", type=int, default=5_000_000)
    parser.add_argument("--memory-mb", type=float, default=512.0)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(argv)
    try:
        numbers = list(parse_deal_range(args.deals))
    except ValueError as error:
        parser.error(f"deals: {error}")
    for item in args.config:
        try:   # the engine's own range checks, before any process starts
            _search.DepthFirstSearch(*_engine_args(Deal.pysol(1))).run(max_nodes=1, **item)
        except (ValueError, OverflowError) as error:
            parser.error(f"--config {json.dumps(item)}: {error}")
    print(f"PySol deals {args.deals}, {args.max_nodes:,} positions per deal, "
          f"{args.memory_mb:g} MiB\n")
    print("| configuration | solved | unsolvable | undecided | positions | seconds (sum) |")
    print("|---|---:|---:|---:|---:|---:|")
    undecided: dict[str, list[int]] = {}
    for config in args.config:
        jobs = [(n, config, args.max_nodes, args.memory_mb) for n in numbers]
        # the survey's workers: they ignore Ctrl-C and die with this process
        pool = process_executor(args.jobs)
        try:
            results = list(pool.map(one, jobs, chunksize=16))
        finally:
            stop(pool)  # all done, or Ctrl-C: end the workers now
        solved = sum(1 for r in results if r[1] == _search.SOLVED)
        unsolvable = sum(1 for r in results if r[1] == _search.UNSOLVABLE)
        name = json.dumps(config)
        undecided[name] = sorted(r[0] for r in results
                                 if r[1] not in (_search.SOLVED, _search.UNSOLVABLE))
        print(f"| `{name}` | {solved} | {unsolvable} | {len(undecided[name])} "
              f"| {sum(r[2] for r in results):,} | {sum(r[3] for r in results):.1f} |",
              flush=True)
    print()
    for name, deals in undecided.items():
        print(f"undecided with `{name}`: {', '.join(map(str, deals)) or 'none'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
