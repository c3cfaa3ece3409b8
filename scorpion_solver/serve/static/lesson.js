// Learn to play. On a lesson's page (/learn/N) the board is game.js's, playing /api/lessons/N: this script
// only reads each STATE game.js draws ("scorpion:render") and says what the lesson's `lesson` part says:
// the step to do, the cards it is about (marked on the board), whether the goal is met, and the server's
// sentence for a refused move ("scorpion:refused"). On the start page it lists the lessons and where the
// player stands. The server decides everything (serve/lessons.py); this script judges nothing.
(function () {
  "use strict";

  function byId(id) { return document.getElementById(id); }

  function post(path, body) {
    return fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body)
    }).then(function (r) { return r.json().then(function (d) { return { ok: r.ok, data: d }; }); });
  }

  // The fifth step: a whole shuffled deal, winnable and graded easy (the server picks it from the grades).
  // `note` says first that the pick is under way (a status, not an error), then, if the server refuses, why.
  function openFullGame(button, note, request) {
    button.disabled = true;
    note.className = "pending";
    note.setAttribute("role", "status");
    note.textContent = "finding an easy deal\u2026";
    post("/api/games", request).then(function (answer) {
      if (answer.ok) { location.href = "/game/" + answer.data.game.id; return; }
      if (answer.data.retry) {  // 503: the server is still grading its private pool; ask again shortly
        note.textContent = "the server is preparing graded deals; asking again\u2026";
        window.setTimeout(function () { openFullGame(button, note, request); }, 2000);
        return;
      }
      button.disabled = false;
      note.className = "error";
      note.setAttribute("role", "alert");
      note.textContent = (answer.data.error || "the server refused") + " ";
      var any = document.createElement("a");
      any.href = "/?random=any&mode=clear";
      any.textContent = "Play any deal instead";
      note.appendChild(any);
    });
  }

  // ---- a lesson's page ---------------------------------------------------------------------------

  var said = null;      // the instruction last put in the live region (said once, not at every redraw)
  var lessons = null;   // GET /api/lessons: the full game's request

  function showLesson(state) {
    var lesson = state.lesson;
    if (!lesson) return;
    byId("lesson-count").textContent = "lesson " + lesson.number + " of " + lesson.of;
    byId("lesson-title").textContent = state.title;
    byId("game-title").textContent = state.title;
    byId("lesson-intro").textContent = lesson.intro;
    var steps = byId("lesson-steps");
    steps.textContent = "";
    lesson.steps.forEach(function (text, k) {
      var item = document.createElement("li");
      item.textContent = text;
      if (k < lesson.step) item.className = "met";
      else if (k === lesson.step) item.className = "current";
      steps.appendChild(item);
    });
    steps.hidden = lesson.steps.length < 2;
    byId("lesson-progress").textContent = lesson.steps.length < 2 ? "" :
      "(step " + Math.min(lesson.step + 1, lesson.steps.length) + " of " + lesson.steps.length + ")";
    if (showLesson.version === undefined && window.matchMedia("(max-width: 699px)").matches) {
      byId("lesson-about").open = false;  // a phone: the board on the first screen; the intro one tap away
    }
    if (said !== lesson.say) { byId("lesson-say").textContent = lesson.say; said = lesson.say; }
    byId("lesson-try").textContent = lesson.done || state.ply ? "" : lesson.try;
    var finished = state.status === "done" || state.status === "won";
    var banner = byId("banner");
    if (finished) {
      banner.hidden = false;
      banner.className = "banner done";
      banner.textContent = "Lesson " + lesson.number + " done!";
    }
    byId("lesson-next").hidden = !finished;
    var last = lesson.number === lesson.of;
    byId("next-lesson").hidden = last;
    byId("next-lesson").href = "/learn/" + (lesson.number + 1);
    byId("next-lesson").textContent = "Next: lesson " + (lesson.number + 1);
    byId("full-game").hidden = !last;
    if (state.version !== (showLesson.version || 0)) {
      byId("lesson-why").hidden = true;
      byId("announce").classList.remove("in-lesson");
    }
    showLesson.version = state.version;
    document.title = "Scorpion: " + state.title;
  }

  // The cards of the current step, ringed and named, each time game.js marks the board ("scorpion:marked":
  // a move drawn, a pick, a put-back): it keeps the cards that did not change, so the marks are set again.
  var MARK_NAME = ", this lesson's card";
  function markCards(state) {
    var lesson = state.lesson;
    if (!lesson) return;
    byId("tail").classList.toggle("lesson-mark", lesson.highlight.indexOf("tail") >= 0);
    document.querySelectorAll("#board .lesson-mark").forEach(function (node) { node.classList.remove("lesson-mark"); });
    lesson.highlight.forEach(function (card) {
      document.querySelectorAll('#board .card[data-card="' + card + '"]').forEach(function (node) {
        node.classList.add("lesson-mark");
        var label = node.getAttribute("aria-label");
        if (label.slice(-MARK_NAME.length) !== MARK_NAME) node.setAttribute("aria-label", label + MARK_NAME);
      });
    });
  }

  function showRefusal(data) {
    var why = byId("lesson-why");
    var sentence = (data.error || "the server refused that move").replace(/^\S+ is not legal here: /, "");
    why.textContent = "Not allowed: " + window.scorpionGame.readable(sentence) + " ";  // 3D as 3\u2666
    why.dataset.rule = data.rule || "";
    if (data.rule) {
      var link = document.createElement("a");
      link.href = "/rules#" + (data.section || "moving-cards");  // the server names it (serve/games.py)
      link.textContent = "The rule (" + data.rule + ")";
      why.appendChild(link);
    }
    why.hidden = false;
    byId("announce").classList.add("in-lesson");
  }

  if (document.body.classList.contains("lesson-page")) {
    document.addEventListener("scorpion:render", function (event) { showLesson(event.detail); });
    document.addEventListener("scorpion:marked", function (event) { markCards(event.detail); });
    document.addEventListener("scorpion:refused", function (event) { showRefusal(event.detail); });
    // the board may have been drawn while this script was still loading: catch up with it
    var drawn = window.scorpionGame && window.scorpionGame.state();
    if (drawn) { showLesson(drawn); markCards(drawn); }
    fetch("/api/lessons").then(function (r) { return r.json(); }).then(function (data) { lessons = data; });
    byId("full-game").addEventListener("click", function () {
      openFullGame(byId("full-game"), byId("full-game-error"), (lessons && lessons.full_game) || { random: "easy", mode: "clear" });
    });
  }

  // ---- the start page: "Learn to play" ------------------------------------------------------------

  var list = byId("learn-list");
  if (list) {
    fetch("/api/lessons").then(function (r) { return r.json(); }).then(function (data) {
      lessons = data;
      list.textContent = "";
      var words = { done: "\u2713 done", started: "started", "new": "not yet" };
      data.lessons.forEach(function (lesson) {
        var item = document.createElement("li");
        item.className = lesson.status;
        item.dataset.lesson = lesson.number;
        var mark = document.createElement("span");
        mark.className = "mark";
        mark.textContent = words[lesson.status];
        var link = document.createElement("a");
        link.href = "/learn/" + lesson.number;
        link.textContent = lesson.number + ". " + lesson.title;
        item.appendChild(mark);
        item.appendChild(link);
        list.appendChild(item);
      });
      var full = document.createElement("li");
      full.className = data.next === null ? "ready" : "new";
      var fullMark = document.createElement("span");
      fullMark.className = "mark";
      fullMark.textContent = data.next === null ? "next" : "at the end";
      var button = document.createElement("button");
      button.type = "button";
      button.id = "learn-full-game";
      button.textContent = "5. Now a full game (an easy, winnable deal)";
      var error = document.createElement("span");
      error.className = "error";
      error.setAttribute("role", "alert");
      button.addEventListener("click", function () { openFullGame(button, error, data.full_game); });
      full.appendChild(fullMark);
      full.appendChild(button);
      full.appendChild(error);
      list.appendChild(full);
      var go = byId("learn-go");
      var started = data.lessons.some(function (l) { return l.status !== "new"; });
      if (data.next === null) { go.textContent = "All four lessons done: play a full game below"; go.removeAttribute("href"); }
      else {
        go.href = "/learn/" + data.next;
        go.textContent = (started ? "Continue: lesson " : "Start: lesson ") + data.next;
      }
    });
  }
})();
