"""Surveys: solve many deals, record one line per deal, and summarise.

A survey solves a list of deals (PySol deal numbers, or boards read from a
file) with the same per-deal limits, on several processes, and writes one
record per deal as each finishes: the deal id, the verdict, the limit that
stopped an unknown, the seconds and positions spent, the length of the
winning line, and optionally the moves.

Deal ids
--------
A record's ``deal`` is a string: ``"17"`` for PySol deal 17, ``"FILE:k"``
for the *k*-th board (1-based) of a boards file named ``FILE`` as written
on the command line, or any id a caller of :func:`survey` gives.

Output files and resuming (the ``survey`` command)
--------------------------------------------------
JSON Lines (``.jsonl``, ``.ndjson``) or CSV (``.csv``, with a header row);
the format comes from the suffix or ``--format``.  Each record is written
as one complete line with a single ``write`` and flushed at once, so a
killed run loses at most the deals it was still solving; the file is also
``fsync``-ed at least once a second and at the end, against power loss.
Running the same command again on an existing file *resumes*: the file is
read, a torn last line (a record cut short by a kill) is truncated away,
and every deal that already has a record is skipped.

The latest record wins.  ``--retry-unknown`` re-runs only the deals whose
latest record is *unknown* (usually with a larger ``--time-limit``) and
*appends* the new records; a later line with the same deal id supersedes
every earlier one.  :func:`read_records`, :func:`latest` and
:func:`summarize` all apply this rule, so the file is an append-only log
that a killed retry cannot damage.

Summary
-------
:func:`summarize` counts the verdicts and gives the winnability (solved /
decided) with a 95 % confidence interval by the Wilson score interval
(E. B. Wilson, "Probable inference, the law of succession, and statistical
inference", *J. Amer. Statist. Assoc.* 22 (1927) 209-212), which, unlike
the normal-approximation ("Wald") interval, stays inside [0, 1] and keeps
close to its nominal coverage near 0 % and 100 % (R. G. Newcombe,
*Statistics in Medicine* 17 (1998) 857-872).  The unknowns are not
decided, so they also leave the winnability over *all* deals open between
``solved / total`` (every unknown unsolvable) and ``(solved + unknown) /
total`` (every unknown solvable).  Percentiles are nearest-rank: the p-th
percentile of n values is the ``ceil(p / 100 * n)``-th smallest.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import math
import multiprocessing
import os
import re
import sys
import time
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import IO, Final, Union

from .cli import (
    EXIT_BAD_INPUT, EXIT_OK, command, positive_float, positive_int, read_text, seed_int,
)
from .deals import MAX_DEAL, DealNumberError
from .errors import BakersDozenError, ParseError
from .model import Deal
from .solver import DEFAULT_MEMORY_MB, Verdict, solve

__all__ = [
    "SurveyRecord",
    "Summary",
    "survey",
    "summarize",
    "parse_deal_range",
    "read_boards",
    "read_records",
    "latest",
    "wilson_interval",
    "default_memory_mb",
]

#: What :func:`survey` accepts for one deal.
DealSpec = Union[int, Deal, tuple[Union[str, int], Union[int, Deal]]]

#: z for a two-sided 95 % interval: the 0.975 quantile of the standard normal.
Z_95: Final = 1.959963984540054
#: The most deals one range text may name (a guard against ``1-99999999999``).
MAX_RANGE_DEALS: Final = 10_000_000
#: Unknown deal ids listed by :meth:`Summary.format` before "... and N more".
UNKNOWN_IDS_SHOWN: Final = 50
#: CSV columns, in order.
CSV_FIELDS: Final = (
    "deal", "verdict", "reason", "seconds", "nodes", "length",
    "time_limit", "max_nodes", "memory_mb", "seed", "moves",
)
#: Output suffixes and the format each implies.
SUFFIX_FORMATS: Final = {".jsonl": "jsonl", ".ndjson": "jsonl", ".csv": "csv"}
#: Exit status of ``bakersdozen survey`` when a worker process dies.
EXIT_WORKER_DIED: Final = 1
#: Exit status after Ctrl-C (128 + SIGINT, as shells report it).
EXIT_INTERRUPTED: Final = 130
#: Seconds between two ``fsync`` calls on the output file.
FSYNC_INTERVAL: Final = 1.0


# ---------------------------------------------------------------------------
# Records
# ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SurveyRecord:
    """The result of solving one deal in a survey.

    Attributes
    ----------
    deal : str
        The deal id (module documentation, "Deal ids").
    verdict : Verdict
    reason : str or None
        For UNKNOWN, the limit that stopped the search (``"time_limit"``,
        ``"max_nodes"`` or ``"memory_mb"``); else None.
    seconds : float
        Wall-clock seconds of the :func:`~bakersdozen.solve` call, rounded
        to 1 µs (so that a record survives a round trip through text).
    nodes : int
        Positions the search generated.
    length : int or None
        Moves in the winning line when SOLVED, else None.
    moves : tuple of str or None
        The winning line (``str(move)`` each, e.g. ``"7C 1>2"``) when moves
        were asked for; ``()`` for a deal not solved; None when not asked.
    time_limit : float or None
        The per-deal limit used, seconds (None: no limit).
    max_nodes : int or None
        The node limit used, positions (None: no limit).
    memory_mb : float
        The transposition-table budget used, MiB.
    seed : int
        The move-order seed used.
    """

    deal: str
    verdict: Verdict
    reason: str | None
    seconds: float
    nodes: int
    length: int | None
    moves: tuple[str, ...] | None = None
    time_limit: float | None = None
    max_nodes: int | None = None
    memory_mb: float = DEFAULT_MEMORY_MB
    seed: int = 0

    def to_dict(self) -> dict[str, object]:
        """The record as JSON-ready values; ``moves`` only when recorded.

        Returns
        -------
        dict
            Keys ``deal, verdict, reason, seconds, nodes, length, time_limit,
            max_nodes, memory_mb, seed`` and, if not None, ``moves`` (a list
            of move strings).  ``verdict`` is the enum's value (``"solved"``,
            ``"unsolvable"``, ``"unknown"``); seconds are rounded to 1 µs.
        """
        result: dict[str, object] = {
            "deal": self.deal,
            "verdict": self.verdict.value,
            "reason": self.reason,
            "seconds": round(self.seconds, 6),
            "nodes": self.nodes,
            "length": self.length,
            "time_limit": self.time_limit,
            "max_nodes": self.max_nodes,
            "memory_mb": self.memory_mb,
            "seed": self.seed,
        }
        if self.moves is not None:
            result["moves"] = list(self.moves)
        return result

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> SurveyRecord:
        """Read back :meth:`to_dict` output, or a CSV row (all strings).

        Raises
        ------
        ParseError
            If a field is missing or has a value of the wrong kind.
        """
        try:
            moves_value = data.get("moves")
            moves: tuple[str, ...] | None
            if moves_value is None or moves_value == "":
                moves = None
            elif isinstance(moves_value, list):
                moves = tuple(str(m) for m in moves_value)
            elif isinstance(moves_value, str):
                moves = _split_moves(moves_value)
            else:
                raise ValueError(f"moves {moves_value!r}")
            return cls(
                deal=str(data["deal"]),
                verdict=Verdict(data["verdict"]),
                reason=None if data.get("reason") in (None, "") else str(data["reason"]),
                seconds=float(_number(data["seconds"])),
                nodes=int(_number(data["nodes"])),
                length=_optional_int(data.get("length")),
                moves=moves,
                time_limit=_optional_float(data.get("time_limit")),
                max_nodes=_optional_int(data.get("max_nodes")),
                memory_mb=float(_number(data.get("memory_mb", DEFAULT_MEMORY_MB))),
                seed=int(_number(data.get("seed", 0))),
            )
        except (KeyError, ValueError, TypeError) as error:
            raise ParseError(f"not a survey record ({error}): {data!r}") from None

    def csv_row(self) -> list[str]:
        """The record as CSV fields in :data:`CSV_FIELDS` order.

        None is an empty field; ``moves`` is the move strings joined by
        single spaces (each move is two tokens, ``"7C 1>2 AS 3>F"``).
        """
        values = self.to_dict()
        values["moves"] = " ".join(self.moves) if self.moves is not None else ""
        return ["" if values.get(name) is None else str(values[name]) for name in CSV_FIELDS]

    @property
    def decided(self) -> bool:
        """True when the verdict is SOLVED or UNSOLVABLE."""
        return self.verdict is not Verdict.UNKNOWN


def _number(value: object) -> float | int:
    if isinstance(value, bool):
        raise ValueError(f"{value!r} is not a number")
    if isinstance(value, (int, float)):
        return value
    if isinstance(value, str):
        return float(value) if any(c in value for c in ".eE") else int(value)
    raise ValueError(f"{value!r} is not a number")


def _optional_int(value: object) -> int | None:
    return None if value is None or value == "" else int(_number(value))


def _optional_float(value: object) -> float | None:
    return None if value is None or value == "" else float(_number(value))


def _split_moves(text: str) -> tuple[str, ...]:
    tokens = text.split()
    if len(tokens) % 2:
        raise ValueError(f"moves {text!r} is not a list of 'card from>to' pairs")
    return tuple(f"{tokens[i]} {tokens[i + 1]}" for i in range(0, len(tokens), 2))


def latest(records: Iterable[SurveyRecord]) -> dict[str, SurveyRecord]:
    """The latest record of each deal: a later record supersedes earlier ones.

    Returns
    -------
    dict
        Deal id to its last record, in order of each id's first appearance.
    """
    result: dict[str, SurveyRecord] = {}
    for record in records:
        result[record.deal] = record
    return result


def deal_sort_key(deal: str) -> tuple[int, int, str]:
    """Sort PySol numbers numerically first, then other ids (``FILE:k`` by k)."""
    if deal.isdigit():
        return (0, int(deal), "")
    head, _, tail = deal.rpartition(":")
    if head and tail.isdigit():
        return (1, int(tail), head)
    return (2, 0, deal)


# ---------------------------------------------------------------------------
# Deal ranges and boards files
# ---------------------------------------------------------------------------

_ITEM: Final = re.compile(r"(\d+)(?:\s*-\s*(\d+))?")


def parse_deal_range(text: str) -> list[int]:
    """Read PySol deal numbers written as ranges and lists, e.g. ``"1-5,9,20-22"``.

    Parameters
    ----------
    text : str
        Comma-separated items, each a deal number ``N`` or an inclusive
        range ``A-B`` with ``A <= B``; spaces around items are allowed.
        Deal numbers run from 1 to ``2**64 - 1`` (NOTATION.md).

    Returns
    -------
    list of int
        The deals in the order written, each once (a repeat is dropped).

    Raises
    ------
    ParseError
        For empty text or an empty item, an item that is not ``N`` or
        ``A-B`` (``"a-3"``, ``"1--3"``), a reversed range (``"5-1"``), a
        number outside ``1..2**64-1`` (``"0"``), or more than
        :data:`MAX_RANGE_DEALS` deals.  The message quotes the bad item.
    """
    if not isinstance(text, str):
        raise ParseError(f"a deal range must be a str, not {type(text).__name__}")
    example = "write deal numbers and ranges like '1-5,9,20-22'"
    if not text.strip():
        raise ParseError(f"empty deal range {text!r}: {example}")
    deals: dict[int, None] = {}
    for index, raw in enumerate(text.split(","), 1):
        item = raw.strip()
        where = f"deal range {text!r}, item {index}"
        if not item:
            raise ParseError(f"{where} is empty: {example}")
        match = _ITEM.fullmatch(item)
        if match is None:
            raise ParseError(f"{where}: {item!r} is not a deal number N or a range A-B; {example}")
        first = int(match.group(1))
        last = first if match.group(2) is None else int(match.group(2))
        for number in (first, last):
            if not 1 <= number <= MAX_DEAL:
                raise ParseError(
                    f"{where}: {item!r}: deal {number} is out of range "
                    "(PySol deal numbers run from 1 to 2**64 - 1)"
                )
        if first > last:
            raise ParseError(
                f"{where}: {item!r} is a reversed range ({first} > {last}); "
                f"write '{last}-{first}'"
            )
        if len(deals) + (last - first + 1) > MAX_RANGE_DEALS:
            raise ParseError(f"{where}: {item!r}: more than {MAX_RANGE_DEALS} deals in one survey")
        for number in range(first, last + 1):
            deals[number] = None
    return list(deals)


_HEADER_LINE: Final = re.compile(r"(foundations?|founds?|decks|freecells?)\s*:", re.IGNORECASE)
_COLUMNS: Final = 13


def split_boards(text: str) -> list[tuple[int, str]]:
    """Split the text of a boards file into boards.

    The separator is either a line ``---`` or blank lines:

    - If any line is ``---`` (spaces around it allowed), boards are
      separated by those lines only, and a board's blank lines mean what
      they mean in board text (NOTATION.md).
    - Otherwise each board is exactly 13 column lines (an empty column is a
      blank line or a lone ``:``), optionally with ``Foundations:`` /
      ``Freecells:`` lines among them, and one or more blank lines separate
      one board from the next.  A blank line *inside* a board's 13 lines is
      an empty column, which is why a board must not stop short of 13 lines:
      use ``---`` for such files.

    Returns
    -------
    list of (int, str)
        Each board's first line number (1-based) and its text.

    Raises
    ------
    ParseError
        If a board has more than 13 column lines before a separator.
    """
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if lines and lines[0].startswith("\ufeff"):
        lines[0] = lines[0][1:]
    boards: list[tuple[int, str]] = []
    if any(line.strip() == "---" for line in lines):
        start = 0
        for number, line in enumerate(lines + ["---"]):
            if line.strip() == "---":
                chunk = lines[start:number]
                if any(row.strip() for row in chunk):
                    first = start + next(i for i, row in enumerate(chunk) if row.strip())
                    boards.append((first + 1, "\n".join(chunk) + "\n"))
                start = number + 1
        return boards
    i = 0
    while i < len(lines):
        if not lines[i].strip():
            i += 1
            continue
        start = i
        columns = 0
        while i < len(lines) and columns < _COLUMNS:
            if not _HEADER_LINE.match(lines[i].strip()):
                columns += 1
            i += 1
        while i < len(lines) and _HEADER_LINE.match(lines[i].strip()):
            i += 1
        if i < len(lines) and lines[i].strip():
            raise ParseError(
                f"line {i + 1}: board {len(boards) + 1} (from line {start + 1}) has more "
                f"than 13 column lines: separate boards by a blank line or a line '---'"
            )
        boards.append((start + 1, "\n".join(lines[start:i]) + "\n"))
    return boards


def read_boards(path: str) -> list[tuple[str, Deal]]:
    """Read a file of boards (:func:`split_boards`) into ``(id, Deal)`` pairs.

    Parameters
    ----------
    path : str
        The file (UTF-8).  Ids are ``f"{path}:{k}"``, k = 1, 2, ... in file
        order, with *path* as given.

    Raises
    ------
    ParseError
        If the file cannot be read, holds no board, or a board cannot be
        parsed; the message names the file, the board and its first line.
    """
    text = read_text(path)
    try:
        chunks = split_boards(text)
    except ParseError as error:
        raise ParseError(f"{path}: {error}") from None
    if not chunks:
        raise ParseError(f"{path}: no board in the file")
    result: list[tuple[str, Deal]] = []
    for k, (line, board) in enumerate(chunks, 1):
        try:
            deal = Deal.from_text(board)
        except ParseError as error:
            raise ParseError(
                f"{path}: board {k} (starting at line {line}; line numbers below count "
                f"from there): {error}"
            ) from None
        result.append((f"{path}:{k}", deal))
    return result


# ---------------------------------------------------------------------------
# Solving
# ---------------------------------------------------------------------------


def _physical_memory_mb() -> float | None:
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") / 2**20
    except (AttributeError, ValueError, OSError):  # pragma: no cover - not POSIX
        return None


def default_memory_mb(jobs: int) -> int:
    """The default table budget per job, MiB: half the RAM shared by the jobs.

    Parameters
    ----------
    jobs : int
        Processes solving at once.

    Returns
    -------
    int
        ``min(512, RAM / 2 / jobs)`` MiB, at least 16; 512 (the solver's
        default) when the RAM size cannot be read.
    """
    total = _physical_memory_mb()
    if total is None:
        return DEFAULT_MEMORY_MB
    return max(16, min(DEFAULT_MEMORY_MB, int(total / 2 / max(1, jobs))))


@dataclass(frozen=True, slots=True)
class _Limits:
    time_limit: float | None
    max_nodes: int | None
    memory_mb: float
    seed: int
    moves: bool


def _solve_one(deal_id: str, deal: int | Deal, limits: _Limits) -> SurveyRecord:
    """Solve one deal (in a worker process) and make its record."""
    position = Deal.pysol(deal) if isinstance(deal, int) else deal
    solution = solve(
        position,
        time_limit=limits.time_limit,
        max_nodes=limits.max_nodes,
        memory_mb=limits.memory_mb,
        seed=limits.seed,
    )
    solved = solution.verdict is Verdict.SOLVED
    moves: tuple[str, ...] | None = None
    if limits.moves:
        moves = tuple(str(move) for move in solution.moves)
    return SurveyRecord(
        deal=deal_id,
        verdict=solution.verdict,
        reason=solution.reason,
        seconds=round(solution.seconds, 6),
        nodes=solution.nodes,
        length=len(solution.moves) if solved else None,
        moves=moves,
        time_limit=limits.time_limit,
        max_nodes=limits.max_nodes,
        memory_mb=limits.memory_mb,
        seed=limits.seed,
    )


def _normalise(item: DealSpec) -> tuple[str, int | Deal]:
    if isinstance(item, bool):
        raise TypeError(f"a deal must be an int, a Deal or an (id, Deal) pair, not {item!r}")
    if isinstance(item, int):
        if not 1 <= item <= MAX_DEAL:
            raise DealNumberError(f"PySol deal numbers run from 1 to 2**64 - 1, not {item!r}")
        return str(item), item
    if isinstance(item, Deal):
        # A hash of the board text: the same position always gets the same id.
        import hashlib

        digest = hashlib.sha1(item.to_text().encode()).hexdigest()[:12]
        return f"board-{digest}", item
    if isinstance(item, tuple) and len(item) == 2:
        deal_id, deal = item
        if isinstance(deal, Deal):
            return str(deal_id), deal
        if isinstance(deal, int) and not isinstance(deal, bool):
            return str(deal_id), _normalise(deal)[1]
    raise TypeError(f"a deal must be an int, a Deal or an (id, Deal) pair, not {item!r}")


def survey(
    deals: Iterable[DealSpec],
    *,
    jobs: int | None = None,
    time_limit: float | None = 10.0,
    max_nodes: int | None = None,
    memory_mb: float | None = None,
    seed: int = 0,
    moves: bool = False,
) -> Iterator[SurveyRecord]:
    """Solve many deals on several processes, yielding records as they finish.

    Parameters
    ----------
    deals : iterable
        Each an int (a PySol deal number, id ``str(n)``), a :class:`Deal`
        (id ``"board-"`` and 12 hex digits of the SHA-1 of its board text),
        or an ``(id, Deal)`` pair.  Consumed lazily, a few per job ahead.
    jobs : int or None
        Worker processes; None for ``os.cpu_count()``.  With 1, deals are
        solved in this process, one after another.
    time_limit : float or None
        Seconds of wall-clock time per deal; None for no limit.
    max_nodes : int or None
        Positions generated per deal; None for no limit.
    memory_mb : float or None
        MiB of transposition table per job; None for
        :func:`default_memory_mb` (``jobs * memory_mb`` is at most half the RAM).
    seed : int
        The solver's move-order seed (:func:`bakersdozen.solve`).
    moves : bool
        Keep the winning lines in the records (:attr:`SurveyRecord.moves`).

    Yields
    ------
    SurveyRecord
        One per deal, in order of completion (not the order given).

    Raises
    ------
    TypeError, ValueError
        For a bad argument (checked when called, before any solving), or a
        bad deal (when it is reached).
    DealNumberError
        For an int outside ``1..2**64-1``.

    Notes
    -----
    Workers are started with the ``spawn`` method, so a script that calls
    this with ``jobs > 1`` must guard its top level with
    ``if __name__ == "__main__":`` (see :mod:`multiprocessing`).  Each
    record is what :func:`bakersdozen.solve` returns for the deal with the
    same limits, so without a time cut it is reproducible.
    """
    if jobs is None:
        jobs = os.cpu_count() or 1
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ValueError(f"jobs must be a positive int, not {jobs!r}")
    if memory_mb is None:
        memory_mb = default_memory_mb(jobs)
    # solve() checks its arguments: run it once on a 1-position budget so a
    # bad limit raises here, at the call, rather than later in a worker.
    solve(Deal.pysol(1), time_limit=time_limit, max_nodes=1, memory_mb=memory_mb, seed=seed)
    limits = _Limits(time_limit, max_nodes, float(memory_mb), seed, bool(moves))
    return _survey(iter(deals), jobs, limits)


def _survey(deals: Iterator[DealSpec], jobs: int, limits: _Limits) -> Iterator[SurveyRecord]:
    if jobs == 1:
        for item in deals:
            yield _solve_one(*_normalise(item), limits)
        return
    context = multiprocessing.get_context("spawn")
    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=context)
    pending: set[Future[SurveyRecord]] = set()
    try:
        exhausted = False
        while True:
            while not exhausted and len(pending) < 2 * jobs:
                try:
                    item = next(deals)
                except StopIteration:
                    exhausted = True
                    break
                pending.add(pool.submit(_solve_one, *_normalise(item), limits))
            if not pending:
                break
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                yield future.result()
    finally:
        for future in pending:
            future.cancel()
        pool.shutdown(wait=True, cancel_futures=True)


# ---------------------------------------------------------------------------
# Summary
# ---------------------------------------------------------------------------


def wilson_interval(successes: int, trials: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval for a binomial proportion.

    Wilson (1927), *J. Amer. Statist. Assoc.* 22:209-212: the p with
    ``|p_hat - p| <= z * sqrt(p (1 - p) / n)``, which is ::

        (p_hat + z²/2n ± z sqrt(p_hat (1 - p_hat) / n + z²/4n²)) / (1 + z²/n)

    Parameters
    ----------
    successes, trials : int
        Counts, ``0 <= successes <= trials``.
    z : float
        Standard normal quantile; the default gives a two-sided 95 % interval.

    Returns
    -------
    (float, float)
        Lower and upper bound, fractions in [0, 1]; ``(0.0, 1.0)`` when
        *trials* is 0.
    """
    if not 0 <= successes <= trials:
        raise ValueError(f"need 0 <= successes <= trials, not {successes}, {trials}")
    if trials == 0:
        return (0.0, 1.0)
    n = trials
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def percentile(values: Sequence[float], p: float) -> float:
    """Nearest-rank percentile: the ``ceil(p / 100 * n)``-th smallest of *values*.

    Raises
    ------
    ValueError
        If *values* is empty or *p* is not in (0, 100].
    """
    if not values or not 0 < p <= 100:
        raise ValueError(f"percentile {p!r} of {len(values)} values")
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


#: Percentiles reported by :class:`Summary`.
PERCENTILES: Final = (50, 90, 99, 100)


@dataclass(frozen=True, slots=True)
class Summary:
    """What a survey found (:func:`summarize`).

    Attributes
    ----------
    total, solved, unsolvable, unknown : int
        Deals, each counted once by its latest record.
    winnability : float or None
        solved / (solved + unsolvable), a fraction; None if nothing decided.
    interval : (float, float)
        95 % Wilson score interval for the winnability, fractions.
    bounds : (float, float)
        Winnability over all deals if every unknown were unsolvable, and if
        every unknown were solvable; fractions (``(0, 0)`` for no deals).
    seconds : dict
        Percentile (50, 90, 99, 100 = max) to seconds per deal, all deals.
    lengths : dict
        Percentile to moves in the winning line, solved deals.
    total_seconds : float
        Sum of the deals' seconds (solver time, not wall time).
    total_nodes : int
        Sum of the deals' positions.
    reasons : dict
        Limit name to the number of unknowns it stopped.
    unknown_ids : tuple of str
        Ids of the unknown deals, in deal order.
    """

    total: int
    solved: int
    unsolvable: int
    unknown: int
    winnability: float | None
    interval: tuple[float, float]
    bounds: tuple[float, float]
    seconds: dict[int, float]
    lengths: dict[int, int]
    total_seconds: float
    total_nodes: int
    reasons: dict[str, int]
    unknown_ids: tuple[str, ...]

    @property
    def decided(self) -> int:
        """Deals solved or proved unsolvable."""
        return self.solved + self.unsolvable

    def format(self, unknown_ids_shown: int = UNKNOWN_IDS_SHOWN) -> str:
        """The summary as text for people, lines ending in ``\\n``."""
        lines = [
            f"deals: {self.total} (solved {self.solved}, unsolvable {self.unsolvable}, "
            f"unknown {self.unknown})"
        ]
        if self.winnability is None:
            lines.append("winnability: no deal decided")
        else:
            low, high = self.interval
            lines.append(
                f"winnability over the {self.decided} decided deals: "
                f"{100 * self.winnability:.2f} %, 95 % CI {100 * low:.2f} % to {100 * high:.2f} % "
                "(Wilson score interval; Wilson 1927, JASA 22:209-212)"
            )
        if self.total:
            lines.append(
                f"winnability over all {self.total} deals: between {100 * self.bounds[0]:.2f} % "
                f"(every unknown unsolvable) and {100 * self.bounds[1]:.2f} % "
                "(every unknown solvable)"
            )
        if self.seconds:
            spread = "  ".join(
                f"{_label(p)} {self.seconds[p]:.3f}" for p in PERCENTILES
            )
            lines.append(
                f"seconds per deal: {spread}  (sum {self.total_seconds:.1f} s, "
                f"{self.total_nodes} positions)"
            )
        if self.lengths:
            spread = "  ".join(f"{_label(p)} {self.lengths[p]}" for p in PERCENTILES)
            lines.append(f"winning line, moves: {spread}")
        if self.unknown:
            reasons = ", ".join(f"{name} {count}" for name, count in sorted(self.reasons.items()))
            shown = ", ".join(self.unknown_ids[:unknown_ids_shown])
            more = len(self.unknown_ids) - unknown_ids_shown
            tail = f", ... and {more} more" if more > 0 else ""
            lines.append(f"unknown ({reasons}): {shown}{tail}")
        return "\n".join(lines) + "\n"


def _label(p: int) -> str:
    return "max" if p == 100 else f"p{p}"


def summarize(records: Iterable[SurveyRecord]) -> Summary:
    """Summarise survey records; the latest record of each deal counts.

    Parameters
    ----------
    records : iterable of SurveyRecord
        In file order; a later record for a deal supersedes earlier ones
        (:func:`latest`).

    Returns
    -------
    Summary
        Counts, winnability with the 95 % Wilson score interval over the
        decided deals (Wilson 1927, JASA 22:209-212), the bounds the
        unknowns leave open, nearest-rank percentiles of seconds and of
        winning-line length, and the unknown ids.

    Raises
    ------
    TypeError
        If an item is not a :class:`SurveyRecord`.
    """
    records = list(records)
    for item in records:
        if not isinstance(item, SurveyRecord):
            raise TypeError(f"summarize() needs SurveyRecords, not {type(item).__name__}")
    final = sorted(latest(records).values(), key=lambda r: deal_sort_key(r.deal))
    solved = sum(r.verdict is Verdict.SOLVED for r in final)
    unsolvable = sum(r.verdict is Verdict.UNSOLVABLE for r in final)
    unknown = len(final) - solved - unsolvable
    total = len(final)
    decided = solved + unsolvable
    times = [r.seconds for r in final]
    lengths = [r.length for r in final if r.verdict is Verdict.SOLVED and r.length is not None]
    reasons: dict[str, int] = {}
    for r in final:
        if r.verdict is Verdict.UNKNOWN:
            key = r.reason or "unknown"
            reasons[key] = reasons.get(key, 0) + 1
    return Summary(
        total=total,
        solved=solved,
        unsolvable=unsolvable,
        unknown=unknown,
        winnability=solved / decided if decided else None,
        interval=wilson_interval(solved, decided),
        bounds=(solved / total, (solved + unknown) / total) if total else (0.0, 0.0),
        seconds={p: percentile(times, p) for p in PERCENTILES} if times else {},
        lengths={p: int(percentile(lengths, p)) for p in PERCENTILES} if lengths else {},
        total_seconds=sum(times),
        total_nodes=sum(r.nodes for r in final),
        reasons=reasons,
        unknown_ids=tuple(r.deal for r in final if r.verdict is Verdict.UNKNOWN),
    )


# ---------------------------------------------------------------------------
# Output files
# ---------------------------------------------------------------------------


def output_format(path: str, format: str | None = None) -> str:
    """``"jsonl"`` or ``"csv"``: *format* if given, else from *path*'s suffix.

    Raises
    ------
    ParseError
        If neither says which.
    """
    if format is not None:
        if format not in ("jsonl", "csv"):
            raise ParseError(f"unknown output format {format!r}: use jsonl or csv")
        return format
    suffix = os.path.splitext(path)[1].lower()
    if suffix not in SUFFIX_FORMATS:
        raise ParseError(
            f"{path}: cannot tell the format from the suffix {suffix!r}: "
            "name the file .jsonl or .csv, or pass --format jsonl|csv"
        )
    return SUFFIX_FORMATS[suffix]


def _parse_lines(path: str, format: str, data: bytes) -> list[SurveyRecord]:
    text = data.decode("utf-8")
    records: list[SurveyRecord] = []
    if format == "csv":
        reader = csv.reader(io.StringIO(text, newline=""))
        header = next(reader, None)
        if header is None:
            return records
        if tuple(header) != CSV_FIELDS:
            raise ParseError(
                f"{path}: line 1: header {','.join(header)!r} is not a survey's "
                f"({','.join(CSV_FIELDS)!r})"
            )
        for row in reader:
            if not row:
                continue
            if len(row) != len(CSV_FIELDS):
                raise ParseError(
                    f"{path}: line {reader.line_num}: {len(row)} fields, "
                    f"expected {len(CSV_FIELDS)}"
                )
            try:
                records.append(SurveyRecord.from_dict(dict(zip(CSV_FIELDS, row))))
            except ParseError as error:
                raise ParseError(f"{path}: line {reader.line_num}: {error}") from None
        return records
    for number, line in enumerate(text.split("\n"), 1):
        if not line.strip():
            continue
        try:
            value = json.loads(line)
            if not isinstance(value, dict):
                raise ParseError(f"not a JSON object: {line[:80]!r}")
            records.append(SurveyRecord.from_dict(value))
        except (ParseError, json.JSONDecodeError) as error:
            raise ParseError(f"{path}: line {number}: {error}") from None
    return records


def read_records(path: str, format: str | None = None) -> list[SurveyRecord]:
    """Read a survey file, every record in file order (a torn last line is ignored).

    Parameters
    ----------
    path : str
        A JSON Lines or CSV file written by the ``survey`` command.
    format : str or None
        ``"jsonl"`` or ``"csv"``; None to go by the suffix.

    Raises
    ------
    ParseError
        If the file cannot be read or a complete line is not a record.
    """
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as error:
        raise ParseError(f"{path}: cannot read: {error}") from None
    fmt = output_format(path, format)
    end = data.rfind(b"\n") + 1
    try:
        return _parse_lines(path, fmt, data[:end])
    except UnicodeDecodeError as error:
        raise ParseError(f"{path}: not UTF-8 text: {error}") from None


class RecordWriter:
    """Append survey records to a file, safely across kills (module docs).

    Opening repairs a torn last line (truncates the file after its last
    newline) and reads the records already there (:attr:`existing`); a new
    CSV file gets the header row.  Each :meth:`write` is one ``write`` of a
    complete line, flushed at once and ``fsync``-ed at least every
    :data:`FSYNC_INTERVAL` seconds and on :meth:`close`.

    The file is locked (``flock``, advisory) while open: a second survey
    on the same file is refused rather than interleaved.

    Raises
    ------
    ParseError
        If the file cannot be opened, is locked by another survey, or a
        complete line is not a record.
    """

    def __init__(self, path: str, format: str) -> None:
        self.path = path
        self.format = format
        self.repaired = 0
        try:
            self._file: IO[bytes] = open(path, "a+b")
        except OSError as error:
            raise ParseError(f"{path}: cannot open for appending: {error}") from None
        try:
            _lock(self._file, path)
            self._file.seek(0)
            data = self._file.read()
            end = data.rfind(b"\n") + 1
            if end < len(data):
                self.repaired = len(data) - end
                self._file.truncate(end)
                self._file.flush()
                os.fsync(self._file.fileno())
            try:
                self.existing = _parse_lines(path, format, data[:end])
            except UnicodeDecodeError as error:
                raise ParseError(f"{path}: not UTF-8 text: {error}") from None
            if format == "csv" and end == 0:
                self._write_line(_csv_line(list(CSV_FIELDS)))
        except BaseException:
            self._file.close()
            raise
        self._synced = time.monotonic()

    def _write_line(self, line: str) -> None:
        self._file.write(line.encode("utf-8"))
        self._file.flush()
        now = time.monotonic()
        if now - getattr(self, "_synced", 0.0) >= FSYNC_INTERVAL:
            os.fsync(self._file.fileno())
            self._synced = now

    def write(self, record: SurveyRecord) -> None:
        """Append one record as one line."""
        self._write_line(format_record(record, self.format))

    def close(self) -> None:
        """Flush, ``fsync`` and close the file."""
        if not self._file.closed:
            self._file.flush()
            os.fsync(self._file.fileno())
            self._file.close()


def _lock(handle: IO[bytes], path: str) -> None:
    """Take an advisory lock on the output, so two surveys never share it."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX
        return
    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        raise ParseError(f"{path}: another survey is writing to this file") from None


def _csv_line(fields: list[str]) -> str:
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerow(fields)
    return buffer.getvalue()


def format_record(record: SurveyRecord, format: str) -> str:
    """One record as one line (ending in ``\\n``) of JSON Lines or CSV."""
    if format == "csv":
        return _csv_line(record.csv_row())
    return json.dumps(record.to_dict(), separators=(",", ":")) + "\n"


# ---------------------------------------------------------------------------
# The command line
# ---------------------------------------------------------------------------


def _arguments(parser: argparse.ArgumentParser) -> None:
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.description = (
        "Solve many deals and write one record per deal (JSON Lines or CSV).\n\n"
        "Running the same command again on an existing --output resumes it: deals\n"
        "already recorded are skipped. --retry-unknown re-runs the deals whose latest\n"
        "record is unknown and appends new records; the last record of a deal wins.\n"
        "The summary at the end covers the whole --output file (latest records).\n"
        "Boards files: boards separated by blank lines (13 column lines each) or by\n"
        "lines '---'; ids FILE:1, FILE:2, ...\n\n"
        "exit status: 0 done, 1 a worker process died, 2 bad input,\n"
        "130 interrupted (run the same command again to resume)"
    )
    parser.add_argument(
        "deals", nargs="?", metavar="DEALS",
        help="PySol deal numbers: ranges and lists such as 1-1000 or 1-5,9,20-22",
    )
    parser.add_argument("--boards", metavar="FILE", help="survey the boards in FILE instead")
    parser.add_argument(
        "--time-limit", type=positive_float, default=10.0, metavar="SECONDS",
        help="wall-clock seconds per deal (default 10)",
    )
    parser.add_argument(
        "--max-nodes", type=positive_int, metavar="N", help="positions per deal (default: no limit)"
    )
    parser.add_argument(
        "--memory-mb", type=positive_float, metavar="MB",
        help="MiB of table per job (default: half the RAM shared by the jobs, at most 512)",
    )
    parser.add_argument("--seed", type=seed_int, default=0, help="move-order seed (default 0)")
    parser.add_argument(
        "--jobs", "-j", type=positive_int, default=None, metavar="N",
        help=f"processes (default: all cores, {os.cpu_count()})",
    )
    parser.add_argument(
        "--output", "-o", metavar="FILE",
        help="append records to FILE (.jsonl or .csv), resuming it; default: JSON Lines on stdout",
    )
    parser.add_argument("--format", choices=("jsonl", "csv"), help="output format (default: from the suffix)")
    parser.add_argument("--moves", action="store_true", help="include the winning moves")
    parser.add_argument(
        "--retry-unknown", action="store_true",
        help="re-run only the deals whose latest record in --output is unknown "
        "(among DEALS or --boards if given), appending the new records",
    )
    parser.add_argument(
        "--summary", metavar="FILE", help="print the summary of a survey file and exit"
    )


def _bad(message: str) -> int:
    print(f"bakersdozen survey: error: {message}", file=sys.stderr)
    return EXIT_BAD_INPUT


@command("survey", "solve many deals, write one record per deal, summarise", _arguments)
def _run(args: argparse.Namespace) -> int:
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

    candidates: list[tuple[str, int | Deal]] = []
    if args.deals:
        candidates = [(str(n), n) for n in parse_deal_range(args.deals)]
    elif args.boards:
        candidates = [(i, d) for i, d in read_boards(args.boards)]

    jobs = args.jobs or os.cpu_count() or 1
    # the RAM is shared by the jobs that can run at once, not those asked for
    busy = min(jobs, len(candidates)) if candidates else jobs
    memory_mb = args.memory_mb or default_memory_mb(busy)
    writer: RecordWriter | None = None
    out_format = args.format or "jsonl"
    if args.output:
        out_format = output_format(args.output, args.format)
        if args.retry_unknown and not os.path.exists(args.output):
            return _bad(f"{args.output}: no such survey to retry")
        writer = RecordWriter(args.output, out_format)
    try:
        existing = latest(writer.existing) if writer else {}
        if writer and writer.repaired:
            print(
                f"bakersdozen survey: {args.output}: removed a torn last line "
                f"({writer.repaired} bytes) left by an interrupted run",
                file=sys.stderr,
            )
        if args.retry_unknown:
            unknown = [i for i, r in existing.items() if r.verdict is Verdict.UNKNOWN]
            if candidates:
                wanted = set(unknown)
                tasks = [(i, d) for i, d in candidates if i in wanted]
            else:
                bad = [i for i in unknown if not i.isdigit()]
                if bad:
                    return _bad(
                        f"{args.output}: unknown deal {bad[0]!r} is not a PySol number: "
                        "pass --boards FILE (or the deal numbers) to say where its board is"
                    )
                tasks = [(i, int(i)) for i in sorted(unknown, key=deal_sort_key)]
        else:
            tasks = [(i, d) for i, d in candidates if i not in existing]
        skipped = len(candidates) - len(tasks) if not args.retry_unknown else 0
        if skipped:
            print(
                f"bakersdozen survey: {args.output}: {skipped} deals already recorded, "
                f"{len(tasks)} to go",
                file=sys.stderr,
            )
        new = _run_tasks(args, tasks, jobs, memory_mb, writer, out_format)
    except KeyboardInterrupt:
        print(
            "bakersdozen survey: interrupted; the records written are kept: "
            "run the same command again to resume",
            file=sys.stderr,
        )
        return EXIT_INTERRUPTED
    except BrokenProcessPool as error:
        print(
            f"bakersdozen survey: error: a worker process died ({error}); out of memory? "
            "try fewer --jobs or a smaller --memory-mb; run again to resume",
            file=sys.stderr,
        )
        return EXIT_WORKER_DIED
    finally:
        if writer:
            writer.close()
    summary = summarize(list(existing.values()) + new)
    report = sys.stdout if writer else sys.stderr
    report.write(summary.format())
    return EXIT_OK


def _run_tasks(
    args: argparse.Namespace,
    tasks: list[tuple[str, int | Deal]],
    jobs: int,
    memory_mb: float,
    writer: RecordWriter | None,
    out_format: str,
) -> list[SurveyRecord]:
    from tqdm import tqdm  # type: ignore[import-untyped, unused-ignore]

    counts = {"solved": 0, "unsolvable": 0, "unknown": 0}
    records: list[SurveyRecord] = []
    if out_format == "csv" and writer is None:
        sys.stdout.write(_csv_line(list(CSV_FIELDS)))
    progress = tqdm(
        total=len(tasks), unit="deal", file=sys.stderr, disable=not sys.stderr.isatty(),
        dynamic_ncols=True, smoothing=0.05,
    )
    try:
        for record in survey(
            tasks, jobs=min(jobs, max(1, len(tasks))), time_limit=args.time_limit,
            max_nodes=args.max_nodes, memory_mb=memory_mb, seed=args.seed, moves=args.moves,
        ):
            if writer:
                writer.write(record)
            else:
                sys.stdout.write(format_record(record, out_format))
                sys.stdout.flush()
            records.append(record)
            counts[record.verdict.value] += 1
            progress.set_postfix(counts, refresh=False)
            progress.update()
    finally:
        progress.close()
    return records

