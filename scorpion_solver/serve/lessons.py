"""Learn to play: four lessons on small hand-made positions, played on the real board with the real rules.

The lessons are data (``lessons.toml``: each one's position text, sentences and
steps); this module reads them, checks a step's goal on the true position
(:data:`GOALS`), and serves a lesson exactly as a game is served: a lesson is
a :class:`LessonTable` (a ``Table`` that starts from the lesson's position
instead of a deal) behind a :class:`LessonServer` (the app's ``Server`` over
the lesson tables of the database, ``lesson_store.LessonStore``). Moves, undo,
redo, goto and restart are the game's own code, so every rule and every
refusal is the engine's; a lesson only adds its sentences, the cards to
highlight and whether its goal is met.

A lesson is addressed by its number (1-4) in ``/learn/N`` and
``/api/lessons/N``; its STATE's ``id`` is ``lesson-N``, which no game id
matches (a game URL with it is a 404). A lesson whose every goal is met is
``done``: its status is ``done`` (or ``won``), a move on it is refused (409)
until it is restarted or undone, and the database keeps, for good, that it
was finished (the start page's "Learn to play").
"""

from __future__ import annotations

import functools
import re
import string
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse
from starlette.routing import Route

from ..game.cards import parse_card, parse_suit
from ..game.engine import is_won
from ..game.position import Position
from ..game.position_text import parse_position
from ..game.rules import Rules
from .app import PAGES, ApiError, Server, read_json
from .lesson_store import LessonStore
from .rules_page import rules_page
from .store import GameRow
from .table import PLAYING, WON, Table

LESSONS_FILE = Path(__file__).resolve().parent / "lessons.toml"
DONE = "done"  # a lesson's status once every goal is met (the game itself is not over)
FULL_GAME = {"random": "easy", "mode": "clear"}  # the fifth step: a winnable deal the greedy player wins


# ---------------------------------------------------------------------------------
# the lessons, as data


def _on(position: Position, upper: int, lower: int) -> bool:
    for col, hidden in zip(position.columns, position.hidden):
        if upper in col:
            j = col.index(upper)
            return j > hidden and col[j - 1] == lower
    return False


def _bottom(position: Position, card: int) -> bool:
    return any(col and col[0] == card for col in position.columns)


# a step's goal: its first word, the parser of its arguments, and the test on the true position
GOALS = {
    "on": (lambda a: tuple(parse_card(t)[0] for t in a), lambda p, rules, upper, lower: _on(p, upper, lower)),
    "bottom": (lambda a: (parse_card(a[0])[0],), lambda p, rules, card: _bottom(p, card)),
    "swept": (lambda a: (parse_suit(a[0]),), lambda p, rules, suit: suit in p.swept_suits()),
    "tail": (lambda a: (), lambda p, rules: p.tail_dealt),
    "won": (lambda a: (), lambda p, rules: is_won(p, rules)),
}


@dataclass(frozen=True)
class Step:
    goal: str
    say: str
    highlight: tuple[str, ...]

    def met(self, position: Position, rules: Rules) -> bool:
        word, *args = self.goal.split()
        read, test = GOALS[word]
        return test(position, rules, *read(args))


@dataclass(frozen=True)
class Lesson:
    number: int
    title: str
    start: Position
    rules: Rules
    intro: str
    invite: str  # the wrong move to try first
    done: str
    steps: tuple[Step, ...]

    def progress(self, position: Position) -> tuple[int, bool]:
        """The first step whose goal is not met (its index; len(steps) when all are) and whether all are."""
        met = [step.met(position, self.rules) for step in self.steps]
        return (met.index(False) if False in met else len(met)), all(met)


@functools.cache
def lessons() -> tuple[Lesson, ...]:
    """The lessons of ``lessons.toml``, checked: each position parses, each goal is known and unmet at the start."""
    data = tomllib.loads(LESSONS_FILE.read_text(encoding="utf-8"))
    out = []
    for number, item in enumerate(data["lesson"], start=1):
        parsed = parse_position(item["position"], source=f"lessons.toml, lesson {number}")
        steps = tuple(Step(s["goal"], s["say"], tuple(s["highlight"])) for s in item["step"])
        lesson = Lesson(
            number, item["title"], parsed.position, parsed.rules, item["intro"], item["try"], item["done"], steps
        )
        for step in steps:
            if step.goal.split()[0] not in GOALS:
                raise ValueError(f"lessons.toml, lesson {number}: unknown goal {step.goal!r}")
        if any(step.met(lesson.start, lesson.rules) for step in steps):
            raise ValueError(f"lessons.toml, lesson {number}: a goal is met before the first move")
        out.append(lesson)
    return tuple(out)


def lesson_number(text: str) -> int:
    """The lesson a URL names (1 to the number of lessons); 404 otherwise."""
    if not (text.isascii() and text.isdigit() and len(text) < 4 and 1 <= int(text) <= len(lessons())):
        raise ApiError(404, f"no lesson {text[:40]!r}: the lessons are 1 to {len(lessons())}")
    return int(text)


# ---------------------------------------------------------------------------------
# a lesson served as a game


@dataclass
class LessonTable(Table):
    """A game from the lesson's position (not a deal); its status is ``done`` once the lesson's goals are met."""

    lesson: Lesson | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        self._positions = [self.lesson.start]

    @property
    def status(self) -> str:
        played = super().status
        if played == PLAYING and self.lesson.progress(self.position)[1]:
            return DONE
        return played


class LessonServer(Server):
    """The app's Server over the lessons: the same moves, undo, redo, goto and restart, on lesson tables."""

    def __init__(self, server: Server) -> None:
        vars(self).update(vars(server))  # the app's settings, pool and database connection, whatever they are
        self.store = LessonStore(server.store, {lesson.number: lesson.rules.name for lesson in lessons()})
        self._tables = {}  # not used: a lesson is replayed from its few moves on every request

    def game_id(self, request: Request) -> int:
        return lesson_number(request.path_params["number"])

    def load(self, number: int) -> tuple[GameRow, Table]:
        lesson = lessons()[number - 1]
        row = self.store.game(number)
        return row, LessonTable(0, lesson.rules, list(row.line), row.ply, lesson=lesson)

    def _state(self, row: GameRow, table: Table) -> dict:
        state = super()._state(row, table)
        lesson = table.lesson
        at, done = lesson.progress(table.position)
        step = lesson.steps[at] if at < len(lesson.steps) else None
        state["deal"] = None
        state["title"] = f"Lesson {lesson.number}: {lesson.title}"
        state["lesson"] = {
            "number": lesson.number,
            "of": len(lessons()),
            "title": lesson.title,
            "intro": lesson.intro,
            "try": lesson.invite,
            "step": at,
            "steps": [s.say for s in lesson.steps],
            "say": lesson.done if done else step.say,
            "highlight": [] if done else list(step.highlight),
            "done": done,
            "finished_before": self.store.finished(lesson.number),
        }
        return state

    def move(self, number: int, data: dict) -> dict:
        row, table = self.load(number)
        if table.status in (DONE, WON):
            raise ApiError(
                409,
                f"lesson {number} is finished: restart it (or undo) to play it again, or go on to the next",
                game=self._state(row, table),
            )
        return self._noted(number, super().move(number, data))

    def set_ply(self, number: int, data: dict, how: str) -> dict:
        return self._noted(number, super().set_ply(number, data, how))

    def _noted(self, number: int, state: dict) -> dict:
        """Keep for good that the lesson was finished, the first time its goals are met."""
        if state["lesson"]["done"] and not state["lesson"]["finished_before"]:
            self.store.mark_done(number)
            state["lesson"]["finished_before"] = True
        return state

    def summaries(self) -> dict:
        """Every lesson with the player's progress; ``next``: the first not finished (null when all are)."""
        rows = self.store.progress()
        out = []
        for lesson in lessons():
            row = rows.get(lesson.number)
            status = "done" if row and row["done"] else "started" if row else "new"
            out.append({"number": lesson.number, "title": lesson.title, "status": status})
        unfinished = [item["number"] for item in out if item["status"] != "done"]
        return {"lessons": out, "next": unfinished[0] if unfinished else None, "full_game": FULL_GAME}


# ---------------------------------------------------------------------------------
# routes and the page


def learning_routes(server: Server, guarded, hint) -> list[Route]:
    """The lessons' pages and API and the rules page (docs/serve.md, "Learning"), answered as the game's are:
    ``guarded`` turns refusals into 4xx answers, ``hint`` is the game's hint route (fair only here: a
    lesson never peeks)."""
    learning = LessonServer(server)

    def action(how):
        async def run(request: Request):
            number = learning.game_id(request)
            data = await read_json(request)
            if how == "move":
                return JSONResponse({"game": learning.move(number, data)})
            if how == "restart":
                return JSONResponse({"game": learning.restart(number, data)})
            return JSONResponse({"game": learning.set_ply(number, data, how)})

        return run

    async def one_lesson(request: Request):
        return JSONResponse({"game": learning.state(learning.game_id(request))})

    async def all_lessons(request: Request):
        return JSONResponse(learning.summaries())

    async def lesson_hint(request: Request):
        return await hint(request, server=learning)

    async def page(request: Request):
        return HTMLResponse(lesson_page(learning.game_id(request)))

    routes = [
        Route("/learn/{number}", page),
        Route("/rules", rules_page),
        Route("/api/lessons", all_lessons),
        Route("/api/lessons/{number}", one_lesson),
        Route("/api/lessons/{number}/hint", lesson_hint, methods=["POST"]),
    ]
    routes += [
        Route(f"/api/lessons/{{number}}/{how}", action(how), methods=["POST"])
        for how in ("move", "undo", "redo", "goto", "restart")
    ]
    return [Route(r.path, guarded(r.endpoint), methods=r.methods) for r in routes]


@functools.cache
def lesson_page(number: int) -> str:
    """The board page (``game.html``) with the lesson's panel: game.js plays it, lesson.js says what to do."""
    lesson = lessons()[number - 1]
    body = (PAGES / "game.html").read_text(encoding="utf-8")
    body = re.sub(
        r'<body class="([^"]*)"',
        lambda m: f'<body class="{m.group(1)} lesson-page" data-api="/api/lessons/{number}"',
        body,
        count=1,
    )
    panel = (PAGES / "lesson-panel.html").read_text(encoding="utf-8")
    body = body.replace("</header>", "</header>\n" + panel, 1)
    body = body.replace("</body>", '<script src="/static/lesson.js"></script>\n</body>', 1)
    shell = string.Template((PAGES / "page.html").read_text(encoding="utf-8"))
    html = shell.substitute(title=f"Scorpion: lesson {number}, {lesson.title}", body=body)
    return html.replace("</head>", '<link rel="stylesheet" href="/static/lesson.css">\n</head>', 1)
