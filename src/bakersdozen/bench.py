"""``bakersdozen bench``: measure the solver on a fixed suite of PySol deals.

The library side of ``bakersdozen bench`` (the command is
:mod:`bakersdozen.cli.bench`)::

    bakersdozen bench                       # PySol deals 1-100, 10 s each
    bakersdozen bench --deals 1-5,9 --json  # one JSON object on stdout
    bakersdozen bench --perft               # add move-generator speed
    bakersdozen bench --compare fc-solve    # Freecell Solver side by side

Every deal is solved with :func:`bakersdozen.solve`, one at a time by
default so that timings are comparable (``--jobs N`` uses N processes),
and every winning line is replayed by :func:`bakersdozen.check`; a line
that does not replay makes the command fail.

Figures (see :func:`summary_figures`): *seconds* is the wall-clock time of each
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

Every result, ours and Freecell Solver's, is a :class:`bakersdozen.records.Record`
(fc-solve's ``nodes`` are its states checked, 0 for a run killed at the
time limit); the figures come from :func:`bakersdozen.stats.summarize`.
"""

from __future__ import annotations

import math
import os
import platform
import resource
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Executor
from dataclasses import replace
from typing import Any, Final

from .check import check
from .model import Deal
from .records import Record
from .rules import BAKERS_DOZEN, Rules
from .solution import Verdict
from .stats import summarize
from .survey.runner import Limits, run, solve_task
from .survey.tasks import Task, parse_deal_range
from .survey.workers import InlineExecutor, process_executor, stop

__all__ = [
    "ReplayFailed",
    "parse_deals",
    "solve_and_replay",
    "run_ours",
    "summary_figures",
    "perft_speed",
    "parse_fc_solve",
    "find_fc_solve",
    "run_fc_solve",
    "FcSolveUnavailable",
    "format_table",
    "machine",
    "peak_rss_mb",
    "deal_spec",
]

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


# ---------------------------------------------------------------------------
# Solving the suite
# ---------------------------------------------------------------------------


class ReplayFailed(Exception):
    """A winning line did not replay with :func:`bakersdozen.check`."""


def solve_and_replay(task: Task, limits: Limits) -> Record:
    """Solve one task (:func:`bakersdozen.survey.solve_task`) and replay its line with :func:`check`.

    Raises
    ------
    ReplayFailed
        If the solver's winning line does not win under the checker.
    """
    record = solve_task(task, replace(limits, moves=True))
    if record.solved:
        deal = (Deal.pysol(task[1], game=limits.rules or BAKERS_DOZEN)
                if isinstance(task[1], int) else task[1])
        if limits.rules is not None:
            deal = deal.with_rules(limits.rules)
        if not check(deal, record.moves or ()).won:
            raise ReplayFailed(f"deal {record.deal}: the solver's line does not win")
    return Record(record.deal, record.verdict, record.reason, record.seconds, record.nodes,
                  record.length, None if not limits.moves else record.moves,
                  record.time_limit, record.max_nodes, record.memory_mb, record.seed,
                  record.game)


def run_ours(
    numbers: Sequence[int], time_limit: float | None, memory_mb: float, jobs: int = 1,
    executor: Executor | None = None, rules: Rules = BAKERS_DOZEN,
) -> list[Record]:
    """Solve and replay each deal of *numbers*; with ``jobs > 1`` in that many processes.

    The same runner as the survey (:func:`bakersdozen.survey.run`).

    Returns
    -------
    list of Record
        In the order of *numbers*, without moves.

    Raises
    ------
    ReplayFailed
        If a winning line does not replay.
    """
    limits = Limits(time_limit, None, float(memory_mb), 0, moves=False, rules=rules)
    tasks: list[Task] = [(n, n) for n in numbers]
    own = executor is None
    pool: Executor = executor or (
        InlineExecutor() if jobs <= 1 or len(tasks) <= 1 else process_executor(jobs)
    )
    finished = False
    try:
        records = {r.deal: r for r in run(tasks, limits, pool, max(1, jobs), solve_and_replay)}
        finished = True
    finally:
        if own:
            if finished:
                pool.shutdown(wait=True)
            else:
                stop(pool)
    return [records[n] for n in numbers]


def summary_figures(records: Sequence[Record]) -> dict[str, Any]:
    """The figures of one solver over a suite, from :func:`bakersdozen.stats.summarize`.

    Returns
    -------
    dict
        ``deals``, ``decided``, ``solved``, ``unsolvable``, ``unknown``
        (counts); ``p50_seconds``, ``p90_seconds``, ``p99_seconds``,
        ``max_seconds``, ``total_seconds`` (wall clock); ``nodes``;
        ``nodes_per_second`` (total nodes / total seconds);
        ``median_solution_length`` (moves, over solved deals, or None);
        ``unknown_deals`` (deal numbers).
    """
    summary = summarize(records)
    seconds = summary.seconds
    return {
        "deals": summary.total,
        "decided": summary.decided,
        "solved": summary.solved,
        "unsolvable": summary.unsolvable,
        "unknown": summary.unknown,
        "p50_seconds": seconds.get(50, math.nan),
        "p90_seconds": seconds.get(90, math.nan),
        "p99_seconds": seconds.get(99, math.nan),
        "max_seconds": seconds.get(100, math.nan),
        "total_seconds": summary.total_seconds,
        "nodes": summary.total_nodes,
        "nodes_per_second": summary.nodes_per_second,
        "median_solution_length": summary.median_length,
        "unknown_deals": list(summary.unknown_ids),
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
) -> Record:
    """Run Freecell Solver on PySol deal *number*, killed at *time_limit* seconds.

    A killed run is ``unknown`` with reason ``"time_limit"`` and 0 nodes
    (it could not say how many states it checked).

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
        return _fc_record(number, Verdict.UNKNOWN, time.perf_counter() - start, 0, "time_limit",
                          time_limit)
    seconds = time.perf_counter() - start
    verdict, states, reason = parse_fc_solve(done.stdout + done.stderr)
    if verdict == "unknown" and reason != "max_iters" and done.returncode != 0:
        reason = f"fc-solve exit status {done.returncode}"
    return _fc_record(number, Verdict(verdict), seconds, states, reason, time_limit)


def _fc_record(
    number: int, verdict: Verdict, seconds: float, states: int, reason: str | None,
    time_limit: float | None,
) -> Record:
    return Record(number, verdict, reason, round(seconds, 6), states, None,
                  time_limit=time_limit)


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
            f"PySol deals {settings['deals']}, time limit "
            + ("none" if settings["time_limit"] is None else f"{settings['time_limit']:g} s")
            + ", "
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


def deal_spec(numbers: Sequence[int]) -> str:
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
