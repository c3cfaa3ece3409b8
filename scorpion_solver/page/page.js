// A Scorpion game page: draws the positions embedded by scorpion_solver.page (computed by the
// reference engine) and steps through them. It never plays a move itself.
(function () {
  "use strict";
  var DATA = JSON.parse(document.getElementById("page-data").textContent);
  var CARDS = window.ScorpionCards;  // cards.js: the card drawing this page shares with the game
  var SYMBOL = CARDS.SYMBOL;
  var SUIT_NAME = CARDS.SUIT_NAME;
  var SUITS = "CSHD";
  var UNKNOWN = "??";
  var steps = DATA.line.steps;
  var last = steps.length - 1;
  var choices = DATA.choices || null;
  var view = { step: 0, choice: null, peek: false };

  var el = CARDS.el;
  function cardWords(card) { return card === UNKNOWN ? "?" : CARDS.short(card); }

  function face(card, extra) {
    var node = CARDS.face(card, extra);
    node.title = cardWords(card);
    return node;
  }
  function back(card, extra) {
    var unknown = card === UNKNOWN;
    var node = el("div", "card back" + (unknown ? " unknown" : "") + (extra ? " " + extra : ""));
    node.dataset.card = card;
    if (unknown) {
      node.appendChild(el("span", "q", "?"));
      node.title = "an unknown card";
    } else if (view.peek) {
      node.appendChild(el("span", "corner", cardWords(card)));
      node.title = cardWords(card) + " (face down)";
    } else {
      node.title = "a face-down card";
    }
    return node;
  }
  function place(node, down, up, clear) { return CARDS.place(node, down, up, clear); }

  // What is drawn now: a step of the line, or a choice tried at the choices' step.
  function current() {
    if (view.choice !== null) {
      var option = choices.options[view.choice];
      return { position: option.position, move: option.effect, option: option };
    }
    return { position: steps[view.step].position, move: steps[view.step].move, option: null };
  }

  function drawBoard(position, move) {
    var board = document.getElementById("board");
    board.textContent = "";
    var group = {};
    var flips = {};
    var sweepsAt = {};
    if (move) {
      move.group.forEach(function (c) { group[c] = true; });
      move.flips.forEach(function (f) { flips[f[0] + ":" + f[1]] = true; });
      move.sweeps.forEach(function (s) { (sweepsAt[s[0]] = sweepsAt[s[0]] || []).push(s[1]); });
    }
    var frozen = {};
    position.frozen.forEach(function (f) {
      for (var k = f[1]; k < f[1] + 13; k++) frozen[f[0] + ":" + k] = k === f[1] ? "frozen run-king" : "frozen";
    });
    var extents = [];
    for (var i = 0; i < 7; i++) {
      var col = position.columns[i];
      var down = position.down[i];
      var column = el("div", "column");
      column.dataset.column = i + 1;
      column.appendChild(el("div", "number", String(i + 1)));
      var stack = el("div", "stack");
      var base = el("div", "base");
      stack.appendChild(base);
      var ghosts = move && move.src === i ? move.group.length : 0;
      var marks = (sweepsAt[i] || []).length;
      extents.push([down, Math.max(0, col.length - down) + ghosts + marks]);
      var d = 0, u = 0;  // face-down and face-up cards drawn so far
      for (var j = 0; j < col.length; j++) {
        var card = col[j];
        var isDst = move && move.dst.indexOf(i) >= 0;
        var cls = [];
        if (isDst && group[card]) cls.push(card === move.group[0] || move.src === null ? "moved lead" : "moved");
        if (flips[i + ":" + j]) cls.push("flipped");
        if (frozen[i + ":" + j]) cls.push(frozen[i + ":" + j]);
        var node = j < down || card === UNKNOWN ? back(card, cls.join(" ")) : face(card, cls.join(" "));
        stack.appendChild(place(node, d, u));
        if (j < down) d++; else u++;
      }
      var dLast = u > 0 ? d : d - 1, uLast = u > 0 ? u - 1 : 0;  // the top card's place
      var extras = ghosts + marks;
      var clear = col.length > 0 && extras > 0;  // marks go below the top card, covering nothing
      if (clear) extents[i][1] += 3;  // the top card's whole face, then the marks
      var dMark = clear ? dLast : 0, uMark = clear ? uLast + 1 : 0;
      for (var g = 0; g < ghosts; g++) {
        var ghost = el("div", "ghost");
        ghost.appendChild(el("span", "corner", cardWords(move.group[g])));
        ghost.title = "moved away: " + cardWords(move.group[g]);
        stack.appendChild(place(ghost, dMark, uMark + g, clear));
      }
      (sweepsAt[i] || []).forEach(function (suit, k) {
        var mark = el("div", "ghost sweep");
        mark.appendChild(el("span", "corner", "K\u2013A " + SYMBOL[suit] + " swept"));
        mark.dataset.swept = suit;
        stack.appendChild(place(mark, dMark, uMark + ghosts + k, clear));
      });
      var height = "var(--ch)";
      if (extras || col.length) {
        var dEnd = extras ? dMark : dLast, uEnd = extras ? uMark + extras - 1 : uLast;
        height = CARDS.stackHeight(dEnd, uEnd, clear ? "var(--ch) - var(--cw) * var(--up-step) + 4px" : "");
      }
      stack.style.height = height;
      column.appendChild(stack);
      board.appendChild(column);
    }
    CARDS.fit(board, extents);
  }

  function drawTail(position, move) {
    var tail = document.getElementById("tail");
    tail.textContent = "";
    tail.appendChild(el("span", "label", "tail"));
    if (position.tail.length) {
      position.tail.forEach(function (card) {
        var slot = el("div", "slot small");
        slot.appendChild(back(card));
        tail.appendChild(slot);
      });
    } else if (move && move.src === null) {
      move.group.forEach(function (card) {
        var slot = el("div", "slot small ghost");
        slot.appendChild(el("span", "corner", cardWords(card)));
        tail.appendChild(slot);
      });
    } else {
      tail.appendChild(el("span", "label", "dealt"));
    }
  }

  function drawFoundations(position, move) {
    var found = document.getElementById("foundations");
    found.textContent = "";
    var fresh = {};
    if (move) move.sweeps.forEach(function (s) { fresh[s[1]] = true; });
    for (var k = 0; k < 4; k++) {
      var suit = SUITS[k];
      var slot = el("div", "slot" + (fresh[suit] ? " new-sweep" : ""));
      slot.dataset.suit = suit;
      if (position.swept.indexOf(suit) >= 0) {
        slot.appendChild(face("K" + suit, "foundation"));
        slot.title = "the " + SUIT_NAME[suit] + " run is swept";
      } else {
        slot.appendChild(el("span", "suit", SYMBOL[suit]));
      }
      found.appendChild(slot);
    }
  }

  function stateText(position) {
    if (position.state === "won") return position.swept.length === 4 ? "won: all four runs swept" : "won: all four runs complete";
    if (position.state === "lost") return "lost: no legal move is left";
    return "";
  }

  function drawCaption(cur) {
    var caption = document.getElementById("caption");
    caption.textContent = "";
    var counter = document.getElementById("counter");
    counter.textContent = last ? "move " + view.step + " of " + last : "no moves to step";
    if (cur.option) {
      caption.appendChild(el("span", "notation", cur.option.move));
      caption.appendChild(document.createTextNode(
        " tried " + (choices.at ? "after move " + choices.at : "at the start") + ": " + cur.move.description + ". "));
      caption.appendChild(el("strong", null, optionSummary(cur.option)));
      return;
    }
    if (!cur.move) {
      caption.appendChild(el("span", "notation", "start"));
      caption.appendChild(document.createTextNode(
        last ? " the position before the first move; press \u2192 or Next to play it" : " the position"));
      return;
    }
    caption.appendChild(el("span", "notation", view.step + ". " + cur.move.text));
    caption.appendChild(document.createTextNode(" " + cur.move.description + " "));
    caption.appendChild(el("span", "tag moved", "moved"));
    if (cur.move.flips.length) caption.appendChild(el("span", "tag flipped", "flipped"));
    if (cur.move.sweeps.length) caption.appendChild(el("span", "tag swept", "swept"));
    if (cur.move.frozen.length) caption.appendChild(el("span", "tag frozen", "frozen"));
  }

  function pct(x) { return (100 * x).toFixed(x > 0 && x < 0.1 ? 1 : 0) + "%"; }
  function optionSummary(option) {
    if (choices.kind === "share") {
      var text = pct(option.share) + " of layouts keep it winnable";
      if (option.interval) text += " (95%: " + pct(option.interval[0]) + "\u2013" + pct(option.interval[1]);
      if (option.samples) text += (option.interval ? ", " : " (") + option.samples + " samples";
      if (option.interval || option.samples) text += ")";
      return text;
    }
    var word = option.verdict === "winnable" ? "keeps it winnable" : option.verdict === "lost" ? "loses" : "unknown";
    return option.detail ? word + ": " + option.detail : word;
  }

  // Scroll the move list itself (never the page) so that the current move shows.
  function keepInSight(list, item) {
    var top = item.offsetTop, bottom = top + item.offsetHeight;
    if (top < list.scrollTop) list.scrollTop = top - 4;
    else if (bottom > list.scrollTop + list.clientHeight) list.scrollTop = bottom - list.clientHeight + 4;
  }

  function drawMoves() {
    var list = document.querySelector("#moves ol");
    if (!list) return;
    list.querySelectorAll("button").forEach(function (b) {
      var current = Number(b.dataset.step) === view.step && view.choice === null;
      b.classList.toggle("current", current);
      b.setAttribute("aria-current", current ? "step" : "false");
      if (current) keepInSight(list, b);
    });
  }

  function drawChoices() {
    if (!choices) return;
    document.querySelectorAll("#choices li button").forEach(function (b) {
      b.setAttribute("aria-pressed", Number(b.dataset.option) === view.choice ? "true" : "false");
    });
    var backButton = document.querySelector("#choices button.back");
    backButton.hidden = view.choice === null;
  }

  function countCards() {
    return document.querySelectorAll("#board .card").length;
  }

  function render() {
    var cur = current();
    drawTail(cur.position, cur.move);
    drawFoundations(cur.position, cur.move);
    drawBoard(cur.position, cur.move);
    drawCaption(cur);
    drawMoves();
    drawChoices();
    document.getElementById("state-banner").textContent = stateText(cur.position);
    document.getElementById("first").disabled = document.getElementById("prev").disabled =
      view.step === 0 && view.choice === null;
    document.getElementById("next").disabled = document.getElementById("last").disabled =
      view.step === last && view.choice === null;
    var body = document.body.dataset;
    body.step = view.step;
    body.choice = view.choice === null ? "" : choices.options[view.choice].move;
    body.state = cur.position.state;
    body.cards = countCards();
    body.tail = cur.position.tail.length;
    body.swept = cur.position.swept.join("");
    if (history.replaceState && buildMoves.ready) {
      history.replaceState(null, "", "#step=" + view.step + (view.choice === null ? "" : "&choice=" + view.choice));
    }
  }

  function go(step) {
    view.choice = null;
    view.step = Math.max(0, Math.min(last, step));
    render();
  }
  function choose(index) {
    if (!choices) return;
    if (view.choice === index) { view.choice = null; } else { view.step = choices.at; view.choice = index; }
    render();
  }
  function next() { if (view.choice !== null) { go(view.step); } else { go(view.step + 1); } }
  function prev() { if (view.choice !== null) { go(view.step); } else { go(view.step - 1); } }

  function buildMoves() {
    var section = document.getElementById("moves");
    if (!last) {  // nothing to step through: no move list, no step buttons
      section.hidden = true;
      ["first", "prev", "next", "last"].forEach(function (id) { document.getElementById(id).hidden = true; });
      return;
    }
    section.querySelector("h2").textContent = DATA.line.label + " (" + last + " move" + (last === 1 ? "" : "s") + ")";
    var list = section.querySelector("ol");
    for (var k = 0; k <= last; k++) {
      var item = el("li");
      var button = el("button");
      button.type = "button";
      button.dataset.step = k;
      if (k === 0) {
        button.textContent = "start";
      } else {
        button.appendChild(el("span", "n", String(k)));
        button.appendChild(document.createTextNode(steps[k].move.text));
      }
      button.addEventListener("click", go.bind(null, k));
      item.appendChild(button);
      list.appendChild(item);
    }
  }

  function buildChoices() {
    var section = document.getElementById("choices");
    if (!choices) { section.hidden = true; return; }
    section.querySelector("h2").textContent = choices.title;
    var head = section.querySelector(".head");
    head.textContent = "";
    if (choices.reason) head.appendChild(el("span", "verdict-" + choices.status, choices.reason + ". "));
    head.appendChild(document.createTextNode(
      "The legal moves " + (choices.at ? "after move " + choices.at : "of the start") + ", " +
      (choices.kind === "share" ? "each with the share of sampled layouts in which it keeps the game winnable"
        : "each with its verdict") + "; choose one to see the position after it."));
    var list = section.querySelector("ul");
    choices.options.forEach(function (option, index) {
      var item = el("li");
      var button = el("button");
      button.type = "button";
      button.dataset.option = index;
      button.appendChild(el("span", "mv", option.move));
      if (choices.kind === "share") {
        var share = el("span", "share");
        var bar = el("span", "bar");
        var fill = el("span", "fill");
        fill.style.width = pct(option.share);
        bar.appendChild(fill);
        if (option.interval) {
          var ci = el("span", "ci");
          ci.style.left = pct(option.interval[0]);
          ci.style.width = pct(option.interval[1] - option.interval[0]);
          bar.appendChild(ci);
        }
        share.appendChild(bar);
        share.appendChild(el("span", null, optionSummary(option)));
        button.appendChild(share);
      } else {
        button.appendChild(el("span", "badge " + option.verdict,
          option.verdict === "winnable" ? "keeps it winnable" : option.verdict === "lost" ? "loses" : "unknown"));
        button.appendChild(el("span", "detail", option.detail));
      }
      button.addEventListener("click", choose.bind(null, index));
      item.appendChild(button);
      list.appendChild(item);
    });
    section.querySelector("button.back").addEventListener("click", function () { go(choices.at); });
  }

  function buildHeader() {
    document.getElementById("title").textContent = DATA.title.replace(/ \([^)]*\)$/, "");
    document.getElementById("rules-name").textContent = DATA.rules.name;
    document.getElementById("summary").textContent = "Rules " + DATA.rules.name + ": " + DATA.rules.summary + ".";
    var verdict = document.getElementById("verdict");
    if (DATA.verdict) {
      verdict.className = "verdict-" + DATA.verdict.status;
      verdict.textContent = DATA.verdict.text;
    } else {
      verdict.hidden = true;
    }
    document.getElementById("command").textContent = DATA.command || "(not recorded)";
    document.getElementById("generator").textContent = DATA.generator || "";
  }

  // Open at the step the address names (#step=N, #step=N&choice=K), else where the choices are.
  function fromFragment() {
    if (choices) view.step = choices.at;
    var match = /step=(\d+)/.exec(location.hash);
    if (match) view.step = Math.min(last, Number(match[1]));
    var option = /choice=(\d+)/.exec(location.hash);
    if (option && choices && Number(option[1]) < choices.options.length) {
      view.step = choices.at;
      view.choice = Number(option[1]);
    }
  }

  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    var handled = true;
    if (event.key === "ArrowRight") next();
    else if (event.key === "ArrowLeft") prev();
    else if (event.key === "Home") go(0);
    else if (event.key === "End") go(last);
    else handled = false;
    if (handled) event.preventDefault();
  });
  document.getElementById("first").addEventListener("click", function () { go(0); });
  document.getElementById("prev").addEventListener("click", prev);
  document.getElementById("next").addEventListener("click", next);
  document.getElementById("last").addEventListener("click", function () { go(last); });
  var peekBox = document.getElementById("peek");  // absent where no face-down card is known to the page
  if (peekBox) {
    peekBox.addEventListener("change", function (event) {
      view.peek = event.target.checked;
      render();
    });
  }

  buildHeader();
  buildMoves();
  buildChoices();
  fromFragment();
  render();
  buildMoves.ready = true;

  // The page's own state, for a person in the console and for the browser test.
  window.scorpionPage = {
    data: DATA,
    go: go,
    choose: choose,
    state: function () {
      var cur = current();
      return {
        step: view.step,
        last: last,
        choice: view.choice === null ? null : choices.options[view.choice].move,
        move: cur.move ? cur.move.text : null,
        state: cur.position.state,
        cardsDrawn: countCards(),
        unknownDrawn: document.querySelectorAll("#board .card.unknown, #tail .card.unknown").length,
        movedDrawn: document.querySelectorAll("#board .card.moved").length,
        ghostsDrawn: document.querySelectorAll("#board .ghost:not(.sweep)").length,
        sweepsDrawn: document.querySelectorAll("#board .ghost.sweep").length,
        flipsDrawn: document.querySelectorAll("#board .card.flipped").length,
        tail: cur.position.tail.length,
        swept: cur.position.swept.slice(),
        caption: document.getElementById("caption").textContent
      };
    }
  };
})();
