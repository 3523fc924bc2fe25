"""Errors that are not bugs of ours become honest PROTOCOL statuses, never a bare 500."""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request, status
from fastapi.responses import JSONResponse
from redis.exceptions import RedisError
from sqlalchemy import exc

from app import metrics
from app.live.writes import WriteUnknown
from app.words import ErrorKey, pick_language, say

log = logging.getLogger(__name__)

# PROTOCOL §2a `unavailable`: how long a client should wait before trying again.
RETRY_MS = 1000

# These mean our SQL or our data is wrong: a real bug, left to surface as such.
_BUGS = (exc.IntegrityError, exc.ProgrammingError, exc.DataError)


def _unavailable(request: Request, error: Exception, what: str = "database") -> JSONResponse:
    metrics.count_error(error)
    log.warning("%s unavailable during %s %s: %r", what, request.method, request.url.path, error)
    key: ErrorKey = "database_unavailable" if what == "database" else "live_store_unavailable"
    body: dict[str, object] = {"retry_ms": RETRY_MS}
    if isinstance(error, WriteUnknown):  # PROTOCOL §2a `not_known`: read it again
        key, body["not_known"] = "write_not_known", True
    lang = pick_language(request.headers.get("accept-language"))
    return JSONResponse(
        {"detail": say(key, lang=lang), **body},
        status_code=status.HTTP_503_SERVICE_UNAVAILABLE,
        headers={"Retry-After": str(-(-RETRY_MS // 1000))},
    )


async def _live_store_error(request: Request, error: Exception) -> JSONResponse:
    return _unavailable(request, error, "live store")


async def _database_error(request: Request, error: Exception) -> JSONResponse:
    if isinstance(error, exc.DBAPIError) and isinstance(error, _BUGS):
        raise error
    return _unavailable(request, error)


def install_error_handlers(app: FastAPI) -> None:
    # A lost or refused connection, a pool timeout, a locked SQLite file: the database
    # did not answer, which is a 503 the client may retry.
    app.add_exception_handler(exc.DBAPIError, _database_error)
    app.add_exception_handler(exc.DisconnectionError, _database_error)
    app.add_exception_handler(exc.TimeoutError, _database_error)
    app.add_exception_handler(ConnectionError, _database_error)
    app.add_exception_handler(RedisError, _live_store_error)
