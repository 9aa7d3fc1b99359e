"""The play page's style sheet and script (see :mod:`bakersdozen.play.page`).

Each begins with the card renderer the replay page uses
(:mod:`bakersdozen._render_assets`).  Both go inline into the page and are
allowed there by their SHA-256 hashes; neither names a URL of another host,
nor contains ``//`` (so the script uses only ``/* */`` comments).  The
script talks to the server alone (``/api/...``, ``/replay``) and builds the
page with ``textContent`` and ``setAttribute``, never from HTML strings.
"""

from __future__ import annotations

from typing import Final

from .._render_assets import CARD_CSS, RENDER_SCRIPT

__all__ = ["PAGE_CSS", "PAGE_SCRIPT"]

PAGE_CSS: Final = CARD_CSS + """
header { padding: 8px 12px 0; }
h1 { font-size: 1.2rem; margin: 0 0 4px; font-weight: 600; }
h2 { font-size: 1rem; margin: 4px 0; }
#state { margin: 0; min-height: 1.6em; font-size: 1rem; display: flex; gap: 8px; align-items: baseline; flex-wrap: wrap; }
#badge {
  font-weight: 700; border-radius: 4px; padding: 1px 8px; background: #ffffff33; color: #fff;
}
#state[data-status="winnable"] #badge { background: #9be79b; color: var(--ink); }
#state[data-status="won"] #badge { background: var(--glow); color: var(--ink); }
#state[data-status="lost"] #badge { background: #ff8a8a; color: var(--ink); }
#state[data-status="unknown"] #badge { background: #c9c9c9; color: var(--ink); }
#state[data-status="checking"] #badge { background: #ffffff33; }
#message { margin: 4px 0 0; min-height: 1.3em; color: #ffd2d2; font-weight: 600; }
#hinttext { margin: 0 12px; min-height: 1.3em; }
#lostbox { margin: 4px 12px; padding: 6px 10px; background: #00000040; border-radius: 6px; }
#lostbox p { margin: 0 0 6px; }
#controls { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; padding: 8px 12px; }
button, select, input, textarea {
  font: inherit; font-size: 0.95rem; border-radius: 6px; border: 1px solid #0006;
  background: #f4f1e8; color: var(--ink); padding: 5px 10px; min-height: 34px;
}
button { cursor: pointer; }
button:hover { background: #fff; }
button:disabled { opacity: 0.5; cursor: default; }
button:focus-visible, select:focus-visible, input:focus-visible, textarea:focus-visible,
.col:focus-visible, .pile:focus-visible {
  outline: 3px solid var(--glow); outline-offset: 2px;
}
.col, .pile { border-radius: 6px; }
main { display: flex; align-items: flex-start; gap: 12px; padding: 0 12px 12px; }
#side {
  flex: none; width: 250px; background: var(--felt-dark); border-radius: 8px; padding: 6px 8px;
}
#movelist {
  margin: 0; padding: 0 0 0 2.4em; max-height: 30vh; overflow-y: auto; font-size: 0.9rem;
  font-variant-numeric: tabular-nums;
}
#movelist li.lost { background: #ff8a8a; color: var(--ink); border-radius: 3px; }
#newgame { margin-top: 8px; }
#newgame label { display: block; margin: 6px 0 2px; }
#newgame .row { display: flex; gap: 6px; align-items: flex-end; margin: 4px 0; flex-wrap: wrap; }
#newgame input { width: 9em; }
#newgame textarea { width: 100%; font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 0.8rem; }
#keys { font-size: 0.8rem; opacity: 0.85; }
kbd {
  font: inherit; border: 1px solid #ffffff80; border-radius: 3px; padding: 0 4px;
  background: #ffffff1a;
}
.card { cursor: pointer; touch-action: none; user-select: none; }
.card.selected {
  z-index: 3; border-color: #1d4ed8;
  box-shadow: 0 0 0 3px #60a5fa, 0 0 10px 3px #60a5fa;
}
.card.hinted { box-shadow: 0 0 0 3px #c084fc, 0 0 10px 3px #c084fc; z-index: 2; }
.hint-target .label { background: #c084fc; color: var(--ink); opacity: 1; font-weight: 700; }
.card.dragging { pointer-events: none; z-index: 10; opacity: 0.9; }
@media (max-width: 800px) {
  main { flex-direction: column; }
  #board { width: 100%; }
  #side { width: 100%; }
  header, #controls { padding-left: 8px; padding-right: 8px; }
  main { padding: 0 8px 8px; }
  #controls { gap: 4px; }
  button { font-size: 0.88rem; padding: 4px 7px; }
  #keys { display: none; }
}
"""

PAGE_SCRIPT: Final = RENDER_SCRIPT + r"""
(function () {
  "use strict";
  var R = BDRender, el = R.el, sym = R.sym;
  var cfg = JSON.parse(document.getElementById("play-data").textContent);
  function $(id) { return document.getElementById(id); }
  var board = $("board"), tableau = $("tableau"), foundations = $("foundations");

  function randomHex() {
    var a = new Uint32Array(4);
    window.crypto.getRandomValues(a);
    return Array.prototype.map.call(a, function (x) { return x.toString(16); }).join("");
  }
  var client = randomHex();

  var game = null;        /* {game, knobs, deal} or {game, knobs, board} */
  var moves = [], redo = [];
  var view = null;        /* the server's answer to "position" */
  var states = null, units = null;
  var fr = null, frameKey = "";
  var selected = null;    /* {card, source}: source 0 is a foundation */
  var gen = 0;            /* bumps with every position: older answers are dropped */
  var status = null, hint = null;
  var queue = Promise.resolve();

  function api(name, body) {
    return fetch("/api/" + name, {
      method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body), cache: "no-store"
    }).then(function (r) {
      return r.json().then(function (j) { return { code: r.status, body: j }; });
    });
  }
  function request(extra, g, m) {
    g = g || game;
    var o = { game: g.game, knobs: g.knobs || {}, moves: (m || moves).slice(), client: client };
    if (g.deal !== undefined && g.deal !== null) { o.deal = g.deal; } else { o.board = g.board; }
    Object.keys(extra || {}).forEach(function (k) { o[k] = extra[k]; });
    return o;
  }
  function enqueue(task) {
    document.body.setAttribute("data-busy", "1");
    queue = queue.then(task).catch(function (e) { say("Error: " + e); }).then(function () {
      document.body.removeAttribute("data-busy");
    });
    return queue;
  }
  function say(text) { $("message").textContent = text || ""; }

  /* -- the game in the address (it survives a reload) -- */
  var savedHash = "";
  function save() {
    var s = JSON.stringify({ g: game, m: moves, r: redo });
    history.replaceState(null, "", "#" + encodeURIComponent(s));
    savedHash = location.hash;
  }
  function restore() {
    try {
      var h = location.hash.slice(1);
      if (!h) { return null; }
      var s = JSON.parse(decodeURIComponent(h));
      if (!s || typeof s.g !== "object" || !Array.isArray(s.m) || !Array.isArray(s.r)) { return null; }
      return s;
    } catch (e) { return null; }
  }

  /* -- drawing -- */
  function show(answer, g, m, r) {
    gen += 1;
    game = g; moves = m; redo = r; view = answer;
    var played = R.replay(answer.data);
    states = played.states; units = played.units;
    var key = JSON.stringify([g, answer.data.columns.length]);
    if (key !== frameKey) {
      fr = R.frame(answer.data, tableau, foundations);
      frameKey = key;
      fr.cols.concat(fr.piles).forEach(function (e) { e.setAttribute("tabindex", "0"); });
    }
    selected = null; hint = null; status = null;
    redraw();
    var title = answer.title + (g.deal !== undefined && g.deal !== null ? " \u00b7 deal " + g.deal : " \u00b7 a board");
    $("title").textContent = title;
    document.title = "Play " + title;
    var list = $("movelist");
    list.textContent = "";
    answer.data.moves.forEach(function (mv, i) {
      var li = el("li", "", R.notation(mv));
      li.setAttribute("title", R.describe(answer.data, states, units, i + 1));
      li.setAttribute("data-step", String(i + 1));
      list.appendChild(li);
    });
    list.scrollTop = list.scrollHeight;
    $("count").textContent = "(" + moves.length + ")";
    $("undo").disabled = moves.length === 0;
    $("redo").disabled = redo.length === 0;
    $("restart").disabled = moves.length === 0;
    $("gamesel").value = g.game;
    $("hinttext").textContent = "";
    $("playhint").hidden = true;
    $("lostbox").hidden = true;
    document.body.setAttribute("data-moves", String(moves.length));
    save();
    checkStatus();
  }

  function redraw() {
    var k = moves.length, s = states[k], m = k > 0 ? view.data.moves[k - 1] : null;
    R.draw(fr, view.data, s, m);
    units[k].forEach(function (c) {
      var e = board.querySelector('[data-card="' + c + '"]');
      if (e) { e.classList.add("moved"); }
    });
    fr.cols.concat(fr.piles).forEach(function (e) { e.classList.remove("hint-target"); });
    if (selected) {
      selectedEls().forEach(function (e) { e.classList.add("selected"); });
    }
    if (hint) {
      var hm = parseMove(hint);
      var he = hm && board.querySelector('[data-card="' + hm.card + '"]');
      if (he) { he.classList.add("hinted"); }
      var targets = !hm ? [] : hm.target ? [fr.cols[hm.target - 1]] : pilesFor(hm.card);
      targets.forEach(function (t) { if (t) { t.classList.add("hint-target"); } });
    }
  }
  function parseMove(text) {
    var m = /^(\S+) (\w+)>(\w+)$/.exec(text);
    if (!m) { return null; }
    return { card: m[1], source: m[2] === "F" ? 0 : Number(m[2]), target: m[3] === "F" ? 0 : Number(m[3]) };
  }
  function pilesFor(card) {
    /* By suit (piles named Clubs, Diamonds...), the card's suit's pile; otherwise
       the rule picks the pile when the move is played, so every pile is marked. */
    var bySuit = view.data.foundations[0].name === "Clubs";
    return bySuit ? [fr.piles[["C", "D", "H", "S"].indexOf(card.slice(-1))]] : fr.piles.slice();
  }
  function selectedEls() {
    if (!selected) { return []; }
    var host = selected.source ? fr.cols[selected.source - 1] : null;
    if (!host) {
      var top = board.querySelector('#foundations [data-card="' + selected.card + '"]');
      return top ? [top] : [];
    }
    var cards = Array.prototype.slice.call(host.querySelectorAll(".card"));
    var at = cards.map(function (e) { return e.dataset.card; }).indexOf(selected.card);
    return at < 0 ? [] : cards.slice(at);
  }

  /* -- the status -- */
  function limitWords(reason) {
    var l = cfg.limits;
    if (reason === "time_limit") { return "the time limit of " + l.time_limit + " s"; }
    if (reason === "max_nodes") { return "the limit of " + l.max_nodes + " positions"; }
    if (reason === "memory_mb") { return "the memory limit of " + l.memory_mb + " MiB"; }
    return "a limit (" + reason + ")";
  }
  function setStatus(kind, badge, text, lostAt) {
    var st = $("state");
    st.setAttribute("data-status", kind);
    if (lostAt === undefined || lostAt === null) { st.removeAttribute("data-lost-at"); }
    else { st.setAttribute("data-lost-at", String(lostAt)); }
    $("badge").textContent = badge;
    $("statetext").textContent = text;
  }
  function showStatus(a) {
    status = a;
    Array.prototype.forEach.call(document.querySelectorAll("#movelist li.lost"), function (li) {
      li.classList.remove("lost");
    });
    $("solution").disabled = !(a.status === "winnable" && a.line && a.line.length);
    $("wherelost").hidden = !(a.status === "lost" && a.lost_at);
    if (a.status === "won") {
      setStatus("won", "Won", "every card is home, in " + moves.length + " moves");
    } else if (a.status === "winnable") {
      setStatus("winnable", "Winnable", "a winning line of " + a.line.length +
        " moves exists from here (found by the engine, checked by the replay)");
    } else if (a.status === "lost") {
      var dead = a.deadlock && a.deadlock.length ?
        "; " + a.deadlock.map(sym).join(" ") + " can never move" : "";
      if (a.lost_at === 0) {
        setStatus("lost", "Lost", "this deal has no winning line at all (proven)" + dead, 0);
      } else if (a.lost_at) {
        setStatus("lost", "Lost", "no winning line since move " + a.lost_at + " (" + a.lost_move +
          "), proven" + dead, a.lost_at);
        var li = $("movelist").children[a.lost_at - 1];
        if (li) { li.classList.add("lost"); }
      } else {
        setStatus("lost", "Lost", "no winning line from here (proven); the losing move is one of moves " +
          a.lost_range[0] + "\u2013" + a.lost_range[1] + " (a limit stopped the search for it)" + dead);
      }
    } else {
      setStatus("unknown", "Unknown", limitWords(a.reason) + " stopped the search before a winning line or a proof");
    }
  }
  function poll(name, extra, my, done) {
    api(name, request(extra)).then(function (res) {
      if (my !== gen) { return; }
      if (res.code === 202) { setTimeout(function () { poll(name, extra, my, done); }, 100); return; }
      done(res);
    }, function () {
      if (my === gen) { setStatus("error", "Offline", "the server cannot be reached"); }
    });
  }
  function checkStatus() {
    var my = gen;
    setStatus("checking", "Checking\u2026", "is there still a winning line? (at most " +
      cfg.limits.time_limit + " s)");
    poll("status", {}, my, function (res) {
      if (res.code !== 200) { setStatus("error", "Error", res.body.error); return; }
      showStatus(res.body);
    });
  }

  /* -- changing the game -- */
  function goTo(g, m, r, onError) {
    return api("position", request({}, g, m)).then(function (res) {
      if (res.code === 200) {
        say("");
        if (g.board !== undefined) { g = { game: g.game, knobs: g.knobs, board: res.body.board }; }
        show(res.body, g, m, r);
        return true;
      }
      if (onError) { onError(res); } else { say(res.body.error); }
      return false;
    });
  }
  function tryMove(text) {
    enqueue(function () {
      return goTo(game, moves.concat([text]), [], function (res) {
        say("Illegal: " + (res.body.reason || res.body.error));
        redraw();
      });
    });
  }
  function undo() {
    if (!moves.length) { return; }
    enqueue(function () { return goTo(game, moves.slice(0, -1), redo.concat([moves[moves.length - 1]])); });
  }
  function redoMove() {
    if (!redo.length) { return; }
    enqueue(function () { return goTo(game, moves.concat([redo[redo.length - 1]]), redo.slice(0, -1)); });
  }
  function restart() {
    if (!moves.length) { return; }
    enqueue(function () { return goTo(game, [], redo.concat(moves.slice().reverse())); });
  }
  function newGame(g) {
    enqueue(function () { return goTo(g, [], []); });
  }

  /* -- picking up and putting down -- */
  function pick(card, source) {
    selected = { card: card, source: source };
    say("");
    redraw();
  }
  function letGo() {
    if (selected) { selected = null; redraw(); }
  }
  function drop(target) {
    if (!selected) { return; }
    var s = selected;
    selected = null;
    if (s.source === target) { redraw(); return; }
    tryMove(s.card + " " + (s.source || "F") + ">" + (target || "F"));
  }
  function slotOf(e) {
    var col = e.closest && e.closest(".col");
    if (col) { return Number(col.dataset.column); }
    return e.closest && e.closest(".pile") ? 0 : null;
  }

  var suppressClick = false;
  board.addEventListener("click", function (e) {
    if (suppressClick) { suppressClick = false; return; }
    var target = slotOf(e.target);
    if (target === null) { letGo(); return; }
    var cardEl = e.target.closest(".card");
    if (selected) {
      if (cardEl && cardEl.dataset.card === selected.card) { letGo(); return; }
      drop(target);
      return;
    }
    if (cardEl) { pick(cardEl.dataset.card, target); }
  });

  /* Dragging: the card (and the cards above it) follow the pointer. */
  var drag = null;
  board.addEventListener("pointerdown", function (e) {
    var cardEl = e.target.closest(".card");
    if (!cardEl || e.button !== 0) { return; }
    drag = { card: cardEl.dataset.card, source: slotOf(cardEl), x: e.clientX, y: e.clientY, on: false, els: [] };
  });
  document.addEventListener("pointermove", function (e) {
    if (!drag) { return; }
    var dx = e.clientX - drag.x, dy = e.clientY - drag.y;
    if (!drag.on) {
      if (Math.abs(dx) + Math.abs(dy) < 8) { return; }
      drag.on = true;
      pick(drag.card, drag.source);
      drag.els = selectedEls();
      drag.els.forEach(function (x) { x.classList.add("dragging"); });
    }
    drag.els.forEach(function (x) { x.style.transform = "translate(" + dx + "px, " + dy + "px)"; });
  });
  document.addEventListener("pointerup", function (e) {
    if (!drag) { return; }
    var d = drag;
    drag = null;
    if (!d.on) { return; }
    suppressClick = true;
    setTimeout(function () { suppressClick = false; }, 0);
    d.els.forEach(function (x) { x.style.transform = ""; x.classList.remove("dragging"); });
    var under = document.elementFromPoint(e.clientX, e.clientY);
    var target = under ? slotOf(under) : null;
    if (target === null) { letGo(); } else { drop(target); }
  });
  document.addEventListener("pointercancel", function () {
    if (drag) { drag.els.forEach(function (x) { x.style.transform = ""; x.classList.remove("dragging"); }); drag = null; letGo(); }
  });

  /* Keyboard play: columns and foundations take the focus. */
  function slots() { return fr ? fr.cols.concat(fr.piles) : []; }
  function focusSlot(step) {
    var all = slots(), at = all.indexOf(document.activeElement);
    var next = at < 0 ? 0 : (at + step + all.length) % all.length;
    if (all[next]) { all[next].focus(); }
  }
  function activate(slotEl) {
    var isCol = slotEl.classList.contains("col");
    var target = isCol ? Number(slotEl.dataset.column) : 0;
    if (selected) { drop(target); return; }
    var cards = slotEl.querySelectorAll(".card");
    if (cards.length) { pick(cards[cards.length - 1].dataset.card, target); }
  }
  function deeper(step) {
    if (!selected || !selected.source) { return; }
    var cards = states[moves.length].cols[selected.source - 1], at = cards.indexOf(selected.card);
    var next = at - step;
    if (next >= 0 && next < cards.length) { pick(cards[next], selected.source); }
  }
  document.addEventListener("keydown", function (e) {
    var tag = e.target && e.target.tagName;
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") { return; }
    var onSlot = e.target && e.target.classList && (e.target.classList.contains("col") || e.target.classList.contains("pile"));
    var key = e.key;
    if ((e.ctrlKey || e.metaKey) && (key === "z" || key === "Z")) { undo(); e.preventDefault(); return; }
    if ((e.ctrlKey || e.metaKey) && (key === "y" || key === "Y")) { redoMove(); e.preventDefault(); return; }
    if (e.altKey || e.ctrlKey || e.metaKey) { return; }
    switch (key) {
      case "ArrowRight": focusSlot(1); break;
      case "ArrowLeft": focusSlot(-1); break;
      case "ArrowUp": deeper(1); break;
      case "ArrowDown": deeper(-1); break;
      case "Enter": case " ": case "Spacebar":
        if (!onSlot) { return; }
        activate(e.target); break;
      case "f": case "F":
        if (selected) { drop(0); } else if (fr && fr.piles[0]) { fr.piles[0].focus(); }
        break;
      case "Escape": letGo(); break;
      case "u": case "U": undo(); break;
      case "r": case "R": redoMove(); break;
      case "h": case "H": askHint(); break;
      default: return;
    }
    e.preventDefault();
  });

  /* -- hint, solution, where it was lost -- */
  function askHint() {
    var my = gen;
    $("hinttext").textContent = "Looking for a hint\u2026";
    poll("hint", {}, my, function (res) {
      var a = res.body;
      $("playhint").hidden = true;
      if (res.code !== 200) { $("hinttext").textContent = a.error; return; }
      if (a.verdict === "solved" && a.hint) {
        hint = a.hint;
        var hm = parseMove(a.hint);
        $("hinttext").textContent = "Hint: " + a.hint + " \u00b7 " + sym(hm.card) + (hm.source ? " from column " + hm.source : " from its foundation") +
          (hm.target ? " to column " + hm.target : " to the foundation");
        $("hinttext").setAttribute("data-hint", a.hint);
        $("playhint").hidden = false;
        redraw();
      } else if (a.verdict === "solved") {
        $("hinttext").textContent = "Nothing left to play: the game is won.";
      } else if (a.verdict === "unsolvable") {
        $("hinttext").textContent = "No hint: no winning line from here (proven).";
      } else {
        $("hinttext").textContent = "No hint: " + limitWords(a.reason) + " stopped the search.";
      }
    });
  }
  $("hint").addEventListener("click", askHint);
  $("playhint").addEventListener("click", function () { if (hint) { tryMove(hint); } });
  $("undo").addEventListener("click", undo);
  $("redo").addEventListener("click", redoMove);
  $("restart").addEventListener("click", restart);
  $("solution").addEventListener("click", function () {
    if (!status || !status.line || !status.line.length) { return; }
    var r = { game: game.game, knobs: game.knobs || {}, board: view.position, moves: status.line,
      title: $("title").textContent + ": a winning line after move " + moves.length };
    location.assign("/replay?r=" + encodeURIComponent(JSON.stringify(r)));
  });
  $("wherelost").addEventListener("click", function () {
    if (!status || !status.lost_at) { return; }
    var k = status.lost_at, alt = status.alternative || [];
    $("losttext").textContent = "Lost at move " + k + ": " + status.lost_move +
      " (after it no winning line is left: proven). A winning alternative at move " + k + ": " +
      (alt[0] || "?") + ", the first of a winning line of " + alt.length + " moves.";
    $("lostbox").hidden = false;
    $("lostbox").setAttribute("data-lost-at", String(k));
    $("lostbox").setAttribute("data-alternative", alt[0] || "");
  });
  $("backtolost").addEventListener("click", function () {
    if (!status || !status.lost_at) { return; }
    var k = status.lost_at;
    enqueue(function () { return goTo(game, moves.slice(0, k - 1), redo.concat(moves.slice(k - 1).reverse())); });
  });

  /* -- new games -- */
  var select = $("gamesel");
  cfg.presets.forEach(function (p) {
    var o = el("option", "", p.title);
    o.value = p.name;
    select.appendChild(o);
  });
  function chosen() {
    var name = select.value;
    return { game: name, knobs: game && game.game === name ? (game.knobs || {}) : {} };
  }
  $("dealbtn").addEventListener("click", function () {
    var n = Number($("dealno").value);
    if (!Number.isSafeInteger(n) || n < 1) { say("A deal number is a whole number from 1."); return; }
    var g = chosen();
    g.deal = n;
    newGame(g);
  });
  $("boardbtn").addEventListener("click", function () {
    var g = chosen();
    g.board = $("boardtext").value;
    newGame(g);
  });
  $("randombtn").addEventListener("click", function () {
    var g = chosen(), nonce = randomHex(), my = gen;
    say("Looking for a winnable deal\u2026");
    poll("random", { game: g.game, knobs: g.knobs, nonce: nonce }, my, function (res) {
      if (res.code !== 200 || !res.body.deal) { say(res.body.error || res.body.error_text); return; }
      g.deal = res.body.deal;
      newGame(g);
    });
  });

  /* An address with another game typed or pasted in: play that game. */
  window.addEventListener("hashchange", function () {
    if (location.hash === savedHash) { return; }
    var wanted = restore();
    if (wanted) {
      enqueue(function () { return goTo(wanted.g, wanted.m, wanted.r); });
    }
  });

  /* -- start: the game in the address, else the server's -- */
  var saved = restore();
  enqueue(function () {
    var first = saved ? goTo(saved.g, saved.m, saved.r, function () { return null; }) : Promise.resolve(false);
    return first.then(function (ok) {
      return ok ? true : goTo(cfg.start, [], []);
    }).then(function () { document.body.setAttribute("data-ready", "true"); });
  });
})();
"""
