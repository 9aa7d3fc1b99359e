"""The style sheet and the script of the replay page (see :mod:`bakersdozen.replay`).

Each begins with the card renderer that the play page shares
(:mod:`bakersdozen._render_assets`), followed by what only the replay
page does (its controls, the move list, playback).  Both go inline into
the page and are allowed there by their SHA-256 hashes in its
Content-Security-Policy.  Neither may name any URL, nor contain
``//`` (the tests refuse it, so the script uses only ``/* */`` comments).
"""

from __future__ import annotations

from typing import Final

from ._render_assets import CARD_CSS, RENDER_SCRIPT

__all__ = ["CSS", "SCRIPT"]

CSS: Final = CARD_CSS + """
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
@media (max-width: 800px) {
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

SCRIPT: Final = RENDER_SCRIPT + r"""
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("replay-data").textContent);
  var R = BDRender, sym = R.sym, notation = R.notation, el = R.el;
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

  var played = R.replay(data), states = played.states, units = played.units;
  function describe(k) { return R.describe(data, states, units, k); }
  var fr = R.frame(data, tableau, foundations);

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
    R.draw(fr, data, s, m);
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
