"""The play page: one self-contained HTML document served by the play server.

The cards are drawn by the replay page's renderer
(``bakersdozen._render_assets``); ``bakersdozen.play._assets`` adds the play page's
own styles and script.  The page asks the server for everything it shows
(``docs/play.md``): the position after the moves, the status, the hint;
it never applies a rule of the game itself.  Its Content-Security-Policy
is ``default-src 'none'``, with its inline style and script allowed by
their SHA-256 hashes and requests allowed to the server alone
(``connect-src 'self'``); the starting game is a JSON block, and the
script builds the page with ``textContent``, never HTML from strings.
"""

from __future__ import annotations

import json
import re
from typing import Any, Final

from .._page import HEAD, csp_hash, policy
from ._assets import PAGE_CSS, PAGE_SCRIPT
from .api import PlayLimits

__all__ = ["play_html", "csp_of"]


_POLICY: Final = re.compile(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">')


def csp_of(page: str) -> str:
    """The Content-Security-Policy a page declares in its ``<meta>`` (sent as a header too)."""
    found = _POLICY.search(page)
    return found.group(1) if found else "default-src 'none'"


def play_html(game: dict[str, Any], limits: PlayLimits) -> str:
    """The play page for *game* (the fields of a request: game, knobs, deal or board).

    Parameters
    ----------
    game : dict
        The game the page starts with when its address names none.
    limits : PlayLimits
        Shown on the page (what "unknown" means).

    Returns
    -------
    str
        One HTML5 document that loads nothing but the server's API.
    """
    from ..rules import PRESETS

    data = {
        "start": game,
        "presets": [{"name": name, "title": rules.title} for name, rules in PRESETS.items()],
        "limits": limits.describe(),
    }
    payload = json.dumps(data, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")
    csp = policy(f"style-src {csp_hash(PAGE_CSS)}", f"script-src {csp_hash(PAGE_SCRIPT)}",
                 "connect-src 'self'")
    return _PAGE.format(csp=csp, title="Play Baker's Dozen", css=PAGE_CSS, script=PAGE_SCRIPT,
                        data=payload)


_PAGE: Final = HEAD + """\
<body>
<header>
<h1 id="title">Play</h1>
<p id="state" data-status="checking" role="status" aria-live="polite"><span id="badge">&hellip;</span> <span id="statetext">Loading</span></p>
<p id="message" role="alert"></p>
</header>
<div id="controls" role="group" aria-label="Game controls">
<button type="button" id="undo" title="Undo (U or Ctrl+Z)">&#x21B6; Undo</button>
<button type="button" id="redo" title="Redo (R or Ctrl+Y)">Redo &#x21B7;</button>
<button type="button" id="restart" title="Back to the starting position">Restart</button>
<button type="button" id="hint" title="The next move of a winning line (H)">Hint</button>
<button type="button" id="playhint" hidden>Play the hint</button>
<button type="button" id="solution" title="Replay a winning line from this position" disabled>Show a solution from here</button>
<button type="button" id="wherelost" hidden>Where was it lost?</button>
</div>
<p id="hinttext" aria-live="polite"></p>
<div id="lostbox" hidden><p id="losttext"></p><button type="button" id="backtolost">Go back to before that move</button></div>
<main>
<section id="board" aria-label="Position: choose a card, then the column or foundation it goes to">
<div id="foundations" role="group" aria-label="Foundations"></div>
<div id="tableau" role="group" aria-label="Columns, each listed bottom card first"></div>
</section>
<aside id="side">
<h2>Moves <span id="count"></span></h2>
<ol id="movelist"></ol>
<details id="newgame">
<summary>New game</summary>
<label>Game <select id="gamesel"></select></label>
<div class="row"><label>Deal number <input id="dealno" type="number" min="1" step="1" inputmode="numeric"></label>
<button type="button" id="dealbtn">Deal</button></div>
<div class="row"><button type="button" id="randombtn">A random winnable deal</button></div>
<label for="boardtext">Board text (one line per column)</label>
<textarea id="boardtext" rows="6" spellcheck="false"></textarea>
<div class="row"><button type="button" id="boardbtn">Play this board</button></div>
</details>
<p id="keys">Keys: <kbd>&larr;</kbd> <kbd>&rarr;</kbd> choose a column, <kbd>F</kbd> the foundations, <kbd>Enter</kbd> pick up / put down, <kbd>&uarr;</kbd> more cards of a sequence, <kbd>Esc</kbd> let go, <kbd>U</kbd> undo, <kbd>R</kbd> redo, <kbd>H</kbd> hint</p>
</aside>
</main>
<noscript><p>This page needs JavaScript.</p></noscript>
<script type="application/json" id="play-data">{data}</script>
<script>{script}</script>
</body>
</html>
"""
