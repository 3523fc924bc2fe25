"""What no route takes: a NUL character anywhere in a request (PROTOCOL §2g).

PostgreSQL cannot store a NUL in a text column, and no name, id or text of ours holds
one, so a request with a NUL in its path, its query or a string of its JSON body (a key
or a value, at any depth) is refused with 422 before any route reads it; a websocket
frame with one is a `bad_request` (app/api/frames.py). One rule at the door, so a route
added later cannot forget it.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote_to_bytes

import orjson
from starlette.datastructures import Headers
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.words import pick_language, say

NUL = "\x00"


def holds_nul(value: Any) -> bool:
    """Whether a string anywhere in `value` (parsed JSON: keys too) holds a NUL."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if NUL in item:
                return True
        elif isinstance(item, dict):
            for key, inner in item.items():
                if NUL in key:
                    return True
                stack.append(inner)
        elif isinstance(item, list):
            stack.extend(item)
    return False


def _in_url(scope: Scope) -> bool:
    raw = scope.get("raw_path") or scope.get("path", "").encode()
    query: bytes = scope.get("query_string", b"")
    return b"\x00" in unquote_to_bytes(raw) or b"\x00" in unquote_to_bytes(query) \
        or NUL in scope.get("path", "")


def _in_body(body: bytes) -> bool:
    if b"\\u0000" not in body and b"\x00" not in body:
        return False  # the cheap look: a NUL in JSON text is always spelt one of these ways
    try:
        return holds_nul(orjson.loads(body))
    except orjson.JSONDecodeError:
        return False  # not JSON: the route refuses it as such


def _refusal(scope: Scope) -> JSONResponse:
    lang = pick_language(Headers(scope=scope).get("accept-language"))
    return JSONResponse({"detail": say("nul_refused", lang=lang)}, status_code=422)


class NulGuard:
    """ASGI middleware: a request with a NUL in its path, query or JSON body gets 422.

    The body (bounded by app/api/limits.py's BodyLimit outside this one) is read whole
    before the route runs, then handed on as it came."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        if _in_url(scope):
            if scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": 1008})
            else:
                await _refusal(scope)(scope, receive, send)
            return
        if scope["type"] != "http" or scope.get("method") in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        chunks: list[bytes] = []
        ended: Message | None = None
        while True:
            message = await receive()
            if message["type"] != "http.request":
                ended = message  # the client went (or the body was over its limit)
                break
            chunks.append(message.get("body", b""))
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        if ended is None and _in_body(body):
            await _refusal(scope)(scope, receive, send)
            return
        given = False

        async def replay() -> Message:
            nonlocal given
            if not given:
                given = True
                if ended is not None:
                    return ended
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)
