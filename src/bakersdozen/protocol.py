"""Requests and responses: one layer under every transport.

A request is a JSON object; a response is a JSON object.  This module
turns the one into the other and does nothing else: it reads no stream,
opens no socket, writes nothing.  ``bakersdozen serve --stdio``
(``bakersdozen.cli.serve``) carries requests and responses as lines of
standard input and output; another transport (HTTP) can carry the same
objects.  The protocol is described for its users in ``docs/serve.md``.

- :func:`handle` takes a decoded request (any Python value, as
  ``json.loads`` makes it) and returns the response, a dict ready for
  ``json.dumps``.
- :func:`handle_line` takes the raw bytes of one request (a line, a
  request body), decodes them under the limits of :data:`MAX_LINE_BYTES`
  and friends, and returns the response.
- :func:`encode` writes a response as one line of ASCII JSON.

Nothing a client sends makes these functions raise: every request gets
one response, an error object when the request cannot be answered
(:func:`error_response`), with the request's ``id`` when one could be
read.  Only ``KeyboardInterrupt`` and other ``BaseException`` that are not
``Exception`` (the transport's signals) go through.

Every search is bounded: :class:`~bakersdozen.protocol.ServerLimits` holds the server's maximum time,
positions and memory per request; a request may ask for less, never for
more (it is refused, saying so), and gets the maximum when it asks for
nothing.

The answers are the package's own records: ``solve`` and ``verdict``
answer with a :class:`~bakersdozen.records.Record` (as ``solve --json``),
``hint`` and ``review`` with :func:`~bakersdozen.records.hint_to_json` and
:func:`~bakersdozen.records.review_to_json` (as ``hint --json`` and
``review --json``), each with the request's ``id`` and ``op`` in front.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from .errors import BakersDozenError

if TYPE_CHECKING:
    from .model import Deal
    from .rules import Rules

__all__ = [
    "ServerLimits", "DEFAULT_LIMITS", "OPS", "MAX_LINE_BYTES", "MAX_ID_CHARS", "ERROR_CODES",
    "RequestError", "handle", "handle_line", "decode", "encode", "error_response", "read_rules",
]

#: The longest request :func:`handle_line` reads, in bytes (a board is under
#: 1 KB; a review of 10 000 moves in JSON is about 450 KB).
MAX_LINE_BYTES: Final = 1 << 20

#: The longest string id echoed, in characters.
MAX_ID_CHARS: Final = 256

#: Integer ids lie in -2**63..2**63-1 (a signed 64-bit integer in any language).
_MAX_INT_ID: Final = 2**63 - 1

#: The largest move-order seed and node count (as ``solve()``).
_MAX_U64: Final = 2**64 - 1

#: ``solve()`` takes time limits below this many seconds.
_MAX_TIME_LIMIT: Final = 1e15

#: The error codes of :func:`error_response`, and what each means.
ERROR_CODES: Final = {
    "too_long": f"the request is longer than {MAX_LINE_BYTES} bytes",
    "not_utf8": "the request is not UTF-8 text",
    "not_json": "the request is not JSON (or is nested too deeply, or holds a number "
                "too long to read)",
    "bad_request": "the request is JSON but not a request: not an object, an unknown op, "
                   "a missing, unknown or wrong field",
    "illegal_move": "a move of a review cannot be played (the message names it)",
    "out_of_memory": "the server ran out of memory answering the request",
    "internal": "a bug: the request could not be answered (please report it)",
}


@dataclass(frozen=True, slots=True)
class ServerLimits:
    """The most a request may ask of the engine; what it gets when it asks for nothing.

    Attributes
    ----------
    time_limit : float or None
        Seconds of wall-clock time per search, > 0 and below 1e15; None for
        no limit (then a request may ask for none too).  A review runs
        several solves, each under this limit (``docs/serve.md``).
    max_nodes : int or None
        Positions a search may generate, 1..2**64-1; None for no limit.
    memory_mb : float
        MiB per search, 1..2**20.
    """

    time_limit: float | None = 10.0
    max_nodes: int | None = 100_000_000
    memory_mb: float = 512.0

    def __post_init__(self) -> None:
        if self.time_limit is not None and not 0 < self.time_limit < _MAX_TIME_LIMIT:
            raise ValueError(f"time_limit must be > 0 and below 1e15, not {self.time_limit!r}")
        if self.max_nodes is not None and not 1 <= self.max_nodes <= _MAX_U64:
            raise ValueError(f"max_nodes must be in 1..2**64-1, not {self.max_nodes!r}")
        if not 1 <= self.memory_mb <= 2**20:
            raise ValueError(f"memory_mb must be in 1..1048576, not {self.memory_mb!r}")


#: The limits of a server started with no options (``bakersdozen serve --stdio``).
DEFAULT_LIMITS: Final = ServerLimits()


class RequestError(BakersDozenError, ValueError):
    """A request that cannot be answered: the message says what and why.

    Attributes
    ----------
    code : str
        A key of :data:`ERROR_CODES`.
    field : str or None
        The request's field at fault (``"time_limit"``), None when the
        request as a whole is.
    """

    def __init__(self, message: str, field: str | None = None, code: str = "bad_request") -> None:
        super().__init__(message)
        self.field = field
        self.code = code


# -- the wire: bytes in, bytes out ---------------------------------------------------

def _no_constant(name: str) -> object:
    raise ValueError(f"{name} is not a JSON number")


def decode(data: bytes) -> object:
    """One request's bytes as the value :func:`handle` takes.

    Parameters
    ----------
    data : bytes
        UTF-8 JSON text, at most :data:`MAX_LINE_BYTES` bytes; surrounding
        white space (a line's ``\\r\\n``) is ignored.

    Returns
    -------
    object
        The JSON value (not necessarily an object: :func:`handle` says so).

    Raises
    ------
    RequestError
        Code ``too_long``, ``not_utf8`` or ``not_json``, with the reason:
        where the UTF-8 or the JSON goes wrong, ``NaN`` or ``Infinity``
        (not JSON), nesting deeper than the decoder's recursion limit, an
        integer of more than 4300 digits.
    """
    if len(data) > MAX_LINE_BYTES:
        raise RequestError(f"the request is {len(data)} bytes long; at most {MAX_LINE_BYTES} "
                           "bytes are read", code="too_long")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise RequestError(f"not UTF-8: byte 0x{data[error.start]:02x} at offset {error.start} "
                           f"({error.reason})", code="not_utf8") from None
    text = text.strip(" \t\r\n")
    if not text:
        raise RequestError("the request is empty: send one JSON object a line", code="not_json")
    try:
        return json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as error:
        raise RequestError(f"not JSON: {error.msg} at column {error.colno}",
                           code="not_json") from None
    except RecursionError:
        raise RequestError("not JSON this server reads: nested too deeply",
                           code="not_json") from None
    except ValueError as error:  # NaN, or an integer over sys.get_int_max_str_digits()
        reason = str(error).split(";")[0]
        raise RequestError(f"not JSON this server reads: {reason}", code="not_json") from None


def encode(response: Mapping[str, object]) -> bytes:
    """*response* as one line of ASCII JSON, ending in ``\\n``."""
    return (json.dumps(response, ensure_ascii=True, allow_nan=False) + "\n").encode("ascii")


#: The id of a request that is not JSON, when it starts ``{"id": <id>,``.
_LEADING_ID: Final = re.compile(
    r'\s*\{\s*"id"\s*:\s*(-?\d{1,19}|"(?:[^"\\\x00-\x1f]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*")\s*[,}]'
)


def _leading_id(data: bytes) -> object:
    """The id of a request that cannot be decoded, if it is the first member; else None."""
    head = data[: MAX_ID_CHARS * 6 + 32].decode("utf-8", "replace")
    found = _LEADING_ID.match(head)
    if not found:
        return None
    try:
        return _request_id({"id": json.loads(found.group(1))})
    except (ValueError, RequestError):
        return None


def handle_line(data: bytes, limits: ServerLimits = DEFAULT_LIMITS, *, truncated: bool = False) -> dict[str, object]:
    """The response to one request given as bytes (a line without its end, or a body).

    Parameters
    ----------
    data : bytes
        The request (:func:`decode`).
    limits : ServerLimits
        The server's maximums.
    truncated : bool
        True when the transport stopped reading the request at
        :data:`MAX_LINE_BYTES` (the line was longer): the answer is a
        ``too_long`` error, with the id if the request starts with one.

    Returns
    -------
    dict
        The response (:func:`handle`); never raises for any *data*.
    """
    try:
        if truncated:
            raise RequestError(f"the request is longer than {MAX_LINE_BYTES} bytes, the most "
                               "read", code="too_long")
        request = decode(data)
    except RequestError as error:
        return error_response(_leading_id(data), None, error)
    return handle(request, limits)


# -- requests ------------------------------------------------------------------

def _kind(value: object) -> str:
    """The JSON name of *value*'s type, for messages: ``an array``, ``a string``."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, str):
        return "a string"
    return "a number"


def _shown(value: object, width: int = 40) -> str:
    """*value* as JSON, cut to about *width* characters."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**width:
        return f"a number of {len(str(abs(value)))} digits"
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (ValueError, TypeError, RecursionError):
        text = repr(value)
    return text if len(text) <= width else text[: width - 3] + "..."


def _request_id(request: Mapping[str, object]) -> object:
    value = request.get("id")
    if value is None:
        return None
    if isinstance(value, str):
        if len(value) > MAX_ID_CHARS:
            raise RequestError(f"id: a string id has at most {MAX_ID_CHARS} characters, not "
                               f"{len(value)}", "id")
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        if -_MAX_INT_ID - 1 <= value <= _MAX_INT_ID:
            return value
        raise RequestError(f"id: an integer id lies in -2**63..2**63-1, not {_shown(value)}", "id")
    shown = _shown(value) if isinstance(value, float) else _kind(value)
    raise RequestError(f"id: must be a string or an integer, not {shown}", "id")


def _number(request: Mapping[str, object], name: str, *, whole: bool) -> float | int | None:
    """The number *name* of *request*: an int (whole) or a finite float; None if absent."""
    value = request.get(name)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        what = "a whole number" if whole else "a number"
        raise RequestError(f"{name}: must be {what}, not {_kind(value)}", name)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise RequestError(f"{name}: must be a finite number, not {_shown(value)}", name)
        if whole:
            if not value.is_integer():
                raise RequestError(f"{name}: must be a whole number, not {_shown(value)}", name)
            value = int(value)
    return value


def _asked_limit(request: Mapping[str, object], name: str, cap: float | None, maximum: str,
                 *, whole: bool) -> float | int | None:
    """The limit *name* that *request* gives (it has the field), not above the server's *cap*.

    None (JSON null, no limit) only where the server has no cap either;
    *maximum* is the cap for people (``"30 seconds"``).  The caller checks
    the number's own range after this: a valid cap is within it, so a
    number outside it that is also above the cap is told the cap.
    """
    if request[name] is None:
        if cap is None:
            return None
        raise RequestError(f"{name}: null (no limit) is above this server's maximum of {maximum}",
                           name)
    value = _number(request, name, whole=whole)
    assert value is not None
    if cap is not None and value > cap:
        raise RequestError(f"{name}: {_shown(value)} is above this server's maximum of {maximum}",
                           name)
    return value


def _time_limit(request: Mapping[str, object], limits: ServerLimits) -> float | None:
    cap = limits.time_limit
    if "time_limit" not in request:
        return cap
    maximum = "" if cap is None else f"{cap:g} seconds"
    value = _asked_limit(request, "time_limit", cap, maximum, whole=False)
    if value is None:
        return None
    if not value > 0:
        raise RequestError(f"time_limit: must be seconds > 0, not {_shown(value)}", "time_limit")
    if value >= _MAX_TIME_LIMIT:
        raise RequestError(f"time_limit: must be below 1e15 seconds, not {_shown(value)}",
                           "time_limit")
    return float(value)


def _max_nodes(request: Mapping[str, object], limits: ServerLimits) -> int | None:
    cap = limits.max_nodes
    if "max_nodes" not in request:
        return cap
    value = _asked_limit(request, "max_nodes", cap, f"{cap} positions", whole=True)
    if value is None:
        return None
    if not value >= 1:
        raise RequestError(f"max_nodes: must be at least 1, not {_shown(value)}", "max_nodes")
    if value > _MAX_U64:
        raise RequestError(f"max_nodes: must be at most 2**64-1, not {_shown(value)}", "max_nodes")
    return int(value)


def _memory_mb(request: Mapping[str, object], limits: ServerLimits) -> float:
    cap = limits.memory_mb
    if "memory_mb" not in request:
        return cap
    value = _number(request, "memory_mb", whole=False)
    assert value is not None
    if not value >= 1:
        raise RequestError(f"memory_mb: must be at least 1 MiB, not {_shown(value)}", "memory_mb")
    if value > cap:
        raise RequestError(f"memory_mb: {_shown(value)} is above this server's maximum of "
                           f"{cap:g} MiB", "memory_mb")
    return float(value)


def _seed(request: Mapping[str, object]) -> int:
    if "seed" not in request:
        return 0
    value = _number(request, "seed", whole=True)
    assert value is not None
    if not 0 <= value <= _MAX_U64:
        raise RequestError(f"seed: must be in 0..2**64-1, not {_shown(value)}", "seed")
    return int(value)


def read_rules(request: Mapping[str, object]) -> Rules:
    """The game a request names: ``"game"`` (a preset, default Baker's Dozen)
    and ``"knobs"`` (an object of knob changes).

    Every transport's requests name their game so (the play server's too).

    Raises
    ------
    RequestError
        For a game that is not a preset's name or knobs that are not knobs
        of the game (the message names the field).
    """
    from .rules import BAKERS_DOZEN, RulesError, find_rules

    rules = BAKERS_DOZEN
    if "game" in request:
        value = request["game"]
        if not isinstance(value, str):
            raise RequestError(f"game: must be a preset's name (a string), not {_kind(value)}",
                               "game")
        try:
            rules = find_rules(value[:100])
        except RulesError as error:
            raise RequestError(f"game: {error}", "game") from None
    if "knobs" in request:
        knobs = request["knobs"]
        if not isinstance(knobs, dict):
            raise RequestError(f"knobs: must be an object of knob changes, not {_kind(knobs)}",
                               "knobs")
        if len(knobs) > len(rules.knobs):
            raise RequestError(f"knobs: {len(knobs)} entries; the game has {len(rules.knobs)} "
                               "knobs", "knobs")
        try:
            rules = rules.replace(**{str(key): value for key, value in knobs.items()})
        except (RulesError, TypeError, ValueError) as error:
            raise RequestError(f"knobs: {error}", "knobs") from None
    return rules


def _position(request: Mapping[str, object], rules: Rules) -> tuple[Deal, int | None]:
    """The position of *request* and its PySol deal number (None for board text)."""
    from .deals import DealNumberError
    from .errors import ParseError
    from .model import Deal, parse_board
    from .notation import MAX_BOARD_CHARS

    if ("position" in request) == ("deal" in request):
        if "position" in request:
            raise RequestError('give "position" (board text) or "deal" (a PySol deal number), '
                               "not both", "position")
        raise RequestError('missing the position: give "position" (board text) or "deal" '
                           "(a PySol deal number)", "position")
    if "deal" in request:
        value = _number(request, "deal", whole=True)
        assert value is not None
        if not 1 <= value <= _MAX_U64:
            raise RequestError(f"deal: a PySol deal number lies in 1..2**64-1, not "
                               f"{_shown(value)}", "deal")
        try:
            return Deal.pysol(int(value), game=rules), int(value)
        except (DealNumberError, BakersDozenError) as error:
            raise RequestError(f"deal: {error}", "deal") from None
    text = request["position"]
    if not isinstance(text, str):
        raise RequestError(f"position: must be board text (a string), not {_kind(text)}",
                           "position")
    if len(text) > MAX_BOARD_CHARS:
        raise RequestError(f"position: the board text is {len(text)} characters long; at most "
                           f"{MAX_BOARD_CHARS} are read", "position")
    try:
        return parse_board(text, rules=rules)[0], None
    except (ParseError, BakersDozenError) as error:
        raise RequestError(f"position: {error}", "position") from None


def _moves(request: Mapping[str, object]) -> tuple[object, ...]:
    from .errors import ParseError
    from .records import MAX_MOVES, move_from_json

    if "moves" not in request:
        raise RequestError('moves: missing: a review needs the moves played (a list of '
                           '{"card", "source", "target"} objects or strings such as "7C 1>2")',
                           "moves")
    value = request["moves"]
    if not isinstance(value, list):
        raise RequestError(f"moves: must be a list of moves, not {_kind(value)}", "moves")
    if len(value) > MAX_MOVES:
        raise RequestError(f"moves: {len(value)} moves; at most {MAX_MOVES} are read", "moves")
    moves = []
    for number, item in enumerate(value, 1):
        try:
            moves.append(move_from_json(item))
        except (ParseError, RecursionError) as error:
            reason = error if isinstance(error, ParseError) else "nested too deeply"
            raise RequestError(f"moves: move {number}: {reason}", "moves") from None
    return tuple(moves)


# -- the ops -------------------------------------------------------------------

#: Fields every request may carry.
_COMMON: Final = frozenset({"id", "op", "position", "deal", "game", "knobs"})
_LIMITS: Final = frozenset({"time_limit", "max_nodes", "memory_mb"})


def _searched(request: Mapping[str, object], limits: ServerLimits) -> dict[str, object]:
    return {
        "time_limit": _time_limit(request, limits),
        "max_nodes": _max_nodes(request, limits),
        "memory_mb": _memory_mb(request, limits),
    }


def _method(request: Mapping[str, object]) -> str:
    from .solver import SEARCH_METHODS

    value = request.get("method", "dfs")
    if not isinstance(value, str) or value not in SEARCH_METHODS:
        shown = _shown(value) if isinstance(value, str) else _kind(value)
        raise RequestError(f"method: unknown search {shown}: one of {', '.join(SEARCH_METHODS)}",
                           "method")
    return value


def _solve(request: Mapping[str, object], limits: ServerLimits, *, moves: bool = True) -> dict[str, object]:
    from .records import Record, board_id
    from .rules import RulesError
    from .solver import solve

    rules = read_rules(request)
    deal, number = _position(request, rules)
    searched = _searched(request, limits)
    seed = _seed(request)
    method = _method(request)
    try:
        solution = solve(deal, seed=seed, method=method, **searched)  # type: ignore[arg-type]
    except RulesError as error:  # shortest and layers refuse some rules (solver.plays_layers)
        raise RequestError(f"method: {error}", "method") from None
    record = Record.from_solution(
        number if number is not None else board_id(deal), solution, seed=seed, moves=moves,
        game=deal.rules.name, method=method, **searched,  # type: ignore[arg-type]
    )
    return record.to_json()


def _verdict(request: Mapping[str, object], limits: ServerLimits) -> dict[str, object]:
    return _solve(request, limits, moves=False)


def _hint(request: Mapping[str, object], limits: ServerLimits) -> dict[str, object]:
    from .analysis import hint
    from .records import hint_to_json

    deal, _ = _position(request, read_rules(request))
    searched = _searched(request, limits)
    return hint_to_json(hint(deal, **searched), deal, **searched)  # type: ignore[arg-type]


def _review(request: Mapping[str, object], limits: ServerLimits) -> dict[str, object]:
    from .analysis import review
    from .errors import IllegalMoveError
    from .records import review_to_json

    deal, _ = _position(request, read_rules(request))
    played = _moves(request)
    searched = _searched(request, limits)
    try:
        result = review(deal, played, **searched)  # type: ignore[arg-type]
    except IllegalMoveError as error:
        raise RequestError(f"moves: {error}", "moves", "illegal_move") from None
    return review_to_json(result, played)  # type: ignore[arg-type]


def _legal_moves(request: Mapping[str, object], limits: ServerLimits) -> dict[str, object]:
    from .records import move_to_json
    from .solver import legal_moves

    deal, _ = _position(request, read_rules(request))
    return {"moves": [move_to_json(move) for move in legal_moves(deal)], "won": deal.is_won}


_Op = Callable[[Mapping[str, object], ServerLimits], dict[str, object]]

#: The ops, each with the fields its requests may carry.
_OPS: Final[dict[str, tuple[_Op, frozenset[str]]]] = {
    "solve": (_solve, _COMMON | _LIMITS | {"seed", "method"}),
    "verdict": (_verdict, _COMMON | _LIMITS | {"seed", "method"}),
    "hint": (_hint, _COMMON | _LIMITS),
    "review": (_review, _COMMON | _LIMITS | {"moves"}),
    "legal_moves": (_legal_moves, _COMMON),
}

#: The names of the ops, in the order ``docs/serve.md`` describes them.
OPS: Final = tuple(_OPS)


def error_response(request_id: object, op: str | None, error: RequestError) -> dict[str, object]:
    """The response to a request that cannot be answered.

    ``{"id": ..., "op": ..., "error": {"code": ..., "field": ..., "message": ...}}``:
    *request_id* as read (None when none could be), *op* when it was a known
    op, the error's code (:data:`ERROR_CODES`), the field at fault (or
    None) and a one-line message that names the field and says why.
    """
    return {
        "id": request_id,
        "op": op,
        "error": {"code": error.code, "field": error.field, "message": " ".join(str(error).split())},
    }


def handle(request: object, limits: ServerLimits = DEFAULT_LIMITS) -> dict[str, object]:
    """The response to one decoded request.

    Parameters
    ----------
    request : object
        A JSON value as ``json.loads`` makes it; a request is an
        object (dict) with ``"op"`` (one of :data:`OPS`), an optional
        ``"id"`` (a string of at most :data:`MAX_ID_CHARS` characters or an
        integer in -2**63..2**63-1, echoed), the position (``"position"``:
        board text, or ``"deal"``: a PySol deal number), an optional
        ``"game"`` (a preset's name), optional ``"knobs"`` (an object of
        knob changes, ``Rules.replace``)
        and the op's own fields
        (``docs/serve.md``).
    limits : ServerLimits
        The server's maximums; a request asking for more is refused.

    Returns
    -------
    dict
        ``{"id": ..., "op": ..., <the answer's fields>}``, or an error
        object (:func:`error_response`).  Never raises for any *request*
        (a bug answers with the code ``internal``); ``KeyboardInterrupt``
        and other BaseExceptions of the transport go through.
    """
    request_id: object = None
    op: str | None = None
    try:
        if not isinstance(request, dict):
            raise RequestError(f"a request is a JSON object, not {_kind(request)}")
        name = request.get("op")
        if isinstance(name, str) and name in _OPS:
            op = name  # echoed even when the id is at fault
        request_id = _request_id(request)
        if name is None:
            raise RequestError(f"op: missing: one of {', '.join(OPS)}", "op")
        if op is None:
            shown = _shown(name) if isinstance(name, str) else _kind(name)
            raise RequestError(f"op: unknown op {shown}: one of {', '.join(OPS)}", "op")
        run, fields = _OPS[op]
        unknown = [key for key in request if key not in fields]
        if unknown:
            raise RequestError(
                f"{_shown(unknown[0])}: no such field for {op}: the fields are "
                f"{', '.join(sorted(fields))}", str(unknown[0])[:100]
            )
        return {"id": request_id, "op": op, **run(request, limits)}
    except RequestError as error:
        return error_response(request_id, op, error)
    except MemoryError:
        return error_response(request_id, op, RequestError(
            "out of memory: ask for less memory_mb or a smaller time_limit", code="out_of_memory"))
    except RecursionError:
        return error_response(request_id, op, RequestError(
            "a field is nested too deeply to be read", code="bad_request"))
    except Exception as error:  # a bug; the server goes on
        return error_response(request_id, op, RequestError(
            f"internal error: {type(error).__name__}: {str(error)[:200]}", code="internal"))
