"""How hard a winnable deal is for a person, measured by the engine; and a player without a solver.

The measure (:func:`~bakersdozen.rate`; docs/difficulty.md)
-----------------------------------------------------------
1. **A winning line.**  The default search (``solve(method="dfs")``) with
   at most ``line_nodes`` positions decides the deal.  If it wins, under
   Baker's Dozen's play (Good Measure too,
   ``bakersdozen.solver.plays_shortest``) ``solve(method="shortest")``
   looks for the line with the fewest moves with ``shortest_nodes`` more
   positions than the decision took: if IDA* proves one, that line is used
   (``line_kind="shortest"``), else the default search's line
   (``line_kind="default"``), as under the other rules.
2. **The moves that lose.**  At each position along the line (before each
   of its moves), every legal move (:func:`~bakersdozen.legal_moves`) is
   played (with the independent checker, :func:`~bakersdozen.check`) and
   the position after it decided: the line's own move wins (the line
   proves it); a position with a deadlocked card (:func:`~bakersdozen.deadlock`)
   is lost; any other is solved with at most ``move_nodes`` positions.  A
   move is **losing** when that solve proves the position unsolvable,
   **winning** when it finds a win, and **unknown** when the budget runs
   out: unknown moves are counted apart, never as losing or winning.
3. **The numbers.**  ``positions`` (the line's length, one position per
   move), ``choices`` (the positions with two or more legal moves),
   ``moves`` (legal moves summed over the positions), ``losing``,
   ``unknown``, ``losing_share`` (losing / moves), ``narrow`` (positions
   with two or more legal moves of which exactly one is not proven
   losing: one way on, the rest proven dead ends) and the **score**::

       score = sum over the line's positions of  log2(m_i / (m_i - l_i))

   with ``m_i`` the legal moves and ``l_i`` the losing moves at position
   *i*: the bits of luck a player who picks uniformly among the legal
   moves needs to stay on winnable ground along the line, i.e. minus the
   base-2 logarithm of the probability that such a player, following
   the line's positions, never steps onto a proven-lost position.  A forced
   position or one without a losing move adds 0; a position where half the
   moves lose adds 1.  Unknown moves count as not losing, so with
   ``unknown > 0`` the score is a lower bound.

4. **The difficulty**, the number the grades are cut on:
   ``difficulty = score + w * positions`` (:func:`difficulty_of`): the
   score, plus *w* bits for each move of the line, *w* the game's weight
   (:func:`line_bits`: one bit, :data:`LINE_BITS`, but for the games of
   :data:`GAME_LINE_BITS`).  The
   grades (:data:`GRADES`) cut it at the quartiles over deals 1-10,000 of
   a preset; the cut-points ship with the package (:func:`grade_table`,
   :func:`shipped_cuts`) and the tables carry each deal's grade.

Budgets are counted in positions (``max_nodes``), never in seconds, and
every search uses seed 0: the result repeats on any machine.

The players (:func:`play_rollouts`, :func:`play_greedy`; docs/difficulty.md)
------------------------------------------------------------------------------
:func:`play_rollouts` is the player that validates the grades: flat Monte
Carlo play on the engine's move generator, without any search (its
documentation gives the policy).  :func:`play_greedy` is the first player
tried, too weak for Good Measure; it is kept for comparison.

The greedy player uses no solver either: the moves it may play are
:func:`~bakersdozen.legal_moves` of its position, a move is played with
:func:`~bakersdozen.check` (the independent checker), and its win is the
checker's.  Its policy, at each turn:

1. **Foundation first**: if a card can go to a foundation, it goes (the
   leftmost column first).
2. **Greedy with look-ahead**: otherwise every legal move that does not
   lead back to a position the game has already been in is scored by the
   best :func:`evaluate` reachable with it followed by up to
   ``lookahead - 1`` further moves (foundation moves are played at once
   after each move, as in 1.); the best move is played, ties broken by a
   ``random.Random`` seeded with *seed*.
3. It loses when no such move is left, or after ``MAX_PLAYER_MOVES`` moves.

:func:`evaluate` counts the cards home (weight 10) less the cards that
lie on a lower card of their column (each such card must move before the
lower one can go home; weight 1).
"""

from __future__ import annotations

import math
from types import MappingProxyType

from ._values import frozen_value
from .check import check
from .errors import ArgumentError, BakersDozenError
from .model import Deal, Move
from .rules import Rules
from .solution import Verdict
from .solver import (
    _check_limit, _verdicts_after, legal_moves, plays_shortest, rated_search, solve,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from typing import Any, Final, TypeVar

    _T = TypeVar("_T")

__all__ = [
    "DEFAULT_LINE_NODES", "DEFAULT_SHORTEST_NODES", "DEFAULT_MOVE_NODES", "GRADES", "LINE_BITS",
    "GAME_LINE_BITS", "line_bits",
    "Rating", "Step", "PlayResult", "rate", "difficulty_of", "grade_of", "grade_table",
    "shipped_cuts", "load_cuts", "play_rollouts", "player_rollouts", "play_greedy", "evaluate",
    "rate_deal", "play_deal", "PLAYER_ROLLOUTS", "DEFAULT_ROLLOUTS", "DEFAULT_PLAYOUT_MOVES",
    "PLAYER_PLAYOUT_MOVES", "player_playout_moves",
    "DEFAULT_LOOKAHEAD", "MAX_PLAYER_MOVES",
]

#: Positions the search that decides the deal may generate (step 1).
DEFAULT_LINE_NODES: Final = 10_000_000
#: Positions IDA* may generate looking for the shortest line (step 1).
DEFAULT_SHORTEST_NODES: Final = 1_000_000
#: Positions each solve after a move may generate (step 2).
DEFAULT_MOVE_NODES: Final = 100_000
#: The grades, easiest first; the cut-points between them are three difficulties.
GRADES: Final = ("easy", "medium", "hard", "expert")
#: Bits the difficulty counts for each move of the line (``difficulty = score +
#: LINE_BITS * positions``; docs/difficulty.md, "How the weight was chosen": of
#: 0 to 2, the smallest weight with the largest mean AUC of the difficulty as a
#: predictor of the player's losses on the tuning deals of Baker's Dozen and
#: Good Measure), for a game without its own entry in :data:`GAME_LINE_BITS`.
LINE_BITS: Final = 1.0
#: A game's own weight of a move, where :data:`LINE_BITS` left two neighbouring
#: grades of the validation apart by less than their intervals: the weight with
#: the largest AUC on the game's own tuning deals (Castles in Spain, deals
#: 1-500: 0.627 at 0.1 against 0.604 at 1; docs/difficulty.md, "How the weight was
#: chosen" and "Validation").
GAME_LINE_BITS: Final = MappingProxyType({"castles_in_spain": 0.1})
#: The player's look-ahead, in moves (docs/difficulty.md, "Measured": 2 won more than 1).
DEFAULT_LOOKAHEAD: Final = 2
#: The players give up (lost) after this many moves.
MAX_PLAYER_MOVES: Final = 1000
#: Playouts per candidate move of :func:`play_rollouts` for a game without its
#: own entry in :data:`PLAYER_ROLLOUTS`.
DEFAULT_ROLLOUTS: Final = 8
#: Playouts per candidate move by preset: the power of two whose player wins
#: closest to half of the preset's deals 1-500 (docs/difficulty.md, "The
#: player"), where win rates have the most room to differ between grades.
PLAYER_ROLLOUTS: Final = MappingProxyType({
    "bakers_dozen": 2, "good_measure": 64, "castles_in_spain": 1, "portuguese_solitaire": 2,
    "spanish_patience": 2, "spanish_patience_ii": 1,
})
#: Moves per playout of :func:`play_rollouts` for a game without its own
#: entry in :data:`PLAYER_PLAYOUT_MOVES`.
DEFAULT_PLAYOUT_MOVES: Final = 200
#: Moves per playout by preset, where a single playout of
#: :data:`DEFAULT_PLAYOUT_MOVES` moves still wins most deals 1-500: the
#: Spanish Patience II player with one playout of 200 moves won 98.4 % of
#: them, with one playout of one move 77.2 % (docs/difficulty.md, "The player").
PLAYER_PLAYOUT_MOVES: Final = MappingProxyType({"spanish_patience_ii": 1})


@frozen_value
class Step:
    """One position of the line :func:`~bakersdozen.rate` followed.

    Attributes
    ----------
    legal : int
        Legal moves in the position.
    losing : tuple of Move
        The legal moves after which the position is proven unsolvable.
    unknown : tuple of Move
        The legal moves whose solve ran out of its budget.
    """

    legal: int
    losing: tuple[Move, ...] = ()
    unknown: tuple[Move, ...] = ()


@frozen_value
class Rating:
    """The difficulty of one deal (:func:`~bakersdozen.rate`).

    Attributes
    ----------
    verdict : Verdict
        SOLVED (the deal is winnable and measured), UNSOLVABLE (proven; no
        score) or UNKNOWN (the line's budget ran out; no score).
    score : float or None
        Bits of luck (module documentation); None unless SOLVED.
    difficulty : float or None
        ``score + line_bits * positions``, the number grades are cut on;
        None unless SOLVED.
    line_bits : float
        The bits counted for each move of the line
        (:func:`~bakersdozen.difficulty.line_bits` of the deal's rules).
    grade : str or None
        One of ``GRADES`` when there are cut-points (given, or shipped for
        the deal's preset), else None.
    line_kind : str or None
        ``"shortest"`` (proven fewest moves) or ``"default"`` (the default
        search's line); None unless SOLVED.
    line : tuple of Move
        The winning line the measure followed.
    positions, choices, moves, losing, unknown, narrow : int
        Counts along the line (module documentation).
    losing_share : float
        ``losing / moves`` (0.0 with no moves).
    line_nodes, shortest_nodes, move_nodes : int
        The budgets, positions per search (the decision, the shortest line,
        each move).
    nodes : int
        Positions generated by every search of the rating together.
    steps : tuple of Step
        One per position of the line, in order: its legal moves, and which
        of them lose or are unknown.
    """

    verdict: Verdict
    score: float | None = None
    difficulty: float | None = None
    grade: str | None = None
    line_kind: str | None = None
    line: tuple[Move, ...] = ()
    positions: int = 0
    choices: int = 0
    moves: int = 0
    losing: int = 0
    unknown: int = 0
    narrow: int = 0
    losing_share: float = 0.0
    line_nodes: int = DEFAULT_LINE_NODES
    shortest_nodes: int = DEFAULT_SHORTEST_NODES
    move_nodes: int = DEFAULT_MOVE_NODES
    nodes: int = 0
    steps: tuple[Step, ...] = ()
    line_bits: float = LINE_BITS

    def to_json(self) -> dict[str, object]:
        """The rating as a JSON object: every field, the verdict as its name in
        lower case, the line as move strings."""
        return {
            "verdict": self.verdict.name.lower(), "score": self.score,
            "difficulty": self.difficulty, "grade": self.grade,
            "line_kind": self.line_kind, "line": [str(m) for m in self.line],
            "positions": self.positions, "choices": self.choices, "moves": self.moves,
            "losing": self.losing, "unknown": self.unknown, "narrow": self.narrow,
            "losing_share": self.losing_share, "line_nodes": self.line_nodes,
            "shortest_nodes": self.shortest_nodes, "move_nodes": self.move_nodes, "nodes": self.nodes,
            "steps": [{"legal": step.legal, "losing": [str(m) for m in step.losing],
                       "unknown": [str(m) for m in step.unknown]} for step in self.steps],
            "line_bits": self.line_bits,
        }

    def __str__(self) -> str:
        if self.verdict is Verdict.UNSOLVABLE:
            return "unsolvable: no winning line, so no difficulty\n"
        if self.verdict is Verdict.UNKNOWN:
            return (f"unknown: not decided within {self.line_nodes} positions, "
                    "so no difficulty\n")
        grade = self.grade if self.grade is not None else "none (no cut-points for this game)"
        lines = [
            f"difficulty: {self.difficulty:.2f} (score {self.score:.2f} bits + "
            f"{self.line_bits} x {self.positions} moves)",
            f"grade: {grade}",
            f"line: {self.positions} moves ({self.line_kind})",
            f"legal moves along it: {self.moves}, of which {self.losing} lose "
            f"({100 * self.losing_share:.1f} %), {self.unknown} unknown",
            f"narrow positions: {self.narrow} of {self.choices} with a choice",
            f"budgets: {self.line_nodes} positions to decide, {self.shortest_nodes} for the "
            f"shortest line, {self.move_nodes} per move; "
            f"{self.nodes} searched",
        ]
        return "\n".join(lines) + "\n"


def _positive_int(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"rate() {name} must be an int, not {value!r}")
    _check_limit(name, value, integral=True)
    return value


def _check_cuts(cuts: Sequence[float]) -> tuple[float, float, float]:
    try:
        values = tuple(cuts)
    except TypeError:
        raise TypeError(f"cut-points must be a sequence of three numbers, not {cuts!r}") from None
    if len(values) != len(GRADES) - 1:
        raise ArgumentError(f"cut-points must be {len(GRADES) - 1} numbers, not {len(values)}: {values!r}")
    for value in values:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise TypeError(f"cut-points must be numbers, not {value!r}")
        if not math.isfinite(value):
            raise ArgumentError(f"cut-points must be finite, not {value!r}")
    if list(values) != sorted(values):
        raise ArgumentError(f"cut-points must be in increasing order, not {values!r}")
    return values[0], values[1], values[2]


def difficulty_of(score: float, positions: int, line_bits: float = LINE_BITS) -> float:
    """The difficulty of a line: ``score + line_bits * positions``, rounded to 6 places.

    *score* is the bits of luck of :func:`bakersdozen.rate`, *positions* the line's
    moves (the fields of the records of ``results/difficulty.py run``) and
    *line_bits* the game's weight of a move (:func:`line_bits`)."""
    return round(score + line_bits * positions, 6)


def grade_of(score: float, cuts: Sequence[float]) -> str:
    """The grade of a difficulty *score* under *cuts*: easy up to the first
    cut-point (inclusive), medium up to the second, hard up to the third,
    expert above.

    With cut-points at the quartiles of the difficulties
    (``results/difficulty.py cuts``), a grade holds about a quarter of the
    deals; deals of equal difficulty share a grade.

    Raises
    ------
    TypeError, ArgumentError
        If *cuts* is not three finite numbers in increasing order.
    """
    low, middle, high = _check_cuts(cuts)
    if score <= low:
        return GRADES[0]
    if score <= middle:
        return GRADES[1]
    if score <= high:
        return GRADES[2]
    return GRADES[3]


#: The shipped cut-points, read once: preset name -> its entry of tables/grades.json.
_GRADES: dict[str, dict[str, Any]] | None = None


def grade_table() -> Mapping[str, Mapping[str, Any]]:
    """The difficulty grades shipped with the package (``bakersdozen/tables/grades.json``).

    Returns
    -------
    mapping
        Preset name -> ``{"cuts": [a, b, c], "deals": [first, last],
        "rated": n, "line_bits": ..., "line_nodes": ..., "shortest_nodes":
        ..., "move_nodes": ...}``: the cut-points (the quartiles of the
        difficulties of the rated deals *first..last*, of which *rated* were
        solved and rated) and the budgets they were rated with.  Presets not
        yet rated are absent.  How the file was made is in the repository's
        ``results/README.md``.

    Raises
    ------
    BakersDozenError
        If the shipped file is damaged.
    """
    global _GRADES
    if _GRADES is None:
        import json
        from importlib import resources

        path = resources.files("bakersdozen").joinpath("tables", "grades.json")
        try:
            data = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
            games = data.get("games", {}) if data else {}
            for name, entry in games.items():
                _check_cuts(entry["cuts"])
                weight = GAME_LINE_BITS.get(name, LINE_BITS)
                if entry["line_bits"] != weight:
                    raise ValueError(f"{name}: line_bits {entry['line_bits']} is not {weight}")
        except (ValueError, TypeError, KeyError, AttributeError) as error:
            raise BakersDozenError(f"the shipped grades (tables/grades.json) are damaged: "
                                   f"{error}") from None
        _GRADES = dict(games)
    return _GRADES


def shipped_cuts(rules: Rules) -> tuple[float, float, float] | None:
    """The shipped cut-points of *rules*, or None.

    Only a preset's own rules have them (:data:`bakersdozen.rules.PRESETS`; a
    preset with a knob changed plays another game), and only presets whose
    deals 1-10,000 were rated (:func:`grade_table`).
    """
    from .rules import PRESETS

    if PRESETS.get(rules.name) != rules:
        return None
    entry = grade_table().get(rules.name)
    if entry is None:
        return None
    return _check_cuts(entry["cuts"])


def _after(position: Deal, move: Move) -> Deal:
    return check(position, [move]).position


def rate(
    deal: Deal,
    *,
    line_nodes: int = DEFAULT_LINE_NODES,
    move_nodes: int = DEFAULT_MOVE_NODES,
    shortest_nodes: int = DEFAULT_SHORTEST_NODES,
    cuts: Sequence[float] | None = None,
    memory_mb: float = 256.0,
) -> Rating:
    """How hard *deal* is to win (the measure of the module documentation).

    Parameters
    ----------
    deal : Deal
        An initial layout or any position, played by ``deal.rules``.
    line_nodes : int
        Positions the search that decides the deal may generate.
    move_nodes : int
        Positions each solve after a legal move may generate.
    shortest_nodes : int
        Positions IDA* may generate, beyond the decision's, for a line
        with the fewest moves (Baker's Dozen's play only).
    cuts : sequence of three floats, or None
        Grade cut-points (difficulties, increasing: easy/medium,
        medium/hard, hard/expert); None (the default) for the cut-points
        shipped for the deal's preset
        (:func:`bakersdozen.difficulty.shipped_cuts`), or no grade
        when there are none.
    memory_mb : float
        MiB per search (see :func:`bakersdozen.solve`).

    Returns
    -------
    Rating
        Verdict SOLVED with the numbers, UNSOLVABLE (proven), or UNKNOWN
        (no line within *line_nodes*).  The same arguments give the same
        Rating on any machine (``seconds`` are not part of it).

    Raises
    ------
    TypeError
        If *deal* is not a Deal or a budget is not an int.
    ArgumentError
        If a budget is not in 1..2**64-1, or *cuts* is not three finite
        increasing numbers.
    """
    if not isinstance(deal, Deal):
        raise TypeError(f"rate() needs a Deal, not {type(deal).__name__}")
    line_nodes = _positive_int("line_nodes", line_nodes)
    move_nodes = _positive_int("move_nodes", move_nodes)
    shortest_nodes = _positive_int("shortest_nodes", shortest_nodes)
    if cuts is not None:
        _check_cuts(cuts)
    else:
        cuts = shipped_cuts(deal.rules)
    with rated_search():    # the searches the shipped grades were rated with
        return _rate(deal, line_nodes, move_nodes, shortest_nodes, cuts, memory_mb)


def _rate(deal: Deal, line_nodes: int, move_nodes: int, shortest_nodes: int,
          cuts: Sequence[float] | None, memory_mb: float) -> Rating:
    """:func:`rate` of checked arguments."""
    found = solve(deal, time_limit=None, max_nodes=line_nodes, memory_mb=memory_mb, seed=0)
    nodes = found.nodes
    if found.verdict is not Verdict.SOLVED:
        return Rating(found.verdict, nodes=nodes, line_nodes=line_nodes,
                      shortest_nodes=shortest_nodes, move_nodes=move_nodes,
                      line_bits=line_bits(deal.rules))
    line, kind = found.moves, "default"
    if plays_shortest(deal.rules) and line:
        # the same default search again (it repeats exactly), then IDA* with shortest_nodes
        short = solve(deal, time_limit=None, max_nodes=found.nodes + shortest_nodes,
                      memory_mb=memory_mb, seed=0, method="shortest")
        nodes += short.nodes
        if short.verdict is Verdict.SOLVED and short.optimal:
            line, kind = short.moves, "shortest"
    position = deal
    choices = total = losing = unknown = narrow = 0
    score = 0.0
    steps = []
    for step in line:
        count, others = _verdicts_after(position, step, move_nodes, memory_mb)
        lost_moves = [move for move, verdict, _n in others if verdict is Verdict.UNSOLVABLE]
        unknown_moves = [move for move, verdict, _n in others if verdict is Verdict.UNKNOWN]
        nodes += sum(searched for _m, _v, searched in others)
        lost_here = len(lost_moves)
        steps.append(Step(count, tuple(lost_moves), tuple(unknown_moves)))
        if len(others) != count - 1:  # pragma: no cover  (solve() checks its lines)
            raise BakersDozenError(f"internal error: the line's move {str(step)!r} is not legal")
        total += count
        losing += lost_here
        unknown += len(unknown_moves)
        if count >= 2:
            choices += 1
            if count - lost_here == 1:
                narrow += 1
        score += math.log2(count / (count - lost_here))
        position = _after(position, step)
    if not position.is_won:  # pragma: no cover  (solve() checks its lines)
        raise BakersDozenError("internal error: the winning line does not win")
    weight = line_bits(deal.rules)
    difficulty = difficulty_of(score, len(line), weight)
    return Rating(
        Verdict.SOLVED,
        score=round(score, 6),
        difficulty=difficulty,
        grade=None if cuts is None else grade_of(difficulty, cuts),
        line_kind=kind, line=line, positions=len(line), choices=choices, moves=total,
        losing=losing, unknown=unknown, narrow=narrow,
        losing_share=round(losing / total, 6) if total else 0.0, nodes=nodes, steps=tuple(steps),
        line_nodes=line_nodes, shortest_nodes=shortest_nodes, move_nodes=move_nodes,
        line_bits=weight,
    )


# ---------------------------------------------------------------------------
# The player without a solver


@frozen_value
class PlayResult:
    """A game of :func:`play_rollouts` or :func:`play_greedy`.

    Attributes
    ----------
    won : bool
        Whether every card went home (the independent checker's verdict).
    moves : tuple of Move
        The moves played, in order; ``check(deal, moves)`` replays them.
    policy : str
        The player and its settings, e.g. ``"rollouts=8 playout_moves=200"``
        or ``"greedy lookahead=2"``.
    seed : int
        The seed of its random choices.
    """

    won: bool
    moves: tuple[Move, ...]
    policy: str
    seed: int


def evaluate(position: Deal) -> int:
    """The player's score of a position: ``10 * home - blocking`` (higher is better).

    ``home`` is the cards on the foundations; ``blocking`` the cards that lie
    (anywhere) above a lower-ranked card of their column.
    """
    home = sum(position.foundations)
    blocking = 0
    for column in position.columns:
        lowest = 99
        for card in column:
            if card.rank > lowest:
                blocking += 1
            elif card.rank < lowest:
                lowest = card.rank
    return 10 * home - blocking


def _key(position: Deal) -> tuple[object, ...]:
    return position.columns, position.foundations


def _autoplay(position: Deal, moves: list[Move] | None = None) -> Deal:
    """Play foundation moves (leftmost column first) while there are any."""
    while True:
        home = next((m for m in legal_moves(position) if m.to_foundation), None)
        if home is None:
            return position
        position = _after(position, home)
        if moves is not None:
            moves.append(home)


def _best(position: Deal, depth: int) -> int:
    """The best :func:`evaluate` within *depth* more moves (each followed by autoplay)."""
    best = evaluate(position)
    if depth == 0 or position.is_won:
        return best
    for move in legal_moves(position):
        best = max(best, _best(_autoplay(_after(position, move)), depth - 1))
    return best


def play_greedy(deal: Deal, seed: int = 0, lookahead: int = DEFAULT_LOOKAHEAD) -> PlayResult:
    """Play *deal* with the player of the module documentation (no solver).

    Parameters
    ----------
    deal : Deal
        Any position, played by ``deal.rules``.
    seed : int
        Seeds the tie-breaks (``random.Random``); the same seed gives
        the same game.
    lookahead : int
        Moves looked ahead, 1..4 (1: the best position after one move).

    Returns
    -------
    PlayResult
        Won or lost, and the moves played (a win is checked with
        :func:`bakersdozen.check`).

    Raises
    ------
    TypeError
        If *deal* is not a Deal, or *seed* or *lookahead* is not an int.
    ArgumentError
        If *lookahead* is not in 1..4 or *seed* is negative.
    """
    import random

    if not isinstance(deal, Deal):
        raise TypeError(f"play_greedy() needs a Deal, not {type(deal).__name__}")
    for name, value in (("seed", seed), ("lookahead", lookahead)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"play_greedy() {name} must be an int, not {value!r}")
    if not 1 <= lookahead <= 4:
        raise ArgumentError(f"play_greedy() lookahead must be in 1..4, not {lookahead!r}")
    if seed < 0:
        raise ArgumentError(f"play_greedy() seed must be at least 0, not {seed!r}")
    chance = random.Random(seed)
    moves: list[Move] = []
    position = _autoplay(deal, moves)
    seen = {_key(position)}
    while not position.is_won and len(moves) < MAX_PLAYER_MOVES:
        scored: list[tuple[int, Move, Deal]] = []
        for move in legal_moves(position):
            after = _after(position, move)
            if _key(after) in seen:
                continue
            scored.append((_best(_autoplay(after), lookahead - 1), move, after))
        if not scored:
            break
        top = max(value for value, _move, _after_it in scored)
        _value, move, position = chance.choice([s for s in scored if s[0] == top])
        moves.append(move)
        seen.add(_key(position))
        position = _autoplay(position, moves)
        seen.add(_key(position))
    won = check(deal, moves).won
    return PlayResult(won, tuple(moves), f"greedy lookahead={lookahead}", seed)


def _preset_setting(rules: Rules, table: Mapping[str, _T], default: _T) -> _T:
    """*table*'s entry for a preset's own rules (a preset with a knob changed is
    another game), else *default*."""
    from .rules import PRESETS

    if PRESETS.get(rules.name) == rules:
        return table.get(rules.name, default)
    return default


def line_bits(rules: Rules) -> float:
    """The bits :func:`~bakersdozen.rate` counts for each move of a line under *rules*:
    :data:`GAME_LINE_BITS` of a preset's own rules, else :data:`LINE_BITS`."""
    return _preset_setting(rules, GAME_LINE_BITS, LINE_BITS)


def player_rollouts(rules: Rules) -> int:
    """The playouts per move :func:`play_rollouts` uses for *rules* by default:
    :data:`PLAYER_ROLLOUTS` of a preset's own rules, else :data:`DEFAULT_ROLLOUTS`."""
    return _preset_setting(rules, PLAYER_ROLLOUTS, DEFAULT_ROLLOUTS)


def player_playout_moves(rules: Rules) -> int:
    """The moves per playout :func:`play_rollouts` uses for *rules* by default:
    :data:`PLAYER_PLAYOUT_MOVES` of a preset's own rules, else
    :data:`DEFAULT_PLAYOUT_MOVES`."""
    return _preset_setting(rules, PLAYER_PLAYOUT_MOVES, DEFAULT_PLAYOUT_MOVES)


def play_rollouts(deal: Deal, seed: int = 0, rollouts: int | None = None,
                  playout_moves: int | None = None) -> PlayResult:
    """Play *deal* with the Monte Carlo player (no solver; docs/difficulty.md, "The player").

    At each turn: a card that can go to a foundation goes (the first in
    the move generator's order, leftmost column first).  Otherwise each
    legal move is a candidate unless it takes a card back from a
    foundation or leads to a position this game has already been in; a
    candidate is played, with the foundation moves it allows, and
    *rollouts* random games (playouts) of at most *playout_moves* moves are
    played from there, each with foundation moves first and otherwise a
    move drawn uniformly at random (never back from a foundation, never
    the card just moved back where it came from).  The candidate whose
    best playout left the fewest cards in the tableau is played (then the
    fewest over all its playouts; remaining ties drawn at random).  The
    game is lost when no candidate is left, or after
    :data:`MAX_PLAYER_MOVES` moves.

    This is flat Monte Carlo play (Bjarnason, Fern and Tadepalli,
    "Lower bounding Klondike solitaire with Monte-Carlo planning", ICAPS
    2009, study the family of such players): it looks ahead only by
    sampling, keeps no table, proves nothing and never takes a move back,
    so it wins often where the winning moves are many and seldom where
    few moves keep the deal winnable.  It uses the engine's move
    generator and make/unmake, compiled (``bakersdozen._player``), and the
    win is the independent checker's verdict.

    Parameters
    ----------
    deal : Deal
        Any position, played by ``deal.rules``.
    seed : int
        Seeds the playouts and tie-breaks (splitmix64), 0..2**64-1; the
        same seed gives the same game on any machine.
    rollouts : int or None
        Playouts per candidate move, 1..1024; more play stronger (and cost
        proportionally).  None: the preset's :data:`PLAYER_ROLLOUTS`
        (:data:`DEFAULT_ROLLOUTS` for other rules).
    playout_moves : int or None
        Moves per playout, 1..1000.  None: the preset's
        :data:`PLAYER_PLAYOUT_MOVES` (:data:`DEFAULT_PLAYOUT_MOVES` for
        other rules).

    Returns
    -------
    PlayResult

    Raises
    ------
    TypeError
        If *deal* is not a Deal, or an option is not an int.
    ArgumentError
        If an option is out of its range.
    """
    from . import _player
    from .solver import _engine_args, _to_move

    if not isinstance(deal, Deal):
        raise TypeError(f"play_rollouts() needs a Deal, not {type(deal).__name__}")
    if rollouts is None:
        rollouts = player_rollouts(deal.rules)
    if playout_moves is None:
        playout_moves = player_playout_moves(deal.rules)
    for name, value, high in (("seed", seed, 2**64 - 1), ("rollouts", rollouts, 1024),
                              ("playout_moves", playout_moves, 1000)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"play_rollouts() {name} must be an int, not {value!r}")
        low = 0 if name == "seed" else 1
        if not low <= value <= high:
            raise ArgumentError(f"play_rollouts() {name} must be in {low}..{high}, not {value!r}")
    _won, raw = _player.play_monte_carlo(*_engine_args(deal), seed, rollouts, playout_moves,
                                         MAX_PLAYER_MOVES)
    moves = tuple(_to_move(m) for m in raw)
    won = check(deal, moves).won
    return PlayResult(won, moves, f"rollouts={rollouts} playout_moves={playout_moves}", seed)


def rate_deal(game: str, number: int, line_nodes: int = DEFAULT_LINE_NODES,
              move_nodes: int = DEFAULT_MOVE_NODES,
              shortest_nodes: int = DEFAULT_SHORTEST_NODES) -> dict[str, object]:
    """PySol deal *number* of preset *game* rated, as one JSON object:
    ``{"deal", "game", "seconds", <Rating.to_json()>}`` (the lines of
    ``results/difficulty.py run``; a function of this module so that worker
    processes can import it).  ``seconds`` is wall-clock time, not part of
    the measure."""
    import time

    start = time.perf_counter()
    rating = rate(Deal.pysol(number, game=game), line_nodes=line_nodes, move_nodes=move_nodes,
                  shortest_nodes=shortest_nodes)
    return {"deal": number, "game": game, "seconds": round(time.perf_counter() - start, 4),
            **rating.to_json()}


def play_deal(game: str, number: int, seed: int = 0, player: str = "rollouts",
              rollouts: int | None = None, playout_moves: int | None = None,
              lookahead: int = DEFAULT_LOOKAHEAD) -> tuple[int, bool]:
    """``(number, won)``: PySol deal *number* of *game* played by *player*,
    ``"rollouts"`` (:func:`play_rollouts`, with *rollouts* and *playout_moves*)
    or ``"greedy"`` (:func:`play_greedy`, with *lookahead*); for
    ``results/difficulty.py validate``, whose worker processes import it.
    The win is the checker's.

    Raises
    ------
    ArgumentError
        If *player* is neither name.
    """
    deal = Deal.pysol(number, game=game)
    if player == "rollouts":
        return number, play_rollouts(deal, seed=seed, rollouts=rollouts,
                                     playout_moves=playout_moves).won
    if player == "greedy":
        return number, play_greedy(deal, seed=seed, lookahead=lookahead).won
    raise ArgumentError(f"player must be 'rollouts' or 'greedy', not {player!r}")


def load_cuts(path: str) -> Mapping[str, tuple[float, float, float]]:
    """Cut-points per preset from a JSON file ``{"bakers_dozen": [a, b, c], ...}``
    (what ``results/difficulty.py cuts --json`` writes).

    Raises
    ------
    OSError
        If the file cannot be read.
    ArgumentError
        If it is not such an object.
    """
    import json

    with open(path, encoding="utf-8") as stream:
        try:
            data = json.load(stream)
        except ValueError as error:
            raise ArgumentError(f"{path}: not JSON: {error}") from None
    if not isinstance(data, dict):
        raise ArgumentError(f"{path}: cut-points must be a JSON object of preset: [3 numbers]")
    out = {}
    for name, values in data.items():
        try:
            out[name] = _check_cuts(values)
        except (TypeError, ArgumentError) as error:
            raise ArgumentError(f"{path}: {name!r}: {error}") from None
    return out
