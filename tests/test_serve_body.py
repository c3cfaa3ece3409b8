"""A request body read at the edge (serve/body.py): a client that hangs up mid-body is one line in the log."""

from __future__ import annotations

import asyncio
import logging

import pytest
from starlette.requests import Request

from scorpion_solver.serve.body import read_json
from scorpion_solver.serve.errors import BadRequest


def test_a_client_hanging_up_mid_body_logs_one_line(caplog):
    messages = iter([{"type": "http.request", "body": b'{"move": "9', "more_body": True}, {"type": "http.disconnect"}])

    async def receive():
        return next(messages)

    scope = {"type": "http", "method": "POST", "path": "/api/games/g1/moves", "headers": [], "query_string": b""}
    with caplog.at_level(logging.INFO, logger="scorpion_solver.serve"):
        with pytest.raises(BadRequest, match="hung up"):
            asyncio.run(read_json(Request(scope, receive)))
    (record,) = caplog.records
    assert record.exc_info is None and "\n" not in record.getMessage()
    assert record.getMessage() == "POST /api/games/g1/moves: the client hung up after 11 bytes of its body"
