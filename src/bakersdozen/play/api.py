"""The play server's requests and responses, free of any transport.

Every request is a JSON object (a ``dict``) and every answer is one too;
:class:`Api` never sees a socket, so the HTTP server (:mod:`.server`) is a
thin layer around it and a test can call it directly.  ``docs/play.md``
describes each request and answer.

A game is named by the fields every request carries:

- ``"game"``: a preset name (``"bakers_dozen"``, default) and
  ``"knobs"``: an object of knob changes (``{"foundation_return": true}``);
- ``"deal"``: a PySol deal number, or ``"board"``: board text (the
  starting position);
- ``"moves"``: the moves played, in move notation (``"7C 1>2"``).

Every engine call is a request of :mod:`bakersdozen.protocol` (``solve``,
``hint``, ``review``: the same requests ``serve --stdio`` answers), so the
play server adds no second way to ask the engine.  Engine work (a solve
for the status, a hint, a random winnable deal) runs on :class:`Checks`, a pool of daemon threads (the engine releases the GIL),
never on the thread that serves the request: a request waits for its answer
at most ``wait`` seconds and otherwise gets ``{"state": "checking"}``, and
asks again.  Each solve is bounded by the time limit and ``memory_mb``.
A client (a page, named by ``"client"``) that asks about a new position
drops its older checks still waiting in the queue, and the newest check
runs first, so a newer move supersedes an older check.

Statuses (``"status"``): ``"won"``, ``"winnable"`` (the verdict
``"solved"``: a winning line exists, replayed by the checker),
``"lost"`` (``"unsolvable"``: proven, with the first move after which no
winning line was left), ``"unknown"`` (a limit stopped the search; its
``"reason"`` names the limit).
"""

from __future__ import annotations

import collections
import secrets
import threading
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any, Final

from ..check import check
from ..errors import BakersDozenError, IllegalMoveError
from ..model import Deal, Move, parse_board
from ..protocol import ServerLimits
from ..rules import Rules, find_rules

__all__ = ["Api", "ApiError", "Checks", "PlayLimits", "MAX_MOVES", "MAX_BOARD_CHARS"]

#: A request may carry at most this many moves.
MAX_MOVES: Final = 10_000

#: A board text longer than this is refused before it is read.
MAX_BOARD_CHARS: Final = 16_384

#: Finished checks kept (by position or game); the least recently used go
#: first.  An entry is a verdict and a line of at most a few hundred moves
#: (pointers to shared strings): under about 2 KB, so under 20 MB in all.
CACHE_SIZE: Final = 10_000

#: Checks that may wait for an engine thread at once (the oldest go first).
MAX_QUEUE: Final = 64

#: Deals tried at most for one random winnable deal.
RANDOM_TRIES: Final = 20


class ApiError(BakersDozenError, ValueError):
    """A request the API refuses: ``.status`` is the HTTP status to send (4xx)."""

    def __init__(self, message: str, status: int = 400, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.extra = extra


@dataclass(frozen=True, slots=True)
class PlayLimits(ServerLimits):
    """Limits of every engine call of the play server: the stdio server's, and a seed.

    Attributes
    ----------
    time_limit : float or None
        Seconds of wall-clock time per solve (None: no limit); default 5.
    max_nodes : int or None
        Positions per solve (None: no limit, the default).
    memory_mb : float
        MiB per solve (table and search path); default 256.
    seed : int
        The engine's move-order seed.

    Raises
    ------
    ValueError
        For a limit out of range, as :class:`~bakersdozen.protocol.ServerLimits`.
    """

    time_limit: float | None = 5.0
    max_nodes: int | None = None
    memory_mb: float = 256.0
    seed: int = 0

    def describe(self) -> dict[str, Any]:
        """The limits the page shows: time_limit, max_nodes and memory_mb."""
        return {"time_limit": self.time_limit, "max_nodes": self.max_nodes,
                "memory_mb": self.memory_mb}


# -- the worker pool ------------------------------------------------------------


@dataclass(eq=False)
class _Job:
    key: Hashable
    work: Callable[[], dict[str, Any]]
    done: threading.Event = field(default_factory=threading.Event)
    result: dict[str, Any] | None = None
    running: bool = False
    clients: set[str] = field(default_factory=set)


class Checks:
    """A pool of daemon threads that run engine work, newest first, with a cache.

    Parameters
    ----------
    workers : int
        Threads (each runs one solve at a time; the engine releases the GIL).
    cache_size : int
        Finished results kept, by key.
    max_queue : int
        Checks that may wait for a thread; beyond it the oldest is dropped.

    Notes
    -----
    The threads are daemons: when the process ends (Ctrl-C, SIGTERM) a
    solve still running ends with it, nothing is left behind.
    """

    def __init__(self, workers: int = 2, cache_size: int = CACHE_SIZE,
                 max_queue: int = MAX_QUEUE) -> None:
        self._lock = threading.Lock()
        self._ready = threading.Condition(self._lock)
        self._queue: collections.deque[_Job] = collections.deque()
        self._jobs: dict[Hashable, _Job] = {}
        self._done: collections.OrderedDict[Hashable, dict[str, Any]] = collections.OrderedDict()
        self._latest: collections.OrderedDict[tuple[str, object], Hashable] = (
            collections.OrderedDict())
        self._cache_size = cache_size
        self._max_queue = max_queue
        self.dropped = 0
        for number in range(workers):
            threading.Thread(target=self._run, name=f"play-check-{number}", daemon=True).start()

    def cached(self, key: Hashable) -> dict[str, Any] | None:
        with self._lock:
            result = self._done.get(key)
            if result is not None:
                self._done.move_to_end(key)
            return result

    def remember(self, key: Hashable, result: dict[str, Any]) -> None:
        with self._lock:
            self._store(key, result)

    def _store(self, key: Hashable, result: dict[str, Any]) -> None:
        self._done[key] = result
        self._done.move_to_end(key)
        while len(self._done) > self._cache_size:
            self._done.popitem(last=False)

    def ask(self, key: Hashable, work: Callable[[], dict[str, Any]], *, client: str | None,
            wait: float) -> dict[str, Any] | None:
        """The result of *work* (cached under *key*), or None if not ready within *wait* s.

        A *client* asking for a new key drops its previous key of the same
        kind (the key's first item: a status, a hint) if that job is still
        queued and no other client waits for it.
        """
        with self._lock:
            result = self._done.get(key)
            if result is not None:
                self._done.move_to_end(key)
                return result
            job = self._jobs.get(key)
            if job is None:
                job = _Job(key, work)
                self._jobs[key] = job
                self._queue.append(job)
                while len(self._queue) > self._max_queue:
                    # The oldest waiting check goes (its client, if still
                    # there, asks again and queues it anew).
                    old = self._queue.popleft()
                    del self._jobs[old.key]
                    self.dropped += 1
                self._ready.notify()
            if client is not None:
                self._supersede(client, key)
                job.clients.add(client)
        if job.done.wait(wait):
            return job.result
        return None

    def _supersede(self, client: str, key: Hashable) -> None:
        # A client's newer question of the same kind (a status, a hint)
        # supersedes its older one; a hint does not drop a status.
        slot = (client, key[0] if isinstance(key, tuple) and key else None)
        old = self._latest.get(slot)
        self._latest[slot] = key
        self._latest.move_to_end(slot)
        while len(self._latest) > 1000:
            self._latest.popitem(last=False)
        if old is None or old == key:
            return
        job = self._jobs.get(old)
        if job is None:
            return
        job.clients.discard(client)
        if not job.running and not job.clients:
            self._queue.remove(job)
            del self._jobs[old]
            self.dropped += 1

    def _run(self) -> None:
        while True:
            with self._lock:
                while not self._queue:
                    self._ready.wait()
                job = self._queue.pop()  # the newest first
                job.running = True
            try:
                result = job.work()
            except (BakersDozenError, ValueError, TypeError) as error:
                result = {"error": str(error)}
            except MemoryError:
                result = {"error": "out of memory"}
            except Exception as error:  # noqa: BLE001 - a worker must survive anything
                result = {"error": f"internal error: {type(error).__name__}: {error}"}
            with self._lock:
                job.result = result
                if "error" not in result:
                    self._store(job.key, result)
                self._jobs.pop(job.key, None)
            job.done.set()


# -- reading requests -------------------------------------------------------------


def _field(request: dict[str, Any], name: str, kind: type | tuple[type, ...], default: Any) -> Any:
    value = request.get(name, default)
    if value is default:
        return value
    if isinstance(value, bool) and kind is not bool and bool not in (
            kind if isinstance(kind, tuple) else (kind,)):
        raise ApiError(f"{name!r} must be {_kind_name(kind)}, not {value!r}")
    if not isinstance(value, kind):
        raise ApiError(f"{name!r} must be {_kind_name(kind)}, not {type(value).__name__}")
    return value


def _kind_name(kind: type | tuple[type, ...]) -> str:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    words = {str: "a string", int: "an integer", list: "a list", dict: "an object", bool: "true or false"}
    return " or ".join(words.get(k, k.__name__) for k in kinds)


def read_rules(request: dict[str, Any]) -> Rules:
    """The game a request names: ``"game"`` and ``"knobs"``, read as the protocol reads them."""
    from ..protocol import read_rules as protocol_rules

    return protocol_rules(request)


def read_start(request: dict[str, Any], rules: Rules) -> tuple[Deal, int | None]:
    """The starting position a request names (``"deal"`` or ``"board"``), and the deal number."""
    if "deal" in request and "board" in request:
        raise ApiError("give 'deal' or 'board', not both")
    if "board" in request:
        board = _field(request, "board", str, None)
        if len(board) > MAX_BOARD_CHARS:
            raise ApiError(f"'board' is {len(board)} characters, more than {MAX_BOARD_CHARS}")
        return parse_board(board, rules=rules)[0], None
    number = _field(request, "deal", int, None)
    if number is None:
        raise ApiError("the request needs 'deal' (a PySol deal number) or 'board' (board text)")
    if not 1 <= number < 2**64:
        raise ApiError(f"'deal' must be a PySol deal number, 1..2**64-1, not {number}")
    return Deal.pysol(number, rules), number


def read_moves(request: dict[str, Any]) -> tuple[Move, ...]:
    """The moves of a request (``"moves"``: a list of move notation strings)."""
    items = _field(request, "moves", list, [])
    if len(items) > MAX_MOVES:
        raise ApiError(f"'moves' has {len(items)} moves, more than {MAX_MOVES}")
    moves = []
    for index, item in enumerate(items):
        if not isinstance(item, str) or len(item) > 40:
            raise ApiError(f"move {index + 1} must be a string in move notation such as "
                           f"'7C 1>2', not {str(item)[:40]!r}", 400, index=index)
        try:
            moves.append(Move.from_text(item))
        except BakersDozenError as error:
            raise ApiError(f"move {index + 1} {item!r}: {error}", 400, index=index) from None
    return tuple(moves)


def replay(start: Deal, moves: tuple[Move, ...]) -> Deal:
    """The position after *moves* from *start*, by :func:`check` (one call).

    Raises
    ------
    ApiError
        422 at the first illegal move, with the checker's message, its
        reason alone (``"reason"``) and its 0-based ``"index"``.
    """
    try:
        return check(start, moves).position
    except IllegalMoveError as error:
        reason = str(error).split(" is illegal: ", 1)[-1]
        raise ApiError(str(error), 422, index=error.index, reason=reason) from None


# -- the API ----------------------------------------------------------------------


def _line(moves: tuple[Move, ...]) -> list[str]:
    return [str(move) for move in moves]


class Api:
    """The play requests: ``handle(name, request) -> (status, answer)``.

    Parameters
    ----------
    limits : PlayLimits
        Limits of every engine call.
    workers : int
        Engine threads (:class:`Checks`).
    wait : float
        Seconds a request waits for engine work before it answers
        ``{"state": "checking"}``.
    """

    def __init__(self, limits: PlayLimits = PlayLimits(), *, workers: int = 2,
                 wait: float = 0.25) -> None:
        self.limits = limits
        self.wait = wait
        self.checks = Checks(workers)
        self._protocol_limits: ServerLimits = limits
        self.requests: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
            "position": self.position, "status": self.status, "hint": self.hint,
            "random": self.random,
        }

    def handle(self, name: str, request: object) -> tuple[int, dict[str, Any]]:
        """Answer one request; never raises for anything a client can send.

        Returns
        -------
        (int, dict)
            The HTTP status (200, 202 while checking, 4xx) and the answer;
            a refusal is ``{"error": "one line"}`` (and ``"index"``, the
            0-based move, for a move).
        """
        handler = self.requests.get(name)
        if handler is None:
            return 404, {"error": f"no request {name[:40]!r}: the requests are "
                                  f"{', '.join(self.requests)}"}
        if not isinstance(request, dict):
            return 400, {"error": f"the request must be a JSON object, not {type(request).__name__}"}
        try:
            answer = handler(request)
        except ApiError as error:
            return error.status, {"error": str(error), **error.extra}
        except (BakersDozenError, ValueError, TypeError, RecursionError) as error:
            return 400, {"error": str(error).splitlines()[0][:500] if str(error) else
                         type(error).__name__}
        if "error" in answer:
            return 500, answer
        return (202 if answer.get("state") == "checking" else 200), answer

    # -- requests ---------------------------------------------------------------

    def _game(self, request: dict[str, Any]) -> tuple[Rules, Deal, int | None, tuple[Move, ...], Deal]:
        rules = read_rules(request)
        start, number = read_start(request, rules)
        moves = read_moves(request)
        return rules, start, number, moves, replay(start, moves)

    def position(self, request: dict[str, Any]) -> dict[str, Any]:
        """The game after its moves, for the page to draw (``docs/play.md``)."""
        from ..replay import _game_name, replay_data

        rules, start, number, moves, position = self._game(request)
        return {
            "game": rules.name.split("+", 1)[0], "title": _game_name(rules),
            "knobs": _knobs(rules), "deal": number, "board": start.to_text(),
            "position": position.to_text(), "moves": _line(moves),
            "won": position.is_won, "data": replay_data(start, moves),
        }

    def _client(self, request: dict[str, Any]) -> str | None:
        client = _field(request, "client", str, None)
        return None if client is None else client[:64]

    def _solve_key(self, rules: Rules, position: Deal) -> tuple[str, str, str]:
        return ("solve", rules.name, position.to_text())

    def _engine(self, op: str, rules: Rules, fields: dict[str, Any]) -> dict[str, Any]:
        """One request of :mod:`bakersdozen.protocol` (the engine's one door), under the limits."""
        from .. import protocol

        request = {"op": op, "game": rules.name.split("+", 1)[0], "knobs": _knobs(rules), **fields}
        answer = protocol.handle(request, self._protocol_limits)
        if "error" in answer:
            error = answer["error"]
            raise ApiError(str(error["message"]) if isinstance(error, dict) else str(error), 500)
        return answer

    def _solve(self, rules: Rules, position: Deal) -> dict[str, Any]:
        """Solve *position* (cached); a winning line also marks its positions winnable."""
        from ..records import move_from_json

        key = self._solve_key(rules, position)
        known = self.checks.cached(key)
        if known is not None:
            return known
        fields: dict[str, Any] = {"position": position.to_text()}
        if self.limits.seed:
            fields["seed"] = self.limits.seed
        record = self._engine("solve", rules, fields)
        moves = tuple(move_from_json(item) for item in record["moves"])
        answer = {
            "verdict": record["verdict"], "reason": record["reason"], "line": _line(moves),
            "deadlock": record.get("deadlock", []), "nodes": record["nodes"],
            "seconds": record["seconds"],
        }
        self.checks.remember(key, answer)
        if record["verdict"] == "solved":
            # Every position along a winning line is winnable by the rest of it.
            here = position
            for k, move in enumerate(moves[:-1]):
                here = check(here, [move]).position
                # The rest of the line shares the strings of answer["line"].
                self.checks.remember(self._solve_key(rules, here), {
                    **answer, "line": answer["line"][k + 1:], "nodes": 0, "seconds": 0.0,
                })
        return answer

    def status(self, request: dict[str, Any]) -> dict[str, Any]:
        """Is the game after its moves winnable, lost (since which move), won, unknown?"""
        rules, start, number, moves, position = self._game(request)
        n = len(moves)
        if position.is_won:
            return {"state": "done", "status": "won", "verdict": "solved", "moves": n, "line": []}
        key = ("status", rules.name, start.to_text(), tuple(moves))

        def work() -> dict[str, Any]:
            began = time.perf_counter()
            last = self._solve(rules, position)
            answer: dict[str, Any] = {"state": "done", "moves": n, **last}
            if last["verdict"] == "solved":
                answer["status"] = "winnable"
            elif last["verdict"] == "unknown":
                answer["status"] = "unknown"
            else:
                answer["status"] = "lost"
                answer.update(self._where_lost(rules, start, number, moves))
            answer["check_seconds"] = round(time.perf_counter() - began, 6)
            return answer

        return self._ask(key, work, request)

    def _where_lost(self, rules: Rules, start: Deal, number: int | None,
                    moves: tuple[Move, ...]) -> dict[str, Any]:
        """The first move after which the game was lost: :func:`bakersdozen.review`.

        Its bisection over the positions of the game (winnability along a
        line can only be lost) through the protocol's ``review``.
        """
        from ..records import move_from_json

        where: dict[str, Any] = {"deal": number} if number is not None else {
            "position": start.to_text()}
        answer = self._engine("review", rules, {**where, "moves": _line(moves)})
        if answer["start"] == "lost":
            return {"lost_at": 0, "lost_move": None, "alternative": []}
        if answer["losing_move"] is None:
            return {"lost_at": None, "lost_range": answer["undecided"] or [1, len(moves)],
                    "review_reason": answer["reason"]}
        return {
            "lost_at": answer["losing_move"],
            "lost_move": str(move_from_json(answer["played"])),
            "alternative": [str(move_from_json(item)) for item in answer["alternative"]],
        }

    def hint(self, request: dict[str, Any]) -> dict[str, Any]:
        """The next move of a winning line (:func:`bakersdozen.hint`), or why there is none."""
        rules, start, number, moves, position = self._game(request)
        if position.is_won:
            return {"state": "done", "verdict": "solved", "hint": None, "moves": len(moves)}
        key = ("hint", rules.name, position.to_text())

        def work() -> dict[str, Any]:
            from ..records import move_from_json

            answer = self._engine("hint", rules, {"position": position.to_text()})
            verdicts = {"winnable": "solved", "won": "solved", "lost": "unsolvable"}
            record = answer["record"]
            return {
                "state": "done", "verdict": verdicts.get(answer["verdict"], "unknown"),
                "reason": answer["reason"],
                "hint": None if answer["move"] is None else str(move_from_json(answer["move"])),
                "line": [str(move_from_json(item)) for item in record.get("moves", [])],
                "optimal": record.get("optimal"), "deadlock": answer["deadlock"],
            }

        return {**self._ask(key, work, request), "moves": len(moves)}

    def random(self, request: dict[str, Any]) -> dict[str, Any]:
        """A random PySol deal number of the game that the engine has solved."""
        rules = read_rules(request)
        nonce = _field(request, "nonce", str, None)
        if nonce is None:
            raise ApiError("'random' needs a 'nonce' (any string, the same while it asks again)")
        key = ("random", rules.name, nonce[:64])

        def work() -> dict[str, Any]:
            for _ in range(RANDOM_TRIES):
                number = 1 + secrets.randbelow(2**31 - 1)
                deal = Deal.pysol(number, rules)
                if self._solve(rules, deal)["verdict"] == "solved":
                    return {"state": "done", "deal": number, "game": rules.name.split("+", 1)[0],
                            "knobs": _knobs(rules)}
            return {"state": "done", "deal": None, "error_text":
                    f"no winnable deal among {RANDOM_TRIES} tried within the limits"}

        return self._ask(key, work, request)

    def _ask(self, key: Hashable, work: Callable[[], dict[str, Any]],
             request: dict[str, Any]) -> dict[str, Any]:
        answer = self.checks.ask(key, work, client=self._client(request), wait=self.wait)
        if answer is None:
            return {"state": "checking", **self.limits.describe()}
        return answer


def _knobs(rules: Rules) -> dict[str, Any]:
    """The knobs *rules* changes from its preset, as JSON values."""
    preset = find_rules(rules.name.split("+", 1)[0])
    return {
        name: getattr(value, "value", value) for name, value in rules.knobs.items()
        if preset.knobs[name] != value
    }
