"""Who may talk to ``scorpion serve``: the checks every request passes before a route sees it.

The server has no login: anyone who reaches its port plays. What it refuses is
a request that a page of another site makes the player's own browser send:

* **DNS rebinding.** A name the attacker controls can resolve to 127.0.0.1,
  and then that site's pages talk to this server as "their own" origin. The
  browser still sends the name it used in ``Host``, so a request whose Host
  is not a name of this server (``allowed_hosts``: the bound address, the
  loopback names, and whatever ``--allow-host`` adds) is refused, 421, pages
  and API alike.
* **Cross-site requests.** A page of another origin can make the browser POST
  here (a form, or ``fetch`` in no-cors mode). A state-changing request (any
  method but GET and HEAD) must say ``Content-Type: application/json`` (a form
  cannot: 415), and when the browser names where it comes from (``Origin``,
  ``Sec-Fetch-Site``, which every current browser sends on a POST) that must be
  this server itself (403). Clients that are not browsers (curl, the tests'
  client) send neither header and pass.

Game ids are random (``store.new_token``), so a page elsewhere cannot name a
game it has not been shown. Every refusal is JSON ``{"error": ...}``, as the
API's are.
"""

from __future__ import annotations

import json
from urllib.parse import urlsplit

LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1")
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")
BODY_METHODS = ("POST", "PUT", "PATCH")  # the methods a form or a no-cors fetch can send with a body


def host_name(host: str) -> str:
    """The name in a Host header or an origin's netloc, without the port and IPv6 brackets, lowercased."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1 : host.find("]")] if "]" in host else host
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


class RequestGuard:
    """ASGI middleware: refuses a wrong Host, and a state-changing request that is not same-origin JSON."""

    def __init__(self, app, allowed_hosts) -> None:
        self.app = app
        self.allowed = {host_name(h) for h in allowed_hosts}

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        refusal = self.refusal(scope)
        if refusal is None:
            await self.app(scope, receive, send)
            return
        status, message = refusal
        body = json.dumps({"error": message}).encode()
        headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})

    def refusal(self, scope) -> tuple[int, str] | None:
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        host = headers.get("host", "")
        if host_name(host) not in self.allowed:
            return 421, f"this server does not answer to the name {host[:60]!r} (see scorpion serve --allow-host)"
        if scope["method"] in SAFE_METHODS:
            return None
        kind = headers.get("content-type", "").split(";")[0].strip().lower()
        if scope["method"] in BODY_METHODS and kind != "application/json":
            return 415, "a request that changes a game must be JSON (Content-Type: application/json)"
        origin = headers.get("origin")
        if origin is not None and urlsplit(origin).netloc.lower() != host.strip().lower():
            return 403, "a page of another site cannot change a game here"
        site = headers.get("sec-fetch-site")
        if site is not None and site not in ("same-origin", "none"):
            return 403, "a page of another site cannot change a game here"
        return None
