"""The web app of ``scorpion serve``: Starlette routes over the game, the database and the help pool.

Routes are thin: each reads and checks its request (:func:`read_json`,
:func:`_int`), then calls the table (``serve.table``), the database
(``serve.store``) or the pool (``serve.helpers``). Every API answer is JSON in
the project's card notation; every refusal is a 4xx ``{"error": message}`` (a
409 also carries the current ``game``, a refused move the ``rule`` it breaks),
never a 500 or a traceback; an address a person opens gets its refusal as a
small HTML page. Before any route, ``serve.guard`` refuses a foreign Host and a
state-changing request that is not same-origin JSON. No answer depends on a
card the player has not seen unless peeking is on (docs/serve.md, "Fair
play"). The API is in ``serve/API.md`` and docs/serve.md.

Concurrency. Moves, undo and the like run on the event loop itself: each is a
few milliseconds of engine work and one SQLite transaction, and running them
one at a time is what makes the version check exact (two tabs: the second
finds the version moved and gets 409 with the state). Solver calls go to the
pool, off the loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import html
import json
import random
import string
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, RedirectResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ..analysis.hint_reasons import fair_hint_reason
from ..batch.deal_grades import GRADES, grade_deals
from ..game.engine import apply_move, parse_move, parse_moves
from ..game.view import Observation
from ..play.intervals import wilson_interval
from . import helpers
from .guard import LOOPBACK_NAMES, RequestGuard
from .store import FINISHED, GameRow, StaleVersion, Store, UnknownGame, looks_like_token, new_token
from .table import IDENTITY, PLAYING, GameError, Table, check_deal, check_mode, import_line, shown_text, status_of

STATIC = Path(__file__).resolve().parent / "static"
PAGES = Path(__file__).resolve().parent / "pages"  # each page's body; page.html is the head they share
PAGE_TITLES = {"index.html": "Scorpion: play a deal", "game.html": "Scorpion", "stats.html": "Scorpion: statistics"}
MAX_BODY = 64 * 1024  # a move file of thousands of moves fits; anything bigger is refused (413)
MAX_SAMPLES = 100  # as many as `scorpion hint --fair` takes by default; bounds a hint's work
DEFAULT_SAMPLES = 30
RANDOM_DEALS = 1_000_000  # "any" random deal: the deals the committed results cover
PEEK_KINDS = ("winnable", "peek", "line")
HINT_KINDS = ("fair", *PEEK_KINDS)
HINT_DEADLINE = 60.0  # seconds a fair hint may take in all (its layouts' solves each have their own clock)


class ApiError(Exception):
    def __init__(self, status: int, message: str, **extra) -> None:
        super().__init__(message)
        self.status, self.message, self.extra = status, message, extra


def _default_results_root() -> Path:
    """The committed results next to the package (a source checkout); the current folder's otherwise."""
    here = Path(__file__).resolve().parents[2] / "results"
    return here if here.is_dir() else Path("results")


@dataclass
class Config:
    db: Path | str
    results_root: Path = field(default_factory=_default_results_root)
    workers: int = 2
    queue: int = 8
    wait_seconds: float = 30.0
    budget: helpers.Budget = helpers.Budget()
    allowed_hosts: tuple[str, ...] = LOOPBACK_NAMES  # the names the server answers to (serve.guard)
    hint_deadline: float = HINT_DEADLINE
    tokens: Callable[[], str] = new_token  # a new game's public id (the tests pass a counter)


# ---------------------------------------------------------------------------------
# request reading


async def read_json(request: Request) -> dict:
    """The body as a JSON object (empty body: {}); 413 past MAX_BODY, 400 when it is not a JSON object."""
    length = request.headers.get("content-length")
    if length is not None:
        try:
            if int(length) > MAX_BODY:
                raise ApiError(413, f"the body is larger than {MAX_BODY} bytes")
        except ValueError:
            raise ApiError(400, "the Content-Length header is not a number") from None
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise ApiError(413, f"the body is larger than {MAX_BODY} bytes")
    if not body.strip():
        return {}
    try:
        data = json.loads(bytes(body))
    except (ValueError, RecursionError):
        raise ApiError(400, "the body is not valid JSON") from None
    if not isinstance(data, dict):
        raise ApiError(400, "the body must be a JSON object")
    return data


def _int(data: dict, key: str, required: bool = True, default=None, low=None, high=None):
    if key not in data:
        if required:
            raise ApiError(400, f"'{key}' is missing")
        return default
    value = data[key]
    if isinstance(value, bool) or not isinstance(value, int):
        raise ApiError(400, f"'{key}' must be a whole number, got {json.dumps(value)[:60]}")
    if (low is not None and value < low) or (high is not None and value > high):
        raise ApiError(400, f"'{key}' must be between {low} and {high}, got {value}")
    return value


# ---------------------------------------------------------------------------------
# the app


class Server:
    """The app's state: the database, the tables in memory (a cache of the database), the pool."""

    def __init__(self, config: Config) -> None:
        self.config = config
        self.store = Store(config.db, tokens=config.tokens)
        self.pool = helpers.HelpPool(config.workers, config.queue, config.wait_seconds, config.budget)
        self._tables: dict[int, tuple[int, int, Table]] = {}  # id -> (version, attempt, table)
        self._grades: dict[str, dict[int, str]] = {}

    # -- games -------------------------------------------------------------------

    def game_id(self, request: Request) -> int:
        """The database id of the game the address names (its public id, a random token); 404 otherwise."""
        text = request.path_params["game_id"]
        try:
            if not looks_like_token(text):
                raise UnknownGame(text)
            return self.store.game_id(text)
        except UnknownGame:
            raise ApiError(404, f"no game {text[:40]!r}") from None

    def load(self, game_id: int) -> tuple[GameRow, Table]:
        try:
            row = self.store.game(game_id)
        except UnknownGame:
            raise ApiError(404, f"no game {game_id}") from None
        cached = self._tables.get(game_id)
        if cached and cached[0] == row.version and cached[1] == row.attempt:
            return row, cached[2]
        table = Table.replayed(row.deal, check_mode(row.mode), row.line, row.ply)
        self._tables[game_id] = (row.version, row.attempt, table)
        if len(self._tables) > 256:
            self._tables.pop(next(iter(self._tables)))
        return row, table

    def state(self, game_id: int) -> dict:
        row, table = self.load(game_id)
        return self._state(row, table)

    def _state(self, row: GameRow, table: Table) -> dict:
        status = table.status
        return {
            "id": row.token,
            "deal": row.deal,
            "mode": row.mode,
            "grade": row.grade,
            "version": row.version,
            "status": status,
            "ply": table.ply,
            "moves": table.shown_moves(),
            "can_undo": table.ply > 0,
            "can_redo": table.ply < len(table.line),
            "peek": row.peek,
            "view": table.view(),
            "legal": table.legal() if status == PLAYING else [],
            "tail_locked": table.tail_locked(),
            "last": table.last(),
            "hints_asked": row.hints_asked,
            "peeked": row.peek,
            "imported": row.imported,
        }

    def _expect(self, data: dict, row: GameRow, table: Table) -> int:
        version = _int(data, "version")
        if version != row.version:
            raise ApiError(
                409,
                "the game changed in another tab or request: here is its current state",
                game=self._state(row, table),
            )
        return version

    def _stale(self, game_id: int) -> ApiError:
        return ApiError(
            409, "the game changed in another tab or request: here is its current state", game=self.state(game_id)
        )

    def create(self, data: dict) -> int:
        rules = check_mode(data.get("mode", "clear"))
        grade = None
        if "random" in data:
            if "deal" in data:
                raise ApiError(400, "give 'deal' or 'random', not both")
            number, grade = self.random_deal(data["random"], rules.name)
        else:
            number = check_deal(_int(data, "deal"))
        line = []
        if "moves" in data:
            if not isinstance(data["moves"], str):
                raise ApiError(400, "'moves' must be the text of a move file")
            line = import_line(number, rules, data["moves"])
        table = Table.replayed(number, rules, line, len(line))
        return self.store.create_game(number, rules.name, grade, line, table.status)

    def random_deal(self, kind, mode: str) -> tuple[int, str | None]:
        if kind == "any":
            return random.randint(1, RANDOM_DEALS), None
        if kind not in GRADES:
            raise ApiError(400, f"'random' must be any, {', '.join(GRADES)}; got {json.dumps(kind)[:40]}")
        grades = self.grades(mode)
        pool = sorted(d for d, g in grades.items() if g == kind)
        if not pool:
            raise ApiError(400, f"no {kind} deal is known in {mode} (the committed play results are not here)")
        return random.choice(pool), kind

    def grades(self, mode: str) -> dict[int, str]:
        if mode not in self._grades:
            root = Path(self.config.results_root)
            try:
                self._grades[mode] = grade_deals(mode, root, root / "deals-1-1000000")
            except (OSError, ValueError):
                self._grades[mode] = {}
        return self._grades[mode]

    def move(self, game_id: int, data: dict) -> dict:
        row, table = self.load(game_id)
        self._expect(data, row, table)
        if table.status != PLAYING:
            raise ApiError(
                409,
                f"the game is over ({table.status}): undo, go back or restart to play on",
                game=self._state(row, table),
            )
        if "move" not in data:
            raise ApiError(400, "'move' is missing")
        played = table.resolve(data["move"])
        after = apply_move(table.position, parse_move(played.move), table.rules)
        try:
            self.store.play(game_id, row.version, played, status_of(after, table.rules))
        except StaleVersion:
            raise self._stale(game_id) from None
        table.push(played)  # the cached table follows the database (moves run one at a time on the event loop)
        self._tables[game_id] = (row.version + 1, row.attempt, table)
        return self.state(game_id)

    def set_ply(self, game_id: int, data: dict, how: str) -> dict:
        row, table = self.load(game_id)
        self._expect(data, row, table)
        if how == "undo":
            if table.ply == 0:
                raise ApiError(400, "nothing to undo")
            ply = table.ply - 1
        elif how == "redo":
            if table.ply >= len(table.line):
                raise ApiError(400, "nothing to redo")
            ply = table.ply + 1
        else:
            ply = _int(data, "ply", low=0, high=len(table.line))
        status = status_of(table.position_at(ply), table.rules)
        try:
            self.store.set_ply(game_id, row.version, ply, status)
        except StaleVersion:
            raise self._stale(game_id) from None
        table.ply = ply
        self._tables[game_id] = (row.version + 1, row.attempt, table)
        return self.state(game_id)

    def restart(self, game_id: int, data: dict) -> dict:
        row, table = self.load(game_id)
        self._expect(data, row, table)
        try:
            self.store.restart(game_id, row.version)
        except StaleVersion:
            raise self._stale(game_id) from None
        return self.state(game_id)

    def peek(self, game_id: int, data: dict) -> dict:
        row, table = self.load(game_id)
        if data.get("on") is not True:
            raise ApiError(400, 'peeking can only be switched on ({"on": true}); it stays on for the game')
        version = self._expect(data, row, table)
        try:
            self.store.peek_on(game_id, version, table.ply)
        except StaleVersion:
            raise self._stale(game_id) from None
        return self.state(game_id)

    def export(self, game_id: int) -> str:
        row, table = self.load(game_id)
        lines = [
            f"# deal {row.deal} mode {row.mode}",
            f"# scorpion analyze {row.deal} --mode {row.mode} --moves-file F",
        ]
        return "\n".join(lines + [str(m) for m in table.engine_moves()]) + "\n"

    def stats(self) -> dict:
        finished = self.store.finished_games()
        helped = self.store.help_counts()
        out = {}
        for mode in sorted(set(helped) | {g["mode"] for g in finished}):
            rows = [g for g in finished if g["mode"] == mode]
            won = sum(g["outcome"] == "won" for g in rows)
            low, high = wilson_interval(won, len(rows))
            best = run = 0
            for g in rows:
                run = run + 1 if g["outcome"] == "won" else 0
                best = max(best, run)
            counts = helped.get(mode, {})
            out[mode] = {
                "games": counts.get("games", len(rows)),
                "finished": len(rows),
                "won": won,
                "lost": len(rows) - won,
                "win_rate": won / len(rows) if rows else None,
                "low": low if rows else None,
                "high": high if rows else None,
                "best_streak": best,
                "fair_hints": counts.get("fair", 0),
                "peeks": counts.get("peeks", 0),
                "peeked_games": counts.get("peeked_games", 0),
                "imported": counts.get("imported", 0),
            }
        note = (
            "a game counts by its first finish (won or lost); games in play are not counted; "
            "imported games are counted apart (imported), never in the games, the results or the help"
        )
        return {"modes": out, "note": note}


class HintTimeout(Exception):
    """A fair hint ran past the app's overall deadline (Config.hint_deadline): 503."""


async def _watch_disconnect(request: Request, gone: threading.Event) -> None:
    """Set ``gone`` when the client goes away (a closed tab, an aborted fetch), so the worker stops."""
    while not gone.is_set():
        if await request.is_disconnected():
            gone.set()
            return
        await asyncio.sleep(0.2)


def _error(request: Request, status: int, message: str, **extra):
    """A refusal: JSON for the API, a small page for an address a person opened (a page or a mistyped path)."""
    if request.url.path.startswith(("/api/", "/static/")):
        return JSONResponse({"error": message, **extra}, status_code=status)
    return HTMLResponse(_error_page(status, message), status_code=status)


def _shown_moves_text(text: str, perm) -> str:
    return " ".join(shown_text(m, perm) for m in parse_moves(text)) if text else text


def _translate_hint(kind: str, result, perm) -> dict:
    if kind == "fair":
        for m in result["moves"]:
            m["move"] = _shown_moves_text(m["move"], perm)
        result["best"] = _shown_moves_text(result["best"], perm) if result["best"] else None
        return result
    if kind == "winnable":
        return result
    if kind == "peek":
        for m in result["moves"]:
            m["move"] = _shown_moves_text(m["move"], perm)
            m["solution"] = _shown_moves_text(m["solution"], perm)
        result["best"] = _shown_moves_text(result["best"], perm) if result["best"] else None
        return result
    status, moves = result
    return {"status": status, "line": [shown_text(m, perm) for m in moves]}


def create_app(config: Config, extensions=()) -> Starlette:
    server = Server(config)

    def guarded(handler):
        async def endpoint(request: Request):
            start = time.perf_counter()
            try:
                response = await handler(request)
            except ApiError as exc:
                response = _error(request, exc.status, exc.message, **exc.extra)
            except GameError as exc:
                rule = {"rule": exc.rule} if exc.rule else {}
                response = _error(request, 400, str(exc), **rule)
            # the time spent in the app, apart from the network and the server's queue (benchmarks/bench_serve.py)
            response.headers["Server-Timing"] = f"app;dur={(time.perf_counter() - start) * 1000:.3f}"
            return response

        return endpoint

    async def home(request: Request):
        query = request.query_params
        if "deal" in query or "random" in query:
            data: dict = {"mode": query.get("mode", "clear")}
            if "random" in query:
                data["random"] = query["random"]
            else:
                text = query["deal"].strip()
                if not (text.isascii() and text.isdigit()) or len(text) > 19:
                    raise ApiError(400, f"deal must be a number from 1, got {text[:40]!r}")
                data["deal"] = int(text)
            game_id = await run_in_threadpool(server.create, data)
            return RedirectResponse(f"/game/{server.store.game(game_id).token}", status_code=303)
        return _page("index.html")

    async def game_page(request: Request):
        server.load(server.game_id(request))
        return _page("game.html")

    async def stats_page(request: Request):
        return _page("stats.html")

    async def games(request: Request):
        if request.method == "GET":
            return JSONResponse({"games": server.store.summaries()})
        data = await read_json(request)
        game_id = await run_in_threadpool(server.create, data)
        return JSONResponse({"game": server.state(game_id)}, status_code=201)

    async def one_game(request: Request):
        return JSONResponse({"game": server.state(server.game_id(request))})

    def action(fn):
        async def run(request: Request):
            game_id = server.game_id(request)
            data = await read_json(request)
            return JSONResponse({"game": fn(game_id, data)})

        return run

    async def hint(request: Request, server: Server = server):  # serve/lessons.py passes its LessonServer
        game_id = server.game_id(request)
        data = await read_json(request)
        row, table = server.load(game_id)
        kind = data.get("kind", "fair")
        if kind not in HINT_KINDS:
            raise ApiError(400, f"'kind' must be one of {', '.join(HINT_KINDS)}, got {json.dumps(kind)[:40]}")
        server._expect(data, row, table)
        if kind in PEEK_KINDS and not row.peek:
            raise ApiError(403, f"'{kind}' reads the hidden cards: switch peeking on for this game first")
        samples = _int(data, "samples", required=False, default=DEFAULT_SAMPLES, low=1, high=MAX_SAMPLES)
        seed = _int(data, "seed", required=False, default=row.version, low=0, high=2**32 - 1)
        budget, rules, perm = config.budget, table.rules, table.perm
        gone = threading.Event()  # the page closed or dropped the request: the worker stops between layouts
        deadline = time.monotonic() + config.hint_deadline

        def current() -> bool:
            return not gone.is_set() and server.store.game(game_id).version == row.version

        def in_time() -> bool:
            if time.monotonic() > deadline:
                raise HintTimeout()
            return current()

        if kind == "fair":
            call = (helpers.fair, Observation.of(table.position), rules, samples, seed, budget.fair(), in_time)
        elif kind == "line":
            call = (helpers.line, table.position, rules, budget.peek())
        elif kind == "winnable":
            call = (helpers.winnable, table.position, rules, budget.peek())
        else:
            call = (helpers.peek, table.position, rules, budget.peek())

        result = await _help(request, gone, call, current, game_id, server)
        if server.store.game(game_id).version != row.version:
            raise server._stale(game_id)  # the player moved while the solver worked: the answer is for nobody
        # counted once answered: a refused or dropped request gave the player nothing
        server.store.add_event(game_id, kind, table.ply, {"samples": samples} if kind == "fair" else None)
        if kind == "fair":
            result["reason"] = fair_hint_reason(call[1], result, rules)  # the top move's, from the view (call[1])
        return JSONResponse({"hint": _translate_hint(kind, result, perm), "kind": kind, "version": row.version})

    async def _help(request: Request, gone: threading.Event, call: tuple, current, game_id: int, server=server):
        """Run a solver call in the pool while watching the connection; the refusals it may end in as ApiErrors."""
        watcher = asyncio.ensure_future(_watch_disconnect(request, gone))
        try:
            result = await server.pool.run(*call, still_current=current)
        except helpers.PoolFull as exc:
            raise ApiError(503, str(exc), retry=True) from None
        except HintTimeout:
            raise ApiError(
                503, f"the hint did not finish in {config.hint_deadline:g} s: ask with fewer samples", retry=True
            ) from None
        except helpers.Stale:
            raise server._stale(game_id) from None
        finally:
            gone.set()  # stops the watcher; a call still running was asked its question already
            watcher.cancel()
        return result

    async def analysis(request: Request):
        game_id = server.game_id(request)
        data = await read_json(request)
        row, table = server.load(game_id)
        finished = table.status != PLAYING
        if not finished and not row.peek:
            raise ApiError(
                403,
                "the analysis of a game in play reads the hidden cards: switch peeking on for this game first "
                "(after the game ends it is open)",
            )
        if "version" in data:
            server._expect(data, row, table)
        # what the answer is written from, taken now: the table may move on while the solver works
        played, moves, start, rules = table.line[: table.ply], table.engine_moves(), table.position_at(0), table.rules
        gone = threading.Event()
        result = await _help(
            request, gone, (helpers.analysis, start, moves, rules, config.budget.peek()), lambda: True, game_id
        )
        server.store.add_event(game_id, "analysis" if finished else "analysis_unfinished", table.ply)
        index = result["fatal_index"]
        if index:
            before = played[index - 2].perm if index > 1 else IDENTITY
            result["fatal_move"] = played[index - 1].shown
            result["alternative"] = _shown_moves_text(result["alternative"] or "", before) or None
            result["alternative_solution"] = _shown_moves_text(result["alternative_solution"], before)
        return JSONResponse({"analysis": result, "version": row.version})

    async def export(request: Request):
        game_id = server.game_id(request)
        row, _ = server.load(game_id)
        return PlainTextResponse(
            server.export(game_id),
            headers={"Content-Disposition": f'attachment; filename="scorpion-deal{row.deal}-{row.mode}.txt"'},
        )

    async def stats(request: Request):
        return JSONResponse(server.stats())

    routes = [
        Route("/", guarded(home)),
        Route("/game/{game_id}", guarded(game_page)),
        Route("/stats", guarded(stats_page)),
        Route("/api/games", guarded(games), methods=["GET", "POST"]),
        Route("/api/games/{game_id}", guarded(one_game)),
        Route("/api/games/{game_id}/move", guarded(action(server.move)), methods=["POST"]),
        Route(
            "/api/games/{game_id}/undo", guarded(action(lambda g, d: server.set_ply(g, d, "undo"))), methods=["POST"]
        ),
        Route(
            "/api/games/{game_id}/redo", guarded(action(lambda g, d: server.set_ply(g, d, "redo"))), methods=["POST"]
        ),
        Route(
            "/api/games/{game_id}/goto", guarded(action(lambda g, d: server.set_ply(g, d, "goto"))), methods=["POST"]
        ),
        Route("/api/games/{game_id}/restart", guarded(action(server.restart)), methods=["POST"]),
        Route("/api/games/{game_id}/peek", guarded(action(server.peek)), methods=["POST"]),
        Route("/api/games/{game_id}/hint", guarded(hint), methods=["POST"]),
        Route("/api/games/{game_id}/analysis", guarded(analysis), methods=["POST"]),
        Route("/api/games/{game_id}/export", guarded(export)),
        Route("/api/stats", guarded(stats)),
        # the page's files, then the card drawing the game shares with `scorpion show` (page/cards)
        Mount(
            "/static",
            app=StaticFiles(directory=STATIC, packages=[("scorpion_solver.page", "cards")], check_dir=False),
            name="static",
        ),
    ]

    for extend in extensions:  # more pages and routes on this server and its hint (serve/__init__.py: the lessons)
        routes += extend(server, guarded, hint)

    async def http_error(request: Request, exc: HTTPException):
        message = {404: "no such page or API path", 405: "method not allowed here"}.get(exc.status_code, exc.detail)
        response = _error(request, exc.status_code, message)
        response.headers.update(getattr(exc, "headers", None) or {})
        return response

    async def unexpected(request: Request, exc: Exception):
        # a bug, not a user mistake: still one line, no traceback sent to the page
        return _error(request, 500, f"internal error ({type(exc).__name__})")

    @contextlib.asynccontextmanager
    async def lifespan(app):
        yield
        server.pool.shutdown()  # queued solver calls are dropped; a running one ends with its time budget

    app = Starlette(
        routes=routes,
        exception_handlers={HTTPException: http_error, Exception: unexpected},
        lifespan=lifespan,
        middleware=[Middleware(RequestGuard, allowed_hosts=config.allowed_hosts)],
    )
    app.state.server = server
    return app


@functools.cache
def _page_text(name: str) -> str:
    shell = string.Template((PAGES / "page.html").read_text(encoding="utf-8"))
    return shell.substitute(title=PAGE_TITLES[name], body=(PAGES / name).read_text(encoding="utf-8"))


def _page(name: str) -> HTMLResponse:
    return HTMLResponse(_page_text(name))


def _error_page(status: int, message: str) -> str:
    """The shared head around a short message and the way back to the start page."""
    shell = string.Template((PAGES / "page.html").read_text(encoding="utf-8"))
    body = (
        '<body class="error-page"><main><h1>' + html.escape(f"{status}: {message}") + "</h1>"
        '<p><a href="/">Back to the start page</a> to open a deal or a game in progress.</p></main></body>\n'
    )
    return shell.substitute(title=f"Scorpion: {status}", body=body)


# statuses a game ends in, re-exported for the tests
__all__ = ["FINISHED", "Config", "create_app", "read_json"]
