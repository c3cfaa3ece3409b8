"""The web app of ``scorpion serve``: Starlette routes, thin adapters over the game service.

Each route reads its request (the path, the query, the JSON body: ``body.read_json``), calls
``service.GameService`` (or the lessons' ``LessonService``) with the request's values, and writes
the answer: JSON in the project's card notation for the API, a page in the one shell
(``shell.page``) for an address a person opens. The service knows no HTTP; here its domain errors
(``serve.errors``, ``table.GameError``) become statuses (:data:`STATUS`): every refusal is a 4xx
``{"error": message}`` (a 409 also carries the current ``game``, a refused move the ``rule`` it
breaks), never a 500 or a traceback, and a page's refusal is a small HTML page. Before any route,
``serve.guard`` refuses a foreign Host and a state-changing request that is not same-origin JSON. A
GET stores nothing: an address that opens a deal (``/?deal=N``, ``/?random=G``) makes a draft,
which the service stores at its first change (a POST). The API is in ``serve/API.md`` and
docs/serve.md; the structure of the package in ``serve/service.py``.

Concurrency. Moves, undo and the like run on the event loop itself: each is a few milliseconds of
engine work and one SQLite transaction, and running them one at a time is what makes the version
check exact (two tabs: the second finds the version moved and gets 409 with the state). Solver
calls go to the pool, off the loop.
"""

from __future__ import annotations

import contextlib
import html

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, RedirectResponse
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from .body import read_json
from .config import Config
from .errors import BadRequest
from .games import GAMES
from .guard import RequestGuard
from .lessons import learning_routes
from .routes import error_answer, game_routes, guarded
from .service import MISSING, GameService
from .shell import PAGES, page, page_file

STATIC = PAGES.parent / "static"
PAGE_TITLES = {"index.html": "Scorpion: play a deal", "game.html": "Scorpion", "stats.html": "Scorpion: statistics"}


def shell_page(name: str) -> HTMLResponse:
    body = page_file(name)
    if name == "index.html":
        body = body.replace("<!-- the games -->", game_choices())
    return HTMLResponse(page(PAGE_TITLES[name], body))


def game_choices() -> str:
    """The start page's choice of game (``serve.games``): a radio button each, with its line on how it differs
    (a game without graded deals says so to the page's script, which turns its "Winnable" buttons off)."""
    items = []
    for k, game in enumerate(GAMES.values()):
        checked = " checked" if k == 0 else ""
        graded = "" if game.graded else ' data-graded="false"'
        items.append(
            f'<li><label><input type="radio" name="mode" value="{game.mode}"{checked}{graded} '
            f'aria-describedby="differs-{game.mode}"> <b>{html.escape(game.name)}</b></label>'
            f' <span class="differs" id="differs-{game.mode}">{html.escape(game.differs)}</span></li>'
        )
    return '<ul class="game-choice">' + "".join(items) + "</ul>"


def create_app(config: Config) -> Starlette:
    """The app of ``scorpion serve``: the games' pages and API, the lessons and the rules page (``lessons``)."""
    service = GameService.open(config)

    def token(request: Request) -> str:
        """The game the address names (its public id); NotFound before the body is read."""
        text = request.path_params["game_id"]
        service.exists(text)
        return text

    async def home(request: Request):
        query = request.query_params
        if "deal" in query or "random" in query:  # a draft: stored at its first change, never by this GET
            if "deal" in query and "random" in query:  # as the API refuses the pair
                raise BadRequest(
                    "give deal=N (a deal by its number) or random=KIND (a deal the server picks), not both"
                )
            mode = query.get("mode", "clear")
            if "random" in query:
                game = await run_in_threadpool(service.draft, mode, random=query["random"])
            else:
                text = query["deal"].strip()
                if not (text.isascii() and text.isdigit()) or len(text) > 19:
                    raise BadRequest(f"deal must be a number from 1, got {text[:40]!r}")
                game = await run_in_threadpool(service.draft, mode, deal=int(text))
            return RedirectResponse(f"/game/{game}", status_code=303)
        return shell_page("index.html")

    async def game_page(request: Request):
        service.exists(token(request))
        return shell_page("game.html")

    async def stats_page(request: Request):
        return shell_page("stats.html")

    async def games(request: Request):
        if request.method == "GET":
            return JSONResponse({"games": service.summaries()})
        data = await read_json(request)
        fields = {k: data[k] for k in ("deal", "random", "moves", "replay") if k in data}
        game = await run_in_threadpool(service.create, data.get("mode", "clear"), **fields)
        return JSONResponse({"game": service.state(game)}, status_code=201)

    async def peek(request: Request):
        data = await read_json(request)
        return JSONResponse({"game": service.peek(token(request), data.get("on"), data.get("version", MISSING))})

    async def analysis(request: Request):
        key = token(request)
        data = await read_json(request)
        return JSONResponse(await service.analysis(key, data.get("version", MISSING)))

    async def export(request: Request):
        text, name = service.export(token(request))
        return PlainTextResponse(text, headers={"Content-Disposition": f'attachment; filename="{name}"'})

    async def stats(request: Request):
        return JSONResponse(service.stats())

    routes = [
        Route("/", home),
        Route("/game/{game_id}", game_page),
        Route("/stats", stats_page),
        Route("/api/games", games, methods=["GET", "POST"]),
        *game_routes(service, "/api/games/{game_id}", token),
        Route("/api/games/{game_id}/peek", peek, methods=["POST"]),
        Route("/api/games/{game_id}/analysis", analysis, methods=["POST"]),
        Route("/api/games/{game_id}/export", export),
        Route("/api/stats", stats),
    ]
    routes += learning_routes(service)  # the lessons and the rules page, over the same store and pool
    routes = [Route(r.path, guarded(r.endpoint), methods=r.methods) for r in routes]
    # the page's files, then the card drawing the game shares with `scorpion show` (page/cards)
    routes.append(
        Mount(
            "/static",
            app=StaticFiles(directory=STATIC, packages=[("scorpion_solver.page", "cards")], check_dir=False),
            name="static",
        )
    )

    async def http_error(request: Request, exc: HTTPException):
        message = {404: "no such page or API path", 405: "method not allowed here"}.get(exc.status_code, exc.detail)
        response = error_answer(request, exc.status_code, message)
        response.headers.update(getattr(exc, "headers", None) or {})
        return response

    async def unexpected(request: Request, exc: Exception):
        # a bug, not a user mistake: still one line, no traceback sent to the page
        return error_answer(request, 500, f"internal error ({type(exc).__name__})")

    @contextlib.asynccontextmanager
    async def lifespan(app):
        service.start()
        yield
        service.close()

    app = Starlette(
        routes=routes,
        exception_handlers={HTTPException: http_error, Exception: unexpected},
        lifespan=lifespan,
        middleware=[Middleware(RequestGuard, allowed_hosts=config.allowed_hosts)],
    )
    app.state.server = service
    return app
