"""The one result record of a solved deal, and its JSON and CSV shapes.

A :class:`Record` is what ``bakersdozen solve --json`` prints, what a
survey writes per deal (JSON Lines or CSV) and what ``bakersdozen bench
--json`` lists per deal.  The file format is described field by field in
``docs/survey.md``.

Deal ids
--------
A record's ``deal`` is an ``int`` for a PySol deal number and a ``str``
only for a board given as text: ``"board-"`` followed by 16 hexadecimal
digits of the SHA-256 of the board's canonical text (:func:`board_id`), so
that the same position always has the same id, wherever it comes from.

Moves
-----
In Python, a tuple of :class:`~bakersdozen.Move`; in JSON (and in the CSV
``moves`` cell, as JSON text) a list of objects ``{"card": "7C", "source":
1, "target": 2}``, with ``"target": "foundation"`` for a move home and
columns numbered 1-13 in board-text line order.

Files written by version 0.1.0 are read too: their ``deal`` is a string
(``"1001"``, read as the int 1001), their moves are strings (``"AC 8>F"``,
space-separated pairs in CSV) and they have no ``game`` field.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, Union

from .cards import Card
from .errors import ArgumentError, ParseError
from .model import FOUNDATION, Deal, Move
from .rules import BAKERS_DOZEN
from .solution import DEFAULT_MEMORY_MB, Solution, Verdict

if TYPE_CHECKING:
    from .analysis import Hint, Review

__all__ = [
    "Record",
    "DealId",
    "FIELDS",
    "board_id",
    "deal_id",
    "move_to_json",
    "move_from_json",
    "read_moves",
    "MAX_MOVES",
    "MAX_MOVES_BYTES",
    "latest",
    "deal_sort_key",
    "hint_to_json",
    "review_to_json",
    "review_verdict",
    "WINNABLE",
    "WON",
    "LOST",
    "UNKNOWN",
]

#: A deal id: a PySol deal number, or a board id (module documentation).
DealId = Union[int, str]

#: The fields of a record, in the order of JSON objects and CSV columns.
FIELDS: Final = (
    "deal", "game", "verdict", "reason", "seconds", "nodes", "length",
    "time_limit", "max_nodes", "memory_mb", "seed", "moves",
)

#: Hexadecimal digits of the SHA-256 kept in a board id (64 bits).
BOARD_ID_DIGITS: Final = 16


def board_id(deal: Deal) -> str:
    """The id of a board: ``"board-"`` and 16 hex digits of SHA-256 of its canonical text.

    Two boards have the same id exactly when they are the same position
    (up to a 2**-64 chance of a collision per pair).
    """
    import hashlib  # here: loading OpenSSL costs a few ms at start-up

    digest = hashlib.sha256(deal.to_text().encode("utf-8")).hexdigest()
    return f"board-{digest[:BOARD_ID_DIGITS]}"


def deal_id(value: object) -> DealId:
    """A deal id read from a file: digits become the int, other text stays a str.

    Raises
    ------
    ArgumentError
        A ValueError: if *value* is neither a non-negative int nor a non-empty str.
    """
    if isinstance(value, bool):
        raise ArgumentError(f"deal id {value!r} is not a number or a board id")
    if isinstance(value, int) and value >= 0:
        return value
    if isinstance(value, str) and value:
        if value.isascii() and value.isdigit():
            if len(value) > 20:  # 2**64 - 1 has 20 digits
                raise ArgumentError(f"deal number {value[:24]}... is too long")
            return int(value)
        return value
    raise ArgumentError(f"deal id {value!r} is not a number or a board id")


def move_to_json(move: Move) -> dict[str, object]:
    """``{"card": "7C", "source": 1, "target": 2 | "foundation"}``."""
    target: object = "foundation" if move.target == FOUNDATION else move.target
    return {"card": str(move.card), "source": move.source, "target": target}


#: :func:`read_moves` refuses a list of more moves than this.
MAX_MOVES: Final = 10_000

#: :func:`read_moves` refuses a text longer than this many bytes (UTF-8).
MAX_MOVES_BYTES: Final = 1_000_000

_NUMBERED: Final = re.compile(r"(\d+)[.)]\s+(\S.*)")
_FOUNDATION_WORDS: Final = frozenset({"foundation", "f", "home"})


def read_moves(text: str) -> tuple[Move, ...]:
    """Read a move list: one move per line, or the JSON of ``solve --json``.

    Two forms are accepted.

    - **Lines**: one move per line in the notation of
      :meth:`Move.from_text <bakersdozen.Move.from_text>` (``7C 1>2``, ``AS 3>F``).  Blank lines are
      skipped, ``#`` starts a comment, and a line may begin with its
      number as ``bakersdozen solve`` prints it (``  12. 7C 1>2``).
    - **JSON** (the text starts with ``{`` or ``[``): the object printed by
      ``bakersdozen solve --json``, whose ``"moves"`` is a list of
      ``{"card": "7C", "source": 1, "target": 2}`` (``"target":
      "foundation"`` for a move home), or a bare list of such objects, or a
      list of strings in move notation.

    Parameters
    ----------
    text : str
        The whole move list.

    Returns
    -------
    tuple of Move
        The moves in order, shape ``(n,)`` with ``0 <= n <= MAX_MOVES``.
        Whether they are legal is not checked here; see :func:`bakersdozen.check`.

    Raises
    ------
    ParseError
        If *text* is longer than :data:`MAX_MOVES_BYTES` bytes or holds
        more than :data:`MAX_MOVES` moves (refused before any move is
        read), or a move cannot be read: the message names the line
        number (or the position in the JSON list, from 1) and quotes the
        text.
    TypeError
        If *text* is not a str.
    """
    if not isinstance(text, str):
        raise TypeError(f"read_moves() needs a str, not {type(text).__name__}")
    size = len(text) if len(text) > MAX_MOVES_BYTES else len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_MOVES_BYTES:
        raise ParseError(
            f"the move list is {size} bytes long; at most {MAX_MOVES_BYTES} bytes are read"
        )
    body = text.lstrip("\ufeff \t\r\n")
    if body.startswith(("{", "[")):
        return _read_json_moves(body)
    return _read_line_moves(text)


def _too_many() -> ParseError:
    return ParseError(f"the move list holds more than {MAX_MOVES} moves; at most {MAX_MOVES} are read")


def _read_line_moves(text: str) -> tuple[Move, ...]:
    """One move per line; see :func:`read_moves`."""
    lines = [
        (number, line.split("#", 1)[0].strip())
        for number, line in enumerate(text.lstrip("\ufeff").splitlines(), 1)
    ]
    lines = [(number, line) for number, line in lines if line]
    if len(lines) > MAX_MOVES:
        raise _too_many()
    moves = []
    for number, line in lines:
        numbered = _NUMBERED.fullmatch(line)
        try:
            moves.append(Move.from_text(numbered.group(2) if numbered else line))
        except ParseError as error:
            raise ParseError(f"line {number}: {line!r}: {error}") from None
    return tuple(moves)


def _read_json_moves(text: str) -> tuple[Move, ...]:
    """The JSON of ``solve --json``, or a bare list; see :func:`read_moves`."""
    try:
        value = json.loads(text)
    except json.JSONDecodeError as error:
        raise ParseError(
            f"not valid JSON at line {error.lineno} column {error.colno}: {error.msg}"
        ) from None
    except RecursionError:
        raise ParseError("the JSON is nested too deeply to be a move list") from None
    if isinstance(value, dict):
        if "moves" not in value:
            raise ParseError('the JSON object has no "moves" list (as printed by solve --json)')
        value = value["moves"]
    if not isinstance(value, list):
        raise ParseError(f'the JSON "moves" must be a list, not {type(value).__name__}')
    if len(value) > MAX_MOVES:
        raise _too_many()
    moves = []
    for number, item in enumerate(value, 1):
        try:
            moves.append(move_from_json(item))
        except ParseError as error:
            raise ParseError(f"move {number} of the JSON list: {error}") from None
    return tuple(moves)


def move_from_json(item: object) -> Move:
    """One JSON move: an object of :func:`move_to_json`, or a move string (``"AC 8>F"``, 0.1.0).

    Raises
    ------
    ParseError
        If *item* is neither; the message quotes it and says what is wrong.
    """
    if isinstance(item, str):
        return Move.from_text(item)
    if not isinstance(item, dict):
        raise ParseError(f"expected an object or a string, not {json.dumps(item)}")
    shown = json.dumps(item, ensure_ascii=False)
    missing = [key for key in ("card", "source", "target") if key not in item]
    if missing:
        raise ParseError(f"{shown} has no {', '.join(repr(k) for k in missing)}")
    card, source, target = item["card"], item["source"], item["target"]
    if not isinstance(card, str):
        raise ParseError(f"the card in {shown} is not a string")
    if isinstance(target, str) and target.strip().lower() in _FOUNDATION_WORDS:
        target = FOUNDATION
    for what, number in (("source", source), ("target", target)):
        if type(number) is not int:
            raise ParseError(f"the {what} in {shown} is not a column number")
    try:
        return Move(Card.from_text(card), source, target)
    except ValueError as error:  # ParseError from the card, ValueError from Move
        raise ParseError(f"{shown}: {error}") from None



@dataclass(frozen=True, slots=True)
class Record:
    """The result of solving one deal, with the limits it was solved under.

    Attributes
    ----------
    deal : int or str
        A PySol deal number, or a board id (module documentation).
    verdict : Verdict
    reason : str or None
        For UNKNOWN, the limit that stopped the search (``"time_limit"``,
        ``"max_nodes"``, ``"memory_mb"`` or ``"disk"``); else None.
    seconds : float
        Wall-clock seconds of the :func:`~bakersdozen.solve` call, rounded
        to 1 µs (so that a record survives a round trip through text).
    nodes : int
        Positions the search generated.
    length : int or None
        Moves in the winning line when SOLVED, else None.
    moves : tuple of Move or None
        The winning line when it was kept; ``()`` for a deal not solved;
        None when the moves were not asked for.
    time_limit : float or None
        The time limit used, seconds (None: no limit).
    max_nodes : int or None
        The node limit used, positions (None: no limit).
    memory_mb : float
        The transposition-table budget used, MiB.
    seed : int
        The move-order seed used.
    game : str
        The rules' preset name (``"bakers_dozen"``).
    optimal : bool or None
        When SOLVED: whether the line is proven to have the fewest moves
        (``Solution.optimal``); None when not SOLVED or
        not recorded (files written before this field existed).
    lower_bound : int or None
        When SOLVED: the proven least number of moves of any winning line
        (``Solution.lower_bound``); None as for *optimal*.
    deadlock : tuple of Card
        When UNSOLVABLE because the deal itself is deadlocked, the cards
        that can never move (``Solution.deadlock``); ()
        otherwise or when not recorded.
    method : str
        The search method that made the record (a key of
        :data:`bakersdozen.solver.SEARCH_METHODS`): ``"dfs"``, the default,
        ``"proof"``, ``"layers"`` or ``"shortest"``; ``"dfs"`` for files
        written before this field existed.
    resumed_nodes : int
        Of *nodes*, the positions earlier runs generated, when the layered
        search on disk went on from their checkpoint
        (``Solution.resumed_nodes``; ``survey --layers --work-dir``): this
        record's search generated ``nodes - resumed_nodes`` in *seconds*.
        0 for a search that started afresh, and in files written before
        this field existed.
    layer_progress : tuple of (int, int) or None
        When the layered search stopped UNKNOWN, ``(value, most)``: the
        progress value it was expanding and that of a won position
        (``Solution.layer_progress``); None otherwise, and in files written
        before this field existed.
    """

    deal: DealId
    verdict: Verdict
    reason: str | None
    seconds: float
    nodes: int
    length: int | None
    moves: tuple[Move, ...] | None = None
    time_limit: float | None = None
    max_nodes: int | None = None
    memory_mb: float = DEFAULT_MEMORY_MB
    seed: int = 0
    game: str = BAKERS_DOZEN.name
    optimal: bool | None = None
    lower_bound: int | None = None
    deadlock: tuple[Card, ...] = ()
    method: str = "dfs"
    resumed_nodes: int = 0
    layer_progress: tuple[int, int] | None = None

    @classmethod
    def from_solution(
        cls,
        deal: DealId,
        solution: Solution,
        *,
        time_limit: float | None,
        max_nodes: int | None,
        memory_mb: float,
        seed: int,
        moves: bool = True,
        game: str = BAKERS_DOZEN.name,
        method: str = "dfs",
    ) -> Record:
        """The record of *solution*, the result of solving *deal* under these limits.

        *moves* False leaves the winning line out (``moves`` None); *method*
        is the search method that made *solution*.
        """
        return cls(
            deal=deal,
            verdict=solution.verdict,
            reason=solution.reason,
            seconds=round(solution.seconds, 6),
            nodes=solution.nodes,
            length=len(solution.moves) if solution.verdict is Verdict.SOLVED else None,
            moves=tuple(solution.moves) if moves else None,
            time_limit=time_limit,
            max_nodes=max_nodes,
            memory_mb=float(memory_mb),
            seed=seed,
            game=game,
            optimal=solution.optimal if solution.verdict is Verdict.SOLVED else None,
            lower_bound=solution.lower_bound if solution.verdict is Verdict.SOLVED else None,
            deadlock=solution.deadlock,
            method=method,
            resumed_nodes=solution.resumed_nodes,
            layer_progress=solution.layer_progress,
        )

    @property
    def solved(self) -> bool:
        """True when the verdict is SOLVED."""
        return self.verdict is Verdict.SOLVED

    @property
    def decided(self) -> bool:
        """True when the verdict is SOLVED or UNSOLVABLE."""
        return self.verdict is not Verdict.UNKNOWN

    def to_json(self) -> dict[str, object]:
        """The record as JSON-ready values, keys in :data:`~bakersdozen.records.FIELDS` order.

        ``verdict`` is the lower-case name (``"solved"``, ``"unsolvable"``,
        ``"unknown"``); ``optimal`` (a bool) and ``lower_bound`` (an int)
        follow the :data:`~bakersdozen.records.FIELDS` when known and are left out when None
        (CSV files carry them as columns of their own,
        :data:`bakersdozen.survey.codecs.CSV_FIELDS`); ``deadlock`` (a list of card names
        such as ``"5C"``) follows when not empty; ``method`` follows when it is
        not ``"dfs"`` (so that the records of the default search read as
        before); ``resumed_nodes`` follows when not 0; ``layer_progress``
        (a list of two ints) when not None; ``moves`` is a list of move objects
        (:func:`~bakersdozen.records.move_to_json`), last, and is left out when None.
        """
        result: dict[str, object] = {
            "deal": self.deal,
            "game": self.game,
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
        if self.optimal is not None:
            result["optimal"] = self.optimal
        if self.lower_bound is not None:
            result["lower_bound"] = self.lower_bound
        if self.deadlock:
            result["deadlock"] = [str(card) for card in self.deadlock]
        if self.method != "dfs":
            result["method"] = self.method
        if self.resumed_nodes:
            result["resumed_nodes"] = self.resumed_nodes
        if self.layer_progress is not None:
            result["layer_progress"] = list(self.layer_progress)
        if self.moves is not None:
            result["moves"] = [move_to_json(move) for move in self.moves]
        return result

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> Record:
        """Read back :meth:`to_json` output, a CSV row (all strings) or a 0.1.0 record.

        Raises
        ------
        ParseError
            If a field is missing or has a value of the wrong kind.
        """
        try:
            return cls(
                deal=deal_id(data["deal"]),
                verdict=Verdict(data["verdict"]),
                reason=None if data.get("reason") in (None, "") else str(data["reason"]),
                seconds=float(_number(data["seconds"])),
                nodes=int(_number(data["nodes"])),
                length=_optional_int(data.get("length")),
                moves=_moves(data.get("moves")),
                time_limit=_optional_float(data.get("time_limit")),
                max_nodes=_optional_int(data.get("max_nodes")),
                memory_mb=float(_number(data.get("memory_mb", DEFAULT_MEMORY_MB))),
                seed=int(_number(data.get("seed", 0))),
                game=str(data.get("game") or BAKERS_DOZEN.name),
                optimal=_optional_bool(data.get("optimal")),
                lower_bound=_optional_int(data.get("lower_bound")),
                deadlock=_cards(data.get("deadlock")),
                method=_method(data.get("method")),
                resumed_nodes=_optional_int(data.get("resumed_nodes")) or 0,
                layer_progress=_layer_progress(data.get("layer_progress"), data),
            )
        except (KeyError, ValueError, TypeError, RecursionError) as error:
            if isinstance(error, RecursionError):  # json.loads of a CSV cell nested deep
                error = ValueError("JSON nested too deeply")
            text = repr(dict(data))
            shown = text if len(text) <= 200 else text[:200] + "..."
            raise ParseError(f"not a record ({error}): {shown}") from None


def _number(value: object) -> float | int:
    if isinstance(value, bool):
        raise ValueError(f"{value!r} is not a number")
    if isinstance(value, (int, float)):
        return value
    if isinstance(value, str) and len(value) <= 40:
        return float(value) if any(c in value for c in ".eEn") else int(value)
    raise ValueError(f"{value!r} is not a number")


def _layer_progress(value: object, data: Mapping[str, object]) -> tuple[int, int] | None:
    """``layer_progress``: a JSON list ``[value, most]``, a CSV cell
    ``"value/most"``, or None / ``""``; only in an unknown record of the
    layered search (*data*, the whole record)."""
    if value is None or value == "":
        return None
    if data.get("verdict") != Verdict.UNKNOWN.value or data.get("method") != "layers":
        raise ValueError("layer_progress is only in a record of the layered search "
                         "(method layers) stopped unknown")
    parts: list[object] = []
    if isinstance(value, str) and len(value) <= 40:
        parts = [int(part) if part.isascii() and part.isdigit() else part
                 for part in value.split("/")]
    elif isinstance(value, list):
        parts = list(value)
    numbers = [part for part in parts if type(part) is int]
    if len(parts) != 2 or len(numbers) != 2 or not 0 <= numbers[0] <= numbers[1]:
        raise ValueError(
            f"layer_progress must be two progress values, value <= most, not {value!r}")
    return numbers[0], numbers[1]


def _cards(value: object) -> tuple[Card, ...]:
    if value is None or value == "":
        return ()
    if not isinstance(value, list) or not all(isinstance(text, str) for text in value):
        raise ValueError(f"deadlock must be a list of cards, not {value!r}")
    return tuple(Card.from_text(text) for text in value)


def _method(value: object) -> str:
    if value is None or value == "":
        return "dfs"
    if not isinstance(value, str):
        raise ValueError(f"method must be a string, not {value!r}")
    return value


def _optional_int(value: object) -> int | None:
    return None if value is None or value == "" else int(_number(value))


def _optional_bool(value: object) -> bool | None:
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        return value
    if value in ("true", "True"):
        return True
    if value in ("false", "False"):
        return False
    raise ValueError(f"{value!r} is not a bool")


def _optional_float(value: object) -> float | None:
    return None if value is None or value == "" else float(_number(value))


def _moves(value: object) -> tuple[Move, ...] | None:
    if value is None or value == "":
        return None
    if isinstance(value, str):
        text = value.strip()
        if text.startswith("["):  # a CSV cell: the JSON list
            import json

            value = json.loads(text)
        else:  # 0.1.0 CSV: "7C 1>2 AS 3>F", two tokens a move
            tokens = text.split()
            if len(tokens) % 2:
                raise ValueError(f"moves {text[:80]!r} is not a list of 'card from>to' pairs")
            return tuple(
                Move.from_text(f"{tokens[i]} {tokens[i + 1]}") for i in range(0, len(tokens), 2)
            )
    if isinstance(value, list):
        return tuple(move_from_json(item) for item in value)
    raise ValueError(f"moves {value!r} is not a list")


def latest(records: Iterable[Record]) -> dict[DealId, Record]:
    """The latest record of each deal: a later record supersedes earlier ones.

    Returns
    -------
    dict
        Deal id to its last record, in order of each id's first appearance.
    """
    result: dict[DealId, Record] = {}
    for record in records:
        result[record.deal] = record
    return result


def deal_sort_key(deal: DealId) -> tuple[int, int, str]:
    """Sort PySol numbers numerically first, then board ids as text."""
    if isinstance(deal, int):
        return (0, deal, "")
    return (1, 0, deal)


# -- hints and reviews ----------------------------------------------------------

#: The verdict of a hint or a review in JSON (``docs/serve.md``): the position
#: can be won (a hint gives the next move of a winning line) ...
WINNABLE: Final = "winnable"
#: ... every card is home already ...
WON: Final = "won"
#: ... no line wins from it (proven) ...
LOST: Final = "lost"
#: ... or a limit stopped the search first.
UNKNOWN: Final = "unknown"

_POSITION_WORDS: Final = {Verdict.SOLVED: WINNABLE, Verdict.UNSOLVABLE: LOST,
                          Verdict.UNKNOWN: UNKNOWN}


def hint_to_json(
    answer: Hint,
    position: Deal,
    *,
    time_limit: float | None,
    max_nodes: int | None,
    memory_mb: float,
) -> dict[str, object]:
    """The JSON object of a hint: what ``hint --json`` prints and ``serve`` answers.

    Parameters
    ----------
    answer : Hint
        The result of :func:`bakersdozen.hint` on *position*.
    position : Deal
        The position hinted (its board id and game go into the record).
    time_limit, max_nodes, memory_mb
        The limits the hint ran under (seconds, positions, MiB).

    Returns
    -------
    dict
        Keys in this order (``docs/serve.md``): ``verdict`` (``WINNABLE``,
        ``WON``, ``LOST`` or ``UNKNOWN``), ``move`` (the next
        move, :func:`move_to_json`, or None), ``reason`` (the limit that
        stopped an unknown, else None), ``deadlock`` (the cards that can
        never move when the deadlock test proved the position lost, else
        ``[]``), ``nodes`` and ``seconds`` (of the whole hint), and
        ``record``: the :class:`Record` of the solve behind the hint, its
        ``deal`` the position's :func:`board_id` and its ``moves`` the
        winning line the move starts.
    """
    solution = answer.solution
    verdict = _POSITION_WORDS[answer.verdict]
    if answer.verdict is Verdict.SOLVED and answer.move is None:
        verdict = WON
    record = Record.from_solution(
        board_id(position), solution, time_limit=time_limit, max_nodes=max_nodes,
        memory_mb=memory_mb, seed=0, game=position.rules.name, method=answer.method,
    )
    return {
        "verdict": verdict,
        "move": None if answer.move is None else move_to_json(answer.move),
        "reason": solution.reason,
        "deadlock": [str(card) for card in solution.deadlock],
        "nodes": answer.nodes,
        "seconds": round(answer.seconds, 6),
        "record": record.to_json(),
    }


def review_verdict(result: Review) -> str:
    """The answer of a review in one word, the one its exit status gives.

    ``WON`` (every card home), ``WINNABLE`` (still), ``LOST``
    (a move lost the game, or the deal never could be won; proven) or
    ``UNKNOWN`` (a limit left the losing move undecided).
    """
    if result.won:
        return WON
    if result.verdict is Verdict.SOLVED:
        return WINNABLE
    if result.losing_move is not None or result.start_verdict is Verdict.UNSOLVABLE:
        return LOST
    return UNKNOWN


def review_to_json(result: Review, played: Sequence[Move]) -> dict[str, object]:
    """The JSON object of a review: what ``review --json`` prints and ``serve`` answers.

    Parameters
    ----------
    result : Review
        The result of :func:`bakersdozen.review`.
    played : sequence of Move
        The moves reviewed, in order, shape ``(result.moves,)``.

    Returns
    -------
    dict
        Keys in this order (``docs/serve.md``): ``verdict``
        (``review_verdict``), ``losing_move`` (1-based number of the
        move that lost the game, as ``review`` prints it, or None),
        ``played`` (that move, :func:`move_to_json`, or None),
        ``alternative`` (a winning line from the position before it, ``[]``
        when none), ``start`` and ``end`` (the verdicts of the deal and of
        the position after the last move: ``"winnable"``, ``"won"``,
        ``"lost"`` or ``"unknown"``), ``moves`` (moves reviewed),
        ``undecided`` (``[a, b]``: a limit left the losing move among moves
        a..b, 1-based, both ends included; else None), ``reason`` (the limit
        that stopped a solve when the answer is undecided, else None),
        ``solves``, ``nodes`` and ``seconds`` (of all the solves).
    """
    k = result.losing_move
    start = _POSITION_WORDS[result.start_verdict]
    end = _POSITION_WORDS[result.verdict]
    if result.start_verdict is Verdict.UNSOLVABLE:
        end = LOST  # every position of a lost deal is lost
    if result.won:
        end = WON
    return {
        "verdict": review_verdict(result),
        "losing_move": None if k is None else k + 1,
        "played": None if k is None else move_to_json(played[k]),
        "alternative": [move_to_json(move) for move in result.alternative],
        "start": start,
        "end": end,
        "moves": result.moves,
        "undecided": None if result.undecided is None else [result.undecided[0] + 1,
                                                            result.undecided[1]],
        "reason": result.reason,
        "solves": result.solves,
        "nodes": result.nodes,
        "seconds": round(result.seconds, 6),
    }
