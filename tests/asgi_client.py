"""A synchronous test client that runs the ASGI app in the calling thread, for tests that send thousands of requests.

Starlette's ``TestClient`` runs the app on an event loop in another thread and
crosses between the threads for every ASGI message: about eight crossings a
request, 2 ms of a request that the app answers in 0.6 ms. The fair-play leak
tests send about 4,000 requests a game, so that overhead was most of their
time. ``InProcessClient`` is an ``httpx.Client`` whose transport drives the
app with ``httpx.ASGITransport`` on an event loop of its own, run in the
calling thread for the length of each request: the app sees the same ASGI
messages and runs its lifespan (startup on enter, shutdown on exit), so the
service starts and stops as under uvicorn.

The loop runs only while a request is in flight. A test whose app must make
progress between requests (a hint still running after its client has gone)
uses ``TestClient``, whose loop never stops.
"""

from __future__ import annotations

import asyncio

import httpx


class _LoopTransport(httpx.BaseTransport):
    def __init__(self, app, loop: asyncio.AbstractEventLoop) -> None:
        self.asgi = httpx.ASGITransport(app=app)
        self.loop = loop

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        async def exchange() -> httpx.Response:
            response = await self.asgi.handle_async_request(request)
            body = await response.aread()
            return httpx.Response(response.status_code, headers=response.headers, content=body, request=request)

        return self.loop.run_until_complete(exchange())


class InProcessClient(httpx.Client):
    """``TestClient``'s interface for these tests (``request``, ``get``, ``post``, ``app``), without its threads."""

    def __init__(self, app, base_url: str) -> None:
        self.app = app
        self._loop = asyncio.new_event_loop()
        self._lifespan: asyncio.Task | None = None
        self._to_app: asyncio.Queue | None = None
        self._from_app: asyncio.Queue | None = None
        super().__init__(transport=_LoopTransport(app, self._loop), base_url=base_url, follow_redirects=True)

    def __enter__(self) -> InProcessClient:
        super().__enter__()
        self._loop.run_until_complete(self._start())
        return self

    def __exit__(self, *exc_info) -> None:
        try:
            self._loop.run_until_complete(self._stop())
        finally:
            super().__exit__(*exc_info)
            self._loop.close()

    async def _start(self) -> None:
        self._to_app, self._from_app = asyncio.Queue(), asyncio.Queue()
        scope = {"type": "lifespan", "asgi": {"version": "3.0"}, "state": {}}
        self._lifespan = asyncio.ensure_future(self.app(scope, self._to_app.get, self._from_app.put))
        await self._lifespan_step("startup")

    async def _stop(self) -> None:
        await self._lifespan_step("shutdown")
        await self._lifespan

    async def _lifespan_step(self, step: str) -> None:
        await self._to_app.put({"type": f"lifespan.{step}"})
        message = await self._from_app.get()
        if message["type"] != f"lifespan.{step}.complete":
            raise RuntimeError(f"the app's lifespan {step} failed: {message}")
