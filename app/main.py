"""The ASGI application: `create_app()` wires routers, static files and the lifespan."""

from __future__ import annotations

import logging
import os
import signal
import threading
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from types import FrameType
from typing import Any

from fastapi import FastAPI
from uvicorn import Server

from app import collector, metrics
from app.api import (
    auth,
    games,
    health,
    leaderboard,
    observe,
    players,
    reviews,
    tables,
    variants,
    ws,
)
from app.api import clubs as club_routes
from app.api import moderation as moderation_routes
from app.api import people as people_routes
from app.api import seeks as seek_routes
from app.api import tournaments as tournament_routes
from app.api.bounds import NulGuard
from app.api.errors import install_error_handlers
from app.api.headers import SecurityHeaders
from app.api.i18n import install_translations
from app.api.limits import install_body_limits
from app.api.origins import OriginGuard
from app.api.ratelimit import install_rate_limits
from app.api.webfiles import WebFiles
from app.config import settings
from app.db.session import Database, migrate
from app.services.runtime import LiveTables
from app.services.tables import census

WEB = Path(__file__).resolve().parent / "web"

log = logging.getLogger(__name__)

SignalHandler = Callable[[int, FrameType | None], None]


def _exit_now(why: str) -> None:
    # os.write and os._exit: safe from a signal handler or a timer thread, whatever the
    # event loop is doing (a stop must not depend on the code that failed to stop).
    os.write(2, f"domino: {why}; exiting now\n".encode())
    os._exit(1)


def _arm_stop_signals(seconds: float) -> None:
    """Wrap the server's own SIGTERM/SIGINT handlers: the first signal starts its graceful
    stop, which may not outlast `seconds`; a second signal ends the process at once."""
    if threading.current_thread() is not threading.main_thread():
        return
    stopping = threading.Event()

    def chained(previous: Callable[[int, FrameType | None], Any]) -> SignalHandler:
        def handler(signum: int, frame: FrameType | None) -> None:
            if stopping.is_set():
                _exit_now("a second stop signal")
            stopping.set()
            watchdog = threading.Timer(
                seconds, _exit_now, (f"the stop took longer than {seconds:g} s",)
            )
            watchdog.daemon = True
            watchdog.start()
            previous(signum, frame)

        return handler

    for sig in (signal.SIGTERM, signal.SIGINT):
        previous = signal.getsignal(sig)
        # Only uvicorn's: a test runner's or another host's handlers are left alone.
        if callable(previous) and isinstance(getattr(previous, "__self__", None), Server):
            signal.signal(sig, chained(previous))


@asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    _arm_stop_signals(settings.shutdown_seconds)
    await migrate(settings.database_url)
    app.state.db = Database(settings.database_url)
    health.add_ready_check(app.state, "database", app.state.db.ping)
    app.state.live = LiveTables(settings, app.state.db)
    await app.state.live.start()
    health.add_ready_check(app.state, "live store", app.state.live.ping)
    counting = census.Counting(app.state.live.store)
    if settings.metrics_port:
        counting.start()
    collector.settle_heap(settings.gc_threshold)
    log.info("ready (process %s)", app.state.live.process_id)
    try:
        yield
    finally:
        log.info("stopping: sockets were told to reconnect; releasing presence and clocks")
        await counting.stop()
        await app.state.live.stop()
        await app.state.db.dispose()
        metrics.process_stopped()
        log.info("stopped")


def create_app() -> FastAPI:
    # The API's schema and its pages (/openapi.json, /docs, /redoc) only in development:
    # the public contract is docs/protocol.md, and a production server maps no routes for others.
    docs = settings.mode == "development"
    app = FastAPI(title="Domino server", lifespan=lifespan,
                  openapi_url="/openapi.json" if docs else None,
                  docs_url="/docs" if docs else None, redoc_url="/redoc" if docs else None)

    @app.get("/healthz", tags=["health"])
    async def healthz() -> dict[str, str]:
        return {"status": "ok"}

    install_error_handlers(app)
    install_translations(app)
    install_rate_limits(app)
    # Inside the body limit: what it reads of a body is bounded already.
    app.add_middleware(NulGuard)
    install_body_limits(app, settings.max_body_bytes)
    for module in (health, observe, auth, players, leaderboard, games, reviews, tables, variants,
                   ws):
        app.include_router(module.router)
    app.include_router(seek_routes.router)
    app.include_router(tournament_routes.router)
    app.include_router(people_routes.router)
    app.include_router(moderation_routes.router)
    app.include_router(club_routes.router)
    # What another site's page sends (with the player's cookie) goes no further; its
    # refusal carries the security headers too.
    app.add_middleware(OriginGuard, allowed_origins=settings.origins)
    web = WebFiles(WEB, blocks={"variants": variants.playable_json()})
    app.add_middleware(SecurityHeaders, script_hashes=web.script_hashes)
    # Outermost, so every log line of a request (the rate limiter's too) carries its id.
    app.add_middleware(observe.RequestIds)
    # The browser client, last: every API route above takes precedence over its files.
    app.mount("/", web, name="web")
    return app


app = create_app()
