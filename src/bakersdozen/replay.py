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
from collections.abc import Iterable
from typing import Any, Final

from ._replay_assets import CSS, SCRIPT
from .cards import Card, Suit
from .check import check
from .errors import IllegalMoveError
from .model import FOUNDATION, Deal, Move
from .records import MAX_MOVES, MAX_MOVES_BYTES, read_moves

__all__ = ["MAX_MOVES", "MAX_MOVES_BYTES", "read_moves", "replay_data", "replay_html"]


#: The title of the page when the caller gives none.
DEFAULT_TITLE: Final = "Baker's Dozen replay"

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
