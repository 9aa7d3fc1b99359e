"""A solution as a web page: one self-contained HTML file that replays it.

:func:`replay_html` turns a starting position and a move list into one
HTML document that shows the columns (bottom card first, the playable top
card last, overlapped), the foundations, the move number and the move, with
buttons, a move list, the keyboard (← → step, space play/pause, Home/End)
and a speed setting.  The moved card is highlighted and slides to its new
place.  The position is also given in text for screen readers: every
column and foundation has an ``aria-label`` and a live region announces
each move.  The user guide is ``docs/replay.md``.

The file makes no network request of any kind: the CSS and the script are
inline, the cards are drawn with CSS and text (system fonts only), and a
``Content-Security-Policy`` of ``default-src 'none'`` that allows exactly
the inline style and script (by their SHA-256 hashes) would block any
request that slipped in.  The page holds the starting position and the
moves as compact JSON (see :func:`replay_data`); the script computes the
positions, so a 150-move solution makes a file of under 19 KB.

:func:`read_moves` reads a move list as people and programs write it: one
move per line, or the JSON of ``bakersdozen solve --json``.
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import re
from collections.abc import Iterable
from typing import Any, Final

from ._replay_assets import CSS, SCRIPT
from .cards import Card, Suit
from .check import check
from .errors import IllegalMoveError, ParseError
from .model import FOUNDATION, Deal, Move

__all__ = ["MAX_MOVES", "MAX_MOVES_BYTES", "read_moves", "replay_data", "replay_html"]

#: :func:`read_moves` refuses a list of more moves than this.
MAX_MOVES: Final = 10_000

#: :func:`read_moves` refuses a text longer than this many bytes (UTF-8).
MAX_MOVES_BYTES: Final = 1_000_000

#: The title of the page when the caller gives none.
DEFAULT_TITLE: Final = "Baker's Dozen replay"

_NUMBERED: Final = re.compile(r"(\d+)[.)]\s+(\S.*)")
_FOUNDATION_WORDS: Final = frozenset({"foundation", "f", "home"})


# -- reading move lists -----------------------------------------------------


def read_moves(text: str) -> tuple[Move, ...]:
    """Read a move list: one move per line, or the JSON of ``solve --json``.

    Two forms are accepted.

    - **Lines**: one move per line in the notation of
      :meth:`Move.from_text` (``7C 1>2``, ``AS 3>F``).  Blank lines are
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
        Whether they are legal is not checked here; see :func:`check`.

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
            moves.append(_json_move(item))
        except ParseError as error:
            raise ParseError(f"move {number} of the JSON list: {error}") from None
    return tuple(moves)


def _json_move(item: object) -> Move:
    """One JSON move: a notation string or a ``{card, source, target}`` object."""
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


# -- the page -----------------------------------------------------------------


def _foundation_piles(deal: Deal) -> list[dict[str, Any]]:
    """The foundations as piles of cards, bottom → top, in ``Deal.foundations`` order.

    This function and :func:`_pile_of` are the only places that know how
    foundations are built (by suit, Ace up: pile *s* is suit *s*); the page
    itself just stacks the cards it is told to.
    """
    return [
        {
            "name": suit.name.capitalize(),
            "symbol": suit.symbol,
            "cards": [str(Card(rank, suit)) for rank in range(1, top + 1)],
        }
        for suit, top in zip(Suit, deal.foundations)
    ]


def _pile_of(card: Card) -> int:
    """The 0-based foundation pile a card goes to (its suit's)."""
    return int(card.suit)


def replay_data(deal: Deal, moves: Iterable[Move | str]) -> dict[str, Any]:
    """The data a replay page embeds: the starting position and the moves.

    Parameters
    ----------
    deal : Deal
        The starting position.
    moves : iterable of Move or str
        The moves in order (a str in the notation of :meth:`Move.from_text`).

    Returns
    -------
    dict
        A JSON-ready object:

        - ``"columns"``: one list per column of ``deal`` (column 1 first),
          each the cards bottom → top as board-text tokens (``"TH"``);
        - ``"foundations"``: one object per foundation pile,
          ``{"name": "Clubs", "symbol": "♣", "cards": ["AC", "2C"]}``,
          cards bottom → top;
        - ``"moves"``: shape ``(n,)``, each ``[card, source, target]`` with
          *source* and *target* column numbers from 1, or
          ``[card, source, 0, pile]`` for a move to the foundation with
          0-based index *pile* into ``"foundations"``.

    Raises
    ------
    IllegalMoveError
        If a move cannot be read or is illegal where it is played (from
        :func:`check`); ``.index`` is its 0-based position.
    TypeError
        If *deal* is not a :class:`Deal`.
    """
    if not isinstance(deal, Deal):
        raise TypeError(f"replay_data() needs a Deal, not {type(deal).__name__}")
    items = list(moves)
    check(deal, items)  # IllegalMoveError(index) names the first bad move
    parsed = [item if isinstance(item, Move) else Move.from_text(item) for item in items]
    encoded: list[list[str | int]] = []
    for move in parsed:
        if move.target == FOUNDATION:
            encoded.append([str(move.card), move.source, FOUNDATION, _pile_of(move.card)])
        else:
            encoded.append([str(move.card), move.source, move.target])
    return {
        "columns": [[str(card) for card in column] for column in deal.columns],
        "foundations": _foundation_piles(deal),
        "moves": encoded,
    }


def _csp_hash(text: str) -> str:
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return "'sha256-" + base64.b64encode(digest).decode("ascii") + "'"


def replay_html(deal: Deal, moves: Iterable[Move | str], *, title: str | None = None) -> str:
    """A self-contained HTML page that replays *moves* from *deal*.

    Parameters
    ----------
    deal : Deal
        The starting position (any number of columns, any foundations).
    moves : iterable of Move or str
        The moves in order, e.g. ``solve(deal).moves`` or the result of
        :func:`read_moves`; a str is read with :meth:`Move.from_text`.
        Every move is checked with :func:`check` first.
    title : str, optional
        The page title and heading, e.g. ``"PySol deal 24"`` (escaped;
        default ``"Baker's Dozen replay"``).

    Returns
    -------
    str
        One HTML5 document (UTF-8 text, no external resources): about
        17 KB of markup, style and script plus about 12 bytes per move.

    Raises
    ------
    IllegalMoveError
        If a move cannot be read or is illegal where it is played; the
        message quotes the move and ``.index`` is its 0-based position.
    TypeError
        If *deal* is not a :class:`Deal` or *title* is not a str.

    Examples
    --------
    >>> from bakersdozen import Deal, solve, replay_html
    >>> deal = Deal.pysol(24)
    >>> page = replay_html(deal, solve(deal).moves, title="PySol deal 24")
    >>> page.startswith("<!DOCTYPE html>")
    True
    """
    if title is None:
        title = DEFAULT_TITLE
    if not isinstance(title, str):
        raise TypeError(f"title must be a str, not {type(title).__name__}")
    try:
        data = replay_data(deal, moves)
    except IllegalMoveError as error:
        raise IllegalMoveError(f"cannot replay the moves: {error}", error.index) from None
    count = len(data["moves"])
    # "<" is escaped so that no "</script>" or "<!--" can end the data block.
    payload = json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")
    csp = (
        f"default-src 'none'; style-src {_csp_hash(CSS)}; script-src {_csp_hash(SCRIPT)}; "
        "base-uri 'none'; form-action 'none'"
    )
    heading = html.escape(title)
    plural = "" if count == 1 else "s"
    return _PAGE.format(
        csp=csp, title=heading, css=CSS, script=SCRIPT, data=payload,
        summary=f"{count} move{plural}, {len(deal.columns)} columns",
    )


_PAGE: Final = """\
<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>{css}</style>
</head>
<body>
<header>
<h1>{title} <small>{summary}</small></h1>
<p id="status"><span id="counter">Move 0</span> <span id="movetext"></span></p>
</header>
<div id="controls" role="group" aria-label="Replay controls">
<button type="button" id="first" aria-label="First: the starting position" title="First (Home)">&laquo; First</button>
<button type="button" id="back" aria-label="Back one move" title="Back (Left arrow)">&lsaquo; Back</button>
<button type="button" id="play" aria-label="Play" title="Play or pause (Space)">Play</button>
<button type="button" id="forward" aria-label="Forward one move" title="Forward (Right arrow)">Forward &rsaquo;</button>
<button type="button" id="last" aria-label="Last: the final position" title="Last (End)">Last &raquo;</button>
<label>Speed <select id="speed">
<option value="0.5">0.5 moves/s</option>
<option value="1">1 move/s</option>
<option value="2" selected>2 moves/s</option>
<option value="4">4 moves/s</option>
<option value="8">8 moves/s</option>
</select></label>
<p id="keys">Keys: <kbd>&larr;</kbd> <kbd>&rarr;</kbd> step, <kbd>Space</kbd> play/pause, <kbd>Home</kbd> <kbd>End</kbd></p>
</div>
<main>
<section id="board" aria-label="Position">
<div id="foundations" role="group" aria-label="Foundations"></div>
<div id="tableau" role="group" aria-label="Columns, each listed bottom card first"></div>
</section>
<nav id="movebox" aria-label="Moves">
<ol id="movelist"></ol>
</nav>
</main>
<p id="announce" class="sr-only" aria-live="polite" aria-atomic="true"></p>
<noscript><p>This replay needs JavaScript to show the position.</p></noscript>
<script type="application/json" id="replay-data">{data}</script>
<script>{script}</script>
</body>
</html>
"""
