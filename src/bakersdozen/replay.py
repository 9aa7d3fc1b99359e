"""A solution as a web page: one self-contained HTML file that replays it.

:func:`replay_html` turns a starting position and a move list into one
HTML document that shows the columns (bottom card first, the playable top
card last, overlapped), the foundations, the move number and the move, with
buttons, a move list, the keyboard (← → step, space play/pause, Home/End)
and a speed setting.  It plays every game of the family (``deal.rules``):
the cards a move carries (a sequence, where sequences move) are
highlighted and slide together to their new place, a card may come back
from a foundation, and foundations not built by suit are named by the Ace
that began them and stack the cards in the order they were played.  The position is also given in text for screen readers: every
column and foundation has an ``aria-label`` and a live region announces
each move.  The user guide is ``docs/replay.md``.

The file makes no network request of any kind: the CSS and the script are
inline, the cards are drawn with CSS and text (system fonts only), and a
``Content-Security-Policy`` of ``default-src 'none'`` that allows exactly
the inline style and script (by their SHA-256 hashes) would block any
request that slipped in.  The page holds the starting position and the
moves as compact JSON (see :func:`replay_data`); the script computes the
positions, so a 150-move solution makes a file of under 20 KB.

:func:`read_moves` reads a move list as people and programs write it: one
move per line, or the JSON of ``bakersdozen solve --json``.
"""

from __future__ import annotations

import html
import json
from collections.abc import Iterable
from typing import Any, Final

from ._page import HEAD, csp_hash, policy
from ._replay_assets import CSS, SCRIPT
from .cards import Card, Suit
from .check import check
from .errors import IllegalMoveError
from .model import FOUNDATION, Deal, Move
from .records import MAX_MOVES, MAX_MOVES_BYTES, read_moves
from .rules import FoundationBuild, Rules

__all__ = ["MAX_MOVES", "MAX_MOVES_BYTES", "read_moves", "replay_data", "replay_html"]

# -- the page -----------------------------------------------------------------


def _game_name(rules: Rules) -> str:
    """The game's name for people: its title, and any knobs changed from its preset.

    ``"Baker's Dozen"``; ``"Baker's Dozen (foundation_return=True)"`` for a
    variation made with :meth:`Rules.replace <bakersdozen.rules.Rules.replace>`.
    """
    changes = rules.name.partition("+")[2]
    return f"{rules.title} ({changes.replace(',', ', ')})" if changes else rules.title


def _foundation_piles(deal: Deal) -> list[dict[str, Any]]:
    """The foundations as piles of cards, bottom → top, in ``Deal.foundations`` order.

    Pile *i* is the one begun by the Ace of suit *i*.  By suit it holds
    that suit's ranks ``1..h``.  Built otherwise, a position records only
    each pile's height *h*, not which cards it holds, so the page is given
    one arrangement of the cards home that fits the heights (the one
    :func:`bakersdozen.notation.home_mismatch` proves exists): rank by
    rank, the home cards of that rank in suit order, each to the next pile
    that needs one of its colour (alternate colours) or any card (any
    suit).  After the start, the page stacks exactly the cards it is told
    went to each pile.
    """
    rules = deal.rules
    heights = deal.foundations
    if rules.foundation_build is FoundationBuild.BY_SUIT:
        return [
            {"name": suit.name.capitalize(), "symbol": suit.symbol,
             "cards": [str(Card(rank, suit)) for rank in range(1, top + 1)]}
            for suit, top in zip(Suit, heights)
        ]
    placed = {card for column in deal.columns for card in column}
    piles: list[list[Card]] = [[Card(1, suit)] if heights[suit] else [] for suit in Suit]
    alternate = rules.foundation_build is FoundationBuild.ALTERNATE_COLOURS
    for rank in range(2, deal.ranks + 1):
        home = [Card(rank, suit) for suit in Suit if Card(rank, suit) not in placed]
        for suit in Suit:
            if heights[suit] < rank:
                continue
            # Alternate colours: the pile's card of an odd rank has its Ace's colour.
            red = suit.is_red == (rank % 2 == 1)
            card = next(c for c in home if not alternate or c.suit.is_red == red)
            home.remove(card)
            piles[suit].append(card)
    return [
        {"name": Card(1, suit).symbol, "symbol": Card(1, suit).symbol,
         "cards": [str(card) for card in pile]}
        for suit, pile in zip(Suit, piles)
    ]


def replay_data(deal: Deal, moves: Iterable[Move | str]) -> dict[str, Any]:
    """The data a replay page embeds: the starting position and the moves.

    Every move is played by :func:`check`, the reference for what it does;
    the pile a card goes to or comes from is read off check's positions
    (the pile whose height changed; by suit, the card's suit's pile, where
    check puts it, without a second replay), so the page never applies a rule of
    the game itself, it only moves the cards it is told to.

    Parameters
    ----------
    deal : Deal
        The starting position, of any game of the family (``deal.rules``).
    moves : iterable of Move or str
        The moves in order (a str in the notation of :meth:`Move.from_text`).

    Returns
    -------
    dict
        A JSON-ready object:

        - ``"columns"``: one list per column of ``deal`` (column 1 first),
          each the cards bottom → top as board-text tokens (``"TH"``);
        - ``"foundations"``: one object per foundation pile, pile *i* the
          one begun by the Ace of suit *i*:
          ``{"name": "Clubs", "symbol": "♣", "cards": ["AC", "2C"]}`` by
          suit, ``{"name": "A♣", "symbol": "A♣", "cards": ["AC", "2D"]}``
          for the other foundation builds, cards bottom → top (a pile not
          built by suit that was begun before *deal* gets one arrangement
          of the cards home that fits its height: ``docs/replay.md``);
        - ``"moves"``: shape ``(n,)``, each ``[card, source, target]``
          with *source* and *target* column numbers from 1 (*card* is the
          bottom card of what moves: it and every card above it move), or
          ``[card, source, 0, pile]`` for a move to the foundation with
          0-based index *pile* into ``"foundations"``, or
          ``[card, 0, target, pile]`` for the top card of pile *pile*
          coming back onto column *target*.

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
    if deal.rules.foundation_build is FoundationBuild.BY_SUIT:
        # A card's pile is its suit's (check plays them so): no replay needed.
        for move in parsed:
            if FOUNDATION in (move.source, move.target):
                encoded.append([str(move.card), move.source, move.target, int(move.card.suit)])
            else:
                encoded.append([str(move.card), move.source, move.target])
    else:
        position = deal
        for move in parsed:
            after = check(position, [move]).position
            if FOUNDATION in (move.source, move.target):
                (pile,) = [i for i, (old, new) in
                           enumerate(zip(position.foundations, after.foundations)) if old != new]
                encoded.append([str(move.card), move.source, move.target, pile])
            else:
                encoded.append([str(move.card), move.source, move.target])
            position = after
    return {
        "columns": [[str(card) for card in column] for column in deal.columns],
        "foundations": _foundation_piles(deal),
        "moves": encoded,
    }


def replay_html(deal: Deal, moves: Iterable[Move | str], *, title: str | None = None) -> str:
    """A self-contained HTML page that replays *moves* from *deal*.

    Parameters
    ----------
    deal : Deal
        The starting position (any number of columns, any foundations).
    moves : iterable of Move or str
        The moves in order, e.g. ``solve(deal).moves`` or the result of
        :func:`~bakersdozen.records.read_moves`; a str is read with :meth:`Move.from_text`.
        Every move is checked with :func:`check` first.
    title : str, optional
        The heading, e.g. ``"PySol deal 24"`` (escaped).  The default is
        the game's name and "replay" (``"Spanish Patience replay"``).  The
        line under the heading names the game (its title, and any knobs
        changed from its preset) and the browser's title adds it to
        *title* unless *title* already contains it.

    Returns
    -------
    str
        One HTML5 document (UTF-8 text, no external resources): about
        17.5 KB of markup, style and script plus about 12 bytes per move.

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
    if title is not None and not isinstance(title, str):
        raise TypeError(f"title must be a str, not {type(title).__name__}")
    try:
        data = replay_data(deal, moves)
    except IllegalMoveError as error:
        raise IllegalMoveError(f"cannot replay the moves: {error}", error.index) from None
    game = _game_name(deal.rules)
    if title is None:
        title = f"{game} replay"
    count = len(data["moves"])
    # "<" is escaped so that no "</script>" or "<!--" can end the data block.
    payload = json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")
    csp = policy(f"style-src {csp_hash(CSS)}", f"script-src {csp_hash(SCRIPT)}")
    plural = "" if count == 1 else "s"
    return _PAGE.format(
        csp=csp, title=html.escape(title if game in title else f"{title} \u00b7 {game}"),
        heading=html.escape(title), css=CSS, script=SCRIPT, data=payload,
        summary=html.escape(f"{game}: {count} move{plural}, {len(deal.columns)} columns"),
    )


_PAGE: Final = HEAD + """\
<body>
<header>
<h1>{heading} <small>{summary}</small></h1>
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
