"""A request's JSON body, read at the edge: a JSON object of at most MAX_BODY bytes, or a 4xx."""

from __future__ import annotations

import json
import logging

from starlette.requests import ClientDisconnect, Request

from .errors import BadRequest, ServiceError

LOG = logging.getLogger(__name__)
MAX_BODY = 64 * 1024  # a move file of thousands of moves fits; anything bigger is refused (413)


class TooLarge(ServiceError):
    """The body is larger than MAX_BODY: 413."""


async def read_json(request: Request) -> dict:
    """The body as a JSON object (empty body: {}); TooLarge past MAX_BODY, BadRequest when it is not one."""
    length = request.headers.get("content-length")
    if length is not None:
        try:
            if int(length) > MAX_BODY:
                raise TooLarge(f"the body is larger than {MAX_BODY} bytes")
        except ValueError:
            raise BadRequest("the Content-Length header is not a number") from None
    body = bytearray()
    try:
        async for chunk in request.stream():
            body += chunk
            if len(body) > MAX_BODY:
                raise TooLarge(f"the body is larger than {MAX_BODY} bytes")
    except ClientDisconnect:
        # a closed tab or an aborted fetch: one line in the log, not a traceback; the answer goes to no one
        LOG.warning("%s %s: the client hung up after %d bytes of its body", request.method, request.url.path, len(body))
        raise BadRequest("the client hung up before its body was read") from None
    if not body.strip():
        return {}
    try:
        data = json.loads(bytes(body))
    except (ValueError, RecursionError):
        raise BadRequest("the body is not valid JSON") from None
    if not isinstance(data, dict):
        raise BadRequest("the body must be a JSON object")
    return data
