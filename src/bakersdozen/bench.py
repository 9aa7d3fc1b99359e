"""``bakersdozen bench``: measure the solver on a fixed suite of PySol deals.

Run it as ``bakersdozen bench`` or ``python -m bakersdozen.bench``::

    bakersdozen bench                       # PySol deals 1-100, 10 s each
    bakersdozen bench --deals 1-5,9 --json  # one JSON object on stdout
    bakersdozen bench --perft               # add move-generator speed
    bakersdozen bench --compare fc-solve    # Freecell Solver side by side

Every deal is solved with :func:`bakersdozen.solve`, one at a time by
default so that timings are comparable (``--jobs N`` uses N processes),
and every winning line is replayed by :func:`bakersdozen.check`; a line
that does not replay makes the command fail.

Figures (see :func:`summarise`): *seconds* is the wall-clock time of each
:func:`~bakersdozen.solve` call; p50/p90/p99 are nearest-rank percentiles
over the deals (the smallest time that at least that share of the deals
took no longer than); *nodes per second* is total positions generated over
total seconds; *peak RSS* is ``resource.getrusage(...).ru_maxrss``: the
peak resident memory of the whole process (Python included), not of the
search alone.

Freecell Solver (``--compare fc-solve``) is run as a separate process per
deal, ``fc-solve --game bakers_dozen`` with the board text on standard
input, under the same time limit; a run still going at the limit is killed
and counted *unknown*.  Its time includes process start-up (a few ms).
Freecell Solver must be compiled for at least 13 stacks (its default is
10); :func:`find_fc_solve` tries it on a trivial board first and says why
it cannot be used.

Exit status: 0 done, 1 a solution failed its replay, 2 bad arguments or an
unusable ``--fc-solve``.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import resource
import shlex
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass
from typing import Any, Final

from .check import check
from .cli import EXIT_BAD_INPUT, EXIT_OK, positive_float, positive_int
from .model import Deal
from .solver import DEFAULT_MEMORY_MB, solve
from .survey import parse_deal_range

__all__ = [
    "DealResult",
    "parse_deals",
    "run_ours",
    "summarise",
    "percentile",
    "perft_speed",
    "parse_fc_solve",
    "find_fc_solve",
    "run_fc_solve",
    "FcSolveUnavailable",
    "main",
]

EXIT_REPLAY_FAILED: Final = 1

#: Positions and depths of the perft section (counts checked in bench/perft.json).
PERFT_DEALS: Final = (1, 24, 100, 617)
PERFT_DEPTH: Final = 7

FC_SOLVE_HINT: Final = (
    "install Freecell Solver >= 5 built for at least 13 stacks and pass --fc-solve PATH "
    "(`apt install freecell-solver-bin` gives fc-solve, but Debian's 5.0.0 build stops at "
    "10 stacks; build it from source with `cmake -DMAX_NUM_STACKS=13`)"
)

#: Freecell Solver's verdict lines (its main.c), and ours.
FC_VERDICTS: Final = {
    "This game is solveable.": "solved",
    "I could not solve this game.": "unsolvable",
    "Iterations count exceeded.": "unknown",
}
FC_TOO_MANY_STACKS: Final = "exceeds the maximal number of stacks"


class FcSolveUnavailable(Exception):
    """No usable Freecell Solver: the message says why and how to get one."""


# ---------------------------------------------------------------------------
# Arguments
# ---------------------------------------------------------------------------


def parse_deals(spec: str) -> list[int]:
    """Read a deal list such as ``"1-100"`` or ``"1-5,9,20-22"``.

    The same reader as ``bakersdozen survey``
    (:func:`bakersdozen.survey.parse_deal_range`): deals in the order
    given, repeats dropped; raises ParseError (a ValueError) quoting the
    bad item.
    """
    return parse_deal_range(spec)


def _deal_list(text: str) -> list[int]:
    try:
        return parse_deals(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of ``bakersdozen bench``."""
    parser.add_argument(
        "--deals", type=_deal_list, default=parse_deals("1-100"), metavar="LIST",
        help="PySol deal numbers: ranges and lists like 1-5,9 (default 1-100)",
    )
    parser.add_argument(
        "--time-limit", type=positive_float, default=10.0,
        metavar="SECONDS", help="wall-clock seconds per deal (default 10)",
    )
    parser.add_argument(
        "--memory-mb", type=positive_float, default=DEFAULT_MEMORY_MB,
        metavar="MIB", help=f"transposition table budget per solve (default {DEFAULT_MEMORY_MB})",
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
        help="also run Freecell Solver on the same deals, one deal at a time for both",
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


# ---------------------------------------------------------------------------
# Solving the suite
# ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DealResult:
    """One solver's result on one deal.

    Attributes
    ----------
    deal : int
        PySol deal number.
    verdict : str
        ``"solved"``, ``"unsolvable"`` or ``"unknown"``.
    seconds : float
        Wall-clock seconds.
    nodes : int or None
        Positions the solver generated (fc-solve: states checked; None when
        a killed run could not say).
    length : int or None
        Moves in the winning line, when solved.
    reason : str or None
        For unknown: the limit or the problem that stopped the solver.
    """

    deal: int
    verdict: str
    seconds: float
    nodes: int | None
    length: int | None = None
    reason: str | None = None


class ReplayFailed(Exception):
    """A winning line did not replay with :func:`bakersdozen.check`."""


def solve_one(number: int, time_limit: float, memory_mb: float) -> DealResult:
    """Solve PySol deal *number* and replay the line with :func:`check`.

    Raises
    ------
    ReplayFailed
        If the solver's winning line does not win under the checker.
    """
    deal = Deal.pysol(number)
    solution = solve(deal, time_limit=time_limit, memory_mb=memory_mb)
    length = None
    if solution.solved:
        if not check(deal, solution.moves).won:
            raise ReplayFailed(f"deal {number}: the solver's line does not win")
        length = len(solution.moves)
    return DealResult(
        number, solution.verdict.value, solution.seconds, solution.nodes, length, solution.reason
    )


def _solve_star(job: tuple[int, float, float]) -> DealResult:
    return solve_one(*job)


def run_ours(
    numbers: Sequence[int], time_limit: float, memory_mb: float, jobs: int = 1
) -> list[DealResult]:
    """Solve each deal of *numbers*; with ``jobs > 1`` in that many processes.

    Returns
    -------
    list of DealResult
        In the order of *numbers*.
    """
    work = [(n, time_limit, memory_mb) for n in numbers]
    if jobs <= 1 or len(work) <= 1:
        return [_solve_star(job) for job in work]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        return list(pool.map(_solve_star, work))


def percentile(values: Sequence[float], p: float) -> float:
    """Nearest-rank percentile: the smallest value with at least *p* % at or below it.

    ``percentile([], p)`` is NaN.
    """
    if not values:
        return math.nan
    ordered = sorted(values)
    rank = max(1, math.ceil(p / 100 * len(ordered)))
    return ordered[rank - 1]


def summarise(results: Sequence[DealResult]) -> dict[str, Any]:
    """The figures of one solver over a suite.

    Returns
    -------
    dict
        ``deals``, ``decided``, ``solved``, ``unsolvable``, ``unknown``
        (counts); ``p50_seconds``, ``p90_seconds``, ``p99_seconds``,
        ``max_seconds``, ``total_seconds`` (wall clock); ``nodes``;
        ``nodes_per_second`` (total nodes / total seconds, over the deals
        whose node count is known);
        ``median_solution_length`` (moves, over solved deals, or None);
        ``unknown_deals`` (deal numbers).
    """
    seconds = [r.seconds for r in results]
    total = sum(seconds)
    counted = [r for r in results if r.nodes is not None]
    nodes = sum(r.nodes for r in counted if r.nodes is not None)
    counted_seconds = sum(r.seconds for r in counted)
    lengths = [r.length for r in results if r.length is not None]
    count = {v: sum(r.verdict == v for r in results) for v in ("solved", "unsolvable", "unknown")}
    return {
        "deals": len(results),
        "decided": count["solved"] + count["unsolvable"],
        "solved": count["solved"],
        "unsolvable": count["unsolvable"],
        "unknown": count["unknown"],
        "p50_seconds": percentile(seconds, 50),
        "p90_seconds": percentile(seconds, 90),
        "p99_seconds": percentile(seconds, 99),
        "max_seconds": max(seconds, default=math.nan),
        "total_seconds": total,
        "nodes": nodes,
        "nodes_per_second": nodes / counted_seconds if counted_seconds > 0 else 0.0,
        "median_solution_length": statistics.median(lengths) if lengths else None,
        "unknown_deals": [r.deal for r in results if r.verdict == "unknown"],
    }


def peak_rss_mb(who: int = resource.RUSAGE_SELF) -> float:
    """Peak resident set size in MiB from ``getrusage`` (``ru_maxrss``).

    For ``RUSAGE_SELF`` this is the whole process's peak (the interpreter
    included); for ``RUSAGE_CHILDREN`` the largest peak of any finished
    child process.  Linux reports KiB, macOS bytes.
    """
    raw = resource.getrusage(who).ru_maxrss
    return raw / 2**20 if sys.platform == "darwin" else raw / 1024


# ---------------------------------------------------------------------------
# Move generator speed (perft)
# ---------------------------------------------------------------------------


def perft_speed(
    numbers: Iterable[int] = PERFT_DEALS, depth: int = PERFT_DEPTH
) -> dict[str, Any]:
    """Time the compiled move generator's perft from PySol deals.

    Perft counts the move sequences of length *depth* (every legal move, no
    pruning); the count of the last level is taken from the number of moves
    generated (bulk counting), so *nodes per second* is leaf positions
    counted per second, the convention of chess perft.  It runs on one core.

    Returns
    -------
    dict
        ``depth``, ``positions`` (a list of ``{"deal", "nodes", "seconds"}``),
        ``nodes``, ``seconds``, ``nodes_per_second``.
    """
    from . import _position
    from .solver import _engine_args

    rows = []
    for number in numbers:
        position = _position.Position(*_engine_args(Deal.pysol(number)))
        start = time.perf_counter()
        nodes = position.perft(depth)
        rows.append({"deal": number, "nodes": nodes, "seconds": time.perf_counter() - start})
    nodes = sum(int(r["nodes"]) for r in rows)
    seconds = sum(float(r["seconds"]) for r in rows)
    return {
        "depth": depth,
        "positions": rows,
        "nodes": nodes,
        "seconds": seconds,
        "nodes_per_second": nodes / seconds if seconds > 0 else 0.0,
    }


# ---------------------------------------------------------------------------
# Freecell Solver
# ---------------------------------------------------------------------------


def parse_fc_solve(output: str) -> tuple[str, int, str | None]:
    """Read Freecell Solver's verdict and states-checked count from its output.

    Parameters
    ----------
    output : str
        Everything fc-solve printed (standard output and error).

    Returns
    -------
    verdict : str
        ``"solved"`` for "This game is solveable.", ``"unsolvable"`` for
        "I could not solve this game.", ``"unknown"`` for "Iterations count
        exceeded." or anything else.
    states : int
        From "Total number of states checked is N."; 0 if absent.
    reason : str or None
        For unknown: ``"max_iters"`` or ``"no verdict in fc-solve output"``.

    Raises
    ------
    FcSolveUnavailable
        If fc-solve says the game has too many stacks for its build.
    """
    if FC_TOO_MANY_STACKS in output:
        raise FcSolveUnavailable(
            "this fc-solve was compiled for fewer than 13 stacks "
            f"({FC_TOO_MANY_STACKS!r}); {FC_SOLVE_HINT}"
        )
    verdict = "unknown"
    reason: str | None = "no verdict in fc-solve output"
    states = 0
    for raw in output.splitlines():
        line = raw.strip()
        if line in FC_VERDICTS:
            verdict = FC_VERDICTS[line]
            reason = "max_iters" if verdict == "unknown" else None
        elif line.startswith("Total number of states checked is"):
            digits = line.rstrip(".").rsplit(" ", 1)[-1]
            if digits.isdigit():
                states = int(digits)
    return verdict, states, reason


def _fc_command(program: str, extra: Sequence[str]) -> list[str]:
    return [program, "--game", "bakers_dozen", *extra]


def _fc_env() -> dict[str, str]:
    return {**os.environ, "FREECELL_SOLVER_QUIET": "1"}


#: A trivially won 13-column board: column r holds the four cards of rank r.
_PROBE_BOARD: Final = "".join(
    " ".join(rank + suit for suit in "CDHS") + "\n" for rank in "A23456789TJQK"
)


def find_fc_solve(path: str | None = None, extra: Sequence[str] = ()) -> str:
    """Locate a Freecell Solver that plays 13-stack Baker's Dozen.

    Parameters
    ----------
    path : str or None
        The program to use; ``None`` looks for ``fc-solve`` on PATH.

    Returns
    -------
    str
        The program's path.

    Raises
    ------
    FcSolveUnavailable
        If it is not found, cannot run, is compiled for fewer than 13 stacks
        or does not solve a trivial board; the message says how to get one.
    """
    program = shutil.which(path if path else "fc-solve")
    if program is None:
        where = f"{path!r} not found or not executable" if path else "fc-solve not found on PATH"
        raise FcSolveUnavailable(f"{where}; {FC_SOLVE_HINT}")
    try:
        done = subprocess.run(
            _fc_command(program, extra), input=_PROBE_BOARD, capture_output=True,
            text=True, timeout=30, env=_fc_env(),
        )
    except (OSError, subprocess.TimeoutExpired) as error:
        raise FcSolveUnavailable(f"cannot run {program!r}: {error}; {FC_SOLVE_HINT}") from None
    verdict, _, _ = parse_fc_solve(done.stdout + done.stderr)
    if verdict != "solved":
        tail = (done.stdout + done.stderr).strip().splitlines()[-1:] or ["(no output)"]
        raise FcSolveUnavailable(
            f"{program!r} did not solve a trivial 13-column board (exit status "
            f"{done.returncode}, last line {tail[0]!r}); {FC_SOLVE_HINT}"
        )
    return program


def run_fc_solve(
    program: str, number: int, time_limit: float, extra: Sequence[str] = ()
) -> DealResult:
    """Run Freecell Solver on PySol deal *number*, killed at *time_limit* seconds.

    A killed run is ``unknown`` with reason ``"time_limit"``.

    Raises
    ------
    FcSolveUnavailable
        If fc-solve reports too many stacks.
    """
    board = Deal.pysol(number).to_text()
    start = time.perf_counter()
    try:
        done = subprocess.run(
            _fc_command(program, extra), input=board, capture_output=True, text=True,
            timeout=time_limit, env=_fc_env(),
        )
    except subprocess.TimeoutExpired:
        return DealResult(number, "unknown", time.perf_counter() - start, None, None, "time_limit")
    seconds = time.perf_counter() - start
    verdict, states, reason = parse_fc_solve(done.stdout + done.stderr)
    if verdict == "unknown" and reason != "max_iters" and done.returncode != 0:
        reason = f"fc-solve exit status {done.returncode}"
    return DealResult(number, verdict, seconds, states, None, reason)


# ---------------------------------------------------------------------------
# Output
# ---------------------------------------------------------------------------


def _fmt_seconds(value: float) -> str:
    if math.isnan(value):
        return "-"
    if value < 1:
        return f"{value * 1000:.2f} ms"
    return f"{value:.2f} s"


def _fmt_rate(value: float) -> str:
    if value >= 1e6:
        return f"{value / 1e6:.2f} M/s"
    if value >= 1e3:
        return f"{value / 1e3:.1f} k/s"
    return f"{value:.0f} /s"


_ROWS: Final[list[tuple[str, str, Callable[[Any], str]]]] = [
    ("deals", "deals", str),
    ("decided", "decided", str),
    ("solved", "solved", str),
    ("unsolvable", "unsolvable", str),
    ("unknown", "unknown", str),
    ("p50 seconds", "p50_seconds", _fmt_seconds),
    ("p90 seconds", "p90_seconds", _fmt_seconds),
    ("p99 seconds", "p99_seconds", _fmt_seconds),
    ("max seconds", "max_seconds", _fmt_seconds),
    ("total seconds", "total_seconds", _fmt_seconds),
    ("nodes per second", "nodes_per_second", _fmt_rate),
    ("median solution length", "median_solution_length",
     lambda v: "-" if v is None else f"{v:g} moves"),
    ("peak RSS (process)", "peak_rss_mb", lambda v: f"{v:.0f} MiB"),
]


def format_table(report: dict[str, Any]) -> str:
    """The plain-text report: settings, the summary table, perft, notes."""
    lines = []
    settings = report["settings"]
    if report["solvers"]:
        lines.append(
            f"PySol deals {settings['deals']}, time limit {settings['time_limit']:g} s, "
            f"table {settings['memory_mb']:g} MiB, jobs {settings['jobs']}"
        )
        names = list(report["solvers"])
        table = [["", *names]]
        for label, key, fmt in _ROWS:
            table.append([label, *(fmt(report["solvers"][n]["summary"][key]) for n in names)])
        widths = [max(len(row[i]) for row in table) for i in range(len(table[0]))]
        for i, row in enumerate(table):
            cells = [row[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(row[1:], widths[1:])]
            lines.append("  ".join(cells).rstrip())
            if i == 0:
                lines.append("  ".join("-" * w for w in widths))
        for name in names:
            unknown = report["solvers"][name]["summary"]["unknown_deals"]
            if unknown:
                lines.append(f"{name} unknown: deals {', '.join(map(str, unknown))}")
        if report.get("disagreements"):
            lines.append("VERDICTS DISAGREE on: " + ", ".join(
                f"deal {d['deal']} ({d['bakersdozen']} vs {d['fc-solve']})"
                for d in report["disagreements"]
            ))
        if settings["per_deal"]:
            lines.append("")
            for name in names:
                lines.append(f"{name}: deal verdict seconds nodes moves")
                for r in report["solvers"][name]["deals"]:
                    lines.append(
                        f"  {r['deal']:>6} {r['verdict']:<10} {_fmt_seconds(r['seconds']):>10} "
                        f"{'-' if r['nodes'] is None else r['nodes']:>10} {'' if r['length'] is None else r['length']}"
                    )
    if report.get("perft"):
        p = report["perft"]
        deals = ", ".join(str(r["deal"]) for r in p["positions"])
        lines.append(
            f"perft depth {p['depth']} from PySol deals {deals}: {p['nodes']} leaf nodes in "
            f"{p['seconds']:.3f} s = {_fmt_rate(p['nodes_per_second'])} (one core)"
        )
    for note in report["notes"]:
        lines.append(f"note: {note}")
    return "\n".join(lines) + "\n"


def _deal_spec(numbers: Sequence[int]) -> str:
    """Compact ``1-5,9`` form of a list of deal numbers."""
    parts: list[str] = []
    i = 0
    while i < len(numbers):
        j = i
        while j + 1 < len(numbers) and numbers[j + 1] == numbers[j] + 1:
            j += 1
        parts.append(str(numbers[i]) if i == j else f"{numbers[i]}-{numbers[j]}")
        i = j + 1
    return ",".join(parts)


def machine() -> dict[str, Any]:
    """A short description of this machine for the JSON report."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as handle:
            for line in handle:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return {
        "cpu": cpu,
        "cpus": os.cpu_count(),
        "python": platform.python_version(),
        "platform": platform.platform(),
    }


# ---------------------------------------------------------------------------
# The command
# ---------------------------------------------------------------------------


def _error(message: str) -> int:
    print(f"bakersdozen bench: error: {message}", file=sys.stderr)
    return EXIT_BAD_INPUT


def run(args: argparse.Namespace) -> int:
    """Run ``bakersdozen bench`` (registered by ``_bench_cli``); returns the exit status."""
    notes: list[str] = []
    try:
        fc_extra = shlex.split(args.fc_solve_args)
    except ValueError as error:
        return _error(f"--fc-solve-args {args.fc_solve_args!r}: {error}")
    if args.fc_solve and not args.compare:
        return _error("--fc-solve needs --compare fc-solve")
    if args.compare and args.jobs > 1:
        return _error("--compare runs one deal at a time for both solvers; drop --jobs")
    if args.perft_only and args.compare:
        return _error("--perft-only cannot be combined with --compare")

    fc_program = None
    if args.compare:
        try:
            fc_program = find_fc_solve(args.fc_solve, fc_extra)
        except FcSolveUnavailable as error:
            if args.fc_solve:  # the user named a program: that is an error
                return _error(str(error))
            notes.append(f"cannot compare with Freecell Solver: {error}; "
                         "benchmarking bakersdozen alone")
            print(f"bakersdozen bench: {notes[-1]}", file=sys.stderr)

    report: dict[str, Any] = {
        "settings": {
            "deals": _deal_spec(args.deals),
            "time_limit": args.time_limit,
            "memory_mb": args.memory_mb,
            "jobs": args.jobs,
            "per_deal": args.per_deal,
            "fc_solve": fc_program,
            "fc_solve_args": fc_extra,
        },
        "machine": machine(),
        "solvers": {},
        "notes": notes,
    }
    status = EXIT_OK
    if not args.perft_only:
        ours: list[DealResult] = []
        theirs: list[DealResult] = []
        try:
            if fc_program is None:
                ours = run_ours(args.deals, args.time_limit, args.memory_mb, args.jobs)
            else:
                for number in args.deals:  # one deal at a time, alternating
                    ours.append(solve_one(number, args.time_limit, args.memory_mb))
                    theirs.append(run_fc_solve(fc_program, number, args.time_limit, fc_extra))
        except ReplayFailed as error:
            print(f"bakersdozen bench: FAILED: {error}", file=sys.stderr)
            return EXIT_REPLAY_FAILED
        except FcSolveUnavailable as error:
            return _error(str(error))
        summary = summarise(ours)
        summary["peak_rss_mb"] = peak_rss_mb(
            resource.RUSAGE_CHILDREN if args.jobs > 1 else resource.RUSAGE_SELF
        )
        report["solvers"]["bakersdozen"] = {
            "summary": summary, "deals": [asdict(r) for r in ours],
        }
        notes.append(
            "peak RSS is getrusage().ru_maxrss: the peak of the whole process "
            + ("(largest worker)" if args.jobs > 1 else "(interpreter included)")
        )
        if fc_program is not None:
            fc_summary = summarise(theirs)
            fc_summary["peak_rss_mb"] = peak_rss_mb(resource.RUSAGE_CHILDREN)
            report["solvers"]["fc-solve"] = {
                "summary": fc_summary, "deals": [asdict(r) for r in theirs],
            }
            report["disagreements"] = [
                {"deal": a.deal, "bakersdozen": a.verdict, "fc-solve": b.verdict}
                for a, b in zip(ours, theirs)
                if {a.verdict, b.verdict} == {"solved", "unsolvable"}
            ]
            notes.append(
                "fc-solve: nodes are its 'states checked'; its seconds include process "
                "start-up; a run killed at the time limit counts as unknown"
            )
    if args.perft or args.perft_only:
        report["perft"] = perft_speed()
    if args.json:
        json.dump(report, sys.stdout, indent=2, default=_json_default)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(format_table(report))
    return status


def _json_default(value: object) -> object:
    raise TypeError(f"cannot encode {value!r} as JSON")


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m bakersdozen.bench [ARGS]``: the same as ``bakersdozen bench``."""
    from .cli import main as cli_main

    return cli_main(["bench", *(sys.argv[1:] if argv is None else argv)])


if __name__ == "__main__":
    sys.exit(main())
