// The board of `scorpion serve`: draws the player's view the server sends (never a hidden card: the
// server does not send them) and sends the player's moves. The server holds the game and checks every
// move; this script only knows what the STATE says (docs/serve.md, scorpion_solver/serve/API.md).
// Moves: click or tap a card then a column, drag a card, or the keyboard (arrow keys, Enter, Escape).
(function () {
  "use strict";
  var CARDS = window.ScorpionCards;  // /static/cards.js: the card drawing shared with `scorpion show`
  var el = CARDS.el;
  var SUITS = "CSHD";
  var FAIR_SAMPLES = 30;
  var DRAG_START = 6;  // px the pointer travels before a press becomes a drag

  var match = /\/game\/([A-Za-z0-9_-]+)/.exec(location.pathname);
  var gameId = match ? match[1] : null;  // the game's public id: a random token
  // a lesson's page (serve/lessons.py) names its own API, and asks the server why a move is refused
  var api = document.body.dataset.api || "/api/games/" + gameId;
  var askServer = !!document.body.dataset.api;

  var game = null;          // the last STATE the server sent
  var picked = null;        // {col, idx, card}: the card picked up (with everything on it)
  var focusAt = { col: 0, idx: -1 };  // the keyboard focus: column (0-based; "r" the reserve), card index (-1: the column)
  var hint = null;          // {version, data}: the fair hint of that version
  var hintRequest = null;   // {version, controller} of the fair hint being computed
  var suggestion = null;    // a move to show on the board (the analysis' alternative, the line's next move)
  var line = null;          // {version, moves, at}: the solver's winning line being stepped through
  var queue = Promise.resolve();  // game-changing requests run one after another
  var busy = 0;             // solver requests running (the spinner)
  var justDragged = false;  // a drag ends with a click event that must not count as a click

  // ---- talking to the server -------------------------------------------------------------------

  function send(path, body, signal) {
    return fetch(path, {
      method: body === undefined ? "GET" : "POST",
      headers: body === undefined ? {} : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: signal
    }).then(function (response) {
      return response.json().catch(function () { return { error: "the server sent no JSON" }; })
        .then(function (data) { return { ok: response.ok, status: response.status, data: data }; });
    });
  }

  // A request that changes the game: queued behind the previous one, sent with the version then current.
  function change(path, body, describe) {
    queue = queue.then(function () {
      var payload = Object.assign({ version: game.version }, body || {});
      return send(api + path, payload).then(function (answer) {
        if (answer.ok) {
          adopt(answer.data.game, describe);
        } else if (answer.data.game) {  // 409: another tab moved first; show where the game is now
          adopt(answer.data.game);
          say(answer.data.error || "the game changed: here is its current position", true);
        } else {
          say(answer.data.error || "the server refused that (" + answer.status + ")", true, ruleLink(answer.data));
          document.dispatchEvent(new CustomEvent("scorpion:refused", { detail: answer.data }));
        }
      }).catch(function () { say("the server did not answer: is `scorpion serve` still running?", true); });
    });
    return queue;
  }

  function adopt(state, describe) {
    var before = game;
    game = state;
    if (!before || before.version !== state.version) {
      if (hintRequest && hintRequest.version !== state.version) {  // the player moved past it: drop it
        hintRequest.controller.abort();
        hintRequest = null;
      }
      if (line && line.version !== state.version) line = null;
      suggestion = suggestion && suggestion.version === state.version ? suggestion : null;
      clearPeekAnswers();  // they spoke of the position the player has left
    }
    picked = null;
    render();
    var words = describe ? describe(state, before) : "";
    if (state.status === "won") words += (words ? " " : "") + "You won: " + wonWords(state) + ".";
    else if (state.status === "lost") words += (words ? " " : "") + "Lost: no legal move remains.";
    if (words) say(words);
  }

  // The peeking answers and the analysis are about one position: gone once the game moves.
  function clearPeekAnswers() {
    var winnable = document.getElementById("winnable-answer");
    winnable.textContent = "";
    winnable.className = "";
    document.getElementById("thoughtful-list").textContent = "";
    if (!line) document.getElementById("line-list").textContent = "";
    document.getElementById("analysis").textContent = "";
    document.getElementById("try-alternative").hidden = true;
    alternative = null;
  }

  // ---- words -------------------------------------------------------------------------------------

  // `link`: a link to put after the words (a refusal's rule on the rules page)
  function say(text, error, link) {
    text = readable(text);
    var region = document.getElementById("announce");
    region.classList.toggle("error", !!error);
    // the same words twice in a row are still announced: clear first, then set. Other words are set at once:
    // the region lies above the table, so each change of its height moves and repaints the whole board.
    var show = function () {
      region.textContent = text;
      if (link) { region.appendChild(document.createTextNode(" ")); region.appendChild(link); }
    };
    if (region.dataset.text === text) {
      region.textContent = "";
      window.setTimeout(show, 20);
    } else {
      show();
    }
    region.dataset.text = text;
  }

  // A refused move's rule (game/refusals.py) on the rules page, in the part of the game's rules that says it
  // (the server names the section: serve/games.py); none on a lesson's page, whose panel links it.
  function ruleLink(data) {
    if (!data.rule || !data.section || askServer) return null;
    var link = el("a", "rule-link", "the rule (" + data.rule + ")");
    link.href = "/rules#" + data.section;
    return link;
  }

  function gameName(state) { return (state.rules && state.rules.name) || state.mode; }

  // The win, in the game's words: the runs swept, or (runs left on the table: Goodsol) every suit built.
  function wonWords(state) {
    var rules = state.rules || {};
    var runs = 4 * (rules.decks || 1);
    if (rules.runs === "left" || rules.runs === "frozen") return "every suit lies built, King to Ace";
    return "all " + (runs === 8 ? "eight" : "four") + " runs are complete";
  }

  var MOVE = /^(\w\w)(\+?):(\d+|r)>(\d+)$/;  // 6C:5>2, 2H:r>5 (a reserve card), 6C+:5>2 (the upper copy)

  function moveWords(text) {
    if (text === "tail") return "dealt the tail onto columns 1 to " + ((game && game.rules && game.rules.tail_size) || 3);
    var m = MOVE.exec(text);
    if (!m) return text;
    return (m[2] ? "the upper " : "") + CARDS.cardName(m[1]) + (m[3] === "r" ? " from the reserve" : " from column " + m[3]) +
      " to column " + m[4];
  }

  // A move as a player reads it in a list: "10\u2663 5\u21922" for TC:5>2 (moveWords says it in words).
  function moveShort(text) {
    if (text === "tail") return "tail";
    var m = MOVE.exec(text || "");
    return m ? CARDS.short(m[1]) + m[2] + " " + m[3] + "\u2192" + m[4] : text;
  }

  // The server's sentences name cards in its notation (TC, 9H): shown as a player reads them.
  function readable(text) {
    return String(text).replace(/\b([A2-9TJQK])([CSHD])\b/g, function (all, rank, suit) {
      return CARDS.short(rank + suit);
    });
  }

  // What the last move did, as the live region says it: the move, each card turned up, each run swept.
  function lastWords(state, verb) {
    var last = state.last;
    if (!last) return "";
    var words = (verb ? verb + " " : "") + moveWords(last.move) + ".";
    if (last.revealed.length) {
      words += " Turned up " + last.revealed.map(CARDS.cardName).join(", ") + ".";
    }
    last.swept.forEach(function (suit) { words += " Swept the " + CARDS.SUIT_NAME[suit] + "."; });
    return words;
  }

  // ---- drawing -----------------------------------------------------------------------------------

  // The legal moves of the card picked up at `at` ({col, idx}): named as the server names its leading card
  // (a second face-up copy above the first in its column is "6C+": Double Scorpion) and from its column.
  function legalAt(at) {
    if (!game) return [];
    var name = leadName(at.col, at.idx);
    return game.legal.filter(function (m) { return m.card === name && String(m.from) === moveFrom(at.col); });
  }
  function leadName(col, idx) {
    var slot = slotAt(col, idx);
    if (col === "r") return slot.card;
    var cards = game.view.columns[col];
    for (var j = game.view.hidden[col]; j < idx; j++) if (cards[j].card === slot.card) return slot.card + "+";
    return slot.card;
  }
  function destinations() {
    var out = {};
    if (picked) legalAt(picked).forEach(function (m) { out[m.to - 1] = m.move; });
    return out;
  }
  function parseMove(text) {
    var m = MOVE.exec(text || "");
    return m ? { card: m[1], upper: !!m[2], from: m[3] === "r" ? "r" : Number(m[3]) - 1, to: Number(m[4]) - 1 } : null;
  }

  // The slot a place names: a column's card, or ("r") a reserve card.
  function slotAt(col, idx) {
    if (col === "r") return { card: game.view.reserves[idx], frozen: false };
    return game.view.columns[col][idx];
  }
  function moveFrom(col) { return col === "r" ? "r" : String(col + 1); }

  function cardLabel(card, col, extra) {
    return (card ? CARDS.cardName(card) : "face-down card") + ", column " + (col + 1) + (extra || "");
  }

  // The board is drawn once per STATE, and only in part: a column's cards are built again only when its
  // cards changed (a move changes two or three columns of seven or ten), and what a pick, a hint or a
  // suggestion marks (classes, names) is set on the cards already there (markBoard), with no drawing. The
  // window is measured before anything is written and the card size is set after, so a move costs the
  // browser one layout, its own, and no forced one (docs/serve.md, "One drawing a move").
  var drawnColumns = [];  // per column: {key, node, cards, extent} as last built

  function columnKey(col) {
    return col.map(function (slot) { return slot.card === null ? "?" : slot.card + (slot.frozen ? "*" : ""); }).join(" ");
  }

  function buildColumn(i, col) {
    // The column is a group of cards; its number is the column itself for the keyboard and a screen
    // reader (a button: "column 3, 5 cards, top: seven of hearts"), so no button sits inside another.
    var column = el("div", "column");
    column.dataset.column = i + 1;
    column.setAttribute("role", "group");
    column.setAttribute("aria-label", "column " + (i + 1));
    var number = el("div", "number", String(i + 1));
    number.setAttribute("role", "button");
    number.tabIndex = -1;
    column.appendChild(number);
    var stack = el("div", "stack");
    stack.appendChild(el("div", "base"));
    var d = 0, u = 0, cards = [];
    for (var j = 0; j < col.length; j++) {
      var slot = col[j];
      var node;
      if (slot.card === null) {
        node = CARDS.back();
      } else {
        var cls = "";
        if (slot.frozen) cls = slot.card[0] === "K" && !(j && col[j - 1].frozen) ? "frozen run-king" : "frozen";
        node = CARDS.face(slot.card, cls);
        node.title = CARDS.short(slot.card) + (slot.frozen ? " (frozen run)" : "");
      }
      node.setAttribute("role", "button");
      node.tabIndex = -1;
      node.dataset.col = i;
      node.dataset.idx = j;
      stack.appendChild(CARDS.place(node, d, u));
      cards.push(node);
      if (slot.card === null) d++; else u++;
    }
    stack.style.height = col.length ? CARDS.stackHeight(u > 0 ? d : d - 1, u > 0 ? u - 1 : 0) : "var(--ch)";
    column.appendChild(stack);
    return { key: columnKey(col), node: column, number: number, cards: cards, extent: [d, u], step: null };
  }

  function drawBoard() {
    var board = document.getElementById("board");
    var hadFocus = board.contains(document.activeElement);
    var view = game.view;
    var width = view.columns.length;  // 7, or 10 in the wide games
    if (drawnColumns.length !== width) {  // the first drawing: the grid and the card width for this many columns
      board.textContent = "";
      drawnColumns = [];
      board.style.gridTemplateColumns = "repeat(" + width + ", var(--cw))";
      document.documentElement.dataset.columns = width;  // game.css: the card width that fits them across
    }
    var measured = measureBoard(board);  // read before any write: the layout of the last frame, no new one
    for (var i = 0; i < width; i++) {
      var key = columnKey(view.columns[i]);
      var drawn = drawnColumns[i];
      if (drawn && drawn.key === key) continue;
      var fresh = buildColumn(i, view.columns[i]);
      if (drawn) board.replaceChild(fresh.node, drawn.node); else board.appendChild(fresh.node);
      drawnColumns[i] = fresh;
    }
    sizeBoard(board, measured);
    markBoard();
    var target = focusTarget();
    if (hadFocus) target.focus({ preventScroll: true });
    document.dispatchEvent(new CustomEvent("scorpion:render", { detail: game }));  // lesson.js shows its step
  }

  // What a pick, the fair hint or a suggestion shows on the cards drawn: the picked group, the legal
  // columns, the hinted card and column, every card's and column's name, the board's one Tab stop.
  function markBoard() {
    var view = game.view;
    var dests = destinations();
    var best = hint && hint.version === game.version && hint.data.best ? parseMove(hint.data.best) : null;
    var shown = suggestion ? parseMove(suggestion.move) : null;
    drawnColumns.forEach(function (drawn, i) {
      var col = view.columns[i];
      var topCard = col.length ? col[col.length - 1].card : null;
      drawn.node.classList.toggle("dest", !!dests[i]);
      drawn.node.classList.toggle("hint-dest", !!(best && best.to === i) || !!(shown && shown.to === i));
      setLabel(drawn.number, "column " + (i + 1) + (col.length
        ? ", " + col.length + " card" + (col.length === 1 ? "" : "s") + (topCard ? ", top: " + CARDS.cardName(topCard) : "")
        : ", empty") + (dests[i] ? ", a legal destination" : ""));
      drawn.number.tabIndex = -1;
      drawn.cards.forEach(function (node, j) {
        var slot = col[j];
        node.tabIndex = -1;
        if (slot.card === null) { setLabel(node, cardLabel(null, i)); return; }
        var isPicked = !!picked && picked.col === i && j >= picked.idx;
        node.classList.toggle("picked", isPicked);
        node.classList.toggle("hint-card", !!(best && best.card === slot.card) || !!(shown && shown.card === slot.card));
        setLabel(node, cardLabel(slot.card, i, (slot.frozen ? ", frozen" : "") +
          (isPicked && j === picked.idx ? ", picked up" : "")));
      });
    });
    focusTarget().tabIndex = 0;
    document.dispatchEvent(new CustomEvent("scorpion:marked", { detail: game }));  // lesson.js rings its cards
  }
  function setLabel(node, text) {
    if (node.getAttribute("aria-label") !== text) node.setAttribute("aria-label", text);
  }

  // The measures the card size is made of, read from the page as last laid out: the card width the
  // window's width allows (--cw-width, on a probe that never changes the page), where the columns' cards
  // begin, and the window's height. Before any column is drawn (the first drawing), the read lays the
  // page out once.
  var widthProbe = null;
  function measureBoard(board) {
    if (!widthProbe) {
      widthProbe = el("div");
      widthProbe.setAttribute("aria-hidden", "true");
      widthProbe.style.cssText = "position:absolute;visibility:hidden;height:0;width:var(--cw-width)";
      document.body.appendChild(widthProbe);
    }
    var first = drawnColumns.length ? drawnColumns[0].node.querySelector(".stack") : null;
    var boardTop = board.getBoundingClientRect().top;
    var stackTop = first ? first.getBoundingClientRect().top : null;
    return {
      byWidth: widthProbe.getBoundingClientRect().width,
      boardTop: boardTop + window.scrollY,
      // the column numbers' row: measured on a drawn column, else the page's own first drawing
      stackTop: stackTop === null ? null : stackTop + window.scrollY,
      height: window.innerHeight
    };
  }

  // The card size from the measures (written once, and only when it changed): a column too long for the
  // window shows less of each face-up card (down to MIN_UP_STEP of a card width, where the rank stays
  // readable) instead of every card of the board shrinking for it; only a column that does not fit even
  // then shrinks the cards (CARDS.fitWidth).
  var MIN_UP_STEP = 0.32;
  // A card size grows back only when it can grow by 40% (or the window changed): a tall column comes and goes
  // move after move in the two-deck games, and each change of the card size restyles, lays out and paints
  // every card (59 of 136 moves of a Double Scorpion game at 1280x800 changed it, by as little as 4 px; now
  // 27, the mean card 57 px wide instead of 61.5).
  var GROW_RATIO = 1.4;
  var fitted = null;  // the --cw-fit set last ("" for none)
  var windowChanged = false;  // set by a resize: the next drawing takes the size that fits, larger or not
  function sizeBoard(board, measured) {
    var steps = CARDS.STEPS;
    var cw = measured.byWidth;
    if (measured.stackTop === null) {  // the first drawing: where the stacks begin, read once now
      measured.stackTop = drawnColumns[0].node.querySelector(".stack").getBoundingClientRect().top + window.scrollY;
    }
    var room = (measured.height - measured.stackTop - 16) / cw;  // in card widths
    var extents = drawnColumns.map(function (drawn) {
      var down = drawn.extent[0], up = drawn.extent[1], step = steps.up;
      if (up > 1 && down * steps.down + (up - 1) * steps.up + steps.height > room) {
        step = Math.max(MIN_UP_STEP, (room - steps.height - down * steps.down) / (up - 1));
      }
      var value = step < steps.up ? step.toFixed(3) : null;
      if (value !== drawn.step) {
        if (value === null) drawn.node.style.removeProperty("--up-step");
        else drawn.node.style.setProperty("--up-step", value);
        drawn.step = value;
      }
      return [down, up > 1 ? 1 + (up - 1) * step / steps.up : up];
    });
    // in whole pixels (the board's top moves by fractions of a pixel from move to move), shrunk when the
    // tallest column needs it, grown by GROW_RATIO or more
    var width = Math.floor(CARDS.fitWidth(extents, cw, measured.height - measured.boardTop - 16));
    var current = fitted ? parseFloat(fitted) : cw;
    if (width > current && width < current * GROW_RATIO && !windowChanged) width = current;
    windowChanged = false;
    var value = width < cw - 0.5 ? width + "px" : "";
    if (value !== fitted) {
      // on the table, not the root: a custom property set on the root restyles every element of the page
      var table = document.getElementById("table");
      if (value) table.style.setProperty("--cw-fit", value);
      else table.style.removeProperty("--cw-fit");
      fitted = value;
    }
  }

  function focusTarget() {
    if (focusAt.col === "r") {  // a reserve card holds the focus: the board's own stop is column 1
      return document.querySelector("#board .column .number");
    }
    var column = document.querySelectorAll("#board .column")[focusAt.col];
    var cards = column.querySelectorAll(".card");
    if (focusAt.idx >= cards.length) focusAt.idx = cards.length - 1;
    return focusAt.idx < 0 ? column.querySelector(".number") : cards[focusAt.idx];
  }

  function drawTail() {
    var view = game.view;
    var cards = document.getElementById("tail-cards");
    cards.textContent = "";
    for (var k = 0; k < view.tail; k++) cards.appendChild(CARDS.back("small"));
    var button = document.getElementById("tail");
    var reason = document.getElementById("tail-reason");
    var wrap = document.getElementById("tail-wrap");
    var legal = game.legal.some(function (m) { return m.kind === "tail"; });
    button.hidden = view.tail === 0;
    button.disabled = !legal;
    button.textContent = view.tail ? "Deal the tail (" + view.tail + ")" : "Tail dealt";
    var why = game.tail_locked || "";
    button.title = wrap.title = why;
    // "dealt" only where this game dealt it: a lesson may start with no tail at all
    var dealt = !view.tail && game.moves.indexOf("tail") >= 0;
    reason.textContent = why ? "locked: " + why.replace(/^classic: /, "") : (dealt ? "the tail is dealt" : "");
    if (best() === "tail") button.classList.add("hint-card"); else button.classList.remove("hint-card");
  }

  // Three Blind Mice's reserve: face-up cards, each played alone onto the table; nothing lands on them.
  function drawReserve() {
    var area = document.getElementById("reserve-area");
    var reserves = game.view.reserves || [];
    var had = (game.rules && game.rules.reserves) || 0;
    area.hidden = !had;
    var cards = document.getElementById("reserve-cards");
    var hadFocus = cards.contains(document.activeElement);
    cards.textContent = "";
    var focusCard = null;
    var shown = best() ? parseMove(best()) : null;
    reserves.forEach(function (card, k) {
      var cls = [];
      if (picked && picked.col === "r" && picked.idx === k) cls.push("picked");
      if (shown && shown.from === "r" && shown.card === card) cls.push("hint-card");
      var node = CARDS.face(card, cls.join(" "));
      node.setAttribute("role", "button");
      node.tabIndex = 0;
      node.dataset.col = "r";
      node.dataset.idx = k;
      node.setAttribute("aria-label", CARDS.cardName(card) + ", reserve card" +
        (picked && picked.col === "r" && picked.idx === k ? ", picked up" : ""));
      node.title = CARDS.short(card) + " (reserve: played alone, never refilled)";
      cards.appendChild(node);
      if (hadFocus && focusAt.col === "r" && focusAt.idx === k) focusCard = node;
    });
    document.getElementById("reserve-count").textContent = had
      ? reserves.length + " of " + had + " left" + (reserves.length < had ? " (never refilled)" : "") : "";
    if (focusCard) focusCard.focus({ preventScroll: true });
  }

  var drawnFoundations = null;  // the runs swept (and how many runs), as last drawn
  function drawFoundations() {
    var found = document.getElementById("foundations");
    var runs = 4 * ((game.rules && game.rules.decks) || 1);
    var key = runs + ":" + game.view.swept.join("");
    if (key === drawnFoundations) return;
    drawnFoundations = key;
    found.textContent = "";
    for (var k = 0; k < runs; k++) {
      var suit = SUITS[k % 4];
      var slot = el("div", "slot");
      var done = game.view.swept.filter(function (s) { return s === suit; }).length > Math.floor(k / 4);
      if (done) slot.appendChild(CARDS.face("K" + suit, "foundation"));
      else slot.appendChild(el("span", "suit", CARDS.SYMBOL[suit]));
      slot.setAttribute("aria-label", CARDS.SUIT_NAME[suit] + (done ? ": swept" : ": not swept yet"));
      slot.setAttribute("role", "img");
      found.appendChild(slot);
    }
  }

  function best() {
    return hint && hint.version === game.version ? hint.data.best : null;
  }

  function pct(x) { return (100 * x).toFixed(0) + "%"; }

  var drawnHint = { shows: undefined, key: null };  // what the hint panel shows, as last drawn
  function drawHint() {
    var panel = document.getElementById("hint-panel");
    var list = document.getElementById("hint-list");
    var head = document.getElementById("hint-head");
    var shows = hint && hint.version === game.version ? hint : null;
    var key = [!!hintRequest, game.can_undo, game.version].join();
    if (shows === drawnHint.shows && key === drawnHint.key) return;
    drawnHint = { shows: shows, key: key };
    if (!shows) {
      panel.hidden = !hintRequest;
      list.textContent = "";
      head.textContent = hintRequest ? "The solver is sampling layouts of the cards you cannot see\u2026" : "";
      return;
    }
    panel.hidden = false;
    var data = hint.data;
    list.textContent = "";
    head.textContent = data.unseen
      ? data.samples + " layouts of the " + data.unseen + " cards you cannot see: the position is winnable in " +
        pct(data.winnable_share) + " of them (95%: " + pct(data.low) + "\u2013" + pct(data.high) + ")."
      : "Every card is seen: the shares are exact.";
    if (data.reason && data.moves.length) {
      head.textContent += " Why " + moveShort(data.moves[0].move) + ": " + readable(data.reason) + ".";
    }
    if (!data.moves.length) head.textContent += " No legal move.";
    // a newcomer reads "0%" as a number, not as "this game is over": say it, and what to do next
    var lost = document.getElementById("hint-lost");
    lost.hidden = !(data.moves.length && data.winnable_share === 0);
    if (!lost.hidden) {
      document.getElementById("hint-lost-text").textContent = data.unseen
        ? "This position is very likely lost: in none of the " + data.samples + " layouts of the cards you " +
          "cannot see can it still be won (the chance that yours can is below " + pct(data.high) + ", 95%)."
        : "This position cannot be won: every card is seen, and no line of moves from here wins.";
      document.getElementById("hint-undo").disabled = !game.can_undo;
      document.getElementById("hint-new-game").href = newGameAddress();
    }
    data.moves.forEach(function (m, k) {
      var item = el("li", k === 0 ? "best" : "");
      item.dataset.move = m.move;
      var button = el("button", "hint-move");
      button.type = "button";
      button.appendChild(el("span", "mv", moveShort(m.move)));
      var bar = el("span", "bar");
      var fill = el("span", "fill");
      fill.style.width = pct(m.share);
      bar.appendChild(fill);
      var ci = el("span", "ci");
      ci.style.left = pct(m.low);
      ci.style.width = pct(m.high - m.low);
      bar.appendChild(ci);
      button.appendChild(bar);
      button.appendChild(el("span", "share", pct(m.share) + " (95%: " + pct(m.low) + "\u2013" + pct(m.high) + ")"));
      button.setAttribute("aria-label", moveWords(m.move) + ": winnable in " + pct(m.share) + " of layouts, 95% interval " +
        pct(m.low) + " to " + pct(m.high));
      button.addEventListener("click", function () { pickMove(m.move); });
      item.appendChild(button);
      list.appendChild(item);
    });
  }

  // The moves played: the items the list already holds stay (a move adds one, an undo takes one away).
  function drawMoves() {
    var list = document.getElementById("move-list");
    var items = list.children;
    var kept = 0;
    while (kept < items.length && kept < game.moves.length && items[kept].dataset.move === game.moves[kept]) kept++;
    while (items.length > kept) list.removeChild(list.lastChild);
    for (var k = kept; k < game.moves.length; k++) list.appendChild(moveItem(game.moves[k], k));
    for (var j = 0; j < items.length; j++) items[j].firstChild.classList.toggle("current", j === game.moves.length - 1);
  }
  function moveItem(move, k) {
    var item = el("li");
    item.dataset.move = move;
    var button = el("button", "", moveShort(move));
    button.type = "button";
    button.title = "go back to the position after this move";
    button.setAttribute("aria-label", "move " + (k + 1) + ": " + moveWords(move) + "; go back to the position after it");
    button.addEventListener("click", function () {
      change("/goto", { ply: k + 1 }, function () { return "Back to the position after move " + (k + 1) + "."; });
    });
    item.appendChild(button);
    return item;
  }

  function drawPeek() {
    var on = !!game.peek;
    var box = document.getElementById("peek");
    box.checked = on;
    box.disabled = on;
    document.getElementById("peek-badge").hidden = !on;
    document.getElementById("peek-panel").hidden = !on;
    var step = document.getElementById("line-step");
    step.hidden = !(line && line.version === game.version && line.at < line.moves.length);
    var items = document.querySelectorAll("#line-list li");
    items.forEach(function (item, k) { item.classList.toggle("current", !!line && k === line.at); });
  }

  // Another deal of the same kind: a graded one of the same grade, or any random one, in the same mode.
  function newGameAddress() {
    return "/?random=" + (game.grade || "any") + "&mode=" + game.mode;
  }

  // The deal as the player may name it: a deal the server picked has no number until the game ends.
  function dealName(state) {
    return (state.deal === null ? "a random deal" : "deal " + state.deal) + (state.grade ? " (" + state.grade + ")" : "");
  }

  function render() {
    if (!game) return;
    document.getElementById("game-title").textContent = game.title || dealName(game);
    document.getElementById("mode").textContent = gameName(game);
    document.getElementById("mode").title = game.rules ? game.rules.differs : "";
    document.title = gameName(game) + ": " + dealName(game);
    var status = game.status === "won" ? "Won!" : game.status === "lost" ? "Lost: no legal move remains"
      : (game.ply ? game.ply + " move" + (game.ply === 1 ? "" : "s") + " played" : "no move played yet") +
        (game.hints_asked ? " \u00b7 hints asked: " + game.hints_asked : "") +
        (game.seen ? " \u00b7 counted apart: this deal's hidden cards were shown in another game" : "");
    document.getElementById("status").textContent = status;
    document.getElementById("undo").disabled = !game.can_undo;
    document.getElementById("redo").disabled = !game.can_redo;
    document.getElementById("restart").disabled = game.ply === 0 && !game.can_redo;
    document.getElementById("hint").disabled = game.status !== "playing";
    document.getElementById("export").href = api + "/export";
    var banner = document.getElementById("banner");
    banner.hidden = game.status === "playing";
    banner.className = "banner " + game.status;
    banner.textContent = game.status === "won" ? "You won!" : game.status === "lost" ? "Lost: no legal move remains." : "";
    if (game.status !== "playing") {
      var again = el("a", "new-game", "New game");
      again.href = newGameAddress();
      again.title = "deal another " + (game.grade ? game.grade + " winnable" : "random") + " deal of " + gameName(game);
      banner.appendChild(document.createTextNode(" "));
      banner.appendChild(again);
    }
    // the analysis reads the hidden cards: open once the game is over, or with peeking on
    document.getElementById("analysis-panel").hidden = game.status === "playing" && !game.peek;
    // a secret deal's cards are told only once its game has ended (STATE's `start`): to look at and replay
    document.getElementById("whole-deal").hidden = !game.start;
    document.getElementById("start-text").textContent = game.start || "";
    drawTail();
    drawReserve();
    drawFoundations();
    drawBoard();
    drawHint();
    drawMoves();
    drawPeek();
    document.getElementById("spinner").hidden = busy === 0;
    var body = document.body.dataset;
    body.ply = game.ply;
    body.version = game.version;
    body.status = game.status;
    body.picked = picked ? picked.card : "";
  }

  // ---- moving ------------------------------------------------------------------------------------

  function pick(col, idx) {
    var slot = slotAt(col, idx);
    if (!slot || slot.card === null) return;
    if (picked && picked.col === col && picked.idx === idx) { drop(); return; }
    picked = { col: col, idx: idx, card: slot.card };
    var moves = legalAt(picked);
    var group = col === "r" ? 1 : game.view.columns[col].length - idx;
    showPicked();
    say(CARDS.cardName(slot.card) + (group > 1 ? " and the " + (group - 1) + " card" + (group > 2 ? "s" : "") + " on it" : "") +
      " picked up: " + (moves.length
        ? "it can go to column " + moves.map(function (m) { return m.to; }).join(" or ")
        : (slot.frozen ? "it is part of a frozen run" : "no legal move for it")) + ".");
  }
  function drop() {
    if (!picked) return;
    picked = null;
    showPicked();
    say("put back.");
  }

  // A pick, a put-back or a move sent: only the marks change; the board is drawn when the server answers.
  function showPicked() {
    markBoard();
    drawReserve();
    document.body.dataset.picked = picked ? picked.card : "";
  }

  function play(move) {
    picked = null;
    suggestion = null;
    showPicked();
    return change("/move", { move: move }, function (state) { return lastWords(state); });
  }

  // A click, a tap or Enter on column `col` (`idx`: the card, -1 for the column itself).
  function activate(col, idx) {
    if (!game || game.status !== "playing") return;
    var dests = destinations();
    if (picked && dests[col] && !(picked.col === col && idx >= picked.idx)) { play(dests[col]); return; }
    var slot = idx >= 0 ? game.view.columns[col][idx] : null;
    var onTop = idx < 0 || idx === game.view.columns[col].length - 1;
    // a lesson asks the server about any top card; a game about the column itself (its number, an empty one)
    var atColumn = idx < 0 || !game.view.columns[col].length;
    if (picked && picked.col !== col && (askServer ? onTop : atColumn)) { play(leadName(picked.col, picked.idx) + ":" + moveFrom(picked.col) + ">" + (col + 1)); return; }
    if (slot && slot.card !== null) { pick(col, idx); return; }
    if (picked) { say("column " + (col + 1) + " is not a legal place for " + CARDS.cardName(picked.card) + ".", true); }
  }

  // A click, a tap or Enter on reserve card `idx`: picks it up, or puts it back; a card carried from a column
  // is refused there (nothing is put on a reserve card).
  function activateReserve(idx) {
    if (!game || game.status !== "playing") return;
    if (picked && picked.col !== "r") {
      var link = el("a", "rule-link", "the rule (reserve)");
      link.href = "/rules#three-blind-mice";
      say("nothing is put on a reserve card: " + CARDS.cardName(picked.card) + " stays where it was.", true, link);
      picked = null;
      showPicked();
      return;
    }
    focusAt = { col: "r", idx: idx };
    pick("r", idx);
  }

  function pickMove(move) {
    var m = parseMove(move);
    if (!m) { if (move === "tail") document.getElementById("tail").focus(); return; }
    if (m.from === "r") { pick("r", game.view.reserves.indexOf(m.card)); return; }
    var col = game.view.columns[m.from];
    var skip = m.upper ? 1 : 0;  // "6C+": the second face-up copy in the column
    for (var j = 0; j < col.length; j++) {
      if (col[j].card === m.card && skip-- === 0) { focusAt = { col: m.from, idx: j }; pick(m.from, j); return; }
    }
  }

  function where(node) {
    var card = node.closest(".card");
    if (card && card.dataset.col === "r") return { col: "r", idx: Number(card.dataset.idx) };
    var column = node.closest(".column");
    if (!column) return null;
    var col = Number(column.dataset.column) - 1;
    return { col: col, idx: card && card.dataset.idx !== undefined ? Number(card.dataset.idx) : -1 };
  }

  // ---- drag and drop (pointer events: a mouse, a pen or a finger) --------------------------------

  var drag = null;
  function onPointerDown(event) {
    justDragged = false;
    if (event.button !== 0 || !game || game.status !== "playing") return;
    var at = where(event.target);
    if (!at || at.idx < 0) return;
    var slot = slotAt(at.col, at.idx);
    if (!slot || slot.card === null) return;
    drag = { at: at, x: event.clientX, y: event.clientY, started: false, ghost: null, id: event.pointerId };
    document.addEventListener("pointermove", onPointerMove);
    document.addEventListener("pointerup", onPointerUp);
    document.addEventListener("pointercancel", onPointerCancel);
  }
  function onPointerMove(event) {
    if (!drag || event.pointerId !== drag.id) return;
    var dx = event.clientX - drag.x, dy = event.clientY - drag.y;
    if (!drag.started) {
      if (Math.abs(dx) + Math.abs(dy) < DRAG_START) return;
      drag.started = true;
      if (!(picked && picked.col === drag.at.col && picked.idx === drag.at.idx)) {
        picked = { col: drag.at.col, idx: drag.at.idx, card: slotAt(drag.at.col, drag.at.idx).card };
        showPicked();
      }
      var ghost = el("div", "drag-ghost");
      ghost.setAttribute("aria-hidden", "true");
      var cards = drag.at.col === "r" ? [document.querySelectorAll("#reserve-cards .card")[drag.at.idx]]
        : document.querySelectorAll("#board .column")[drag.at.col].querySelectorAll(".card");
      var from = drag.at.col === "r" ? 0 : drag.at.idx;
      for (var j = from; j < cards.length; j++) {
        var copy = cards[j].cloneNode(true);
        copy.removeAttribute("role");
        copy.removeAttribute("tabindex");
        CARDS.place(copy, 0, j - from);
        ghost.appendChild(copy);
      }
      var box = cards[from].getBoundingClientRect();
      drag.offset = { x: drag.x - box.left, y: drag.y - box.top };
      var sized = getComputedStyle(document.getElementById("table"));  // the ghost lies outside the table
      ghost.style.setProperty("--cw", sized.getPropertyValue("--cw"));
      ghost.style.setProperty("--ch", sized.getPropertyValue("--ch"));
      document.body.appendChild(ghost);
      drag.ghost = ghost;
    }
    event.preventDefault();
    drag.ghost.style.left = (event.clientX - drag.offset.x) + "px";
    drag.ghost.style.top = (event.clientY - drag.offset.y) + "px";
    var over = columnAt(event.clientX, event.clientY);
    document.querySelectorAll("#board .column.over").forEach(function (c) { c.classList.remove("over"); });
    if (over) over.classList.add("over");
  }
  function columnAt(x, y) {
    var hits = document.elementsFromPoint(x, y);
    for (var k = 0; k < hits.length; k++) {
      var column = hits[k].closest && hits[k].closest("#board .column");
      if (column) return column;
    }
    // between cards or below a short column: the column whose box spans x
    var columns = document.querySelectorAll("#board .column");
    for (var c = 0; c < columns.length; c++) {
      var box = columns[c].getBoundingClientRect();
      if (x >= box.left && x <= box.right) return columns[c];
    }
    return null;
  }
  function endDrag() {
    document.removeEventListener("pointermove", onPointerMove);
    document.removeEventListener("pointerup", onPointerUp);
    document.removeEventListener("pointercancel", onPointerCancel);
    if (drag && drag.ghost) drag.ghost.remove();
    document.querySelectorAll("#board .column.over").forEach(function (c) { c.classList.remove("over"); });
  }
  function onPointerUp(event) {
    if (!drag || event.pointerId !== drag.id) return;
    var started = drag.started;
    endDrag();
    drag = null;
    if (!started) return;  // a press without moving: the click that follows picks or drops
    justDragged = true;
    var over = columnAt(event.clientX, event.clientY);
    var col = over ? Number(over.dataset.column) - 1 : -1;
    var dests = destinations();
    if (col >= 0 && dests[col]) play(dests[col]);
    else if (picked && col >= 0 && col !== picked.col) play(leadName(picked.col, picked.idx) + ":" + moveFrom(picked.col) + ">" + (col + 1));  // the server says why not
    else if (picked) { picked = null; showPicked(); say("not a legal place: put back.", true); }
  }
  function onPointerCancel() { endDrag(); drag = null; }

  // ---- the keyboard --------------------------------------------------------------------------------

  function moveFocus(col, idx) {
    var columns = game.view.columns;
    var width = columns.length;
    col = (col + width) % width;
    idx = Math.max(-1, Math.min(idx, columns[col].length - 1));
    focusAt = { col: col, idx: idx };
    document.querySelectorAll("#board [tabindex='0']").forEach(function (n) { n.tabIndex = -1; });
    var target = focusTarget();
    target.tabIndex = 0;
    target.focus();
  }

  function onBoardKey(event) {
    if (!game || event.altKey || event.ctrlKey || event.metaKey) return;
    var at = where(event.target);
    if (!at) return;
    var col = game.view.columns[at.col];
    var handled = true;
    if (event.key === "ArrowLeft" || event.key === "ArrowRight") {
      var next = at.col + (event.key === "ArrowLeft" ? -1 : 1);
      var width = game.view.columns.length;
      moveFocus(next, game.view.columns[(next + width) % width].length - 1);
    } else if (event.key === "ArrowUp") {
      moveFocus(at.col, at.idx - 1);
    } else if (event.key === "ArrowDown") {
      moveFocus(at.col, Math.min(col.length - 1, at.idx + 1));
    } else if (event.key === "Home") {
      moveFocus(at.col, -1);
    } else if (event.key === "End") {
      moveFocus(at.col, col.length - 1);
    } else if (event.key === "Enter" || event.key === " ") {
      focusAt = at;
      activate(at.col, at.idx);
    } else {
      handled = false;
    }
    if (handled) { event.preventDefault(); event.stopPropagation(); }
  }

  function onKey(event) {
    if (!game) return;
    var tag = event.target && event.target.tagName;
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return;
    var key = event.key.toLowerCase();
    var ctrl = event.ctrlKey || event.metaKey;
    if ((ctrl && key === "z" && !event.shiftKey) || (!ctrl && !event.altKey && key === "u")) { undo(); }
    else if ((ctrl && (key === "y" || (key === "z" && event.shiftKey))) || (!ctrl && !event.altKey && key === "r")) { redo(); }
    else if (!ctrl && !event.altKey && key === "h") { askHint(); }
    else if (key === "escape") { drop(); }
    else return;
    event.preventDefault();
  }

  // ---- buttons -------------------------------------------------------------------------------------

  function undo() {
    if (!game.can_undo) return;
    var undone = game.moves[game.moves.length - 1];
    change("/undo", {}, function () { return "Undid " + moveWords(undone) + "."; });
  }
  function redo() {
    if (!game.can_redo) return;
    change("/redo", {}, function (state) { return lastWords(state, "Redid"); });
  }
  function restart() {
    var question = game.lesson ? "Restart " + game.title + " from its first position?"
      : "Restart " + dealName(game) + " from the start? Your moves stay in the game's history, " +
        "but the board goes back to the deal.";
    if (!window.confirm(question)) return;
    change("/restart", {}, function (state) { return "Restarted " + (state.title || dealName(state)) + " from the start."; });
  }

  function spinner(delta) {
    busy += delta;
    document.getElementById("spinner").hidden = busy === 0;
  }

  // A solver request (hint kinds, analysis); `done` runs only if the game is still at that version.
  function ask(path, body, done, signal) {
    var version = game.version;
    spinner(1);
    return send(api + path, Object.assign({ version: version }, body), signal).then(function (answer) {
      if (!answer.ok) {
        if (answer.status !== 409) say(answer.data.error || "the solver could not answer", true);
        return;
      }
      if (answer.data.version !== undefined && answer.data.version !== game.version) return;  // moved on
      done(answer.data);
    }).catch(function (error) {
      if (error && error.name === "AbortError") return;
      say("the server did not answer the request", true);
    }).then(function () { spinner(-1); render(); });
  }

  function askHint() {
    if (!game || game.status !== "playing") return;
    if (hint && hint.version === game.version) { drawHint(); return; }
    if (hintRequest && hintRequest.version === game.version) return;
    if (hintRequest) hintRequest.controller.abort();
    var controller = new AbortController();
    var request = { version: game.version, controller: controller };
    hintRequest = request;
    render();
    var samples = (game.rules && game.rules.hint_samples) || FAIR_SAMPLES;  // the game's (serve/games.py)
    say("Asking for a fair hint: the solver samples " + samples + " layouts of the cards you cannot see.");
    ask("/hint", { kind: "fair", samples: samples }, function (data) {
      hint = { version: data.version, data: data.hint };
      var top = data.hint.moves[0];
      say(top ? "Fair hint: " + moveWords(top.move) + ", winnable in " + pct(top.share) + " of sampled layouts" +
        (data.hint.reason ? ": " + data.hint.reason + "." : ".")
        : "Fair hint: no legal move.");
    }, controller.signal).then(function () { if (hintRequest === request) hintRequest = null; render(); });
  }

  function switchPeek(event) {
    var box = event.target;
    if (!box.checked) return;
    var sure = window.confirm("Peek lets the solver look at the face-down cards and the tail. " +
      "It is recorded in this game and stays on for it. Switch peeking on?");
    if (!sure) { box.checked = false; return; }
    queue = queue.then(function () {
      return send(api + "/peek", { on: true, version: game.version }).then(function (answer) {
        if (answer.ok) { adopt(answer.data.game); say("Peeking is on for this game."); }
        else {
          box.checked = false;
          if (answer.data.game) adopt(answer.data.game);
          say(answer.data.error || "peeking could not be switched on", true);
        }
      });
    });
  }

  function askWinnable() {
    var answerNode = document.getElementById("winnable-answer");
    answerNode.textContent = "thinking\u2026";
    ask("/hint", { kind: "winnable" }, function (data) {
      var status = data.hint.status;
      var text = status === "won" || status === "winnable" ? "yes, still winnable"
        : status === "lost" ? "no: lost whatever you play" : "unknown (the solver's budget ran out)";
      answerNode.textContent = text;
      answerNode.className = "verdict-" + (status === "winnable" ? "won" : status);
      say("Still winnable? " + text + ".");
    });
  }

  function askThoughtful() {
    var list = document.getElementById("thoughtful-list");
    list.textContent = "";
    ask("/hint", { kind: "peek" }, function (data) {
      list.textContent = "";
      data.hint.moves.forEach(function (m) {
        var word = m.status === "won" ? "keeps it winnable" + (m.moves_to_win ? " (a win in " + m.moves_to_win + ")" : "")
          : m.status === "lost" ? "loses" : "unknown";
        var item = el("li", "verdict-" + m.status);
        var button = el("button", "hint-move");
        button.type = "button";
        button.appendChild(el("span", "mv", moveShort(m.move)));
        button.appendChild(el("span", "share", word));
        button.setAttribute("aria-label", moveWords(m.move) + ": " + word);
        button.addEventListener("click", function () { pickMove(m.move); });
        item.appendChild(button);
        list.appendChild(item);
      });
      say("Thoughtful hint: " + (data.hint.best ? "best " + moveWords(data.hint.best) : data.hint.reason) + ".");
    });
  }

  function askLine() {
    var list = document.getElementById("line-list");
    list.textContent = "";
    ask("/hint", { kind: "line" }, function (data) {
      var moves = data.hint.line;
      line = { version: game.version, moves: moves, at: 0 };
      list.textContent = "";
      moves.forEach(function (m) {
        var item = el("li", null, moveShort(m));
        item.setAttribute("aria-label", moveWords(m));
        list.appendChild(item);
      });
      if (!moves.length) {
        list.appendChild(el("li", null, data.hint.status === "lost" ? "no winning line: lost from here"
          : "no line found within the solver's budget (unknown)"));
      }
      suggestion = moves.length ? { version: game.version, move: moves[0] } : null;
      say(moves.length ? "The solver's line has " + moves.length + " moves; the first: " + moveWords(moves[0]) + "."
        : "No winning line from here.");
    });
  }

  function stepLine() {
    if (!line || line.version !== game.version || line.at >= line.moves.length) return;
    var move = line.moves[line.at];
    var current = line;
    queue = queue.then(function () {
      return send(api + "/move", { move: move, version: game.version }).then(function (answer) {
        if (!answer.ok) { say(answer.data.error || "the line's move was refused", true); if (answer.data.game) adopt(answer.data.game); return; }
        current.at += 1;
        current.version = answer.data.game.version;
        line = current;
        suggestion = current.at < current.moves.length ? { version: current.version, move: current.moves[current.at] } : null;
        adopt(answer.data.game, function (state) { return lastWords(state, "Line move " + current.at + ":"); });
      });
    });
  }

  var alternative = null;
  function analyze() {
    var out = document.getElementById("analysis");
    out.textContent = "The solver is looking for the move that lost the game\u2026";
    ask("/analysis", {}, function (data) {
      var a = data.analysis;
      var text;
      alternative = null;
      if (a.finding === "won") text = "You won this game.";
      else if (a.finding === "winnable") text = "The position you reached can still be won.";
      else if (a.finding === "lost_at_start") text = "This deal cannot be won: it was lost from the start.";
      else if (a.finding === "fatal") {
        text = "Move " + a.fatal_index + ", " + moveShort(a.fatal_move) + ", lost the game" +
          (a.alternative ? "; " + moveShort(a.alternative) + " instead keeps it winnable." : ".");
        if (a.alternative) alternative = { ply: a.fatal_index - 1, move: a.alternative };
      } else {
        text = "The solver's budget did not locate the fatal move" +
          (a.suspects ? " (it lies between moves " + a.suspects[0] + " and " + a.suspects[1] + ")" : "") + ".";
      }
      out.textContent = text;
      document.getElementById("try-alternative").hidden = !alternative;
      say(text);
    });
  }
  function tryAlternative() {
    if (!alternative) return;
    var target = alternative;
    change("/goto", { ply: target.ply }, function (state) {
      suggestion = { version: state.version, move: target.move };
      render();
      return "Back before move " + (target.ply + 1) + ": try " + moveWords(target.move) + ".";
    });
  }

  // A new game of this secret deal's cards (the server counts it as seen), opened in place of this one.
  function replay() {
    queue = queue.then(function () {
      return send("/api/games", { replay: gameId }).then(function (answer) {
        if (!answer.ok) { say(answer.data.error || "the server refused the replay", true); return; }
        location.assign("/game/" + answer.data.game.id);
      }).catch(function () { say("the server did not answer: is `scorpion serve` still running?", true); });
    });
  }

  // ---- start -------------------------------------------------------------------------------------

  function wire() {
    var board = document.getElementById("board");
    board.addEventListener("click", function (event) {
      if (justDragged) { justDragged = false; return; }
      var at = where(event.target);
      if (!at) return;
      focusAt = at;
      activate(at.col, at.idx);
    });
    board.addEventListener("pointerdown", onPointerDown);
    var reserve = document.getElementById("reserve-cards");
    reserve.addEventListener("pointerdown", onPointerDown);
    reserve.addEventListener("click", function (event) {
      if (justDragged) { justDragged = false; return; }
      var at = where(event.target);
      if (at) activateReserve(at.idx);
    });
    reserve.addEventListener("keydown", function (event) {
      if (event.key !== "Enter" && event.key !== " ") return;
      var at = where(event.target);
      if (!at) return;
      event.preventDefault();
      focusAt = at;
      activateReserve(at.idx);
    });
    board.addEventListener("keydown", onBoardKey);
    board.addEventListener("focusin", function (event) {
      var at = where(event.target);
      if (at) focusAt = at;
    });
    document.addEventListener("keydown", onKey);
    document.getElementById("undo").addEventListener("click", undo);
    document.getElementById("redo").addEventListener("click", redo);
    document.getElementById("restart").addEventListener("click", restart);
    document.getElementById("replay").addEventListener("click", replay);
    document.getElementById("hint-undo").addEventListener("click", undo);
    document.getElementById("hint").addEventListener("click", askHint);
    document.getElementById("tail").addEventListener("click", function () { play("tail"); });
    document.getElementById("peek").addEventListener("change", switchPeek);
    document.getElementById("winnable").addEventListener("click", askWinnable);
    document.getElementById("thoughtful").addEventListener("click", askThoughtful);
    document.getElementById("line").addEventListener("click", askLine);
    document.getElementById("line-step").addEventListener("click", stepLine);
    document.getElementById("analyze").addEventListener("click", analyze);
    document.getElementById("try-alternative").addEventListener("click", tryAlternative);
    window.addEventListener("resize", function () { windowChanged = true; if (game) drawBoard(); });
  }

  wire();
  if (gameId === null && !askServer) {
    say("no game in this address: open one from the start page", true);
  } else {
    send(api).then(function (answer) {
      if (!answer.ok) { say(answer.data.error || "no such game", true); return; }
      adopt(answer.data.game);
      var named = game.title || dealName(game);
      say(named.charAt(0).toUpperCase() + named.slice(1) + ", " + gameName(game) + ": " +
        (game.ply ? "resumed after " + game.ply + " moves." : "a new game.") +
        " Tab to the board; arrow keys move between cards, Enter picks a card and drops it.");
    }).catch(function () { say("the server did not answer: is `scorpion serve` still running?", true); });
  }

  // The page's own state, for a person in the console and for the browser tests.
  window.scorpionGame = {
    state: function () { return game; },
    picked: function () { return picked; },
    hint: function () { return hint; },
    readable: readable
  };
})();
