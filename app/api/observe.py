"""Seeing what a server does: an id for every request. (The metrics are served on a port
of their own: `app.metrics.serve`.)"""

from __future__ import annotations

import re
import secrets

from fastapi import APIRouter
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app import logs

router = APIRouter(tags=["operations"])

# A caller's (or proxy's) X-Request-ID is kept when it is a sane token, else we make one.
_REQUEST_ID = re.compile(r"[\w.-]{1,64}")


class RequestIds:
    """ASGI middleware: each HTTP request and websocket gets an id, in logs and in replies."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        given = dict(scope["headers"]).get(b"x-request-id", b"").decode("latin-1")
        request_id = given if _REQUEST_ID.fullmatch(given) else secrets.token_hex(8)
        token = logs.request_id.set(request_id)

        async def send_with_id(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [*message.get("headers", []), (b"x-request-id", request_id.encode())]
                message = {**message, "headers": headers}
            await send(message)

        try:
            # A websocket's frames carry no headers: its sends go straight through.
            await self.app(scope, receive, send_with_id if scope["type"] == "http" else send)
        finally:
            logs.request_id.reset(token)
