// The cards of Scorpion, one drawing for the `scorpion show` pages (inlined before page.js) and the
// game of `scorpion serve` (served as /static/cards.js): card elements, their names in words, their
// place in a column, and the card size that lets the tallest column fit the window (cards.css).
(function () {
  "use strict";
  var SYMBOL = { C: "\u2663", S: "\u2660", H: "\u2665", D: "\u2666" };
  var SUIT_NAME = { C: "clubs", S: "spades", H: "hearts", D: "diamonds" };
  var RANK_NAME = {
    A: "ace", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine",
    T: "ten", J: "jack", Q: "queen", K: "king"
  };
  var DOWN_STEP = 0.17, UP_STEP = 0.4, HEIGHT = 1.4;  // as in cards.css, in card widths
  var CW_MIN = 46;  // px: below this a card's corner is too small to read, so the page scrolls instead

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = text;
    return node;
  }
  function rankText(card) { return card[0] === "T" ? "10" : card[0]; }
  function short(card) { return rankText(card) + SYMBOL[card[1]]; }
  // "seven of hearts": what a screen reader says for 7H.
  function cardName(card) { return RANK_NAME[card[0]] + " of " + SUIT_NAME[card[1]]; }

  function face(card, extra) {
    var node = el("div", "card face s-" + card[1] + (extra ? " " + extra : ""));
    node.dataset.card = card;
    node.appendChild(el("span", "corner", short(card)));
    node.appendChild(el("span", "pip", SYMBOL[card[1]]));
    return node;
  }
  function back(extra) {
    return el("div", "card back" + (extra ? " " + extra : ""));
  }
  // A card's place in its column: below `down` face-down and `up` face-up cards; `clear` moves it
  // below the whole top card (for marks of what left the column, so that they cover nothing).
  function place(node, down, up, clear) {
    node.style.setProperty("--d", down);
    node.style.setProperty("--u", up);
    if (clear) node.style.setProperty("--clear", 1);
    return node;
  }
  // The height of a column whose last card lies below `down` face-down and `up` face-up cards.
  function stackHeight(down, up, extra) {
    return "calc(var(--cw) * (" + down + " * var(--down-step) + " + up + " * var(--up-step)) + var(--ch)" +
      (extra ? " + " + extra : "") + ")";
  }

  // Size the cards so that the tallest column fits between the board's top and the window's bottom:
  // `extents` holds, per column, [face-down cards, face-up cards] (the marks of a page count as face-up).
  // The width's own limit (--cw-width) still holds; below CW_MIN the cards stay at CW_MIN and the page
  // scrolls. Sets --cw-fit on the root element; returns the card width chosen.
  function fit(board, extents, reserve) {
    var root = document.documentElement;
    root.style.removeProperty("--cw-fit");
    var probe = el("div");
    probe.style.width = "var(--cw)";
    probe.style.position = "absolute";
    probe.style.visibility = "hidden";
    board.appendChild(probe);
    var byWidth = probe.getBoundingClientRect().width;
    board.removeChild(probe);
    var top = board.getBoundingClientRect().top + window.scrollY;
    var width = fitWidth(extents, byWidth, window.innerHeight - top - (reserve || 16));
    if (width < byWidth - 0.5) root.style.setProperty("--cw-fit", width.toFixed(2) + "px");
    return width;
  }
  // fit's arithmetic, without measuring: the card width (px) that lets the tallest of `extents` fit in
  // `room` px of height, at most `byWidth` (the width's own limit) and at least CW_MIN. The game's board
  // measures once and calls this (serve/static/game.js), so a move forces no layout of its own.
  function fitWidth(extents, byWidth, room) {
    var units = HEIGHT;
    extents.forEach(function (e) {
      var down = e[0], up = e[1];
      var last = up > 0 ? down * DOWN_STEP + (up - 1) * UP_STEP : Math.max(0, down - 1) * DOWN_STEP;
      units = Math.max(units, last + HEIGHT);
    });
    return Math.min(byWidth, Math.max(Math.min(CW_MIN, byWidth), room / units));
  }

  window.ScorpionCards = {
    STEPS: { down: DOWN_STEP, up: UP_STEP, height: HEIGHT },
    SYMBOL: SYMBOL,
    SUIT_NAME: SUIT_NAME,
    RANK_NAME: RANK_NAME,
    el: el,
    rankText: rankText,
    short: short,
    cardName: cardName,
    face: face,
    back: back,
    place: place,
    stackHeight: stackHeight,
    fit: fit,
    fitWidth: fitWidth
  };
})();
