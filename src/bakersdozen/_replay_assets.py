"""The style sheet and the script of the replay page (see :mod:`bakersdozen.replay`).

Both go inline into the page and are allowed there by their SHA-256 hashes
in its Content-Security-Policy.  Neither may name any URL, nor contain
``//`` (the tests refuse it, so the script uses only ``/* */`` comments).
"""

from __future__ import annotations

from typing import Final

__all__ = ["CSS", "SCRIPT"]

CSS: Final = """
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
header { padding: 8px 12px 0; }
h1 { font-size: 1.2rem; margin: 0 0 4px; font-weight: 600; }
h1 small { font-weight: 400; font-size: 0.85rem; opacity: 0.8; margin-left: 0.5em; }
#status { margin: 0; min-height: 1.5em; font-size: 1rem; }
#counter { font-weight: 700; margin-right: 0.4em; }
#controls {
  display: flex; flex-wrap: wrap; gap: 6px; align-items: center; padding: 8px 12px;
}
#controls button, #controls select {
  font: inherit; font-size: 0.95rem; border-radius: 6px; border: 1px solid #0006;
  background: #f4f1e8; color: var(--ink); padding: 5px 10px; min-height: 34px; cursor: pointer;
}
#controls button:hover { background: #fff; }
#controls button:focus-visible, #controls select:focus-visible, #movelist button:focus-visible {
  outline: 3px solid var(--glow); outline-offset: 2px;
}
#play { min-width: 5.5em; font-weight: 700; }
#keys { margin: 0 0 0 auto; font-size: 0.8rem; opacity: 0.8; }
kbd {
  font: inherit; border: 1px solid #ffffff80; border-radius: 3px; padding: 0 4px;
  background: #ffffff1a;
}
#controls label { margin-left: 6px; display: flex; gap: 6px; align-items: center; }
main { display: flex; align-items: flex-start; gap: 12px; padding: 0 12px 12px; }
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
#movebox {
  position: relative; flex: none; width: 210px; max-height: calc(100vh - 120px);
  overflow-y: auto; background: var(--felt-dark); border-radius: 8px; padding: 4px;
}
#movelist { list-style: none; margin: 0; padding: 0; }
#movelist button {
  display: block; width: 100%; text-align: left; font: inherit; font-size: 0.9rem;
  font-variant-numeric: tabular-nums; background: none; color: #fff; border: 0;
  border-radius: 4px; padding: 2px 8px; cursor: pointer;
}
#movelist button:hover { background: #ffffff22; }
#movelist button[aria-current] { background: var(--glow); color: var(--ink); font-weight: 700; }
#movelist .n { display: inline-block; min-width: 2.6em; opacity: 0.75; }
.sr-only {
  position: absolute; width: 1px; height: 1px; padding: 0; margin: -1px;
  overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0;
}
@media (max-width: 800px) {
  :root { --cw: clamp(38px, calc((100vw - 30px) / var(--ncols) - 6px), 84px); }
  main { flex-direction: column; }
  #board { width: 100%; }
  #movebox { width: 100%; max-height: 35vh; }
  header, #controls { padding-left: 8px; padding-right: 8px; }
  main { padding: 0 8px 8px; }
  #controls { gap: 4px; }
  #controls button, #controls select { font-size: 0.88rem; padding: 4px 7px; }
  #play { min-width: 4.6em; }
  #controls label { margin-left: 0; }
  #keys { display: none; }
}
"""

SCRIPT: Final = r"""
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("replay-data").textContent);
  var SUIT = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };
  var RED = { D: true, H: true };
  var moves = data.moves, n = moves.length;
  var board = document.getElementById("board");
  var tableau = document.getElementById("tableau");
  var foundations = document.getElementById("foundations");
  var list = document.getElementById("movelist");
  var listBox = document.getElementById("movebox");
  var counter = document.getElementById("counter");
  var moveText = document.getElementById("movetext");
  var announcer = document.getElementById("announce");
  var playButton = document.getElementById("play");
  var speed = document.getElementById("speed");
  var reduceMotion = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;

  function sym(card) {
    var rank = card.slice(0, -1);
    return (rank === "T" ? "10" : rank) + SUIT[card.slice(-1)];
  }
  function notation(m) {
    return m[0] + " " + (m[1] || "F") + ">" + (m[2] || "F");
  }

  /* Every position, from the start: states[k] is the position after k moves,
     units[k] the cards move k carried (its card and every card above it). */
  var states = [], units = [[]];
  (function () {
    var cols = data.columns.map(function (c) { return c.slice(); });
    var piles = data.foundations.map(function (f) { return f.cards.slice(); });
    function snap() {
      states.push({
        cols: cols.map(function (c) { return c.slice(); }),
        piles: piles.map(function (p) { return p.slice(); })
      });
    }
    snap();
    moves.forEach(function (m, i) {
      var from = m[1] ? cols[m[1] - 1] : piles[m[3]], at = from ? from.lastIndexOf(m[0]) : -1;
      if (at < 0) {
        throw new Error("move " + (i + 1) + " " + notation(m) + " does not fit the position");
      }
      var unit = from.splice(at), to = m[2] ? cols[m[2] - 1] : piles[m[3]];
      unit.forEach(function (c) { to.push(c); });
      units.push(unit);
      snap();
    });
  })();

  function describe(k) {
    var m = moves[k - 1], under = m[2] && states[k - 1].cols[m[2] - 1];
    var pile = m[3] === undefined ? "" : "the " + data.foundations[m[3]].name + " foundation";
    return units[k].map(sym).join(" ") + " from " + (m[1] ? "column " + m[1] : pile) +
      (!m[2] ? " to " + pile : under.length ? " onto " + sym(under[under.length - 1]) +
        " in column " + m[2] : " to empty column " + m[2]);
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

  /* The fixed frame: one element per column and per foundation pile. */
  document.documentElement.style.setProperty("--ncols", String(Math.max(data.columns.length, 4)));
  var colEls = data.columns.map(function (c, i) {
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
  var pileEls = data.foundations.map(function (f, i) {
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

  var items = [];
  function listItem(k, text) {
    var li = el("li"), b = el("button");
    b.type = "button";
    b.setAttribute("data-step", String(k));
    b.appendChild(el("span", "n", k === 0 ? "" : k + "."));
    b.appendChild(document.createTextNode(text));
    b.addEventListener("click", function () { pause(); go(k); });
    li.appendChild(b);
    list.appendChild(li);
    items.push(b);
  }
  listItem(0, "Start");
  moves.forEach(function (m, i) { listItem(i + 1, notation(m)); });

  var step = -1;

  function render() {
    var s = states[step], m = step > 0 ? moves[step - 1] : null;
    colEls.forEach(function (col, i) {
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
    pileEls.forEach(function (pile, i) {
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
    cardEls(units[step]).forEach(function (e) { e.classList.add("moved"); });
    var won = s.cols.every(function (c) { return c.length === 0; });
    counter.textContent = "Move " + step + " of " + n;
    moveText.textContent = step === 0 ? "Starting position" :
      notation(m) + " \u00b7 " + describe(step) + (won ? ". All cards are home." : "");
    items.forEach(function (b, k) {
      if (k === step) { b.setAttribute("aria-current", "step"); } else { b.removeAttribute("aria-current"); }
    });
    var b = items[step];
    var top = b.offsetTop, bottom = top + b.offsetHeight;
    if (top < listBox.scrollTop) { listBox.scrollTop = top - 4; }
    else if (bottom > listBox.scrollTop + listBox.clientHeight) { listBox.scrollTop = bottom - listBox.clientHeight + 4; }
    document.body.setAttribute("data-step", String(step));
  }

  /* The shown elements of these cards (a foundation shows only its top card). */
  function cardEls(cards) {
    return cards.map(function (c) { return board.querySelector('[data-card="' + c + '"]'); })
      .filter(Boolean);
  }

  function slideDuration() {
    return Math.min(320, 700 / Number(speed.value));
  }

  function go(k) {
    k = Math.max(0, Math.min(n, k));
    if (k === step) { return; }
    var unit = [], from = {};
    if (step >= 0 && Math.abs(k - step) === 1 && !reduceMotion) {
      unit = units[Math.max(k, step)];
      cardEls(unit).forEach(function (e) { from[e.dataset.card] = e.getBoundingClientRect(); });
    }
    var single = k === step + 1;
    step = k;
    render();
    /* The cards of the move slide together from where they were. */
    cardEls(unit).forEach(function (after) {
      var was = from[after.dataset.card];
      if (was && after.animate) {
        var to = after.getBoundingClientRect();
        var dx = was.left - to.left, dy = was.top - to.top;
        if (dx || dy) {
          after.animate([
            { transform: "translate(" + dx + "px, " + dy + "px)" },
            { transform: "translate(0, 0)" }
          ], { duration: slideDuration(), easing: "ease-out" });
        }
      }
    });
    if (step === 0) {
      announcer.textContent = "Starting position.";
    } else if (single) {
      announcer.textContent = "Move " + step + " of " + n + ": " + describe(step) + ".";
    } else {
      announcer.textContent = "Position after move " + step + " of " + n + ": " + describe(step) + ".";
    }
  }

  var timer = null;
  function setPlayLabel(text) {
    playButton.textContent = text;
    playButton.setAttribute("aria-label", text);
  }
  function pause() {
    if (timer !== null) { clearInterval(timer); timer = null; setPlayLabel("Play"); }
  }
  function tick() {
    if (step >= n) { pause(); } else { go(step + 1); }
  }
  function play() {
    pause();
    if (step >= n) { go(0); }
    timer = setInterval(tick, 1000 / Number(speed.value));
    setPlayLabel("Pause");
  }
  function toggle() { if (timer === null) { play(); } else { pause(); } }

  playButton.addEventListener("click", toggle);
  document.getElementById("first").addEventListener("click", function () { pause(); go(0); });
  document.getElementById("back").addEventListener("click", function () { pause(); go(step - 1); });
  document.getElementById("forward").addEventListener("click", function () { pause(); go(step + 1); });
  document.getElementById("last").addEventListener("click", function () { pause(); go(n); });
  speed.addEventListener("change", function () { if (timer !== null) { play(); } });

  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) { return; }
    var tag = e.target && e.target.tagName;
    if (tag === "SELECT" || tag === "INPUT" || tag === "TEXTAREA") { return; }
    switch (e.key) {
      case "ArrowRight": pause(); go(step + 1); break;
      case "ArrowLeft": pause(); go(step - 1); break;
      case "Home": pause(); go(0); break;
      case "End": pause(); go(n); break;
      case " ": case "Spacebar":
        if (tag === "BUTTON") { return; } /* a focused button takes Space itself */
        toggle(); break;
      default: return;
    }
    e.preventDefault();
  });

  go(0);
  document.body.setAttribute("data-ready", "true");
})();
"""
