"""Learn to play: four lessons on small hand-made positions, played on the real board with the real rules.

The lessons are data (``lessons.toml``: each one's position text, sentences and
steps); this module reads them, checks a step's goal on the true position
(:data:`GOALS`), and serves a lesson exactly as a game is served: a lesson is
a :class:`LessonTable` (a ``Table`` that starts from the lesson's position
instead of a deal) behind a :class:`LessonService` (the game service,
``service.GameService``, over the lessons' table of the database,
``lesson_store.LessonStore``, sharing the games' store and help pool), and its
routes are the games' (``routes.game_routes``). Moves, undo, redo, goto, restart
and the hint are the game's own code, so every rule and every refusal is the
engine's; a lesson only adds its sentences, the cards to highlight and whether
its goal is met.

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
from .errors import Conflict, NotFound
from .lesson_store import LessonStore
from .routes import game_routes
from .rules_page import rules_page
from .service import MISSING, GameService
from .shell import page, page_file
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
        raise NotFound(f"no lesson {text[:40]!r}: the lessons are 1 to {len(lessons())}")
    return int(text)


# ---------------------------------------------------------------------------------
# a lesson served as a game


@dataclass
class LessonTable(Table):
    """A game from the lesson's position (not a deal); its status is ``done`` once the lesson's goals are met."""

    lesson: Lesson | None = field(default=None, repr=False)

    @classmethod
    def of(cls, lesson: Lesson, line, ply: int) -> "LessonTable":
        """The lesson's game: from its own position (no deal number: ``Table``'s ``start``), ``line`` played."""
        return cls(0, lesson.rules, list(line), ply, lesson.start, lesson=lesson)

    @property
    def status(self) -> str:
        played = super().status
        if played == PLAYING and self.lesson.progress(self.position)[1]:
            return DONE
        return played


class LessonService(GameService):
    """The game service over the lessons: the same moves, undo, redo, goto, restart and hint, on lesson
    tables kept in the lessons' table (the games' store and help pool, shared)."""

    def __init__(self, games: GameService) -> None:
        modes = {lesson.number: lesson.rules.name for lesson in lessons()}
        super().__init__(games.config, LessonStore(games.store, modes), games.pool)

    def row(self, number: int) -> GameRow:
        return self.store.game(number)

    def exists(self, number: int) -> None:
        """Lesson numbers are checked where the address is read (:func:`lesson_number`)."""

    def table(self, row: GameRow) -> Table:
        """A lesson is replayed from its few moves on every request (no cache)."""
        lesson = lessons()[row.id - 1]
        return LessonTable.of(lesson, row.line, row.ply)

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

    def move(self, number: int, version, move=MISSING) -> dict:
        row, table = self.load(number)
        if table.status in (DONE, WON):
            raise Conflict(
                f"lesson {number} is finished: restart it (or undo) to play it again, or go on to the next",
                game=self._state(row, table),
            )
        return self._noted(number, super().move(number, version, move))

    def set_ply(self, number: int, version, how: str, ply=MISSING) -> dict:
        return self._noted(number, super().set_ply(number, version, how, ply))

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


def learning_routes(games: GameService) -> list[Route]:
    """The lessons' pages and API and the rules page (docs/serve.md, "Learning"): the games' routes
    (``routes.game_routes``: state, moves, undo, redo, goto, restart, hint) over a :class:`LessonService`."""
    learning = LessonService(games)

    def number(request: Request) -> int:
        return lesson_number(request.path_params["number"])

    async def all_lessons(request: Request):
        return JSONResponse(learning.summaries())

    async def lesson(request: Request):
        return HTMLResponse(lesson_page(number(request)))

    return [
        Route("/learn/{number}", lesson),
        Route("/rules", rules_page),
        Route("/api/lessons", all_lessons),
        *game_routes(learning, "/api/lessons/{number}", number),
    ]


@functools.cache
def lesson_page(number: int) -> str:
    """The board page (``game.html``) with the lesson's panel: game.js plays it, lesson.js says what to do."""
    lesson = lessons()[number - 1]
    body = page_file("game.html")
    body = re.sub(
        r'<body class="([^"]*)"',
        lambda m: f'<body class="{m.group(1)} lesson-page" data-api="/api/lessons/{number}"',
        body,
        count=1,
    )
    body = body.replace("</header>", "</header>\n" + page_file("lesson-panel.html"), 1)
    body = body.replace("</body>", '<script src="/static/lesson.js"></script>\n</body>', 1)
    return page(f"Scorpion: lesson {number}, {lesson.title}", body, styles=("lesson.css",))
