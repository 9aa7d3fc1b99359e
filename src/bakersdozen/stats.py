"""Statistics over records: percentiles, the Wilson interval, the summary.

Used by the survey (its summary) and by ``bakersdozen bench`` (its table).

Percentiles are nearest-rank: the p-th percentile of n values is the
``ceil(p / 100 * n)``-th smallest, a value that occurred.  The winnability
(solved / decided) comes with a 95 % confidence interval by the Wilson score
interval (E. B. Wilson, "Probable inference, the law of succession, and
statistical inference", *J. Amer. Statist. Assoc.* 22 (1927) 209-212),
which, unlike the normal-approximation ("Wald") interval, stays inside
[0, 1] and keeps close to its nominal coverage near 0 % and 100 %
(R. G. Newcombe, *Statistics in Medicine* 17 (1998) 857-872).  The unknowns
are not decided, so they also leave the winnability over *all* deals open
between ``solved / total`` (every unknown unsolvable) and ``(solved +
unknown) / total`` (every unknown solvable).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from .errors import ArgumentError
from .records import DealId, Record, deal_sort_key, latest
from .solution import Verdict

__all__ = ["percentile", "wilson_interval", "Summary", "summarize", "Z_95", "PERCENTILES"]

#: z for a two-sided 95 % interval: the 0.975 quantile of the standard normal.
Z_95: Final = 1.959963984540054
#: Percentiles reported by :class:`Summary` (100 is the maximum).
PERCENTILES: Final = (50, 90, 99, 100)
#: Unknown deal ids listed by :meth:`Summary.format` before "... and N more".
UNKNOWN_IDS_SHOWN: Final = 50


def percentile(values: Sequence[float], p: float) -> float:
    """Nearest-rank percentile: the ``ceil(p / 100 * n)``-th smallest of *values*.

    Parameters
    ----------
    values : sequence of float
        Any order.
    p : float
        In (0, 100]; 100 gives the maximum.

    Raises
    ------
    ArgumentError
        A ValueError: if *values* is empty or *p* is not in (0, 100].
    """
    if not values or not 0 < p <= 100:
        raise ArgumentError(f"percentile: p must be in (0, 100] of at least one value, not "
                            f"{p!r} of {len(values)} values")
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


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

    Raises
    ------
    ArgumentError
        A ValueError: unless ``0 <= successes <= trials``.
    """
    if not 0 <= successes <= trials:
        raise ArgumentError(
            f"wilson_interval: successes and trials need 0 <= successes <= trials, "
            f"not {successes!r}, {trials!r}"
        )
    if trials == 0:
        return (0.0, 1.0)
    n = trials
    p = successes / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True, slots=True)
class Summary:
    """What a set of records shows (:func:`summarize`).

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
    median_length : float or None
        The median (``statistics.median``) winning-line length, solved deals.
    total_seconds : float
        Sum of the deals' seconds (solver time, not wall time).
    total_nodes : int
        Sum of the deals' positions.
    reasons : dict
        Limit name to the number of unknowns it stopped.
    unknown_ids : tuple
        Ids of the unknown deals, in deal order.
    furthest : tuple of (id, int, int)
        The unknown deals the layered search stopped (their record's
        ``layer_progress``), as ``(id, value, most)``, furthest first by
        ``value / most`` (ties in deal order; a ``most`` of 0 last): a
        rough guide to which deals a longer run may finish (the positions
        per progress value rise, then fall).
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
    median_length: float | None
    total_seconds: float
    total_nodes: int
    reasons: dict[str, int]
    unknown_ids: tuple[DealId, ...]
    furthest: tuple[tuple[DealId, int, int], ...] = ()

    @property
    def decided(self) -> int:
        """Deals solved or proved unsolvable."""
        return self.solved + self.unsolvable

    @property
    def nodes_per_second(self) -> float:
        """Total positions over total seconds (0.0 when no time was spent)."""
        return self.total_nodes / self.total_seconds if self.total_seconds > 0 else 0.0

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
            spread = "  ".join(f"{_label(p)} {self.seconds[p]:.3f}" for p in PERCENTILES)
            lines.append(
                f"seconds per deal: {spread}  (sum {self.total_seconds:.1f} s, "
                f"{self.total_nodes} positions)"
            )
        if self.lengths:
            spread = "  ".join(f"{_label(p)} {self.lengths[p]}" for p in PERCENTILES)
            lines.append(f"winning line, moves: {spread}")
        if self.unknown:
            # "unknown (stopped by time_limit: 1 deal): deal 417": a count is
            # always "N deal(s)", and the ids follow the word "deal(s)"
            reasons = "; ".join(f"{_reason(name)}: {_deals(count)}"
                                for name, count in sorted(self.reasons.items()))
            shown = ", ".join(str(i) for i in self.unknown_ids[:unknown_ids_shown])
            more = len(self.unknown_ids) - unknown_ids_shown
            tail = f", ... and {more} more" if more > 0 else ""
            word = "deal" if len(self.unknown_ids) == 1 else "deals"
            lines.append(f"unknown ({reasons}): {word} {shown}{tail}")
        if self.furthest:
            shown = ", ".join(f"{i} {value}/{most}"
                              for i, value, most in self.furthest[:unknown_ids_shown])
            more = len(self.furthest) - unknown_ids_shown
            tail = f", ... and {more} more" if more > 0 else ""
            lines.append("layered search stopped at progress (of a won position's), "
                         f"furthest first: {shown}{tail}")
        return "\n".join(lines) + "\n"


def _deals(count: int) -> str:
    return f"{count} deal" if count == 1 else f"{count} deals"


def _reason(name: str) -> str:
    """How the summary names a record's ``reason`` (a limit's field name, or other)."""
    if name in ("time_limit", "max_nodes", "memory_mb"):
        return f"stopped by {name}"
    return "no reason recorded" if name == "unknown" else name


def _label(p: int) -> str:
    return "max" if p == 100 else f"p{p}"


def summarize(records: Iterable[Record]) -> Summary:
    """Summarise records; the latest record of each deal counts.

    Parameters
    ----------
    records : iterable of Record
        In file order; a later record for a deal supersedes earlier ones
        (:func:`bakersdozen.records.latest`).

    Returns
    -------
    Summary
        Counts, winnability with the 95 % Wilson score interval over the
        decided deals, the bounds the unknowns leave open, nearest-rank
        percentiles of seconds and of winning-line length, the unknown ids,
        and the layered search's unknowns by how far it got (``furthest``).

    Raises
    ------
    TypeError
        If an item is not a :class:`~bakersdozen.records.Record`.
    """
    records = list(records)
    for item in records:
        if not isinstance(item, Record):
            raise TypeError(f"summarize() needs Records, not {type(item).__name__}")
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
        median_length=statistics.median(lengths) if lengths else None,
        total_seconds=sum(times),
        total_nodes=sum(r.nodes for r in final),
        reasons=reasons,
        unknown_ids=tuple(r.deal for r in final if r.verdict is Verdict.UNKNOWN),
        furthest=tuple(sorted(
            ((r.deal, r.layer_progress[0], r.layer_progress[1]) for r in final
             if r.verdict is Verdict.UNKNOWN and r.method == "layers"
             and r.layer_progress is not None),
            key=lambda item: (item[2] == 0, -item[1] / item[2] if item[2] else 0.0))),
    )
