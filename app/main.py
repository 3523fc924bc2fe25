"""The ASGI application: `create_app()` wires routers, static files and the lifespan."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from app.api import auth, games, health, leaderboard, players, tables, variants, ws
from app.api.errors import install_error_handlers
from app.api.i18n import install_translations
from app.api.ratelimit import install_rate_limits
from app.config import settings
from app.db.session import Database, migrate
from app.services.runtime import LiveTables

WEB = Path(__file__).resolve().parent / "web"


@asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    await migrate(settings.database_url)
    app.state.db = Database(settings.database_url)
    health.add_ready_check(app.state, "database", app.state.db.ping)
    app.state.live = LiveTables(settings, app.state.db)
    await app.state.live.start()
    health.add_ready_check(app.state, "live store", app.state.live.ping)
    try:
        yield
    finally:
        await app.state.live.stop()
        await app.state.db.dispose()


def create_app() -> FastAPI:
    app = FastAPI(title="Domino server", lifespan=lifespan)

    @app.get("/healthz", tags=["health"])
    async def healthz() -> dict[str, str]:
        return {"status": "ok"}

    install_error_handlers(app)
    install_translations(app)
    install_rate_limits(app)
    for module in (health, auth, players, leaderboard, games, tables, variants, ws):
        app.include_router(module.router)
    # The browser client, last: every API route above takes precedence over its files.
    app.mount("/", StaticFiles(directory=WEB, html=True), name="web")
    return app


app = create_app()
