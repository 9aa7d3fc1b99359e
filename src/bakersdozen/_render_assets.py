"""The card renderer shared by the replay page and the play page.

:data:`CARD_CSS` draws the table (columns, foundation piles, cards with
CSS and the system's fonts, empty slots, labels, the outline of moved
cards); :data:`RENDER_SCRIPT` defines one global object, ``BDRender``,
that builds the table's frame from a page's data (the JSON of
:func:`bakersdozen.replay.replay_data`), computes every position of a
move list from it, and draws a position.  Each page puts these first in
its own inline style sheet and script (one hash each in its
Content-Security-Policy).  Neither names any URL nor contains ``//``.

``BDRender``:

- ``sym(card)``: ``"TH"`` → ``"10♥"``; ``notation(m)``: ``"7C 1>2"``;
- ``el(tag, cls, text)``, ``cardElement(card)``: a ``div.card`` with
  ``data-card``;
- ``replay(data)``: ``{states, units}``, ``states[k]`` the position after
  ``k`` moves (``{cols, piles}``, cards bottom → top), ``units[k]`` the
  cards move ``k`` carried;
- ``describe(data, states, units, k)``: move ``k`` in words;
- ``frame(data, tableau, foundations)``: one ``.col`` per column (with
  ``data-column``) and one ``.pile`` per foundation (``data-pile``):
  ``{cols, piles}``;
- ``draw(frame, data, state, move)``: the cards of *state* into the
  frame, with ``data-cards`` / ``data-top`` and ``aria-label`` on every
  column and pile, and the ``from`` / ``to`` classes of *move*.
"""

from __future__ import annotations

from typing import Final

__all__ = ["CARD_CSS", "RENDER_SCRIPT"]

CARD_CSS: Final = """
:root {
  --felt: #0f5132; --felt-dark: #0a3d26; --ink: #1b1b1b; --red: #c4122f;
  --glow: #ffd23f; --ncols: 13;
  --cw: clamp(40px, calc((100vw - 290px) / var(--ncols) - 6px), 84px);
  --ch: calc(var(--cw) * 1.4);
  --fs: clamp(12px, calc(var(--cw) * 0.27), 19px);
  --off: calc(var(--fs) * 1.25 + 5px);
  color-scheme: light;
}
* { box-sizing: border-box; }
body {
  margin: 0; background: var(--felt); color: #fff;
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "DejaVu Sans", "Liberation Sans", Arial, sans-serif;
}
#board { flex: 1 1 auto; min-width: 0; overflow-x: auto; padding: 4px 2px 12px; }
#foundations, #tableau { display: flex; gap: 6px; width: max-content; }
#foundations { margin-bottom: 14px; }
.pile, .col { width: var(--cw); flex: none; }
.label {
  display: block; text-align: center; font-size: 0.8rem; line-height: 1.4; opacity: 0.85;
  border-radius: 4px; margin-bottom: 3px;
}
.from .label { background: #ffffff33; opacity: 1; }
.to .label { background: var(--glow); color: var(--ink); opacity: 1; font-weight: 700; }
.cards { position: relative; min-height: var(--ch); }
.slot {
  width: var(--cw); height: var(--ch); border-radius: 6px; border: 2px dashed #ffffff55;
  display: flex; align-items: center; justify-content: center;
  font-size: calc(var(--cw) * 0.45); color: #ffffff55;
}
.card {
  position: relative; width: var(--cw); height: var(--ch); border-radius: 6px;
  background: #fffdf7; border: 1px solid #7a7a7a; box-shadow: 0 1px 2px #0007;
  color: var(--ink); overflow: hidden;
}
.card + .card { margin-top: calc(var(--off) - var(--ch)); }
.card.red { color: var(--red); }
.corner {
  position: absolute; left: 4px; top: 1px; font-size: var(--fs); font-weight: 700;
  line-height: 1.25; letter-spacing: -0.02em; white-space: nowrap;
}
.pip {
  position: absolute; left: 0; right: 0; bottom: 6%; text-align: center;
  font-size: calc(var(--cw) * 0.55); line-height: 1;
}
.card.moved {
  z-index: 2; border-color: #b58900;
  box-shadow: 0 0 0 3px var(--glow), 0 0 12px 3px var(--glow);
}
.sr-only {
  position: absolute; width: 1px; height: 1px; padding: 0; margin: -1px;
  overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0;
}
@media (max-width: 800px) {
  :root { --cw: clamp(38px, calc((100vw - 30px) / var(--ncols) - 6px), 84px); }
}
"""

RENDER_SCRIPT: Final = r"""
var BDRender = (function () {
  "use strict";
  var SUIT = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };
  var RED = { D: true, H: true };

  function sym(card) {
    var rank = card.slice(0, -1);
    return (rank === "T" ? "10" : rank) + SUIT[card.slice(-1)];
  }
  function notation(m) {
    return m[0] + " " + (m[1] || "F") + ">" + (m[2] || "F");
  }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined) { e.textContent = text; }
    return e;
  }
  function cardElement(card) {
    var e = el("div", "card " + (RED[card.slice(-1)] ? "red" : "black"));
    e.setAttribute("data-card", card);
    e.setAttribute("aria-hidden", "true");
    e.appendChild(el("span", "corner", sym(card)));
    e.appendChild(el("span", "pip", SUIT[card.slice(-1)]));
    return e;
  }

  /* Every position, from the start: states[k] is the position after k moves,
     units[k] the cards move k carried (its card and every card above it). */
  function replay(data) {
    var states = [], units = [[]];
    var cols = data.columns.map(function (c) { return c.slice(); });
    var piles = data.foundations.map(function (f) { return f.cards.slice(); });
    function snap() {
      states.push({
        cols: cols.map(function (c) { return c.slice(); }),
        piles: piles.map(function (p) { return p.slice(); })
      });
    }
    snap();
    data.moves.forEach(function (m, i) {
      var from = m[1] ? cols[m[1] - 1] : piles[m[3]], at = from ? from.lastIndexOf(m[0]) : -1;
      if (at < 0) {
        throw new Error("move " + (i + 1) + " " + notation(m) + " does not fit the position");
      }
      var unit = from.splice(at), to = m[2] ? cols[m[2] - 1] : piles[m[3]];
      unit.forEach(function (c) { to.push(c); });
      units.push(unit);
      snap();
    });
    return { states: states, units: units };
  }

  function describe(data, states, units, k) {
    var m = data.moves[k - 1], under = m[2] && states[k - 1].cols[m[2] - 1];
    var pile = m[3] === undefined ? "" : "the " + data.foundations[m[3]].name + " foundation";
    return units[k].map(sym).join(" ") + " from " + (m[1] ? "column " + m[1] : pile) +
      (!m[2] ? " to " + pile : under.length ? " onto " + sym(under[under.length - 1]) +
        " in column " + m[2] : " to empty column " + m[2]);
  }

  /* The fixed frame: one element per column and per foundation pile. */
  function frame(data, tableau, foundations) {
    document.documentElement.style.setProperty("--ncols", String(Math.max(data.columns.length, 4)));
    tableau.textContent = "";
    foundations.textContent = "";
    var cols = data.columns.map(function (c, i) {
      var col = el("div", "col");
      col.setAttribute("role", "group");
      col.setAttribute("data-column", String(i + 1));
      var label = el("span", "label", String(i + 1));
      label.setAttribute("aria-hidden", "true");
      col.appendChild(label);
      col.appendChild(el("div", "cards"));
      tableau.appendChild(col);
      return col;
    });
    var piles = data.foundations.map(function (f, i) {
      var pile = el("div", "pile");
      pile.setAttribute("role", "group");
      pile.setAttribute("data-pile", String(i));
      var label = el("span", "label", f.symbol);
      label.setAttribute("aria-hidden", "true");
      pile.appendChild(label);
      pile.appendChild(el("div", "cards"));
      foundations.appendChild(pile);
      return pile;
    });
    return { cols: cols, piles: piles };
  }

  /* The cards of state s into the frame; m the move that led there (or null). */
  function draw(fr, data, s, m) {
    fr.cols.forEach(function (col, i) {
      var cards = s.cols[i], box = col.lastChild;
      box.textContent = "";
      if (cards.length === 0) { box.appendChild(el("div", "slot")); }
      cards.forEach(function (c) { box.appendChild(cardElement(c)); });
      col.setAttribute("data-cards", cards.join(" "));
      col.setAttribute("aria-label", "Column " + (i + 1) + ": " + (cards.length === 0 ? "empty" :
        cards.map(sym).join(" ") + " (top " + sym(cards[cards.length - 1]) + ")"));
      col.classList.toggle("from", !!m && m[1] === i + 1);
      col.classList.toggle("to", !!m && m[2] === i + 1);
    });
    fr.piles.forEach(function (pile, i) {
      var cards = s.piles[i], box = pile.lastChild, f = data.foundations[i];
      var top = cards.length ? cards[cards.length - 1] : "";
      box.textContent = "";
      if (top) { box.appendChild(cardElement(top)); } else { box.appendChild(el("div", "slot", f.symbol)); }
      pile.setAttribute("data-top", top);
      pile.setAttribute("data-cards", cards.join(" "));
      pile.setAttribute("aria-label", f.name + " foundation: " + (top ? "up to " + sym(top) + " (" +
        cards.length + (cards.length === 1 ? " card)" : " cards)") : "empty"));
      pile.classList.toggle("to", !!m && !m[2] && m[3] === i);
      pile.classList.toggle("from", !!m && !m[1] && m[3] === i);
    });
  }

  return {
    sym: sym, notation: notation, el: el, cardElement: cardElement, replay: replay,
    describe: describe, frame: frame, draw: draw
  };
})();
"""
