"""Request bodies: a size limit enforced while the body streams in, and 422 answers that
never echo more than a short prefix of what was sent."""

from __future__ import annotations

from typing import Any

import orjson
from fastapi import FastAPI, Request, status
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.words import pick_language, say

# How much of a refused input a 422 shows (characters of its JSON text), and how many of
# its errors: a 422 is never much longer than a line or two, whatever was sent.
ECHO_CHARS = 64
MAX_ERRORS = 10


def _too_large(limit: int, scope: Scope) -> JSONResponse:
    lang = pick_language(Headers(scope=scope).get("accept-language"))
    return JSONResponse(
        {"detail": say("body_too_large", {"limit": limit}, lang)},
        status_code=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE,
        # the rest of the body is not read: the connection cannot carry another request
        headers={"Connection": "close"},
    )


class BodyLimit:
    """ASGI middleware: a body over `limit` bytes is refused with 413, by its
    Content-Length before any of it is read, or as soon as the streamed chunks pass it;
    never after reading the whole of it.

    Past the limit the application is told the client went away (so nothing parses the
    rest), whatever it answers to that is dropped, and the 413 goes out instead.
    """

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            await _too_large(self.limit, scope)(scope, receive, send)
            return
        received = 0
        over = started = False

        async def counted() -> Message:
            nonlocal received, over
            if over:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.limit:
                    over = True
                    return {"type": "http.disconnect"}
            return message

        async def watched(message: Message) -> None:
            nonlocal started
            if over:
                return
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, counted, watched)
        except Exception:
            if not over:
                raise
        if over and not started:
            await _too_large(self.limit, scope)(scope, receive, send)


def _short(value: Any) -> Any:
    """`value` as it is when its JSON is short, else the first ECHO_CHARS characters of it."""
    try:
        text = orjson.dumps(jsonable_encoder(value)).decode()
    except (TypeError, ValueError):
        return None
    if len(text) <= ECHO_CHARS:
        return value
    return text[:ECHO_CHARS] + "…"


def _cut(text: str) -> str:
    return text if len(text) <= ECHO_CHARS else text[:ECHO_CHARS] + "…"


async def _validation_error(request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, RequestValidationError)
    errors = []
    for item in error.errors()[:MAX_ERRORS]:
        item = dict(item)
        item["loc"] = [p if isinstance(p, int) else _cut(str(p)) for p in item.get("loc", ())]
        item["msg"] = _cut(str(item.get("msg", "")))
        if "input" in item:
            item["input"] = _short(item["input"])
        if "ctx" in item:
            item["ctx"] = {k: _short(v) for k, v in item["ctx"].items()}
        errors.append(item)
    return JSONResponse({"detail": jsonable_encoder(errors)},
                        status_code=status.HTTP_422_UNPROCESSABLE_ENTITY)


def install_body_limits(app: FastAPI, limit: int) -> None:
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_middleware(BodyLimit, limit=limit)
