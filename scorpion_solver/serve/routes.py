"""The routes that games and lessons share, and the adapter every route goes through.

``game_routes`` answers a game's state, moves, undo, redo, goto, restart and hint under a prefix, over any
service with the game service's interface (``service.GameService``, ``lessons.LessonService``);
``guarded`` turns the service's domain errors (``serve.errors``, ``table.GameError``) into statuses
(:data:`STATUS`): every refusal a 4xx ``{"error": message}``, a page's refusal a small HTML page. The
app (``serve.app``) and the lessons (``serve.lessons``) both build on this module, not on each other.
"""

from __future__ import annotations

import asyncio
import threading
import time

from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse
from starlette.routing import Route

from .body import TooLarge, read_json
from .errors import BadRequest, Busy, Conflict, NeedsPeek, NotFound, ServiceError
from .service import MISSING, GameService
from .shell import error_page
from .table import GameError

STATUS = {BadRequest: 400, NeedsPeek: 403, NotFound: 404, Conflict: 409, TooLarge: 413, Busy: 503}
ACTIONS = ("move", "undo", "redo", "goto", "restart")  # what games and lessons both answer, alike


def error_answer(request: Request, status: int, message: str, **extra):
    """A refusal: JSON for the API, a small page for an address a person opened (a page or a mistyped path)."""
    if request.url.path.startswith(("/api/", "/static/")):
        return JSONResponse({"error": message, **extra}, status_code=status)
    return HTMLResponse(error_page(status, message), status_code=status)


def guarded(handler):
    """The route with the service's refusals as answers, and the app's own time in ``Server-Timing``."""

    async def endpoint(request: Request):
        start = time.perf_counter()
        try:
            response = await handler(request)
        except ServiceError as exc:
            response = error_answer(request, STATUS[type(exc)], exc.message, **exc.extra)
        except GameError as exc:
            rule = {"rule": exc.rule, "section": exc.section} if exc.rule else {}
            response = error_answer(request, 400, str(exc), **rule)
        # the time spent in the app, apart from the network and the server's queue (benchmarks/bench_serve.py)
        response.headers["Server-Timing"] = f"app;dur={(time.perf_counter() - start) * 1000:.3f}"
        return response

    return endpoint


async def _watch_disconnect(request: Request, gone: threading.Event) -> None:
    """Set ``gone`` when the client goes away (a closed tab, an aborted fetch), so the worker stops."""
    while not gone.is_set():
        if await request.is_disconnected():
            gone.set()
            return
        await asyncio.sleep(0.2)


def game_routes(service: GameService, prefix: str, ref) -> list[Route]:
    """The routes a game and a lesson share, under ``prefix`` (``/api/games/{game_id}``): the state, the
    moves, undo, redo, goto, restart and the hint; ``ref(request)`` names the game or the lesson."""

    async def one(request: Request):
        return JSONResponse({"game": service.state(ref(request))})

    def action(how: str):
        async def run(request: Request):
            key = ref(request)
            data = await read_json(request)
            version = data.get("version", MISSING)
            if how == "move":
                return JSONResponse({"game": service.move(key, version, data.get("move", MISSING))})
            if how == "restart":
                return JSONResponse({"game": service.restart(key, version)})
            return JSONResponse({"game": service.set_ply(key, version, how, data.get("ply", MISSING))})

        return run

    async def hint(request: Request):
        key = ref(request)
        data = await read_json(request)
        gone = threading.Event()  # the page closed or dropped the request: the worker stops between layouts
        watcher = asyncio.ensure_future(_watch_disconnect(request, gone))
        try:
            answer = await service.hint(
                key,
                data.get("kind", "fair"),
                data.get("version", MISSING),
                data.get("samples", MISSING),
                data.get("seed", MISSING),
                gone,
            )
        finally:
            gone.set()  # stops the watcher; a call still running was asked its question already
            watcher.cancel()
        return JSONResponse(answer)

    routes = [Route(prefix, one), Route(prefix + "/hint", hint, methods=["POST"])]
    routes += [Route(f"{prefix}/{how}", action(how), methods=["POST"]) for how in ACTIONS]
    return routes
