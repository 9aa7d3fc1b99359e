"""Winnable deals on demand: the published tables, shipped with the package.

Each preset of the family has a table of PySol deal numbers (PySolFC's
numbering, each deal dealt by its game's own rule, :meth:`~bakersdozen.Deal.pysol`) with
the verdict a survey reached for it: ``bakersdozen/tables/<preset>.csv.gz``,
one row per deal in deal order, ``deal,verdict,positions,seconds,length,difficulty``
(the last, the deal's difficulty grade, :mod:`bakersdozen.difficulty`, empty where
the deal was not rated).
How each table was made (commands, commit, passes) is in the repository's
``results/README.md``.  *Solved* rows carry a winning line that the
independent checker replayed; *unsolvable* rows were proved by a complete
search; *unknown* rows were left undecided by every budget tried and are
never offered as winnable.

- :func:`~bakersdozen.winnable` answers for one deal number: from the table where it
  covers the number, otherwise by solving the deal (the answer says which).
- :func:`~bakersdozen.winnable_deals` lists winnable deal numbers, all of a range in
  order or a seeded random sample without repeats, for a program's
  "winnable deals only" mode.
- :func:`~bakersdozen.winnability.table_range` gives the deals a preset's table covers.
"""

from __future__ import annotations

import gzip
import random
import zlib
from dataclasses import dataclass
from importlib import resources

from .errors import ArgumentError, BakersDozenError
from .rules import PRESETS, Rules, RulesError, find_rules
from .solution import Verdict

__all__ = [
    "Winnability", "TableError", "winnable", "winnable_deals", "table_range", "table_games",
]

class TableError(BakersDozenError, ValueError):
    """A request the published tables cannot answer (a range outside them, too few deals)."""


@dataclass(frozen=True, slots=True)
class Winnability:
    """Whether PySol deal *deal* of *game* can be won, and how that is known.

    Attributes
    ----------
    deal : int
        The PySol deal number (PySolFC's numbering).
    game : str
        The preset's name (``Rules.name``).
    verdict : Verdict
        ``SOLVED`` (winnable: a winning line was found and replayed by the
        independent checker), ``UNSOLVABLE`` (proved by a complete search)
        or ``UNKNOWN`` (no budget tried decided it).
    source : {"table", "solve"}
        ``"table"``: read from the published table shipped with the
        package; ``"solve"``: the number lies outside the table, and the
        deal was solved now.
    positions : int
        Positions the deciding search generated.
    length : int or None
        Moves of the winning line, for a solved deal.
    difficulty : str or None
        The deal's grade (one of :data:`bakersdozen.difficulty.GRADES`) when
        the table has one (the deals the grades were cut over); None
        otherwise, and always for ``source="solve"``.
    """

    deal: int
    game: str
    verdict: Verdict
    source: str
    positions: int
    length: int | None
    difficulty: str | None = None

    @property
    def winnable(self) -> bool | None:
        """True if solved, False if proved unsolvable, None if unknown."""
        if self.verdict is Verdict.UNKNOWN:
            return None
        return self.verdict is Verdict.SOLVED


class _Table:
    """A preset's table as read: its first deal, its rows' text, one verdict letter a row."""

    __slots__ = ("name", "first", "rows", "letters", "grades")

    def __init__(self, name: str, text: str) -> None:
        lines = text.splitlines()
        if not lines or lines[0] != _HEADER:
            raise TableError(f"the table of {name!r} has an unexpected header: {lines[:1]!r}")
        self.name = name
        self.rows = lines[1:]
        try:
            self.letters = "".join([_LETTERS[row.split(",", 2)[1]] for row in self.rows])
            # one letter a row: its grade's initial, or "-" for none
            self.grades = "".join([_GRADE_LETTERS[row.rsplit(",", 1)[1]] for row in self.rows])
            self.first = int(self.rows[0].split(",", 1)[0])
            last = int(self.rows[-1].split(",", 1)[0])
        except (IndexError, KeyError, ValueError):
            raise TableError(f"the table of {name!r} is damaged") from None
        if last != self.first + len(self.rows) - 1:
            raise TableError(f"the table of {name!r} is damaged: its rows are not deals "
                             f"{self.first}-{last} in order, each with a verdict")

    @property
    def last(self) -> int:
        return self.first + len(self.rows) - 1

    def row(self, number: int) -> tuple[Verdict, int, int | None, str | None]:
        """The verdict, positions, winning line's length and grade of deal *number*
        (inside the table)."""
        fields = self.rows[number - self.first].split(",")
        try:
            if int(fields[0]) != number or len(fields) != 6:
                raise ValueError
            return (_VERDICTS[fields[1]], int(fields[2]), int(fields[4]) if fields[4] else None,
                    fields[5] or None)
        except (IndexError, KeyError, ValueError):
            raise TableError(
                f"the table of {self.name!r} is damaged at deal {number}: "
                f"{self.rows[number - self.first]!r}"
            ) from None


_HEADER = "deal,verdict,positions,seconds,length,difficulty"
_VERDICTS = {v.value: v for v in Verdict}
#: one letter per verdict, for a table's column of verdicts held as one str
_LETTERS = {"solved": "s", "unsolvable": "x", "unknown": "?"}
#: one letter per grade (its initial), "-" for a row without one
_GRADE_LETTERS = {"": "-", "easy": "e", "medium": "m", "hard": "h", "expert": "x"}
_TABLES: dict[str, _Table] = {}


def table_games() -> tuple[str, ...]:
    """The presets that have a published table, in :data:`~bakersdozen.rules.PRESETS` order."""
    folder = resources.files("bakersdozen").joinpath("tables")
    return tuple(name for name in PRESETS if folder.joinpath(f"{name}.csv.gz").is_file())


def _preset(game: Rules | str) -> Rules:
    rules = find_rules(game)
    if PRESETS.get(rules.name) != rules:
        raise RulesError(
            f"the tables are of the presets as they are ({', '.join(PRESETS)}); "
            f"{rules.name!r} changes knobs of its preset"
        )
    return rules


def _table(name: str) -> _Table:
    """Read (once) and return the table of preset *name*."""
    cached = _TABLES.get(name)
    if cached is not None:
        return cached
    path = resources.files("bakersdozen").joinpath("tables", f"{name}.csv.gz")
    if not path.is_file():
        raise TableError(f"no published table for {name!r}; tables exist for "
                         f"{', '.join(table_games())}")
    try:
        with path.open("rb") as raw:
            text = gzip.decompress(raw.read()).decode("ascii")
    except (OSError, EOFError, UnicodeDecodeError, zlib.error) as fault:
        raise TableError(f"the table of {name!r} is damaged: {path} cannot be read "
                         f"({fault}); reinstall the package") from None
    table = _Table(name, text)
    _TABLES[name] = table
    return table


def table_range(game: Rules | str = "bakers_dozen") -> tuple[int, int]:
    """The first and last PySol deal numbers that *game*'s published table covers.

    Raises
    ------
    RulesError
        If *game* names no preset or changes a preset's knobs.
    TableError
        If the preset has no table.
    """
    table = _table(_preset(game).name)
    return table.first, table.last


def winnable(
    number: int,
    game: Rules | str = "bakers_dozen",
    *,
    solve_outside: bool = True,
    time_limit: float | None = 10.0,
    max_nodes: int | None = None,
) -> Winnability:
    """Whether PySol deal *number* of *game* can be won: from the table, or by solving it.

    Parameters
    ----------
    number : int
        PySol deal number, ``1..2**64 - 1`` (PySolFC's numbering).
    game : Rules or str
        A preset (or its name), with its knobs as they are.
    solve_outside : bool
        Outside the table, solve the deal (default); if False, raise
        :class:`~bakersdozen.winnability.TableError` instead.
    time_limit : float or None
        Seconds of wall-clock time for a solve outside the table
        (:func:`bakersdozen.solve`); None for no limit.
    max_nodes : int or None
        Positions for a solve outside the table; None for no limit.

    Returns
    -------
    Winnability
        With ``source`` ``"table"`` or ``"solve"``.

    Raises
    ------
    DealNumberError
        If *number* is not a deal number.
    RulesError
        If *game* names no preset or changes a preset's knobs.
    TableError
        If the number lies outside the table and *solve_outside* is False.
    """
    from .deals import MAX_DEAL, DealNumberError

    if isinstance(number, bool) or not isinstance(number, int):
        raise TypeError(f"number must be an int, not {type(number).__name__}")
    if not 1 <= number <= MAX_DEAL:
        raise DealNumberError(f"deal number {number} is not in 1..{MAX_DEAL}")
    rules = _preset(game)
    table = _table(rules.name)
    if table.first <= number <= table.last:
        verdict, positions, length, grade = table.row(number)
        return Winnability(number, rules.name, verdict, "table", positions, length, grade)
    if not solve_outside:
        raise TableError(
            f"deal {number} lies outside the table of {rules.name} "
            f"(deals {table.first}-{table.last})"
        )
    from .model import Deal
    from .solver import solve

    solution = solve(Deal.pysol(number, game=rules), time_limit=time_limit, max_nodes=max_nodes)
    length = len(solution.moves) if solution.verdict is Verdict.SOLVED else None
    return Winnability(number, rules.name, solution.verdict, "solve", solution.nodes, length)


def winnable_deals(
    game: Rules | str = "bakers_dozen",
    *,
    count: int | None = None,
    seed: int | None = None,
    first: int | None = None,
    last: int | None = None,
    verdict: Verdict = Verdict.SOLVED,
    difficulty: str | None = None,
) -> list[int]:
    """Deal numbers of *game*'s table with the verdict *verdict* (winnable by default).

    Parameters
    ----------
    game : Rules or str
        A preset (or its name), with its knobs as they are.
    count : int or None
        None: every such deal of the range, in increasing order.  A number:
        a random sample of that many, without repeats, in the sample's order.
    seed : int or None
        Seed of the sample (``random.Random``); the same seed, game,
        range and count give the same numbers.  None: a fresh random sample.
    first, last : int or None
        The range of deal numbers, inclusive; None for the table's ends
        (with *difficulty*, the ends of the graded deals).  It must lie
        inside the table (and the graded deals).
    verdict : Verdict
        ``SOLVED`` (winnable), or ``UNSOLVABLE`` / ``UNKNOWN`` to list those.
    difficulty : str or None
        A grade (:data:`bakersdozen.difficulty.GRADES`): only the deals of
        that grade (graded deals are solved ones); None for any.

    Returns
    -------
    list of int

    Raises
    ------
    RulesError
        If *game* names no preset or changes a preset's knobs.
    TableError
        If the range is empty or leaves the table, *count* exceeds the
        deals available, or *difficulty* is asked of a game or range the
        grades do not cover.
    ArgumentError
        If *seed* is not in 0..2**64-1 (as ``solve``'s; ``random.Random``
        would take -1 as 1), or *difficulty* is given with a *verdict*
        other than SOLVED (only winnable deals have grades).
    TypeError
        If *count*, *seed*, *first* or *last* is not an int (or None).
    """
    for name, value in (("count", count), ("seed", seed), ("first", first), ("last", last)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise TypeError(f"{name} must be an int or None, not {value!r}")
    if seed is not None and not 0 <= seed < 2**64:
        raise ArgumentError(f"seed must be in 0..2**64-1, not {seed!r}")
    rules = _preset(game)
    table = _table(rules.name)
    start, end = table.first, table.last
    if difficulty is not None:
        start, end = _graded_range(rules.name, difficulty, start, end)
        if verdict is not Verdict.SOLVED:
            raise ArgumentError(f"only winnable deals have difficulty grades: a grade "
                                f"({difficulty}) lists no {verdict.value} deal")
    low = start if first is None else first
    high = end if last is None else last
    if low > high:
        raise TableError(f"the range {low}-{high} is empty")
    if low < start or high > end:
        where = "table" if difficulty is None else "graded deals"
        raise TableError(
            f"the range {low}-{high} leaves the {where} of {rules.name} (deals {start}-{end})"
        )
    if not isinstance(verdict, Verdict):
        raise TypeError(f"verdict must be a Verdict, not {type(verdict).__name__}")
    letter = _LETTERS[verdict.value]
    letters = table.letters
    pool = [n for n in range(low, high + 1) if letters[n - start] == letter]
    if difficulty is not None:
        pool = _graded(table, difficulty, pool)
    if count is None:
        return pool
    if count < 0:
        raise TableError(f"count must be at least 0, not {count}")
    if count > len(pool):
        kind = verdict.value if difficulty is None else f"{verdict.value} {difficulty}"
        raise TableError(
            f"{count} deals asked for, but deals {low}-{high} of {rules.name} have "
            f"{len(pool)} {kind}"
        )
    return random.Random(seed).sample(pool, count)


def _graded_range(game: str, grade: object, start: int, end: int) -> tuple[int, int]:
    """The deals of *game*'s table (*start*..*end*) that have grades; TableError if none."""
    from .difficulty import GRADES, grade_table

    if not isinstance(grade, str):
        raise TypeError(f"difficulty must be a str or None, not {grade!r}")
    if grade not in GRADES:
        raise ArgumentError(f"difficulty must be one of {', '.join(GRADES)}, not {grade!r}")
    entry = grade_table().get(game)
    if entry is None:
        raise TableError(f"{game} has no difficulty grades yet; graded games: "
                         f"{', '.join(sorted(grade_table())) or 'none'}")
    first, last = entry["deals"]
    return max(start, int(first)), min(end, int(last))


def _graded(table: _Table, grade: str, pool: list[int]) -> list[int]:
    """The deals of *pool* (inside the graded deals) whose grade is *grade*."""
    letter = _GRADE_LETTERS[grade]
    grades = table.grades
    return [n for n in pool if grades[n - table.first] == letter]
