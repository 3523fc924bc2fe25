"""The ASGI application: `create_app()` wires routers, static files and the lifespan."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI

from app.api import auth, games, health, leaderboard, players
from app.api.errors import install_error_handlers
from app.config import settings
from app.db.session import Database, migrate


@asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    await migrate(settings.database_url)
    app.state.db = Database(settings.database_url)
    health.add_ready_check(app.state, "database", app.state.db.ping)
    try:
        yield
    finally:
        await app.state.db.dispose()


def create_app() -> FastAPI:
    app = FastAPI(title="Domino server", lifespan=lifespan)

    @app.get("/healthz", tags=["health"])
    async def healthz() -> dict[str, str]:
        return {"status": "ok"}

    install_error_handlers(app)
    for module in (health, auth, players, leaderboard, games):
        app.include_router(module.router)
    return app


app = create_app()
